//! Squares of the 9x10 xiangqi board.
//!
//! Index = rank * 9 + file, with file 0 = `a` (red's left) and rank 0 = red's back rank,
//! exactly the ICCS coordinates. 90 squares fit in 7 bits, which the `Move` encoding uses.

use super::piece::Color;

/// Number of files (a..i).
pub const FILES: usize = 9;
/// Number of ranks (0..9).
pub const RANKS: usize = 10;
/// Number of squares.
pub const SQUARES: usize = FILES * RANKS;

/// A square of the board, always in `0..90`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Square(u8);

impl Square {
    /// The square at `file` (0..9) and `rank` (0..10); `None` off the board.
    #[inline]
    pub const fn new(file: usize, rank: usize) -> Option<Square> {
        if file < FILES && rank < RANKS {
            Some(Square((rank * FILES + file) as u8))
        } else {
            None
        }
    }

    /// The square with this index; the caller guarantees `index < 90`.
    #[inline]
    pub const fn from_index(index: usize) -> Square {
        debug_assert!(index < SQUARES);
        Square(index as u8)
    }

    /// The square with this index, or `None` when it is off the board.
    #[inline]
    pub const fn try_from_index(index: usize) -> Option<Square> {
        if index < SQUARES {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// Index in `0..90`.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// File, 0 = `a`.
    #[inline]
    pub const fn file(self) -> usize {
        self.0 as usize % FILES
    }

    /// Rank, 0 = red's back rank.
    #[inline]
    pub const fn rank(self) -> usize {
        self.0 as usize / FILES
    }

    /// The square reflected left-right (file a <-> file i).
    #[inline]
    pub const fn mirror_file(self) -> Square {
        Square((self.rank() * FILES + (FILES - 1 - self.file())) as u8)
    }

    /// True when the square is on `color`'s own half of the board (before the river).
    #[inline]
    pub const fn on_own_side(self, color: Color) -> bool {
        match color {
            Color::Red => self.rank() <= 4,
            Color::Black => self.rank() >= 5,
        }
    }

    /// True when the square is inside `color`'s palace.
    #[inline]
    pub const fn in_palace(self, color: Color) -> bool {
        let f = self.file();
        let r = self.rank();
        let rank_ok = match color {
            Color::Red => r <= 2,
            Color::Black => r >= 7,
        };
        f >= 3 && f <= 5 && rank_ok
    }

    /// Iterates over all 90 squares in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..SQUARES as u8).map(Square)
    }
}

impl std::fmt::Display for Square {
    /// ICCS coordinates, e.g. `e0`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}{}", (b'a' + self.file() as u8) as char, self.rank())
    }
}
