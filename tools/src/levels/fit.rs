//! Ratings for every player at once from all the games: the Bradley-Terry model on the Elo
//! scale (logistic, 400 points per factor of ten in the odds), fitted by maximum likelihood
//! with one player held at a stated rating, and the 95 % error bars from the likelihood's
//! curvature. A draw counts as half a win; the per-game variance is then the binomial one,
//! which overstates the error a little when games are drawn (a safe side).

/// z for a two-sided 95 % interval.
const Z95: f64 = 1.959_963_984_540_054;
/// The slope of the logistic on the Elo scale: ln 10 / 400.
const K: f64 = std::f64::consts::LN_10 / 400.0;
/// Newton iterations at most; the fit converges in a handful.
const MAX_ITERATIONS: usize = 200;
/// No step moves a rating by more than this (keeps the first steps of a lopsided fit sane).
const MAX_STEP: f64 = 400.0;
/// A rating this far from the anchor means the likelihood has no maximum (a clean sweep
/// that nothing else ties back).
const DIVERGED: f64 = 5000.0;

/// The games between two players, from `a`'s side.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tally {
    /// One player (an index into the names).
    pub a: usize,
    /// The other.
    pub b: usize,
    /// Games played.
    pub games: f64,
    /// Points `a` scored (a win 1, a draw 1/2).
    pub points: f64,
}

/// One player's fitted rating.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// The rating on the anchor's scale.
    pub elo: f64,
    /// Half-width of its 95 % interval (0 for the anchor, held fixed).
    pub margin: f64,
}

/// The fit: every player's rating and the covariance of the ratings.
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    /// Ratings by player.
    pub ratings: Vec<Rating>,
    /// Covariance of the ratings (zero row and column for the anchor).
    cov: Vec<Vec<f64>>,
}

impl Fit {
    /// The 95 % half-width of `ratings[i] - ratings[j]` (their errors are correlated).
    pub fn diff_margin(&self, i: usize, j: usize) -> f64 {
        let var = self.cov[i][i] + self.cov[j][j] - 2.0 * self.cov[i][j];
        Z95 * var.max(0.0).sqrt()
    }
}

/// The expected score of a player `diff` Elo above the other.
pub fn expected(diff: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-diff / 400.0))
}

/// Why there is no fit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FitError {
    /// A tally names a player twice or out of range, or more points than games.
    Bad(String),
    /// No chain of games links this player to the anchor.
    Unconnected(usize),
    /// The likelihood has no maximum: someone won (or lost) everything that links it.
    NoFiniteFit,
}

impl std::fmt::Display for FitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FitError::Bad(e) => write!(f, "{e}"),
            FitError::Unconnected(p) => write!(f, "player {p} has no games linking it to the anchor"),
            FitError::NoFiniteFit => write!(
                f,
                "the ratings have no finite fit: a player won (or lost) every game that links it to the others"
            ),
        }
    }
}

/// Fits `players` ratings to `tallies`, player `anchor` held at `anchor_elo`.
pub fn fit(
    players: usize,
    tallies: &[Tally],
    anchor: usize,
    anchor_elo: f64,
) -> Result<Fit, FitError> {
    if anchor >= players {
        return Err(FitError::Bad(
            "the anchor is not one of the players".to_string(),
        ));
    }
    for t in tallies {
        if t.a >= players || t.b >= players || t.a == t.b {
            return Err(FitError::Bad(format!("bad pairing {} - {}", t.a, t.b)));
        }
        if !(t.games >= 0.0 && (0.0..=t.games).contains(&t.points)) {
            return Err(FitError::Bad(format!(
                "bad tally: {} points in {} games",
                t.points, t.games
            )));
        }
    }
    if let Some(p) = unconnected(players, tallies, anchor) {
        return Err(FitError::Unconnected(p));
    }
    // The free players: everyone but the anchor, in order.
    let free: Vec<usize> = (0..players).filter(|&p| p != anchor).collect();
    let slot = |p: usize| free.iter().position(|&q| q == p);
    let mut r = vec![0.0; players];
    let mut converged = false;
    for _ in 0..MAX_ITERATIONS {
        let (grad, info) = gradient_and_information(players, tallies, &r);
        let g: Vec<f64> = free.iter().map(|&p| grad[p]).collect();
        let h: Vec<Vec<f64>> = free
            .iter()
            .map(|&p| free.iter().map(|&q| info[p][q]).collect())
            .collect();
        let step = solve(h, g).ok_or(FitError::NoFiniteFit)?;
        let largest = step.iter().fold(0.0f64, |m, s| m.max(s.abs()));
        let scale = if largest > MAX_STEP {
            MAX_STEP / largest
        } else {
            1.0
        };
        for (i, &p) in free.iter().enumerate() {
            r[p] += step[i] * scale;
        }
        if r.iter().any(|x| x.abs() > DIVERGED) {
            break;
        }
        if largest < 1e-9 {
            converged = true;
            break;
        }
    }
    if !converged {
        return Err(FitError::NoFiniteFit);
    }
    let (_, info) = gradient_and_information(players, tallies, &r);
    let h: Vec<Vec<f64>> = free
        .iter()
        .map(|&p| free.iter().map(|&q| info[p][q]).collect())
        .collect();
    let inverse = invert(h).ok_or(FitError::NoFiniteFit)?;
    let mut cov = vec![vec![0.0; players]; players];
    for (i, &p) in free.iter().enumerate() {
        for (j, &q) in free.iter().enumerate() {
            cov[p][q] = inverse[i][j];
        }
    }
    let ratings = (0..players)
        .map(|p| Rating {
            elo: r[p] + anchor_elo,
            margin: slot(p).map_or(0.0, |_| Z95 * cov[p][p].max(0.0).sqrt()),
        })
        .collect();
    Ok(Fit { ratings, cov })
}

