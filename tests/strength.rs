//! The strength limit through the real binary: the options in every dialect, full strength
//! untouched, a level's budget, its choice among the candidate lines (reproducible under a
//! seed, never a piece thrown away), `UCI_Elo` on the levels' scale, and the clock on top.

mod common;

use common::{bestmove_of, info_number, Engine, FREE_ROOK};
use pao::board::{Position, RankBase};
use pao::skill::{Skill, CALIBRATION, DEFAULT_ELO, MAX_ELO, MAX_MARGIN, MIN_ELO};

/// A middlegame after a few opening moves.
const MIDDLEGAME: &str = "position startpos moves h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 b0c2 b7b3";

/// The first move of an `info` line's pv.
fn pv_move(line: &str) -> Option<String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|w| *w == "pv")?;
    words.get(at + 1).map(|m| m.to_string())
}

/// What one search printed: its iteration lines, its final `info time ... nodes` line and
/// the move.
struct Search {
    iterations: Vec<String>,
    total_nodes: i64,
    best: String,
}

fn search(e: &mut Engine, go: &str) -> Search {
    e.send(go);
    let (line, before) = e.read_until("bestmove", |l| l.contains("bestmove"));
    let total_nodes = before
        .iter()
        .rev()
        .find(|l| l.starts_with("info time") && !l.contains(" nps "))
        .and_then(|l| info_number(l, "nodes"))
        .expect("a final info time line");
    Search {
        iterations: before
            .into_iter()
            .filter(|l| l.starts_with("info depth"))
            .collect(),
        total_nodes,
        best: bestmove_of(&line).expect("a move"),
    }
}

/// A UCI engine without its book (a level's search is what is tested, not the book).
fn uci() -> Engine {
    let mut e = Engine::uci(1);
    e.send("setoption name OwnBook value false");
    e
}

fn new_game(e: &mut Engine) {
    e.send("ucinewgame");
    e.send("isready");
    e.expect_exact("readyok");
}

fn is_legal(position_line: &str, mv: &str) -> bool {
    let mut words = position_line.split_whitespace().skip(1);
    let mut pos = match words.next() {
        Some("startpos") => Position::startpos(),
        Some("fen") => {
            let fen: Vec<&str> = words.by_ref().take_while(|w| *w != "moves").collect();
            Position::from_fen(&fen.join(" ")).expect("FEN")
        }
        _ => panic!("{position_line}"),
    };
    for m in words.filter(|w| *w != "moves") {
        let m = pos.parse_legal_move(m, RankBase::Zero).expect("legal move");
        pos.make_move(m);
    }
    pos.parse_legal_move(mv, RankBase::Zero).is_ok()
}

#[test]
fn the_options_are_offered_in_every_dialect() {
    let mut e = Engine::start();
    e.send("uci");
    let (_, lines) = e.expect_prefix("uciok");
    for expected in [
        "option name Skill Level type spin default 20 min 0 max 20".to_string(),
        "option name UCI_LimitStrength type check default false".to_string(),
        format!("option name UCI_Elo type spin default {DEFAULT_ELO} min {MIN_ELO} max {MAX_ELO}"),
        "option name Skill Seed type spin default 0 min 0 max 2147483647".to_string(),
    ] {
        assert!(lines.contains(&expected), "missing {expected} in {lines:?}");
    }
    e.send("setoption name Skill Level value 21");
    e.expect_exact("info string error: option Skill Level: '21' is not a number in 0..20");
    e.send(&format!("setoption name UCI_Elo value {}", MAX_ELO + 1));
    e.expect_exact(&format!(
        "info string error: option UCI_Elo: '{}' is not a number in {MIN_ELO}..{MAX_ELO}",
        MAX_ELO + 1
    ));

    let mut e = Engine::start();
    e.send("ucci");
    let (_, lines) = e.expect_prefix("ucciok");
    for expected in [
        "option skilllevel type spin min 0 max 20 default 20".to_string(),
        "option limitstrength type check default false".to_string(),
        format!("option elo type spin min {MIN_ELO} max {MAX_ELO} default {DEFAULT_ELO}"),
        "option skillseed type spin min 0 max 2147483647 default 0".to_string(),
    ] {
        assert!(lines.contains(&expected), "missing {expected} in {lines:?}");
    }

    let mut e = Engine::start();
    e.send("xboard");
    e.send("protover 2");
    let lines = e.expect_exact_eventually("feature done=1");
    for expected in [
        "feature option=\"Skill Level -spin 20 0 20\"".to_string(),
        "feature option=\"UCI_LimitStrength -check 0\"".to_string(),
        format!("feature option=\"UCI_Elo -spin {DEFAULT_ELO} {MIN_ELO} {MAX_ELO}\""),
        "feature option=\"Skill Seed -spin 0 0 2147483647\"".to_string(),
    ] {
        assert!(lines.contains(&expected), "missing {expected} in {lines:?}");
    }
}

