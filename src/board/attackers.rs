//! Attack sets of every piece kind against any occupancy, for the rules that reason about
//! protection (chase detection): what a piece attacks, who attacks a square, which pieces
//! block an attack on a general. Unlike `is_attacked` (a check test), these include the
//! general's step, advisors and elephants, because those pieces protect and chase too.
//! Not a hot path: only repetition rulings use it.

use super::piece::{Color, Piece, PieceKind};
use super::position::Position;
use super::square::Square;

const ORTHOGONAL: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAGONAL: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// The one-bit set of a square.
#[inline]
pub fn square_bit(sq: Square) -> u128 {
    1u128 << sq.index()
}

/// Iterates over the squares of a 90-bit set, lowest index first.
#[inline]
pub fn squares_of(mut set: u128) -> impl Iterator<Item = Square> {
    std::iter::from_fn(move || {
        if set == 0 {
            None
        } else {
            let i = set.trailing_zeros() as usize;
            set &= set - 1;
            Some(Square::from_index(i))
        }
    })
}

/// The square `df` files and `dr` ranks away, if it is on the board.
#[inline]
fn offset(sq: Square, df: i32, dr: i32) -> Option<Square> {
    let f = sq.file() as i32 + df;
    let r = sq.rank() as i32 + dr;
    if f < 0 || r < 0 {
        None
    } else {
        Square::new(f as usize, r as usize)
    }
}

/// Squares strictly between two squares of one rank or file (empty set otherwise).
pub fn between(a: Square, b: Square) -> u128 {
    let (df, dr) = (
        b.file() as i32 - a.file() as i32,
        b.rank() as i32 - a.rank() as i32,
    );
    if (df != 0 && dr != 0) || (df == 0 && dr == 0) {
        return 0;
    }
    let (sf, sr) = (df.signum(), dr.signum());
    let mut set = 0;
    let mut cur = offset(a, sf, sr);
    while let Some(s) = cur {
        if s == b {
            break;
        }
        set |= square_bit(s);
        cur = offset(s, sf, sr);
    }
    set
}

/// All squares of the rank (if `a` and `b` share it) or else of the file of `a`.
pub fn line_through(a: Square, b: Square) -> u128 {
    let mut set = 0;
    for s in Square::all() {
        if (a.rank() == b.rank() && s.rank() == a.rank())
            || (a.rank() != b.rank() && s.file() == a.file())
        {
            set |= square_bit(s);
        }
    }
    set
}

/// The squares `piece` standing on `sq` attacks (could capture on) with occupancy `occ`.
/// Geometry limits apply (palace, own half for elephants, soldiers sideways only after the
/// river); the flying-general rule does not (callers treat it apart).
pub fn attack_set(piece: Piece, sq: Square, occ: u128) -> u128 {
    let color = piece.color();
    let mut set = 0;
    match piece.kind() {
        PieceKind::General | PieceKind::Advisor => {
            let dirs = if piece.kind() == PieceKind::General {
                ORTHOGONAL
            } else {
                DIAGONAL
            };
            for (df, dr) in dirs {
                if let Some(t) = offset(sq, df, dr) {
                    if t.in_palace(color) {
                        set |= square_bit(t);
                    }
                }
            }
        }
        PieceKind::Elephant => {
            for (df, dr) in DIAGONAL {
                if let (Some(eye), Some(t)) = (offset(sq, df, dr), offset(sq, 2 * df, 2 * dr)) {
                    if occ & square_bit(eye) == 0 && t.on_own_side(color) {
                        set |= square_bit(t);
                    }
                }
            }
        }
        PieceKind::Horse => {
            for (df, dr) in ORTHOGONAL {
                let Some(leg) = offset(sq, df, dr) else {
                    continue;
                };
                if occ & square_bit(leg) != 0 {
                    continue;
                }
                for side in [-1, 1] {
                    if let Some(t) = offset(sq, 2 * df + side * dr, 2 * dr + side * df) {
                        set |= square_bit(t);
                    }
                }
            }
        }
        PieceKind::Rook | PieceKind::Cannon => {
            let cannon = piece.kind() == PieceKind::Cannon;
            for (df, dr) in ORTHOGONAL {
                let mut screened = false;
                let mut cur = offset(sq, df, dr);
                while let Some(s) = cur {
                    let occupied = occ & square_bit(s) != 0;
                    if !cannon {
                        set |= square_bit(s);
                        if occupied {
                            break;
                        }
                    } else if occupied {
                        if screened {
                            set |= square_bit(s);
                            break;
                        }
                        screened = true;
                    }
                    cur = offset(s, df, dr);
                }
            }
        }
        PieceKind::Soldier => {
            let forward = if color == Color::Red { 1 } else { -1 };
            if let Some(t) = offset(sq, 0, forward) {
                set |= square_bit(t);
            }
            if !sq.on_own_side(color) {
                for df in [-1, 1] {
                    if let Some(t) = offset(sq, df, 0) {
                        set |= square_bit(t);
                    }
                }
            }
        }
    }
    set
}

