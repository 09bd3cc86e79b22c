//! The network's input features: piece kind x colour x square, seen from one side.
//!
//! From a perspective `p`, a piece of colour `c` and kind `k` on square `s` is feature
//! `((c == p ? 0 : 1) * 7 + k) * 90 + s'`, where `s' = s` for red and `s` with its rank
//! flipped (rank `9 - r`, same file) for black. One weight matrix then serves both sides:
//! each side sees its own pieces as "ours", marching up the board from rank 0.

use crate::board::{Color, Piece, PieceKind, Square, FILES, RANKS, SQUARES};

/// Number of input features per perspective: 2 colours x 7 kinds x 90 squares.
pub const INPUTS: usize = 2 * PieceKind::ALL.len() * SQUARES;

/// Black's view of each square: the rank flipped, the file kept.
const FLIPPED: [u8; SQUARES] = {
    let mut t = [0u8; SQUARES];
    let mut i = 0;
    while i < SQUARES {
        t[i] = ((RANKS - 1 - i / FILES) * FILES + i % FILES) as u8;
        i += 1;
    }
    t
};

/// The square as `perspective` sees it: ranks flipped for black.
#[inline(always)]
pub fn oriented(perspective: Color, sq: Square) -> usize {
    match perspective {
        Color::Red => sq.index(),
        Color::Black => FLIPPED[sq.index()] as usize,
    }
}

/// The feature of `piece` on `sq` from `perspective`'s side.
#[inline(always)]
pub fn index(perspective: Color, piece: Piece, sq: Square) -> usize {
    let relative = (piece.color() != perspective) as usize;
    (relative * PieceKind::ALL.len() + piece.kind().index()) * SQUARES + oriented(perspective, sq)
}

/// The feature of the left-right mirror image (file `f` -> `8 - f`) of `feature`: the rules
/// are symmetric under that mirror, so it is a free augmentation for training.
#[inline]
pub fn mirrored(feature: usize) -> usize {
    let sq = feature % SQUARES;
    let (rank, file) = (sq / FILES, sq % FILES);
    feature - sq + rank * FILES + (FILES - 1 - file)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn red_and_black_see_each_other_symmetrically() {
        let red_rook = Piece::new(Color::Red, PieceKind::Rook);
        let black_rook = Piece::new(Color::Black, PieceKind::Rook);
        let a0 = Square::new(0, 0).expect("a0");
        let a9 = Square::new(0, 9).expect("a9");
        // Red's own rook on a0 is feature "ours, rook, square 0" from red's side, and black's
        // own rook on a9 is the same feature from black's side.
        assert_eq!(index(Color::Red, red_rook, a0), 4 * 90);
        assert_eq!(index(Color::Black, black_rook, a9), 4 * 90);
        assert_eq!(index(Color::Black, red_rook, a0), (7 + 4) * 90 + 81);
        assert_eq!(index(Color::Red, black_rook, a9), (7 + 4) * 90 + 81);
        assert!(Square::all().all(|s| {
            let f = index(Color::Black, black_rook, s);
            f < INPUTS && mirrored(mirrored(f)) == f
        }));
        assert_eq!(mirrored(4 * 90), 4 * 90 + 8);
    }
}
