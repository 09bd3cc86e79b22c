//! Match statistics: logistic Elo, its 95 % error bar, pentanomial pair counts and the SPRT.

use super::gsprt;

/// z for a two-sided 95 % interval.
const Z95: f64 = 1.959_963_984_540_054;

/// Logistic Elo difference for an expected score in (0, 1); infinite at the ends.
pub fn elo_from_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// Expected score for a logistic Elo difference.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Mean and variance (per observation) of scores given as (value, count) pairs.
fn mean_variance(samples: &[(f64, u64)]) -> Option<(f64, f64, u64)> {
    let n: u64 = samples.iter().map(|s| s.1).sum();
    if n == 0 {
        return None;
    }
    let nf = n as f64;
    let mean = samples.iter().map(|(v, c)| v * *c as f64).sum::<f64>() / nf;
    let var = samples
        .iter()
        .map(|(v, c)| (v - mean).powi(2) * *c as f64)
        .sum::<f64>()
        / nf;
    Some((mean, var, n))
}

/// An Elo estimate with its 95 % margin.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// Mean score in [0, 1].
    pub score: f64,
    /// Elo difference from the score.
    pub elo: f64,
    /// Half-width of the 95 % interval in Elo (infinite when the score is 0 or 1 at an end).
    pub margin: f64,
}

fn estimate(samples: &[(f64, u64)]) -> Option<EloEstimate> {
    let (mean, var, n) = mean_variance(samples)?;
    // One observation says nothing about the spread.
    let margin = if n < 2 {
        f64::INFINITY
    } else {
        let stderr = (var / n as f64).sqrt();
        let lo = elo_from_score(mean - Z95 * stderr);
        let hi = elo_from_score(mean + Z95 * stderr);
        (hi - lo) / 2.0
    };
    Some(EloEstimate {
        score: mean,
        elo: elo_from_score(mean),
        margin,
    })
}

/// The Elo of single games and game pairs counted together (runs of one test kept by
/// different kinds): the score is every game's points over every game, its variance the sum of
/// each part's own (per game, per pair). Either part alone gives that part's own estimate.
pub fn pooled_elo(games: &Trinomial, pairs: &Pentanomial) -> Option<EloEstimate> {
    let single = mean_variance(&games.samples());
    // Pairs in points (0 to 2) rather than as a score, to sit beside single games.
    let double = mean_variance(&pairs.samples().map(|(v, c)| (2.0 * v, c)));
    let (points, variance, observations, total) = [single, double]
        .iter()
        .zip([1u64, 2])
        .filter_map(|(part, width)| part.map(|p| (p, width)))
        .fold((0.0, 0.0, 0u64, 0u64), |acc, ((mean, var, n), width)| {
            (
                acc.0 + mean * n as f64,
                acc.1 + var * n as f64,
                acc.2 + n,
                acc.3 + width * n,
            )
        });
    if total == 0 {
        return None;
    }
    let score = points / total as f64;
    let margin = if observations < 2 {
        f64::INFINITY
    } else {
        let stderr = variance.sqrt() / total as f64;
        (elo_from_score(score + Z95 * stderr) - elo_from_score(score - Z95 * stderr)) / 2.0
    };
    Some(EloEstimate {
        score,
        elo: elo_from_score(score),
        margin,
    })
}

/// Win/loss/draw counts from one engine's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Trinomial {
    /// Games won.
    pub wins: u64,
    /// Games lost.
    pub losses: u64,
    /// Games drawn.
    pub draws: u64,
}

impl Trinomial {
    /// Games counted.
    pub fn games(&self) -> u64 {
        self.wins + self.losses + self.draws
    }

    /// Points: a win 1, a draw 1/2.
    pub fn points(&self) -> f64 {
        self.wins as f64 + self.draws as f64 / 2.0
    }

    fn samples(&self) -> [(f64, u64); 3] {
        [(1.0, self.wins), (0.5, self.draws), (0.0, self.losses)]
    }

