//! The generalised SPRT in normalised Elo, the model of the field's testing frameworks
//! (M. Van den Bergh, "Normalized Elo" and "A practical introduction to the GSPRT").
//!
//! Normalised Elo measures a difference in units of the match's own noise: the t-value
//! `(mean - 1/2) / sigma` of one game's score, times `800 / ln 10`. For game pairs the pair's
//! mean score and its spread are measured and the spread of one game is `sqrt(2)` times the
//! pair's. A test with bounds in normalised Elo then needs the same number of games whatever
//! the draw rate, so one table of bounds and lengths serves every time control.
//!
//! The log-likelihood ratio is exact: for each hypothesis the law over the observed outcomes
//! that is closest in likelihood to the empirical one and has that t-value, and the LLR is N
//! times the empirical mean of the log ratio of the two laws. Empty cells count 1/1000 of an
//! observation (as the frameworks do), so that a match whose pairs all scored alike still has
//! a spread and reaches the right decision instead of none.

/// Normalised Elo per unit of t-value: 800 / ln 10.
pub const NELO_PER_T: f64 = 800.0 / std::f64::consts::LN_10;

/// What an empty cell counts as, in observations.
const EMPTY_CELL: f64 = 1e-3;

/// A law over outcomes: (value, probability) pairs, values ascending.
pub type Law = Vec<(f64, f64)>;

/// The empirical law of counts over outcomes equally spaced on [0, 1] (3 cells: a game's
/// loss, draw, win; 5 cells: a pair's 0 to 2 points), empty cells regularised, and the number
/// of observations.
pub fn empirical(counts: &[u64]) -> (f64, Law) {
    let cells: Vec<f64> = counts
        .iter()
        .map(|&c| if c == 0 { EMPTY_CELL } else { c as f64 })
        .collect();
    let n: f64 = cells.iter().sum();
    let last = (counts.len() - 1) as f64;
    let law = cells
        .iter()
        .enumerate()
        .map(|(i, c)| (i as f64 / last, c / n))
        .collect();
    (n, law)
}

/// Mean and variance of a law.
pub fn moments(law: &[(f64, f64)]) -> (f64, f64) {
    let mean: f64 = law.iter().map(|(a, p)| a * p).sum();
    let var = law.iter().map(|(a, p)| p * (a - mean).powi(2)).sum();
    (mean, var)
}

/// The root x of sum p_i a_i / (1 + x a_i) = 0 between the poles -1/max(a) and -1/min(a),
/// where the sum falls from +inf to -inf (its derivative is -sum p_i a_i^2 / (1 + x a_i)^2).
/// Needs min(a) < 0 < max(a); the root is 0 when the law's mean is already 0.
fn secular(law: &[(f64, f64)]) -> f64 {
    let f = |x: f64| law.iter().map(|&(a, p)| p * a / (1.0 + x * a)).sum::<f64>();
    let high = law.iter().map(|l| l.0).fold(f64::NEG_INFINITY, f64::max);
    let low = law.iter().map(|l| l.0).fold(f64::INFINITY, f64::min);
    debug_assert!(low < 0.0 && high > 0.0, "secular: values {low}..{high}");
    let (mut lo, mut hi) = (-1.0 / high, -1.0 / low);
    // Shrink inside the poles by a relative step so that both ends are finite.
    let span = hi - lo;
    lo += span * 1e-15;
    hi -= span * 1e-15;
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
        if hi - lo <= 1e-15 * (1.0 + mid.abs()) {
            break;
        }
    }
    0.5 * (lo + hi)
}

/// The law closest in likelihood to `observed` whose t-value `(mean - reference) / sigma`
/// is `t`: a fixed point of the Lagrange condition, solved by linearising the constraint at
/// the current law (the frameworks' `MLE_tvalue`), which converges in a few steps. `None`
/// when a step leaves f64's range (a law all but degenerate, such as hundreds of pairs all
/// lost).
pub fn closest_with_t(observed: &[(f64, f64)], reference: f64, t: f64) -> Option<Law> {
    let mut law: Law = observed.to_vec();
    for _ in 0..100 {
        let (mean, var) = moments(&law);
        let sigma = var.sqrt();
        let shifted: Law = observed
            .iter()
            .map(|&(a, p)| {
                let z = (mean - a) / sigma;
                (a - reference - t * sigma * (1.0 + z * z) / 2.0, p)
            })
            .collect();
        if !shifted.iter().any(|s| s.0 < 0.0) || !shifted.iter().any(|s| s.0 > 0.0) {
            return None;
        }
        let x = secular(&shifted);
        let next: Law = observed
            .iter()
            .zip(&shifted)
            .map(|(&(a, p), &(b, _))| (a, p / (1.0 + x * b)))
            .collect();
        if next.iter().any(|q| !(q.1.is_finite() && q.1 > 0.0)) {
            return None;
        }
        let change = next
            .iter()
            .zip(&law)
            .map(|(n, o)| (n.1 - o.1).abs())
            .fold(0.0, f64::max);
        law = next;
        if change < 1e-12 {
            break;
        }
    }
    Some(law)
}

