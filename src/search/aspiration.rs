//! The root search of one line: PVS in aspiration windows, or MTD(f) and SSS* by null windows.

use super::score::INFINITE;
use super::worker::Searcher;
use crate::board::Move;

impl Searcher {
    /// One iteration with an aspiration window around `previous` (full window when off or shallow).
    pub(super) fn aspiration(&mut self, depth: i32, previous: i32) -> i32 {
        if !self.config.aspiration || depth < 5 {
            return self.pvs(depth, -INFINITE, INFINITE, 0, true, true);
        }
        let mut delta = super::params::aspiration_delta();
        let mut alpha = (previous - delta).max(-INFINITE);
        let mut beta = (previous + delta).min(INFINITE);
        loop {
            let score = self.pvs(depth, alpha, beta, 0, true, true);
            if self.stopped {
                return score;
            }
            if score <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITE);
            } else if score >= beta {
                beta = (score + delta).min(INFINITE);
            } else {
                return score;
            }
            delta += delta / 2 + 10;
            if delta > 1000 {
                alpha = -INFINITE;
                beta = INFINITE;
            }
        }
    }

    /// MTD(f): null-window searches around a guess until the bounds meet.
    pub(super) fn mtdf(&mut self, depth: i32, guess: i32) -> i32 {
        let mut g = guess;
        let mut lower = -INFINITE;
        let mut upper = INFINITE;
        let mut best_pv: Vec<Move> = Vec::new();
        while lower < upper {
            let beta = if g == lower { g + 1 } else { g };
            g = self.pvs(depth, beta - 1, beta, 0, false, true);
            if self.stopped {
                return g;
            }
            if g < beta {
                upper = g;
            } else {
                lower = g;
                best_pv = self.pv[0][..self.pv_len[0]].to_vec();
            }
        }
        // Keep the PV of the last fail-high: the fail-low searches leave none at the root.
        for (i, &m) in best_pv.iter().enumerate() {
            self.pv[0][i] = m;
        }
        self.pv_len[0] = best_pv.len();
        g
    }
}
