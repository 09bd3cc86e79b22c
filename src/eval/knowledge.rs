//! Xiangqi knowledge beyond material and piece-square tables, each term cheap: rook mobility
//! and open files, horse mobility (blocked legs), the hollow cannon on the general's file, and
//! advisors and elephants as the general's guard against the attackers left.

use super::psqt::Pair;
use crate::board::attackers::squares_of;
use crate::board::attacks::{FILE_MOVES, HORSE_MOVES, RANK_MOVES};
use crate::board::position::EMPTY;
use crate::board::{Color, PieceKind, Position, FILES};

const ROOK_MOBILITY: Pair = Pair { mg: 4, eg: 4 };
const HORSE_MOBILITY: Pair = Pair { mg: 8, eg: 6 };
const ROOK_OPEN_FILE: i32 = 14;
const HOLLOW_CANNON: i32 = 70;
const MISSING_ADVISOR: i32 = 10;
const MISSING_ELEPHANT: i32 = 6;

/// The knowledge terms, red-relative.
pub fn terms(pos: &Position) -> Pair {
    let mut total = Pair::default();
    for color in Color::BOTH {
        let t = side_terms(pos, color);
        let sign = if color == Color::Red { 1 } else { -1 };
        total.mg += sign * t.mg;
        total.eg += sign * t.eg;
    }
    total
}

/// The squares of file a (index 0); shifted by `f` it is file `f`.
const FILE_A: u128 = {
    let mut m = 0u128;
    let mut r = 0;
    while r < 10 {
        m |= 1u128 << (r * FILES);
        r += 1;
    }
    m
};

/// The files holding at least one square of a 90-bit set, as a 9-bit mask.
#[inline(always)]
fn files_of(bits: u128) -> u16 {
    let mut files = 0u128;
    let mut rest = bits;
    while rest != 0 {
        files |= rest;
        rest >>= FILES;
    }
    (files & 0x1ff) as u16
}

/// The knowledge terms of one side, from its own point of view, in the order of
/// `TERM_NAMES`; their sum is what the evaluation adds.
pub const TERM_NAMES: [&str; 4] = ["horse", "cannon", "rook", "guards"];

#[inline(always)]
fn side_terms(pos: &Position, us: Color) -> Pair {
    let parts = side_term_parts(pos, us);
    let mut total = Pair::default();
    for p in parts {
        total.mg += p.mg;
        total.eg += p.eg;
    }
    total
}

/// One side's knowledge terms, split as `TERM_NAMES` says.
#[inline(always)]
pub fn side_term_parts(pos: &Position, us: Color) -> [Pair; 4] {
    let them = us.flip();
    let own = pos.color_bb[us.index()];
    let enemy_general = pos.generals[them.index()] as usize;
    let (egf, egr) = (enemy_general % FILES, enemy_general / FILES);
    let mut mg = 0;
    let mut eg = 0;
    for s in squares_of(pos.pieces_of_kind(us, PieceKind::Horse)) {
        let leaps = &HORSE_MOVES[s.index()];
        let mut mobility = 0;
        for i in 0..leaps.len as usize {
            let to = leaps.to[i] as usize;
            let leg_free = pos.board[leaps.block[i] as usize] == EMPTY;
            mobility += (leg_free && (own >> to) & 1 == 0) as i32;
        }
        mg += HORSE_MOBILITY.mg * (mobility - 3);
        eg += HORSE_MOBILITY.eg * (mobility - 3);
    }
    let horse = Pair { mg, eg };
    (mg, eg) = (0, 0);
    // A cannon on the enemy general's file with nothing between: the hollow cannon.
    for s in squares_of(pos.pieces_of_kind(us, PieceKind::Cannon) & (FILE_A << egf)) {
        let r = s.rank();
        let (lo, hi) = (r.min(egr), r.max(egr));
        let between = pos.file_occ[egf] & (((1u16 << hi) - 1) & !((2u16 << lo) - 1));
        if between == 0 {
            mg += HOLLOW_CANNON;
        }
    }
    let cannon = Pair { mg, eg };
    (mg, eg) = (0, 0);
    let soldier_files = files_of(pos.pieces_of_kind(us, PieceKind::Soldier));
    for s in squares_of(pos.pieces_of_kind(us, PieceKind::Rook)) {
        let (f, r) = (s.file(), s.rank());
        let rank = &RANK_MOVES[f][pos.rank_occ[r] as usize];
        let file = &FILE_MOVES[r][pos.file_occ[f] as usize];
        let mobility = (rank.slide.count_ones() + file.slide.count_ones()) as i32;
        mg += ROOK_MOBILITY.mg * mobility;
        eg += ROOK_MOBILITY.eg * mobility;
        // No own soldier on its file: the rook has an open road.
        if soldier_files & (1 << f) == 0 {
            mg += ROOK_OPEN_FILE;
        }
    }
    let rook = Pair { mg, eg };
    (mg, eg) = (0, 0);
    // Guards: each missing advisor or elephant costs more the more attackers the enemy has.
    let attackers = 2 * pos.count(them, PieceKind::Rook)
        + pos.count(them, PieceKind::Horse)
        + pos.count(them, PieceKind::Cannon);
    let missing_advisors = 2 - pos.count(us, PieceKind::Advisor).min(2);
    let missing_elephants = 2 - pos.count(us, PieceKind::Elephant).min(2);
    let exposure = MISSING_ADVISOR * missing_advisors as i32
        + MISSING_ELEPHANT
            * missing_elephants as i32
            * pos.count(them, PieceKind::Cannon).min(2) as i32;
    mg -= exposure * attackers as i32 / 2;
    eg -= exposure * attackers as i32 / 4;
    [horse, cannon, rook, Pair { mg, eg }]
}
