//! AdamW (Adam with decoupled weight decay), the weights' clipping, and the learning-rate
//! schedule.
//!
//! One step is one pass over the parameters: each element's moments, its update, its decay
//! and its clip, vectorised (the loops are compiled for AVX2 where the CPU has it). Every
//! parameter steps every batch, touched or not, as AdamW defines it: the moments of a row no
//! position read still move it, so skipping untouched rows (lazy Adam) would be another
//! optimiser.

use super::args::Schedule;
use super::network::{FloatNet, CLIP, PSQT_CLIP};
use super::simd::multiversion;
use pao::eval::nnue::features::INPUTS;
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

/// The constants of one step.
#[derive(Copy, Clone)]
struct Step {
    lr: f32,
    weight_decay: f32,
    c1: f32,
    c2: f32,
}

/// One element: its moments and its new value before clipping.
#[inline(always)]
fn adam(p: f32, m: &mut f32, v: &mut f32, g: f32, s: Step, decays: bool) -> f32 {
    *m = BETA1 * *m + (1.0 - BETA1) * g;
    *v = BETA2 * *v + (1.0 - BETA2) * g * g;
    let update = (*m / s.c1) / ((*v / s.c2).sqrt() + EPSILON);
    let decay = if decays { s.weight_decay * p } else { 0.0 };
    p - s.lr * (update + decay)
}

/// A run of parameters that share their decay and clip to ±`bound`.
#[inline(always)]
fn run_body(
    p: &mut [f32],
    m: &mut [f32],
    v: &mut [f32],
    g: &[f32],
    s: Step,
    decays: bool,
    bound: f32,
) {
    for i in 0..p.len() {
        p[i] = adam(p[i], &mut m[i], &mut v[i], g[i], s, decays).clamp(-bound, bound);
    }
}

/// Bucket rows of a factorised net: each weight is clipped so that its sum with its shared
/// weight (`shared`, already stepped and within ±bound) stays within ±bound, the range export
/// quantises.
#[inline(always)]
fn beside_body(
    p: &mut [f32],
    m: &mut [f32],
    v: &mut [f32],
    g: &[f32],
    s: Step,
    shared: &[f32],
    bound: f32,
) {
    for i in 0..p.len() {
        let x = adam(p[i], &mut m[i], &mut v[i], g[i], s, true);
        p[i] = x.max(-bound - shared[i]).min(bound - shared[i]);
    }
}

multiversion! {
    fn run(p: &mut [f32], m: &mut [f32], v: &mut [f32], g: &[f32], s: Step, decays: bool, bound: f32)
        = run_body;
}

multiversion! {
    fn beside(p: &mut [f32], m: &mut [f32], v: &mut [f32], g: &[f32], s: Step, shared: &[f32], bound: f32)
        = beside_body;
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

    /// One step on `net` with gradient `grad`, in one pass: weight decay on the weights (W
    /// and w, not the biases nor P), then every weight and bias clipped to ±CLIP (kept for
    /// quantisation) and P to ±PSQT_CLIP. Factorised, the shared rows step first and each
    /// bucket weight is clipped so that its sum with its shared weight stays within ±CLIP.
    pub fn step(&mut self, net: &mut FloatNet, grad: &[f32], lr: f32, weight_decay: f32) {
        self.t += 1;
        let t = self.t.min(i32::MAX as u64) as i32;
        let s = Step {
            lr,
            weight_decay,
            c1: 1.0 - BETA1.powi(t),
            c2: 1.0 - BETA2.powi(t),
        };
        let (h, l) = (net.hidden, net.layout());
        let rows = if net.inputs.factorised {
            net.inputs.set.inputs()
        } else {
            l.ft_bias / h
        };
        // Segments in the layout's order: [start, end), decays, bound.
        let mut parts = vec![(rows * h, l.ft_bias, true, CLIP)];
        parts.extend([
            (l.ft_bias, l.out_weights, false, CLIP),
            (l.out_weights, l.out_bias, true, CLIP),
            (l.out_bias, l.psqt, false, CLIP),
            (l.psqt, l.len, false, PSQT_CLIP),
        ]);
        let (p, m, v) = (&mut net.params[..], &mut self.m[..], &mut self.v[..]);
        for (start, end, decays, bound) in parts {
            p[start..end]
                .par_chunks_mut(CHUNK)
                .zip(m[start..end].par_chunks_mut(CHUNK))
                .zip(v[start..end].par_chunks_mut(CHUNK))
                .zip(grad[start..end].par_chunks(CHUNK))
                .for_each(|(((p, m), v), g)| run(p, m, v, g, s, decays, bound));
        }
        // The set's own rows: beside their shared rows when factorised.
        let (own, shared) = p[..l.ft_bias].split_at_mut(rows * h);
        let block = INPUTS * h;
        let chunk = CHUNK / h * h;
        own.par_chunks_mut(chunk)
            .zip(m[..rows * h].par_chunks_mut(chunk))
            .zip(v[..rows * h].par_chunks_mut(chunk))
            .zip(grad[..rows * h].par_chunks(chunk))
            .enumerate()
            .for_each(|(c, (((p, m), v), g))| {
                if shared.is_empty() {
                    return run(p, m, v, g, s, true, CLIP);
                }
                // Chunks are whole rows; a bucket's rows read the shared block in order.
                let at = c * chunk % block;
                let mut done = 0;
                while done < p.len() {
                    let from = (at + done) % block;
                    let len = (p.len() - done).min(block - from);
                    let r = done..done + len;
                    beside(
                        &mut p[r.clone()],
                        &mut m[r.clone()],
                        &mut v[r.clone()],
                        &g[r],
                        s,
                        &shared[from..from + len],
                        CLIP,
                    );
                    done += len;
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
        // Minimise (x - 0.7)^2 + (y + 0.4)^2 from the origin, for two first-layer weights.
        let mut net = FloatNet::new(16, pao::eval::nnue::Activation::ClippedRelu, 1);
        net.params.iter_mut().for_each(|p| *p = 0.0);
        let mut adam = AdamW::new(net.params.len());
        let mut g = vec![0.0; net.params.len()];
        for _ in 0..3000 {
            g[5] = 2.0 * (net.params[5] - 0.7);
            g[90] = 2.0 * (net.params[90] + 0.4);
            adam.step(&mut net, &g, 0.01, 0.0);
        }
        let p = [net.params[5], net.params[90]];
        assert!(
            (p[0] - 0.7).abs() < 1e-2 && (p[1] + 0.4).abs() < 1e-2,
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
