//! The opening book: ElephantEye's `BOOK.DAT` format, so users of the classic engines keep
//! their books. Lookup tries the position and its left-right mirror (the file stores one of
//! each pair), keeps only legal moves (32-bit keys collide), and never picks a move that
//! repeats a position of the game.

pub mod eleeye;

use crate::board::{Move, Position};

/// A book move and its weight.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The move.
    pub mv: Move,
    /// Its weight (relative frequency of choice).
    pub weight: u32,
}

/// Records sorted by key then move.
#[derive(Clone, Debug, Default)]
pub struct Book {
    records: Vec<(u32, u16, u16)>,
}

impl Book {
    /// Reads a `BOOK.DAT` file.
    pub fn open(path: &str) -> Result<Book, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("cannot read book '{path}': {e}"))?;
        Book::from_bytes(&bytes).map_err(|e| format!("book '{path}': {e}"))
    }

    /// Parses `BOOK.DAT` bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, String> {
        if bytes.len() % 8 != 0 {
            return Err(format!("{} bytes is not a whole number of 8-byte records", bytes.len()));
        }
        let mut records: Vec<(u32, u16, u16)> = bytes
            .chunks_exact(8)
            .map(|r| {
                (
                    u32::from_le_bytes([r[0], r[1], r[2], r[3]]),
                    u16::from_le_bytes([r[4], r[5]]),
                    u16::from_le_bytes([r[6], r[7]]),
                )
            })
            .collect();
        // The format promises sorted records; sorting costs little and makes lookup safe.
        records.sort_unstable();
        Ok(Book { records })
    }

    /// Number of records.
    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// True when the book holds nothing.
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    fn lookup(&self, key: u32) -> &[(u32, u16, u16)] {
        let start = self.records.partition_point(|r| r.0 < key);
        let end = self.records.partition_point(|r| r.0 <= key);
        &self.records[start..end]
    }

    /// The legal book moves for `pos`, heaviest first.
    pub fn moves(&self, pos: &mut Position) -> Vec<BookMove> {
        let mut out: Vec<BookMove> = Vec::new();
        for mirror in [false, true] {
            for &(_, raw, weight) in self.lookup(eleeye::book_key(pos, mirror)) {
                let Some(mv) = eleeye::decode_move(raw, mirror) else { continue };
                if weight > 0 && pos.is_legal(mv) && !out.iter().any(|b| b.mv == mv) {
                    out.push(BookMove {
                        mv,
                        weight: weight as u32,
                    });
                }
            }
            if !out.is_empty() {
                break;
            }
        }
        out.sort_by(|a, b| b.weight.cmp(&a.weight).then(a.mv.raw().cmp(&b.mv.raw())));
        out
    }

    /// A book move chosen at random by weight (`random`: a uniform 64-bit number), never one
    /// that repeats a position of the game nor one in `exclude` (banned moves).
    pub fn choose(&self, pos: &mut Position, random: u64, exclude: &[Move]) -> Option<BookMove> {
        let candidates: Vec<BookMove> = self
            .moves(pos)
            .into_iter()
            .filter(|b| !exclude.contains(&b.mv) && !repeats(pos, b.mv))
            .collect();
        let total: u64 = candidates.iter().map(|b| b.weight as u64).sum();
        if total == 0 {
            return None;
        }
        let mut pick = random % total;
        for b in &candidates {
            if pick < b.weight as u64 {
                return Some(*b);
            }
            pick -= b.weight as u64;
        }
        candidates.last().copied()
    }
}

/// True when playing `mv` reaches a position already seen in the game.
fn repeats(pos: &mut Position, mv: Move) -> bool {
    pos.make_move(mv);
    let key = pos.key();
    let seen = pos.history().iter().any(|u| u.key == key);
    pos.unmake_move();
    seen
}

/// Several books (`bookfiles` may list more than one, separated by `;`): the first that knows
/// the position answers.
#[derive(Clone, Debug, Default)]
pub struct BookSet {
    books: Vec<Book>,
}

impl BookSet {
    /// Opens every file of a `;`-separated list; empty entries are skipped.
    pub fn open(list: &str) -> Result<BookSet, String> {
        let books = list
            .split(';')
            .map(str::trim)
            .filter(|p| !p.is_empty() && *p != "<empty>")
            .map(Book::open)
            .collect::<Result<Vec<_>, _>>()?;
        Ok(BookSet { books })
    }

    /// True when no book is loaded.
    pub fn is_empty(&self) -> bool {
        self.books.is_empty()
    }

    /// The book moves of the first book that has any.
    pub fn moves(&self, pos: &mut Position) -> Vec<BookMove> {
        self.books
            .iter()
            .map(|b| b.moves(pos))
            .find(|m| !m.is_empty())
            .unwrap_or_default()
    }

    /// A weighted random choice from the first book that has a usable move.
    pub fn choose(&self, pos: &mut Position, random: u64, exclude: &[Move]) -> Option<BookMove> {
        self.books.iter().find_map(|b| b.choose(pos, random, exclude))
    }
}
