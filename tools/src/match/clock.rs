//! Time controls and the clocks the runner keeps for each side.

/// How long an engine may think: a clock, a fixed time per move, or a search limit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Limit {
    /// A chess clock: `moves` per period (None = the whole game), base time and increment in ms.
    Clock {
        /// Moves per period; `None` means sudden death (with increment).
        moves: Option<u32>,
        /// Time per period in ms.
        base_ms: u64,
        /// Increment per move in ms.
        inc_ms: u64,
    },
    /// Fixed time per move in ms.
    MoveTime(u64),
    /// Fixed depth.
    Depth(u32),
    /// Fixed node count.
    Nodes(u64),
}

/// Milliseconds as seconds with no trailing zeros: 10000 -> `10`, 25 -> `0.025`.
fn seconds_text(ms: u64) -> String {
    let text = format!("{}.{:03}", ms / 1000, ms % 1000);
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The limit as the PGN's time-control tags write it: a clock as `[MOVES/]SECONDS[+INC]`
/// (`40/60+0.5`, `10+0.1`, `5`), a fixed time per move as `0.5/move`, the others as
/// `depth=D` and `nodes=N`.
impl std::fmt::Display for Limit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Limit::Clock {
                moves,
                base_ms,
                inc_ms,
            } => {
                if let Some(m) = moves {
                    write!(f, "{m}/")?;
                }
                write!(f, "{}", seconds_text(*base_ms))?;
                if *inc_ms > 0 {
                    write!(f, "+{}", seconds_text(*inc_ms))?;
                }
                Ok(())
            }
            Limit::MoveTime(ms) => write!(f, "{}/move", seconds_text(*ms)),
            Limit::Depth(d) => write!(f, "depth={d}"),
            Limit::Nodes(n) => write!(f, "nodes={n}"),
        }
    }
}

/// Parses seconds given as text ("60", "0.5") into milliseconds. The clocks count whole
/// milliseconds, so a finer time ("0.0125") is refused rather than rounded without a word.
pub fn parse_seconds(text: &str) -> Result<u64, String> {
    let v: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a number of seconds"))?;
    if !v.is_finite() || v < 0.0 {
        return Err(format!("'{text}' is not a valid number of seconds"));
    }
    let ms = v * 1000.0;
    if (ms - ms.round()).abs() > 1e-6 {
        return Err(format!(
            "'{text}' seconds is finer than the clocks' whole milliseconds: give {} or {}",
            seconds_text(ms.floor() as u64),
            seconds_text(ms.ceil() as u64)
        ));
    }
    Ok(ms.round() as u64)
}

/// Parses a time control `[moves/]seconds[+increment]`, e.g. `40/60+0.5` or `10+0.1`.
pub fn parse_tc(text: &str) -> Result<Limit, String> {
    let (moves, rest) = match text.split_once('/') {
        Some((m, r)) => {
            let m: u32 = m
                .parse()
                .map_err(|_| format!("time control '{text}': bad move count '{m}'"))?;
            if m == 0 {
                return Err(format!(
                    "time control '{text}': move count must be positive"
                ));
            }
            (Some(m), r)
        }
        None => (None, text),
    };
    let (base, inc) = match rest.split_once('+') {
        Some((b, i)) => (b, i),
        None => (rest, "0"),
    };
    let base_ms = parse_seconds(base).map_err(|e| format!("time control '{text}': {e}"))?;
    let inc_ms = parse_seconds(inc).map_err(|e| format!("time control '{text}': {e}"))?;
    if base_ms == 0 && inc_ms == 0 {
        return Err(format!("time control '{text}' gives no time"));
    }
    Ok(Limit::Clock {
        moves,
        base_ms,
        inc_ms,
    })
}

/// One side's clock.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Remaining time in ms (may be negative only after a forfeit).
    pub remaining_ms: i64,
    /// Moves left in the current period (None = sudden death).
    pub moves_to_go: Option<u32>,
    moves: Option<u32>,
    base_ms: u64,
    inc_ms: u64,
}

/// What happened when a move's thinking time was charged to a clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Charge {
    /// Within the limit.
    InTime,
    /// Over the limit by more than the margin: the side loses on time.
    Forfeit,
}

impl Clock {
    /// A fresh clock for a `Limit::Clock` time control.
    pub fn new(moves: Option<u32>, base_ms: u64, inc_ms: u64) -> Clock {
        Clock {
            remaining_ms: base_ms as i64,
            moves_to_go: moves,
            moves,
            base_ms,
            inc_ms,
        }
    }

    /// The increment in ms.
    pub fn increment_ms(&self) -> u64 {
        self.inc_ms
    }

