//! One thread's search.

mod aspiration;
pub mod bstar;
mod bstar_root;
pub mod config;
mod correction;
mod deepening;
mod evaluation;
pub mod heuristics;
pub mod limits;
mod mate_proof;
mod move_loop;
mod multipv;
mod node_heuristics;
mod node_pruning;
pub mod ordering;
pub mod params;
mod poll;
mod probcut;
mod pvs;
mod qsearch;
pub mod reference;
pub mod repetition;
mod report;
pub mod root_noise;
pub mod score;
pub mod see;
mod singular;
mod tablebase;
pub mod wdl;
pub mod worker;

pub use config::{Driver, RepetitionRule, SearchConfig};
pub(crate) use evaluation::network_value;
pub use limits::Limits;
pub use report::{Iteration, RootLine, RootProgress, SearchResult};
pub use root_noise::RootNoise;
pub use worker::Searcher;

/// The quiescence value of a position with a scratch table (UCCI `go depth 0`), evaluated by
/// `network` when one is given (the net in use), else by the hand-written evaluation.
pub fn quiescence_score(
    root: &crate::board::Position,
    config: SearchConfig,
    network: Option<std::sync::Arc<crate::eval::nnue::Network>>,
) -> i32 {
    match crate::tt::TranspositionTable::with_buckets(1) {
        Ok(tt) => {
            let mut searcher = Searcher::new(std::sync::Arc::new(tt), config);
            searcher.set_network(network);
            searcher.quiescence(root)
        }
        Err(_) => crate::eval::evaluate_with(root, config.knowledge),
    }
}
