//! Per-thread move-ordering memory: history, killers and counter-moves.

use super::score::MAX_PLY;
use crate::board::{Move, Piece, SQUARES};

/// History values stay within this bound (gravity keeps them there).
const HISTORY_MAX: i32 = 16384;

/// Ordering tables owned by one search thread.
pub struct Heuristics {
    history: Box<[[i32; SQUARES]; Piece::CODES]>,
    killers: [[Move; 2]; MAX_PLY + 4],
    counter: Box<[[Move; SQUARES]; Piece::CODES]>,
}

impl Default for Heuristics {
    fn default() -> Self {
        Self::new()
    }
}

impl Heuristics {
    /// Empty tables.
    pub fn new() -> Heuristics {
        Heuristics {
            history: Box::new([[0; SQUARES]; Piece::CODES]),
            killers: [[Move::NONE; 2]; MAX_PLY + 4],
            counter: Box::new([[Move::NONE; SQUARES]; Piece::CODES]),
        }
    }

    /// Forgets everything (new game, or bench reproducibility).
    pub fn clear(&mut self) {
        *self = Heuristics::new();
    }

    /// Ages the tables between searches: history halves, killers go.
    pub fn age(&mut self) {
        for row in self.history.iter_mut() {
            for v in row.iter_mut() {
                *v /= 2;
            }
        }
        self.killers = [[Move::NONE; 2]; MAX_PLY + 4];
    }

    /// History score of moving `piece` to the move's to-square.
    #[inline]
    pub fn history(&self, piece: Piece, m: Move) -> i32 {
        self.history[piece.code()][m.to().index()]
    }

    /// Rewards (`bonus > 0`) or punishes a quiet move, with gravity toward zero.
    #[inline]
    pub fn update_history(&mut self, piece: Piece, m: Move, bonus: i32) {
        let entry = &mut self.history[piece.code()][m.to().index()];
        let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        *entry += bonus - *entry * bonus.abs() / HISTORY_MAX;
    }

    /// The two killers at `ply`.
    #[inline]
    pub fn killers(&self, ply: usize) -> [Move; 2] {
        self.killers[ply]
    }

    /// Records a quiet move that caused a cutoff at `ply`.
    #[inline]
    pub fn add_killer(&mut self, ply: usize, m: Move) {
        let k = &mut self.killers[ply];
        if k[0] != m {
            k[1] = k[0];
            k[0] = m;
        }
    }

    /// The counter-move to the previous move (`piece` moved to `to`).
    #[inline]
    pub fn counter(&self, prev_piece: Piece, prev: Move) -> Move {
        self.counter[prev_piece.code()][prev.to().index()]
    }

    /// Records `m` as the refutation of the previous move.
    #[inline]
    pub fn set_counter(&mut self, prev_piece: Piece, prev: Move, m: Move) {
        self.counter[prev_piece.code()][prev.to().index()] = m;
    }
}
