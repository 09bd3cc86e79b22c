//! Moves as text: ICCS coordinates (`h2e2`, ranks 0-9) and the 1-10 rank numbering of
//! cutechess and Fairy-Stockfish's UCI mode (`h3e3`, `b3b10`).

use super::moves::Move;
use super::position::Position;
use super::square::{Square, RANKS};

/// How ranks are numbered in move text.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub enum RankBase {
    /// Ranks 0-9 (ICCS, UCCI, Pikafish's UCI).
    #[default]
    Zero,
    /// Ranks 1-10 (cutechess-cli, Fairy-Stockfish's UCI mode).
    One,
}

/// Why move text was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveTextError {
    /// Not of the form file, rank, file, rank.
    Malformed(String),
    /// Well formed, but not a legal move in the position.
    Illegal(String),
}

impl std::fmt::Display for MoveTextError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MoveTextError::Malformed(s) => write!(f, "malformed move '{s}'"),
            MoveTextError::Illegal(s) => write!(f, "illegal move '{s}'"),
        }
    }
}

impl std::error::Error for MoveTextError {}

fn parse_square(text: &str, base: RankBase) -> Option<Square> {
    let mut chars = text.chars();
    let file_char = chars.next()?;
    if !('a'..='i').contains(&file_char) {
        return None;
    }
    let digits = chars.as_str();
    if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if digits.len() == 2 && digits.starts_with('0') {
        return None;
    }
    let n: usize = digits.parse().ok()?;
    let rank = match base {
        RankBase::Zero => n,
        RankBase::One => n.checked_sub(1)?,
    };
    if rank >= RANKS {
        return None;
    }
    Square::new((file_char as u8 - b'a') as usize, rank)
}

/// Parses move text into squares, without looking at a position.
pub fn parse_move(text: &str, base: RankBase) -> Result<Move, MoveTextError> {
    let bad = || MoveTextError::Malformed(text.to_string());
    let lower = text.to_ascii_lowercase();
    // The second square starts at the second file letter.
    let split = lower
        .char_indices()
        .skip(1)
        .find(|(_, c)| c.is_ascii_alphabetic())
        .map(|(i, _)| i)
        .ok_or_else(bad)?;
    let from = parse_square(&lower[..split], base).ok_or_else(bad)?;
    let to = parse_square(&lower[split..], base).ok_or_else(bad)?;
    if from == to {
        return Err(bad());
    }
    Ok(Move::new(from, to))
}

/// Formats a move with the given rank numbering.
pub fn format_move(m: Move, base: RankBase) -> String {
    match base {
        RankBase::Zero => m.to_string(),
        RankBase::One => {
            let sq = |s: Square| format!("{}{}", (b'a' + s.file() as u8) as char, s.rank() + 1);
            format!("{}{}", sq(m.from()), sq(m.to()))
        }
    }
}

impl Position {
    /// Parses move text and checks that the move is legal here.
    pub fn parse_legal_move(&mut self, text: &str, base: RankBase) -> Result<Move, MoveTextError> {
        let m = parse_move(text, base)?;
        if self.is_legal(m) {
            Ok(m)
        } else {
            Err(MoveTextError::Illegal(text.to_string()))
        }
    }
}
