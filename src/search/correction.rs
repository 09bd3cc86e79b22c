//! Correction history: what searches found about the static evaluation in positions of the
//! same soldier structure, kept per side to move and added to the evaluation that pruning
//! and the stand-pat use. A net misjudges whole families of positions alike (a blocked
//! structure, a broken palace); their searched values teach the correction in the game.

use super::score::WIN_BOUND;
use crate::board::Position;

/// Entries per side (a power of two).
const ENTRIES: usize = 16_384;
/// Corrections are kept in 1/GRAIN of a centipawn.
const GRAIN: i32 = 256;
/// The largest correction, in centipawns.
const LIMIT_CP: i32 = 64;
/// The most a single update weighs, of 256.
const MAX_WEIGHT: i32 = 16;

/// One thread's correction table.
pub struct CorrectionHistory {
    table: Box<[[i32; ENTRIES]; 2]>,
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        Self::new()
    }
}

impl CorrectionHistory {
    /// An empty table.
    pub fn new() -> CorrectionHistory {
        CorrectionHistory {
            table: vec![[0; ENTRIES]; 2]
                .into_boxed_slice()
                .try_into()
                .unwrap_or_else(|_| unreachable!("two rows")),
        }
    }

    #[inline]
    fn slot(pos: &Position) -> (usize, usize) {
        (
            pos.side_to_move().index(),
            (pos.soldier_hash() as usize) & (ENTRIES - 1),
        )
    }

    /// `eval` corrected for the position (never into the decided band).
    #[inline]
    pub fn correct(&self, pos: &Position, eval: i32) -> i32 {
        let (side, i) = Self::slot(pos);
        (eval + self.table[side][i] / GRAIN).clamp(-WIN_BOUND + 1, WIN_BOUND - 1)
    }

    /// Moves the position's correction toward `searched - raw_eval`, weighted by depth.
    #[inline]
    pub fn update(&mut self, pos: &Position, raw_eval: i32, searched: i32, depth: i32) {
        let (side, i) = Self::slot(pos);
        let target = ((searched - raw_eval) * GRAIN).clamp(-LIMIT_CP * GRAIN, LIMIT_CP * GRAIN);
        let weight = (depth + 1).clamp(1, MAX_WEIGHT);
        let entry = &mut self.table[side][i];
        *entry = (*entry * (256 - weight) + target * weight) / 256;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;

    #[test]
    fn a_correction_moves_toward_what_searches_found_and_stays_bounded() {
        let pos = Position::startpos();
        let mut c = CorrectionHistory::new();
        assert_eq!(c.correct(&pos, 30), 30);
        for _ in 0..400 {
            c.update(&pos, 30, 130, 20);
        }
        // The target is clamped to 64 cp; the entry converges to it.
        let corrected = c.correct(&pos, 30);
        assert!((92..=94).contains(&corrected), "{corrected}");
        // The other side to move has its own entry.
        let mut other = pos.clone();
        other.make_null();
        assert_eq!(c.correct(&other, 30), 30);
    }
}
