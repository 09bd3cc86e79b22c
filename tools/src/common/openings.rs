//! Openings: a start FEN plus moves, from a file or from the built-in balanced set (the starts
//! of matches, self-play data and the mate finder's games).

use pao::board::rules::{game_result, GameResult};
use pao::board::{Move, Position, RankBase, START_FEN};

/// A few common, balanced openings as ICCS moves from the start position.
pub const BUILTIN: &[&str] = &[
    "h2e2 h9g7",
    "h2e2 h7e7",
    "h2e2 b7e7",
    "h2e2 b9c7",
    "h2e2 h9g7 h0g2 i9h9",
    "h2e2 h9g7 h0g2 g6g5",
    "h2e2 h7e7 h0g2 h9g7",
    "b2e2 h9g7",
    "c3c4 g6g5",
    "c3c4 b9c7",
    "c3c4 c6c5",
    "g3g4 c6c5",
    "c0e2 h9g7",
    "c0e2 c6c5",
    "c0e2 b9c7",
    "b0c2 h9g7",
    "h2d2 h9g7",
    "h2f2 b9c7",
];

/// A start position for a game: the FEN the game starts from and the moves played at once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The FEN the game record starts from.
    pub fen: String,
    /// Moves played before the engines take over.
    pub moves: Vec<Move>,
}

impl Opening {
    /// True when the game starts from the standard start position.
    pub fn is_startpos(&self) -> bool {
        same_fen(&self.fen, START_FEN)
    }

    /// The position after the opening moves.
    pub fn position(&self) -> Result<Position, String> {
        let mut pos =
            Position::from_fen(&self.fen).map_err(|e| format!("bad FEN '{}': {e}", self.fen))?;
        for &m in &self.moves {
            if !pos.is_legal(m) {
                return Err(format!("illegal opening move {m}"));
            }
            pos.make_move(m);
        }
        Ok(pos)
    }
}

/// Compares FENs by placement and side only (the counters do not matter here).
fn same_fen(a: &str, b: &str) -> bool {
    let head = |s: &str| s.split_whitespace().take(2).collect::<Vec<_>>().join(" ");
    head(a) == head(b)
}

/// The FEN of an EPD line (four fields, then operations such as `hmvc 0; fmvn 4;`), with the
/// counters from `hmvc` and `fmvn`; None when the line is no EPD (it has no operations).
fn epd_fen(line: &str) -> Option<String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.len() < 5 || !line.contains(';') {
        return None;
    }
    let operand = |code: &str| {
        let at = words.iter().position(|w| *w == code)?;
        let value = words.get(at + 1)?.trim_end_matches(';');
        value.parse::<u32>().ok()
    };
    Some(format!(
        "{} {} {}",
        words[..4].join(" "),
        operand("hmvc").unwrap_or(0),
        operand("fmvn").unwrap_or(1)
    ))
}

/// Parses one opening line: a FEN (optionally followed by `moves ...`), an EPD line (its
/// position), or ICCS moves from the start position. Checks that every move is legal and that
/// the game is not already over.
pub fn parse_line(line: &str) -> Result<Opening, String> {
    let line = line.trim();
    let (fen, moves_text) = if let Some(fen) = epd_fen(line) {
        (fen, "")
    } else if line.contains('/') {
        match line.split_once(" moves ") {
            Some((f, m)) => (f.trim().to_string(), m),
            None => (line.to_string(), ""),
        }
    } else {
        (START_FEN.to_string(), line)
    };
    let mut pos = Position::from_fen(&fen).map_err(|e| format!("bad FEN '{fen}': {e}"))?;
    let mut moves = Vec::new();
    for text in moves_text.split_whitespace() {
        let m = pos
            .parse_legal_move(text, RankBase::Zero)
            .map_err(|e| format!("{e} in opening '{line}'"))?;
        pos.make_move(m);
        moves.push(m);
    }
    if let GameResult::Win { reason, .. } | GameResult::Draw { reason } = game_result(&mut pos) {
        return Err(format!("opening '{line}' is already over ({reason})"));
    }
    Ok(Opening { fen, moves })
}

/// Parses an openings file: one opening per line; blank lines and `#` comments are skipped.
pub fn parse_file(text: &str) -> Result<Vec<Opening>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        out.push(parse_line(t).map_err(|e| format!("line {}: {e}", i + 1))?);
    }
    if out.is_empty() {
        return Err("no openings in the file".to_string());
    }
    Ok(out)
}

/// Loads openings from a file, or the built-in set when no file is given.
pub fn load(path: Option<&str>) -> Result<Vec<Opening>, String> {
    match path {
        Some(p) => {
            let text = std::fs::read_to_string(p)
                .map_err(|e| format!("cannot read openings '{p}': {e}"))?;
            parse_file(&text).map_err(|e| format!("{p}: {e}"))
        }
        None => BUILTIN.iter().map(|l| parse_line(l)).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_openings_are_legal_and_distinct() {
        let all = load(None).unwrap();
        assert_eq!(all.len(), BUILTIN.len());
        for (o, text) in all.iter().zip(BUILTIN) {
            assert!(o.is_startpos());
            assert_eq!(o.moves.len(), text.split_whitespace().count());
            assert!(o.position().is_ok());
        }
        let mut keys: Vec<u64> = all.iter().map(|o| o.position().unwrap().key()).collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), BUILTIN.len());
    }

    #[test]
    fn committed_balanced_openings_are_many_and_distinct() {
        let text = include_str!("../../data/balanced-openings.txt");
        let all = parse_file(text).unwrap();
        assert_eq!(all.len(), 300);
        let mut keys: Vec<u64> = all.iter().map(|o| o.position().unwrap().key()).collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), 300);
        assert!(all.iter().all(|o| o.is_startpos() && o.moves.len() == 6));
    }

    #[test]
    fn file_lines_fen_and_moves() {
        let text = "# comment\n\nh2e2 h9g7\n3k5/9/9/9/9/9/4P4/9/9/4K4 w - - 0 1 moves e3e4\n";
        let got = parse_file(text).unwrap();
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].moves.len(), 2);
        assert!(!got[1].is_startpos());
        assert_eq!(got[1].moves[0].to_string(), "e3e4");
        let err = parse_file("h2e2 h2e3\n").unwrap_err();
        assert!(err.starts_with("line 1: illegal move 'h2e3'"), "{err}");
        assert!(parse_file("# nothing\n").is_err());
        assert!(parse_line("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1").is_err());
        // An EPD line is its position, with the counters of its operations.
        let epd =
            parse_line("3k5/9/9/9/9/9/4P4/9/9/4K4 b - - hmvc 3; fmvn 9; c0 \"x y\";").unwrap();
        assert_eq!(epd.fen, "3k5/9/9/9/9/9/4P4/9/9/4K4 b - - 3 9");
        assert!(epd.moves.is_empty());
    }
}
