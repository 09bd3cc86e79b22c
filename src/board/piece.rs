//! Colours, piece kinds and pieces.

/// The two sides. Red moves first and sits at ranks 0..4.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Color {
    /// Red (upper case in FEN), ranks 0-4.
    Red = 0,
    /// Black (lower case in FEN), ranks 5-9.
    Black = 1,
}

impl Color {
    /// The other side.
    #[inline]
    pub const fn flip(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }

    /// 0 for red, 1 for black.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Both colours, red first.
    pub const BOTH: [Color; 2] = [Color::Red, Color::Black];
}

/// The seven kinds of xiangqi pieces.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum PieceKind {
    /// General (king): 帅/将.
    General = 0,
    /// Advisor: 仕/士.
    Advisor = 1,
    /// Elephant (bishop): 相/象.
    Elephant = 2,
    /// Horse (knight): 马.
    Horse = 3,
    /// Rook (chariot): 车.
    Rook = 4,
    /// Cannon: 炮.
    Cannon = 5,
    /// Soldier (pawn): 兵/卒.
    Soldier = 6,
}

impl PieceKind {
    /// All kinds in index order.
    pub const ALL: [PieceKind; 7] = [
        PieceKind::General,
        PieceKind::Advisor,
        PieceKind::Elephant,
        PieceKind::Horse,
        PieceKind::Rook,
        PieceKind::Cannon,
        PieceKind::Soldier,
    ];

    /// Index in `0..7`.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Kind from its index; the caller guarantees `index < 7`.
    #[inline]
    pub const fn from_index(index: usize) -> PieceKind {
        PieceKind::ALL[index]
    }

    /// The FEN letter in upper case (red).
    pub const fn letter(self) -> char {
        match self {
            PieceKind::General => 'K',
            PieceKind::Advisor => 'A',
            PieceKind::Elephant => 'B',
            PieceKind::Horse => 'N',
            PieceKind::Rook => 'R',
            PieceKind::Cannon => 'C',
            PieceKind::Soldier => 'P',
        }
    }

    /// True for the pieces that can cross the river and attack: rook, horse, cannon, soldier.
    #[inline]
    pub const fn is_attacker(self) -> bool {
        matches!(
            self,
            PieceKind::Horse | PieceKind::Rook | PieceKind::Cannon | PieceKind::Soldier
        )
    }
}

/// A coloured piece, packed as `color * 8 + kind` so that it indexes small tables.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Piece(u8);

impl Piece {
    /// Number of distinct codes (`0..16`, two of them unused).
    pub const CODES: usize = 16;

    /// The piece of this colour and kind.
    #[inline]
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece(((color as u8) << 3) | kind as u8)
    }

    /// The packed code in `0..16`.
    #[inline]
    pub const fn code(self) -> usize {
        self.0 as usize
    }

    /// Rebuilds a piece from its code; the caller guarantees it came from `code()`.
    #[inline]
    pub const fn from_code(code: u8) -> Piece {
        debug_assert!(code & 7 < 7 && code < 16);
        Piece(code)
    }

    /// Its colour.
    #[inline]
    pub const fn color(self) -> Color {
        if self.0 & 8 == 0 {
            Color::Red
        } else {
            Color::Black
        }
    }

    /// Its kind.
    #[inline]
    pub const fn kind(self) -> PieceKind {
        PieceKind::from_index((self.0 & 7) as usize)
    }

    /// FEN letter: upper case red, lower case black.
    pub const fn letter(self) -> char {
        let c = self.kind().letter();
        match self.color() {
            Color::Red => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }

    /// Parses a FEN letter; `h` and `e` are accepted as horse and elephant.
    pub const fn from_letter(c: char) -> Option<Piece> {
        let color = if c.is_ascii_uppercase() {
            Color::Red
        } else {
            Color::Black
        };
        let kind = match c.to_ascii_uppercase() {
            'K' => PieceKind::General,
            'A' => PieceKind::Advisor,
            'B' | 'E' => PieceKind::Elephant,
            'N' | 'H' => PieceKind::Horse,
            'R' => PieceKind::Rook,
            'C' => PieceKind::Cannon,
            'P' => PieceKind::Soldier,
            _ => return None,
        };
        Some(Piece::new(color, kind))
    }
}
