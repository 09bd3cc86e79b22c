//! The index of a table: a mixed-radix number over the pieces' squares, using xiangqi's
//! geometry so that no index names a square a piece cannot stand on.
//!
//! Scheme 1 (the only one so far):
//! - the red general (the table's first side) on the six palace squares of files d and e:
//!   a position whose red general stands on file f is mirrored left-right first, which halves
//!   every table but for the general's own file;
//! - the black general on its nine palace squares;
//! - then each kind of the first side, then of the second, in the name's order
//!   (rook, horse, cannon, soldier, advisor, elephant): rooks, horses and cannons on any of
//!   the 90 squares, soldiers on their 55 (the five files' start and next squares before the
//!   river, any square beyond it), advisors on their 5 points, elephants on their 7; two
//!   pieces of a kind are one unordered pair (a combination, C(n, 2) values).
//!
//! Both sides to move are stored: the side to move is the top digit. Some indices name
//! impossible placements (two pieces on one square, the side not to move in check): they are
//! marked invalid by the generator and never probed.

use super::material::{Material, NAME_ORDER};
use crate::board::{Color, Piece, PieceKind, Position, Square, FILES, SQUARES};
use arrayvec::ArrayVec;

/// The index scheme written into every table's header.
pub const INDEX_SCHEME: u32 = 1;

/// Most pieces on a table's board (two generals and up to 16 others; tables hold far fewer).
pub const MAX_PIECES: usize = 16;

/// The pieces of a position as (piece, square), generals first.
pub type Placement = ArrayVec<(Piece, Square), MAX_PIECES>;

/// One group of like pieces: a kind of one colour, one or two of them, and its squares.
#[derive(Clone, Debug)]
struct Group {
    piece: Piece,
    count: u8,
    domain: Vec<u8>,
    /// Position of each square in `domain`, or -1.
    slot: [i16; SQUARES],
    size: u64,
}

impl Group {
    fn new(piece: Piece, count: u8, domain: Vec<u8>) -> Group {
        let mut slot = [-1i16; SQUARES];
        for (i, &s) in domain.iter().enumerate() {
            slot[s as usize] = i as i16;
        }
        let n = domain.len() as u64;
        let size = if count == 2 { n * (n - 1) / 2 } else { n };
        Group {
            piece,
            count,
            domain,
            slot,
            size,
        }
    }
}

/// The squares a piece may stand on in a table.
pub fn domain(color: Color, kind: PieceKind) -> Vec<u8> {
    let own = |rank: usize| match color {
        Color::Red => rank,
        Color::Black => 9 - rank,
    };
    let sq = |file: usize, rank: usize| (own(rank) * FILES + file) as u8;
    match kind {
        PieceKind::General => {
            let mut v = Vec::new();
            for r in 0..3 {
                for f in 3..6 {
                    v.push(sq(f, r));
                }
            }
            v.sort_unstable();
            v
        }
        PieceKind::Advisor => {
            let mut v = vec![sq(3, 0), sq(5, 0), sq(4, 1), sq(3, 2), sq(5, 2)];
            v.sort_unstable();
            v
        }
        PieceKind::Elephant => {
            let mut v = vec![
                sq(2, 0),
                sq(6, 0),
                sq(0, 2),
                sq(4, 2),
                sq(8, 2),
                sq(2, 4),
                sq(6, 4),
            ];
            v.sort_unstable();
            v
        }
        PieceKind::Soldier => {
            let mut v = Vec::new();
            for r in 3..10 {
                for f in 0..FILES {
                    if r >= 5 || f % 2 == 0 {
                        v.push(sq(f, r));
                    }
                }
            }
            v.sort_unstable();
            v
        }
        PieceKind::Rook | PieceKind::Horse | PieceKind::Cannon => (0..SQUARES as u8).collect(),
    }
}

/// The index of one table.
#[derive(Clone, Debug)]
pub struct TableIndex {
    groups: Vec<Group>,
    /// Positions for one side to move.
    per_side: u64,
}

