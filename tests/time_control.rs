//! The clock through the real binary: a move within its share of the clock and of `movetime`,
//! `Move Overhead` kept back, the clock of the side to move, node budgets, and the clock
//! after `ponderhit`. The shares are the time manager's documented policy (`src/time.rs`):
//! `movetime T` spends at most T - overhead; a clock of `left` ms with no moves to go spends at
//! most a quarter of `left` - overhead (5 soft limits, soft = left / 30 + 3/4 inc).
//!
//! Wall times carry a margin for the pipe and the scheduler; the engine's own `info time` before
//! `bestmove` (ms since `go`) is held to a tighter one. Past either, the engine's CPU time
//! decides: a move that came late while the engine had less CPU than its share was starved by
//! other jobs on the machine (a busy runner), not spent by a search that overran.

mod common;

use common::{bestmove_of, last_line, Engine};
use pao::board::{Position, RankBase};
use std::time::{Duration, Instant};

/// A middlegame with many good moves: iterations keep coming, and no mate ends the search.
const MIDDLEGAME: &str = "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1";

/// Slack for the pipe and the scheduler on a shared machine.
const WALL_SLACK: Duration = Duration::from_millis(400);
/// Slack on the engine's own clock (its events thread's wake-up).
const ENGINE_SLACK_MS: u64 = 100;

/// What a `go` gave: wall time, the engine's final `info time` (ms) and `nodes`, the move, and
/// the engine's CPU time meanwhile.
struct Go {
    wall: Duration,
    engine_ms: u64,
    nodes: u64,
    mv: String,
    cpu: Option<Duration>,
}

/// Sends `go ...` and waits for `bestmove`.
fn timed_go(e: &mut Engine, go: &str) -> Go {
    let start = Instant::now();
    let cpu_before = e.cpu_time();
    e.send(go);
    let (best, lines) = e.expect_prefix("bestmove");
    let wall = start.elapsed();
    let cpu = cpu_before
        .zip(e.cpu_time())
        .map(|(a, b)| b.saturating_sub(a));
    let last = last_line(&lines, "info time ");
    let w: Vec<&str> = last.split_whitespace().collect();
    let field = |key: &str| -> u64 {
        let i = w.iter().position(|x| *x == key).expect(key);
        w[i + 1].parse().expect("a number")
    };
    let mv = bestmove_of(&best).unwrap_or_else(|| panic!("no move: {best}"));
    Go {
        wall,
        engine_ms: field("time"),
        nodes: field("nodes"),
        mv,
        cpu,
    }
}

/// The move came within `bound_ms`: by the engine's clock (with `ENGINE_SLACK_MS`) and the wall
/// (with `WALL_SLACK`), or, when either ran past, the engine (one search thread) used no more
/// CPU than `bound_ms` + `ENGINE_SLACK_MS` meanwhile: it waited for a core, it did not overrun.
fn assert_within(
    what: &str,
    bound_ms: u64,
    wall: Duration,
    engine_ms: Option<u64>,
    cpu: Option<Duration>,
) {
    let bound = Duration::from_millis(bound_ms);
    let slack = Duration::from_millis(ENGINE_SLACK_MS);
    let in_time =
        engine_ms.is_none_or(|t| t <= bound_ms + ENGINE_SLACK_MS) && wall <= bound + WALL_SLACK;
    let starved = cpu.is_some_and(|c| c <= bound + slack);
    assert!(
        in_time || starved,
        "{what}: bound {bound_ms} ms; engine time {engine_ms:?} ms, wall {wall:?}, engine CPU {cpu:?}"
    );
    if !in_time {
        eprintln!("{what}: late ({engine_ms:?} ms, wall {wall:?}) but starved: CPU {cpu:?}");
    }
}

fn assert_legal(fen: &str, mv: &str) {
    let mut pos = Position::from_fen(fen).expect("FEN");
    assert!(
        pos.parse_legal_move(mv, RankBase::Zero).is_ok(),
        "{mv} in {fen}"
    );
}

#[test]
fn ucci_go_time_spends_at_most_a_quarter_of_the_clock() {
    let mut e = Engine::ucci(1);
    e.send(&format!("position fen {MIDDLEGAME}"));
    // 3 s left, no increment, moves to go unknown: at most (3000 - 30) / 4 = 742 ms, the
    // hard limit min(5 x 99, 742) = 495 ms; never the whole clock.
    let go = timed_go(&mut e, "go time 3000 increment 0");
    assert_within("a 3 s clock", 495, go.wall, Some(go.engine_ms), go.cpu);
    assert_legal(MIDDLEGAME, &go.mv);
}

