//! PGN text of xiangqi games in the xqbase convention (`[Game "Chinese Chess"]`,
//! `[Format "ICCS"]`, moves written `H2-E2`): the tags, a blank line, then the movetext
//! (move numbers, moves, comments, variations, the result) wrapped at 80 columns.

use super::piece::Color;
use super::position::Position;
use std::fmt::Display;

/// Columns of a movetext line.
const WIDTH: usize = 80;

/// A move as PGN writes it: ICCS in capitals with a hyphen (`h2e2` is `H2-E2`); text too short
/// to be a move is written in capitals as it is.
pub fn iccs(m: &str) -> String {
    let t = m.to_ascii_uppercase();
    match (t.get(..2), t.get(2..)) {
        (Some(from), Some(to)) => format!("{from}-{to}"),
        _ => t,
    }
}

/// The side to move and the move number of a FEN; red and move 1 when it does not parse.
pub fn start_of(fen: &str) -> (Color, u32) {
    Position::from_fen(fen)
        .map(|p| (p.side_to_move(), p.fullmove_number()))
        .unwrap_or((Color::Red, 1))
}

/// One PGN record being written: its tags, then its movetext as tokens.
#[derive(Default)]
pub struct PgnWriter {
    text: String,
    tokens: Vec<String>,
}

impl PgnWriter {
    /// An empty record.
    pub fn new() -> PgnWriter {
        PgnWriter::default()
    }

    /// A tag `[Key "value"]`, the value's quotes and backslashes escaped.
    pub fn tag(&mut self, key: &str, value: &str) {
        let value = value.replace('\\', "\\\\").replace('"', "\\\"");
        self.text.push_str(&format!("[{key} \"{value}\"]\n"));
    }

    /// Moves (ICCS) played from `side` to move at move `number`, each with an optional comment
    /// (an empty one is left out): `N.` before a red move, `N...` before a first move by black.
    /// Returns the side to move and the move number after them.
    pub fn moves<'a, M: Display>(
        &mut self,
        moves: impl IntoIterator<Item = (M, Option<&'a str>)>,
        mut side: Color,
        mut number: u32,
    ) -> (Color, u32) {
        for (i, (m, comment)) in moves.into_iter().enumerate() {
            if side == Color::Red {
                self.tokens.push(format!("{number}."));
            } else if i == 0 {
                self.tokens.push(format!("{number}..."));
            }
            self.tokens.push(iccs(&m.to_string()));
            if let Some(c) = comment.filter(|c| !c.is_empty()) {
                self.comment(c);
            }
            if side == Color::Black {
                number += 1;
            }
            side = side.flip();
        }
        (side, number)
    }

    /// A comment, `{text}`.
    pub fn comment(&mut self, text: &str) {
        self.tokens.push(format!("{{{text}}}"));
    }

    /// Any other token: the result, a parenthesis around a variation.
    pub fn token(&mut self, token: &str) {
        self.tokens.push(token.to_string());
    }

    /// The record: the tags, a blank line, the movetext wrapped at 80 columns (no space
    /// inside a variation's parentheses), a newline.
    pub fn finish(self) -> String {
        let mut out = self.text;
        out.push('\n');
        let mut line = String::new();
        for t in self.tokens {
            let glue = !line.is_empty() && t != ")" && !line.ends_with('(');
            if glue && line.len() + 1 + t.len() > WIDTH {
                out.push_str(&line);
                out.push('\n');
                line.clear();
            } else if glue {
                line.push(' ');
            }
            line.push_str(&t);
        }
        out.push_str(&line);
        out.push('\n');
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_comments_variations_and_wrapping() {
        let mut pgn = PgnWriter::new();
        pgn.tag("Event", "a \"quoted\" \\ name");
        let moves = ["h2e2", "h9g7", "h0g2"];
        let comments = [Some("+0.25/12"), Some(""), None];
        let after = pgn.moves(moves.iter().zip(comments), Color::Red, 1);
        assert_eq!(after, (Color::Black, 2));
        pgn.token("(");
        pgn.moves([("b2e2", None)], Color::Black, 2);
        pgn.token(")");
        for _ in 0..6 {
            pgn.comment("a comment long enough to need a line of its own");
        }
        pgn.token("*");
        let text = pgn.finish();
        let mut lines = text.lines();
        assert_eq!(lines.next(), Some("[Event \"a \\\"quoted\\\" \\\\ name\"]"));
        assert_eq!(lines.next(), Some(""));
        assert_eq!(
            lines.next(),
            Some("1. H2-E2 {+0.25/12} H9-G7 2. H0-G2 (2... B2-E2)")
        );
        assert!(text.lines().all(|l| l.len() <= WIDTH), "{text}");
        assert!(
            text.ends_with("}\n*\n") || text.ends_with("} *\n"),
            "{text}"
        );
    }

    #[test]
    fn start_of_a_fen_and_move_text() {
        assert_eq!(
            start_of("3k5/9/9/9/9/9/4P4/9/9/4K4 b - - 0 7"),
            (Color::Black, 7)
        );
        assert_eq!(start_of("not a fen"), (Color::Red, 1));
        assert_eq!(iccs("h2e2"), "H2-E2");
        assert_eq!(iccs("x"), "X");
    }
}