/// Level 20 with every other strength option set plays exactly as an engine never told
/// about them: the same iterations, node counts and move.
#[test]
fn full_strength_is_the_engine_untouched() {
    let run = |options: &[&str]| {
        let mut e = uci();
        for o in options {
            e.send(o);
        }
        new_game(&mut e);
        e.send(MIDDLEGAME);
        let s = search(&mut e, "go depth 9");
        // Times, and the node counts and table use read while the search goes on, differ
        // from run to run; everything else must not.
        let strip = |l: &String| {
            let w: Vec<&str> = l.split_whitespace().collect();
            let mut kept = Vec::new();
            let mut i = 0;
            while i < w.len() {
                if matches!(w[i], "time" | "nps" | "nodes" | "hashfull") {
                    i += 2;
                } else {
                    kept.push(w[i]);
                    i += 1;
                }
            }
            kept.join(" ")
        };
        let lines: Vec<String> = s.iterations.iter().map(strip).collect();
        (lines, s.total_nodes, s.best)
    };
    let plain = run(&[]);
    let set = run(&[
        "setoption name Skill Level value 20",
        "setoption name UCI_LimitStrength value false",
        &format!("setoption name UCI_Elo value {MAX_ELO}"),
        "setoption name Skill Seed value 5",
    ]);
    assert_eq!(plain, set);
    assert_eq!(plain.0.len(), 9, "{plain:?}");
}

/// A level's search is exactly full strength's with the level's four candidate lines, to the
/// depth of the first iteration that passes the level's budget: the iteration before ends
/// below it. It is the same on one thread or two, and far below what full strength spends
/// on the same `go`. (Node counts are compared at the end of searches: the counts in `info`
/// lines are read while the search goes on.)
#[test]
fn a_level_searches_its_budget_and_no_more() {
    let full_to_depth = |depth: u32| {
        let mut e = uci();
        e.send("setoption name MultiPV value 4");
        new_game(&mut e);
        e.send(MIDDLEGAME);
        search(&mut e, &format!("go depth {depth}")).total_nodes
    };
    for level in [0u8, 6, 10] {
        let skill = Skill::new(f64::from(level));
        let run = |threads: usize| {
            let mut e = Engine::uci(threads);
            e.send("setoption name OwnBook value false");
            e.send(&format!("setoption name Skill Level value {level}"));
            e.send("setoption name Skill Seed value 11");
            new_game(&mut e);
            e.send(MIDDLEGAME);
            search(&mut e, "go nodes 200000")
        };
        let s = run(1);
        assert!(is_legal(MIDDLEGAME, &s.best), "{}", s.best);
        let depth = s
            .iterations
            .iter()
            .filter_map(|l| info_number(l, "depth"))
            .max()
            .expect("an iteration") as u32;
        let (soft, hard) = (skill.soft_nodes() as i64, skill.hard_nodes() as i64);
        assert!(
            soft <= s.total_nodes && s.total_nodes < hard,
            "level {level}: {} nodes",
            s.total_nodes
        );
        assert_eq!(full_to_depth(depth), s.total_nodes, "level {level}");
        if depth > 1 {
            assert!(full_to_depth(depth - 1) < soft, "level {level}");
        }
        assert!(s.total_nodes < 200_000);
        // Helpers sit a level out: two threads search exactly as one.
        let two = run(2);
        assert_eq!(
            (two.total_nodes, &two.best),
            (s.total_nodes, &s.best),
            "level {level}"
        );
    }
    // Full strength spends the whole budget of the same `go`.
    let mut e = uci();
    new_game(&mut e);
    e.send(MIDDLEGAME);
    assert_eq!(search(&mut e, "go nodes 200000").total_nodes, 200_000);
}

/// Level 0 from the start position, with its four candidate lines shown: the move is always
/// one of them within the margin of the best; a seed gives the same move every time, and
/// different seeds draw different moves.
#[test]
fn the_choice_is_among_the_good_lines_and_a_seed_reproduces_it() {
    let mut e = uci();
    e.send("setoption name Skill Level value 0");
    e.send("setoption name MultiPV value 4");
    let mut chosen = Vec::new();
    for seed in 1..=16 {
        e.send(&format!("setoption name Skill Seed value {seed}"));
        new_game(&mut e);
        e.send("position startpos");
        let s = search(&mut e, "go depth 30");
        let candidates: Vec<(String, i64)> = s
            .iterations
            .iter()
            .filter(|l| l.contains(" multipv "))
            .map(|l| {
                (
                    pv_move(l).expect("pv"),
                    info_number(l, "cp").expect("a score"),
                )
            })
            .collect();
        assert_eq!(candidates.len(), 4, "{:?}", s.iterations);
        let best = candidates.iter().map(|c| c.1).max().expect("lines");
        let score = candidates
            .iter()
            .find(|c| c.0 == s.best)
            .map(|c| c.1)
            .unwrap_or_else(|| panic!("{} is not a candidate: {candidates:?}", s.best));
        assert!(best - score <= i64::from(MAX_MARGIN), "{candidates:?}");
        chosen.push(s.best);
    }
    let mut distinct = chosen.clone();
    distinct.sort();
    distinct.dedup();
    assert!(distinct.len() >= 2, "one move for every seed: {chosen:?}");
    // The same seeds in another engine, in another order: the same moves.
    let mut e = uci();
    e.send("setoption name Skill Level value 0");
    for seed in (1..=16).rev() {
        e.send(&format!("setoption name Skill Seed value {seed}"));
        new_game(&mut e);
        e.send("position startpos");
        assert_eq!(
            search(&mut e, "go depth 30").best,
            chosen[seed - 1],
            "seed {seed}"
        );
    }
}

