//! The position: board, occupancy masks, Zobrist keys, make/unmake and check detection.

use super::attacks::{
    Leaps, FILE_MOVES, HORSE_ATTACKERS, HORSE_ATTACKER_MASK, LINE_MASK, RANK_MASK, RANK_MOVES,
    SOLDIER_ATTACKER_MASK,
};
use super::key_filter::KeyFilter;
use super::moves::Move;
use super::piece::{Color, Piece, PieceKind};
use super::square::{Square, FILES, RANKS, SQUARES};
use super::zobrist::{PIECE_KEYS, SIDE_KEY};

/// Board cell value for an empty square.
pub(crate) const EMPTY: u8 = 0xff;
/// The soldier's kind bits in a board cell.
const SOLDIER: u8 = PieceKind::Soldier as u8;

/// What `unmake_move` needs to restore, plus what repetition rules read back.
#[derive(Copy, Clone, Debug)]
pub struct Undo {
    /// The move made (`Move::NONE` for a null move).
    pub mv: Move,
    /// Captured piece code, or `EMPTY`.
    pub(crate) captured: u8,
    /// Key of the position before the move.
    pub key: u64,
    /// Whether the side that made the move was in check before it.
    pub(crate) was_in_check: bool,
    /// Plies since the last capture, before the move.
    pub(crate) clock: u16,
}

impl Undo {
    /// True when the side that made this move was in check before it, i.e. the move before it
    /// gave check.
    #[inline]
    pub fn was_in_check(&self) -> bool {
        self.was_in_check
    }

    /// True when the move captured a piece.
    #[inline]
    pub fn was_capture(&self) -> bool {
        self.captured != EMPTY
    }
}

/// A xiangqi position with its game history (for unmake and repetition).
#[derive(Clone)]
pub struct Position {
    pub(crate) board: [u8; SQUARES],
    pub(crate) rank_occ: [u16; RANKS],
    pub(crate) file_occ: [u16; FILES],
    pub(crate) color_bb: [u128; 2],
    /// Squares of each piece code (colour * 8 + kind), for loops over one kind.
    pub(crate) piece_bb: [u128; Piece::CODES],
    pub(crate) generals: [u8; 2],
    pub(crate) counts: [[u8; 7]; 2],
    pub(crate) side: Color,
    pub(crate) key: u64,
    /// Per colour, the XOR of the Zobrist keys of its pieces other than soldiers (no side to
    /// move): keys tables by where a side's pieces stand, whatever the soldiers do.
    pub(crate) nonsoldier: [u64; 2],
    pub(crate) in_check: bool,
    pub(crate) clock: u16,
    pub(crate) fullmove: u16,
    pub(crate) history: Vec<Undo>,
    /// The keys of `history`, for skipping the repetition scan.
    pub(crate) seen: KeyFilter,
}

/// Iterates over the set bits of a u16 line mask.
#[inline]
pub(crate) fn bits16(mut m: u16) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let b = m.trailing_zeros() as usize;
            m &= m - 1;
            Some(b)
        }
    })
}

impl Position {
    /// An empty board with red to move (for builders; not a legal position by itself).
    pub(crate) fn empty() -> Position {
        Position {
            board: [EMPTY; SQUARES],
            rank_occ: [0; RANKS],
            file_occ: [0; FILES],
            color_bb: [0; 2],
            piece_bb: [0; Piece::CODES],
            generals: [0; 2],
            counts: [[0; 7]; 2],
            side: Color::Red,
            key: 0,
            nonsoldier: [0; 2],
            in_check: false,
            clock: 0,
            fullmove: 1,
            history: Vec::with_capacity(256),
            seen: KeyFilter::new(),
        }
    }

    /// Places a piece on an empty square (setup only).
    pub(crate) fn put(&mut self, sq: Square, piece: Piece) {
        debug_assert_eq!(self.board[sq.index()], EMPTY);
        let s = sq.index();
        self.board[s] = piece.code() as u8;
        self.rank_occ[sq.rank()] |= 1 << sq.file();
        self.file_occ[sq.file()] |= 1 << sq.rank();
        self.color_bb[piece.color().index()] |= 1u128 << s;
        self.piece_bb[piece.code()] |= 1u128 << s;
        self.counts[piece.color().index()][piece.kind().index()] += 1;
        if piece.kind() == PieceKind::General {
            self.generals[piece.color().index()] = s as u8;
        }
        self.key ^= PIECE_KEYS[piece.code()][s];
    }

    /// Finishes setup: side to move, keys and check status.
    pub(crate) fn finish_setup(&mut self, side: Color, clock: u16, fullmove: u16) {
        self.side = side;
        self.clock = clock;
        self.fullmove = fullmove.max(1);
        self.key = self.compute_key();
        self.nonsoldier = [Color::Red, Color::Black].map(|c| self.compute_nonsoldier_hash(c));
        self.in_check = self.is_attacked(self.general(side), side.flip());
    }

