//! SPSA (Spall's simultaneous perturbation stochastic approximation) as chess engines tune
//! with it: at iteration k every parameter is moved by ±c_k at once (θ+ and θ−), a game pair
//! between the two says which side was better, and each parameter steps towards that side.
//!
//! The schedule is Spall's with the field's choice of constants: for N iterations,
//! A = a_ratio·N; c_k = c/k^0.101 with c = c_end·N^0.101 (so c_N = c_end);
//! a_k = a/(A+k)^0.602 with a = r_end·c_end²·(A+N)^0.602 (so a_N/c_N² = r_end);
//! r_k = a_k/c_k², and θ += r_k·c_k·(W−L of θ+ over the pair)·Δ, clamped to the range.

use crate::common::rng::SplitMix64;
use pao::search::params::Param;

/// Spall's exponent of the step size a_k.
pub const ALPHA: f64 = 0.602;
/// Spall's exponent of the perturbation c_k.
pub const GAMMA: f64 = 0.101;

/// The constants of the whole run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Schedule {
    /// Iterations of the run (N): the schedule reaches c_end and r_end there.
    pub iterations: u64,
    /// A as a fraction of N.
    pub a_ratio: f64,
    /// The learning rate r = a/c² at the final iteration.
    pub r_end: f64,
}

/// The coefficients of one parameter at one iteration.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Step {
    /// The perturbation c_k.
    pub c: f64,
    /// The step size a_k.
    pub a: f64,
}

impl Step {
    /// r_k = a_k / c_k².
    pub fn r(self) -> f64 {
        self.a / (self.c * self.c)
    }
}

impl Schedule {
    /// The coefficients of a parameter whose final perturbation is `c_end`, at iteration `k`
    /// (1-based; beyond N the schedule keeps its decay).
    pub fn step(&self, c_end: f64, k: u64) -> Step {
        let n = self.iterations.max(1) as f64;
        let k = k.max(1) as f64;
        let big_a = self.a_ratio * n;
        let c = c_end * n.powf(GAMMA);
        let a = self.r_end * c_end * c_end * (big_a + n).powf(ALPHA);
        Step {
            c: c / k.powf(GAMMA),
            a: a / (big_a + k).powf(ALPHA),
        }
    }
}

/// The signs Δ of iteration `k` of a run seeded with `seed`: one ±1 per parameter, the same
/// whichever process plays the pair.
pub fn perturbation(seed: u64, k: u64, count: usize) -> Vec<f64> {
    let mut rng = SplitMix64::new(seed, k);
    (0..count)
        .map(|_| if rng.next_u64() & 1 == 1 { 1.0 } else { -1.0 })
        .collect()
}

/// The two players of iteration `k`: θ + c_k·Δ and θ − c_k·Δ, each clamped to its range and
/// rounded (the engine takes whole numbers).
pub fn players(
    params: &[Param],
    theta: &[f64],
    delta: &[f64],
    schedule: &Schedule,
    k: u64,
) -> [Vec<i32>; 2] {
    [1.0, -1.0].map(|sign| {
        params
            .iter()
            .zip(theta.iter().zip(delta))
            .map(|(p, (&t, &d))| {
                let c = schedule.step(p.c_end, k).c;
                (t + sign * c * d)
                    .clamp(f64::from(p.min), f64::from(p.max))
                    .round() as i32
            })
            .collect()
    })
}

