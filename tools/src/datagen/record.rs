//! The training-data file: a 32-byte header, then fixed-size 32-byte position records
//! (described in docs/data-format.md). Fixed size makes the file seekable, splittable for a
//! validation slice, and safe to append to: a run that is interrupted keeps every whole game.

use pao::board::{Color, Piece, Position, Square, SQUARES};
use std::io::{Read, Write};

/// The file's first 8 bytes.
pub const MAGIC: &[u8; 8] = b"PAOXQDAT";
/// Format version in the header.
pub const VERSION: u32 = 1;
/// Bytes per record.
pub const RECORD_SIZE: usize = 32;
/// Bytes of the header.
pub const HEADER_SIZE: usize = 32;
/// Most pieces a record can hold (the 32 of a full board).
pub const MAX_PIECES: usize = 32;

/// The game's result from the side to move's point of view.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub enum Outcome {
    /// The side to move lost the game.
    Loss = 0,
    /// Drawn.
    Draw = 1,
    /// The side to move won the game.
    Win = 2,
}

impl Outcome {
    /// 0, 0.5 or 1: the training target's result part.
    pub fn value(self) -> f32 {
        self as u8 as f32 / 2.0
    }

    /// The same result seen from the other side.
    pub fn flip(self) -> Outcome {
        match self {
            Outcome::Loss => Outcome::Win,
            Outcome::Draw => Outcome::Draw,
            Outcome::Win => Outcome::Loss,
        }
    }
}

/// One kept position.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Record {
    /// The board as 12 bytes of occupancy and 16 bytes of 4-bit piece codes.
    pub board: [u8; 28],
    /// The side to move.
    pub side: Color,
    /// True for the first kept position of a game (games are counted by it).
    pub first_of_game: bool,
    /// The game's result for the side to move.
    pub outcome: Outcome,
    /// The search score in centipawns, side to move's view.
    pub score: i16,
}

/// Why a file or record could not be read.
#[derive(Debug, PartialEq, Eq)]
pub struct FormatError(pub String);

impl std::fmt::Display for FormatError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl Record {
    /// Packs `pos` with its score and result; `None` when it has more than 32 pieces.
    pub fn new(
        pos: &Position,
        score: i16,
        outcome: Outcome,
        first_of_game: bool,
    ) -> Option<Record> {
        let mut board = [0u8; 28];
        let mut count = 0;
        for sq in Square::all() {
            if let Some(piece) = pos.piece_at(sq) {
                if count == MAX_PIECES {
                    return None;
                }
                board[sq.index() / 8] |= 1 << (sq.index() % 8);
                board[12 + count / 2] |= (piece.code() as u8) << (4 * (count % 2));
                count += 1;
            }
        }
        Some(Record {
            board,
            side: pos.side_to_move(),
            first_of_game,
            outcome,
            score,
        })
    }