#[test]
fn uci_movetime_and_move_overhead() {
    let mut e = Engine::uci(1);
    e.send(&format!("position fen {MIDDLEGAME}"));
    // Move Overhead 0: movetime 1000 is the hard limit, and the soft one stops no earlier than
    // after an iteration past 0.6 x 0.6 of it (the most a stable best move shrinks it).
    e.send("setoption name Move Overhead value 0");
    let go = timed_go(&mut e, "go movetime 1000");
    assert!(
        go.engine_ms >= 360,
        "engine time {} of movetime 1000",
        go.engine_ms
    );
    assert_within("movetime 1000", 1000, go.wall, Some(go.engine_ms), go.cpu);
    assert_legal(MIDDLEGAME, &go.mv);
    // Move Overhead 900: the same movetime leaves 100 ms to think.
    e.send("setoption name Move Overhead value 900");
    e.send("ucinewgame");
    e.send(&format!("position fen {MIDDLEGAME}"));
    let go = timed_go(&mut e, "go movetime 1000");
    assert_within("900 ms overhead", 100, go.wall, Some(go.engine_ms), go.cpu);
    assert_legal(MIDDLEGAME, &go.mv);
}

#[test]
fn uci_clock_of_the_side_to_move() {
    let mut e = Engine::uci(1);
    // Black to move with 3 s against red's 100 s: black's clock rules (hard limit 495 ms),
    // not red's (which would allow seconds).
    e.send("position startpos moves h2e2");
    let go = timed_go(&mut e, "go wtime 100000 btime 3000");
    assert_within("black's 3 s", 495, go.wall, Some(go.engine_ms), go.cpu);
    let mv = go.mv;
    let mut pos = Position::startpos();
    let h2e2 = pos.parse_legal_move("h2e2", RankBase::Zero).expect("move");
    pos.make_move(h2e2);
    assert!(pos.parse_legal_move(&mv, RankBase::Zero).is_ok(), "{mv}");
    // Red to move with 10 s + 0.1 s: soft 9970 / 30 + 75 = 407 ms, hard 5 x 407 = 2035 ms.
    e.send(&format!("position fen {MIDDLEGAME}"));
    let go = timed_go(&mut e, "go wtime 10000 btime 10000 winc 100 binc 100");
    assert_within(
        "red's 10 s + 0.1 s",
        2035,
        go.wall,
        Some(go.engine_ms),
        go.cpu,
    );
    assert_legal(MIDDLEGAME, &go.mv);
}

#[test]
fn uci_go_nodes_searches_exactly_its_budget() {
    let mut e = Engine::uci(1);
    e.send(&format!("position fen {MIDDLEGAME}"));
    // One thread stops at exactly the budget (its node polls end there).
    for budget in [5000u64, 20000] {
        e.send("ucinewgame");
        let go = timed_go(&mut e, &format!("go nodes {budget}"));
        assert_eq!(go.nodes, budget);
        assert_legal(MIDDLEGAME, &go.mv);
    }
}

#[test]
fn uci_ponder_then_ponderhit_starts_the_clock() {
    let mut e = Engine::uci(1);
    e.send("setoption name Ponder value true");
    e.send("position startpos moves h2e2 h9g7");
    // Pondering: no move however long it takes, and the clock does not run.
    e.send("go ponder wtime 3000 btime 3000");
    e.expect_no_bestmove(Duration::from_millis(1200));
    // The hit: the move comes within red's hard limit, counted from the hit (495 ms), although
    // the search has run for longer than that already.
    let start = Instant::now();
    let cpu_before = e.cpu_time();
    e.send("ponderhit");
    let (best, lines) = e.expect_prefix("bestmove");
    let after = start.elapsed();
    let cpu = cpu_before
        .zip(e.cpu_time())
        .map(|(a, b)| b.saturating_sub(a));
    assert_within("after ponderhit", 495, after, None, cpu);
    let total: u64 = lines
        .iter()
        .rev()
        .find_map(|l| l.strip_prefix("info time "))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|t| t.parse().ok())
        .expect("a final info time");
    assert!(total >= 1200, "the search ran {total} ms since go");
    let mut pos = Position::startpos();
    for m in ["h2e2", "h9g7"] {
        let mv = pos.parse_legal_move(m, RankBase::Zero).expect("move");
        pos.make_move(mv);
    }
    let mv = bestmove_of(&best).expect("a move");
    assert!(pos.parse_legal_move(&mv, RankBase::Zero).is_ok(), "{mv}");
    // A ponder search that the GUI stops (the opponent played another move): a move comes at
    // once, and the engine then searches the real position.
    e.send("position startpos moves h2e2 h9g7");
    e.send("go ponder wtime 3000 btime 3000");
    e.expect_no_bestmove(Duration::from_millis(300));
    e.send("stop");
    e.expect_prefix("bestmove");
    e.send("isready");
    e.expect_exact("readyok");
}
