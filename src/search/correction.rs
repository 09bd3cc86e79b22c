//! Correction history: how far the static evaluation has missed the search's result in
//! positions sharing a structure, learnt per thread and added to the evaluation that pruning
//! reads. Two structures index it: the pawns of both sides (which move rarely and shape
//! the long plans a net sees poorly) and the material on the board.

use crate::board::{Color, PieceKind, Position};

/// Entries are centipawns times this grain, for a smooth running average.
const GRAIN: i32 = 64;
/// An entry stays within ±`LIMIT` (200 cp).
const LIMIT: i32 = 200 * GRAIN;
/// Weights of an update are out of this total; a deep result weighs more, up to `MAX_WEIGHT`.
const WEIGHT_SCALE: i32 = 256;
const MAX_WEIGHT: i32 = 16;
/// Entries per side in each table (powers of two).
const PAWN_SIZE: usize = 1 << 14;
const MATERIAL_SIZE: usize = 1 << 12;

/// Mixes a 128-bit board set into 64 bits (odd multipliers keep every bit's influence).
#[inline]
fn mix(bb: u128) -> u64 {
    let lo = bb as u64;
    let hi = (bb >> 64) as u64;
    (lo ^ hi.wrapping_mul(0x9E37_79B9_7F4A_7C15)).wrapping_mul(0xD6E8_FEB8_6659_FD93)
}

/// The index of the soldiers (pawns) of both colours, in a table of `size`.
#[inline]
fn pawn_index(pos: &Position, size: usize) -> usize {
    let red = mix(pos.pieces_of_kind(Color::Red, PieceKind::Soldier));
    let black = mix(pos.pieces_of_kind(Color::Black, PieceKind::Soldier));
    let h = red ^ black.rotate_left(29).wrapping_mul(0xA24B_AED4_963E_E407);
    (h >> 40) as usize & (size - 1)
}

/// The index of the material on the board (each kind's count, both colours).
#[inline]
fn material_index(pos: &Position, size: usize) -> usize {
    let mut packed = 0u64;
    for color in [Color::Red, Color::Black] {
        for kind in PieceKind::ALL {
            packed = (packed << 3) | u64::from(pos.count(color, kind).min(7));
        }
    }
    (packed.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40) as usize & (size - 1)
}

/// The tables of one search thread.
pub struct CorrectionHistory {
    pawn: Box<[[i32; PAWN_SIZE]; 2]>,
    material: Box<[[i32; MATERIAL_SIZE]; 2]>,
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        Self::new()
    }
}

impl CorrectionHistory {
    /// Empty tables: no correction.
    pub fn new() -> CorrectionHistory {
        CorrectionHistory {
            pawn: Box::new([[0; PAWN_SIZE]; 2]),
            material: Box::new([[0; MATERIAL_SIZE]; 2]),
        }
    }

    /// Forgets everything (new game).
    pub fn clear(&mut self) {
        for row in self.pawn.iter_mut() {
            row.fill(0);
        }
        for row in self.material.iter_mut() {
            row.fill(0);
        }
    }

    /// The correction in centipawns for the side to move: the mean of the two tables.
    #[inline]
    pub fn correction(&self, pos: &Position) -> i32 {
        let side = pos.side_to_move().index();
        let p = self.pawn[side][pawn_index(pos, PAWN_SIZE)];
        let m = self.material[side][material_index(pos, MATERIAL_SIZE)];
        (p + m) / (2 * GRAIN)
    }

