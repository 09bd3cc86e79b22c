//! The strength limit (`Skill Level`, `UCI_LimitStrength`, `UCI_Elo`): a level plays weaker
//! by searching less and by choosing among the good moves, never by throwing material away.
//!
//! - Search: a node budget that doubles every `LEVELS_PER_DOUBLING` levels. No iteration
//!   starts past it (`Limits::soft_nodes`, checked between iterations, so the iterations end
//!   where they end on any machine), and a hard cap stops a runaway iteration. The clock and
//!   the `go` limits still apply on top, so a level never thinks longer than full strength.
//!   The search is the main thread's alone: a level is the same on any number of threads.
//! - Choice: the search finds `CANDIDATES` root lines (MultiPV); the move is drawn among the
//!   lines within `margin()` of the best, weighted towards the best. The margin is bounded by
//!   `MAX_MARGIN`, less than a horse, so a capture the search sees as winning a piece is never
//!   passed over for a quiet move.
//!
//! Level 20 (the default) is full strength and changes nothing.

mod elo;
mod options;

pub use elo::{level_for_elo, CALIBRATION, DEFAULT_ELO, MAX_ELO, MIN_ELO};
pub use options::StrengthOptions;

use crate::board::zobrist::mix;
use crate::search::{Limits, RootLine};

/// The level of full strength (no limit).
pub const FULL_LEVEL: u8 = 20;
/// Root lines searched for the choice.
pub const CANDIDATES: usize = 4;
/// The budget of level 0, in nodes: its first iteration always completes.
const BASE_NODES: f64 = 50.0;
/// Levels per doubling of the node budget.
const LEVELS_PER_DOUBLING: f64 = 4.0 / 3.0;
/// The hard cap is this many times the budget...
const HARD_FACTOR: u64 = 4;
/// ...and never below this, so that a first iteration in a tactical storm completes.
const HARD_FLOOR: u64 = 20_000;
/// The margin of level 0, in centipawns (a horse is 400, a rook 900).
pub const MAX_MARGIN: i32 = 150;

/// A strength below full: a level in `0.0..20.0` (fractional for `UCI_Elo`).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Skill {
    level: f64,
}

impl Skill {
    /// A limited strength at `level`, clamped to `0.0..=19.99`.
    pub fn new(level: f64) -> Skill {
        let level = if level.is_finite() { level } else { 0.0 };
        Skill {
            level: level.clamp(0.0, f64::from(FULL_LEVEL) - 0.01),
        }
    }

    /// The level.
    pub fn level(&self) -> f64 {
        self.level
    }

    /// Nodes past which no iteration starts.
    pub fn soft_nodes(&self) -> u64 {
        (BASE_NODES * (self.level / LEVELS_PER_DOUBLING).exp2()).round() as u64
    }

    /// Nodes at which the search stops inside an iteration.
    pub fn hard_nodes(&self) -> u64 {
        (self.soft_nodes() * HARD_FACTOR).max(HARD_FLOOR)
    }

    /// How far below the best line (centipawns) a line may be chosen: `MAX_MARGIN` at level
    /// 0, falling linearly to 0 at full strength.
    pub fn margin(&self) -> i32 {
        let weakness = 1.0 - self.level / f64::from(FULL_LEVEL);
        (f64::from(MAX_MARGIN) * weakness).round() as i32
    }

    /// Tightens `limits` for this level: the node budget and cap, and the candidate lines.
    pub fn limit(&self, limits: &mut Limits) {
        limits.soft_nodes = limits.soft_nodes.min(self.soft_nodes());
        limits.nodes = limits.nodes.min(self.hard_nodes());
        limits.multipv = limits.multipv.max(CANDIDATES);
    }

    /// The index of the line to play among `lines` (best first, as an iteration gives them),
    /// drawn with `draw` (any 64-bit value): each line within the margin of the best weighs
    /// `margin + 1 - (best - score)`, so the best weighs most and a line at the margin least.
    /// 0 when `lines` is empty.
    pub fn choose(&self, lines: &[RootLine], draw: u64) -> usize {
        let Some(best) = lines.iter().map(|l| l.score).max() else {
            return 0;
        };
        let margin = i64::from(self.margin());
        let weights: Vec<u64> = lines
            .iter()
            .map(|l| {
                let behind = i64::from(best) - i64::from(l.score);
                if behind <= margin {
                    (margin + 1 - behind) as u64
                } else {
                    0
                }
            })
            .collect();
        let total: u64 = weights.iter().sum();
        let mut ticket = mix(draw) % total.max(1);
        for (i, &w) in weights.iter().enumerate() {
            if ticket < w {
                return i;
            }
            ticket -= w;
        }
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Move;

    fn lines(scores: &[i32]) -> Vec<RootLine> {
        scores
            .iter()
            .map(|&score| RootLine {
                score,
                pv: vec![Move::NONE],
            })
            .collect()
    }

    #[test]
    fn budgets_grow_with_the_level() {
        let nodes: Vec<u64> = (0..20).map(|l| Skill::new(l as f64).soft_nodes()).collect();
        assert_eq!(nodes[0], 50);
        assert_eq!(nodes[4], 400);
        assert_eq!(nodes[8], 3_200);
        assert!(nodes.windows(2).all(|w| w[0] < w[1]), "{nodes:?}");
        assert_eq!(Skill::new(0.0).hard_nodes(), HARD_FLOOR);
        assert_eq!(Skill::new(16.0).hard_nodes(), 4 * 204_800);
        assert_eq!(Skill::new(0.0).margin(), MAX_MARGIN);
        assert_eq!(Skill::new(10.0).margin(), 75);
        assert_eq!(Skill::new(19.0).margin(), 8);
        assert_eq!(Skill::new(99.0).level(), 19.99);
        assert_eq!(Skill::new(f64::NAN).level(), 0.0);
    }

    #[test]
    fn the_choice_stays_within_the_margin_and_favours_the_best() {
        let skill = Skill::new(0.0);
        // Lines 150 and 151 behind: the first may be chosen, the second never.
        let l = lines(&[100, 40, -50, -51]);
        let mut counts = [0u32; 4];
        for draw in 0..10_000u64 {
            counts[skill.choose(&l, draw)] += 1;
        }
        assert_eq!(counts[3], 0, "{counts:?}");
        assert!(counts[2] > 0, "{counts:?}");
        assert!(counts[0] > counts[1] && counts[1] > counts[2], "{counts:?}");
        // Weights 151 : 91 : 1, so about 62% : 38% : 0.4%.
        assert!((6000..6500).contains(&counts[0]), "{counts:?}");
        // A free rook: nothing else is within the margin.
        let rook = lines(&[900, 10, 5, 0]);
        assert!((0..1000).all(|d| skill.choose(&rook, d) == 0));
        assert_eq!(skill.choose(&[], 7), 0);
    }
}
