//! The time manager: a soft limit checked after each iteration (stretched when the best move
//! changes or the score drops, shrunk when the best move is stable) and a hard limit enforced
//! during the search. Pure arithmetic: the coordinator owns the clock.
//!
//! Policy, all in milliseconds, after keeping `move_overhead` back for I/O and GUI lag:
//! - `movetime T`: soft = hard = T - overhead (at least 1).
//! - a clock of `left` ms with increment `inc` and `movestogo m` (assumed 30 when unknown):
//!   soft = left / m + 3/4 inc; hard = min(5 soft, cap * left), with cap 90% when m = 1,
//!   50% when m <= 5 and 25% otherwise, so a sudden-death game can never flag.

use crate::board::Color;
use crate::protocol::GoParams;

/// The limits for one move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    /// Planned time: checked between iterations.
    pub soft_ms: u64,
    /// Never exceeded: enforced during the search.
    pub hard_ms: u64,
}

/// Moves to go assumed when the clock does not say.
const DEFAULT_MOVES_TO_GO: u64 = 30;

/// The budget for the side `us` to move under `go` parameters; `None` when no clock applies
/// (depth, nodes, infinite).
pub fn budget(params: &GoParams, us: Color, move_overhead: u64) -> Option<TimeBudget> {
    budget_with_lag(params, us, move_overhead, 0)
}

/// The clock of the side `us` under `go` parameters: (time left, increment) in ms.
pub fn own_clock(params: &GoParams, us: Color) -> Option<(u64, u64)> {
    let (time, inc) = match us {
        _ if params.time.is_some() => (params.time, params.increment),
        Color::Red => (params.wtime, params.winc),
        Color::Black => (params.btime, params.binc),
    };
    Some((time?, inc.unwrap_or(0)))
}

/// `budget` on a clock that loses `lag_ms` per move beyond the engine's thinking (measured by
/// the coordinator): that much of each increment is not planned with, and four moves' worth
/// is kept back with the overhead.
pub fn budget_with_lag(
    params: &GoParams,
    us: Color,
    move_overhead: u64,
    lag_ms: u64,
) -> Option<TimeBudget> {
    if let Some(t) = params.movetime {
        let ms = t.saturating_sub(move_overhead).max(1);
        return Some(TimeBudget {
            soft_ms: ms,
            hard_ms: ms,
        });
    }
    let (time, inc) = own_clock(params, us)?;
    Some(clock_budget(
        time,
        inc.saturating_sub(lag_ms),
        params.movestogo.map(u64::from),
        move_overhead.saturating_add(lag_ms.saturating_mul(4)),
    ))
}

/// `nodestime` (Stockfish's "nodes as time"): the clock counts nodes, `per_ms` of them per
/// millisecond. At the first search of a game the engine's clock becomes `time * per_ms`
/// nodes; after that the engine keeps its own count (`available`: what its searches left
/// of it, each increment added), whatever the GUI's clock says. Returns the parameters with
/// the engine's clock replaced by those nodes in milliseconds at `per_ms`, the nodes left, and
/// the increment in nodes; `None` without a clock for `us` (`movetime` converts by itself).
pub fn nodes_clock(
    params: &GoParams,
    us: Color,
    per_ms: u64,
    available: Option<u64>,
) -> Option<(GoParams, u64, u64)> {
    let per_ms = per_ms.max(1);
    let mut p = params.clone();
    let (clock, inc) = match us {
        _ if params.time.is_some() => (&mut p.time, params.increment),
        Color::Red => (&mut p.wtime, params.winc),
        Color::Black => (&mut p.btime, params.binc),
    };
    let time = (*clock)?;
    let available = available
        .filter(|&n| n > 0)
        .unwrap_or(time.saturating_mul(per_ms));
    *clock = Some(available / per_ms);
    Some((p, available, inc.unwrap_or(0).saturating_mul(per_ms)))
}

/// The budget for `time` ms left, `inc` ms increment and optionally `movestogo` moves.
pub fn clock_budget(time: u64, inc: u64, movestogo: Option<u64>, move_overhead: u64) -> TimeBudget {
    // What may be spent at all; with almost nothing left, a quarter of it.
    let left = if time > move_overhead {
        time - move_overhead
    } else {
        (time / 4).max(1)
    };
    let mtg = movestogo.unwrap_or(DEFAULT_MOVES_TO_GO).clamp(1, 80);
    let inc_share = if inc < left { inc * 3 / 4 } else { 0 };
    let cap_percent = match (movestogo, mtg) {
        (Some(_), 1) => 90,
        (Some(_), 2..=5) => 50,
        _ => 25,
    };
    let cap = (left * cap_percent / 100).max(1);
    let soft = (left / mtg + inc_share).clamp(1, cap);
    let hard = soft.saturating_mul(5).min(cap).max(soft);
    TimeBudget {
        soft_ms: soft,
        hard_ms: hard,
    }
}

