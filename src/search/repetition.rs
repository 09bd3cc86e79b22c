//! Repetition inside the search, by the rules of play (board/rules.rs). A repeated position is
//! scored when its earlier occurrence lies strictly inside the search tree (the side that
//! could deviate had the same choice at the first occurrence, so the cycle adds nothing), or
//! when it is the position's third occurrence, where the game rule ends the game. A position
//! that repeats the game history only once, or the root itself, is searched on: the game
//! goes on there, and whoever checks or chases may still deviate. This is the convention of
//! Stockfish and Pikafish; scoring every first repetition against the history made Pao print
//! `mate 1` for an evasion that decided nothing.
//!
//! A ruled repetition scores: a draw (0) when nobody or both checked or chased perpetually;
//! a win or loss **by rule** ([`rule_win_in`], a band just below the mate scores: it is not a
//! mate) for the side to move when the other side, or itself, was the perpetual offender.
//! With [`RepetitionRule::Draw`] every ruled repetition is a draw.
//!
//! The other draw by length of play, the sixty-move rule, is here too ([`sixty_move_draw`],
//! [`sixty_move_fade`]); the search applies it only with its switches on.

use super::config::RepetitionRule;
use super::score::{rule_loss_in, rule_win_in, DRAW};
use crate::board::rules::{
    most_checks_since_capture, repetition_distance, rule_repetition, sixty_move_rule_reached,
    RepetitionVerdict, SIXTY_MOVE_PLIES,
};
use crate::board::Position;

/// The score of the current node, `ply` plies below the root, if its position repeats and the
/// repetition is ruled (see the module comment), from the side to move's point of view;
/// `None` when the search must go on.
#[inline(always)]
pub fn repetition_score(pos: &mut Position, ply: usize, rule: RepetitionRule) -> Option<i32> {
    // At nearly every node nothing can repeat: that test stays inline in the search.
    if pos.plies_since_capture() < 4 || !pos.may_repeat() {
        return None;
    }
    scan_repetition(pos, ply, rule)
}

/// `repetition_score` past its quick test: the walk back over the history.
fn scan_repetition(pos: &mut Position, ply: usize, rule: RepetitionRule) -> Option<i32> {
    let (nearest, since_null) = repetition_distance(pos, 2)?;
    let distance = if nearest < ply {
        nearest
    } else {
        // Against the game history: only the third occurrence ends the game.
        repetition_distance(pos, 3)?.0
    };
    if rule == RepetitionRule::Draw {
        return Some(DRAW);
    }
    Some(match rule_repetition(pos, distance, since_null).verdict {
        RepetitionVerdict::Draw => DRAW,
        RepetitionVerdict::WinForSideToMove => rule_win_in(ply),
        RepetitionVerdict::LossForSideToMove => rule_loss_in(ply),
    })
}

/// True when the sixty-move rule draws the game at this node: the count has reached its limit
/// (stretched by checks as the referee stretches it) and the side to move is not mated (mate
/// and stalemate come first). Cheap below the limit, where it is nearly always called.
#[inline]
pub fn sixty_move_draw(pos: &mut Position) -> bool {
    let plies = pos.plies_since_capture();
    plies >= SIXTY_MOVE_PLIES
        && sixty_move_rule_reached(plies, most_checks_since_capture(pos))
        && !pos.has_no_legal_move()
}

/// `eval` faded toward a draw by the sixty-move count: whole at 0 plies, half at the limit.
#[inline]
pub fn sixty_move_fade(eval: i32, plies: u32) -> i32 {
    let limit = SIXTY_MOVE_PLIES as i32;
    let p = plies.min(SIXTY_MOVE_PLIES) as i32;
    eval * (2 * limit - p) / (2 * limit)
}
