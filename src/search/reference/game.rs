//! A small game interface for the reference searches, so that minimax, negamax, alpha-beta and
//! SSS* run unchanged on xiangqi and on a game small enough to solve (tic-tac-toe).

use super::super::config::RepetitionRule;
use super::super::repetition::repetition_score;
use super::super::score::mated_in;
use crate::board::{Move, Position};
use crate::eval;

/// A two-player, zero-sum game with perfect information, seen from the side to move.
pub trait Game {
    /// A move.
    type Move: Copy + Eq + std::fmt::Debug;
    /// The legal moves of the side to move, in the game's natural order (called only when
    /// [`Game::terminal`] said the game goes on).
    fn moves(&mut self) -> Vec<Self::Move>;
    /// Plays a move.
    fn make(&mut self, m: Self::Move);
    /// Takes the last move back.
    fn unmake(&mut self);
    /// The value of the game if it is over here, `ply` plies below the search root, from the
    /// side to move's point of view; `None` while it goes on.
    fn terminal(&mut self, ply: usize) -> Option<i32>;
    /// The static value of a position where the game goes on, from the side to move's view.
    fn evaluate(&mut self) -> i32;
    /// A key of the position, for transposition tables.
    fn key(&self) -> u64;
}

impl Game for Position {
    type Move = Move;

    fn moves(&mut self) -> Vec<Move> {
        self.legal_moves().iter().copied().collect()
    }

    fn make(&mut self, m: Move) {
        self.make_move(m);
    }

    fn unmake(&mut self) {
        self.unmake_move();
    }

    /// A ruled repetition below the root (the search's rule, Asian), or no legal move: mate
    /// and stalemate both lose.
    fn terminal(&mut self, ply: usize) -> Option<i32> {
        if ply > 0 {
            if let Some(s) = repetition_score(self, ply, RepetitionRule::Asian) {
                return Some(s);
            }
        }
        self.has_no_legal_move().then(|| mated_in(ply))
    }

    fn evaluate(&mut self) -> i32 {
        eval::evaluate(self)
    }

    fn key(&self) -> u64 {
        Position::key(self)
    }
}
