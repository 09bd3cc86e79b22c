//! The engine's clock in CECP: the GUI states the time control (`level`, `st`, `sd`) and the
//! clocks (`time`, `otim`, in centiseconds); the engine turns them into the same `go`
//! parameters a UCCI GUI would send, so one time manager serves every dialect.
//!
//! A time control that arrives while the engine thinks on its move is kept until the move is
//! made (or called off): that move is charged by the control it was thought under, and the
//! command never holds up the ones behind it.

use crate::protocol::GoParams;

/// A time-control command: `level`, `st` or `sd`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    /// `level MPS BASE INC`.
    Level {
        /// Moves per period (0: the whole game).
        moves: u32,
        /// Time per period, ms.
        base_ms: u64,
        /// Increment per move, ms.
        inc_ms: u64,
    },
    /// `st`: a fixed time per move, ms.
    MoveTime(u64),
    /// `sd`: a depth limit.
    Depth(u32),
}

/// Time control and clock readings of one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CecpClock {
    /// Moves per time-control period (0: the whole game).
    moves: u32,
    /// Time per period, ms.
    base_ms: u64,
    /// Increment per move, ms.
    inc_ms: u64,
    /// `st`: a fixed time per move, ms.
    move_time_ms: Option<u64>,
    /// The engine's clock, ms: from `time`, or kept by the engine between readings.
    own_ms: u64,
    /// `sd`: the depth limit.
    depth: Option<u32>,
    /// Controls received during the engine's move, for after it.
    deferred: Vec<Control>,
}

impl Default for CecpClock {
    /// XBoard's default: 40 moves in 5 minutes.
    fn default() -> Self {
        CecpClock {
            moves: 40,
            base_ms: 300_000,
            inc_ms: 0,
            move_time_ms: None,
            own_ms: 300_000,
            depth: None,
            deferred: Vec::new(),
        }
    }
}

impl CecpClock {
    /// `new`: clocks back to the period's base, no depth limit; the time control stays.
    pub fn new_game(&mut self) {
        self.own_ms = self.base_ms;
        self.depth = None;
    }

    /// A time-control command takes effect.
    pub fn control(&mut self, control: Control) {
        match control {
            Control::Level {
                moves,
                base_ms,
                inc_ms,
            } => self.level(moves, base_ms, inc_ms),
            Control::MoveTime(ms) => self.move_time(ms),
            Control::Depth(depth) => self.depth(depth),
        }
    }

    /// A time-control command received while the engine thinks on its move: kept for after it.
    pub fn defer(&mut self, control: Control) {
        self.deferred.push(control);
    }

    /// The engine's move is made or called off: the controls kept for after it take effect, in
    /// the order they came.
    pub fn apply_deferred(&mut self) {
        for control in std::mem::take(&mut self.deferred) {
            self.control(control);
        }
    }

    /// `level MPS BASE INC`: a clock; it replaces `st`.
    pub fn level(&mut self, moves: u32, base_ms: u64, inc_ms: u64) {
        self.moves = moves;
        self.base_ms = base_ms;
        self.inc_ms = inc_ms;
        self.own_ms = base_ms;
        self.move_time_ms = None;
    }

    /// `st SECONDS`.
    pub fn move_time(&mut self, ms: u64) {
        self.move_time_ms = Some(ms);
    }

    /// `sd DEPTH`.
    pub fn depth(&mut self, depth: u32) {
        self.depth = Some(depth);
    }

    /// `time N`: the engine's clock in centiseconds.
    pub fn own_time(&mut self, centiseconds: u64) {
        self.own_ms = centiseconds.saturating_mul(10);
    }

    /// After the engine's own move of `used_ms` as its `moves_made`-th move: what its clock
    /// reads now, should the GUI not say (`time` overrides it before the next move).
    pub fn after_own_move(&mut self, used_ms: u64, moves_made: u32) {
        if self.move_time_ms.is_some() {
            return;
        }
        self.own_ms = self.own_ms.saturating_sub(used_ms) + self.inc_ms;
        if self.moves > 0 && moves_made.is_multiple_of(self.moves) {
            self.own_ms += self.base_ms;
        }
    }

    /// The search parameters for the engine's move, its `moves_made` earlier moves played.
    pub fn go_params(&self, moves_made: u32) -> GoParams {
        let mut params = GoParams {
            depth: self.depth,
            ..GoParams::default()
        };
        match self.move_time_ms {
            Some(ms) => params.movetime = Some(ms),
            None => {
                params.time = Some(self.own_ms);
                params.increment = Some(self.inc_ms);
                if self.moves > 0 {
                    params.movestogo = Some(self.moves - moves_made % self.moves);
                }
            }
        }
        params
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_time_and_st_become_go_parameters() {
        let mut c = CecpClock::default();
        c.level(0, 60_000, 1_000);
        c.own_time(4_321);
        let p = c.go_params(7);
        assert_eq!(
            (p.time, p.increment, p.movestogo, p.movetime),
            (Some(43_210), Some(1_000), None, None)
        );
        // 40 moves per period: the 41st move of the game is the first of a new period.
        c.level(40, 300_000, 0);
        assert_eq!(c.go_params(0).movestogo, Some(40));
        assert_eq!(c.go_params(39).movestogo, Some(1));
        assert_eq!(c.go_params(40).movestogo, Some(40));
        c.depth(7);
        c.move_time(2_500);
        let p = c.go_params(3);
        assert_eq!((p.movetime, p.time, p.depth), (Some(2_500), None, Some(7)));
        c.new_game();
        assert_eq!(c.go_params(0).depth, None);
    }

    #[test]
    fn controls_received_during_a_move_wait_for_it() {
        let mut c = CecpClock::default();
        c.level(0, 10_000, 0);
        c.defer(Control::Level {
            moves: 0,
            base_ms: 60_000,
            inc_ms: 1_000,
        });
        c.defer(Control::Depth(3));
        c.defer(Control::MoveTime(0));
        // The move in progress is charged by the control it was thought under.
        c.after_own_move(2_000, 1);
        assert_eq!(c.go_params(1).time, Some(8_000));
        c.apply_deferred();
        let p = c.go_params(1);
        assert_eq!((p.movetime, p.depth, p.time), (Some(0), Some(3), None));
        c.level(0, 5_000, 0);
        assert_eq!(c.go_params(1).time, Some(5_000));
        // Applied once only.
        c.apply_deferred();
        assert_eq!(c.go_params(1).time, Some(5_000));
    }

    #[test]
    fn the_engine_keeps_its_clock_between_readings() {
        let mut c = CecpClock::default();
        c.level(2, 10_000, 500);
        c.after_own_move(3_000, 1);
        assert_eq!(c.go_params(1).time, Some(7_500));
        // The second move ends the period: the base is added again.
        c.after_own_move(1_000, 2);
        assert_eq!(c.go_params(2).time, Some(17_000));
    }
}