impl TableIndex {
    /// The index of a material signature.
    pub fn new(material: &Material) -> TableIndex {
        let red_general: Vec<u8> = domain(Color::Red, PieceKind::General)
            .into_iter()
            .filter(|&s| (s as usize) % FILES <= 4)
            .collect();
        let mut groups = vec![
            Group::new(Piece::new(Color::Red, PieceKind::General), 1, red_general),
            Group::new(
                Piece::new(Color::Black, PieceKind::General),
                1,
                domain(Color::Black, PieceKind::General),
            ),
        ];
        for (side, color) in [Color::Red, Color::Black].into_iter().enumerate() {
            for (i, &kind) in NAME_ORDER.iter().enumerate() {
                let count = material.sides[side].counts[i];
                if count > 0 {
                    groups.push(Group::new(
                        Piece::new(color, kind),
                        count,
                        domain(color, kind),
                    ));
                }
            }
        }
        let per_side = groups.iter().map(|g| g.size).product();
        TableIndex { groups, per_side }
    }

    /// Positions for one side to move.
    pub fn per_side(&self) -> u64 {
        self.per_side
    }

    /// Positions for both sides to move: the table's length.
    pub fn len(&self) -> u64 {
        self.per_side * 2
    }

    /// Always false: a table holds at least the generals.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The placement and side to move of an index, or `None` when two pieces share a square.
    pub fn decode(&self, index: u64) -> Option<(Placement, Color)> {
        let side = if index >= self.per_side {
            Color::Black
        } else {
            Color::Red
        };
        let mut rest = index % self.per_side;
        let mut out = Placement::new();
        let mut used: u128 = 0;
        for g in self.groups.iter().rev() {
            let digit = rest % g.size;
            rest /= g.size;
            let (a, b) = if g.count == 2 {
                let (i, j) = unrank_pair(digit);
                (g.domain[i as usize], Some(g.domain[j as usize]))
            } else {
                (g.domain[digit as usize], None)
            };
            for s in std::iter::once(a).chain(b) {
                let bit = 1u128 << s;
                if used & bit != 0 {
                    return None;
                }
                used |= bit;
                out.push((g.piece, Square::from_index(s as usize)));
            }
        }
        out.reverse();
        Some((out, side))
    }

    /// The index of a placement in table coordinates (red = the first side), mirrored when
    /// the red general stands on file f; `None` when a piece stands off its domain or the
    /// pieces do not match the groups.
    pub fn encode(&self, placement: &[(Piece, Square)], side: Color) -> Option<u64> {
        let red_general = Piece::new(Color::Red, PieceKind::General);
        let mirror = placement
            .iter()
            .find(|(p, _)| *p == red_general)
            .is_some_and(|(_, s)| s.file() > 4);
        let mut index = 0u64;
        for g in &self.groups {
            let mut slots: ArrayVec<u64, 2> = ArrayVec::new();
            for &(p, s) in placement {
                if p != g.piece {
                    continue;
                }
                let s = if mirror { s.mirror_file() } else { s };
                let slot = g.slot[s.index()];
                if slot < 0 || slots.is_full() {
                    return None;
                }
                slots.push(slot as u64);
            }
            if slots.len() != g.count as usize {
                return None;
            }
            let digit = if g.count == 2 {
                let (lo, hi) = (slots[0].min(slots[1]), slots[0].max(slots[1]));
                hi * (hi - 1) / 2 + lo
            } else {
                slots[0]
            };
            index = index * g.size + digit;
        }
        if placement.len() != self.groups.iter().map(|g| g.count as usize).sum::<usize>() {
            return None;
        }
        Some(
            index
                + if side == Color::Black {
                    self.per_side
                } else {
                    0
                },
        )
    }
}

