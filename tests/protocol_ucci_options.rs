//! ElephantEye's `randomness` and `debug` options through the real binary (UCCI): `none`
//! leaves the search exactly as it is, `huge` varies the move among near-equal ones (the same
//! move again under the same seed), never takes more than its mask, never touches a mate
//! score, and works with MultiPV and threads; `debug` echoes the commands and announces
//! iterations and root moves, and without it none of that is printed.

mod common;

use common::{bestmove_of, info_number, Engine, FREE_ROOK};
use pao::options::Level;
use std::time::Duration;

/// The largest noise of `randomness huge`, in centipawns.
fn huge() -> i64 {
    i64::from(Level::Huge.noise_cp())
}

/// Red mates in one with either cannon.
const MATE_IN_ONE: &str = "3aka3/9/9/9/4C4/1C7/9/9/9/3K5 w - - 0 1";

/// The pv of an `info` line.
fn pv(line: &str) -> Vec<String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    words
        .iter()
        .position(|w| *w == "pv")
        .map(|at| words[at + 1..].iter().map(|w| w.to_string()).collect())
        .unwrap_or_default()
}

/// One search: its iteration lines (with a score), its final node count and its move.
struct Search {
    iterations: Vec<String>,
    nodes: i64,
    best: String,
}

impl Search {
    /// The iterations without their times and node counts (read while the search runs):
    /// depth, score and pv.
    fn signature(&self) -> Vec<(i64, i64, Vec<String>)> {
        self.iterations
            .iter()
            .map(|l| {
                let f = |n| info_number(l, n).unwrap_or_else(|| panic!("no {n} in {l}"));
                (f("depth"), f("score"), pv(l))
            })
            .collect()
    }

    /// The lines of the last iteration: (first move, score) in the order printed.
    fn last_lines(&self) -> Vec<(String, i64)> {
        let depth = self.iterations.last().and_then(|l| info_number(l, "depth"));
        self.iterations
            .iter()
            .filter(|l| info_number(l, "depth") == depth)
            .map(|l| {
                let m = pv(l).first().cloned().expect("a pv");
                (m, info_number(l, "score").expect("a score"))
            })
            .collect()
    }
}

fn search(e: &mut Engine, position: &str, go: &str) -> Search {
    e.send(position);
    e.send(go);
    let (line, before) = e.read_until("bestmove", |l| l.contains("bestmove"));
    let nodes = before
        .iter()
        .rev()
        .find(|l| l.starts_with("info time") && !l.contains(" nps "))
        .and_then(|l| info_number(l, "nodes"))
        .expect("a final info time line");
    Search {
        iterations: before
            .into_iter()
            .filter(|l| l.starts_with("info depth") && l.contains(" score "))
            .collect(),
        nodes,
        best: bestmove_of(&line).expect("a move"),
    }
}

/// A UCCI engine on `threads` threads without its book.
fn engine(threads: usize) -> Engine {
    let mut e = Engine::ucci(threads);
    e.send("setoption usebook false");
    e
}

fn new_game(e: &mut Engine) {
    e.send("setoption newgame");
    e.send("isready");
    e.expect_exact("readyok");
}

#[test]
fn randomness_none_searches_exactly_as_without_the_option() {
    let mut e = engine(1);
    let plain = search(&mut e, "position startpos", "go depth 8");
    e.send("setoption randomness huge");
    e.send("setoption skillseed 3");
    search(&mut e, "position startpos", "go depth 8");
    e.send("setoption randomness none");
    new_game(&mut e);
    let none = search(&mut e, "position startpos", "go depth 8");
    assert_eq!(none.signature(), plain.signature());
    assert_eq!((none.best, none.nodes), (plain.best, plain.nodes));
}

