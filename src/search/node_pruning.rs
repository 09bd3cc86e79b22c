//! A node's pruning before its moves: reverse futility, razoring, null move and ProbCut.

use super::params as param;
use super::probcut::ProbCutNode;
use super::score::WIN_BOUND;
use super::worker::Searcher;
use crate::board::{Move, PieceKind, Position};
use crate::tt::Bound;

/// True when the side to move has a piece that makes null-move pruning safe (zugzwang guard).
#[inline]
fn has_big_piece(pos: &Position) -> bool {
    let us = pos.side_to_move();
    pos.count(us, PieceKind::Rook)
        + pos.count(us, PieceKind::Horse)
        + pos.count(us, PieceKind::Cannon)
        > 0
}

/// What the node knows when it tries its pruning steps.
#[derive(Copy, Clone)]
pub(super) struct PruningNode {
    pub(super) depth: i32,
    pub(super) alpha: i32,
    pub(super) beta: i32,
    pub(super) ply: usize,
    /// Whether the null move may be tried (not right after one).
    pub(super) allow_null: bool,
    /// The evaluation as computed (for the table), as corrected, and as pruning compares it.
    pub(super) raw_eval: i32,
    pub(super) static_eval: i32,
    pub(super) eval: i32,
    pub(super) improving: bool,
    pub(super) key: u64,
    /// The table's score for the node, its bound and the depth it was searched to.
    pub(super) tt_value: Option<(i32, Bound)>,
    pub(super) tt_depth: i32,
}

impl Searcher {
    /// The score the node returns when a pruning step ends it (0 once stopped), or None. The
    /// caller has checked the node is not PV, not in check, not the root, and excludes no move.
    #[inline(always)]
    pub(super) fn prune_before_moves(&mut self, node: &PruningNode) -> Option<i32> {
        let PruningNode {
            depth,
            alpha,
            beta,
            ply,
            allow_null,
            raw_eval,
            static_eval,
            eval,
            improving,
            key,
            tt_value,
            tt_depth,
        } = *node;
        // Reverse futility: far above beta near the leaves, the opponent will not catch up.
        let rfp_depth = if self.config.rfp_improving && improving && depth > 1 {
            depth - 1
        } else {
            depth
        };
        if self.config.futility
            && depth <= param::rfp_depth()
            && eval.abs() < WIN_BOUND
            && eval - param::rfp_margin() * rfp_depth >= beta
        {
            self.horizon = true;
            return Some(eval);
        }
        // Razoring: hopelessly below alpha near the leaves, only captures can save it.
        if self.config.razoring
            && depth <= param::razor_depth()
            && alpha.abs() < WIN_BOUND
            && eval + param::razor_margin() * depth <= alpha
        {
            let score = self.qsearch(alpha, alpha + 1, ply);
            if self.stopped {
                return Some(0);
            }
            if score <= alpha {
                self.horizon = true;
                return Some(score);
            }
        }
        // Null move: if passing still fails high, a real move will too.
        if self.config.null_move
            && allow_null
            && depth >= 3
            && eval >= beta
            && beta.abs() < WIN_BOUND
            && has_big_piece(&self.pos)
        {
            let r = param::nmp_base()
                + depth / param::nmp_depth_divisor()
                + if self.config.nmp_eval_r {
                    ((eval - beta) / param::nmp_eval_divisor()).min(3)
                } else {
                    0
                };
            self.stack[ply].mv = Move::NONE;
            self.stack[ply + 1].doubles = self.stack[ply].doubles;
            self.make_null();
            let score = -self.pvs(depth - 1 - r, -beta, -beta + 1, ply + 1, false, false);
            self.unmake_null();
            if self.stopped {
                return Some(0);
            }
            if score >= beta {
                self.horizon = true;
                if depth < 10 {
                    return Some(if score >= WIN_BOUND { beta } else { score });
                }
                // Verification at high depth guards against zugzwang-like positions.
                let verified = self.pvs(depth - r, beta - 1, beta, ply, false, false);
                if verified >= beta {
                    return Some(verified);
                }
            }
        }
        if self.config.probcut {
            let node = ProbCutNode {
                depth,
                beta,
                ply,
                static_eval,
                raw_eval,
                key,
                tt_value: tt_value.map(|(score, _)| score),
                tt_depth,
            };
            if let Some(score) = self.probcut(&node) {
                self.horizon = true;
                return Some(score);
            }
            if self.stopped {
                return Some(0);
            }
        }
        None
    }
}