impl Position {
    /// All occupied squares.
    #[inline]
    pub fn occupancy(&self) -> u128 {
        self.color_bb[0] | self.color_bb[1]
    }

    /// The squares holding `color`'s pieces of `kind`.
    pub fn pieces_of_kind(&self, color: Color, kind: PieceKind) -> u128 {
        self.piece_bb[Piece::new(color, kind).code()]
    }

    /// `by`'s pieces standing on squares of `occ` that attack `sq` with occupancy `occ`
    /// (every kind, the general's palace step included; the flying general excluded).
    pub fn attackers_of(&self, sq: Square, by: Color, occ: u128) -> u128 {
        let target = square_bit(sq);
        squares_of(self.pieces_of(by) & occ)
            .filter(|&s| {
                self.piece_at(s)
                    .is_some_and(|p| attack_set(p, s, occ) & target != 0)
            })
            .fold(0, |acc, s| acc | square_bit(s))
    }

    /// Pieces of both colours that block an attack of the enemy's rook, cannon or horse on
    /// `color`'s general: the lone piece between a rook and the general, both screens when a
    /// cannon has two, a piece on the leg of a horse. One of `color`'s own is pinned; one of
    /// the enemy's gives a discovered check when it moves.
    pub fn king_blockers(&self, color: Color) -> u128 {
        let general = self.general(color);
        let occ = self.occupancy();
        let mut blockers = 0;
        for s in squares_of(self.pieces_of(color.flip())) {
            let Some(p) = self.piece_at(s) else { continue };
            match p.kind() {
                PieceKind::Rook | PieceKind::Cannon => {
                    let inside = between(s, general) & occ;
                    let wanted = if p.kind() == PieceKind::Rook { 1 } else { 2 };
                    if (s.file() == general.file() || s.rank() == general.rank())
                        && inside.count_ones() == wanted
                    {
                        blockers |= inside;
                    }
                }
                PieceKind::Horse => {
                    let df = general.file() as i32 - s.file() as i32;
                    let dr = general.rank() as i32 - s.rank() as i32;
                    let leg = match (df.abs(), dr.abs()) {
                        (1, 2) => offset(s, 0, dr.signum()),
                        (2, 1) => offset(s, df.signum(), 0),
                        _ => None,
                    };
                    if let Some(leg) = leg {
                        blockers |= square_bit(leg) & occ;
                    }
                }
                _ => {}
            }
        }
        blockers
    }

    /// The lone piece between the two generals on a shared file (it may not leave the file,
    /// or the generals would face each other), or the empty set.
    pub fn general_file_blocker(&self) -> u128 {
        let red = self.general(Color::Red);
        let black = self.general(Color::Black);
        if red.file() != black.file() {
            return 0;
        }
        let inside = between(red, black) & self.occupancy();
        if inside.count_ones() == 1 {
            inside
        } else {
            0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        let b = name.as_bytes();
        Square::new((b[0] - b'a') as usize, (b[1] - b'0') as usize).expect("square name")
    }

    fn set(names: &[&str]) -> u128 {
        names.iter().fold(0, |a, n| a | square_bit(sq(n)))
    }

    #[test]
    fn cannon_attacks_over_one_screen() {
        let pos = Position::startpos();
        let cannon = Piece::new(Color::Red, PieceKind::Cannon);
        assert_eq!(attack_set(cannon, sq("b2"), pos.occupancy()), set(&["b9"]));
    }

    #[test]
    fn horse_leg_and_elephant_river() {
        let pos = Position::startpos();
        let horse = Piece::new(Color::Red, PieceKind::Horse);
        assert_eq!(
            attack_set(horse, sq("b0"), pos.occupancy()),
            set(&["a2", "c2"])
        );
        let elephant = Piece::new(Color::Red, PieceKind::Elephant);
        assert_eq!(attack_set(elephant, sq("c4"), 0), set(&["a2", "e2"]));
    }

    #[test]
    fn attackers_include_general_and_advisor() {
        let pos = Position::startpos();
        assert_eq!(
            pos.attackers_of(sq("e1"), Color::Red, pos.occupancy()),
            set(&["e0", "d0", "f0"])
        );
    }

    #[test]
    fn blockers_of_rook_pin_and_cannon_screens() {
        // The red rook on e5 pins the black horse on e8 to its general.
        let pos = Position::from_fen("4k4/4n4/9/9/4R4/9/9/9/9/3K5 w - - 0 1").expect("FEN");
        assert_eq!(pos.king_blockers(Color::Black), set(&["e8"]));
        // Two screens between the red cannon and the general: both block a check.
        let pos = Position::from_fen("4k4/4a4/4n4/9/4C4/9/9/9/9/3K5 w - - 0 1").expect("FEN");
        assert_eq!(pos.king_blockers(Color::Black), set(&["e8", "e7"]));
    }
}
