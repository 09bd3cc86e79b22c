//! FEN in and out, with errors that say what is wrong and where; the start position, and
//! `Debug` for positions (as their FEN). The position itself knows nothing of FEN text.

use super::piece::{Color, Piece, PieceKind};
use super::position::Position;
use super::square::{Square, FILES, RANKS};

/// The start position.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// Why a FEN was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// Nothing but white space.
    Empty,
    /// The placement does not have ten ranks.
    RankCount(usize),
    /// A rank (counted from the top, 1 = rank 9) does not describe nine files.
    FileCount {
        /// ICCS rank number (9 = black's back rank).
        rank: usize,
        /// Files it described.
        files: usize,
    },
    /// A character that is neither a piece letter nor a digit 1-9.
    UnknownLetter {
        /// The character.
        letter: char,
        /// ICCS rank where it stands.
        rank: usize,
    },
    /// A side does not have exactly one general.
    GeneralCount {
        /// The side.
        color: Color,
        /// How many it has.
        count: usize,
    },
    /// A side has more pieces of a kind than the game starts with.
    TooMany {
        /// The piece letter.
        letter: char,
        /// How many.
        count: usize,
    },
    /// A general or advisor outside its palace, or an elephant across the river: the rules
    /// give such a piece no moves.
    Unreachable {
        /// The piece letter.
        letter: char,
        /// Its square.
        square: Square,
    },
    /// The two generals face each other on an open file.
    GeneralsFacing,
    /// The side that is not to move is in check.
    OpponentInCheck,
    /// The side-to-move field is not `w`, `r` or `b`.
    BadSide(String),
    /// A move counter is not a number.
    BadCounter(String),
}

impl std::fmt::Display for FenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FenError::Empty => write!(f, "empty FEN"),
            FenError::RankCount(n) => write!(f, "FEN has {n} ranks, expected 10"),
            FenError::FileCount { rank, files } => {
                write!(f, "FEN rank {rank} has {files} files, expected 9")
            }
            FenError::UnknownLetter { letter, rank } => {
                write!(f, "unknown letter '{letter}' in FEN rank {rank}")
            }
            FenError::GeneralCount { color, count } => {
                let side = if *color == Color::Red { "red" } else { "black" };
                write!(f, "{side} has {count} generals, expected exactly 1")
            }
            FenError::TooMany { letter, count } => {
                write!(
                    f,
                    "{count} pieces '{letter}' on the board, more than a side owns"
                )
            }
            FenError::Unreachable { letter, square } => {
                write!(f, "piece '{letter}' on {square} can never stand there")
            }
            FenError::GeneralsFacing => write!(f, "the generals face each other on an open file"),
            FenError::OpponentInCheck => write!(f, "the side not to move is in check"),
            FenError::BadSide(s) => write!(f, "side to move '{s}' is not w, r or b"),
            FenError::BadCounter(s) => write!(f, "move counter '{s}' is not a number"),
        }
    }
}

impl std::error::Error for FenError {}

/// True when the rules define the moves of `piece` on `sq`: generals and advisors in their own
/// palace, elephants on their own side of the river, everything else anywhere. Composed
/// positions (studies, puzzles) put pieces where no game could (an advisor on a palace edge, an
/// elephant off its seven points, a soldier behind its starting rank); they are accepted and
/// searched, as Pikafish and Fairy-Stockfish do.
pub fn square_reachable(piece: Piece, sq: Square) -> bool {
    let color = piece.color();
    match piece.kind() {
        PieceKind::General | PieceKind::Advisor => sq.in_palace(color),
        PieceKind::Elephant => sq.on_own_side(color),
        PieceKind::Soldier | PieceKind::Horse | PieceKind::Rook | PieceKind::Cannon => true,
    }
}

const MAX_COUNT: [usize; 7] = [1, 2, 2, 2, 2, 2, 5];

impl Position {
    /// The start position.
    pub fn startpos() -> Position {
        match Position::from_fen(START_FEN) {
            Ok(p) => p,
            Err(e) => unreachable!("start FEN is valid: {e}"),
        }
    }