    /// The piece on `sq`, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let c = self.board[sq.index()];
        if c == EMPTY {
            None
        } else {
            Some(Piece::from_code(c))
        }
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The Zobrist key (side to move included).
    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// True when the side to move is in check.
    #[inline]
    pub fn in_check(&self) -> bool {
        self.in_check
    }

    /// The square of `color`'s general.
    #[inline]
    pub fn general(&self, color: Color) -> Square {
        Square::from_index(self.generals[color.index()] as usize)
    }

    /// How many pieces of this colour and kind are on the board.
    #[inline]
    pub fn count(&self, color: Color, kind: PieceKind) -> u32 {
        self.counts[color.index()][kind.index()] as u32
    }

    /// A hash of where the soldiers of both sides stand (the pawn structure), for tables
    /// keyed by it; computed from the soldiers' squares, not kept incrementally.
    #[inline]
    pub fn soldier_hash(&self) -> u64 {
        let red = self.piece_bb[Piece::new(Color::Red, PieceKind::Soldier).code()];
        let black = self.piece_bb[Piece::new(Color::Black, PieceKind::Soldier).code()];
        let mix = |x: u128, k: u64| -> u64 {
            let v = (x as u64) ^ ((x >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            (v ^ k).wrapping_mul(0xBF58_476D_1CE4_E5B9).rotate_left(31)
        };
        mix(red, 0x94D0_49BB_1331_11EB) ^ mix(black, 0x2545_F491_4F6C_DD1D).rotate_left(17)
    }

    /// A hash of where `color`'s pieces other than soldiers stand, kept incrementally.
    #[inline]
    pub fn nonsoldier_hash(&self, color: Color) -> u64 {
        self.nonsoldier[color.index()]
    }

    /// Occupied squares of one colour, as a 90-bit set.
    #[inline]
    pub fn pieces_of(&self, color: Color) -> u128 {
        self.color_bb[color.index()]
    }

    /// Plies since the last capture (the 60-move rule counts these).
    #[inline]
    pub fn plies_since_capture(&self) -> u32 {
        self.clock as u32
    }

    /// Full-move number, as in FEN.
    #[inline]
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove as u32
    }

    /// Moves made since setup, oldest first, with the key before each move.
    #[inline]
    pub fn history(&self) -> &[Undo] {
        &self.history
    }

    /// False when no position of the history can have the current key (a repetition cannot
    /// be); true means it may.
    #[inline]
    pub fn may_repeat(&self) -> bool {
        self.seen.may_contain(self.key)
    }

    /// Plies made since setup.
    #[inline]
    pub fn game_ply(&self) -> usize {
        self.history.len()
    }

    /// Forgets the move history (the position stays). Used to keep long games bounded.
    pub fn clear_history(&mut self) {
        self.history.clear();
        self.seen.clear();
    }

    /// The key computed from scratch; equals `key()` when the incremental updates are right.
    pub fn compute_key(&self) -> u64 {
        let mut key = 0;
        for (s, &c) in self.board.iter().enumerate() {
            if c != EMPTY {
                key ^= PIECE_KEYS[c as usize][s];
            }
        }
        if self.side == Color::Black {
            key ^= SIDE_KEY;
        }
        key
    }

    /// `nonsoldier_hash(color)` computed from scratch.
    pub fn compute_nonsoldier_hash(&self, color: Color) -> u64 {
        let mut hash = 0;
        for (s, &c) in self.board.iter().enumerate() {
            if c != EMPTY && (c >> 3) as usize == color.index() && c & 7 != SOLDIER {
                hash ^= PIECE_KEYS[c as usize][s];
            }
        }
        hash
    }

    /// True when `by` attacks `sq`: rook, cannon, horse, soldier, and the general along an
    /// open file (the flying-general rule). Advisors, elephants and the general's own step
    /// never reach the other palace, so they are left out; this is a check test.
    #[inline]
    pub fn is_attacked(&self, sq: Square, by: Color) -> bool {
        let s = sq.index();
        let f = sq.file();
        let r = sq.rank();
        let rook = Piece::new(by, PieceKind::Rook).code() as u8;
        let cannon = Piece::new(by, PieceKind::Cannon).code() as u8;
        let general = Piece::new(by, PieceKind::General).code() as u8;
        if self.pieces_of_kind(by, PieceKind::Soldier) & SOLDIER_ATTACKER_MASK[by.index()][s] != 0 {
            return true;
        }
        let rooks = self.pieces_of_kind(by, PieceKind::Rook);
        let cannons = self.pieces_of_kind(by, PieceKind::Cannon);
        let generals = self.pieces_of_kind(by, PieceKind::General);
        // Quick rejects by piece sets first: most lines and leaps hold no attacker at all.
        let rank_mask = RANK_MASK[s];
        let file_mask = LINE_MASK[s] & !rank_mask;
        if (rooks | cannons) & rank_mask != 0 {
            let rank = &RANK_MOVES[f][self.rank_occ[r] as usize];
            if rooks & rank_mask != 0 {
                for b in bits16(rank.rook_cap) {
                    if self.board[r * FILES + b] == rook {
                        return true;
                    }
                }
            }
            if cannons & rank_mask != 0 {
                for b in bits16(rank.cannon_cap) {
                    if self.board[r * FILES + b] == cannon {
                        return true;
                    }
                }
            }
        }
        if (rooks | cannons | generals) & file_mask != 0 {
            let file = &FILE_MOVES[r][self.file_occ[f] as usize];
            if (rooks | generals) & file_mask != 0 {
                for b in bits16(file.rook_cap) {
                    let p = self.board[b * FILES + f];
                    if p == rook || p == general {
                        return true;
                    }
                }
            }
            if cannons & file_mask != 0 {
                for b in bits16(file.cannon_cap) {
                    if self.board[b * FILES + f] == cannon {
                        return true;
                    }
                }
            }
        }
        let horse = Piece::new(by, PieceKind::Horse).code() as u8;
        if self.pieces_of_kind(by, PieceKind::Horse) & HORSE_ATTACKER_MASK[s] != 0 {
            let a: &Leaps = &HORSE_ATTACKERS[s];
            for i in 0..a.len as usize {
                if self.board[a.to[i] as usize] == horse && self.board[a.block[i] as usize] == EMPTY
                {
                    return true;
                }
            }
        }
        false
    }

    /// Moves a piece between squares on the raw board and masks (no key, no history).
    #[inline]
    pub(crate) fn shift(&mut self, from: usize, to: usize, piece: u8) {
        let (ff, fr) = (from % FILES, from / FILES);
        let (tf, tr) = (to % FILES, to / FILES);
        self.board[from] = EMPTY;
        self.board[to] = piece;
        self.rank_occ[fr] &= !(1 << ff);
        self.file_occ[ff] &= !(1 << fr);
        self.rank_occ[tr] |= 1 << tf;
        self.file_occ[tf] |= 1 << tr;
        let c = (piece >> 3) as usize;
        let moved = (1u128 << from) | (1u128 << to);
        self.color_bb[c] ^= moved;
        self.piece_bb[piece as usize] ^= moved;
        if piece & 7 == PieceKind::General as u8 {
            self.generals[c] = to as u8;
        }
    }

    /// Adds `piece` on `sq` to its colour's non-soldier hash, or takes it away (XOR).
    #[inline]
    fn toggle_nonsoldier(&mut self, piece: u8, sq: usize) {
        if piece & 7 != SOLDIER {
            self.nonsoldier[(piece >> 3) as usize] ^= PIECE_KEYS[piece as usize][sq];
        }
    }

    /// Updates the non-soldier hash for `piece` moving between squares (XOR: either way).
    #[inline]
    fn move_nonsoldier(&mut self, piece: u8, from: usize, to: usize) {
        if piece & 7 != SOLDIER {
            let keys = &PIECE_KEYS[piece as usize];
            self.nonsoldier[(piece >> 3) as usize] ^= keys[from] ^ keys[to];
        }
    }

    /// The key the position will have after the move `m` (for prefetching its table entry).
    #[inline]
    pub fn key_after(&self, m: Move) -> u64 {
        let from = m.from().index();
        let to = m.to().index();
        let piece = self.board[from] as usize;
        let captured = self.board[to];
        let mut key = self.key ^ SIDE_KEY ^ PIECE_KEYS[piece][from] ^ PIECE_KEYS[piece][to];
        if captured != EMPTY {
            key ^= PIECE_KEYS[captured as usize][to];
        }
        key
    }

    /// Plays a pseudo-legal move. The caller checks legality (`is_legal`, or a legal list).
    #[inline]
    pub fn make_move(&mut self, m: Move) {
        let from = m.from().index();
        let to = m.to().index();
        let piece = self.board[from];
        let captured = self.board[to];
        debug_assert!(piece != EMPTY, "make_move {m}: empty from-square");
        self.seen.add(self.key);
        self.history.push(Undo {
            mv: m,
            captured,
            key: self.key,
            was_in_check: self.in_check,
            clock: self.clock,
        });
        let key = self.key_after(m);
        if captured != EMPTY {
            let cc = (captured >> 3) as usize;
            self.color_bb[cc] &= !(1u128 << to);
            self.piece_bb[captured as usize] &= !(1u128 << to);
            self.counts[cc][(captured & 7) as usize] -= 1;
            self.toggle_nonsoldier(captured, to);
            self.clock = 0;
        } else {
            self.clock = self.clock.saturating_add(1);
        }
        self.shift(from, to, piece);
        self.move_nonsoldier(piece, from, to);
        self.key = key;
        if self.side == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = self.side.flip();
        self.in_check = self.is_attacked(self.general(self.side), self.side.flip());
    }

    /// Takes back the last move made with `make_move`.
    #[inline]
    pub fn unmake_move(&mut self) {
        let Some(u) = self.history.pop() else {
            debug_assert!(false, "unmake_move without a move");
            return;
        };
        self.seen.remove(u.key);
        let from = u.mv.from().index();
        let to = u.mv.to().index();
        let piece = self.board[to];
        self.shift(to, from, piece);
        self.move_nonsoldier(piece, to, from);
        if u.captured != EMPTY {
            let cc = (u.captured >> 3) as usize;
            self.board[to] = u.captured;
            self.rank_occ[to / FILES] |= 1 << (to % FILES);
            self.file_occ[to % FILES] |= 1 << (to / FILES);
            self.color_bb[cc] |= 1u128 << to;
            self.piece_bb[u.captured as usize] |= 1u128 << to;
            self.counts[cc][(u.captured & 7) as usize] += 1;
            self.toggle_nonsoldier(u.captured, to);
        }
        self.side = self.side.flip();
        if self.side == Color::Black {
            self.fullmove -= 1;
        }
        self.key = u.key;
        self.in_check = u.was_in_check;
        self.clock = u.clock;
    }

    /// Passes the turn (null-move pruning). Never call it in check. The non-soldier hashes
    /// hold no side to move, so they stay.
    #[inline]
    pub fn make_null(&mut self) {
        debug_assert!(!self.in_check);
        self.seen.add(self.key);
        self.history.push(Undo {
            mv: Move::NONE,
            captured: EMPTY,
            key: self.key,
            was_in_check: self.in_check,
            clock: self.clock,
        });
        self.key ^= SIDE_KEY;
        self.clock = self.clock.saturating_add(1);
        self.side = self.side.flip();
        self.in_check = false;
    }

    /// Takes back a null move.
    #[inline]
    pub fn unmake_null(&mut self) {
        if let Some(u) = self.history.pop() {
            self.seen.remove(u.key);
            self.side = self.side.flip();
            self.key = u.key;
            self.in_check = u.was_in_check;
            self.clock = u.clock;
        }
    }

    /// True when, after the pseudo-legal move `m`, the mover's general is not attacked.
    /// Applies the move to the raw board only, which is cheaper than a full make/unmake.
    #[inline]
    pub(crate) fn leaves_general_safe(&mut self, m: Move) -> bool {
        let from = m.from().index();
        let to = m.to().index();
        let piece = self.board[from];
        let captured = self.board[to];
        let us = self.side;
        let them = us.flip();
        if captured != EMPTY {
            self.color_bb[them.index()] &= !(1u128 << to);
            self.piece_bb[captured as usize] &= !(1u128 << to);
            self.counts[them.index()][(captured & 7) as usize] -= 1;
        }
        self.shift(from, to, piece);
        let safe = !self.is_attacked(self.general(us), them);
        self.shift(to, from, piece);
        if captured != EMPTY {
            self.board[to] = captured;
            self.rank_occ[to / FILES] |= 1 << (to % FILES);
            self.file_occ[to % FILES] |= 1 << (to / FILES);
            self.color_bb[them.index()] |= 1u128 << to;
            self.piece_bb[captured as usize] |= 1u128 << to;
            self.counts[them.index()][(captured & 7) as usize] += 1;
        }
        safe
    }

    /// True when the generals face each other on an open file.
    pub fn generals_facing(&self) -> bool {
        let r = self.general(Color::Red);
        let b = self.general(Color::Black);
        if r.file() != b.file() {
            return false;
        }
        let between = ((1u16 << b.rank()) - 1) & !((1u16 << (r.rank() + 1)) - 1);
        self.file_occ[r.file()] & between == 0
    }
}

impl PartialEq for Position {
    /// Same placement, side to move and key; the history is not compared.
    fn eq(&self, other: &Self) -> bool {
        self.board == other.board
            && self.side == other.side
            && self.key == other.key
            && self.nonsoldier == other.nonsoldier
            && self.rank_occ == other.rank_occ
            && self.file_occ == other.file_occ
            && self.color_bb == other.color_bb
            && self.piece_bb == other.piece_bb
            && self.generals == other.generals
            && self.counts == other.counts
            && self.in_check == other.in_check
            && self.clock == other.clock
    }
}
