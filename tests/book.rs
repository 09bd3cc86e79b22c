//! The opening book in ElephantEye's BOOK.DAT format.

use pao::board::{parse_move, Move, Position, RankBase};
use pao::book::eleeye::{book_key, encode_move};
use pao::book::{Book, BookMove};

fn mv(s: &str) -> Move {
    parse_move(s, RankBase::Zero).expect("move")
}

fn record(key: u32, m: Move, weight: u16) -> Vec<u8> {
    let mut r = key.to_le_bytes().to_vec();
    r.extend_from_slice(&encode_move(m).to_le_bytes());
    r.extend_from_slice(&weight.to_le_bytes());
    r
}

#[test]
fn start_position_key_matches_elephanteye() {
    assert_eq!(book_key(&Position::startpos(), false), 0x0526_56d5);
    // The start position is symmetric.
    assert_eq!(book_key(&Position::startpos(), true), 0x0526_56d5);
}

#[test]
fn small_book_with_mirrored_entries_and_collisions() {
    let start = Position::startpos();
    let key = book_key(&start, false);
    // After h2e2 the position is asymmetric: store it under its mirror with the mirrored reply.
    let mut after = Position::startpos();
    after.make_move(mv("h2e2"));
    let mirrored_key = book_key(&after, true);
    let mut bytes = Vec::new();
    bytes.extend(record(key, mv("h2e2"), 30));
    bytes.extend(record(key, mv("b2e2"), 10));
    bytes.extend(record(key, mv("a0a5"), 99)); // illegal here: a colliding key's move
    bytes.extend(record(mirrored_key, mv("b9c7"), 7)); // mirror of h9g7
    let book = Book::from_bytes(&bytes).expect("book");
    let mut pos = Position::startpos();
    assert_eq!(
        book.moves(&mut pos),
        vec![
            BookMove {
                mv: mv("h2e2"),
                weight: 30
            },
            BookMove {
                mv: mv("b2e2"),
                weight: 10
            }
        ]
    );
    assert_eq!(
        book.moves(&mut after),
        vec![BookMove {
            mv: mv("h9g7"),
            weight: 7
        }]
    );
    // Weighted choice: picks in [0, 30) give h2e2, [30, 40) b2e2.
    assert_eq!(
        book.choose(&mut pos, 29, &[]).map(|b| b.mv),
        Some(mv("h2e2"))
    );
    assert_eq!(
        book.choose(&mut pos, 30, &[]).map(|b| b.mv),
        Some(mv("b2e2"))
    );
    assert_eq!(
        book.choose(&mut pos, 40 + 5, &[]).map(|b| b.mv),
        Some(mv("h2e2"))
    );
    // Banned moves are never chosen.
    assert_eq!(
        book.choose(&mut pos, 0, &[mv("h2e2")]).map(|b| b.mv),
        Some(mv("b2e2"))
    );
    assert!(Book::from_bytes(&bytes[..12]).is_err());
}

#[test]
fn never_a_move_that_repeats_a_position() {
    let mut pos = Position::startpos();
    for m in ["h0g2", "h9g7", "g2h0"] {
        pos.make_move(mv(m));
    }
    // Black's g7h9 would repeat the start position.
    let key = book_key(&pos, false);
    let mut bytes = record(key, mv("g7h9"), 100);
    bytes.extend(record(key, mv("b9c7"), 1));
    let book = Book::from_bytes(&bytes).expect("book");
    for r in 0..101 {
        assert_eq!(
            book.choose(&mut pos, r, &[]).map(|b| b.mv),
            Some(mv("b9c7"))
        );
    }
}

#[test]
fn elephanteye_book_when_present() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../shared/data/eleeye-BOOK.DAT"
    );
    if !std::path::Path::new(path).exists() {
        eprintln!("skipped: ../shared/data/eleeye-BOOK.DAT not present");
        return;
    }
    let book = Book::open(path).expect("ElephantEye's book");
    assert_eq!(book.len(), 12081);
    let mut pos = Position::startpos();
    let moves = book.moves(&mut pos);
    assert_eq!(moves.len(), 16);
    for m in ["h2e2", "b2e2"] {
        assert_eq!(
            moves.iter().find(|b| b.mv == mv(m)).map(|b| b.weight),
            Some(1473),
            "{m}"
        );
    }
}

use pao::book::builder::{build, parse_games, BuildOptions, Outcome};

const GAMES: &str = "1-0 h2e2 h9g7 h0g2\n1/2-1/2 h2e2 h9g7 b0c2\n0-1 h2e2 b9c7\n1-0 c3c4 h9g7\n";

#[test]
fn builder_weights_are_exact() {
    let games = parse_games(GAMES).expect("games");
    assert_eq!(games.len(), 4);
    let entries = build(&games, &BuildOptions::default()).expect("build");
    let mut start = Position::startpos();
    let mut after = Position::startpos();
    after.make_move(mv("h2e2"));
    // h2e2: a win, a draw and a loss for red = 2 + 1 + 0 half points over 3 games.
    // h9g7 after h2e2: a loss and a draw for black = 0 + 1 over 2 games. The rest: 1 game.
    let mut expected = vec![
        (start.key(), mv("h2e2"), 3u16),
        (after.key(), mv("h9g7"), 1u16),
    ];
    expected.sort_by_key(|&(k, m, _)| (k, m.raw()));
    assert_eq!(entries, expected);
    let book = Book::from_bytes(&Book::pao_bytes(&entries)).expect("round trip");
    assert_eq!(book.format(), pao::book::Format::Pao);
    assert_eq!(
        book.moves(&mut start),
        vec![BookMove {
            mv: mv("h2e2"),
            weight: 3
        }]
    );
    assert_eq!(
        book.moves(&mut after),
        vec![BookMove {
            mv: mv("h9g7"),
            weight: 1
        }]
    );
    let loose = BuildOptions {
        min_games: 1,
        max_ply: 1,
    };
    assert_eq!(build(&games, &loose).expect("build").len(), 2); // h2e2 and c3c4 at ply 1
}

#[test]
fn builder_reads_pgn_with_comments_and_fen() {
    let pgn = "[Game \"Chinese Chess\"]\n[Result \"0-1\"]\n\n1. H2-E2 {+0.25/12 0.5s} H9-G7\n2. h0g2 0-1\n\n\
               [Result \"1/2-1/2\"]\n[FEN \"4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1\"]\n1. a0a8 1/2-1/2\n";
    let games = parse_games(pgn).expect("pgn");
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].moves, vec!["h2e2", "h9g7", "h0g2"]);
    assert_eq!(games[0].outcome, Outcome::BlackWins);
    assert_eq!(games[1].fen, "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1");
    assert_eq!(games[1].moves, vec!["a0a8"]);
}

#[test]
fn bad_records_and_files_are_errors() {
    assert_eq!(
        parse_games("2-0 h2e2").expect_err("bad result"),
        "line 1: '2-0' is not 1-0, 0-1 or 1/2-1/2"
    );
    assert_eq!(
        parse_games("1-0 h2e2 zz").expect_err("bad move"),
        "line 1: bad move 'zz'"
    );
    let games = parse_games("1-0 h2e2 h2e2").expect("parses");
    assert_eq!(
        build(&games, &BuildOptions::default()).expect_err("illegal"),
        "game 1, ply 2: illegal move 'h2e2'"
    );
    assert!(Book::from_bytes(b"PAOBOOK1\x02\x00\x00\x00short").is_err());
    assert!(Book::from_bytes(b"PAOBOOK1").is_err());
}