    /// The pieces and their squares, in square order.
    pub fn pieces(&self) -> impl Iterator<Item = (Piece, Square)> + '_ {
        let mut count = 0;
        (0..SQUARES).filter_map(move |i| {
            if self.board[i / 8] & (1 << (i % 8)) == 0 {
                return None;
            }
            let code = (self.board[12 + count / 2] >> (4 * (count % 2))) & 15;
            count += 1;
            Some((Piece::from_code(code), Square::from_index(i)))
        })
    }

    /// The 32 bytes of the record.
    pub fn encode(&self) -> [u8; RECORD_SIZE] {
        let mut out = [0u8; RECORD_SIZE];
        out[..28].copy_from_slice(&self.board);
        out[28] = (self.side == Color::Black) as u8 | (self.first_of_game as u8) << 1;
        out[29] = self.outcome as u8;
        out[30..32].copy_from_slice(&self.score.to_le_bytes());
        out
    }

    /// Reads a record, checking what can be checked cheaply (piece codes, result, flags).
    pub fn decode(bytes: &[u8; RECORD_SIZE]) -> Result<Record, FormatError> {
        let mut board = [0u8; 28];
        board.copy_from_slice(&bytes[..28]);
        let occupied: u32 = board[..12].iter().map(|b| b.count_ones()).sum();
        if occupied as usize > MAX_PIECES || board[11] & 0xfc != 0 {
            return Err(FormatError("bad occupancy bits".into()));
        }
        let outcome = match bytes[29] {
            0 => Outcome::Loss,
            1 => Outcome::Draw,
            2 => Outcome::Win,
            v => return Err(FormatError(format!("bad result byte {v}"))),
        };
        if bytes[28] & !3 != 0 {
            return Err(FormatError(format!("bad flags byte {}", bytes[28])));
        }
        let record = Record {
            board,
            side: if bytes[28] & 1 == 1 {
                Color::Black
            } else {
                Color::Red
            },
            first_of_game: bytes[28] & 2 != 0,
            outcome,
            score: i16::from_le_bytes([bytes[30], bytes[31]]),
        };
        for i in 0..occupied as usize {
            let code = (record.board[12 + i / 2] >> (4 * (i % 2))) & 15;
            if code & 7 == 7 {
                return Err(FormatError(format!("bad piece code {code}")));
            }
        }
        Ok(record)
    }

    /// Checks that the record is a position of a game: one general a side in its palace, every
    /// piece on a square it can reach, the generals not facing, the side that just moved not
    /// in check (what the FEN reader checks; the result was checked by `decode`).
    pub fn check(&self) -> Result<(), FormatError> {
        Position::from_fen(&self.fen())
            .map(|_| ())
            .map_err(|e| FormatError(format!("not a legal position: {e}")))
    }

    /// The position as a FEN (counters zero).
    pub fn fen(&self) -> String {
        let mut grid = [None; SQUARES];
        for (piece, sq) in self.pieces() {
            grid[sq.index()] = Some(piece);
        }
        let mut fen = String::new();
        for rank in (0..10).rev() {
            let mut empty = 0;
            for file in 0..9 {
                match grid[rank * 9 + file] {
                    Some(p) => {
                        if empty > 0 {
                            fen.push_str(&empty.to_string());
                            empty = 0;
                        }
                        fen.push(p.letter());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                fen.push_str(&empty.to_string());
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        let side = if self.side == Color::Red { 'w' } else { 'b' };
        format!("{fen} {side} - - 0 1")
    }
}

/// Writes the header of a new file.
pub fn write_header(out: &mut impl Write) -> std::io::Result<()> {
    let mut header = [0u8; HEADER_SIZE];
    header[..8].copy_from_slice(MAGIC);
    header[8..12].copy_from_slice(&VERSION.to_le_bytes());
    header[12..16].copy_from_slice(&(RECORD_SIZE as u32).to_le_bytes());
    out.write_all(&header)
}

/// Reads and checks a header.
pub fn read_header(input: &mut impl Read) -> Result<(), FormatError> {
    let mut header = [0u8; HEADER_SIZE];
    input
        .read_exact(&mut header)
        .map_err(|_| FormatError("file too short for a header".into()))?;
    if &header[..8] != MAGIC {
        return Err(FormatError("not a Pao data file (bad magic)".into()));
    }
    let version = u32::from_le_bytes([header[8], header[9], header[10], header[11]]);
    let size = u32::from_le_bytes([header[12], header[13], header[14], header[15]]);
    if version != VERSION || size as usize != RECORD_SIZE {
        return Err(FormatError(format!(
            "unsupported data version {version} (record size {size}); this build reads version {VERSION}"
        )));
    }
    Ok(())
}

/// The broken records of a file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Broken {
    /// How many.
    pub count: u64,
    /// The byte offset of the first and why it is broken.
    pub first: Option<(u64, String)>,
    /// How many records end the file broken (a torn or overwritten tail).
    pub tail: u64,
}

impl Broken {
    /// The warning line for `path` (records in all: `total`).
    pub fn warning(&self, path: &str, total: u64) -> String {
        let (offset, why) = self.first.clone().unwrap_or_default();
        format!(
            "{path}: {} of {total} records broken and skipped (the first at byte {offset}: {why})",
            self.count
        )
    }

    /// Whether most of `total` records are broken: such a file is refused, not read.
    pub fn most_of(&self, total: u64) -> bool {
        self.count * 2 > total
    }
}

/// Reads a whole data file: its records, each checked; a broken record is counted and skipped
/// with one warning for the file, and a file mostly broken is an error. A trailing partial
/// record (an interrupted write) is ignored.
pub fn read_file(path: &str) -> Result<Vec<Record>, FormatError> {
    let bytes = std::fs::read(path).map_err(|e| FormatError(format!("{path}: {e}")))?;
    let (records, broken) = read_bytes(&bytes).map_err(|e| FormatError(format!("{path}: {e}")))?;
    let total = records.len() as u64 + broken.count;
    if broken.most_of(total) {
        return Err(FormatError(format!(
            "{}; most of the file is broken: not read",
            broken.warning(path, total)
        )));
    }
    if broken.count > 0 {
        eprintln!("warning: {}", broken.warning(path, total));
    }
    Ok(records)
}

/// Parses the bytes of a data file: the good records and the broken ones.
pub fn read_bytes(bytes: &[u8]) -> Result<(Vec<Record>, Broken), FormatError> {
    use rayon::prelude::*;
    let mut head = bytes;
    read_header(&mut head)?;
    let checked: Vec<Result<Record, FormatError>> = head
        .par_chunks_exact(RECORD_SIZE)
        .map(|chunk| {
            let mut r = [0u8; RECORD_SIZE];
            r.copy_from_slice(chunk);
            let record = Record::decode(&r)?;
            record.check()?;
            Ok(record)
        })
        .collect();
    let mut records = Vec::with_capacity(checked.len());
    let mut broken = Broken::default();
    for (i, r) in checked.into_iter().enumerate() {
        match r {
            Ok(record) => {
                records.push(record);
                broken.tail = 0;
            }
            Err(e) => {
                broken.count += 1;
                broken.tail += 1;
                broken
                    .first
                    .get_or_insert(((HEADER_SIZE + i * RECORD_SIZE) as u64, e.0));
            }
        }
    }
    Ok((records, broken))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_round_trips_and_rebuilds_its_position() {
        let fen = "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R b - - 0 1";
        let pos = Position::from_fen(fen).expect("fen");
        let rec = Record::new(&pos, -37, Outcome::Win, true).expect("32 pieces fit");
        let bytes = rec.encode();
        assert_eq!(bytes[28], 3);
        assert_eq!(bytes[29], 2);
        assert_eq!(i16::from_le_bytes([bytes[30], bytes[31]]), -37);
        let back = Record::decode(&bytes).expect("decodes");
        assert_eq!(back, rec);
        assert_eq!(back.fen(), fen);
        assert_eq!(back.pieces().count(), 32);
    }

    #[test]
    fn bad_bytes_are_errors() {
        let pos = Position::startpos();
        let mut bytes = Record::new(&pos, 0, Outcome::Draw, false)
            .expect("fits")
            .encode();
        bytes[29] = 3;
        assert_eq!(
            Record::decode(&bytes),
            Err(FormatError("bad result byte 3".into()))
        );
        let mut file = Vec::new();
        write_header(&mut file).expect("vec");
        file[8] = 9;
        assert!(read_bytes(&file).is_err());
        assert!(read_bytes(b"PAOX").is_err());
    }

    #[test]
    fn broken_records_are_counted_and_skipped_and_a_mostly_broken_file_refused() {
        let good = |side| {
            let pos = Position::from_fen(&format!("4k4/9/9/9/9/9/9/9/4A4/3AK4 {side} - - 0 1"))
                .expect("fen");
            Record::new(&pos, 0, Outcome::Draw, true)
                .expect("fits")
                .encode()
        };
        // Black to move in check from the rook is a position; red to move in it is not: black,
        // who just moved, left its general in check. Zeros are an empty board.
        let checked = Position::from_fen("4k4/4R4/9/9/9/9/9/9/9/3K5 b - - 0 1").expect("fen");
        let mut illegal = Record::new(&checked, 0, Outcome::Loss, true)
            .expect("fits")
            .encode();
        assert!(Record::decode(&illegal).expect("decodes").check().is_ok());
        illegal[28] &= !1;
        let err = Record::decode(&illegal)
            .expect("decodes")
            .check()
            .expect_err("illegal");
        assert!(err.0.starts_with("not a legal position:"), "{}", err.0);
        let mut file = Vec::new();
        write_header(&mut file).expect("vec");
        for r in [
            good("w"),
            [0u8; RECORD_SIZE],
            good("b"),
            illegal,
            [0u8; RECORD_SIZE],
        ] {
            file.extend_from_slice(&r);
        }
        let (records, broken) = read_bytes(&file).expect("a header");
        assert_eq!(records.len(), 2);
        assert_eq!(broken.count, 3);
        assert_eq!(broken.tail, 2);
        let (offset, why) = broken.first.clone().expect("a first");
        assert_eq!(offset, (HEADER_SIZE + RECORD_SIZE) as u64);
        assert!(why.starts_with("not a legal position:"), "{why}");
        assert_eq!(
            broken.warning("d.bin", 5),
            format!("d.bin: 3 of 5 records broken and skipped (the first at byte 64: {why})")
        );
        assert!(broken.most_of(5) && !broken.most_of(6));
        let path = std::env::temp_dir().join(format!("pao-broken-{}.bin", std::process::id()));
        std::fs::write(&path, &file).expect("written");
        let err = read_file(path.to_str().expect("utf-8")).expect_err("mostly broken");
        assert!(
            err.0.ends_with("most of the file is broken: not read"),
            "{}",
            err.0
        );
        file.extend_from_slice(&good("w"));
        file.extend_from_slice(&good("w"));
        std::fs::write(&path, &file).expect("written");
        assert_eq!(
            read_file(path.to_str().expect("utf-8"))
                .expect("read")
                .len(),
            4
        );
        std::fs::remove_file(&path).ok();
    }
}