    /// Moves the entries of this position toward `error` (search result minus corrected
    /// evaluation, centipawns), by a weight growing with the search depth.
    pub fn update(&mut self, pos: &Position, depth: i32, error: i32) {
        let side = pos.side_to_move().index();
        let weight = (depth + 1).clamp(1, MAX_WEIGHT);
        let target = (error * GRAIN).clamp(-LIMIT, LIMIT);
        let blend = |entry: &mut i32| {
            // Toward the entry plus the error: the error was measured after the correction.
            let goal = (*entry + target).clamp(-LIMIT, LIMIT);
            *entry = (*entry * (WEIGHT_SCALE - weight) + goal * weight) / WEIGHT_SCALE;
        };
        blend(&mut self.pawn[side][pawn_index(pos, PAWN_SIZE)]);
        blend(&mut self.material[side][material_index(pos, MATERIAL_SIZE)]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn updates_move_the_correction_toward_the_error_and_stay_bounded() {
        let pos = Position::startpos();
        let mut c = CorrectionHistory::new();
        assert_eq!(c.correction(&pos), 0);
        // One update at depth 7 (weight 8 of 256) toward +100 cp: each entry becomes
        // 100 * 64 * 8 / 256 = 200, i.e. 3 cp after the division by the grain.
        c.update(&pos, 7, 100);
        assert_eq!(c.correction(&pos), 3);
        // Repeated errors of +100 measured after the correction climb to the limit (200 cp),
        // short of it by less than one step of the truncated average.
        for _ in 0..2000 {
            c.update(&pos, 20, 100);
        }
        assert!((195..=200).contains(&c.correction(&pos)));
        // The other side to move has its own entries.
        let mut black = pos.clone();
        black.make_null();
        assert_eq!(c.correction(&black), 0);
        c.clear();
        assert_eq!(c.correction(&pos), 0);
    }

    #[test]
    fn the_pawn_index_follows_the_pawns_only() {
        let a = Position::startpos();
        let moved_rook = Position::from_fen(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/8R/RNBAKABN1 b - - 0 1",
        );
        let moved_pawn = Position::from_fen(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/2P6/P3P1P1P/1C5C1/9/RNBAKABNR b - - 0 1",
        );
        let (Ok(moved_rook), Ok(moved_pawn)) = (moved_rook, moved_pawn) else {
            panic!("test FENs parse");
        };
        assert_eq!(
            pawn_index(&a, PAWN_SIZE),
            pawn_index(&moved_rook, PAWN_SIZE)
        );
        assert_ne!(
            pawn_index(&a, PAWN_SIZE),
            pawn_index(&moved_pawn, PAWN_SIZE)
        );
        assert_eq!(
            material_index(&a, MATERIAL_SIZE),
            material_index(&moved_pawn, MATERIAL_SIZE)
        );
    }

    /// With the switch, a search learns corrections and its table keeps the evaluation as
    /// computed (a corrected one read back would be corrected twice); without, nothing is
    /// learnt.
    #[test]
    fn the_search_learns_corrections_and_stores_raw_evaluations() {
        use crate::search::{Limits, SearchConfig, Searcher};
        use crate::tt::TranspositionTable;
        use std::sync::Arc;
        let root = Position::startpos();
        for on in [false, true] {
            let Ok(tt) = TranspositionTable::new(4) else {
                panic!("a 4 MiB table");
            };
            let tt = Arc::new(tt);
            let config = SearchConfig {
                corr_history: on,
                ..SearchConfig::FULL
            };
            let mut s = Searcher::new(Arc::clone(&tt), config);
            s.search(&root, &Limits::depth(8), &[], &mut |_| {});
            let learnt = s.corr.pawn.iter().flatten().filter(|&&e| e != 0).count()
                + s.corr
                    .material
                    .iter()
                    .flatten()
                    .filter(|&&e| e != 0)
                    .count();
            assert_eq!(learnt > 0, on, "switch {on}: {learnt} entries learnt");
            // Every reply to the first move: the stored evaluation is the raw one.
            let mut pos = root.clone();
            let mut checked = 0;
            for &m in pos.clone().legal_moves().as_slice() {
                pos.make_move(m);
                if let Some(e) = tt.probe(pos.key()) {
                    if e.eval.abs() < crate::search::score::WIN_BOUND && !pos.in_check() {
                        assert_eq!(e.eval, crate::eval::evaluate(&pos), "{m:?}");
                        checked += 1;
                    }
                }
                pos.unmake_move();
            }
            assert!(checked > 10, "{checked} stored evaluations checked");
        }
    }
}