/// The pair (i, j), i < j, of combination number `n` (n = j(j-1)/2 + i).
fn unrank_pair(n: u64) -> (u64, u64) {
    let mut j = (((8 * n + 1) as f64).sqrt() as u64).div_ceil(2);
    while j * (j - 1) / 2 > n {
        j -= 1;
    }
    while (j + 1) * j / 2 <= n {
        j += 1;
    }
    (n - j * (j - 1) / 2, j)
}

/// The pieces of a position, generals first; with `flip` in the colour-flipped frame
/// (ranks reversed, colours swapped), with the side to move to match.
pub fn placement_of(pos: &Position, flip: bool) -> (Placement, Color) {
    let mut out = Placement::new();
    for color in Color::BOTH {
        for s in crate::board::attackers::squares_of(pos.pieces_of(color)) {
            let Some(p) = pos.piece_at(s) else { continue };
            let (p, s) = if flip { flip_piece(p, s) } else { (p, s) };
            if out.is_full() {
                break;
            }
            out.push((p, s));
        }
    }
    let side = if flip {
        pos.side_to_move().flip()
    } else {
        pos.side_to_move()
    };
    (out, side)
}

/// A piece seen from the other side: ranks reversed, colour swapped.
pub fn flip_piece(p: Piece, s: Square) -> (Piece, Square) {
    let Some(sq) = Square::new(s.file(), 9 - s.rank()) else {
        unreachable!("a square's flip is on the board")
    };
    (Piece::new(p.color().flip(), p.kind()), sq)
}

/// A position from a placement (generals included); `None` when it is illegal: the side not
/// to move in check, or the generals facing each other.
pub fn position_of(placement: &[(Piece, Square)], side: Color) -> Option<Position> {
    let mut pos = Position::empty();
    for &(p, s) in placement {
        pos.put(s, p);
    }
    pos.finish_setup(side, 0, 1);
    if pos.is_attacked(pos.general(side.flip()), side) {
        return None;
    }
    Some(pos)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn domains_have_their_sizes() {
        for color in Color::BOTH {
            assert_eq!(domain(color, PieceKind::General).len(), 9);
            assert_eq!(domain(color, PieceKind::Advisor).len(), 5);
            assert_eq!(domain(color, PieceKind::Elephant).len(), 7);
            assert_eq!(domain(color, PieceKind::Soldier).len(), 55);
            assert_eq!(domain(color, PieceKind::Rook).len(), 90);
        }
        let red_soldier = domain(Color::Red, PieceKind::Soldier);
        assert!(red_soldier.contains(&27));
        assert!(!red_soldier.contains(&28));
        assert!(!red_soldier.contains(&8));
    }

    #[test]
    fn pairs_unrank_in_order() {
        let mut n = 0;
        for j in 1..90u64 {
            for i in 0..j {
                assert_eq!(unrank_pair(n), (i, j));
                n += 1;
            }
        }
    }

    #[test]
    fn sizes_follow_the_geometry() {
        let m = Material::parse("KRKAABB").expect("valid");
        assert_eq!(TableIndex::new(&m).per_side(), 6 * 9 * 90 * 10 * 21);
        let m = Material::parse("KPPK").expect("valid");
        assert_eq!(TableIndex::new(&m).per_side(), 6 * 9 * (55 * 54 / 2));
    }

    #[test]
    fn decode_and_encode_agree_on_every_index() {
        for name in ["KRK", "KPKA", "KNKB", "KCPK", "KAKP"] {
            let m = Material::parse(name).expect("valid");
            let idx = TableIndex::new(&m);
            let mut valid = 0;
            for i in 0..idx.len() {
                let Some((pl, side)) = idx.decode(i) else {
                    continue;
                };
                valid += 1;
                assert_eq!(idx.encode(&pl, side), Some(i), "{name} index {i}");
                let mirrored: Placement = pl.iter().map(|&(p, s)| (p, s.mirror_file())).collect();
                let back = idx.encode(&mirrored, side).expect("mirror encodes");
                if pl[0].1.file() != 4 {
                    assert_eq!(back, i, "{name}: a mirror has the same index");
                }
            }
            assert!(valid > 0);
        }
    }
}
