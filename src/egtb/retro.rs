//! Moves backwards: the positions from which one non-capturing move leads to a given one.
//!
//! Every xiangqi move that captures nothing can be taken back by the same geometry read the
//! other way: sliders slide, generals, advisors and elephants step back (an elephant's eye is
//! the same square both ways), a horse comes from a square whose leg toward this one is free,
//! and a soldier comes from behind or, across the river, from beside.

use super::index::{Placement, TableIndex};
use crate::board::attacks::{
    ADVISOR_MOVES, ELEPHANT_MOVES, FILE_MOVES, GENERAL_MOVES, HORSE_ATTACKERS, RANK_MOVES,
    SOLDIER_ATTACKERS,
};
use crate::board::position::bits16;
use crate::board::{Color, PieceKind, Position, Square, FILES};
use arrayvec::ArrayVec;

/// Squares a piece could have come from to stand on `s` (empty in `pos`; geometry only).
fn origins(pos: &Position, kind: PieceKind, color: Color, s: usize) -> ArrayVec<u8, 20> {
    let mut out = ArrayVec::new();
    let empty = |sq: usize| pos.board[sq] == crate::board::position::EMPTY;
    let leaps = |table: &crate::board::attacks::Leaps, out: &mut ArrayVec<u8, 20>| {
        for i in 0..table.len as usize {
            let to = table.to[i] as usize;
            if empty(to) && empty(table.block[i] as usize) {
                out.push(to as u8);
            }
        }
    };
    match kind {
        PieceKind::General => leaps(&GENERAL_MOVES[s], &mut out),
        PieceKind::Advisor => leaps(&ADVISOR_MOVES[s], &mut out),
        PieceKind::Elephant => leaps(&ELEPHANT_MOVES[s], &mut out),
        PieceKind::Horse => leaps(&HORSE_ATTACKERS[s], &mut out),
        PieceKind::Soldier => leaps(&SOLDIER_ATTACKERS[color.index()][s], &mut out),
        PieceKind::Rook | PieceKind::Cannon => {
            let (f, r) = (s % FILES, s / FILES);
            for b in bits16(RANK_MOVES[f][pos.rank_occ[r] as usize].slide) {
                out.push((r * FILES + b) as u8);
            }
            for b in bits16(FILE_MOVES[r][pos.file_occ[f] as usize].slide) {
                out.push((b * FILES + f) as u8);
            }
        }
    }
    out
}

/// Calls `found(parent_index)` for every legal position, stored as itself in `index` (its red
/// general on file d or e), from which a legal non-capturing move of the side not to move in
/// `child` leads to the board `child`. `placement` is `child`'s placement (the order of its
/// pieces is kept in the parents').
pub fn for_each_parent(
    index: &TableIndex,
    child: &mut Position,
    placement: &Placement,
    mut found: impl FnMut(u64),
) {
    let mover = child.side_to_move().flip();
    let other = mover.flip();
    for (slot, &(piece, sq)) in placement.iter().enumerate() {
        if piece.color() != mover {
            continue;
        }
        let s = sq.index();
        for o in origins(child, piece.kind(), mover, s) {
            let o = o as usize;
            child.shift(s, o, piece.code() as u8);
            // The parent is legal when the side that did not move there is not in check
            // (the flying general included); the move itself was legal because `child` is.
            let legal = !child.is_attacked(child.general(other), mover);
            child.shift(o, s, piece.code() as u8);
            if !legal {
                continue;
            }
            let mut parent = placement.clone();
            parent[slot].1 = Square::from_index(o);
            let red_general_file = parent[0].1.file();
            if red_general_file > 4 {
                continue;
            }
            if let Some(i) = index.encode(&parent, mover) {
                found(i);
            }
        }
    }
}