/// The t-value of one observation for a normalised Elo: one game's, times sqrt(2) for a pair.
pub fn t_of_nelo(nelo: f64, paired: bool) -> f64 {
    let t = nelo / NELO_PER_T;
    if paired {
        t * std::f64::consts::SQRT_2
    } else {
        t
    }
}

/// The exact GSPRT log-likelihood ratio of H1: nElo = nelo1 against H0: nElo = nelo0, over
/// counts of games (3 cells) or of pairs (5 cells). Where the exact laws cannot be computed
/// (counts all but degenerate), the frameworks' asymptotic form
/// N / 2 ln((1 + (t - t0)^2) / (1 + (t - t1)^2)), t the observed t-value, stands in.
pub fn llr_normalized(counts: &[u64], nelo0: f64, nelo1: f64) -> f64 {
    if counts.iter().sum::<u64>() == 0 {
        return 0.0;
    }
    let paired = counts.len() == 5;
    let (n, observed) = empirical(counts);
    let (t0, t1) = (t_of_nelo(nelo0, paired), t_of_nelo(nelo1, paired));
    match (
        closest_with_t(&observed, 0.5, t0),
        closest_with_t(&observed, 0.5, t1),
    ) {
        (Some(law0), Some(law1)) => {
            n * observed
                .iter()
                .zip(law0.iter().zip(&law1))
                .map(|(&(_, p), (q0, q1))| p * (q1.1.ln() - q0.1.ln()))
                .sum::<f64>()
        }
        _ => {
            let (mean, var) = moments(&observed);
            let t = (mean - 0.5) / var.sqrt();
            n / 2.0 * ((1.0 + (t - t0).powi(2)) / (1.0 + (t - t1).powi(2))).ln()
        }
    }
}

/// Normalised Elo of counts of games (3 cells) or pairs (5 cells), with its 95 % interval
/// from the normal approximation of the t-value's spread (`None` without a game).
pub fn nelo(counts: &[u64]) -> Option<(f64, f64)> {
    if counts.iter().sum::<u64>() == 0 {
        return None;
    }
    let paired = counts.len() == 5;
    let (n, observed) = empirical(counts);
    let (mean, var) = moments(&observed);
    let sigma = var.sqrt();
    let scale = if paired {
        NELO_PER_T / std::f64::consts::SQRT_2
    } else {
        NELO_PER_T
    };
    let t = (mean - 0.5) / sigma;
    // The t-value's standard error is about 1 / sqrt(N) near 0 (the spread's own error is of
    // second order there).
    let margin = 1.959_963_984_540_054 / n.sqrt() * scale;
    Some((t * scale, margin))
}

