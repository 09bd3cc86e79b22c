//! Singular extension: when every move but the TT move fails low against a margin below its
//! stored score, the TT move is the only good one and is searched deeper (two plies when the
//! others fail far below, a bounded number of times per line); when even the others beat
//! beta, several moves cut and the node does (multi-cut); when another move holds near the
//! stored score and that score beats beta, the TT move is searched a ply shallower.

use super::params as param;
use super::score::WIN_BOUND;
use super::worker::Searcher;
use crate::board::Move;
use crate::tt::Bound;

/// A double extension when the other moves fail this far below the singular bound; at most
/// `DOUBLE_EXTENSIONS` on one line, so the search stays finite.
const DOUBLE_EXTENSION_MARGIN: i32 = 40;
const DOUBLE_EXTENSIONS: u8 = 6;

/// What the singular search decided for the TT move.
pub(crate) enum Singular {
    /// Search the TT move this many plies deeper (negative: shallower).
    Extend(i32),
    /// Several moves beat beta: the node returns this score.
    Cut(i32),
}

/// What the node knows when it tries the singular search.
pub(crate) struct SingularNode {
    pub(crate) depth: i32,
    pub(crate) beta: i32,
    pub(crate) ply: usize,
    pub(crate) pv_node: bool,
    pub(crate) tt_move: Move,
    /// The table's score for the node, its bound and the depth it was searched to.
    pub(crate) tt_value: Option<(i32, Bound)>,
    pub(crate) tt_depth: i32,
}

impl Searcher {
    /// The singular search of the TT move; the caller has checked the switch, that the node
    /// is not the root and excludes no move. `Extend(0)` when it does not apply; after a
    /// stop, the caller returns as it does after any search.
    pub(crate) fn singular(&mut self, node: &SingularNode) -> Singular {
        let Some((tt_score, bound)) = node.tt_value else {
            return Singular::Extend(0);
        };
        let depth = node.depth;
        if depth < param::singular_depth()
            || node.tt_move.is_none()
            || !matches!(bound, Bound::Lower | Bound::Exact)
            || node.tt_depth < depth - 3
            || tt_score.abs() >= WIN_BOUND
        {
            return Singular::Extend(0);
        }
        let ply = node.ply;
        let singular_beta = tt_score - param::singular_margin() * depth;
        self.stack[ply].excluded = node.tt_move;
        let score = self.pvs(
            (depth - 1) / 2,
            singular_beta - 1,
            singular_beta,
            ply,
            false,
            false,
        );
        self.stack[ply].excluded = Move::NONE;
        if score < singular_beta {
            let double = !node.pv_node
                && score < singular_beta - DOUBLE_EXTENSION_MARGIN
                && self.stack[ply].doubles < DOUBLE_EXTENSIONS;
            Singular::Extend(if double { 2 } else { 1 })
        } else if singular_beta >= node.beta {
            self.horizon = true;
            Singular::Cut(singular_beta)
        } else if tt_score >= node.beta {
            Singular::Extend(-1)
        } else {
            Singular::Extend(0)
        }
    }
}
