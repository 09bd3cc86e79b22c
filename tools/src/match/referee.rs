//! The referee: decides when a game is over and who won, from the position and its history.
//!
//! The rules themselves are Pao's (`pao::board::rules`), perpetual chase included.

use super::termination::Termination;
use pao::board::rules::{game_result, GameResult};
use pao::board::{Color, Position};

/// The result of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Red won.
    RedWins,
    /// Black won.
    BlackWins,
    /// Drawn.
    Draw,
}

impl Outcome {
    /// The side that lost gets the other side's win.
    pub fn win_for(color: Color) -> Outcome {
        match color {
            Color::Red => Outcome::RedWins,
            Color::Black => Outcome::BlackWins,
        }
    }

    /// The loss of `color`.
    pub fn loss_for(color: Color) -> Outcome {
        Outcome::win_for(color.flip())
    }

    /// PGN result text.
    pub fn pgn(self) -> &'static str {
        match self {
            Outcome::RedWins => "1-0",
            Outcome::BlackWins => "0-1",
            Outcome::Draw => "1/2-1/2",
        }
    }

    /// Parses PGN result text.
    pub fn from_pgn(text: &str) -> Option<Outcome> {
        match text {
            "1-0" => Some(Outcome::RedWins),
            "0-1" => Some(Outcome::BlackWins),
            "1/2-1/2" => Some(Outcome::Draw),
            _ => None,
        }
    }

    /// Points scored by `color`: 1, 0.5 or 0.
    pub fn points_for(self, color: Color) -> f64 {
        match (self, color) {
            (Outcome::Draw, _) => 0.5,
            (Outcome::RedWins, Color::Red) | (Outcome::BlackWins, Color::Black) => 1.0,
            _ => 0.0,
        }
    }
}

/// Whether the game is over in `pos`, by Pao's rules (`pao::board::rules`): no legal move
/// loses (checkmate and stalemate alike); repetition with perpetual check and chase; the
/// 60-move rule; insufficient material.
pub fn game_over(pos: &mut Position) -> Option<(Outcome, Termination)> {
    match game_result(pos) {
        GameResult::Ongoing => None,
        GameResult::Win { winner, reason } => {
            Some((Outcome::win_for(winner), Termination::from_rule(reason)))
        }
        GameResult::Draw { reason } => Some((Outcome::Draw, Termination::from_rule(reason))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pao::board::RankBase;

    fn play(fen: &str, moves: &str) -> Position {
        let mut pos = Position::from_fen(fen).unwrap();
        for m in moves.split_whitespace() {
            let mv = pos.parse_legal_move(m, RankBase::Zero).unwrap();
            pos.make_move(mv);
        }
        pos
    }

    fn ruling(fen: &str, moves: &str) -> Option<(Outcome, String)> {
        game_over(&mut play(fen, moves)).map(|(o, t)| (o, t.name().to_string()))
    }

    #[test]
    fn checkmate_and_stalemate_lose() {
        // Rook d8 checks, the flying general covers d8, rook e0 covers the e file.
        let r = ruling("3k5/3R5/9/9/9/9/9/9/9/3KR4 b - - 0 1", "");
        assert_eq!(r, Some((Outcome::RedWins, "checkmate".to_string())));
        // Not in check, but d8 and e9 are covered: stalemate loses in xiangqi.
        let r = ruling("3k5/R8/9/9/9/9/9/9/9/4RK3 b - - 0 1", "");
        assert_eq!(r, Some((Outcome::RedWins, "stalemate".to_string())));
    }

    #[test]
    fn plain_repetition_is_a_draw() {
        let start = pao::board::START_FEN;
        let cycle = "b0c2 b9c7 c2b0 c7b9";
        assert_eq!(ruling(start, &format!("{cycle} b0c2 b9c7 c2b0")), None);
        let r = ruling(start, &format!("{cycle} {cycle}"));
        assert_eq!(r, Some((Outcome::Draw, "repetition".to_string())));
    }

    #[test]
    fn perpetual_check_loses() {
        // Black's soldier checks on every move; red only runs.
        let fen = "3k5/9/9/9/9/5p3/9/5p3/5K3/5C3 w - - 0 1";
        let moves = "f1e1 f2e2 e1f1 e2f2 f1e1 f2e2 e1f1 e2f2";
        let r = ruling(fen, moves);
        assert_eq!(r, Some((Outcome::RedWins, "perpetual check".to_string())));
        // The position is restored after the ruling looked back.
        let mut pos = play(fen, moves);
        let key = pos.key();
        let _ = game_over(&mut pos);
        assert_eq!((pos.key(), pos.game_ply()), (key, 8));
    }

    #[test]
    fn mutual_perpetual_check_is_a_draw() {
        let fen = "9/4c4/3k5/3r5/9/9/4C4/9/4K4/3R5 w - - 0 1";
        let r = ruling(fen, "e3d3 d6e6 d3e3 e6d6 e3d3 d6e6 d3e3 e6d6");
        assert_eq!(r, Some((Outcome::Draw, "perpetual check".to_string())));
    }

    #[test]
    fn sixty_moves_without_capture() {
        let fen = "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 118 80";
        assert_eq!(ruling(fen, "e1f1"), None);
        let r = ruling(fen, "e1f1 d9d8");
        assert_eq!(r, Some((Outcome::Draw, "sixty-move rule".to_string())));
    }

    #[test]
    fn insufficient_material() {
        let r = ruling("3ak4/4a4/4b4/9/9/9/9/4B4/4A4/3AK4 w - - 0 1", "");
        assert_eq!(
            r,
            Some((Outcome::Draw, "insufficient material".to_string()))
        );
        // One soldier left is enough to play on.
        assert_eq!(ruling("3k5/9/9/9/9/9/4P4/9/9/4K4 w - - 0 1", ""), None);
    }

    #[test]
    fn outcome_points() {
        assert_eq!(Outcome::RedWins.points_for(Color::Red), 1.0);
        assert_eq!(Outcome::RedWins.points_for(Color::Black), 0.0);
        assert_eq!(Outcome::Draw.points_for(Color::Black), 0.5);
        assert_eq!(Outcome::from_pgn("0-1"), Some(Outcome::BlackWins));
        assert_eq!(Outcome::from_pgn("*"), None);
    }
}
