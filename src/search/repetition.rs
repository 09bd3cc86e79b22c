//! Repetition inside the search: a repeated position is a draw, except that a side that gave
//! check with every one of its moves in the cycle loses (perpetual check). Applied at the first
//! repetition, inside the tree or against the game history, which is the conservative reading.

use super::score::{mate_in, mated_in, DRAW};
use crate::board::Position;

/// The score of the current node if its position repeats an earlier one, from the side to
/// move's point of view; `None` when it does not repeat.
pub fn repetition_score(pos: &Position, ply: usize) -> Option<i32> {
    let history = pos.history();
    let len = history.len();
    let span = (pos.plies_since_capture() as usize).min(len);
    if span < 4 {
        return None;
    }
    let key = pos.key();
    // Same side to move: 4, 6, ... plies back, never past the last capture.
    let mut back = 4;
    while back <= span {
        let start = len - back;
        if history[start].key == key {
            return Some(cycle_verdict(pos, start, ply));
        }
        back += 2;
    }
    None
}

/// Rules the cycle of moves `start..len`: perpetual check loses, anything else draws.
fn cycle_verdict(pos: &Position, start: usize, ply: usize) -> i32 {
    let history = pos.history();
    let len = history.len();
    let gave_check = |i: usize| {
        if i + 1 < len {
            history[i + 1].was_in_check()
        } else {
            pos.in_check()
        }
    };
    // The last move (len - 1) was the opponent's; moves alternate backwards from there.
    let mut opponent_always = true;
    let mut us_always = true;
    for i in start..len {
        let by_opponent = (len - 1 - i) % 2 == 0;
        if !gave_check(i) {
            if by_opponent {
                opponent_always = false;
            } else {
                us_always = false;
            }
        }
    }
    match (opponent_always, us_always) {
        (true, false) => mate_in(ply),
        (false, true) => mated_in(ply),
        _ => DRAW,
    }
}
