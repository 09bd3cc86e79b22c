//! The move type and the fixed-size move list used on hot paths.

use super::square::Square;
use arrayvec::ArrayVec;

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

/// A fixed-capacity list of moves; never allocates, and does not initialise its storage.
#[derive(Clone, Default)]
pub struct MoveList {
    moves: ArrayVec<Move, MAX_MOVES>,
}

impl MoveList {
    /// An empty list.
    #[inline]
    pub fn new() -> MoveList {
        MoveList {
            moves: ArrayVec::new(),
        }
    }

    /// Appends a move. The capacity bounds every position's pseudo-legal moves.
    #[inline]
    pub fn push(&mut self, m: Move) {
        debug_assert!(self.moves.len() < MAX_MOVES);
        // Cannot fail: MAX_MOVES exceeds the most moves any position has.
        let _ = self.moves.try_push(m);
    }

    /// Number of moves.
    #[inline]
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// True when there are no moves.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// Removes every move.
    #[inline]
    pub fn clear(&mut self) {
        self.moves.clear();
    }

    /// Keeps only the moves for which `keep` returns true, preserving order.
    #[inline]
    pub fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        self.moves.retain(|m| keep(*m));
    }

    /// The moves as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves
    }

    /// The moves as a mutable slice (for sorting).
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves
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
