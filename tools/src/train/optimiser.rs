//! AdamW (Adam with decoupled weight decay) and the learning-rate schedule.

use super::args::Schedule;
use rayon::prelude::*;

/// Adam's first-moment decay.
const BETA1: f32 = 0.9;
/// Adam's second-moment decay.
const BETA2: f32 = 0.999;
/// Adam's denominator guard.
const EPSILON: f32 = 1e-8;
/// Parameters per parallel work item.
const CHUNK: usize = 8192;

/// AdamW's state: both moments of every parameter and the step count.
#[derive(Clone, PartialEq, Debug)]
pub struct AdamW {
    /// First moments.
    pub m: Vec<f32>,
    /// Second moments.
    pub v: Vec<f32>,
    /// Steps taken.
    pub t: u64,
}

impl AdamW {
    /// Zero state for `len` parameters.
    pub fn new(len: usize) -> AdamW {
        AdamW {
            m: vec![0.0; len],
            v: vec![0.0; len],
            t: 0,
        }
    }

    /// One step on `params` with gradient `grad`; weight decay applies where `decays(index)`
    /// holds (the caller's weights, not its biases).
    pub fn step(
        &mut self,
        params: &mut [f32],
        grad: &[f32],
        lr: f32,
        weight_decay: f32,
        decays: impl Fn(usize) -> bool + Sync,
    ) {
        self.t += 1;
        let c1 = 1.0 - BETA1.powi(self.t.min(i32::MAX as u64) as i32);
        let c2 = 1.0 - BETA2.powi(self.t.min(i32::MAX as u64) as i32);
        params
            .par_chunks_mut(CHUNK)
            .zip(self.m.par_chunks_mut(CHUNK))
            .zip(self.v.par_chunks_mut(CHUNK))
            .enumerate()
            .for_each(|(c, ((p, m), v))| {
                let g = &grad[c * CHUNK..c * CHUNK + p.len()];
                for i in 0..p.len() {
                    m[i] = BETA1 * m[i] + (1.0 - BETA1) * g[i];
                    v[i] = BETA2 * v[i] + (1.0 - BETA2) * g[i] * g[i];
                    let update = (m[i] / c1) / ((v[i] / c2).sqrt() + EPSILON);
                    let decay = if decays(c * CHUNK + i) {
                        weight_decay * p[i]
                    } else {
                        0.0
                    };
                    p[i] -= lr * (update + decay);
                }
            });
    }
}

/// The learning rate at batch `step` of `total` (epoch `epoch`, counted from 0).
pub fn learning_rate(schedule: Schedule, lr: f32, step: u64, total: u64, epoch: usize) -> f32 {
    match schedule {
        Schedule::Constant => lr,
        Schedule::Cosine => {
            let done = step as f64 / total.max(1) as f64;
            let floor = lr as f64 / 100.0;
            (floor + 0.5 * (lr as f64 - floor) * (1.0 + (std::f64::consts::PI * done).cos())) as f32
        }
        Schedule::Step { every, gamma } => lr * gamma.powi((epoch / every) as i32),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adam_walks_downhill_and_the_schedules_fall() {
        // Minimise (x - 3)^2 + (y + 1)^2 from the origin.
        let mut p = vec![0.0f32, 0.0];
        let mut adam = AdamW::new(2);
        for _ in 0..3000 {
            let g = [2.0 * (p[0] - 3.0), 2.0 * (p[1] + 1.0)];
            adam.step(&mut p, &g, 0.01, 0.0, |_| true);
        }
        assert!(
            (p[0] - 3.0).abs() < 1e-2 && (p[1] + 1.0).abs() < 1e-2,
            "{p:?}"
        );
        assert_eq!(learning_rate(Schedule::Cosine, 1.0, 0, 100, 0), 1.0);
        assert!((learning_rate(Schedule::Cosine, 1.0, 100, 100, 9) - 0.01).abs() < 1e-6);
        assert_eq!(
            learning_rate(
                Schedule::Step {
                    every: 2,
                    gamma: 0.5
                },
                1.0,
                0,
                0,
                5
            ),
            0.25
        );
        assert_eq!(learning_rate(Schedule::Constant, 0.3, 7, 10, 3), 0.3);
    }
}
