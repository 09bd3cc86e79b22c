//! `pao bench`: a fixed list of positions searched to a fixed depth. With one thread the total
//! node count is the search's signature: the same on every run and every machine.

use crate::board::Position;
use crate::search::{Limits, SearchConfig, Searcher};
use crate::tt::TranspositionTable;
use std::sync::Arc;
use std::time::Instant;

/// The built-in bench positions (`tests/data/bench.fens`).
pub const BENCH_FENS: &str = include_str!("../tests/data/bench.fens");

/// Default bench depth.
pub const DEFAULT_DEPTH: u32 = 10;

/// The FENs of a bench file: one per line, `#` comments and blank lines skipped.
pub fn parse_fens(text: &str) -> Vec<&str> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect()
}

/// One position's outcome.
#[derive(Clone, Debug)]
pub struct BenchLine {
    /// The FEN searched.
    pub fen: String,
    /// Best move found (ICCS), or `none`.
    pub best_move: String,
    /// Its score.
    pub score: i32,
    /// Nodes searched.
    pub nodes: u64,
    /// Milliseconds spent.
    pub time_ms: u128,
}

/// Searches every position to `depth` with one thread and a fresh `hash_mib` table each,
/// calling `line` after each position.
pub fn run_single(
    fens: &[&str],
    depth: u32,
    hash_mib: usize,
    config: SearchConfig,
    line: &mut dyn FnMut(&BenchLine),
) -> Result<(u64, u128), String> {
    let tt = Arc::new(
        TranspositionTable::new(hash_mib).map_err(|e| format!("cannot allocate hash: {e:?}"))?,
    );
    let mut searcher = Searcher::new(Arc::clone(&tt), config);
    let mut total_nodes = 0;
    let mut total_ms = 0;
    for fen in fens {
        let pos = Position::from_fen(fen).map_err(|e| format!("bad bench FEN '{fen}': {e}"))?;
        tt.clear();
        searcher.clear_heuristics();
        let start = Instant::now();
        let result = searcher.search(&pos, &Limits::depth(depth), &[], &mut |_| {});
        let ms = start.elapsed().as_millis();
        total_nodes += result.nodes;
        total_ms += ms;
        line(&BenchLine {
            fen: fen.to_string(),
            best_move: result
                .best_move
                .map_or("none".to_string(), |m| m.to_string()),
            score: result.score,
            nodes: result.nodes,
            time_ms: ms,
        });
    }
    Ok((total_nodes, total_ms))
}
