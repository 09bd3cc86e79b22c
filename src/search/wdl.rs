//! Win/draw/loss expectations from a score (UCI_ShowWDL), a logistic model fitted to the
//! outcomes of Pao's own games (`pao-tools wdlfit` over `pao-tools match` PGNs; docs/analysis.md
//! "Win/draw/loss model" gives the data and the fit):
//!
//! P(win | s) = 1 / (1 + exp((A - s) / B)), P(loss | s) = P(win | -s), P(draw) = the rest,
//!
//! with s the score in centipawns from the side to move's view. A is the score at which a
//! win is as likely as not; B sets how fast the odds move with the score.

use super::score::mate_plies;

/// Score (cp) at which the side to move wins half of its games.
pub const WDL_A: f64 = 213.0;
/// Spread of the logistic (cp).
pub const WDL_B: f64 = 196.0;

/// Per-mille win, draw and loss expectations for `score` (side to move's view); they sum to 1000.
pub fn wdl(score: i32) -> (u32, u32, u32) {
    wdl_with(score, WDL_A, WDL_B)
}

/// `wdl` with explicit model parameters (the fitting tool evaluates candidates with it).
pub fn wdl_with(score: i32, a: f64, b: f64) -> (u32, u32, u32) {
    match mate_plies(score) {
        Some(p) if p > 0 => return (1000, 0, 0),
        Some(_) => return (0, 0, 1000),
        None => {}
    }
    let s = f64::from(score);
    let win = (1000.0 / (1.0 + ((a - s) / b).exp())).round() as u32;
    let loss = (1000.0 / (1.0 + ((a + s) / b).exp())).round() as u32;
    let (win, loss) = (win.min(1000), loss.min(1000 - win.min(1000)));
    (win, 1000 - win - loss, loss)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::score::{mate_in, mated_in};

    #[test]
    fn symmetric_and_summing_to_1000() {
        for s in [-3000, -500, -100, -1, 0, 1, 57, 400, 2500] {
            let (w, d, l) = wdl(s);
            assert_eq!(w + d + l, 1000, "{s}");
            let (w2, d2, l2) = wdl(-s);
            assert_eq!((w, d, l), (l2, d2, w2), "{s}");
        }
        assert_eq!(wdl(mate_in(3)), (1000, 0, 0));
        assert_eq!(wdl(mated_in(4)), (0, 0, 1000));
        // At A the side to move wins half its games; the fitted constants give these values.
        assert_eq!(wdl(WDL_A as i32), (500, 398, 102));
        assert_eq!(wdl(0), (252, 496, 252));
    }
}