    /// Parses a FEN. The side may be `w`/`r` (red) or `b`; `h`/`e` are accepted for horse and
    /// elephant; the trailing fields may be missing.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let mut fields = fen.split_whitespace();
        let placement = fields.next().ok_or(FenError::Empty)?;
        // Some GUIs append a holdings field in brackets ("...B2[] w"); it carries nothing here.
        let placement = placement.split('[').next().unwrap_or(placement);
        let ranks: Vec<&str> = placement.split('/').collect();
        if ranks.len() != RANKS {
            return Err(FenError::RankCount(ranks.len()));
        }
        let mut pos = Position::empty();
        let mut counts = [[0usize; 7]; 2];
        for (i, text) in ranks.iter().enumerate() {
            let rank = RANKS - 1 - i;
            let mut file = 0usize;
            for c in text.chars() {
                if let Some(d) = c.to_digit(10).filter(|d| (1..=9).contains(d)) {
                    file += d as usize;
                    continue;
                }
                let piece =
                    Piece::from_letter(c).ok_or(FenError::UnknownLetter { letter: c, rank })?;
                if file >= FILES {
                    file += 1;
                    continue;
                }
                let Some(sq) = Square::new(file, rank) else {
                    unreachable!("file and rank are in range")
                };
                if !square_reachable(piece, sq) {
                    return Err(FenError::Unreachable {
                        letter: piece.letter(),
                        square: sq,
                    });
                }
                counts[piece.color().index()][piece.kind().index()] += 1;
                pos.put(sq, piece);
                file += 1;
            }
            if file != FILES {
                return Err(FenError::FileCount { rank, files: file });
            }
        }
        for color in Color::BOTH {
            let n = counts[color.index()][PieceKind::General.index()];
            if n != 1 {
                return Err(FenError::GeneralCount { color, count: n });
            }
            for kind in PieceKind::ALL {
                let n = counts[color.index()][kind.index()];
                if n > MAX_COUNT[kind.index()] {
                    return Err(FenError::TooMany {
                        letter: Piece::new(color, kind).letter(),
                        count: n,
                    });
                }
            }
        }
        let side = match fields.next() {
            None => Color::Red,
            Some("w") | Some("r") | Some("W") | Some("R") => Color::Red,
            Some("b") | Some("B") => Color::Black,
            Some(s) => return Err(FenError::BadSide(s.to_string())),
        };
        // Castling and en-passant fields ("- -") carry nothing in xiangqi.
        let rest: Vec<&str> = fields.collect();
        let counters: Vec<&str> = rest.into_iter().filter(|s| *s != "-").collect();
        let parse = |s: &str| {
            s.parse::<u16>()
                .map_err(|_| FenError::BadCounter(s.to_string()))
        };
        let clock = counters.first().map(|s| parse(s)).transpose()?.unwrap_or(0);
        let fullmove = counters.get(1).map(|s| parse(s)).transpose()?.unwrap_or(1);
        if pos.generals_facing() {
            return Err(FenError::GeneralsFacing);
        }
        pos.finish_setup(side, clock, fullmove);
        if pos.is_attacked(pos.general(side.flip()), side) {
            return Err(FenError::OpponentInCheck);
        }
        Ok(pos)
    }

    /// The FEN of this position, with `w` for red.
    pub fn to_fen(&self) -> String {
        let mut s = String::with_capacity(96);
        for rank in (0..RANKS).rev() {
            let mut empty = 0;
            for file in 0..FILES {
                let sq = Square::from_index(rank * FILES + file);
                match self.piece_at(sq) {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            s.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        s.push(p.letter());
                    }
                }
            }
            if empty > 0 {
                s.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                s.push('/');
            }
        }
        let side = if self.side == Color::Red { 'w' } else { 'b' };
        s.push_str(&format!(" {side} - - {} {}", self.clock, self.fullmove));
        s
    }
}

/// The FEN with the colours swapped: ranks mirrored (rank r becomes rank 9 - r), red pieces
/// black and black red, the other side to move; counters kept. Stockfish's `flip`, for
/// xiangqi: the evaluation of a position and of its flip must agree.
pub fn flipped_fen(fen: &str) -> String {
    let mut fields = fen.split_whitespace();
    let placement = fields.next().unwrap_or("");
    let ranks: Vec<String> = placement
        .split('/')
        .rev()
        .map(|rank| {
            rank.chars()
                .map(|c| {
                    if c.is_ascii_uppercase() {
                        c.to_ascii_lowercase()
                    } else {
                        c.to_ascii_uppercase()
                    }
                })
                .collect()
        })
        .collect();
    let side = match fields.next() {
        Some("b") | Some("B") => "w",
        _ => "b",
    };
    let rest: Vec<&str> = fields.collect();
    let mut out = format!("{} {side}", ranks.join("/"));
    for field in rest {
        out.push(' ');
        out.push_str(field);
    }
    out
}

impl Position {
    /// This position with the colours swapped ([`flipped_fen`]); the history is not kept.
    pub fn flipped(&self) -> Result<Position, FenError> {
        Position::from_fen(&flipped_fen(&self.to_fen()))
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", self.to_fen())
    }
}
