//! Material and piece-square tables for both phases, from each side's own point of view, as
//! one table indexed by piece code and square holding red-relative values (black's negated and
//! mirrored), so a sum can be kept incrementally: add at the to-square, subtract at the
//! from-square and for a capture (`PsqStack` does, on the search stack).

use crate::board::{Piece, Position, Square, SQUARES};

/// A middlegame and endgame pair.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Pair {
    /// Middlegame value.
    pub mg: i32,
    /// Endgame value.
    pub eg: i32,
}

impl Pair {
    const fn new(mg: i32, eg: i32) -> Pair {
        Pair { mg, eg }
    }
}

impl std::ops::Add for Pair {
    type Output = Pair;
    #[inline(always)]
    fn add(self, other: Pair) -> Pair {
        Pair::new(self.mg + other.mg, self.eg + other.eg)
    }
}

impl std::ops::Sub for Pair {
    type Output = Pair;
    #[inline(always)]
    fn sub(self, other: Pair) -> Pair {
        Pair::new(self.mg - other.mg, self.eg - other.eg)
    }
}

/// Material by kind (general, advisor, elephant, horse, rook, cannon, soldier).
pub const MATERIAL: [Pair; 7] = [
    Pair::new(0, 0),
    Pair::new(40, 40),
    Pair::new(40, 40),
    Pair::new(400, 440),
    Pair::new(900, 950),
    Pair::new(450, 400),
    Pair::new(30, 40),
];

/// Game phase weight by kind: the start position sums to `MAX_PHASE`.
pub const PHASE_WEIGHT: [i32; 7] = [0, 0, 0, 3, 6, 3, 0];
/// Phase of the start position (all rooks, horses and cannons).
pub const MAX_PHASE: i32 = 48;

// Positional tables for red, files a..e (f..i mirror them), own rank 0 (back rank) first.
// Values are bonuses on top of material.

const SOLDIER_MG: [[i32; 5]; 10] = [
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
    [0, 0, -2, 0, 4],
    [2, 0, 6, 0, 8],
    [20, 28, 34, 40, 44],
    [26, 36, 48, 60, 66],
    [28, 40, 56, 78, 90],
    [24, 34, 48, 66, 76],
    [4, 8, 12, 16, 20],
];
const SOLDIER_EG: [[i32; 5]; 10] = [
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 4],
    [4, 0, 8, 0, 10],
    [34, 38, 44, 48, 50],
    [40, 48, 58, 66, 70],
    [44, 54, 66, 80, 88],
    [40, 50, 60, 72, 78],
    [10, 14, 18, 22, 24],
];
const HORSE: [[i32; 5]; 10] = [
    [-20, -12, -8, -10, -14],
    [-14, -6, 0, -4, -20],
    [-10, 0, 6, 6, 2],
    [-8, 4, 10, 10, 10],
    [-6, 8, 14, 16, 14],
    [-4, 12, 18, 20, 18],
    [0, 16, 24, 26, 22],
    [2, 20, 30, 34, 24],
    [0, 16, 40, 26, 18],
    [-6, 4, 8, 12, 0],
];
const ROOK: [[i32; 5]; 10] = [
    [-12, 4, -2, 8, 0],
    [-4, 6, 2, 10, 0],
    [-6, 4, 0, 8, 4],
    [-4, 8, 4, 10, 8],
    [0, 10, 6, 12, 12],
    [2, 12, 8, 14, 14],
    [0, 10, 8, 12, 12],
    [4, 12, 10, 16, 16],
    [8, 16, 14, 20, 20],
    [4, 10, 8, 14, 14],
];
const CANNON: [[i32; 5]; 10] = [
    [0, 0, 2, 6, 6],
    [0, 2, 4, 4, 4],
    [2, 4, 0, 6, 12],
    [0, 0, 2, 4, 10],
    [-2, 0, 2, 4, 8],
    [0, 0, 0, 2, 6],
    [0, 2, 0, 0, 4],
    [2, 2, 0, -6, -4],
    [2, 4, 0, -4, -6],
    [6, 6, 0, -2, -4],
];
const ADVISOR: [[i32; 5]; 10] = {
    let mut t = [[0; 5]; 10];
    t[1][4] = 6;
    t
};
const ELEPHANT: [[i32; 5]; 10] = {
    let mut t = [[0; 5]; 10];
    t[2][4] = 6;
    t[2][0] = -6;
    t[4][2] = -2;
    t
};
const GENERAL_MG: [[i32; 5]; 10] = {
    let mut t = [[0; 5]; 10];
    t[0][3] = -4;
    t[0][4] = 4;
    t[1][3] = -10;
    t[1][4] = -6;
    t[2][3] = -24;
    t[2][4] = -20;
    t
};
const GENERAL_EG: [[i32; 5]; 10] = {
    let mut t = [[0; 5]; 10];
    t[0][3] = -4;
    t[0][4] = 0;
    t[1][3] = 0;
    t[1][4] = 6;
    t[2][3] = -6;
    t[2][4] = 0;
    t
};

const fn table(kind: usize) -> ([[i32; 5]; 10], [[i32; 5]; 10]) {
    match kind {
        0 => (GENERAL_MG, GENERAL_EG),
        1 => (ADVISOR, ADVISOR),
        2 => (ELEPHANT, ELEPHANT),
        3 => (HORSE, HORSE),
        4 => (ROOK, ROOK),
        5 => (CANNON, CANNON),
        _ => (SOLDIER_MG, SOLDIER_EG),
    }
}

const fn build() -> [[Pair; SQUARES]; Piece::CODES] {
    let mut t = [[Pair::new(0, 0); SQUARES]; Piece::CODES];
    let mut code = 0;
    while code < Piece::CODES {
        let kind = code & 7;
        let black = code >= 8;
        if kind < 7 {
            let (mg, eg) = table(kind);
            let mut s = 0;
            while s < SQUARES {
                let file = s % 9;
                let rank = s / 9;
                let own_rank = if black { 9 - rank } else { rank };
                let half_file = if file > 4 { 8 - file } else { file };
                let v_mg = MATERIAL[kind].mg + mg[own_rank][half_file];
                let v_eg = MATERIAL[kind].eg + eg[own_rank][half_file];
                t[code][s] = if black {
                    Pair::new(-v_mg, -v_eg)
                } else {
                    Pair::new(v_mg, v_eg)
                };
                s += 1;
            }
        }
        code += 1;
    }
    t
}

/// `PSQ[piece code][square]`: material plus position, red-relative.
pub static PSQ: [[Pair; SQUARES]; Piece::CODES] = build();

/// The material and piece-square sum of `pos`, red-relative, computed from scratch.
pub fn sum(pos: &Position) -> Pair {
    let mut total = Pair::default();
    for sq in Square::all() {
        if let Some(p) = pos.piece_at(sq) {
            total = total + PSQ[p.code()][sq.index()];
        }
    }
    total
}