#[test]
fn level_zero_takes_a_free_rook_whatever_the_draw() {
    let mut e = Engine::ucci(1);
    e.send("setoption usebook false");
    e.send("setoption skilllevel 0");
    for seed in 1..=12 {
        e.send(&format!("setoption skillseed {seed}"));
        e.send(&format!("position fen {FREE_ROOK}"));
        assert_eq!(search(&mut e, "go time 60000").best, "a0a4", "seed {seed}");
    }
    // And with the clock-seeded draw.
    e.send("setoption skillseed 0");
    for _ in 0..4 {
        e.send(&format!("position fen {FREE_ROOK}"));
        assert_eq!(search(&mut e, "go time 60000").best, "a0a4");
    }
}

/// `UCI_LimitStrength` with a measured rating plays exactly as that level does.
#[test]
fn uci_elo_plays_as_its_level() {
    let run = |options: &[String]| {
        let mut e = uci();
        e.send("setoption name Skill Seed value 3");
        for o in options {
            e.send(o);
        }
        new_game(&mut e);
        e.send(MIDDLEGAME);
        let s = search(&mut e, "go wtime 600000 btime 600000");
        (s.total_nodes, s.best)
    };
    for &(level, elo) in &CALIBRATION[..3] {
        let by_level = run(&[format!("setoption name Skill Level value {level}")]);
        let by_elo = run(&[
            "setoption name UCI_LimitStrength value true".to_string(),
            format!("setoption name UCI_Elo value {elo}"),
            // Ignored while the rating applies.
            "setoption name Skill Level value 19".to_string(),
        ]);
        assert_eq!(by_level, by_elo, "level {level}, rating {elo}");
    }
    // Between two measured levels: between their budgets.
    let (l0, e0) = CALIBRATION[1];
    let (l1, e1) = CALIBRATION[2];
    let low = run(&[format!("setoption name Skill Level value {l0}")]).0;
    let high = run(&[format!("setoption name Skill Level value {l1}")]).0;
    let mid = run(&[
        "setoption name UCI_LimitStrength value true".to_string(),
        format!("setoption name UCI_Elo value {}", (e0 + e1) / 2),
    ])
    .0;
    assert!(low <= mid && mid <= high, "{low} {mid} {high}");
}

/// The clock still rules a level: a level whose budget is far beyond a move's time answers
/// when the time is up, having searched less than its budget.
#[test]
fn the_clock_rules_a_level_too() {
    let mut e = uci();
    e.send("setoption name Skill Level value 19");
    e.send("setoption name Move Overhead value 0");
    new_game(&mut e);
    e.send(MIDDLEGAME);
    // Fewer nodes than the level's budget: the clock, not the budget, ended the search.
    let s = search(&mut e, "go movetime 100");
    assert!(is_legal(MIDDLEGAME, &s.best), "{}", s.best);
    assert!(
        s.total_nodes < Skill::new(19.0).soft_nodes() as i64,
        "{}",
        s.total_nodes
    );
}

#[test]
fn a_cecp_game_at_level_zero() {
    let mut e = Engine::cecp();
    e.send("option Skill Level=0");
    e.send("option Skill Seed=9");
    e.send("option OwnBook=0");
    e.send("post");
    e.send("usermove h2e2");
    let (line, before) = e.expect_prefix("move ");
    let mv = &line["move ".len()..];
    assert!(
        is_legal("position startpos moves h2e2", mv),
        "{mv}: {before:?}"
    );
    // Thinking lines `ply score time nodes pv`: within level 0's cap.
    let nodes: Vec<u64> = before
        .iter()
        .filter_map(|l| l.split_whitespace().nth(3)?.parse().ok())
        .collect();
    assert!(!nodes.is_empty(), "{before:?}");
    assert!(
        nodes.iter().all(|&n| n <= Skill::new(0.0).hard_nodes()),
        "{before:?}"
    );
}
