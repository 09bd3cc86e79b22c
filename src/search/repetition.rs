//! Repetition inside the search, by the rules of play (board/rules.rs): a repeated position is
//! a draw, except that a side that checked (or chased) throughout the cycle loses. Applied at
//! the first repetition, inside the tree or against the game history: the conservative reading
//! that Pikafish also uses.

use super::score::{mate_in, mated_in, DRAW};
use crate::board::rules::{find_repetition, RepetitionVerdict};
use crate::board::Position;

/// The score of the current node if its position repeats an earlier one, from the side to
/// move's point of view; `None` when it does not repeat.
#[inline]
pub fn repetition_score(pos: &mut Position, ply: usize) -> Option<i32> {
    if pos.plies_since_capture() < 4 {
        return None;
    }
    find_repetition(pos, 2).map(|r| match r.verdict {
        RepetitionVerdict::WinForSideToMove => mate_in(ply),
        RepetitionVerdict::LossForSideToMove => mated_in(ply),
        RepetitionVerdict::Draw => DRAW,
    })
}
