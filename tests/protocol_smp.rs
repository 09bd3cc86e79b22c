//! The pool's policy as an engine option: `SMPVote` (whose answer a search of several threads
//! gives), in every dialect; `TimeNodeShare`, undecided after 2,302 games, is gone.

mod common;

use common::{bestmove_of, Engine};
use pao::board::{parse_move, Position, RankBase};

#[test]
fn the_policies_are_advertised_and_checked_in_every_dialect() {
    let mut e = Engine::start();
    e.send("ucci");
    let (_, lines) = e.expect_prefix("ucciok");
    assert!(
        lines
            .iter()
            .any(|l| l == "option smpvote type check default false"),
        "{lines:?}"
    );
    assert!(
        !lines.iter().any(|l| l.contains("timenodeshare")),
        "{lines:?}"
    );
    e.send("setoption smpvote maybe");
    e.expect_exact("info string error: option smpvote: 'maybe' is not true or false");

    let mut e = Engine::start();
    e.send("uci");
    let (_, lines) = e.expect_prefix("uciok");
    assert!(
        lines
            .iter()
            .any(|l| l == "option name SMPVote type check default false"),
        "{lines:?}"
    );
    assert!(
        !lines.iter().any(|l| l.contains("TimeNodeShare")),
        "{lines:?}"
    );
    e.send("setoption name TimeNodeShare value true");
    e.expect_exact("info string error: unknown option 'TimeNodeShare'");

    let mut e = Engine::start();
    e.send("xboard");
    e.send("protover 2");
    let lines = e.expect_exact_eventually("feature done=1");
    assert!(
        lines
            .iter()
            .any(|l| l.contains("option=\"SMPVote -check 0\"")),
        "{lines:?}"
    );
    assert!(
        !lines.iter().any(|l| l.contains("TimeNodeShare")),
        "{lines:?}"
    );
}

/// The last `info depth` line's first move: the main thread's last completed iteration.
fn last_pv_move(lines: &[String]) -> String {
    lines
        .iter()
        .rev()
        .find_map(|l| {
            let mut words = l.split_whitespace();
            words.find(|w| *w == "pv")?;
            words.next().map(str::to_string)
        })
        .expect("an info line with a pv")
}

/// Without the vote, a search of two threads stopped by its node budget (which the vote would
/// otherwise settle) answers with the main thread's last completed iteration, the one its last
/// `info` line reported.
#[test]
fn without_the_vote_the_main_thread_answers() {
    let mut e = Engine::uci(2);
    e.send("setoption name OwnBook value false");
    e.send("setoption name SMPVote value false");
    let fens = pao::bench::parse_fens(pao::bench::BENCH_FENS);
    for fen in fens.into_iter().take(6) {
        e.send(&format!("position fen {fen}"));
        e.send("go nodes 150000");
        let (best, lines) = e.expect_prefix("bestmove");
        let best = bestmove_of(&best).expect("a move");
        assert_eq!(best, last_pv_move(&lines), "{fen}");
        let mut pos = Position::from_fen(fen).expect("bench FEN");
        let m = parse_move(&best, RankBase::Zero).expect("well-formed move");
        assert!(pos.is_legal(m), "{best} in {fen}");
    }
}
