//! The opening book: ElephantEye's `BOOK.DAT` format, so users of the classic engines keep
//! their books, and Pao's own format built from game records (`builder.rs`). Lookup tries the position and its left-right mirror (the file stores one of
//! each pair), keeps only legal moves (32-bit keys collide), and never picks a move that
//! repeats a position of the game.

pub mod builder;
pub mod eleeye;

use crate::board::{Move, Position};

/// Magic at the start of Pao's own book format.
pub const PAO_MAGIC: &[u8; 8] = b"PAOBOOK1";

/// A book move and its weight.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The move.
    pub mv: Move,
    /// Its weight (relative frequency of choice).
    pub weight: u32,
}

/// Which key and move encoding a book uses.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Format {
    /// ElephantEye's BOOK.DAT: 32-bit lock1 keys, mailbox moves, one of each mirror pair.
    #[default]
    EleEye,
    /// Pao's book: 64-bit Pao keys, Pao moves, both mirror halves stored.
    Pao,
}

/// Records (key, move, weight) sorted by key then move.
#[derive(Clone, Debug, Default)]
pub struct Book {
    format: Format,
    records: Vec<(u64, u16, u16)>,
}

impl Book {
    /// Reads a `BOOK.DAT` file.
    pub fn open(path: &str) -> Result<Book, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("cannot read book '{path}': {e}"))?;
        Book::from_bytes(&bytes).map_err(|e| format!("book '{path}': {e}"))
    }

    /// Parses a book: Pao's format when it starts with `PAOBOOK1`, else `BOOK.DAT`.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, String> {
        if let Some(body) = bytes.strip_prefix(PAO_MAGIC.as_slice()) {
            return Book::from_pao(body);
        }
        if !bytes.len().is_multiple_of(8) {
            return Err(format!(
                "{} bytes is not a whole number of 8-byte records",
                bytes.len()
            ));
        }
        let mut records: Vec<(u64, u16, u16)> = bytes
            .chunks_exact(8)
            .map(|r| {
                (
                    u32::from_le_bytes([r[0], r[1], r[2], r[3]]) as u64,
                    u16::from_le_bytes([r[4], r[5]]),
                    u16::from_le_bytes([r[6], r[7]]),
                )
            })
            .collect();
        // The format promises sorted records; sorting costs little and makes lookup safe.
        records.sort_unstable();
        Ok(Book {
            format: Format::EleEye,
            records,
        })
    }

    /// Pao's format after the magic: u32 count, then 12-byte records `u64 key, u16 move,
    /// u16 weight`, little-endian, sorted.
    fn from_pao(body: &[u8]) -> Result<Book, String> {
        let count = body
            .get(..4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]) as usize)
            .ok_or("truncated header")?;
        let data = &body[4..];
        if data.len() != count.saturating_mul(12) {
            return Err(format!(
                "{count} records announced, {} bytes present",
                data.len()
            ));
        }
        let mut records: Vec<(u64, u16, u16)> = data
            .chunks_exact(12)
            .map(|r| {
                let mut k = [0u8; 8];
                k.copy_from_slice(&r[..8]);
                (
                    u64::from_le_bytes(k),
                    u16::from_le_bytes([r[8], r[9]]),
                    u16::from_le_bytes([r[10], r[11]]),
                )
            })
            .collect();
        records.sort_unstable();
        Ok(Book {
            format: Format::Pao,
            records,
        })
    }

    /// Pao's format from (key, move, weight) entries.
    pub fn pao_bytes(entries: &[(u64, Move, u16)]) -> Vec<u8> {
        let mut sorted: Vec<(u64, u16, u16)> =
            entries.iter().map(|&(k, m, w)| (k, m.raw(), w)).collect();
        sorted.sort_unstable();
        let mut out = PAO_MAGIC.to_vec();
        out.extend_from_slice(&(sorted.len() as u32).to_le_bytes());
        for (k, m, w) in sorted {
            out.extend_from_slice(&k.to_le_bytes());
            out.extend_from_slice(&m.to_le_bytes());
            out.extend_from_slice(&w.to_le_bytes());
        }
        out
    }

    /// The book's format.
    pub fn format(&self) -> Format {
        self.format
    }

    /// Number of records.
    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// True when the book holds nothing.
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    fn lookup(&self, key: u64) -> &[(u64, u16, u16)] {
        let start = self.records.partition_point(|r| r.0 < key);
        let end = self.records.partition_point(|r| r.0 <= key);
        &self.records[start..end]
    }

    /// The legal book moves for `pos`, heaviest first.
    pub fn moves(&self, pos: &mut Position) -> Vec<BookMove> {
        let mut out: Vec<BookMove> = Vec::new();
        let mirrors: &[bool] = match self.format {
            Format::EleEye => &[false, true],
            Format::Pao => &[false],
        };
        for &mirror in mirrors {
            let key = match self.format {
                Format::EleEye => eleeye::book_key(pos, mirror) as u64,
                Format::Pao => pos.key(),
            };
            for &(_, raw, weight) in self.lookup(key) {
                let decoded = match self.format {
                    Format::EleEye => eleeye::decode_move(raw, mirror),
                    Format::Pao => Move::from_raw(raw),
                };
                let Some(mv) = decoded else { continue };
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
        self.books
            .iter()
            .find_map(|b| b.choose(pos, random, exclude))
    }
}
