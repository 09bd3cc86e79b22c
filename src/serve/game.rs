//! A game against the engine: the person's side, both clocks, and how the game ended.
//! Clocks are charged when a move arrives; the engine keeps its own time from the `go` it is
//! given, and loses on time like the person if its answer comes too late.

use super::events::GameView;
use crate::board::Color;
use std::time::Instant;

/// Longest starting time accepted (3 hours).
pub const MAX_BASE_MS: u64 = 3 * 3600 * 1000;
/// Largest increment accepted (1 minute).
pub const MAX_INC_MS: u64 = 60 * 1000;

/// The name of a side in the JSON.
pub fn side_name(c: Color) -> &'static str {
    match c {
        Color::Red => "red",
        Color::Black => "black",
    }
}

/// A game in progress or over.
#[derive(Clone, Debug)]
pub struct Game {
    /// The person's side.
    pub human: Color,
    base_ms: u64,
    inc_ms: u64,
    /// Time left, ms, red and black; negative once a flag fell.
    clocks: [i64; 2],
    /// When the side to move's clock started.
    turn_start: Instant,
    /// How the game ended; `None` while it goes on.
    pub result: Option<String>,
    /// The engine's search while it thinks.
    pub search: Option<u64>,
    /// The engine's `Skill Level` (20: full strength).
    pub level: u8,
}

impl Game {
    /// A game starting now, both clocks at `base_ms`, the engine at `level`.
    pub fn new(human: Color, base_ms: u64, inc_ms: u64, level: u8) -> Game {
        Game {
            human,
            base_ms,
            inc_ms,
            clocks: [base_ms as i64; 2],
            turn_start: Instant::now(),
            result: None,
            search: None,
            level,
        }
    }

    /// True while the game goes on.
    pub fn ongoing(&self) -> bool {
        self.result.is_none()
    }

    /// `side` has moved: its clock loses the time since its turn began and gains the
    /// increment, and the other clock starts. False when the flag had fallen first.
    pub fn charge(&mut self, side: Color) -> bool {
        let used = self.turn_start.elapsed().as_millis() as i64;
        self.turn_start = Instant::now();
        let clock = &mut self.clocks[side as usize];
        *clock -= used;
        if *clock < 0 {
            *clock = 0;
            self.result = Some(format!("{} wins (time)", side_name(side.flip())));
            return false;
        }
        *clock += self.inc_ms as i64;
        true
    }

    /// Ends the game when `side`, to move, has run out of time; true if it just did.
    pub fn flag(&mut self, side: Color) -> bool {
        if self.ongoing() && self.left_ms(side, side) == 0 {
            self.clocks[side as usize] = 0;
            self.result = Some(format!("{} wins (time)", side_name(side.flip())));
            return true;
        }
        false
    }

    /// Time left for `side` now, with `to_move` on the move.
    fn left_ms(&self, side: Color, to_move: Color) -> u64 {
        let mut left = self.clocks[side as usize];
        if side == to_move && self.ongoing() {
            left -= self.turn_start.elapsed().as_millis() as i64;
        }
        left.max(0) as u64
    }

    /// The `go` that gives the engine its clocks (UCI: `w` is red).
    pub fn go_line(&self, to_move: Color) -> String {
        format!(
            "go wtime {} btime {} winc {} binc {}",
            self.left_ms(Color::Red, to_move),
            self.left_ms(Color::Black, to_move),
            self.inc_ms,
            self.inc_ms
        )
    }

    /// The game as the stream shows it, with `to_move` on the move.
    pub fn view(&self, to_move: Color) -> GameView {
        GameView {
            human: side_name(self.human),
            base_ms: self.base_ms,
            inc_ms: self.inc_ms,
            red_ms: self.left_ms(Color::Red, to_move),
            black_ms: self.left_ms(Color::Black, to_move),
            running: self.ongoing().then(|| side_name(to_move)),
            result: self.result.clone().unwrap_or_else(|| "ongoing".to_string()),
            level: self.level,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_charge_the_mover_and_add_the_increment() {
        let mut g = Game::new(Color::Red, 60_000, 2_000, 20);
        assert!(g.charge(Color::Red));
        let v = g.view(Color::Black);
        // Red spent (almost) nothing and gained the increment.
        assert!((61_900..=62_000).contains(&v.red_ms), "{v:?}");
        assert_eq!(v.running, Some("black"));
        assert_eq!(v.result, "ongoing");
        assert!(g.go_line(Color::Black).starts_with("go wtime 6"));
        assert!(g.go_line(Color::Black).ends_with(" winc 2000 binc 2000"));
    }

    #[test]
    fn a_fallen_flag_ends_the_game() {
        let mut g = Game::new(Color::Black, 0, 0, 20);
        std::thread::sleep(std::time::Duration::from_millis(2));
        assert!(!g.charge(Color::Red));
        assert_eq!(g.result.as_deref(), Some("black wins (time)"));
        let v = g.view(Color::Black);
        assert_eq!((v.red_ms, v.running), (0, None));

        let mut g = Game::new(Color::Red, 0, 0, 20);
        std::thread::sleep(std::time::Duration::from_millis(2));
        assert!(g.flag(Color::Red));
        assert_eq!(g.result.as_deref(), Some("black wins (time)"));
        assert!(!g.flag(Color::Red), "a game ends once");
    }
}