/// After an iteration that ended `used_ms` into the move: stop now? The soft limit grows with
/// best-move changes and score drops and shrinks with stability (the iterations the best move
/// has held); a new iteration is not started past 60% of it, since it would rarely finish.
pub fn should_stop(
    budget: &TimeBudget,
    used_ms: u64,
    best_move_changes: u32,
    score_drop: i32,
    stable_iterations: u32,
) -> bool {
    let mut factor = 1.0 + 0.3 * best_move_changes.min(3) as f64;
    if score_drop > 100 {
        factor *= 1.6;
    } else if score_drop > 30 {
        factor *= 1.3;
    }
    if stable_iterations >= 4 {
        factor *= 0.6;
    } else if stable_iterations >= 2 {
        factor *= 0.8;
    }
    let target = (budget.soft_ms as f64 * factor).min(budget.hard_ms as f64);
    used_ms as f64 >= target * 0.6
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lagging_clock_plans_without_the_lag() {
        let p = GoParams {
            btime: Some(1_000),
            binc: Some(100),
            ..GoParams::default()
        };
        assert_eq!(own_clock(&p, Color::Black), Some((1_000, 100)));
        assert_eq!(own_clock(&p, Color::Red), None);
        // No lag: left 970, soft 970 / 30 + 75 = 107, hard capped at a quarter of 970.
        let plain = TimeBudget {
            soft_ms: 107,
            hard_ms: 242,
        };
        assert_eq!(budget_with_lag(&p, Color::Black, 30, 0), Some(plain));
        assert_eq!(budget(&p, Color::Black, 30), Some(plain));
        // 60 ms of lag a move: 40 ms of increment planned with, 240 ms more kept back:
        // left 730, soft 730 / 30 + 30 = 54, hard a quarter of 730.
        assert_eq!(
            budget_with_lag(&p, Color::Black, 30, 60),
            Some(TimeBudget {
                soft_ms: 54,
                hard_ms: 182,
            })
        );
    }

    #[test]
    fn sudden_death_with_increment() {
        // 10 s + 0.1 s: 9970 / 30 + 75.
        let b = clock_budget(10_000, 100, None, 30);
        assert_eq!(
            b,
            TimeBudget {
                soft_ms: 407,
                hard_ms: 2035
            }
        );
        // Late in the game the cap (25% of what is left) rules.
        let b = clock_budget(1_000, 100, None, 30);
        assert_eq!(
            b,
            TimeBudget {
                soft_ms: 107,
                hard_ms: 242
            }
        );
    }

    #[test]
    fn moves_to_go() {
        // 60 moves in 5 minutes, 40 to go.
        let b = clock_budget(300_000, 0, Some(40), 30);
        assert_eq!(
            b,
            TimeBudget {
                soft_ms: 7499,
                hard_ms: 37495
            }
        );
        let b = clock_budget(5_000, 0, Some(1), 30);
        assert_eq!(
            b,
            TimeBudget {
                soft_ms: 4473,
                hard_ms: 4473
            }
        );
    }

    #[test]
    fn tiny_clocks_never_overspend() {
        assert_eq!(
            clock_budget(10, 0, None, 30),
            TimeBudget {
                soft_ms: 1,
                hard_ms: 1
            }
        );
        let b = clock_budget(50, 0, None, 30);
        assert_eq!(
            b,
            TimeBudget {
                soft_ms: 1,
                hard_ms: 5
            }
        );
        assert!(b.hard_ms <= 20);
    }

    #[test]
    fn movetime_and_no_clock() {
        let p = GoParams {
            movetime: Some(1000),
            ..GoParams::default()
        };
        assert_eq!(
            budget(&p, Color::Red, 30),
            Some(TimeBudget {
                soft_ms: 970,
                hard_ms: 970
            })
        );
        let p = GoParams {
            depth: Some(5),
            ..GoParams::default()
        };
        assert_eq!(budget(&p, Color::Red, 30), None);
        let p = GoParams {
            wtime: Some(10_000),
            btime: Some(60_000),
            ..GoParams::default()
        };
        assert_eq!(budget(&p, Color::Black, 30).map(|b| b.soft_ms), Some(1999));
    }

    #[test]
    fn nodes_as_time() {
        let p = GoParams {
            wtime: Some(10_000),
            btime: Some(20_000),
            winc: Some(100),
            ..GoParams::default()
        };
        // The first search: the clock in nodes.
        let (q, left, inc) = nodes_clock(&p, Color::Red, 5, None).expect("a clock");
        assert_eq!(
            (q.wtime, q.btime, left, inc),
            (Some(10_000), Some(20_000), 50_000, 500)
        );
        // Later ones: the engine's own count, whatever the GUI's clock says.
        let (q, left, _) = nodes_clock(&p, Color::Red, 5, Some(30_000)).expect("a clock");
        assert_eq!((q.wtime, left), (Some(6_000), 30_000));
        let (q, _, inc) = nodes_clock(&p, Color::Black, 5, Some(30_000)).expect("a clock");
        assert_eq!((q.btime, q.wtime, inc), (Some(6_000), Some(10_000), 0));
        let depth = GoParams {
            depth: Some(5),
            ..GoParams::default()
        };
        assert_eq!(nodes_clock(&depth, Color::Red, 5, None), None);
    }

    #[test]
    fn stability_moves_the_soft_limit() {
        let b = TimeBudget {
            soft_ms: 1000,
            hard_ms: 5000,
        };
        assert!(!should_stop(&b, 500, 0, 0, 0));
        assert!(should_stop(&b, 600, 0, 0, 0));
        assert!(!should_stop(&b, 700, 2, 0, 0));
        assert!(should_stop(&b, 400, 0, 0, 4));
    }

    proptest::proptest! {
        #[test]
        fn budgets_fit_the_clock(time in 0u64..10_000_000, inc in 0u64..100_000,
                                 mtg in proptest::option::of(1u64..100), overhead in 0u64..1000) {
            let b = clock_budget(time, inc, mtg, overhead);
            proptest::prop_assert!(1 <= b.soft_ms && b.soft_ms <= b.hard_ms);
            proptest::prop_assert!(b.hard_ms <= time.saturating_sub(overhead).max(time / 4).max(1));
        }
    }
}
