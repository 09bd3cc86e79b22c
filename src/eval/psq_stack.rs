//! The hand-written evaluation's accumulator on the search stack: the material and
//! piece-square sum, one level per ply, as the network keeps its accumulators. A move pushes
//! the level below updated by what the move changed (the moving piece's two squares and a
//! captured piece); unmaking pops it. The position itself keeps no evaluation state.

use super::psqt::{self, Pair, PSQ};
use crate::board::{Move, Position};

/// The sums of one search thread, bottom level = the root.
pub struct PsqStack {
    sums: Vec<Pair>,
    top: usize,
}

impl PsqStack {
    /// A stack deep enough for `levels` plies.
    pub fn new(levels: usize) -> PsqStack {
        PsqStack {
            sums: vec![Pair::default(); levels + 1],
            top: 0,
        }
    }

    /// Computes the bottom level from scratch for `pos` and empties the stack above it.
    pub fn refresh(&mut self, pos: &Position) {
        self.top = 0;
        self.sums[0] = psqt::sum(pos);
    }

    /// Records `m`, about to be made in `pos` (call before `make_move`).
    #[inline]
    pub fn push_move(&mut self, pos: &Position, m: Move) {
        let (from, to) = (m.from(), m.to());
        let mut sum = self.sums[self.top];
        if let Some(p) = pos.piece_at(from) {
            let table = &PSQ[p.code()];
            sum = sum - table[from.index()] + table[to.index()];
        }
        if let Some(c) = pos.piece_at(to) {
            sum = sum - PSQ[c.code()][to.index()];
        }
        self.top += 1;
        self.sums[self.top] = sum;
    }

    /// Records a null move (nothing changes).
    #[inline]
    pub fn push_null(&mut self) {
        self.sums[self.top + 1] = self.sums[self.top];
        self.top += 1;
    }

    /// Undoes the last push.
    #[inline]
    pub fn pop(&mut self) {
        self.top -= 1;
    }

    /// The sum of the current position, red-relative (middlegame, endgame).
    #[inline]
    pub fn current(&self) -> Pair {
        self.sums[self.top]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Along a game with captures, null moves and takebacks, every level equals the sum from
    /// scratch.
    #[test]
    fn the_stack_follows_moves_nulls_and_takebacks_exactly() {
        let mut pos = Position::startpos();
        let mut stack = PsqStack::new(64);
        stack.refresh(&pos);
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut depth = 0;
        let mut captures = 0;
        for step in 0..400 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let moves = pos.legal_moves();
            let back = depth > 0 && (seed >> 60) < 5;
            if back {
                stack.pop();
                match pos.history().last().map(|u| u.mv.is_none()) {
                    Some(true) => pos.unmake_null(),
                    _ => pos.unmake_move(),
                }
                depth -= 1;
            } else if moves.is_empty() || depth == 63 {
                stack.refresh(&pos);
                depth = 0;
            } else if step % 7 == 3 && !pos.in_check() {
                stack.push_null();
                pos.make_null();
                depth += 1;
            } else {
                let m = moves[(seed >> 33) as usize % moves.len()];
                captures += usize::from(pos.is_capture(m));
                stack.push_move(&pos, m);
                pos.make_move(m);
                depth += 1;
            }
            assert_eq!(stack.current(), psqt::sum(&pos), "step {step}");
        }
        assert!(captures >= 10, "only {captures} captures");
    }
}