/// What an SPRT with these bounds does when the true difference is `nelo`: the chance that
/// it accepts H1, and the games it plays on average. Wald's approximation (the LLR a Brownian
/// motion, overshoot ignored): per pair the LLR moves by (t1 - t0)(t - (t0 + t1) / 2) with
/// variance (t1 - t0)^2, t in a pair's units.
pub fn operating_point(nelo0: f64, nelo1: f64, lower: f64, upper: f64, nelo: f64) -> (f64, f64) {
    let (t0, t1, t) = (
        t_of_nelo(nelo0, true),
        t_of_nelo(nelo1, true),
        t_of_nelo(nelo, true),
    );
    let drift = (t1 - t0) * (t - (t0 + t1) / 2.0);
    let variance = (t1 - t0).powi(2);
    let (p_upper, pairs) = if (drift / variance).abs() * (upper - lower) < 1e-9 {
        (-lower / (upper - lower), -lower * upper / variance)
    } else {
        // The scale function exp(theta x) of a Brownian motion with this drift.
        let theta = -2.0 * drift / variance;
        let (el, eu) = ((theta * lower).exp(), (theta * upper).exp());
        let p = (1.0 - el) / (eu - el);
        (p, (p * upper + (1.0 - p) * lower) / drift)
    };
    (p_upper, 2.0 * pairs)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The log-likelihood (per observation) of the law closest to `observed` with mean `m`
    /// and, when given, variance `v`: such a law has the form
    /// p_i / (1 + l1 (a_i - m) + l2 ((a_i - m)^2 - v)), its multipliers found here by damped
    /// Newton steps on the constraints (l2 = 0 when the variance is free).
    fn constrained_loglik(observed: &[(f64, f64)], m: f64, v: Option<f64>) -> f64 {
        let w_of = |a: f64| v.map_or(0.0, |v| (a - m).powi(2) - v);
        let (mut l1, mut l2) = (0.0f64, 0.0f64);
        for _ in 0..500 {
            let (mut g1, mut g2, mut j11, mut j12, mut j22) = (0.0, 0.0, 0.0, 0.0, 0.0);
            for &(a, p) in observed {
                let (u, w) = (a - m, w_of(a));
                let d = 1.0 + l1 * u + l2 * w;
                let q = p / d;
                g1 += q * u;
                g2 += q * w;
                j11 -= q * u * u / d;
                j12 -= q * u * w / d;
                j22 -= q * w * w / d;
            }
            if g1.abs() + g2.abs() < 1e-15 {
                break;
            }
            let (d1, d2) = if v.is_some() {
                let det = j11 * j22 - j12 * j12;
                ((g1 * j22 - g2 * j12) / det, (j11 * g2 - j12 * g1) / det)
            } else {
                (g1 / j11, 0.0)
            };
            let mut step = 1.0;
            while observed
                .iter()
                .any(|&(a, _)| 1.0 + (l1 - step * d1) * (a - m) + (l2 - step * d2) * w_of(a) <= 0.0)
            {
                step /= 2.0;
            }
            l1 -= step * d1;
            l2 -= step * d2;
        }
        observed
            .iter()
            .map(|&(a, p)| p * (p / (1.0 + l1 * (a - m) + l2 * w_of(a))).ln())
            .sum()
    }

    /// The LLR by a second route: the best law with t-value t is the best, over its mean m,
    /// of the closest law with mean m and variance ((m - 1/2) / t)^2 (golden-section search
    /// over m); for t = 0 the mean is 1/2 and the variance free.
    fn profile_llr(counts: &[u64], nelo0: f64, nelo1: f64) -> f64 {
        let paired = counts.len() == 5;
        let (n, observed) = empirical(counts);
        let best = |t: f64| -> f64 {
            if t == 0.0 {
                return constrained_loglik(&observed, 0.5, None);
            }
            let loglik = |m: f64| constrained_loglik(&observed, m, Some(((m - 0.5) / t).powi(2)));
            // The mean lies on t's side of 1/2 (the other side is another t-value's).
            let (mut lo, mut hi) = if t > 0.0 {
                (0.5 + 1e-12, 1.0)
            } else {
                (0.0, 0.5 - 1e-12)
            };
            let ratio = (5f64.sqrt() - 1.0) / 2.0;
            for _ in 0..100 {
                let (x1, x2) = (hi - ratio * (hi - lo), lo + ratio * (hi - lo));
                if loglik(x1) < loglik(x2) {
                    lo = x1;
                } else {
                    hi = x2;
                }
            }
            loglik(0.5 * (lo + hi))
        };
        n * (best(t_of_nelo(nelo1, paired)) - best(t_of_nelo(nelo0, paired)))
    }

    #[test]
    fn the_exact_llr_agrees_with_a_profile_likelihood_computed_another_way() {
        // The frameworks' own example counts (bounds 0.5, 2.5), a run of this project's and
        // a one-sided small sample; pairs and single games.
        let cases: [(&[u64], f64, f64); 5] = [
            (&[39, 8843, 26675, 9240, 44], 0.5, 2.5),
            (&[88, 450, 864, 432, 94], 0.0, 10.0),
            (&[4, 30, 60, 40, 10], -5.0, 5.0),
            (&[1658, 3844, 1603], 0.0, 10.0),
            (&[22569, 44137, 22976], 0.5, 2.5),
        ];
        for (counts, e0, e1) in cases {
            let fast = llr_normalized(counts, e0, e1);
            let slow = profile_llr(counts, e0, e1);
            assert!(
                (fast - slow).abs() < 1e-6 * (1.0 + slow.abs()),
                "{counts:?} [{e0}, {e1}]: {fast} against {slow}"
            );
        }
    }

    #[test]
    fn pairs_that_all_score_alike_reach_the_right_decision() {
        // The same build on both sides and a deterministic search: every pair scores 1.
        // Without regularisation the spread is 0 and the t-value 0/0; with it, the LLR falls
        // towards H0 as pairs come, at about the rate of equal engines (N t1^2 / 2 per pair).
        let llr = llr_normalized(&[0, 0, 1000, 0, 0], 0.0, 5.0);
        assert!(llr < -0.2 && llr > -1.0, "{llr}");
        let llr = llr_normalized(&[0, 0, 20000, 0, 0], 0.0, 5.0);
        assert!(llr < -2.944, "{llr}");
        // One side wins every game: the LLR grows towards H1 (or H0, for the loser) with the
        // pairs. A t-value far beyond both bounds is weak evidence between two close ones,
        // so a sweep of 50 pairs is not yet enough, 500 are.
        let sweep = llr_normalized(&[0, 0, 0, 0, 50], 0.0, 5.0);
        assert!(sweep > 0.5 && sweep < 2.944, "{sweep}");
        assert!(llr_normalized(&[0, 0, 0, 0, 500], 0.0, 5.0) > 2.944);
        assert!(llr_normalized(&[500, 0, 0, 0, 0], 0.0, 5.0) < 0.0);
        assert!(llr_normalized(&[500, 1, 0, 0, 0], 0.0, 5.0) < 0.0);
        // No game: nothing is known.
        assert_eq!(llr_normalized(&[0, 0, 0, 0, 0], 0.0, 5.0), 0.0);
    }

    #[test]
    fn the_normalised_elo_of_known_counts() {
        // Pairs [10, 20, 40, 20, 10]: mean 1/2, so 0.
        let (e, _) = nelo(&[10, 20, 40, 20, 10]).unwrap();
        assert!(e.abs() < 1e-9);
        // Pairs [0, 0, 50, 50, 0] (two cells regularised): mean 0.625, sigma 0.125, so
        // t = 1 per pair, 1/sqrt(2) per game: nElo = 800 / ln 10 / sqrt(2) = 245.67.
        let (e, margin) = nelo(&[0, 0, 50, 50, 0]).unwrap();
        assert!((e - 245.67).abs() < 0.1, "{e}");
        assert!((margin - 1.96 / 10.0 * 245.67).abs() < 0.1, "{margin}");
    }

    #[test]
    fn wald_operating_points() {
        let (lo, hi) = ((0.05f64 / 0.95).ln(), (0.95f64 / 0.05).ln());
        // At either hypothesis the error rates come out as chosen (equal alpha and beta give
        // symmetric bounds, for which Wald's formulas are exact for a Brownian motion).
        let (p0, n0) = operating_point(0.0, 10.0, lo, hi, 0.0);
        let (p1, n1) = operating_point(0.0, 10.0, lo, hi, 10.0);
        assert!((p0 - 0.05).abs() < 1e-9, "{p0}");
        assert!((p1 - 0.95).abs() < 1e-9, "{p1}");
        // Expected length at H0 and H1: 2 pairs per (0.9 ln 19) / ((t1 - t0)^2 / 2).
        let t1 = t_of_nelo(10.0, true);
        let expected = 2.0 * 0.9 * 19f64.ln() / (t1 * t1 / 2.0);
        assert!((n0 - expected).abs() < 1e-6 * expected, "{n0} {expected}");
        assert!((n1 - expected).abs() < 1e-6 * expected, "{n1}");
        // In the middle: a coin toss, and the longest test: ln(19)^2 / (t1 - t0)^2 pairs.
        let (pm, nm) = operating_point(0.0, 10.0, lo, hi, 5.0);
        assert!((pm - 0.5).abs() < 1e-9);
        assert!((nm - 2.0 * 19f64.ln().powi(2) / (t1 * t1)).abs() < 1e-6 * nm);
    }
}
