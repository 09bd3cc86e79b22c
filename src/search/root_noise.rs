//! UCCI's `randomness`: a random amount in `0..=mask` added to each root move's score, as
//! ElephantEye does, so that the engine varies its play among moves of near-equal value.
//!
//! The amount is a function of the move and a seed drawn once per `go`: every iteration and
//! every thread of the search sees the same amount for the same move, so iterative deepening,
//! aspiration and Lazy SMP agree with themselves. The noise lives only at the root: the
//! children are searched with the window shifted by the move's amount and return their own
//! values, so nothing noisy enters the transposition table below the root, and the root's own
//! entry keeps only its move. A decided score (a mate or a rule win, either way) gets no noise,
//! and a noisy score never rises past `WIN_BOUND`: the noise can change which of several
//! near-equal moves is played, never a mate's distance or which side is winning.

use super::score::WIN_BOUND;
use crate::board::zobrist::mix;
use crate::board::Move;

/// The noise of one search: `mask` 0 is none (the search is exactly the plain one).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct RootNoise {
    /// The largest amount, in centipawns (0: no noise).
    pub mask: i32,
    /// Chooses the amounts; one per search.
    pub seed: u64,
}

impl RootNoise {
    /// No noise.
    pub const NONE: RootNoise = RootNoise { mask: 0, seed: 0 };

    /// The amount for root move `m`, in `0..=mask`.
    #[inline]
    pub fn of(&self, m: Move) -> i32 {
        if self.mask <= 0 {
            return 0;
        }
        let draw = mix(self.seed ^ u64::from(m.raw()).wrapping_mul(0x9E37_79B9));
        (draw % (self.mask as u64 + 1)) as i32
    }
}

/// The child's window, from the root mover's side, for a root window (`alpha`, `beta`) and a
/// move of `noise`. The move scores `noisy(raw)`; this window keeps every answer the root reads
/// from it sound: a noisy score above `alpha` comes from a raw score above the child's alpha,
/// and one below `beta` from one below the child's beta. In the plain range both ends shift
/// by the noise; near the decided band the upper end stays (a wider window, still exact).
#[inline]
pub fn child_window(alpha: i32, beta: i32, noise: i32) -> (i32, i32) {
    if noise == 0 {
        return (alpha, beta);
    }
    let low = (alpha - noise).max(-super::score::INFINITE);
    let high = if (-WIN_BOUND + noise..=WIN_BOUND).contains(&beta) {
        beta - noise
    } else {
        beta
    };
    (low, high)
}

/// The root's score of a move whose search returned `raw`: `raw + noise`, capped at
/// `WIN_BOUND`; a decided score is returned as it is. Non-decreasing in `raw`, so bounds stay
/// bounds.
#[inline]
pub fn noisy(raw: i32, noise: i32) -> i32 {
    if noise == 0 || raw.abs() > WIN_BOUND {
        raw
    } else {
        (raw + noise).min(WIN_BOUND)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::score::{mate_in, mated_in, rule_win_in, INFINITE};

    #[test]
    fn amounts_stay_in_the_mask_and_follow_the_seed() {
        let moves: Vec<Move> = (0..2000u16).filter_map(Move::from_raw).collect();
        for mask in [1, 3, 7, 31, 124] {
            let noise = RootNoise { mask, seed: 42 };
            let amounts: Vec<i32> = moves.iter().map(|&m| noise.of(m)).collect();
            assert!(amounts.iter().all(|a| (0..=mask).contains(a)));
            // Every amount occurs: the draw covers the range.
            assert!((0..=mask).all(|a| amounts.contains(&a)), "mask {mask}");
            assert_eq!(
                amounts,
                moves.iter().map(|&m| noise.of(m)).collect::<Vec<_>>()
            );
        }
        let (a, b) = (
            RootNoise { mask: 31, seed: 1 },
            RootNoise { mask: 31, seed: 2 },
        );
        assert!(moves.iter().any(|&m| a.of(m) != b.of(m)));
        assert!(moves.iter().all(|&m| RootNoise::NONE.of(m) == 0));
    }

    #[test]
    fn decided_scores_get_no_noise_and_the_map_never_decreases() {
        assert_eq!(noisy(mate_in(5), 31), mate_in(5));
        assert_eq!(noisy(mated_in(4), 31), mated_in(4));
        assert_eq!(noisy(rule_win_in(3), 31), rule_win_in(3));
        assert_eq!(noisy(WIN_BOUND - 10, 31), WIN_BOUND);
        assert_eq!(noisy(-WIN_BOUND, 31), -WIN_BOUND + 31);
        assert_eq!(noisy(17, 0), 17);
        let mut last = -INFINITE;
        for raw in -INFINITE..=INFINITE {
            let s = noisy(raw, 31);
            assert!(s >= last && s >= raw && s <= raw + 31, "{raw}");
            last = s;
        }
    }

    /// The window's promise, checked over every raw score for windows across the bands: a
    /// score the root reads as above alpha is above the child's alpha (exact or a lower
    /// bound), one it reads as below beta is below the child's beta (exact or an upper bound).
    #[test]
    fn the_child_window_keeps_the_root_sound() {
        let edges = [
            -INFINITE,
            mated_in(3),
            -WIN_BOUND - 1,
            -WIN_BOUND,
            -WIN_BOUND + 20,
            -50,
            0,
            1,
            WIN_BOUND - 20,
            WIN_BOUND,
            WIN_BOUND + 1,
            mate_in(3),
            INFINITE,
        ];
        for noise in [0, 1, 31] {
            for &alpha in &edges {
                for &beta in edges.iter().filter(|&&b| b > alpha) {
                    let (low, high) = child_window(alpha, beta, noise);
                    assert!(low < high, "{alpha} {beta} {noise}");
                    for raw in (-INFINITE..=INFINITE).step_by(7).chain(edges) {
                        let s = noisy(raw, noise);
                        if s > alpha {
                            assert!(raw > low, "{alpha} {beta} {noise} {raw}");
                        }
                        if s < beta {
                            assert!(raw < high, "{alpha} {beta} {noise} {raw}");
                        }
                    }
                }
            }
        }
    }
}
