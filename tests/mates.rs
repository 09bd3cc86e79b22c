//! Shortest mates: the positions of `tests/data/mates.tsv` (forced mates of at most 5 moves,
//! each proven shortest by an exhaustive solver and by Pao's search without forward pruning;
//! `pao-tools mates prove`) searched as an analysis ends: with the rule that a mate ends the
//! iterations only once proven exact. The search must report the shortest mate and
//! play a move of it. A fixed share of the rows runs in CI; the whole set is `#[ignore]`d
//! (`cargo test --release --test mates -- --ignored`).

mod common;

use common::{bestmove_of, Engine};
use pao::board::{format_move, Position, RankBase};
use pao::search::score::{mate_in, mate_plies};
use pao::search::{Limits, SearchConfig, Searcher};
use pao::tt::TranspositionTable;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// One row: the position, its shortest mate in moves, and the moves that force it.
struct Row {
    line: usize,
    fen: String,
    moves: u32,
    first_moves: Vec<String>,
}

fn rows() -> Vec<Row> {
    let text = include_str!("data/mates.tsv");
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
        .map(|(i, l)| {
            let cols: Vec<&str> = l.split('\t').collect();
            assert_eq!(cols.len(), 4, "line {}: {l}", i + 1);
            Row {
                line: i + 1,
                fen: cols[0].to_string(),
                moves: cols[1].parse().expect("mate length"),
                first_moves: cols[2].split_whitespace().map(String::from).collect(),
            }
        })
        .collect()
}

/// Searches `row` as an analysis ends (no depth asked, mates proven before they end it);
/// returns a description of what is wrong, if anything.
fn check(row: &Row, prove_mates: bool) -> Option<String> {
    let pos = Position::from_fen(&row.fen).expect("fen");
    let tt = Arc::new(TranspositionTable::new(16).expect("table"));
    let mut searcher = Searcher::new(tt, SearchConfig::FULL);
    searcher.set_network(pao::eval::nnue::embedded());
    let mut limits = Limits::depth(120);
    limits.stop_when_decided = true;
    limits.prove_mates = prove_mates;
    // A bound for a broken build only: every row ends by its proof long before.
    limits.deadline = Some(Instant::now() + Duration::from_secs(120));
    let r = searcher.search(&pos, &limits, &[], &mut |_| {});
    let best = r.best_move.map(|m| format_move(m, RankBase::Zero));
    let plies = 2 * row.moves as i32 - 1;
    if r.score != mate_in(plies as usize) {
        return Some(format!(
            "line {}: mate in {} expected, score {} ({:?} plies) at depth {}",
            row.line,
            row.moves,
            r.score,
            mate_plies(r.score),
            r.depth
        ));
    }
    if !best.as_ref().is_some_and(|b| row.first_moves.contains(b)) {
        return Some(format!(
            "line {}: {best:?} does not mate in {}",
            row.line, row.moves
        ));
    }
    None
}

/// The rows CI searches: every fourth row from the second (about a second in all; the first
/// share holds the two rows that take the longest, 10 s and more together).
fn ci_share() -> Vec<Row> {
    rows().into_iter().skip(1).step_by(4).collect()
}

#[test]
fn the_set_has_the_promised_shape() {
    let rows = rows();
    assert!(rows.len() >= 80, "{} rows", rows.len());
    assert!(rows.iter().all(|r| (1..=5).contains(&r.moves)));
    for n in 1..=5 {
        assert!(rows.iter().any(|r| r.moves == n), "no mate in {n}");
    }
    let mut fens: Vec<&str> = rows.iter().map(|r| r.fen.as_str()).collect();
    fens.sort_unstable();
    fens.dedup();
    assert_eq!(fens.len(), rows.len(), "a position is listed twice");
}

#[test]
fn an_analysis_reports_the_shortest_mate() {
    let wrong: Vec<String> = ci_share().iter().filter_map(|r| check(r, true)).collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Without the proof (the plain rule `go nodes` keeps), some rows of the CI share stop at a
/// longer mate: the share tests the proof, not an easy set.
#[test]
fn without_the_proof_some_rows_stop_at_a_longer_mate() {
    let longer = ci_share()
        .iter()
        .filter(|r| check(r, false).is_some())
        .count();
    assert!(longer >= 3, "{longer} rows");
}

#[test]
#[ignore = "the whole set: about 20 s"]
fn every_row_reports_the_shortest_mate() {
    let rows = rows();
    let wrong: Vec<String> = rows.iter().filter_map(|r| check(r, true)).collect();
    assert!(
        wrong.is_empty(),
        "{} of {} rows:\n{}",
        wrong.len(),
        rows.len(),
        wrong.join("\n")
    );
}

/// The real binary in an analysis (`go movetime`, which no game clock bounds): the search ends
/// by its proof, long before its time is up, with the shortest mate. On a game's clock, with
/// `go nodes`, and with the switch off, a held mate ends the search by the plain rule.
#[test]
fn the_engine_ends_a_movetime_search_at_the_proven_mate() {
    // Black mates in 4 (h0h3 or h0h6); the plain rule stops at a mate in 5.
    let fen = "3ckab2/1R2a4/4b4/p8/4p4/P5B2/9/4B4/3K2R2/4r2r1 b - - 0 1";
    let mut e = Engine::uci(1);
    // A fresh game, `go ARGS` on the position: the best move, the last line with a score and
    // the time it took.
    let search = |e: &mut Engine, go: &str| {
        e.send("ucinewgame");
        e.send(&format!("position fen {fen}"));
        let start = Instant::now();
        e.send(&format!("go {go}"));
        let (best, info) = e.expect_prefix("bestmove");
        let last = info
            .iter()
            .rev()
            .find(|l| l.contains(" score "))
            .expect("an info line")
            .clone();
        (bestmove_of(&best).expect("a move"), last, start.elapsed())
    };
    let (best, last, took) = search(&mut e, "movetime 600000");
    assert!(took < Duration::from_secs(15), "{last}");
    assert!(last.contains("score mate 4 "), "{last}");
    assert!(best == "h0h3" || best == "h0h6", "{best}");
    // A game's clock: the held mate ends the search, proven or not.
    let (_, last, took) = search(&mut e, "wtime 600000 btime 600000");
    assert!(took < Duration::from_secs(15), "{last}");
    assert!(last.contains("score mate 5 "), "{last}");
    let (_, last, _) = search(&mut e, "nodes 2000000");
    assert!(last.contains("score mate 5 "), "{last}");
    // The switch `mate_proofs` off: an analysis keeps the plain rule too.
    e.send("setoption name SearchSwitches value -mate_proofs");
    let (_, last, _) = search(&mut e, "movetime 600000");
    assert!(last.contains("score mate 5 "), "{last}");
}
