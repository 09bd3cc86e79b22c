//! Move generation: pseudo-legal moves by kind (all, captures, quiets), legal filtering, and the
//! pseudo-legality test for moves that come from elsewhere (the transposition table, killers).

use super::attacks::{
    Leaps, ADVISOR_MOVES, ADVISOR_MOVE_MASK, ELEPHANT_MOVES, ELEPHANT_MOVE_MASK, FILE_MOVES,
    GENERAL_MOVES, GENERAL_MOVE_MASK, HORSE_ATTACKERS, HORSE_ATTACKER_MASK, HORSE_MOVES,
    HORSE_MOVE_MASK, LINE_MASK, RANK_MOVES, SOLDIER_MOVES, SOLDIER_MOVE_MASK,
};
use super::moves::{Move, MoveList};
use super::piece::{Piece, PieceKind};
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

/// Per-node legality facts (see `Position::legality_info`).
#[derive(Copy, Clone, Debug)]
pub(crate) struct LegalityInfo {
    pinned: u128,
    no_landing: u128,
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
        let theirs = self.color_bb[us ^ 1];
        let mut own = self.color_bb[us];
        while own != 0 {
            let s = own.trailing_zeros() as usize;
            own &= own - 1;
            let from = Square::from_index(s);
            let piece = self.board[s];
            // Captures only: a leaper with no enemy piece among its targets has none.
            if CAPTURES && !QUIETS {
                let targets = match piece & 7 {
                    0 => GENERAL_MOVE_MASK[s],
                    1 => ADVISOR_MOVE_MASK[s],
                    2 => ELEPHANT_MOVE_MASK[s],
                    3 => HORSE_MOVE_MASK[s],
                    4 | 5 => u128::MAX,
                    _ => SOLDIER_MOVE_MASK[us][s],
                };
                if targets & theirs == 0 {
                    continue;
                }
            }
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

    /// What decides legality at this node without trying moves: the side to move's pieces whose
    /// moves must be verified (`pinned`: blockers between the general and an enemy rook, flying
    /// general or cannon, and pieces on the leg of an enemy horse aimed at the general), and the
    /// empty squares a move may never land on (between the general and an enemy cannon with
    /// nothing in between: the mover would become the cannon's screen). Meaningless in check.
    #[inline]
    pub(crate) fn legality_info(&self) -> LegalityInfo {
        let us = self.side;
        let them = us.flip();
        let g = self.generals[us.index()] as usize;
        let (gf, gr) = (g % FILES, g / FILES);
        let own = self.color_bb[us.index()];
        let rook = Piece::new(them, PieceKind::Rook).code() as u8;
        let cannon = Piece::new(them, PieceKind::Cannon).code() as u8;
        let general = Piece::new(them, PieceKind::General).code() as u8;
        let mut info = LegalityInfo {
            pinned: 0,
            no_landing: 0,
        };
        // The four rays: (occupancy, position on the line, direction, square of line index).
        let sliders = self.pieces_of_kind(them, PieceKind::Rook)
            | self.pieces_of_kind(them, PieceKind::Cannon)
            | self.pieces_of_kind(them, PieceKind::General);
        let rays = if sliders & LINE_MASK[g] != 0 { 4 } else { 0 };
        let rank_sq = |i: usize| gr * FILES + i;
        let file_sq = |i: usize| i * FILES + gf;
        for (occ, pos, up, on_file) in [
            (self.rank_occ[gr], gf, true, false),
            (self.rank_occ[gr], gf, false, false),
            (self.file_occ[gf], gr, true, true),
            (self.file_occ[gf], gr, false, true),
        ]
        .into_iter()
        .take(rays)
        {
            let to_sq = |i: usize| if on_file { file_sq(i) } else { rank_sq(i) };
            let mut m = if up {
                occ & !((2u16 << pos) - 1)
            } else {
                occ & ((1u16 << pos) - 1)
            };
            let mut next = || {
                if m == 0 {
                    return None;
                }
                let i = if up {
                    m.trailing_zeros() as usize
                } else {
                    15 - m.leading_zeros() as usize
                };
                m &= !(1u16 << i);
                Some(to_sq(i))
            };
            let Some(p1) = next() else { continue };
            let b1 = self.board[p1];
            if b1 == cannon {
                // Landing between the general and this cannon gives it a screen.
                let lo = p1.min(g);
                let hi = p1.max(g);
                let step = if on_file { FILES } else { 1 };
                let mut s = lo + step;
                while s < hi {
                    info.no_landing |= 1u128 << s;
                    s += step;
                }
            }
            let Some(p2) = next() else { continue };
            let b2 = self.board[p2];
            let slider = b2 == rook || (on_file && b2 == general);
            if slider && (own >> p1) & 1 == 1 {
                info.pinned |= 1u128 << p1;
            }
            let Some(p3) = next() else { continue };
            if self.board[p3] == cannon {
                info.pinned |= ((1u128 << p1) | (1u128 << p2)) & own;
            }
        }
        if self.pieces_of_kind(them, PieceKind::Horse) & HORSE_ATTACKER_MASK[g] != 0 {
            let horse = Piece::new(them, PieceKind::Horse).code() as u8;
            let a = &HORSE_ATTACKERS[g];
            for i in 0..a.len as usize {
                let leg = a.block[i] as usize;
                if self.board[a.to[i] as usize] == horse && (own >> leg) & 1 == 1 {
                    info.pinned |= 1u128 << leg;
                }
            }
        }
        info
    }

    /// Legality of a pseudo-legal move given this node's `LegalityInfo` (not in check).
    #[inline(always)]
    pub(crate) fn is_legal_with(&mut self, m: Move, info: &LegalityInfo) -> bool {
        let from = m.from().index();
        if from == self.generals[self.side.index()] as usize || (info.pinned >> from) & 1 == 1 {
            return self.leaves_general_safe(m);
        }
        (info.no_landing >> m.to().index()) & 1 == 0
    }

    /// True when the pseudo-legal move `m` does not leave the mover's general attacked.
    #[inline]
    pub fn is_legal_pseudo(&mut self, m: Move) -> bool {
        if self.in_check {
            self.leaves_general_safe(m)
        } else {
            let info = self.legality_info();
            self.is_legal_with(m, &info)
        }
    }

    /// Keeps the legal moves of a pseudo-legal list.
    #[inline]
    fn filter_legal(&mut self, pseudo: &MoveList, list: &mut MoveList) {
        if pseudo.is_empty() {
            return;
        }
        if self.in_check {
            self.filter_evasions(pseudo, list);
        } else {
            let info = self.legality_info();
            for &m in pseudo.iter() {
                if self.is_legal_with(m, &info) {
                    list.push(m);
                }
            }
        }
    }

    /// Appends every legal move of the side to move.
    pub fn generate_legal(&mut self, list: &mut MoveList) {
        let mut pseudo = MoveList::new();
        self.generate::<true, true>(&mut pseudo);
        self.filter_legal(&pseudo, list);
    }

    /// The legal moves found the slow way: every pseudo-legal move is made and the mover's
    /// general tested. A reference for tests of the fast legality shortcut.
    pub fn legal_moves_reference(&mut self) -> MoveList {
        let mut pseudo = MoveList::new();
        self.generate::<true, true>(&mut pseudo);
        let mut list = MoveList::new();
        let us = self.side;
        for &m in pseudo.iter() {
            self.make_move(m);
            if !self.is_attacked(self.general(us), us.flip()) {
                list.push(m);
            }
            self.unmake_move();
        }
        list
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
        self.filter_legal(&pseudo, list);
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
        if self.in_check {
            let mut list = MoveList::new();
            self.filter_evasions(&pseudo, &mut list);
            return list.len() as u64;
        }
        let info = self.legality_info();
        pseudo
            .iter()
            .filter(|&&m| self.is_legal_with(m, &info))
            .count() as u64
    }

    /// True when the side to move has no legal move (it has lost: mate or stalemate).
    pub fn has_no_legal_move(&mut self) -> bool {
        let mut pseudo = MoveList::new();
        self.generate::<true, true>(&mut pseudo);
        let mut legal = MoveList::new();
        self.filter_legal(&pseudo, &mut legal);
        legal.is_empty()
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
