//! Move generation: pseudo-legal moves by kind (all, captures, quiets), legal filtering, and the
//! pseudo-legality test for moves that come from elsewhere (the transposition table, killers).

use super::attacks::{
    Leaps, ADVISOR_MOVES, DIAGONAL_MASK, ELEPHANT_MOVES, FILE_MOVES, GENERAL_MOVES, HORSE_MOVES,
    LINE_MASK, RANK_MOVES, SOLDIER_MOVES,
};
use super::moves::{Move, MoveList};
use super::piece::PieceKind;
use super::position::{bits16, Position, EMPTY};
use super::square::{Square, FILES};

/// Which moves a generator call produces.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum GenKind {
    /// Every pseudo-legal move.
    All,
    /// Captures only.
    Captures,
    /// Non-captures only.
    Quiets,
}

impl Position {
    /// Appends the pseudo-legal moves of the side to move (they may leave the general attacked).
    pub fn generate_pseudo(&self, kind: GenKind, list: &mut MoveList) {
        match kind {
            GenKind::All => self.generate::<true, true>(list),
            GenKind::Captures => self.generate::<true, false>(list),
            GenKind::Quiets => self.generate::<false, true>(list),
        }
    }

    #[inline(always)]
    fn generate<const CAPTURES: bool, const QUIETS: bool>(&self, list: &mut MoveList) {
        let us = self.side.index();
        let mut own = self.color_bb[us];
        while own != 0 {
            let s = own.trailing_zeros() as usize;
            own &= own - 1;
            let from = Square::from_index(s);
            let piece = self.board[s];
            match piece & 7 {
                0 => self.leaps::<CAPTURES, QUIETS, false>(from, &GENERAL_MOVES[s], list),
                1 => self.leaps::<CAPTURES, QUIETS, false>(from, &ADVISOR_MOVES[s], list),
                2 => self.leaps::<CAPTURES, QUIETS, true>(from, &ELEPHANT_MOVES[s], list),
                3 => self.leaps::<CAPTURES, QUIETS, true>(from, &HORSE_MOVES[s], list),
                4 => self.slides::<CAPTURES, QUIETS, false>(from, list),
                5 => self.slides::<CAPTURES, QUIETS, true>(from, list),
                _ => self.leaps::<CAPTURES, QUIETS, false>(from, &SOLDIER_MOVES[us][s], list),
            }
        }
    }

    #[inline(always)]
    fn leaps<const CAPTURES: bool, const QUIETS: bool, const BLOCKABLE: bool>(
        &self,
        from: Square,
        leaps: &Leaps,
        list: &mut MoveList,
    ) {
        let us = self.side as u8;
        for i in 0..leaps.len as usize {
            if BLOCKABLE && self.board[leaps.block[i] as usize] != EMPTY {
                continue;
            }
            let t = leaps.to[i] as usize;
            let target = self.board[t];
            let ok = if target == EMPTY {
                QUIETS
            } else {
                CAPTURES && (target >> 3) != us
            };
            if ok {
                list.push(Move::new(from, Square::from_index(t)));
            }
        }
    }

    #[inline(always)]
    fn slides<const CAPTURES: bool, const QUIETS: bool, const CANNON: bool>(
        &self,
        from: Square,
        list: &mut MoveList,
    ) {
        let us = self.side as u8;
        let f = from.file();
        let r = from.rank();
        let rank = &RANK_MOVES[f][self.rank_occ[r] as usize];
        let file = &FILE_MOVES[r][self.file_occ[f] as usize];
        if CAPTURES {
            let (rc, fc) = if CANNON {
                (rank.cannon_cap, file.cannon_cap)
            } else {
                (rank.rook_cap, file.rook_cap)
            };
            for b in bits16(rc) {
                let t = r * FILES + b;
                if self.board[t] >> 3 != us {
                    list.push(Move::new(from, Square::from_index(t)));
                }
            }
            for b in bits16(fc) {
                let t = b * FILES + f;
                if self.board[t] >> 3 != us {
                    list.push(Move::new(from, Square::from_index(t)));
                }
            }
        }
        if QUIETS {
            for b in bits16(rank.slide) {
                list.push(Move::new(from, Square::from_index(r * FILES + b)));
            }
            for b in bits16(file.slide) {
                list.push(Move::new(from, Square::from_index(b * FILES + f)));
            }
        }
    }

    /// True when a pseudo-legal move cannot expose the mover's general, so the legality test can
    /// be skipped: not in check, not a general move, and neither square lines up with the general
    /// (a from-square on its rank or file may uncover a rook, cannon or the other general, or
    /// unscreen a cannon; one diagonally next to it may free a horse's leg; a to-square on its
    /// rank or file may give a cannon its screen).
    #[inline]
    fn surely_legal(&self, m: Move) -> bool {
        if self.in_check {
            return false;
        }
        let g = self.generals[self.side.index()] as usize;
        let from = m.from().index();
        let sensitive_from = LINE_MASK[g] | DIAGONAL_MASK[g];
        (sensitive_from >> from) & 1 == 0 && (LINE_MASK[g] >> m.to().index()) & 1 == 0 && from != g
    }

