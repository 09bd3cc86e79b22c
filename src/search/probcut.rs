//! ProbCut: at a node that expects no cutoff search, a capture whose reduced search beats beta
//! by a margin is taken as proof that the full search would beat beta too, and the node
//! returns. Captures are tried only when their static exchange can lift the evaluation that
//! far; each is checked by quiescence first (cheap) and then by the reduced search.

use super::ordering::MovePicker;
use super::score::{to_tt, WIN_BOUND};
use super::see::see_ge;
use super::worker::Searcher;
use crate::tt::Bound;

/// ProbCut works from this depth.
const PROBCUT_DEPTH: i32 = 5;
/// How far above beta the reduced search must land.
const PROBCUT_MARGIN: i32 = 200;
/// How much shallower the verifying search is.
const PROBCUT_REDUCTION: i32 = 4;

/// What the node knows when it tries ProbCut.
pub(crate) struct ProbCutNode {
    pub(crate) depth: i32,
    pub(crate) beta: i32,
    pub(crate) ply: usize,
    pub(crate) static_eval: i32,
    /// The evaluation as computed, for the table entry.
    pub(crate) raw_eval: i32,
    pub(crate) key: u64,
    /// The table's score for the node and the depth it was searched to, if any.
    pub(crate) tt_value: Option<i32>,
    pub(crate) tt_depth: i32,
}

impl Searcher {
    /// The score of a capture that holds beta + margin at reduced depth, or None. The caller
    /// has checked the node is not PV, not in check, not the root, and excludes no move.
    pub(crate) fn probcut(&mut self, node: &ProbCutNode) -> Option<i32> {
        if node.depth < PROBCUT_DEPTH || node.beta.abs() >= WIN_BOUND - PROBCUT_MARGIN {
            return None;
        }
        let pc_beta = node.beta + PROBCUT_MARGIN;
        // A table result about as deep as the verification, below pc_beta, says it fails.
        if node
            .tt_value
            .is_some_and(|v| node.tt_depth >= node.depth - 3 && v < pc_beta)
        {
            return None;
        }
        let ply = node.ply;
        let mut picker = MovePicker::captures(&self.pos);
        while let Some(m) = picker.next_move(&mut self.pos, &self.heur, &self.config) {
            if !see_ge(&self.pos, m, pc_beta - node.static_eval) {
                continue;
            }
            self.stack[ply].mv = m;
            self.stack[ply].piece = self.pos.piece_at(m.from());
            self.stack[ply + 1].doubles = self.stack[ply].doubles;
            self.make_move(m);
            let mut score = -self.qsearch(-pc_beta, -pc_beta + 1, ply + 1);
            if score >= pc_beta {
                score = -self.pvs(
                    node.depth - PROBCUT_REDUCTION,
                    -pc_beta,
                    -pc_beta + 1,
                    ply + 1,
                    false,
                    true,
                );
            }
            self.unmake_move();
            if self.stopped {
                return None;
            }
            if score >= pc_beta {
                self.tt.store(
                    node.key,
                    m,
                    to_tt(score, ply),
                    node.raw_eval,
                    node.depth - 3,
                    Bound::Lower,
                );
                return Some(score);
            }
        }
        None
    }
}