/// The log-likelihood's gradient and its Fisher information (minus the Hessian) at `r`.
fn gradient_and_information(
    players: usize,
    tallies: &[Tally],
    r: &[f64],
) -> (Vec<f64>, Vec<Vec<f64>>) {
    let mut grad = vec![0.0; players];
    let mut info = vec![vec![0.0; players]; players];
    for t in tallies {
        let p = expected(r[t.a] - r[t.b]);
        let g = K * (t.points - t.games * p);
        grad[t.a] += g;
        grad[t.b] -= g;
        let w = K * K * t.games * p * (1.0 - p);
        info[t.a][t.a] += w;
        info[t.b][t.b] += w;
        info[t.a][t.b] -= w;
        info[t.b][t.a] -= w;
    }
    (grad, info)
}

/// A player that no chain of games links to `anchor`, if any.
fn unconnected(players: usize, tallies: &[Tally], anchor: usize) -> Option<usize> {
    let mut reached = vec![false; players];
    reached[anchor] = true;
    let mut stack = vec![anchor];
    while let Some(p) = stack.pop() {
        for t in tallies.iter().filter(|t| t.games > 0.0) {
            for (x, y) in [(t.a, t.b), (t.b, t.a)] {
                if x == p && !reached[y] {
                    reached[y] = true;
                    stack.push(y);
                }
            }
        }
    }
    reached.iter().position(|&r| !r)
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting; `None` when singular.
fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let n = b.len();
    for col in 0..n {
        let pivot = (col..n).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[pivot][col].abs() < 1e-300 {
            return None;
        }
        a.swap(col, pivot);
        b.swap(col, pivot);
        let (above, below) = a.split_at_mut(col + 1);
        let pivot_row = &above[col];
        for (i, row) in below.iter_mut().enumerate() {
            let f = row[col] / pivot_row[col];
            for (x, p) in row[col..].iter_mut().zip(&pivot_row[col..]) {
                *x -= f * p;
            }
            b[col + 1 + i] -= f * b[col];
        }
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        let s: f64 = (row + 1..n).map(|k| a[row][k] * x[k]).sum();
        x[row] = (b[row] - s) / a[row][row];
    }
    Some(x)
}

/// The inverse of `a`, column by column; `None` when singular.
fn invert(a: Vec<Vec<f64>>) -> Option<Vec<Vec<f64>>> {
    let n = a.len();
    let mut columns = Vec::with_capacity(n);
    for c in 0..n {
        let e: Vec<f64> = (0..n).map(|i| if i == c { 1.0 } else { 0.0 }).collect();
        columns.push(solve(a.clone(), e)?);
    }
    Some(
        (0..n)
            .map(|i| (0..n).map(|j| columns[j][i]).collect())
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally(a: usize, b: usize, games: f64, points: f64) -> Tally {
        Tally {
            a,
            b,
            games,
            points,
        }
    }

    #[test]
    fn a_single_match_gives_the_score_difference() {
        // 75 % is 190.85 Elo; the anchor keeps its rating exactly.
        let f = fit(2, &[tally(0, 1, 100.0, 25.0)], 0, 1000.0).unwrap();
        assert_eq!(
            f.ratings[0],
            Rating {
                elo: 1000.0,
                margin: 0.0
            }
        );
        assert!(
            (f.ratings[1].elo - 1_190.848_501_887_864_9).abs() < 1e-6,
            "{f:?}"
        );
        // Binomial: sd of the score sqrt(.75 .25 / 100), through the slope of the logistic.
        let sd = (0.75f64 * 0.25 / 100.0).sqrt() / (K * 0.75 * 0.25);
        assert!((f.ratings[1].margin - Z95 * sd).abs() < 1e-6, "{f:?}");
        assert!((f.diff_margin(0, 1) - Z95 * sd).abs() < 1e-6);
    }

    #[test]
    fn consistent_results_give_back_the_ratings() {
        // Three players 0, 150 and 400 with every pair's expected score: a cycle fits exactly.
        let truth = [0.0, 150.0, 400.0];
        let t: Vec<Tally> = [(0, 1), (1, 2), (0, 2)]
            .iter()
            .map(|&(a, b)| tally(a, b, 60.0, 60.0 * expected(truth[a] - truth[b])))
            .collect();
        let f = fit(3, &t, 2, 2000.0).unwrap();
        for (p, want) in [1600.0, 1750.0, 2000.0].iter().enumerate() {
            assert!((f.ratings[p].elo - want).abs() < 1e-6, "{f:?}");
        }
        // Two paths to the anchor make the middle player's error smaller than one link's.
        assert!(f.ratings[1].margin > 0.0 && f.ratings[1].margin < f.ratings[0].margin * 1.5);
    }

    #[test]
    fn refuses_what_cannot_be_fitted() {
        assert_eq!(
            fit(3, &[tally(0, 1, 10.0, 5.0)], 0, 0.0),
            Err(FitError::Unconnected(2))
        );
        assert_eq!(
            fit(2, &[tally(0, 1, 10.0, 10.0)], 0, 0.0),
            Err(FitError::NoFiniteFit)
        );
        assert!(fit(2, &[tally(0, 1, 10.0, 11.0)], 0, 0.0).is_err());
        assert!(fit(2, &[tally(0, 0, 10.0, 1.0)], 0, 0.0).is_err());
    }
}