    /// Elo from the score, error from the per-game (trinomial) variance.
    pub fn elo(&self) -> Option<EloEstimate> {
        estimate(&self.samples())
    }
}

/// Counts of game pairs (same opening, colours swapped) by points scored: 0, 1/2, 1, 3/2, 2.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial {
    /// `counts[k]` = pairs that scored `k / 2` points.
    pub counts: [u64; 5],
}

impl Pentanomial {
    /// Adds a pair given its two game scores (each 0, 0.5 or 1).
    pub fn add_pair(&mut self, first: f64, second: f64) {
        let k = ((first + second) * 2.0).round().clamp(0.0, 4.0) as usize;
        self.counts[k] += 1;
    }

    /// Adds the pairs of `other` (another run of the same test).
    pub fn add(&mut self, other: &Pentanomial) {
        for (sum, n) in self.counts.iter_mut().zip(other.counts) {
            *sum += n;
        }
    }

    /// Pairs counted.
    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// Points of the first engine over every pair: a pair in `counts[k]` scored k / 2.
    pub fn points(&self) -> f64 {
        self.counts
            .iter()
            .zip(0u32..)
            .map(|(&n, k)| n as f64 * f64::from(k) / 2.0)
            .sum()
    }

    fn samples(&self) -> [(f64, u64); 5] {
        let mut s = [(0.0, 0); 5];
        for (k, c) in self.counts.iter().enumerate() {
            s[k] = (k as f64 / 4.0, *c);
        }
        s
    }

    /// Elo from the pair scores, error from the per-pair (pentanomial) variance.
    pub fn elo(&self) -> Option<EloEstimate> {
        estimate(&self.samples())
    }
}

/// The scale the SPRT's bounds are given in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EloModel {
    /// Normalised Elo (`gsprt.rs`): the difference in units of the match's own noise, so
    /// that a test's length does not depend on the draw rate; the exact GSPRT.
    Normalized,
    /// Logistic Elo, in the normal approximation of the GSPRT (the model of the project's
    /// tests until 2026-11-28).
    Logistic,
}

/// A sequential probability ratio test of H0: elo = elo0 against H1: elo = elo1.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// False positive rate.
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
    /// The scale of elo0 and elo1.
    pub model: EloModel,
    /// No decision before this many games (a floor against deciding on a handful of pairs).
    pub min_games: u64,
}

/// What the SPRT concluded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// LLR fell below the lower bound: H0 (no gain of elo1) accepted.
    AcceptH0,
    /// LLR rose above the upper bound: H1 accepted.
    AcceptH1,
    /// Keep playing.
    Continue,
}

