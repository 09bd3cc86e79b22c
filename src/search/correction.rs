//! Correction history: what searches found about the static evaluation, kept per side to move
//! in four tables, each keyed by one feature of the position, and added to the evaluation that
//! pruning and the stand-pat use. A net misjudges whole families of positions alike (a blocked
//! structure, a broken palace); their searched values teach the correction in the game.
//!
//! Soldiers move little in xiangqi, so most positions of a search share one soldier structure
//! and a table keyed by it alone degenerates into a global bias. Beside it, as in Stockfish,
//! each colour's placement of its other pieces keys a table, and the previous move (piece and
//! destination) keys a continuation table.

use super::score::WIN_BOUND;
use crate::board::{Color, Position, SQUARES};

/// Entries per side to move in each hashed table (a power of two).
const ENTRIES: usize = 16_384;
/// Continuation entries per side to move: (piece code, destination) of the previous move, and
/// one for no previous move (a null move, or none since setup).
const CONT: usize = crate::board::Piece::CODES * SQUARES + 1;
/// One side to move's entries: soldiers, red's and black's other pieces, continuation.
const ROW: usize = 3 * ENTRIES + CONT;
/// Tables read for one position.
const TABLES: usize = 4;
/// Corrections are kept in 1/GRAIN of a centipawn.
const GRAIN: i32 = 256;
/// The largest correction, in centipawns (LIMIT_CP * GRAIN fits an i16).
const LIMIT_CP: i32 = 64;
/// The most a single update weighs, of 256.
const MAX_WEIGHT: i32 = 16;

/// One thread's correction tables.
pub struct CorrectionHistory {
    /// `ROW` entries per side to move.
    table: Box<[i16]>,
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        Self::new()
    }
}

impl CorrectionHistory {
    /// Empty tables.
    pub fn new() -> CorrectionHistory {
        CorrectionHistory {
            table: vec![0; 2 * ROW].into_boxed_slice(),
        }
    }

    /// The position's entry in each table.
    #[inline]
    fn slots(pos: &Position) -> [usize; TABLES] {
        let base = pos.side_to_move().index() * ROW;
        let hashed = |h: u64| (h as usize) & (ENTRIES - 1);
        let cont = pos
            .history()
            .last()
            .filter(|u| !u.mv.is_none())
            .and_then(|u| pos.piece_at(u.mv.to()).map(|p| (p, u.mv.to())))
            .map_or(CONT - 1, |(p, to)| p.code() * SQUARES + to.index());
        [
            base + hashed(pos.soldier_hash()),
            base + ENTRIES + hashed(pos.nonsoldier_hash(Color::Red)),
            base + 2 * ENTRIES + hashed(pos.nonsoldier_hash(Color::Black)),
            base + 3 * ENTRIES + cont,
        ]
    }

    /// `eval` corrected for the position (never into the decided band). Every table estimates
    /// the same error from a different feature, so the correction is their mean, as Stockfish
    /// weighs its tables about equally: a table that has not met its key pulls toward no
    /// correction, and a full one needs the features to agree.
    #[inline]
    pub fn correct(&self, pos: &Position, eval: i32) -> i32 {
        let sum: i32 = Self::slots(pos)
            .iter()
            .map(|&i| i32::from(self.table[i]))
            .sum();
        (eval + sum / (GRAIN * TABLES as i32)).clamp(-WIN_BOUND + 1, WIN_BOUND - 1)
    }

    /// Moves the position's entries toward `searched - raw_eval`, weighted by depth.
    #[inline]
    pub fn update(&mut self, pos: &Position, raw_eval: i32, searched: i32, depth: i32) {
        let target = ((searched - raw_eval) * GRAIN).clamp(-LIMIT_CP * GRAIN, LIMIT_CP * GRAIN);
        let weight = (depth + 1).clamp(1, MAX_WEIGHT);
        for i in Self::slots(pos) {
            let entry = &mut self.table[i];
            // A weighted mean of two values within ±LIMIT_CP * GRAIN stays within i16.
            *entry = ((i32::from(*entry) * (256 - weight) + target * weight) / 256) as i16;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Color, Position, RankBase};

    /// Plays `moves` (legal ones) from the start.
    fn play(moves: &[&str]) -> Position {
        let mut pos = Position::startpos();
        for text in moves {
            let m = pos.parse_legal_move(text, RankBase::Zero).expect("legal");
            pos.make_move(m);
        }
        pos
    }

    #[test]
    fn a_correction_moves_toward_what_searches_found_and_stays_bounded() {
        let pos = Position::startpos();
        let mut c = CorrectionHistory::new();
        assert_eq!(c.correct(&pos, 30), 30);
        for _ in 0..400 {
            c.update(&pos, 30, 130, 20);
        }
        // The target is clamped to 64 cp; every entry converges to it.
        assert_eq!(c.correct(&pos, 30), 93);
        // The other side to move has its own entries.
        let mut other = pos.clone();
        other.make_null();
        assert_eq!(c.correct(&other, 30), 30);
    }

    #[test]
    fn positions_of_one_soldier_structure_are_corrected_apart() {
        // Both cannons to the centre, or both horses out: the same soldiers, red to move.
        let cannons = play(&["h2e2", "h7e7"]);
        let horses = play(&["h0g2", "h9g7"]);
        assert_eq!(cannons.soldier_hash(), horses.soldier_hash());
        let mut c = CorrectionHistory::new();
        for _ in 0..400 {
            c.update(&cannons, 0, -200, 20);
        }
        assert_eq!(c.correct(&cannons, 0), -63);
        // Only the soldier table is shared: a quarter of the correction.
        assert_eq!(c.correct(&horses, 0), -15);
    }

    #[test]
    fn the_nonsoldier_hashes_follow_make_and_unmake() {
        // Captures of a horse, a cannon and a soldier, and a soldier's step.
        let moves = [
            "b2b9", "a9b9", "h2e2", "h9g7", "c3c4", "b9b8", "e2e6", "c6c5",
        ];
        let mut pos = Position::startpos();
        let start = [Color::Red, Color::Black].map(|c| pos.nonsoldier_hash(c));
        let mut seen = vec![start];
        for text in moves {
            let m = pos.parse_legal_move(text, RankBase::Zero).expect("legal");
            pos.make_move(m);
            let now = [Color::Red, Color::Black].map(|c| pos.nonsoldier_hash(c));
            for c in [Color::Red, Color::Black] {
                assert_eq!(now[c.index()], pos.compute_nonsoldier_hash(c), "{text}");
            }
            let mut null = pos.clone();
            if !null.in_check() {
                null.make_null();
                assert_eq!(
                    [Color::Red, Color::Black].map(|c| null.nonsoldier_hash(c)),
                    now
                );
            }
            seen.push(now);
        }
        // A soldier's step leaves both; a soldier captured leaves the captor's colour only.
        assert_eq!(seen[5], seen[4], "c3c4");
        assert_eq!(seen[8], seen[7], "c6c5");
        assert_ne!(seen[7][0], seen[6][0], "e2e6");
        assert_eq!(seen[7][1], seen[6][1], "e2e6");
        while pos.game_ply() > 0 {
            pos.unmake_move();
            assert_eq!(
                [Color::Red, Color::Black].map(|c| pos.nonsoldier_hash(c)),
                seen[pos.game_ply()]
            );
        }
        assert_eq!(seen[0], start);
    }
}