    /// True when the pseudo-legal move `m` does not leave the mover's general attacked.
    #[inline]
    pub fn is_legal_pseudo(&mut self, m: Move) -> bool {
        self.surely_legal(m) || self.leaves_general_safe(m)
    }

    /// Appends every legal move of the side to move.
    pub fn generate_legal(&mut self, list: &mut MoveList) {
        let mut pseudo = MoveList::new();
        self.generate::<true, true>(&mut pseudo);
        for &m in pseudo.iter() {
            if self.is_legal_pseudo(m) {
                list.push(m);
            }
        }
    }

    /// The legal moves, as a new list.
    pub fn legal_moves(&mut self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_legal(&mut list);
        list
    }

    /// Legal captures only (quiescence search).
    pub fn generate_legal_captures(&mut self, list: &mut MoveList) {
        let mut pseudo = MoveList::new();
        self.generate::<true, false>(&mut pseudo);
        for &m in pseudo.iter() {
            if self.is_legal_pseudo(m) {
                list.push(m);
            }
        }
    }

    /// Legal moves when in check (every reply is verified); the same as `generate_legal`, which
    /// already tests every move in check. Kept as its own entry point for the search.
    pub fn generate_evasions(&mut self, list: &mut MoveList) {
        debug_assert!(self.in_check);
        self.generate_legal(list);
    }

    /// Counts legal moves without storing them (perft's last ply).
    pub fn count_legal(&mut self) -> u64 {
        let mut pseudo = MoveList::new();
        self.generate::<true, true>(&mut pseudo);
        let mut n = 0;
        for &m in pseudo.iter() {
            n += self.is_legal_pseudo(m) as u64;
        }
        n
    }

    /// True when the side to move has no legal move (it has lost: mate or stalemate).
    pub fn has_no_legal_move(&mut self) -> bool {
        let mut pseudo = MoveList::new();
        self.generate::<true, true>(&mut pseudo);
        !pseudo.iter().any(|&m| self.is_legal_pseudo(m))
    }

    /// True when `m` is a pseudo-legal move of the side to move here: its own piece on the
    /// from-square, the target empty or the enemy's, and the geometry and blockers of the piece
    /// respected. Cheap; used on moves from the transposition table and killer slots.
    pub fn is_pseudo_legal(&self, m: Move) -> bool {
        if m.is_none() {
            return false;
        }
        let from = m.from().index();
        let to = m.to().index();
        let piece = self.board[from];
        if piece == EMPTY || piece >> 3 != self.side as u8 {
            return false;
        }
        let target = self.board[to];
        if target != EMPTY && target >> 3 == self.side as u8 {
            return false;
        }
        let in_leaps = |leaps: &Leaps, blockable: bool| {
            (0..leaps.len as usize).any(|i| {
                leaps.to[i] as usize == to
                    && (!blockable || self.board[leaps.block[i] as usize] == EMPTY)
            })
        };
        match piece & 7 {
            0 => in_leaps(&GENERAL_MOVES[from], false),
            1 => in_leaps(&ADVISOR_MOVES[from], false),
            2 => in_leaps(&ELEPHANT_MOVES[from], true),
            3 => in_leaps(&HORSE_MOVES[from], true),
            4 | 5 => {
                let cannon = piece & 7 == PieceKind::Cannon as u8;
                let (f, r) = (from % FILES, from / FILES);
                let (tf, tr) = (to % FILES, to / FILES);
                let (line, bit) = if r == tr {
                    (&RANK_MOVES[f][self.rank_occ[r] as usize], tf)
                } else if f == tf {
                    (&FILE_MOVES[r][self.file_occ[f] as usize], tr)
                } else {
                    return false;
                };
                let mask = if target == EMPTY {
                    line.slide
                } else if cannon {
                    line.cannon_cap
                } else {
                    line.rook_cap
                };
                (mask >> bit) & 1 == 1
            }
            _ => in_leaps(&SOLDIER_MOVES[self.side.index()][from], false),
        }
    }

    /// True when `m` is legal here (pseudo-legal, and the general is safe afterwards).
    pub fn is_legal(&mut self, m: Move) -> bool {
        self.is_pseudo_legal(m) && self.is_legal_pseudo(m)
    }

    /// True when the legal move `m` gives check.
    pub fn gives_check(&mut self, m: Move) -> bool {
        self.make_move(m);
        let check = self.in_check;
        self.unmake_move();
        check
    }

    /// True when `m` captures a piece.
    #[inline]
    pub fn is_capture(&self, m: Move) -> bool {
        self.board[m.to().index()] != EMPTY
    }
}