/// The update after the pair of iteration `k`: `result` is θ+'s wins minus losses (−2..2).
pub fn update(
    params: &[Param],
    theta: &mut [f64],
    delta: &[f64],
    schedule: &Schedule,
    k: u64,
    result: f64,
) {
    for (p, (t, &d)) in params.iter().zip(theta.iter_mut().zip(delta)) {
        let step = schedule.step(p.c_end, k);
        *t = (*t + step.r() * step.c * result * d).clamp(f64::from(p.min), f64::from(p.max));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn param(name: &'static str, default: i32, min: i32, max: i32, c_end: f64) -> Param {
        Param {
            name,
            default,
            min,
            max,
            c_end,
            switch: None,
            doc: "",
        }
    }

    fn close(a: f64, b: f64) {
        assert!((a - b).abs() < 1e-9 * b.abs().max(1.0), "{a} != {b}");
    }

    #[test]
    fn the_schedule_ends_at_c_end_and_r_end() {
        let s = Schedule {
            iterations: 1000,
            a_ratio: 0.1,
            r_end: 0.002,
        };
        let end = s.step(10.0, 1000);
        close(end.c, 10.0);
        close(end.r(), 0.002);
        close(end.a, 0.2);
        // c_1 = c_end·N^0.101; a_1 = r_end·c_end²·(A+N)^0.602/(A+1)^0.602.
        let first = s.step(10.0, 1);
        close(first.c, 10.0 * 1000f64.powf(0.101));
        close(first.c, 20.090_928_126_087_28);
        close(first.a, 0.2 * (1100.0f64 / 101.0).powf(0.602));
        close(first.a, 0.842_067_537_302_817_9);
        // The perturbation shrinks and the step size shrinks, iteration after iteration.
        let mid = s.step(10.0, 500);
        assert!(first.c > mid.c && mid.c > end.c);
        assert!(first.a > mid.a && mid.a > end.a);
        // Both scale with c_end as they must: c linearly, a quadratically, r not at all.
        let big = s.step(20.0, 500);
        close(big.c, 2.0 * mid.c);
        close(big.a, 4.0 * mid.a);
        close(big.r(), mid.r());
    }

    #[test]
    fn the_perturbation_is_fixed_by_seed_and_iteration() {
        assert_eq!(perturbation(1, 1, 6), vec![-1.0, 1.0, 1.0, 1.0, -1.0, -1.0]);
        assert_eq!(perturbation(1, 1, 6), perturbation(1, 1, 6));
        assert_ne!(perturbation(1, 2, 16), perturbation(1, 1, 16));
        assert_ne!(perturbation(2, 1, 16), perturbation(1, 1, 16));
    }

    #[test]
    fn a_parameter_whose_delta_is_zero_is_held() {
        let params = [param("A", 100, 0, 200, 10.0), param("B", 5, 1, 8, 0.5)];
        let s = Schedule {
            iterations: 100,
            a_ratio: 0.1,
            r_end: 0.002,
        };
        let mut theta = vec![100.0, 5.3];
        let delta = [1.0, 0.0];
        let [plus, minus] = players(&params, &theta, &delta, &s, 1);
        assert_eq!((plus[1], minus[1]), (5, 5), "the same value on both sides");
        assert_ne!(plus[0], minus[0]);
        update(&params, &mut theta, &delta, &s, 1, 2.0);
        assert_eq!(theta[1], 5.3);
        assert!(theta[0] > 100.0);
    }

    #[test]
    fn one_update_moves_each_parameter_by_r_c_result_delta() {
        let params = [
            param("A", 100, 0, 200, 10.0),
            param("B", 5, 1, 8, 0.5),
            param("C", 7, 0, 7, 1.0),
        ];
        let s = Schedule {
            iterations: 100,
            a_ratio: 0.1,
            r_end: 0.002,
        };
        let mut theta = vec![100.0, 5.0, 7.0];
        let delta = [1.0, -1.0, 1.0];
        let [plus, minus] = players(&params, &theta, &delta, &s, 100);
        // At the last iteration c = c_end: ±10, ∓0.5 (rounded away from zero), +1 clamped.
        assert_eq!(plus, vec![110, 5, 7]);
        assert_eq!(minus, vec![90, 6, 6]);
        // θ+ won the pair 2-0: each parameter moves by r_end·c_end·2·Δ.
        update(&params, &mut theta, &delta, &s, 100, 2.0);
        close(theta[0], 100.0 + 0.002 * 10.0 * 2.0);
        close(theta[0], 100.04);
        close(theta[1], 5.0 - 0.002 * 0.5 * 2.0);
        assert_eq!(theta[2], 7.0, "clamped to its maximum");
        // A drawn pair changes nothing; a lost one moves the other way.
        let before = theta.clone();
        update(&params, &mut theta, &delta, &s, 100, 0.0);
        assert_eq!(theta, before);
        update(&params, &mut theta, &delta, &s, 1, -1.0);
        let first = s.step(10.0, 1);
        close(theta[0], 100.04 - first.r() * first.c);
        // r_1·c_1 = a_1/c_1 = 0.2·(110/11)^0.602 / (10·100^0.101).
        close(
            theta[0],
            100.04 - 0.02 * 10f64.powf(0.602) / 100f64.powf(0.101),
        );
    }
}