    /// The most an engine may use for this move before it forfeits, margin included.
    pub fn deadline_ms(&self, margin_ms: u64) -> u64 {
        self.remaining_ms.max(0) as u64 + margin_ms
    }

    /// Charges `used_ms` for one move: forfeit when it exceeds the remaining time plus margin,
    /// otherwise subtract it, add the increment and start a new period when one ends.
    pub fn charge(&mut self, used_ms: u64, margin_ms: u64) -> Charge {
        if used_ms > self.deadline_ms(margin_ms) {
            self.remaining_ms -= used_ms as i64;
            return Charge::Forfeit;
        }
        // Time used inside the margin is forgiven: the clock never shows less than zero.
        self.remaining_ms = (self.remaining_ms - used_ms as i64).max(0) + self.inc_ms as i64;
        if let (Some(left), Some(period)) = (self.moves_to_go, self.moves) {
            if left <= 1 {
                self.moves_to_go = Some(period);
                self.remaining_ms += self.base_ms as i64;
            } else {
                self.moves_to_go = Some(left - 1);
            }
        }
        Charge::InTime
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_time_controls() {
        assert_eq!(
            parse_tc("40/60+0.5"),
            Ok(Limit::Clock {
                moves: Some(40),
                base_ms: 60_000,
                inc_ms: 500
            })
        );
        assert_eq!(
            parse_tc("10+0.1"),
            Ok(Limit::Clock {
                moves: None,
                base_ms: 10_000,
                inc_ms: 100
            })
        );
        assert_eq!(
            parse_tc("5"),
            Ok(Limit::Clock {
                moves: None,
                base_ms: 5000,
                inc_ms: 0
            })
        );
        assert!(parse_tc("0/10").is_err());
        assert!(parse_tc("x+1").is_err());
        assert!(parse_tc("0+0").is_err());
        assert!(parse_tc("-3").is_err());
    }

    #[test]
    fn refuses_times_finer_than_a_millisecond() {
        assert_eq!(
            parse_tc("1.25+0.0125"),
            Err(
                "time control '1.25+0.0125': '0.0125' seconds is finer than the clocks' \
                 whole milliseconds: give 0.012 or 0.013"
                    .into()
            )
        );
        assert_eq!(
            parse_seconds("0.0005"),
            Err(
                "'0.0005' seconds is finer than the clocks' whole milliseconds: give 0 or 0.001"
                    .into()
            )
        );
        assert_eq!(parse_seconds("0.013"), Ok(13));
        assert_eq!(parse_seconds("1.001"), Ok(1001));
        assert_eq!(parse_seconds("0.1"), Ok(100));
    }

    #[test]
    fn limits_print_as_they_are_given() {
        for tc in [
            "40/60+0.5",
            "10+0.1",
            "5",
            "2.5+0.025",
            "0.5+0.005",
            "40/60",
        ] {
            assert_eq!(parse_tc(tc).map(|l| l.to_string()), Ok(tc.to_string()));
        }
        assert_eq!(parse_tc("10+0").map(|l| l.to_string()), Ok("10".into()));
        assert_eq!(Limit::MoveTime(500).to_string(), "0.5/move");
        assert_eq!(Limit::MoveTime(2000).to_string(), "2/move");
        assert_eq!(Limit::Depth(7).to_string(), "depth=7");
        assert_eq!(Limit::Nodes(20_000).to_string(), "nodes=20000");
    }

    #[test]
    fn increment_clock_accounting() {
        let mut c = Clock::new(None, 10_000, 100);
        assert_eq!(c.charge(1_500, 50), Charge::InTime);
        assert_eq!(c.remaining_ms, 8_600);
        assert_eq!(c.charge(8_640, 50), Charge::InTime);
        // 8600 - 8640 is clamped to 0, then the increment.
        assert_eq!(c.remaining_ms, 100);
        assert_eq!(c.deadline_ms(50), 150);
        assert_eq!(c.charge(151, 50), Charge::Forfeit);
    }

    #[test]
    fn moves_per_period_accounting() {
        let mut c = Clock::new(Some(2), 1_000, 0);
        assert_eq!(c.charge(300, 0), Charge::InTime);
        assert_eq!((c.remaining_ms, c.moves_to_go), (700, Some(1)));
        assert_eq!(c.charge(600, 0), Charge::InTime);
        // Period ends: 100 left + 1000 new, counter back to 2.
        assert_eq!((c.remaining_ms, c.moves_to_go), (1_100, Some(2)));
        assert_eq!(c.charge(1_100, 0), Charge::InTime);
        assert_eq!((c.remaining_ms, c.moves_to_go), (0, Some(1)));
        assert_eq!(c.charge(1, 0), Charge::Forfeit);
    }
}
