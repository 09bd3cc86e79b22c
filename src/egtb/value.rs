//! What a table stores for a position: win or loss with the distance to mate in plies, or a
//! draw.
//!
//! A code is one 16-bit number: 0 is a draw, `n + 1` a decided position with mate `n` plies
//! away (even `n`: the side to move loses, so 1 means "mated or stalemated now"; odd `n`: it
//! wins), and two codes at the top mark a draw the repetition rules may overturn (perpetual
//! check loses under the Asian rules) and an index that names no legal position.

/// A table's verdict on one position, from the side to move.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Outcome {
    /// The side to move mates in this many plies (odd).
    Win(u16),
    /// The side to move is mated in this many plies (even; 0 = mated or stalemated now).
    Loss(u16),
    /// A draw with best play, every repetition counted as a draw.
    Draw,
    /// A draw only if a side may check forever: under the Asian rules the repetition may
    /// lose instead, so the search does not take it as exact.
    RuleDraw,
}

/// The draw code.
pub const DRAW: u16 = 0;
/// A draw that hangs on perpetual check.
pub const RULE_DRAW: u16 = 0xfffe;
/// An index that is not a legal position.
pub const INVALID: u16 = 0xffff;
/// The largest distance in plies a code can hold.
pub const MAX_PLIES: u16 = 0xfffc;

/// The code of a decided position `plies` plies from mate.
#[inline]
pub const fn decided(plies: u16) -> u16 {
    plies + 1
}

/// The outcome of a code; `None` for an invalid index.
#[inline]
pub fn outcome(code: u16) -> Option<Outcome> {
    match code {
        DRAW => Some(Outcome::Draw),
        RULE_DRAW => Some(Outcome::RuleDraw),
        INVALID => None,
        c => {
            let plies = c - 1;
            Some(if plies % 2 == 1 {
                Outcome::Win(plies)
            } else {
                Outcome::Loss(plies)
            })
        }
    }
}

/// Distance of a decided code; `None` for draws and invalid indices.
#[inline]
pub fn plies(code: u16) -> Option<u16> {
    match code {
        DRAW | RULE_DRAW | INVALID => None,
        c => Some(c - 1),
    }
}

impl Outcome {
    /// -1, 0 or 1 from the side to move (a rule draw counts as a draw).
    pub fn wdl(self) -> i32 {
        match self {
            Outcome::Win(_) => 1,
            Outcome::Loss(_) => -1,
            Outcome::Draw | Outcome::RuleDraw => 0,
        }
    }
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Outcome::Win(p) => write!(f, "win in {p} plies (mate in {})", p.div_ceil(2)),
            Outcome::Loss(0) => write!(f, "loss: no legal move"),
            Outcome::Loss(p) => write!(f, "loss in {p} plies (mated in {})", p / 2),
            Outcome::Draw => write!(f, "draw"),
            Outcome::RuleDraw => write!(
                f,
                "draw by perpetual check (the Asian rules may rule a loss)"
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip() {
        assert_eq!(outcome(decided(0)), Some(Outcome::Loss(0)));
        assert_eq!(outcome(decided(1)), Some(Outcome::Win(1)));
        assert_eq!(outcome(decided(24)), Some(Outcome::Loss(24)));
        assert_eq!(outcome(DRAW), Some(Outcome::Draw));
        assert_eq!(outcome(RULE_DRAW), Some(Outcome::RuleDraw));
        assert_eq!(outcome(INVALID), None);
        assert_eq!(plies(decided(MAX_PLIES)), Some(MAX_PLIES));
        assert_eq!(Outcome::Win(23).to_string(), "win in 23 plies (mate in 12)");
    }
}
