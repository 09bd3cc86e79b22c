//! Searcher setup shared by the search tests.

use pao::board::Position;
use pao::search::reference::{alphabeta, Counter};
use pao::search::score::INFINITE;
use pao::search::{SearchConfig, Searcher};
use pao::tt::TranspositionTable;
use std::sync::Arc;

/// Endgame and late-middlegame positions from the bench list (small trees at depth 4).
pub fn endgame_positions() -> Vec<&'static str> {
    pao::bench::parse_fens(pao::bench::BENCH_FENS)
        .into_iter()
        .skip(35)
        .take(10)
        .collect()
}

/// A searcher with its own 8 MiB table.
pub fn searcher(config: SearchConfig) -> Searcher {
    let tt = Arc::new(TranspositionTable::new(8).expect("8 MiB table"));
    Searcher::new(tt, config)
}

/// PVS with ordering heuristics and aspiration, but no TT cutoffs, pruning, reductions,
/// extensions or quiescence: every score is the exact depth-limited value, alpha-beta's.
pub fn unpruned_pvs() -> SearchConfig {
    SearchConfig {
        pvs: true,
        aspiration: true,
        killers: true,
        history: true,
        counter_move: true,
        capture_ordering: true,
        ..SearchConfig::PLAIN
    }
}

/// The exact depth-limited value of `fen`, by plain alpha-beta.
pub fn exact(fen: &str, depth: u32) -> i32 {
    let mut pos = Position::from_fen(fen).expect("valid FEN");
    alphabeta(
        &mut pos,
        depth,
        -INFINITE,
        INFINITE,
        0,
        &mut Counter::default(),
    )
}