/// The start position has many moves of near-equal value. Under `huge` noise, twelve seeds
/// play at least two different moves, each of them within the mask of the best move's score
/// (by the search without noise, which sees every root move with MultiPV); each line the
/// noisy search shows is its move's own score, and the move played is its first line. The
/// same seeds in another engine play the same moves.
#[test]
fn huge_randomness_varies_the_move_among_near_equal_ones() {
    let mut e = engine(1);
    e.send("setoption multipv 44");
    let reference = search(&mut e, "position startpos", "go depth 8");
    let every = reference.last_lines();
    assert_eq!(every.len(), 44, "{:?}", reference.iterations);
    let best = every.iter().map(|l| l.1).max().expect("lines");
    let value = |m: &str| every.iter().find(|l| l.0 == m).expect("a root move").1;

    e.send("setoption multipv 3");
    e.send("setoption randomness huge");
    let mut chosen = Vec::new();
    for seed in 1..=12 {
        e.send(&format!("setoption skillseed {seed}"));
        new_game(&mut e);
        let s = search(&mut e, "position startpos", "go depth 8");
        let lines = s.last_lines();
        assert_eq!(lines.len(), 3, "{:?}", s.iterations);
        assert_eq!(lines[0].0, s.best, "{:?}", s.iterations);
        let top = lines.iter().map(|l| l.1).max().expect("lines");
        assert!(lines[0].1 + huge() >= top, "seed {seed}: {lines:?}");
        assert!(best - value(&s.best) <= huge(), "seed {seed}: {}", s.best);
        chosen.push(s.best);
    }
    let mut distinct = chosen.clone();
    distinct.sort();
    distinct.dedup();
    assert!(distinct.len() >= 2, "one move for every seed: {chosen:?}");

    let mut again = engine(1);
    again.send("setoption multipv 3");
    again.send("setoption randomness huge");
    for seed in (1..=12).rev() {
        again.send(&format!("setoption skillseed {seed}"));
        new_game(&mut again);
        let s = search(&mut again, "position startpos", "go depth 8");
        assert_eq!(s.best, chosen[seed - 1], "seed {seed}");
    }
}

/// Without a seed each search draws its own noise: the moves still stay near the best.
#[test]
fn unseeded_randomness_never_gives_away_a_piece() {
    let mut e = engine(1);
    e.send("setoption randomness huge");
    for seed in [0, 1, 2, 3, 4, 5, 6, 7] {
        e.send(&format!("setoption skillseed {seed}"));
        let s = search(&mut e, &format!("position fen {FREE_ROOK}"), "go depth 6");
        assert_eq!(s.best, "a0a4", "seed {seed}");
    }
}

/// Only b4e4 mates; the second line is far from a mate and stays there, noise or not.
#[test]
fn the_noise_never_enters_a_mate_score() {
    let mut e = engine(1);
    e.send("setoption multipv 2");
    let position = format!("position fen {MATE_IN_ONE}");
    let plain = search(&mut e, &position, "go depth 5");
    let scores = |s: &Search, line: i64| {
        s.iterations
            .iter()
            .filter(|l| info_number(l, "multipv") == Some(line))
            .map(|l| info_number(l, "score").expect("a score"))
            .collect::<Vec<_>>()
    };
    assert_eq!(scores(&plain, 1), [29999; 5], "{plain:?}");
    e.send("setoption randomness huge");
    for seed in 0..6 {
        e.send(&format!("setoption skillseed {seed}"));
        new_game(&mut e);
        let s = search(&mut e, &position, "go depth 5");
        assert_eq!(scores(&s, 1), [29999; 5], "seed {seed}: {s:?}");
        assert!(
            scores(&s, 2).iter().all(|&v| v.abs() < 1000),
            "seed {seed}: {s:?}"
        );
        assert_eq!(s.best, "b4e4");
    }
}

/// Lazy SMP: every thread draws the same noise, so the threads agree on the ranking, and the
/// lines still show their own scores.
#[test]
fn randomness_with_two_threads_and_multipv() {
    let mut e = engine(2);
    e.send("setoption randomness large");
    e.send("setoption multipv 3");
    let large = i64::from(Level::Large.noise_cp());
    for seed in 1..=4 {
        e.send(&format!("setoption skillseed {seed}"));
        new_game(&mut e);
        let s = search(&mut e, "position startpos", "go depth 7");
        let lines = s.last_lines();
        assert_eq!(lines.len(), 3, "{:?}", s.iterations);
        assert_eq!(lines[0].0, s.best, "{:?}", s.iterations);
        let top = lines.iter().map(|l| l.1).max().expect("lines");
        assert!(lines[0].1 + large >= top, "seed {seed}: {lines:?}");
    }
}

