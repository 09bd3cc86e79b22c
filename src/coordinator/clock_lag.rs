//! What the GUI's clock charges beyond the engine's own thinking: the time between the engine
//! writing `bestmove` and the GUI stopping its clock, and between the GUI starting it and the
//! engine reading `go` (pipes, the GUI's own work, a scheduler that is slow to run either on a
//! busy machine). Measured from the clock the GUI sends with each `go`: what the engine had,
//! minus what it spent, plus the increment, minus what the GUI says it has now. The time
//! manager then keeps that much of each increment back, so that a lag below the increment
//! never drains the clock to a loss on time.

use std::time::Instant;

/// A lag larger than this is not a lag but another clock (a new game, a changed time control,
/// a position set by hand).
const IMPLAUSIBLE_MS: u64 = 5_000;

/// The clock of the engine's last timed search, until the next `go` reads the GUI's.
#[derive(Clone, Copy, Debug)]
struct Pending {
    left_ms: u64,
    inc_ms: u64,
    started: Instant,
    answered: Option<Instant>,
}

/// The lag estimate of one game.
#[derive(Clone, Debug, Default)]
pub(super) struct ClockLag {
    pending: Option<Pending>,
    estimate_ms: u64,
}

impl ClockLag {
    /// A `go` at `now` with `clock` = (time left, increment) in ms on the GUI's clock, or
    /// `None` when the clock is not the GUI's: the clock the previous search left is compared
    /// with this one.
    pub(super) fn on_go(&mut self, clock: Option<(u64, u64)>, now: Instant) {
        let pending = self.pending.take();
        let Some((left_ms, inc_ms)) = clock else {
            return;
        };
        if let Some(p) = pending {
            if let Some(answered) = p.answered {
                let spent = answered.saturating_duration_since(p.started).as_millis() as u64;
                let expected = (p.left_ms + p.inc_ms).saturating_sub(spent);
                if left_ms <= expected && expected - left_ms <= IMPLAUSIBLE_MS {
                    // The largest recent lag, forgotten by an eighth each move.
                    let lag = expected - left_ms;
                    self.estimate_ms = lag.max(self.estimate_ms - self.estimate_ms / 8);
                }
            }
        }
        self.pending = Some(Pending {
            left_ms,
            inc_ms,
            started: now,
            answered: None,
        });
    }

    /// The timed search answered (`bestmove`) at `now`.
    pub(super) fn on_answer(&mut self, now: Instant) {
        if let Some(p) = self.pending.as_mut() {
            p.answered.get_or_insert(now);
        }
    }

    /// A new game: nothing measured carries over.
    pub(super) fn reset(&mut self) {
        *self = ClockLag::default();
    }

    /// The lag per move to plan for, in milliseconds.
    pub(super) fn lag_ms(&self) -> u64 {
        self.estimate_ms
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn at(t0: Instant, ms: u64) -> Instant {
        t0 + Duration::from_millis(ms)
    }

    #[test]
    fn the_lag_is_what_the_clock_lost_beyond_the_thinking() {
        let t0 = Instant::now();
        let mut lag = ClockLag::default();
        lag.on_go(Some((10_000, 100)), t0);
        lag.on_answer(at(t0, 300));
        // Expected 10,000 + 100 - 300 = 9,800; the GUI says 9,740: 60 ms lag.
        lag.on_go(Some((9_740, 100)), at(t0, 1_000));
        assert_eq!(lag.lag_ms(), 60);
        // A smaller lag next: the estimate decays by an eighth, not to the new value.
        lag.on_answer(at(t0, 1_200));
        lag.on_go(Some((9_630, 100)), at(t0, 2_000));
        assert_eq!(lag.lag_ms(), 60 - 60 / 8);
        // A larger one takes over at once.
        lag.on_answer(at(t0, 2_100));
        lag.on_go(Some((9_430, 100)), at(t0, 3_000));
        assert_eq!(lag.lag_ms(), 200);
    }

    #[test]
    fn other_clocks_are_not_lags() {
        let t0 = Instant::now();
        let mut lag = ClockLag::default();
        // More time than expected (a new time control): no lag.
        lag.on_go(Some((10_000, 0)), t0);
        lag.on_answer(at(t0, 100));
        lag.on_go(Some((60_000, 0)), at(t0, 500));
        assert_eq!(lag.lag_ms(), 0);
        // Far less (another game's clock): no lag.
        lag.on_answer(at(t0, 600));
        lag.on_go(Some((1_000, 0)), at(t0, 700));
        assert_eq!(lag.lag_ms(), 0);
        // No answer recorded (a book move, a ponder search): nothing to compare.
        lag.on_go(Some((900, 0)), at(t0, 800));
        assert_eq!(lag.lag_ms(), 0);
        // A go without the GUI's clock (pondering, nodes as time) in between: nothing either.
        lag.on_answer(at(t0, 850));
        lag.on_go(None, at(t0, 860));
        lag.on_go(Some((100, 0)), at(t0, 900));
        assert_eq!(lag.lag_ms(), 0);
        // A measured lag, then a new game forgets it.
        lag.on_answer(at(t0, 950));
        lag.on_go(Some((20, 0)), at(t0, 1_000));
        assert_eq!(lag.lag_ms(), 30);
        lag.reset();
        assert_eq!(lag.lag_ms(), 0);
    }
}
