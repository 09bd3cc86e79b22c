//! The move type and the fixed-size move list used on hot paths.

use super::square::Square;

/// A move: from-square in bits 0..7, to-square in bits 7..14. `Move::NONE` (0) is no move,
/// since a move can never go from a square to itself. Fits the transposition table's 16 bits.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct Move(u16);

impl Move {
    /// The absence of a move.
    pub const NONE: Move = Move(0);

    /// The move from `from` to `to`.
    #[inline]
    pub const fn new(from: Square, to: Square) -> Move {
        Move(from.index() as u16 | ((to.index() as u16) << 7))
    }

    /// The from-square.
    #[inline]
    pub const fn from(self) -> Square {
        Square::from_index((self.0 & 0x7f) as usize)
    }

    /// The to-square.
    #[inline]
    pub const fn to(self) -> Square {
        Square::from_index(((self.0 >> 7) & 0x7f) as usize)
    }

    /// The 16-bit encoding (for the transposition table).
    #[inline]
    pub const fn raw(self) -> u16 {
        self.0
    }

    /// Decodes 16 bits; `None` when they are not a well-formed move (squares off the board,
    /// equal squares, or stray high bits). Legality is a separate question.
    #[inline]
    pub const fn from_raw(raw: u16) -> Option<Move> {
        let from = (raw & 0x7f) as usize;
        let to = ((raw >> 7) & 0x7f) as usize;
        if raw >> 14 != 0 || from >= 90 || to >= 90 || from == to {
            None
        } else {
            Some(Move(raw))
        }
    }

    /// True for `Move::NONE`.
    #[inline]
    pub const fn is_none(self) -> bool {
        self.0 == 0
    }
}

impl std::fmt::Display for Move {
    /// ICCS coordinates, e.g. `h2e2`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.is_none() {
            write!(f, "0000")
        } else {
            write!(f, "{}{}", self.from(), self.to())
        }
    }
}

/// Upper bound on pseudo-legal moves in any position: two rooks and two cannons reach at most
/// 17 squares each, horses 8, five soldiers 3, advisors and elephants 4, the general 4 (119).
pub const MAX_MOVES: usize = 128;

/// A fixed-capacity list of moves; never allocates.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        Self::new()
    }
}

impl MoveList {
    /// An empty list.
    #[inline]
    pub const fn new() -> MoveList {
        MoveList {
            moves: [Move::NONE; MAX_MOVES],
            len: 0,
        }
    }

    /// Appends a move.
    #[inline]
    pub fn push(&mut self, m: Move) {
        debug_assert!(self.len < MAX_MOVES);
        self.moves[self.len] = m;
        self.len += 1;
    }

    /// Number of moves.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when there are no moves.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Removes every move.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Keeps only the moves for which `keep` returns true, preserving order.
    #[inline]
    pub fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        let mut j = 0;
        for i in 0..self.len {
            let m = self.moves[i];
            if keep(m) {
                self.moves[j] = m;
                j += 1;
            }
        }
        self.len = j;
    }

    /// The moves as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// The moves as a mutable slice (for sorting).
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }

    /// True when the list holds `m`.
    #[inline]
    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }

    /// Iterates over the moves.
    #[inline]
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }
}

impl std::ops::Index<usize> for MoveList {
    type Output = Move;
    #[inline]
    fn index(&self, i: usize) -> &Move {
        &self.as_slice()[i]
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}
