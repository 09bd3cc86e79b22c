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

/// ElephantEye's own book (`tests/data/eleeye-BOOK.DAT`: the BOOK.DAT of ElephantEye 3.31,
/// LGPL 2.1, unchanged), read here without the reader under test: its layout as ElephantEye's
/// `book.h` and `book.cpp` define it. 8-byte little-endian records, `u32` position lock, `u16`
/// move, `u16` weight, sorted by lock; a move is `from | to << 8` on ElephantEye's 16x16 board,
/// where a square is `x + 16 y`, files `x` 3..11 from red's left and ranks `y` 3..12 from
/// black's side; a position missing from the book is looked up again mirrored left-right, and
/// its moves mirrored back. Only the key function comes from Pao (ElephantEye draws its Zobrist
/// words from an RC4 stream); the book itself then says whether it is right: a wrong key finds
/// no positions beyond chance, a wrong move decoding finds illegal moves.
const EE_BOOK: &[u8] = include_bytes!("data/eleeye-BOOK.DAT");

/// (lock, move, weight) records, in file order.
fn ee_records() -> Vec<(u32, u16, u16)> {
    EE_BOOK
        .chunks_exact(8)
        .map(|r| {
            (
                u32::from_le_bytes([r[0], r[1], r[2], r[3]]),
                u16::from_le_bytes([r[4], r[5]]),
                u16::from_le_bytes([r[6], r[7]]),
            )
        })
        .collect()
}

/// ICCS text of an ElephantEye square (`None` off the board), optionally mirrored.
fn ee_square_text(sq: u16, mirror: bool) -> Option<String> {
    let (x, y) = (sq & 15, sq >> 4);
    if !(3..=11).contains(&x) || !(3..=12).contains(&y) {
        return None;
    }
    let file = if mirror { 8 - (x - 3) } else { x - 3 };
    Some(format!("{}{}", (b'a' + file as u8) as char, 12 - y))
}

/// An ElephantEye move as ICCS text.
fn ee_move_text(raw: u16, mirror: bool) -> Option<String> {
    Some(ee_square_text(raw & 0xff, mirror)? + &ee_square_text(raw >> 8, mirror)?)
}

#[test]
fn elephanteye_book_records_decode_independently() {
    let records = ee_records();
    assert_eq!((EE_BOOK.len() % 8, records.len()), (0, 12081));
    assert!(
        records.windows(2).all(|w| w[0].0 <= w[1].0),
        "sorted by lock"
    );
    // The range of records of a lock.
    let range = |lock: u32| {
        let a = records.partition_point(|r| r.0 < lock);
        let b = records.partition_point(|r| r.0 <= lock);
        a..b
    };
    // The start position: ElephantEye's worked example plays b2e2 with weight 1473 (and h2e2,
    // its mirror, weighs the same); 16 book moves in all, each legal.
    let start = Position::startpos();
    let at_start = range(book_key(&start, false));
    let moves: Vec<(String, u16)> = records[at_start]
        .iter()
        .map(|&(_, m, w)| (ee_move_text(m, false).expect("on the board"), w))
        .collect();
    assert_eq!(moves.len(), 16, "{moves:?}");
    for m in ["h2e2", "b2e2"] {
        assert!(moves.contains(&(m.to_string(), 1473)), "{m}: {moves:?}");
    }
    // Every position reached by book moves from the start: its records (found by Pao's key,
    // decoded here) are legal moves there, and they are what Pao's reader offers.
    let book = Book::from_bytes(EE_BOOK).expect("the reader under test");
    let mut seen_records = vec![false; records.len()];
    let mut seen_positions = std::collections::HashSet::new();
    let mut frontier = vec![Position::startpos()];
    let (mut positions, mut illegal) = (0, 0);
    while let Some(mut pos) = frontier.pop() {
        if !seen_positions.insert(pos.key()) {
            continue;
        }
        let mut found = None;
        for mirror in [false, true] {
            let r = range(book_key(&pos, mirror));
            if !r.is_empty() {
                found = Some((r, mirror));
                break;
            }
        }
        let Some((r, mirror)) = found else { continue };
        positions += 1;
        let mut legal: Vec<(Move, u32)> = Vec::new();
        for i in r {
            seen_records[i] = true;
            let (_, raw, weight) = records[i];
            let text = ee_move_text(raw, mirror).expect("a square on the board");
            match pos.parse_legal_move(&text, RankBase::Zero) {
                Ok(m) => {
                    if weight > 0 {
                        legal.push((m, weight as u32));
                    }
                }
                Err(_) => illegal += 1,
            }
        }
        let mut offered: Vec<(Move, u32)> = book
            .moves(&mut pos)
            .into_iter()
            .map(|b| (b.mv, b.weight))
            .collect();
        offered.sort_by_key(|&(m, _)| m.raw());
        legal.sort_by_key(|&(m, _)| m.raw());
        assert_eq!(offered, legal, "{}", pos.to_fen());
        for (m, _) in legal {
            let mut next = pos.clone();
            next.make_move(m);
            frontier.push(next);
        }
    }
    let reached = seen_records.iter().filter(|&&s| s).count();
    // From the start position the book's own moves reach 5,759 of its positions (a position and
    // its mirror counted apart) and 3,932 of its records (the rest lie behind replies the book
    // does not hold), and not one move reached is illegal where it is found. A wrong key would
    // find next to nothing past the start, a wrong move decoding illegal moves.
    assert_eq!((positions, reached, illegal), (5759, 3932, 0));
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
