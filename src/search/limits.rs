//! What bounds one search: depth, nodes, a deadline and a shared stop flag.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// Limits the search obeys. The stop flag is shared with the coordinator and other workers.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Deepest iteration to run (1..=MAX_PLY-ish).
    pub depth: u32,
    /// Node budget for this worker (`u64::MAX` = none).
    pub nodes: u64,
    /// Nodes past which no new iteration starts (`u64::MAX` = none): a budget that ends the
    /// search where an iteration ends, as the strength limit wants.
    pub soft_nodes: u64,
    /// Hard deadline checked during the search.
    pub deadline: Option<Instant>,
    /// Soft deadline checked between iterations (the caller's time manager may also decide).
    pub soft_deadline: Option<Instant>,
    /// Raised to stop every worker at once.
    pub stop: Arc<AtomicBool>,
    /// End the iterations once a decided score (a mate or a rule win, either way) has held for
    /// a few of them, or once an iteration solved the tree without reaching its horizon:
    /// deeper ones would only repeat the result at a few nodes each (the depth-120 burst).
    /// Set for searches with no depth asked (`go` on a clock, `go infinite`, `go nodes`); a
    /// fixed depth runs every iteration.
    pub stop_when_decided: bool,
    /// With `stop_when_decided`: a mate ends the iterations only once proven exact (no
    /// shorter mate, or no longer resistance), by a search without forward pruning; until
    /// then the iterations go on. Set for analyses, the searches no game clock bounds (`go
    /// movetime`, `go infinite`, a bare `go`); a game's clock, `go depth` and `go nodes` keep
    /// the plain rule.
    pub prove_mates: bool,
    /// Root lines to find per iteration (MultiPV), at least 1.
    pub multipv: usize,
    /// `go mate N`: stop once a mate in at most N moves is proven.
    pub mate: Option<u32>,
    /// UCCI `randomness`: the noise added to the root moves' scores (none by default).
    pub noise: super::root_noise::RootNoise,
}

impl Limits {
    /// Search to `depth` with no other limit.
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth,
            nodes: u64::MAX,
            soft_nodes: u64::MAX,
            deadline: None,
            soft_deadline: None,
            stop: Arc::new(AtomicBool::new(false)),
            stop_when_decided: false,
            prove_mates: false,
            multipv: 1,
            mate: None,
            noise: super::root_noise::RootNoise::NONE,
        }
    }

    /// True when the stop flag is raised.
    #[inline]
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}
