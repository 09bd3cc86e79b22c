//! Scores: mate = 30000 - ply, so a shorter mate scores higher; draws are 0.
//! A win by the repetition rule (the opponent checked or chased perpetually) is not a mate: it
//! scores 29000 - ply, a band just below the mate band, so that it is reported as a (large)
//! centipawn score and never as `mate`, yet still outranks every evaluation.
//! Mate and rule-win scores are path-dependent, so the transposition table stores them
//! relative to the node.

/// Deepest ply the search reaches (stack and PV sizes).
pub const MAX_PLY: usize = 128;
/// The score of giving mate right now.
pub const MATE: i32 = 30000;
/// Scores beyond this (in absolute value) are mates.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// The score of a win by the repetition rule right now (the rule-win band is
/// `RULE_WIN - MAX_PLY < |score| <= RULE_WIN`).
pub const RULE_WIN: i32 = 29000;
/// Scores beyond this (in absolute value) are rule wins or mates: decided games.
pub const WIN_BOUND: i32 = RULE_WIN - MAX_PLY as i32;
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

/// Score for the side to move when the repetition at `ply` wins it the game by rule.
#[inline]
pub const fn rule_win_in(ply: usize) -> i32 {
    RULE_WIN - ply as i32
}

/// Score for the side to move when the repetition at `ply` loses it the game by rule.
#[inline]
pub const fn rule_loss_in(ply: usize) -> i32 {
    -RULE_WIN + ply as i32
}

/// True for mate scores.
#[inline]
pub const fn is_mate_score(score: i32) -> bool {
    score.abs() > MATE_BOUND
}

/// True for rule-win (and rule-loss) scores.
#[inline]
pub const fn is_rule_score(score: i32) -> bool {
    score.abs() > WIN_BOUND && score.abs() <= RULE_WIN
}

/// True for scores that say the game is decided (a mate or a rule win either way).
#[inline]
pub const fn is_decisive(score: i32) -> bool {
    score.abs() > WIN_BOUND
}

/// Converts a search score at `ply` into a node-relative score for the transposition table.
#[inline]
pub const fn to_tt(score: i32, ply: usize) -> i32 {
    if score > WIN_BOUND {
        score + ply as i32
    } else if score < -WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// Converts a node-relative score from the transposition table back to the search at `ply`.
#[inline]
pub const fn from_tt(score: i32, ply: usize) -> i32 {
    if score > WIN_BOUND {
        score - ply as i32
    } else if score < -WIN_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// Plies to mate for a mate score (positive: the side to move mates), else `None`.
/// Rule wins are not mates: they give `None`.
pub const fn mate_plies(score: i32) -> Option<i32> {
    if score > MATE_BOUND {
        Some(MATE - score)
    } else if score < -MATE_BOUND {
        Some(-(MATE + score))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bands_do_not_overlap() {
        assert!(rule_win_in(0) < mate_in(MAX_PLY));
        assert!(rule_win_in(MAX_PLY - 1) > WIN_BOUND);
        assert!(is_rule_score(rule_win_in(2)) && is_rule_score(rule_loss_in(2)));
        assert!(!is_mate_score(rule_win_in(0)) && !is_rule_score(mate_in(1)));
        assert_eq!(mate_plies(rule_win_in(1)), None);
        assert_eq!(mate_plies(mate_in(3)), Some(3));
    }

    #[test]
    fn table_conversion_round_trips_in_both_bands() {
        for s in [
            mate_in(7),
            mated_in(7),
            rule_win_in(7),
            rule_loss_in(7),
            123,
            -456,
        ] {
            assert_eq!(from_tt(to_tt(s, 5), 5), s);
        }
        // Node-relative: a rule win 7 plies from the root is 2 plies from a node at ply 5.
        assert_eq!(to_tt(rule_win_in(7), 5), rule_win_in(2));
    }
}