impl std::fmt::Debug for Search {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?} bestmove {}", self.iterations, self.best)
    }
}

#[test]
fn debug_echoes_commands_and_announces_iterations_and_root_moves() {
    let mut e = engine(1);
    e.send("setoption debug true");
    e.send("position startpos");
    e.expect_exact("info idleline position startpos");
    e.send("go depth 3");
    e.expect_exact("info idleline go depth 3");
    let (_, lines) = e.expect_prefix("bestmove");
    let bare: Vec<&String> = lines
        .iter()
        .filter(|l| l.split_whitespace().count() == 3)
        .collect();
    assert_eq!(
        bare,
        ["info depth 1", "info depth 2", "info depth 3"],
        "{lines:?}"
    );
    // Each bare line comes before its iteration's line.
    let at = |p: &str| lines.iter().position(|l| l.starts_with(p)).expect(p);
    assert!(at("info depth 2 ") > at("info depth 2") && at("info depth 3 ") > at("info depth 3"));

    e.send("go infinite");
    e.expect_exact("info idleline go infinite");
    let (current, _) = e.read_until("currmove", |l| l.contains(" currmove "));
    let w: Vec<&str> = current.split_whitespace().collect();
    assert_eq!(
        (w[0], w[1], w[3], w[5]),
        ("info", "depth", "currmove", "currmovenumber")
    );
    e.send("isready");
    e.read_until("busyline", |l| l == "info busyline isready");
    e.expect_prefix("readyok");
    e.send("stop");
    e.read_until("busyline", |l| l == "info busyline stop");
    e.expect_prefix("bestmove");

    e.send("setoption debug false");
    e.expect_exact("info idleline setoption debug false");
    e.send("go depth 3");
    let (_, lines) = e.expect_prefix("bestmove");
    assert!(
        lines
            .iter()
            .all(|l| !l.contains("line ") && l.split_whitespace().count() > 3),
        "{lines:?}"
    );
    e.send("isready");
    e.expect_exact("readyok");
}

#[test]
fn without_debug_nothing_is_echoed() {
    let mut e = engine(1);
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(1500));
    e.send("isready");
    e.send("stop");
    let (_, lines) = e.expect_prefix("bestmove");
    assert!(
        lines
            .iter()
            .filter(|l| l.starts_with("info"))
            .all(|l| !l.contains("idleline")
                && !l.contains("busyline")
                && !l.contains("currmove")
                && l.split_whitespace().count() > 3),
        "{lines:?}"
    );
}

/// UCI offers the same option as `Randomness`, with the same seed (`Skill Seed`): the same
/// search plays the same moves in both dialects. CECP offers it as a combo.
#[test]
fn uci_and_cecp_offer_the_same_randomness() {
    let mut u = Engine::start();
    u.send("uci");
    let (_, lines) = u.expect_prefix("uciok");
    assert!(lines.contains(
        &"option name Randomness type combo default none var none var tiny var small var medium var large var huge"
            .to_string()
    ));
    for line in [
        "setoption name Threads value 1",
        "setoption name Hash value 16",
        "setoption name OwnBook value false",
        "setoption name Randomness value huge",
    ] {
        u.send(line);
    }
    let mut c = engine(1);
    c.send("setoption randomness huge");
    for seed in 1..=4 {
        u.send(&format!("setoption name Skill Seed value {seed}"));
        u.send("ucinewgame");
        c.send(&format!("setoption skillseed {seed}"));
        new_game(&mut c);
        let by_uci = search(&mut u, "position startpos", "go depth 6").best;
        assert_eq!(
            by_uci,
            search(&mut c, "position startpos", "go depth 6").best
        );
    }

    let mut x = Engine::start();
    x.send("xboard");
    x.send("protover 2");
    let lines = x.expect_exact_eventually("feature done=1");
    assert!(
        lines.iter().any(|l| l.contains(
            "feature option=\"Randomness -combo *none /// tiny /// small /// medium /// large /// huge\""
        )),
        "{lines:?}"
    );
    x.send("option Randomness=wild");
    let (error, _) = x.read_until("an error", |l| l.starts_with("Error"));
    assert!(error.contains("unknown level"), "{error}");
    x.send("option Randomness=huge");
    x.send("ping 2");
    x.expect_exact("pong 2");
}
