//! The mate set's file: one position a line, tab-separated: the FEN, the shortest forced mate
//! in moves, the first moves that force it (ICCS, space-separated) and where the position came
//! from. `#` starts a comment line.

use pao::board::{format_move, parse_move, Move, Position, RankBase};

/// One position with its proven shortest mate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MateRow {
    /// The position (the side to move mates).
    pub fen: String,
    /// The shortest forced mate, in moves of the mating side.
    pub moves: u32,
    /// Every first move that forces mate in `moves` moves.
    pub first_moves: Vec<Move>,
    /// Where it came from (free text without tabs).
    pub source: String,
}

impl MateRow {
    /// The row as a line of the file.
    pub fn line(&self) -> String {
        let firsts: Vec<String> = self
            .first_moves
            .iter()
            .map(|&m| format_move(m, RankBase::Zero))
            .collect();
        format!(
            "{}\t{}\t{}\t{}",
            self.fen,
            self.moves,
            firsts.join(" "),
            self.source
        )
    }

    /// The position.
    pub fn position(&self) -> Result<Position, String> {
        Position::from_fen(&self.fen).map_err(|e| format!("'{}': {e}", self.fen))
    }
}

/// Parses the file's text; an error names the line.
pub fn parse(text: &str) -> Result<Vec<MateRow>, String> {
    let mut rows = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim_end();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        rows.push(parse_row(line).map_err(|e| format!("line {}: {e}", i + 1))?);
    }
    Ok(rows)
}

fn parse_row(line: &str) -> Result<MateRow, String> {
    let cols: Vec<&str> = line.split('\t').collect();
    if cols.len() != 4 {
        return Err(format!("{} columns, expected 4", cols.len()));
    }
    let fen = cols[0].trim().to_string();
    let pos = Position::from_fen(&fen).map_err(|e| format!("bad FEN '{fen}': {e}"))?;
    let moves: u32 = cols[1]
        .trim()
        .parse()
        .map_err(|_| format!("bad mate length '{}'", cols[1]))?;
    if moves == 0 {
        return Err("a mate takes at least 1 move".to_string());
    }
    let mut first_moves = Vec::new();
    for text in cols[2].split_whitespace() {
        let m = parse_move(text, RankBase::Zero).map_err(|e| format!("move '{text}': {e}"))?;
        if !pos.clone().is_legal(m) {
            return Err(format!("move '{text}' is not legal in the position"));
        }
        first_moves.push(m);
    }
    if first_moves.is_empty() {
        return Err("no mating first move".to_string());
    }
    Ok(MateRow {
        fen,
        moves,
        first_moves,
        source: cols[3].trim().to_string(),
    })
}

/// Reads and parses `path`.
pub fn load(path: &str) -> Result<Vec<MateRow>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    parse(&text).map_err(|e| format!("{path}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_round_trip_and_errors_name_the_line() {
        let text = "# comment\n4k4/R8/8R/9/9/9/9/9/9/3K5 w - - 0 1\t1\ti7i9\tcomposed\n";
        let rows = parse(text).expect("parses");
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].line(), text.lines().nth(1).expect("row"));
        let bad = "4k4/R8/8R/9/9/9/9/9/9/3K5 w - - 0 1\t1\ta0a1\tcomposed\n";
        let e = parse(&format!("# c\n{bad}")).expect_err("illegal move");
        assert!(e.starts_with("line 2: move 'a0a1'"), "{e}");
        let e = parse("4k4/R8/8R/9/9/9/9/9/9/3K5 w - - 0 1\t0\ti7i9\tx").expect_err("zero");
        assert!(e.contains("at least 1"), "{e}");
        assert!(parse("x\t1\ti7i9").is_err());
    }
}
