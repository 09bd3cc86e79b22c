//! The position as text for people (`d`): ranks 9..0 top to bottom, files a..i, upper case
//! red, then one item per line.

use super::{Color, Position, Square, FILES, RANKS};

impl Position {
    /// How many times the current position occurred before in the game (same key, so same
    /// side to move).
    pub fn repetitions(&self) -> usize {
        let key = self.key();
        self.history().iter().filter(|u| u.key == key).count()
    }

    /// The diagram and the position's facts, one line each.
    pub fn diagram(&self) -> Vec<String> {
        let mut lines = Vec::with_capacity(RANKS + 7);
        for rank in (0..RANKS).rev() {
            let mut row = format!("{rank} ");
            for file in 0..FILES {
                let c = self
                    .piece_at(Square::from_index(rank * FILES + file))
                    .map_or('.', |p| p.letter());
                row.push(' ');
                row.push(c);
            }
            lines.push(row);
        }
        lines.push("   a b c d e f g h i".to_string());
        lines.push(format!("fen {}", self.to_fen()));
        lines.push(format!("key {:016x}", self.key()));
        let side = match self.side_to_move() {
            Color::Red => "red",
            Color::Black => "black",
        };
        lines.push(format!("side {side}"));
        lines.push(format!("checked {}", self.in_check()));
        lines.push(format!("repetitions {}", self.repetitions()));
        lines.push(format!(
            "plies since capture {} (the 60-move rule draws at 120)",
            self.plies_since_capture()
        ));
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Move;

    #[test]
    fn start_position_diagram() {
        let mut pos = Position::startpos();
        let lines = pos.diagram();
        assert_eq!(lines[0], "9  r n b a k a b n r");
        assert_eq!(lines[2], "7  . c . . . . . c .");
        assert_eq!(lines[9], "0  R N B A K A B N R");
        assert_eq!(lines[10], "   a b c d e f g h i");
        assert_eq!(lines[13], "side red");
        assert_eq!(lines[15], "repetitions 0");
        // Horses out and back twice: the start position occurs a third time.
        for _ in 0..2 {
            for m in ["b0c2", "b9c7", "c2b0", "c7b9"] {
                let mv: Move =
                    crate::board::parse_move(m, crate::board::RankBase::Zero).expect("move");
                pos.make_move(mv);
            }
        }
        let lines = pos.diagram();
        assert_eq!(lines[15], "repetitions 2");
        assert_eq!(
            lines[16],
            "plies since capture 8 (the 60-move rule draws at 120)"
        );
    }
}
