//! The board and the engine's lines as PGN, written by `board::pgn` as `pao-tools match`
//! writes its games: the moves played, then the first line as the main line and every other
//! line as a variation of its first move, each line after a comment with its score and depth.

use super::events::{Info, Score};
use crate::board::pgn::{start_of, PgnWriter};
use crate::board::START_FEN;

/// `+1.25/18`, `#5/20` (mate in 5), `#-3/12`, `R+7/15` (a rule win in 7 plies).
fn score_text(score: &Score, depth: u32) -> String {
    let s = match score.kind {
        "mate" => format!("#{}", score.value),
        "rule" => format!("R{:+}", score.value),
        _ => format!("{:+.2}", f64::from(score.value) / 100.0),
    };
    format!("{s}/{depth}")
}

/// Moves without comments, for the writer.
fn plain(moves: &[String]) -> impl Iterator<Item = (&String, Option<&str>)> {
    moves.iter().map(|m| (m, None))
}

/// The PGN of the game from `fen` with `moves`, the engine's `lines` from the position after
/// them, and `result` (`*` while the game goes on).
pub fn format(fen: &str, moves: &[String], lines: &[Info], result: &str) -> String {
    let mut pgn = PgnWriter::new();
    pgn.tag("Game", "Chinese Chess");
    pgn.tag("Event", "Pao analysis");
    pgn.tag("Site", "pao serve");
    pgn.tag("Result", result);
    if fen != START_FEN {
        pgn.tag("FEN", fen);
    }
    pgn.tag("Format", "ICCS");

    let (side, number) = start_of(fen);
    // Where the lines start.
    let (side, number) = pgn.moves(plain(moves), side, number);
    let lines: Vec<&Info> = lines.iter().filter(|l| !l.fields.pv.is_empty()).collect();
    if let Some((first, others)) = lines.split_first() {
        let main = &first.fields;
        pgn.comment(&score_text(&main.score, main.depth));
        if others.is_empty() {
            pgn.moves(plain(&main.pv), side, number);
        } else {
            // The first move of the main line, then the variations that replace it, then the
            // rest, numbered again after them.
            let (next_side, next_number) = pgn.moves(plain(&main.pv[..1]), side, number);
            for l in others {
                pgn.token("(");
                pgn.comment(&score_text(&l.fields.score, l.fields.depth));
                pgn.moves(plain(&l.fields.pv), side, number);
                pgn.token(")");
            }
            pgn.moves(plain(&main.pv[1..]), next_side, next_number);
        }
    }
    pgn.token(result);
    pgn.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::serve::events::InfoFields;

    fn info(multipv: u32, kind: &'static str, value: i32, depth: u32, pv: &str) -> Info {
        Info {
            search: 1,
            fields: InfoFields {
                depth,
                seldepth: depth,
                multipv,
                score: Score { kind, value },
                pv: pv.split_whitespace().map(str::to_string).collect(),
                ..InfoFields::default()
            },
        }
    }

    #[test]
    fn moves_and_two_lines_with_red_to_move() {
        let moves: Vec<String> = vec!["h2e2".into(), "h9g7".into()];
        let lines = [
            info(1, "cp", 34, 12, "h0g2 i9h9 i0h0"),
            info(2, "mate", 3, 11, "b2e2 b9c7"),
        ];
        let expected = "[Game \"Chinese Chess\"]
[Event \"Pao analysis\"]
[Site \"pao serve\"]
[Result \"*\"]
[Format \"ICCS\"]

1. H2-E2 H9-G7 {+0.34/12} 2. H0-G2 ({#3/11} 2. B2-E2 B9-C7) 2... I9-H9 3. I0-H0
*
";
        assert_eq!(format(START_FEN, &moves, &lines, "*"), expected);
    }

    #[test]
    fn black_to_move_from_a_fen_with_a_rule_score() {
        let fen = "3k5/9/9/9/9/9/4P4/9/9/4K4 b - - 0 7";
        let lines = [
            info(1, "rule", -7, 9, "d9d8 e3e4"),
            info(2, "cp", -250, 9, "d9e9"),
        ];
        let text = format(fen, &[], &lines, "*");
        assert!(text.contains("[FEN \"3k5/9/9/9/9/9/4P4/9/9/4K4 b - - 0 7\"]\n"));
        assert!(
            text.ends_with("{R-7/9} 7... D9-D8 ({-2.50/9} 7... D9-E9) 8. E3-E4 *\n"),
            "{text}"
        );
    }
}
