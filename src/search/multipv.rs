//! MultiPV: an iteration's root lines, each without the moves above it, ranked best first.

use super::config::Driver;
use super::report::RootLine;
use super::score::INFINITE;
use super::worker::Searcher;
use crate::board::Move;

impl Searcher {
    /// The root lines of the iteration to `depth`, best first; empty when the search stopped
    /// inside the first. Line i searches `legal` without the moves of lines 1..i-1 (line 1:
    /// `base_moves`, the allowed moves or all) around its score at the previous iteration,
    /// `previous[i]`, which then becomes its score at this one. `fallback` stands for the
    /// first line when nothing was found at all.
    pub(super) fn search_lines(
        &mut self,
        depth: u32,
        previous: &mut [i32],
        legal: &[Move],
        base_moves: &[Move],
        fallback: &[Move],
    ) -> Vec<RootLine> {
        let wanted = previous.len();
        let mut lines: Vec<RootLine> = Vec::with_capacity(wanted);
        let mut ranks: Vec<i32> = Vec::with_capacity(wanted);
        for (line, &centre) in previous.iter().enumerate() {
            // Line i searches the root without the moves of lines 1..i-1.
            self.root_moves = if line == 0 {
                base_moves.to_vec()
            } else {
                legal
                    .iter()
                    .copied()
                    .filter(|m| !lines.iter().any(|l| l.pv.first() == Some(m)))
                    .collect()
            };
            self.skip_root_store = line > 0;
            self.root_best = Move::NONE;
            let s = match self.config.driver {
                Driver::Mtdf => self.mtdf(depth as i32, centre),
                // SSS* as MTD(+inf): every null window from the top down.
                Driver::SssStar => self.mtdf(depth as i32, INFINITE),
                Driver::Pvs | Driver::BStar => self.aspiration(depth as i32, centre),
            };
            if self.stopped {
                break;
            }
            let pv: Vec<Move> = if self.pv_len[0] > 0 {
                self.pv[0][..self.pv_len[0]].to_vec()
            } else if !self.root_best.is_none() {
                vec![self.root_best]
            } else if line == 0 {
                fallback.to_vec()
            } else {
                // Nothing beat the window: the line's first allowed move stands for it.
                self.root_moves.first().copied().into_iter().collect()
            };
            // With noise (UCCI `randomness`) `s` ranks the line; its move's own value
            // is the score shown.
            let score = if self.limits.noise.mask > 0
                && !self.root_best.is_none()
                && pv.first() == Some(&self.root_best)
            {
                self.root_best_raw
            } else {
                s
            };
            ranks.push(s);
            lines.push(RootLine { score, pv });
        }
        self.root_moves = base_moves.to_vec();
        self.skip_root_store = false;
        // Search instability can rank a later line above an earlier one: best first.
        let mut ranked: Vec<(i32, RootLine)> = ranks.drain(..).zip(lines).collect();
        ranked.sort_by_key(|(rank, _)| std::cmp::Reverse(*rank));
        for (p, (rank, _)) in previous.iter_mut().zip(&ranked) {
            *p = *rank;
        }
        ranked.into_iter().map(|(_, l)| l).collect()
    }
}
