//! What Pao's endgame tables prove about material, for the evaluation without tables: in
//! positions of few pieces, a side whose material (with the side to move and its soldiers
//! stuck on the last rank) the tables show it (nearly) never wins cannot be winning, so its
//! advantage is scaled toward a draw, as a side with nothing that can mate already is.
//!
//! The data (`endgame_scales.rs`) is generated from the tables by `pao-tools egtb scales`;
//! material it does not list is left alone.

use crate::board::attackers::squares_of;
use crate::board::{Color, Piece, PieceKind, Position, Square};

#[path = "endgame_scales.rs"]
mod scales;

pub use scales::MAX_PIECES;

/// The divisor of a scaled advantage (the one the hand-written evaluation applies to a side
/// with nothing that can mate).
pub const SCALE_DIVISOR: i32 = 16;

/// Buckets of one material: side to move (2) x the red soldiers on the last rank (0-2) x
/// the black ones (0-2).
pub const BUCKETS: usize = 18;

/// A position's material and bucket, as the table of scales names them.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct EndgameKey {
    /// Each side's pieces besides the general, counted in base 3 (rook, horse, cannon,
    /// soldier, advisor, elephant): red's code x 729 + black's.
    pub material: u32,
    /// `(side to move x 3 + red's soldiers on the last rank) x 3 + black's`.
    pub bucket: usize,
}

/// The base-3 digit of a kind in a side's material code (the order of a table's name).
fn digit(kind: PieceKind) -> Option<u32> {
    match kind {
        PieceKind::Rook => Some(0),
        PieceKind::Horse => Some(1),
        PieceKind::Cannon => Some(2),
        PieceKind::Soldier => Some(3),
        PieceKind::Advisor => Some(4),
        PieceKind::Elephant => Some(5),
        PieceKind::General => None,
    }
}

const POWERS: [u32; 6] = [1, 3, 9, 27, 81, 243];

impl EndgameKey {
    /// The key of a set of pieces (generals included or not) with `side` to move; `None`
    /// when a side has three pieces of a kind (no table holds that).
    pub fn of_pieces(
        pieces: impl IntoIterator<Item = (Piece, Square)>,
        side: Color,
    ) -> Option<EndgameKey> {
        let mut counts = [[0u8; 6]; 2];
        let mut stuck = [0usize; 2];
        for (p, s) in pieces {
            let Some(d) = digit(p.kind()) else { continue };
            let c = p.color().index();
            counts[c][d as usize] += 1;
            if counts[c][d as usize] > 2 {
                return None;
            }
            let last = if p.color() == Color::Red { 9 } else { 0 };
            if p.kind() == PieceKind::Soldier && s.rank() == last {
                stuck[c] += 1;
            }
        }
        let code = |c: &[u8; 6]| -> u32 { c.iter().zip(POWERS).map(|(&n, p)| n as u32 * p).sum() };
        Some(EndgameKey {
            material: code(&counts[0]) * 729 + code(&counts[1]),
            bucket: (side.index() * 3 + stuck[0]) * 3 + stuck[1],
        })
    }

    /// The key of a position.
    pub fn of(pos: &Position) -> Option<EndgameKey> {
        let occupied = pos.pieces_of(Color::Red) | pos.pieces_of(Color::Black);
        let pieces = squares_of(occupied).filter_map(|s| pos.piece_at(s).map(|p| (p, s)));
        EndgameKey::of_pieces(pieces, pos.side_to_move())
    }
}

/// The bit of a mask that says `color` cannot win in `bucket`.
pub const fn mask_bit(bucket: usize, color: Color) -> u64 {
    1 << (bucket * 2 + color as usize)
}

/// The mask of a material: which side cannot win in which bucket.
fn mask_of(material: u32) -> Option<u64> {
    scales::TABLE
        .binary_search_by_key(&material, |&(k, _)| k)
        .ok()
        .map(|i| scales::TABLE[i].1)
}

/// `score` (from the side to move) scaled toward a draw when the side it favours cannot win
/// this material as the tables show; unchanged otherwise. The cost outside the endgame is
/// one count of the occupied squares.
#[inline]
pub fn scale(pos: &Position, score: i32) -> i32 {
    let occupied = pos.pieces_of(Color::Red) | pos.pieces_of(Color::Black);
    if occupied.count_ones() > MAX_PIECES || score == 0 {
        return score;
    }
    scale_few_pieces(pos, score)
}

#[inline(never)]
fn scale_few_pieces(pos: &Position, score: i32) -> i32 {
    let Some(key) = EndgameKey::of(pos) else {
        return score;
    };
    let Some(mask) = mask_of(key.material) else {
        return score;
    };
    let side = pos.side_to_move();
    let leader = if score > 0 { side } else { side.flip() };
    if mask & mask_bit(key.bucket, leader) != 0 {
        score / SCALE_DIVISOR
    } else {
        score
    }
}

/// True when the table of scales says `color` cannot win this position's material and
/// bucket (for tests and tools).
pub fn cannot_win(pos: &Position, color: Color) -> bool {
    let occupied = pos.pieces_of(Color::Red) | pos.pieces_of(Color::Black);
    if occupied.count_ones() > MAX_PIECES {
        return false;
    }
    match EndgameKey::of(pos).and_then(|k| mask_of(k.material).map(|m| (k, m))) {
        Some((k, m)) => m & mask_bit(k.bucket, color) != 0,
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_count_material_and_stuck_soldiers() {
        let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K4 w").expect("fen");
        let k = EndgameKey::of(&pos).expect("key");
        assert_eq!(
            k,
            EndgameKey {
                material: 0,
                bucket: 0
            }
        );
        // Red: a soldier on the last rank and a horse; black: two advisors; black to move.
        let pos = Position::from_fen("3kaP3/4a4/9/9/9/9/9/9/2N6/4K4 b").expect("fen");
        let k = EndgameKey::of(&pos).expect("key");
        assert_eq!(k.material, (27 + 3) * 729 + 2 * 81);
        assert_eq!(k.bucket, (3 + 1) * 3);
    }

    #[test]
    fn drawn_material_is_scaled_and_won_material_is_not() {
        // A cannon with no screen never wins: neither side can.
        let kck = Position::from_fen("4k4/9/9/9/9/9/9/9/4C4/3K5 w").expect("fen");
        assert!(cannot_win(&kck, Color::Red) && cannot_win(&kck, Color::Black));
        assert_eq!(scale(&kck, 400), 25);
        assert_eq!(scale(&kck, -400), -25);
        // A rook wins against a bare general; the bare general never wins.
        let krk = Position::from_fen("4k4/9/9/9/9/9/9/9/R8/3K5 w").expect("fen");
        assert!(!cannot_win(&krk, Color::Red) && cannot_win(&krk, Color::Black));
        assert_eq!(scale(&krk, 400), 400);
        // More pieces than the tables behind the scales hold: unchanged.
        let start = Position::startpos();
        assert_eq!(scale(&start, 400), 400);
    }

    #[test]
    fn table_is_sorted() {
        assert!(scales::TABLE.windows(2).all(|w| w[0].0 < w[1].0));
    }
}