impl Sprt {
    /// Parses `elo0=0 elo1=10 alpha=0.05 beta=0.05 model=normalized min-games=200` (any
    /// order, all optional; those are the defaults).
    pub fn parse(words: &[String]) -> Result<Sprt, String> {
        let mut s = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
            model: EloModel::Normalized,
            min_games: 200,
        };
        for w in words {
            let (k, v) = w
                .split_once('=')
                .ok_or_else(|| format!("--sprt: expected key=value, got '{w}'"))?;
            match k {
                "model" => {
                    s.model = match v {
                        "normalized" | "normalised" => EloModel::Normalized,
                        "logistic" => EloModel::Logistic,
                        _ => {
                            return Err(format!(
                                "--sprt: model '{v}' is not 'normalized' or 'logistic'"
                            ))
                        }
                    };
                    continue;
                }
                "min-games" => {
                    s.min_games = v
                        .parse()
                        .map_err(|_| format!("--sprt: min-games '{v}' is not a whole number"))?;
                    continue;
                }
                _ => {}
            }
            let v: f64 = v
                .parse()
                .map_err(|_| format!("--sprt: '{v}' is not a number"))?;
            match k {
                "elo0" => s.elo0 = v,
                "elo1" => s.elo1 = v,
                "alpha" => s.alpha = v,
                "beta" => s.beta = v,
                _ => return Err(format!("--sprt: unknown key '{k}'")),
            }
        }
        if !(s.alpha > 0.0 && s.alpha < 1.0 && s.beta > 0.0 && s.beta < 1.0) {
            return Err("--sprt: alpha and beta must be in (0, 1)".into());
        }
        if s.elo1 <= s.elo0 {
            return Err("--sprt: elo1 must be greater than elo0".into());
        }
        Ok(s)
    }

    /// The settings as `--sprt` takes them, for reports.
    pub fn describe(&self) -> String {
        let model = match self.model {
            EloModel::Normalized => "normalized",
            EloModel::Logistic => "logistic",
        };
        format!(
            "elo0={} elo1={} alpha={} beta={} model={model} min-games={}",
            self.elo0, self.elo1, self.alpha, self.beta, self.min_games
        )
    }

    /// (lower, upper) LLR bounds: ln(beta / (1 - alpha)) and ln((1 - beta) / alpha).
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The logistic model's LLR, the generalised SPRT in its normal approximation:
    /// N (s1 - s0) (2 mean - s0 - s1) / (2 var), over observations scaled to [0, 1]. Empty
    /// outcomes count a thousandth of an observation, so that observations all alike still
    /// have a spread (the normalised model does the same).
    fn llr_logistic(&self, samples: &[(f64, u64)]) -> f64 {
        let Some((mean, _, n)) = mean_variance(samples) else {
            return 0.0;
        };
        let weights: Vec<f64> = samples
            .iter()
            .map(|s| if s.1 == 0 { 1e-3 } else { s.1 as f64 })
            .collect();
        let total: f64 = weights.iter().sum();
        let var = samples
            .iter()
            .zip(&weights)
            .map(|(s, w)| w * (s.0 - mean).powi(2))
            .sum::<f64>()
            / total;
        let s0 = score_from_elo(self.elo0);
        let s1 = score_from_elo(self.elo1);
        n as f64 * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }

    /// LLR over game pairs.
    pub fn llr_pentanomial(&self, p: &Pentanomial) -> f64 {
        match self.model {
            EloModel::Logistic => self.llr_logistic(&p.samples()),
            EloModel::Normalized => gsprt::llr_normalized(&p.counts, self.elo0, self.elo1),
        }
    }

    /// LLR over single games (when games are not paired).
    pub fn llr_trinomial(&self, t: &Trinomial) -> f64 {
        match self.model {
            EloModel::Logistic => self.llr_logistic(&t.samples()),
            EloModel::Normalized => {
                gsprt::llr_normalized(&[t.losses, t.draws, t.wins], self.elo0, self.elo1)
            }
        }
    }

    /// The decision for an LLR after `games` games: none before the floor.
    pub fn decide(&self, llr: f64, games: u64) -> SprtDecision {
        let (lo, hi) = self.bounds();
        if games < self.min_games {
            SprtDecision::Continue
        } else if llr <= lo {
            SprtDecision::AcceptH0
        } else if llr >= hi {
            SprtDecision::AcceptH1
        } else {
            SprtDecision::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() < eps
    }

    #[test]
    fn elo_of_known_scores() {
        assert!(close(elo_from_score(0.75), 190.848_501_887_865, 1e-9));
        assert!(close(elo_from_score(0.5), 0.0, 1e-12));
        assert!(close(elo_from_score(0.25), -190.848_501_887_865, 1e-9));
        assert!(close(score_from_elo(190.848_501_887_865), 0.75, 1e-12));
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
    }

    #[test]
    fn trinomial_error_bar() {
        // 30 wins, 10 losses, 10 draws: score 0.7, per-game variance 0.16,
        // stderr sqrt(0.16 / 50) = 0.0565685; interval 0.589128 .. 0.810872.
        let t = Trinomial {
            wins: 30,
            losses: 10,
            draws: 10,
        };
        let e = t.elo().unwrap();
        assert!(close(e.score, 0.7, 1e-12));
        assert!(close(e.elo, 147.190_714_117_837_76, 1e-9));
        assert!(
            close(e.margin, 95.138_954_258_166_85, 1e-9),
            "margin {}",
            e.margin
        );
        assert_eq!(Trinomial::default().elo(), None);
        let one = Trinomial {
            wins: 1,
            losses: 0,
            draws: 0,
        }
        .elo()
        .unwrap();
        assert_eq!((one.score, one.margin), (1.0, f64::INFINITY));
    }

    #[test]
    fn pentanomial_counts_and_elo() {
        let mut p = Pentanomial::default();
        p.add_pair(1.0, 1.0);
        p.add_pair(0.5, 1.0);
        p.add_pair(0.5, 0.5);
        p.add_pair(0.0, 0.5);
        p.add_pair(1.0, 0.0);
        assert_eq!(p.counts, [0, 1, 2, 1, 1]);
        assert_eq!(p.pairs(), 5);
        let e = p.elo().unwrap();
        // Pair scores 1, .75, .5, .5, .25: mean 0.6, variance 0.065, stderr 0.1140175.
        assert!(close(e.score, 0.6, 1e-12));
        assert!(close(e.elo, 70.436_503_622_272_47, 1e-9));
        assert!(
            close(e.margin, 177.569_315_417_372_3, 1e-9),
            "margin {}",
            e.margin
        );
    }

    /// The pair scores of pentanomial counts as (value, probability), the empirical law.
    fn empirical(counts: &[u64; 5]) -> (f64, Vec<(f64, f64)>) {
        let n: u64 = counts.iter().sum();
        let pdf = (0..5)
            .map(|k| (k as f64 / 4.0, counts[k] as f64 / n as f64))
            .collect();
        (n as f64, pdf)
    }

    /// The exact generalised log-likelihood ratio of H1: E = s1 against H0: E = s0, as
    /// fishtest's `LLRcalc.LLR` (statistic "expectation") defines it: for each hypothesis the
    /// law closest in likelihood to the empirical one with that expectation,
    /// p_i / (1 + x (a_i - s)), x the root of sum p_i (a_i - s) / (1 + x (a_i - s)) = 0
    /// (`MLE_expected` and `secular`); the LLR is N times the mean of ln(p1_i / p0_i). Written
    /// here from that definition, not from the code under test.
    fn exact_gsprt(counts: &[u64; 5], s0: f64, s1: f64) -> f64 {
        let (n, pdf) = empirical(counts);
        let constrained = |s: f64| -> Vec<f64> {
            let shifted: Vec<(f64, f64)> = pdf.iter().map(|&(a, p)| (a - s, p)).collect();
            let f = |x: f64| {
                shifted
                    .iter()
                    .map(|&(a, p)| p * a / (1.0 + x * a))
                    .sum::<f64>()
            };
            let low = shifted.iter().map(|s| s.0).fold(f64::INFINITY, f64::min);
            let high = shifted
                .iter()
                .map(|s| s.0)
                .fold(f64::NEG_INFINITY, f64::max);
            // f falls from +inf to -inf between the poles -1/high and -1/low.
            let (mut lo, mut hi) = (-1.0 / high + 1e-12, -1.0 / low - 1e-12);
            for _ in 0..200 {
                let mid = (lo + hi) / 2.0;
                if f(mid) > 0.0 {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            let x = (lo + hi) / 2.0;
            shifted.iter().map(|&(a, p)| p / (1.0 + x * a)).collect()
        };
        let (p0, p1) = (constrained(s0), constrained(s1));
        n * pdf
            .iter()
            .zip(p0.iter().zip(&p1))
            .map(|(&(_, p), (q0, q1))| p * (q1.ln() - q0.ln()))
            .sum::<f64>()
    }

    #[test]
    fn sprt_bounds_and_decisions() {
        let s = Sprt::parse(&[
            "elo0=0".into(),
            "elo1=5".into(),
            "model=logistic".into(),
            "min-games=0".into(),
        ])
        .unwrap();
        // Wald's bounds at alpha = beta = 0.05: ln(0.05 / 0.95) = -ln 19 and ln 19.
        let (lo, hi) = s.bounds();
        assert!(close(lo, -(19f64.ln()), 1e-15));
        assert!(close(hi, 19f64.ln(), 1e-15));
        // The LLR is the normal approximation of the GSPRT that fishtest uses
        // (`LLRcalc.LLR_alt2`, after M. Van den Bergh, "A practical introduction to the
        // GSPRT"): N (s1 - s0) (2 mean - s0 - s1) / (2 var), s = 1 / (1 + 10^(-elo / 400)).
        // Worked by hand for 900 pairs [20, 100, 400, 300, 80], pair scores k / 4:
        // sum k c = 2120 and sum k^2 c = 5680, so mean = 2120 / 3600 and
        // var = 5680 / 14400 - mean^2 (per pair); s0 = 1/2, s1 = 1 / (1 + 10^(-1/80)).
        let strong = Pentanomial {
            counts: [20, 100, 400, 300, 80],
        };
        let mean = 2120.0 / 3600.0;
        let var = 5680.0 / 14400.0 - mean * mean;
        let s1 = 1.0 / (1.0 + 10f64.powf(-1.0 / 80.0));
        let by_hand = 900.0 * (s1 - 0.5) * (2.0 * mean - 0.5 - s1) / (2.0 * var);
        let llr = s.llr_pentanomial(&strong);
        assert!(close(llr, by_hand, 1e-9), "llr {llr}, by hand {by_hand}");
        // Far from both hypotheses (+62 Elo against 0 and 5) the approximation overstates the
        // exact GSPRT (11.59 against 9.30); both are well past the upper bound.
        let exact = exact_gsprt(&strong.counts, 0.5, s1);
        assert!(close(exact, 9.301_98, 1e-4), "exact {exact}");
        assert_eq!(s.decide(llr, u64::MAX), SprtDecision::AcceptH1);
        assert_eq!(s.decide(exact, u64::MAX), SprtDecision::AcceptH1);
        // Near the hypotheses, where tests decide, the approximation is the exact GSPRT to
        // within a thousandth of its value: equal engines (accept H0), and a small gain.
        for counts in [[400, 1600, 4000, 1600, 400], [380, 1580, 4000, 1640, 420]] {
            let p = Pentanomial { counts };
            let (llr, exact) = (s.llr_pentanomial(&p), exact_gsprt(&counts, 0.5, s1));
            assert!(
                (llr - exact).abs() < 1e-3 * exact.abs().max(1.0),
                "{counts:?}: approximation {llr}, exact {exact}"
            );
            assert_eq!(
                s.decide(llr, u64::MAX),
                s.decide(exact, u64::MAX),
                "{counts:?}"
            );
        }
        let equal = Pentanomial {
            counts: [400, 1600, 4000, 1600, 400],
        };
        assert_eq!(
            s.decide(s.llr_pentanomial(&equal), u64::MAX),
            SprtDecision::AcceptH0
        );
        // Games not paired: the same formula over single games scored 1, 1/2, 0. For 300
        // wins, 450 draws and 250 losses: mean 0.3 + 0.45 / 2 = 0.525, E[x^2] = 0.3 + 0.45 / 4.
        let t = Trinomial {
            wins: 300,
            losses: 250,
            draws: 450,
        };
        let mean = 0.525;
        let var = (0.3 + 0.45 / 4.0) - mean * mean;
        let by_hand = 1000.0 * (s1 - 0.5) * (2.0 * mean - 0.5 - s1) / (2.0 * var);
        assert!(close(s.llr_trinomial(&t), by_hand, 1e-9));
        // Too few games: continue.
        let few = Pentanomial {
            counts: [1, 2, 3, 2, 1],
        };
        assert_eq!(
            s.decide(s.llr_pentanomial(&few), u64::MAX),
            SprtDecision::Continue
        );
        assert!(Sprt::parse(&["elo0=5".into(), "elo1=0".into()]).is_err());
        assert!(Sprt::parse(&["alpha=2".into()]).is_err());
        assert!(Sprt::parse(&["x".into()]).is_err());
    }
}

#[cfg(test)]
mod model_tests {
    use super::*;

    fn words(list: &[&str]) -> Vec<String> {
        list.iter().map(|w| w.to_string()).collect()
    }

    #[test]
    fn the_defaults_are_normalised_elo_with_a_floor() {
        let s = Sprt::parse(&[]).unwrap();
        let defaults = "elo0=0 elo1=10 alpha=0.05 beta=0.05 model=normalized min-games=200";
        let listed: Vec<&str> = defaults.split(' ').collect();
        assert_eq!(s, Sprt::parse(&words(&listed)).unwrap());
        assert_eq!(
            (s.elo0, s.elo1, s.model, s.min_games),
            (0.0, 10.0, EloModel::Normalized, 200)
        );
        assert_eq!(s.describe(), defaults);
        let l = Sprt::parse(&words(&["model=logistic", "min-games=0", "elo1=5"])).unwrap();
        assert_eq!((l.model, l.min_games, l.elo1), (EloModel::Logistic, 0, 5.0));
        for (bad, message) in [
            (
                "model=bayes",
                "--sprt: model 'bayes' is not 'normalized' or 'logistic'",
            ),
            (
                "min-games=-1",
                "--sprt: min-games '-1' is not a whole number",
            ),
            (
                "min-games=1.5",
                "--sprt: min-games '1.5' is not a whole number",
            ),
        ] {
            assert_eq!(Sprt::parse(&words(&[bad])).unwrap_err(), message);
        }
    }

    #[test]
    fn no_decision_before_the_floor() {
        let s = Sprt::parse(&words(&["min-games=400"])).unwrap();
        // 100 pairs all won by the first engine: far past the upper bound, yet 200 games.
        let won = Pentanomial {
            counts: [0, 0, 0, 0, 100],
        };
        let llr = s.llr_pentanomial(&won);
        assert!(llr > 2.944, "{llr}");
        assert_eq!(s.decide(llr, 200), SprtDecision::Continue);
        assert_eq!(s.decide(llr, 400), SprtDecision::AcceptH1);
    }

    #[test]
    fn each_model_reads_its_own_bounds() {
        let counts = [88, 450, 864, 432, 94];
        let p = Pentanomial { counts };
        let n = Sprt::parse(&words(&["elo0=-5", "elo1=0"])).unwrap();
        assert_eq!(
            n.llr_pentanomial(&p),
            gsprt::llr_normalized(&counts, -5.0, 0.0)
        );
        let t = Trinomial {
            wins: 927,
            losses: 933,
            draws: 1997,
        };
        assert_eq!(
            n.llr_trinomial(&t),
            gsprt::llr_normalized(&[933, 1997, 927], -5.0, 0.0)
        );
        // Pairs all scoring alike (the same deterministic build on both sides): the logistic
        // model used to answer 0 for ever; now both lean to H0 as equal engines do.
        let alike = Pentanomial {
            counts: [0, 0, 5000, 0, 0],
        };
        let l = Sprt::parse(&words(&["model=logistic", "elo1=5"])).unwrap();
        assert_eq!(
            l.decide(l.llr_pentanomial(&alike), 10_000),
            SprtDecision::AcceptH0
        );
        let d = Sprt::parse(&[]).unwrap();
        assert!(
            d.llr_pentanomial(&alike) < -2.0,
            "{}",
            d.llr_pentanomial(&alike)
        );
        // Read for bounds -5 and 0, equal engines favour 0.
        assert!(n.llr_pentanomial(&alike) > 0.0);
    }
}
