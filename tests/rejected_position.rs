//! After a rejected position, `go` must not search the previous one: the GUI shows the new
//! position, and a move of the old one would be illegal there. In every dialect.

mod common;

use common::Engine;

const ERROR: &str = "info string error: no valid position (the last position command was rejected)";

/// A position whose only legal moves differ from the start position's.
const A: &str = "4k4/9/9/9/9/9/9/9/4A4/3K5 w - - 0 1";

#[test]
fn ucci_go_after_a_rejected_position_answers_nobestmove() {
    let mut e = Engine::ucci(1);
    e.send(&format!("position fen {A}"));
    e.send("go depth 3");
    e.expect_prefix("bestmove");
    for bad in [
        "position fen rnbakabnr/9 w",
        "position startpos moves h2e2 h2e2",
        "position fen 4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
        "position fen 3k5/9/9/9/9/9/9/9/9/2K6 w - - 0 1",
    ] {
        e.send(bad);
        let (line, _) = e.expect_prefix("info string error:");
        assert_ne!(line, ERROR);
        for go in ["go depth 3", "go time 1000", "go infinite"] {
            e.send(go);
            e.expect_exact(ERROR);
            e.expect_exact("nobestmove");
        }
    }
    // Other commands do not make the old position valid again; a good position does.
    e.send("setoption newgame");
    e.send("go depth 1");
    e.expect_exact(ERROR);
    e.expect_exact("nobestmove");
    e.send("position startpos");
    e.send("go depth 1");
    let (best, _) = e.expect_prefix("bestmove");
    assert!(best.starts_with("bestmove "), "{best}");
}

#[test]
fn uci_go_after_a_rejected_position_answers_bestmove_none() {
    let mut e = Engine::uci(1);
    e.send(&format!("position fen {A}"));
    e.send("go depth 3");
    e.expect_prefix("bestmove");
    e.send("position fen rnbakabnr/9 w");
    e.expect_prefix("info string error:");
    e.send("go wtime 1000 btime 1000");
    e.expect_exact(ERROR);
    e.expect_exact("bestmove (none)");
    e.send("position startpos moves h2e2");
    e.send("go depth 2");
    let (best, _) = e.expect_prefix("bestmove");
    assert_ne!(best, "bestmove (none)");
}

#[test]
fn cecp_go_after_a_rejected_setboard_answers_an_error() {
    let mut e = Engine::cecp();
    e.send("force");
    e.send(&format!("setboard {A}"));
    e.send("setboard rnbakabnr/9 w");
    e.expect_exact("tellusererror Illegal position: FEN has 2 ranks, expected 10");
    e.send("go");
    e.expect_exact("Error (no valid position, the last setboard was rejected): go");
    // Moves are refused too, until a valid position arrives.
    e.send("usermove d1e2");
    e.expect_exact("Illegal move (no valid position): d1e2");
    e.send("ping 7");
    e.expect_exact("pong 7");
    e.send("new");
    e.send("usermove h2e2");
    let (reply, _) = e.expect_prefix("move ");
    assert_eq!(reply.len(), "move h9g7".len(), "{reply}");
}
