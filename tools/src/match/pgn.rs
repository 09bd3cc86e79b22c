//! PGN output for xiangqi games (the xqbase convention: `[Game "Chinese Chess"]`,
//! `[Format "ICCS"]`, moves written `H2-E2`). The time control is `[TimeControl]`, or with time
//! odds `[RedTimeControl]` and `[BlackTimeControl]` (cutechess's per-side tags, named by
//! xiangqi's colours). The text is written by `pao::board::pgn`, as `pao serve` writes its own.

use super::game::GameRecord;
use pao::board::pgn::{start_of, PgnWriter};

/// Tags that do not come from the game itself.
#[derive(Clone, Debug)]
pub struct PgnHeader {
    /// Event name.
    pub event: String,
    /// Date, `YYYY.MM.DD`.
    pub date: String,
    /// Round (game number).
    pub round: u64,
}

/// Formats a finished game as one PGN record (ending with a blank line).
pub fn format_game(rec: &GameRecord, header: &PgnHeader) -> String {
    let mut pgn = PgnWriter::new();
    pgn.tag("Game", "Chinese Chess");
    pgn.tag("Event", &header.event);
    pgn.tag("Site", "?");
    pgn.tag("Date", &header.date);
    pgn.tag("Round", &header.round.to_string());
    pgn.tag("Red", &rec.red);
    pgn.tag("Black", &rec.black);
    pgn.tag("Result", rec.outcome.pgn());
    if !rec.opening.is_startpos() {
        pgn.tag("FEN", &rec.opening.fen);
    }
    pgn.tag("Format", "ICCS");
    // One tag when both sides played by the same limit; one per side with time odds.
    let [red, black] = &rec.limits;
    if red == black {
        pgn.tag("TimeControl", &red.to_string());
    } else {
        pgn.tag("RedTimeControl", &red.to_string());
        pgn.tag("BlackTimeControl", &black.to_string());
    }
    pgn.tag(
        "PlyCount",
        &(rec.opening.moves.len() + rec.moves.len()).to_string(),
    );
    pgn.tag("Termination", rec.termination.name());

    // The opening's moves, then the engines' with their comments.
    let (side, number) = start_of(&rec.opening.fen);
    let book = rec.opening.moves.iter().map(|m| (m, None));
    let played = rec
        .moves
        .iter()
        .zip(&rec.comments)
        .map(|(m, c)| (m, Some(c.as_str())));
    pgn.moves(book.chain(played), side, number);
    pgn.comment(&rec.reason);
    pgn.token(rec.outcome.pgn());
    // A blank line after the record.
    pgn.finish() + "\n"
}

#[cfg(test)]
mod tests {
    use super::super::clock::Limit;
    use super::super::referee::Outcome;
    use super::super::termination::Termination;
    use super::*;
    use crate::common::openings::parse_line;
    use pao::board::{Move, Position, RankBase};

    fn moves(fen: &str, opening_len: usize, text: &str) -> Vec<Move> {
        let mut pos = Position::from_fen(fen).unwrap();
        let mut out = Vec::new();
        for t in text.split_whitespace() {
            let m = pos.parse_legal_move(t, RankBase::Zero).unwrap();
            pos.make_move(m);
            out.push(m);
        }
        out.split_off(opening_len)
    }

    #[test]
    fn short_game_exact_text() {
        let opening = parse_line("h2e2 h9g7").unwrap();
        let rec = GameRecord {
            red: "Pao".into(),
            black: "Fake \"X\"".into(),
            limits: [Limit::Nodes(5000), Limit::MoveTime(250)],
            opening,
            moves: moves(pao::board::START_FEN, 2, "h2e2 h9g7 h0g2 i9h9 i0h0"),
            comments: vec![
                "+0.25/12 0.512s".into(),
                "-0.10/11 1.000s".into(),
                String::new(),
            ],
            outcome: Outcome::RedWins,
            termination: Termination::IllegalMove,
            reason: "illegal move 'a0a0' by Fake".into(),
        };
        let header = PgnHeader {
            event: "test".into(),
            date: "2026.01.02".into(),
            round: 3,
        };
        let expected = "[Game \"Chinese Chess\"]
[Event \"test\"]
[Site \"?\"]
[Date \"2026.01.02\"]
[Round \"3\"]
[Red \"Pao\"]
[Black \"Fake \\\"X\\\"\"]
[Result \"1-0\"]
[Format \"ICCS\"]
[RedTimeControl \"nodes=5000\"]
[BlackTimeControl \"0.25/move\"]
[PlyCount \"5\"]
[Termination \"illegal move\"]

1. H2-E2 H9-G7 2. H0-G2 {+0.25/12 0.512s} I9-H9 {-0.10/11 1.000s} 3. I0-H0
{illegal move 'a0a0' by Fake} 1-0

";
        assert_eq!(format_game(&rec, &header), expected);
    }

    #[test]
    fn black_to_move_fen_tag() {
        let fen = "3k5/9/9/9/9/9/4P4/9/9/4K4 b - - 0 7";
        let opening = parse_line(fen).unwrap();
        let rec = GameRecord {
            red: "A".into(),
            black: "B".into(),
            limits: [Limit::Depth(4), Limit::Depth(4)],
            opening,
            moves: moves(fen, 0, "d9d8 e3e4"),
            comments: vec![String::new(), String::new()],
            outcome: Outcome::Draw,
            termination: Termination::Repetition,
            reason: "r".into(),
        };
        let h = PgnHeader {
            event: "e".into(),
            date: "d".into(),
            round: 1,
        };
        let text = format_game(&rec, &h);
        assert!(text.contains("[FEN \"3k5/9/9/9/9/9/4P4/9/9/4K4 b - - 0 7\"]\n"));
        assert!(text.contains("[Format \"ICCS\"]\n[TimeControl \"depth=4\"]\n[PlyCount"));
        assert!(
            text.ends_with("\n7... D9-D8 8. E3-E4 {r} 1/2-1/2\n\n"),
            "{text}"
        );
    }
}
