//! Iterative deepening: iterations until a limit, a `go mate` target or a decided score ends them.

use super::config::Driver;
use super::limits::Limits;
use super::report::{Iteration, SearchResult};
use super::score::{is_decisive, INFINITE, MAX_PLY};
use super::worker::{Searcher, POLL_INTERVAL};
use crate::board::{Move, Position};
use std::time::Instant;

/// Iterations in a row with the same decided score after which `stop_when_decided` ends the
/// search.
const DECIDED_ITERATIONS: u32 = 4;

impl Searcher {
    /// Searches `root` under `limits`, calling `report` after each completed iteration.
    /// `allowed` restricts the root moves (banmoves); empty means all legal moves.
    pub fn search(
        &mut self,
        root: &Position,
        limits: &Limits,
        allowed: &[Move],
        report: &mut dyn FnMut(&Iteration),
    ) -> SearchResult {
        self.search_from(root, limits, allowed, 1, &mut |_| true, report)
    }

    /// Iterative deepening from `first_depth`; `skip(depth)` returning false skips an iteration
    /// (Lazy SMP helpers use it to spread over depths).
    pub fn search_from(
        &mut self,
        root: &Position,
        limits: &Limits,
        allowed: &[Move],
        first_depth: u32,
        skip: &mut dyn FnMut(u32) -> bool,
        report: &mut dyn FnMut(&Iteration),
    ) -> SearchResult {
        if self.config.driver == Driver::BStar {
            let mut legal = root.clone().legal_moves();
            if !allowed.is_empty() {
                legal.retain(|m| allowed.contains(&m));
            }
            if !legal.is_empty() {
                return self.bstar_search(root, legal.as_slice(), limits, report).0;
            }
        }
        self.start(root, limits, allowed);
        let mut legal = self.pos.legal_moves();
        if !allowed.is_empty() {
            legal.retain(|m| allowed.contains(&m));
        }
        let mut result = SearchResult {
            best_move: legal.as_slice().first().copied(),
            ponder: None,
            score: 0,
            depth: 0,
            pv: legal.as_slice().first().copied().into_iter().collect(),
            nodes: 0,
        };
        if legal.is_empty() {
            result.score = super::score::mated_in(0);
            return result;
        }
        let mut decided_iterations = 0;
        let max_depth = limits.depth.clamp(1, (MAX_PLY - 8) as u32);
        let wanted = limits.multipv.clamp(1, legal.len());
        let base_moves = std::mem::take(&mut self.root_moves);
        // Each line's score at the previous iteration: the centre of its aspiration window.
        let mut previous = vec![0; wanted];
        for depth in first_depth.max(1)..=max_depth {
            if depth > first_depth && !skip(depth) {
                continue;
            }
            self.seldepth = 0;
            self.horizon = false;
            let lines = self.search_lines(
                depth,
                &mut previous,
                legal.as_slice(),
                &base_moves,
                &result.pv,
            );
            if lines.is_empty() {
                break;
            }
            let score = lines[0].score;
            decided_iterations = match (
                is_decisive(score),
                result.depth > 0 && score == result.score,
            ) {
                (true, true) => decided_iterations + 1,
                (true, false) => 1,
                (false, _) => 0,
            };
            let pv = lines[0].pv.clone();
            result.best_move = pv.first().copied();
            result.ponder = pv.get(1).copied();
            result.score = score;
            result.depth = depth;
            result.pv = pv.clone();
            result.nodes = self.nodes;
            self.publish_nodes();
            let iteration = Iteration {
                depth,
                seldepth: self.seldepth.max(depth as usize) as u32,
                score,
                pv,
                nodes: self.nodes,
                lines,
                bounds: Vec::new(),
                proven: None,
            };
            report(&iteration);
            if self.stopped
                || self.nodes >= limits.soft_nodes
                || limits.soft_deadline.is_some_and(|d| Instant::now() >= d)
            {
                break;
            }
            // `go mate N`: a mate in N moves is N * 2 - 1 plies.
            if let (Some(n), Some(plies)) = (limits.mate, super::score::mate_plies(score)) {
                if plies > 0 && plies < 2 * n as i32 {
                    break;
                }
            }
            if limits.stop_when_decided
                && (decided_iterations >= DECIDED_ITERATIONS || !self.horizon)
                && self.decided_stop(iteration, &mut result, report)
            {
                break;
            }
        }
        self.root_moves = base_moves;
        self.publish_nodes();
        result.nodes = self.nodes;
        result
    }

    /// Resets the per-search state for a search of `root` under `limits`.
    pub(crate) fn start(&mut self, root: &Position, limits: &Limits, allowed: &[Move]) {
        self.set_root(root);
        self.limits = limits.clone();
        self.nodes = 0;
        self.published = 0;
        self.next_poll = POLL_INTERVAL.min(limits.nodes.max(1));
        self.stopped = false;
        self.seldepth = 0;
        self.root_moves = allowed.to_vec();
        self.heur.age();
    }

    /// The quiescence value of `root` (UCCI `go depth 0`).
    pub fn quiescence(&mut self, root: &Position) -> i32 {
        self.set_root(root);
        self.limits = Limits::depth(1);
        self.nodes = 0;
        self.next_poll = POLL_INTERVAL;
        self.stopped = false;
        self.qsearch(-INFINITE, INFINITE, 0)
    }
}
