//! UCCI draw offers through the real binary: `go draw` and `ponderhit draw` carry the
//! opponent's offer; with `setoption drawresign true` the engine accepts it by appending `draw`
//! to its bestmove when its score is not above zero, and never otherwise.

mod common;

use common::{bestmove_of, Engine};
use pao::board::{Position, RankBase};
use std::time::Duration;

/// Black to move, a bare general against red's rook: black's score is far below zero.
const LOSING: &str = "3k5/9/9/9/9/9/9/9/9/R3K4 b - - 0 1";
/// The same with red to move: red's score is far above zero.
const WINNING: &str = "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1";

/// Runs `go` on `fen` and returns the bestmove line, its move checked legal.
fn answer(e: &mut Engine, fen: &str, go: &str) -> String {
    e.send(&format!("position fen {fen}"));
    e.send(go);
    let (best, _) = e.expect_prefix("bestmove");
    let mv = bestmove_of(&best).unwrap_or_else(|| panic!("no move: {best}"));
    let mut pos = Position::from_fen(fen).expect("FEN");
    assert!(pos.parse_legal_move(&mv, RankBase::Zero).is_ok(), "{best}");
    best
}

#[test]
fn an_offer_is_accepted_only_when_asked_and_not_winning() {
    let mut e = Engine::ucci(1);
    // drawresign is off by default: an offer changes nothing.
    assert!(!answer(&mut e, LOSING, "go draw depth 3").ends_with(" draw"));
    e.send("setoption drawresign true");
    // Offered, losing: accepted.
    let best = answer(&mut e, LOSING, "go draw depth 3");
    let words: Vec<&str> = best.split_whitespace().collect();
    assert!(
        words.len() == 3 || (words.len() == 5 && words[2] == "ponder"),
        "{best}"
    );
    assert_eq!(words.last(), Some(&"draw"), "{best}");
    // Not offered: nothing to accept.
    let best = answer(&mut e, LOSING, "go depth 3");
    assert!(!best.contains("draw"), "{best}");
    // Offered, winning: declined.
    let best = answer(&mut e, WINNING, "go draw depth 3");
    assert!(!best.contains("draw"), "{best}");
}

#[test]
fn an_offer_with_ponderhit_is_accepted_as_with_go() {
    let mut e = Engine::ucci(1);
    e.send("setoption drawresign true");
    e.send(&format!("position fen {LOSING}"));
    e.send("go ponder depth 3");
    e.expect_no_bestmove(Duration::from_millis(300));
    e.send("ponderhit draw");
    let (best, _) = e.expect_prefix("bestmove");
    assert!(best.ends_with(" draw"), "{best}");
    // The same hit without the offer: no draw.
    e.send(&format!("position fen {LOSING}"));
    e.send("go ponder depth 3");
    e.expect_no_bestmove(Duration::from_millis(300));
    e.send("ponderhit");
    let (best, _) = e.expect_prefix("bestmove");
    assert!(!best.contains("draw"), "{best}");
    // Winning: the offer with the hit is declined.
    e.send(&format!("position fen {WINNING}"));
    e.send("go ponder depth 3");
    e.expect_no_bestmove(Duration::from_millis(300));
    e.send("ponderhit draw");
    let (best, _) = e.expect_prefix("bestmove");
    assert!(!best.contains("draw"), "{best}");
}
