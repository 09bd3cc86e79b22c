//! Static evaluation (placeholder until the full evaluation lands).

use crate::board::{Color, PieceKind, Position};

const VALUES: [i32; 7] = [0, 40, 40, 400, 900, 450, 50];

/// Midgame material value of a piece kind.
pub fn piece_value(kind: PieceKind) -> i32 {
    VALUES[kind.index()]
}

/// Evaluation from the side to move's point of view.
pub fn evaluate(pos: &Position) -> i32 {
    let mut s = 0;
    for k in PieceKind::ALL {
        s += VALUES[k.index()]
            * (pos.count(Color::Red, k) as i32 - pos.count(Color::Black, k) as i32);
    }
    if pos.side_to_move() == Color::Red {
        s
    } else {
        -s
    }
}
