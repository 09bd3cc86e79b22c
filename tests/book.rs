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
        vec![BookMove { mv: mv("h2e2"), weight: 30 }, BookMove { mv: mv("b2e2"), weight: 10 }]
    );
    assert_eq!(book.moves(&mut after), vec![BookMove { mv: mv("h9g7"), weight: 7 }]);
    // Weighted choice: picks in [0, 30) give h2e2, [30, 40) b2e2.
    assert_eq!(book.choose(&mut pos, 29, &[]).map(|b| b.mv), Some(mv("h2e2")));
    assert_eq!(book.choose(&mut pos, 30, &[]).map(|b| b.mv), Some(mv("b2e2")));
    assert_eq!(book.choose(&mut pos, 40 + 5, &[]).map(|b| b.mv), Some(mv("h2e2")));
    // Banned moves are never chosen.
    assert_eq!(book.choose(&mut pos, 0, &[mv("h2e2")]).map(|b| b.mv), Some(mv("b2e2")));
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
        assert_eq!(book.choose(&mut pos, r, &[]).map(|b| b.mv), Some(mv("b9c7")));
    }
}

#[test]
fn elephanteye_book_when_present() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data/eleeye-BOOK.DAT");
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
        assert_eq!(moves.iter().find(|b| b.mv == mv(m)).map(|b| b.weight), Some(1473), "{m}");
    }
}
