//! B* on Pao's engine (`searchdriver bstar`): bounds from shallow searches, the worker's
//! budget, and `info` reports of the root moves' bounds.
//!
//! The bounds of a position, for its side to move (exactly as computed here):
//! - a finished game (mate, stalemate, a ruled repetition) has its value as both bounds;
//! - otherwise e = the quiescence value, and two null-window probes of a depth-2 search
//!   (PROBE_DEPTH, all enhancements on) test e + MARGIN and e - MARGIN:
//!   - the upper probe (window e+M-1, e+M) failing low returns an upper bound r: optimistic
//!     = r; failing high (r >= e+M) gives optimistic = r + MARGIN;
//!   - the lower probe (window e-M, e-M+1) failing high returns a lower bound r: pessimistic
//!     = r; failing low (r <= e-M) gives pessimistic = r - MARGIN;
//!   - clamped to the mate range, mate and rule-win distances counted from the B* root (a
//!     probe's mate counts from its own root), and ordered (pessimistic <= optimistic).
//!
//! So the bounds bracket what a shallow search sees, widened by a margin on the side where
//! the probe failed: they are heuristic, as Berliner's evaluation bounds were.

use super::bstar::{bstar, BStarState, Bounds};
use super::reference::Game;
use super::report::{Iteration, RootLine, SearchResult};
use super::score::{from_tt, INFINITE, MATE};
use super::worker::Searcher;
use super::Limits;
use crate::board::{Move, Position};

/// Depth of the null-window probes.
pub const PROBE_DEPTH: i32 = 2;
/// Margin of the probes around the quiescence value, and the widening when one fails.
pub const MARGIN: i32 = 100;

impl Searcher {
    /// A fail-soft null-window search of `pos` (as a root) below `beta`, counting nodes into
    /// this searcher's total; 0 once the limits stop it (check `stopped`).
    fn probe(&mut self, pos: &Position, depth: i32, beta: i32) -> i32 {
        self.set_root(pos);
        self.root_moves.clear();
        self.pvs(depth, beta - 1, beta, 0, false, true)
    }

    fn quiescence_of(&mut self, pos: &Position) -> i32 {
        self.set_root(pos);
        self.qsearch(-INFINITE, INFINITE, 0)
    }
}

impl Bounds<Position> for Searcher {
    fn bounds(&mut self, pos: &mut Position, ply: usize) -> Option<(i32, i32)> {
        if let Some(v) = pos.terminal(ply) {
            return Some((v, v));
        }
        if self.poll_stop() {
            return None;
        }
        let e = self.quiescence_of(pos);
        let up = self.probe(pos, PROBE_DEPTH, e + MARGIN);
        let down = self.probe(pos, PROBE_DEPTH, e - MARGIN + 1);
        if self.stopped {
            return None;
        }
        let hi = if up < e + MARGIN { up } else { up + MARGIN };
        let lo = if down > e - MARGIN {
            down
        } else {
            down - MARGIN
        };
        // The probes' mates count from this node: count them from the B* root.
        let (lo, hi) = (
            from_tt(lo.clamp(-MATE, MATE), ply),
            from_tt(hi.clamp(-MATE, MATE), ply),
        );
        Some((lo.min(hi), hi.max(lo)))
    }
}

impl Searcher {
    /// B* at the root of `root` over `moves` (the legal moves, or the allowed ones) within
    /// `limits` (nodes, deadline, stop flag; the depth is ignored), reporting the root bounds
    /// through `report` as `Iteration`s. Returns the result and whether the move is proven.
    pub fn bstar_search(
        &mut self,
        root: &Position,
        moves: &[Move],
        limits: &Limits,
        report: &mut dyn FnMut(&Iteration),
    ) -> (SearchResult, bool) {
        self.start(root, limits, moves);
        // B* searches the positions below the root as roots of their own: no root noise.
        self.limits.noise = super::RootNoise::NONE;
        let mut game = root.clone();
        let mut last: Option<BStarState<Move>> = None;
        let mut reported = 0u64;
        let final_state = bstar(&mut game, moves, self, u64::MAX, &mut |s| {
            // Report when the candidate or its proof changes, and every 16 expansions.
            let changed = last
                .as_ref()
                .is_none_or(|l| l.best != s.best || l.proven != s.proven);
            if changed || s.expansions >= reported + 16 {
                reported = s.expansions;
                last = Some(s.clone());
                report(&iteration_of(s, 0));
            }
        });
        let nodes = self.nodes;
        let it = iteration_of(&final_state, nodes);
        if last.as_ref() != Some(&final_state) {
            report(&it);
        }
        self.publish();
        let result = SearchResult {
            best_move: final_state.best,
            ponder: None,
            score: it.score,
            depth: it.depth,
            pv: it.pv,
            nodes,
        };
        (result, final_state.proven)
    }
}

/// The report of a B* state: depth = plies of the tree, score = the chosen move's pessimistic
/// value, and the bounds of every root move.
fn iteration_of(s: &BStarState<Move>, nodes: u64) -> Iteration {
    let score = s
        .bounds
        .iter()
        .find(|b| Some(b.0) == s.best)
        .map_or(0, |b| b.1);
    Iteration {
        depth: s.depth.max(1),
        seldepth: s.depth.max(1),
        score,
        pv: s.best.into_iter().collect(),
        nodes,
        lines: vec![RootLine {
            score,
            pv: s.best.into_iter().collect(),
        }],
        bounds: s.bounds.clone(),
        proven: Some(s.proven),
    }
}
