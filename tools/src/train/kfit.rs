//! Fitting K, the sigmoid's scale: the K that makes sigmoid(score / K) predict the game results
//! best (least mean squared error). It converts the engine's centipawns into an expected score,
//! so the net's output and the search scores in the target live on the same scale.

use super::data::sigmoid;
use crate::datagen::record::Record;

/// Positions used for the fit at most (an even sample of the data).
const SAMPLE: usize = 1 << 20;

/// Mean squared error of sigmoid(score / k) against the results.
pub fn error(records: &[Record], k: f64) -> f64 {
    let step = records.len().div_ceil(SAMPLE).max(1);
    let mut sum = 0.0;
    let mut n = 0usize;
    for r in records.iter().step_by(step) {
        let d = sigmoid((r.score as f64 / k) as f32) as f64 - r.outcome.value() as f64;
        sum += d * d;
        n += 1;
    }
    sum / n.max(1) as f64
}

/// The best K between 10 and 10000 centipawns (golden-section search on log K).
pub fn fit(records: &[Record]) -> f64 {
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    let (mut lo, mut hi) = (10f64.ln(), 10000f64.ln());
    let mut a = hi - phi * (hi - lo);
    let mut b = lo + phi * (hi - lo);
    let (mut fa, mut fb) = (error(records, a.exp()), error(records, b.exp()));
    for _ in 0..60 {
        if fa <= fb {
            hi = b;
            b = a;
            fb = fa;
            a = hi - phi * (hi - lo);
            fa = error(records, a.exp());
        } else {
            lo = a;
            a = b;
            fa = fb;
            b = lo + phi * (hi - lo);
            fb = error(records, b.exp());
        }
    }
    ((lo + hi) / 2.0).exp()
}
