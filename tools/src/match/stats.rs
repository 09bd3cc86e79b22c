//! Match statistics: logistic Elo, its 95 % error bar, pentanomial pair counts and the SPRT.

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

    /// Pairs counted.
    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
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
    /// Parses `elo0=0 elo1=5 alpha=0.05 beta=0.05` (any order, all optional; those are the defaults).
    pub fn parse(words: &[String]) -> Result<Sprt, String> {
        let mut s = Sprt {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
        };
        for w in words {
            let (k, v) = w
                .split_once('=')
                .ok_or_else(|| format!("--sprt: expected key=value, got '{w}'"))?;
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

    /// (lower, upper) LLR bounds: ln(beta / (1 - alpha)) and ln((1 - beta) / alpha).
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The generalised SPRT log-likelihood ratio in its normal approximation:
    /// N (s1 - s0) (2 mean - s0 - s1) / (2 var), over observations scaled to [0, 1].
    fn llr(&self, samples: &[(f64, u64)]) -> f64 {
        let Some((mean, var, n)) = mean_variance(samples) else {
            return 0.0;
        };
        if var <= 0.0 {
            return 0.0;
        }
        let s0 = score_from_elo(self.elo0);
        let s1 = score_from_elo(self.elo1);
        n as f64 * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }

    /// LLR over game pairs.
    pub fn llr_pentanomial(&self, p: &Pentanomial) -> f64 {
        self.llr(&p.samples())
    }

    /// LLR over single games (when games are not paired).
    pub fn llr_trinomial(&self, t: &Trinomial) -> f64 {
        self.llr(&t.samples())
    }

    /// The decision for an LLR.
    pub fn decide(&self, llr: f64) -> SprtDecision {
        let (lo, hi) = self.bounds();
        if llr <= lo {
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

    #[test]
    fn sprt_bounds_and_decisions() {
        let s = Sprt::parse(&["elo0=0".into(), "elo1=5".into()]).unwrap();
        let (lo, hi) = s.bounds();
        assert!(close(lo, -2.944_438_979_166_44, 1e-12));
        assert!(close(hi, 2.944_438_979_166_44, 1e-12));
        // A clearly stronger engine: accept H1.
        let strong = Pentanomial {
            counts: [20, 100, 400, 300, 80],
        };
        let llr = s.llr_pentanomial(&strong);
        assert!(close(llr, 11.589_933_187_952_22, 1e-9), "llr {llr}");
        assert_eq!(s.decide(llr), SprtDecision::AcceptH1);
        // Exactly equal engines over many pairs: accept H0.
        let equal = Pentanomial {
            counts: [400, 1600, 4000, 1600, 400],
        };
        let llr = s.llr_pentanomial(&equal);
        assert!(close(llr, -4.141_536_063_994_041, 1e-9), "llr {llr}");
        assert_eq!(s.decide(llr), SprtDecision::AcceptH0);
        // Too few games: continue.
        let few = Pentanomial {
            counts: [1, 2, 3, 2, 1],
        };
        assert_eq!(s.decide(s.llr_pentanomial(&few)), SprtDecision::Continue);
        assert!(Sprt::parse(&["elo0=5".into(), "elo1=0".into()]).is_err());
        assert!(Sprt::parse(&["alpha=2".into()]).is_err());
        assert!(Sprt::parse(&["x".into()]).is_err());
    }
}
