//! What a search reports: its iterations and their root lines, its result, the move in progress.

use crate::board::Move;
use std::sync::atomic::{AtomicU32, Ordering};

/// One root line of an iteration (MultiPV): its score and principal variation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootLine {
    /// Score from the root side to move's view.
    pub score: i32,
    /// Principal variation (first move = the line's root move).
    pub pv: Vec<Move>,
}

/// The root move the main thread is searching, for `info currmove` (written at the root only).
#[derive(Debug, Default)]
pub struct RootProgress {
    /// Raw move in the low 16 bits, its 1-based number among the root moves above them.
    current: AtomicU32,
    /// Iteration depth.
    depth: AtomicU32,
}

impl RootProgress {
    /// The move being searched, its number (from 1) and the depth; `None` before the first.
    pub fn current(&self) -> Option<(Move, u32, u32)> {
        let v = self.current.load(Ordering::Relaxed);
        let mv = Move::from_raw(v as u16).filter(|m| !m.is_none())?;
        Some((mv, v >> 16, self.depth.load(Ordering::Relaxed)))
    }

    /// Forgets the move (a new search starts).
    pub fn reset(&self) {
        self.current.store(0, Ordering::Relaxed);
    }

    /// Records `m`, the root move numbered `number` (from 1), searched at `depth`.
    #[inline]
    pub(crate) fn set(&self, m: Move, number: usize, depth: i32) {
        self.depth.store(depth as u32, Ordering::Relaxed);
        self.current.store(
            u32::from(m.raw()) | (number.min(0xffff) as u32) << 16,
            Ordering::Relaxed,
        );
    }
}

/// What one completed iteration found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Iteration {
    /// Depth of the iteration.
    pub depth: u32,
    /// Deepest ply reached (quiescence included).
    pub seldepth: u32,
    /// Score from the root side to move's view.
    pub score: i32,
    /// Principal variation (first move = best move).
    pub pv: Vec<Move>,
    /// Nodes searched so far by this searcher.
    pub nodes: u64,
    /// The root lines best first (MultiPV); the first is `score` and `pv`. Fewer than asked
    /// when the search stopped inside the iteration.
    pub lines: Vec<RootLine>,
    /// B* only: the root moves with their (pessimistic, optimistic) values.
    pub bounds: Vec<(Move, i32, i32)>,
    /// B* only: whether the first PV move is proven best.
    pub proven: Option<bool>,
}

/// The result of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// Best move (`None` when the root has no legal move).
    pub best_move: Option<Move>,
    /// Expected reply, when the PV has one.
    pub ponder: Option<Move>,
    /// Score of the best move.
    pub score: i32,
    /// Deepest completed iteration.
    pub depth: u32,
    /// Principal variation of that iteration.
    pub pv: Vec<Move>,
    /// Nodes searched.
    pub nodes: u64,
}
