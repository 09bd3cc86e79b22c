//! Scores: mate = 30000 - ply, so a shorter mate scores higher; draws are 0.
//! Mate scores are path-dependent, so the transposition table stores them relative to the node.

/// Deepest ply the search reaches (stack and PV sizes).
pub const MAX_PLY: usize = 128;
/// The score of giving mate right now.
pub const MATE: i32 = 30000;
/// Scores beyond this (in absolute value) are mates (or rule wins, scored like mates).
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// Larger than any real score.
pub const INFINITE: i32 = 32000;
/// A draw.
pub const DRAW: i32 = 0;

/// Score for the side to move when it mates at `ply` (the mate is made at that ply).
#[inline]
pub const fn mate_in(ply: usize) -> i32 {
    MATE - ply as i32
}

/// Score for the side to move when it is mated at `ply`.
#[inline]
pub const fn mated_in(ply: usize) -> i32 {
    -MATE + ply as i32
}

/// True for mate (and rule-win) scores.
#[inline]
pub const fn is_mate_score(score: i32) -> bool {
    score.abs() > MATE_BOUND
}

/// Converts a search score at `ply` into a node-relative score for the transposition table.
#[inline]
pub const fn to_tt(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score + ply as i32
    } else if score < -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// Converts a node-relative score from the transposition table back to the search at `ply`.
#[inline]
pub const fn from_tt(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score - ply as i32
    } else if score < -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// Plies to mate for a mate score (positive: the side to move mates), else `None`.
pub const fn mate_plies(score: i32) -> Option<i32> {
    if score > MATE_BOUND {
        Some(MATE - score)
    } else if score < -MATE_BOUND {
        Some(-(MATE + score))
    } else {
        None
    }
}
