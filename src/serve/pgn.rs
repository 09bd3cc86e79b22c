//! The board and the engine's lines as PGN, in the xqbase convention Pao's match runner
//! writes (`[Game "Chinese Chess"]`, `[Format "ICCS"]`, moves `H2-E2`): the moves played, then
//! the first line as the main line and every other line as a variation of its first move,
//! each line after a comment with its score and depth.

use super::events::{Info, Score};
use crate::board::{Color, Position, START_FEN};

fn iccs(m: &str) -> String {
    let t = m.to_ascii_uppercase();
    match (t.get(..2), t.get(2..)) {
        (Some(from), Some(to)) => format!("{from}-{to}"),
        _ => t,
    }
}

/// `+1.25/18`, `#5/20` (mate in 5), `#-3/12`, `R+7/15` (a rule win in 7 plies).
fn score_text(score: &Score, depth: u32) -> String {
    let s = match score.kind {
        "mate" => format!("#{}", score.value),
        "rule" => format!("R{:+}", score.value),
        _ => format!("{:+.2}", f64::from(score.value) / 100.0),
    };
    format!("{s}/{depth}")
}

/// Movetext tokens for `moves` played from a position with `side` to move at move `number`.
fn moves_tokens(moves: &[String], mut side: Color, mut number: u32, out: &mut Vec<String>) {
    for (i, m) in moves.iter().enumerate() {
        if side == Color::Red {
            out.push(format!("{number}."));
        } else if i == 0 {
            out.push(format!("{number}..."));
        }
        out.push(iccs(m));
        if side == Color::Black {
            number += 1;
        }
        side = side.flip();
    }
}

/// The PGN of the game from `fen` with `moves`, the engine's `lines` from the position after
/// them, and `result` (`*` while the game goes on).
pub fn format(fen: &str, moves: &[String], lines: &[Info], result: &str) -> String {
    let mut out = String::new();
    let mut tag = |k: &str, v: &str| {
        out.push_str(&format!(
            "[{k} \"{}\"]\n",
            v.replace('\\', "\\\\").replace('"', "\\\"")
        ));
    };
    tag("Game", "Chinese Chess");
    tag("Event", "Pao analysis");
    tag("Site", "pao serve");
    tag("Result", result);
    if fen != START_FEN {
        tag("FEN", fen);
    }
    tag("Format", "ICCS");
    out.push('\n');

    let (side, number) = Position::from_fen(fen)
        .map(|p| (p.side_to_move(), p.fullmove_number()))
        .unwrap_or((Color::Red, 1));
    let mut tokens = Vec::new();
    moves_tokens(moves, side, number, &mut tokens);
    // Where the lines start.
    let (side, number) = if moves.len().is_multiple_of(2) {
        (side, number + moves.len() as u32 / 2)
    } else {
        let number = number + moves.len() as u32 / 2 + u32::from(side == Color::Black);
        (side.flip(), number)
    };
    let lines: Vec<&Info> = lines.iter().filter(|l| !l.pv.is_empty()).collect();
    if let Some((first, others)) = lines.split_first() {
        let mut main = Vec::new();
        moves_tokens(&first.pv, side, number, &mut main);
        // The first move of the main line (its number and the move), then the variations
        // that replace it, then the rest.
        let mut rest = main.split_off(2.min(main.len()));
        tokens.push(format!("{{{}}}", score_text(&first.score, first.depth)));
        tokens.append(&mut main);
        for l in others {
            let mut variation = vec![
                "(".to_string(),
                format!("{{{}}}", score_text(&l.score, l.depth)),
            ];
            moves_tokens(&l.pv, side, number, &mut variation);
            variation.push(")".to_string());
            tokens.append(&mut variation);
        }
        // After a variation, a black move needs its number again.
        if !others.is_empty() && side == Color::Red && !rest.is_empty() {
            rest.insert(0, format!("{number}..."));
        }
        tokens.append(&mut rest);
    }
    tokens.push(result.to_string());
    let mut line = String::new();
    for t in tokens {
        let glue = !line.is_empty() && t != ")" && !line.ends_with('(');
        if glue && line.len() + 1 + t.len() > 80 {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn info(multipv: u32, kind: &'static str, value: i32, depth: u32, pv: &str) -> Info {
        Info {
            search: 1,
            depth,
            seldepth: depth,
            multipv,
            score: Score { kind, value },
            wdl: None,
            time: 0,
            nodes: 0,
            nps: 0,
            hashfull: 0,
            tbhits: None,
            pv: pv.split_whitespace().map(str::to_string).collect(),
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
