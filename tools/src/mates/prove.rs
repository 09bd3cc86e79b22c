//! `pao-tools mates prove`: every row of a mate set proven twice. The exhaustive solver
//! (nothing of the engine's search) checks that the side to move mates in N moves, not in
//! N - 1, and that the row's first moves are exactly those that mate in N. Pao's search with
//! every forward pruning and reduction off (`SearchConfig::without_forward_pruning`: null move,
//! LMR, futility, SEE pruning and the rest; UCCI `setoption pruning none`) with a fresh table
//! then finds no mate at depth 2N - 3 and the mate in 2N - 1 plies at depth 2N - 1.

use super::set::{self, MateRow};
use super::solver::Solver;
use pao::board::{format_move, Move, RankBase};
use pao::search::score::{mate_in, MATE_BOUND};
use pao::search::{Limits, SearchConfig, Searcher};
use pao::tt::TranspositionTable;
use std::sync::Arc;
use std::time::Instant;

/// `pao-tools mates prove FILE`.
#[derive(clap::Args, Debug)]
pub struct ProveArgs {
    /// The mate set
    file: String,
    /// Skip Pao's pruning-free search (the solver alone)
    #[arg(long)]
    solver_only: bool,
    /// Only the first N rows
    #[arg(long, value_name = "N")]
    rows: Option<usize>,
}

/// Runs `mates prove`: one line per row, a summary, and an error when a row is wrong.
pub fn run(args: &ProveArgs) -> Result<(), String> {
    let rows = set::load(&args.file)?;
    let rows = &rows[..args.rows.unwrap_or(rows.len()).min(rows.len())];
    let mut wrong = 0;
    for (i, row) in rows.iter().enumerate() {
        let start = Instant::now();
        let mut problems = check_with_solver(row)?;
        if !args.solver_only {
            problems.extend(check_with_search(row)?);
        }
        let ms = start.elapsed().as_millis();
        if problems.is_empty() {
            println!("row {} ok: mate in {} ({ms} ms)", i + 1, row.moves);
        } else {
            wrong += 1;
            println!("row {} WRONG: {} ({ms} ms)", i + 1, problems.join("; "));
        }
    }
    println!("proven {} of {} rows", rows.len() - wrong, rows.len());
    if wrong > 0 {
        return Err(format!("{wrong} rows are wrong"));
    }
    Ok(())
}

/// What the solver disagrees with in `row` (empty: nothing).
pub fn check_with_solver(row: &MateRow) -> Result<Vec<String>, String> {
    let mut pos = row.position()?;
    let mut solver = Solver::new();
    let mut problems = Vec::new();
    let n = row.moves;
    if !solver.mates_within(&mut pos, 2 * n - 1) {
        problems.push(format!("solver: no mate in {n}"));
        return Ok(problems);
    }
    if n > 1 && solver.mates_within(&mut pos, 2 * n - 3) {
        problems.push(format!("solver: a mate in {} exists", n - 1));
    }
    let mut found = solver.mating_moves(&mut pos, n);
    let mut listed = row.first_moves.clone();
    found.sort_by_key(|m| m.raw());
    listed.sort_by_key(|m| m.raw());
    if found != listed {
        problems.push(format!(
            "solver: mating first moves are {}",
            names(&found).join(" ")
        ));
    }
    Ok(problems)
}

/// What Pao's pruning-free search disagrees with in `row`.
pub fn check_with_search(row: &MateRow) -> Result<Vec<String>, String> {
    let pos = row.position()?;
    let n = row.moves as i32;
    let config = SearchConfig::FULL.without_forward_pruning();
    let mut problems = Vec::new();
    if n > 1 {
        let score = search(&pos, config, 2 * n - 3)?;
        if score >= mate_in(2 * n as usize - 3) {
            problems.push(format!(
                "search: depth {} scores {score}, a mate shorter than {n}",
                2 * n - 3
            ));
        }
    }
    let score = search(&pos, config, 2 * n - 1)?;
    if score != mate_in(2 * n as usize - 1) {
        let what = if score > MATE_BOUND {
            "mate"
        } else {
            "no mate"
        };
        problems.push(format!(
            "search: depth {} scores {score} ({what}), not {}",
            2 * n - 1,
            mate_in(2 * n as usize - 1)
        ));
    }
    Ok(problems)
}

/// The score of a search of `pos` to `depth` with `config` and a fresh table (1 thread).
fn search(pos: &pao::board::Position, config: SearchConfig, depth: i32) -> Result<i32, String> {
    let tt = Arc::new(TranspositionTable::new(64).map_err(|e| e.0)?);
    let mut searcher = Searcher::new(tt, config);
    searcher.set_network(pao::eval::nnue::embedded());
    let r = searcher.search(pos, &Limits::depth(depth as u32), &[], &mut |_| {});
    Ok(r.score)
}

fn names(moves: &[Move]) -> Vec<String> {
    moves
        .iter()
        .map(|&m| format_move(m, RankBase::Zero))
        .collect()
}
