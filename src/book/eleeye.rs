//! ElephantEye's `BOOK.DAT`: no header, 8-byte little-endian records `u32 key, u16 move,
//! u16 weight`, sorted by key then move. The key is ElephantEye's `lock1` Zobrist word of the
//! position, from tables drawn out of an RC4 key stream; moves use its 16x16 mailbox squares.

use crate::board::{Color, Move, Position, Square};
use std::sync::OnceLock;

/// Player word and one word per (piece type 0..14, mailbox square 0..256): the `lock1` words.
struct Locks {
    player: u32,
    table: Vec<[u32; 256]>,
}

/// RC4 with a 4-byte all-zero key, as ElephantEye seeds its Zobrist tables.
struct Rc4 {
    s: [u8; 256],
    i: u8,
    j: u8,
}

impl Rc4 {
    fn zero_key() -> Rc4 {
        let mut s = [0u8; 256];
        for (i, v) in s.iter_mut().enumerate() {
            *v = i as u8;
        }
        let mut j = 0u8;
        for i in 0..256 {
            // The key bytes are all zero.
            j = j.wrapping_add(s[i]);
            s.swap(i, j as usize);
        }
        Rc4 { s, i: 0, j: 0 }
    }

    fn byte(&mut self) -> u8 {
        self.i = self.i.wrapping_add(1);
        self.j = self.j.wrapping_add(self.s[self.i as usize]);
        self.s.swap(self.i as usize, self.j as usize);
        self.s[(self.s[self.i as usize].wrapping_add(self.s[self.j as usize])) as usize]
    }

    fn word(&mut self) -> u32 {
        u32::from_le_bytes([self.byte(), self.byte(), self.byte(), self.byte()])
    }

    /// A (key, lock0, lock1) triple; the book needs only lock1.
    fn lock1(&mut self) -> u32 {
        let _key = self.word();
        let _lock0 = self.word();
        self.word()
    }
}

fn locks() -> &'static Locks {
    static LOCKS: OnceLock<Locks> = OnceLock::new();
    LOCKS.get_or_init(|| {
        let mut rc4 = Rc4::zero_key();
        let player = rc4.lock1();
        let table = (0..14)
            .map(|_| {
                let mut row = [0u32; 256];
                for v in row.iter_mut() {
                    *v = rc4.lock1();
                }
                row
            })
            .collect();
        Locks { player, table }
    })
}

/// ElephantEye's square for ours, optionally mirrored left-right.
fn ee_square(sq: Square, mirror: bool) -> usize {
    let file = if mirror { 8 - sq.file() } else { sq.file() };
    (file + 3) + 16 * (12 - sq.rank())
}

/// Our square for ElephantEye's, or `None` off the board.
fn our_square(ee: u8, mirror: bool) -> Option<Square> {
    let (x, y) = ((ee & 15) as usize, (ee >> 4) as usize);
    if !(3..=11).contains(&x) || !(3..=12).contains(&y) {
        return None;
    }
    let file = if mirror { 11 - x } else { x - 3 };
    Square::new(file, 12 - y)
}

/// The book key of a position (its `lock1`), optionally of its left-right mirror.
pub fn book_key(pos: &Position, mirror: bool) -> u32 {
    let locks = locks();
    let mut key = 0;
    for sq in Square::all() {
        if let Some(p) = pos.piece_at(sq) {
            let kind = p.kind().index() + if p.color() == Color::Black { 7 } else { 0 };
            key ^= locks.table[kind][ee_square(sq, mirror)];
        }
    }
    if pos.side_to_move() == Color::Black {
        key ^= locks.player;
    }
    key
}

/// Decodes a book move (mirrored back when it came from the mirrored position).
pub fn decode_move(raw: u16, mirror: bool) -> Option<Move> {
    let from = our_square((raw & 0xff) as u8, mirror)?;
    let to = our_square((raw >> 8) as u8, mirror)?;
    (from != to).then(|| Move::new(from, to))
}

/// Encodes a move as ElephantEye stores it (for tests and tools that write books).
pub fn encode_move(m: Move) -> u16 {
    ee_square(m.from(), false) as u16 | (ee_square(m.to(), false) as u16) << 8
}
