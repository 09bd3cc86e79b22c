//! Quiescence search: captures (all evasions in check) until the position is quiet, with the
//! static evaluation as a stand-pat lower bound.

use super::ordering::MovePicker;
use super::params::delta_margin;
use super::score::{mated_in, INFINITE, MAX_PLY, WIN_BOUND};
use super::see::see_ge;
use super::worker::Searcher;

impl Searcher {
    /// Quiescence search at `ply` within (alpha, beta); fail-soft.
    pub(crate) fn qsearch(&mut self, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.pv_len[ply] = 0;
        if self.poll_stop() {
            return 0;
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if ply >= MAX_PLY - 1 {
            return self.evaluate();
        }
        let in_check = self.pos.in_check();
        let mut best;
        let mut picker = if in_check {
            best = -INFINITE;
            MovePicker::evasions(&self.pos, self.heur.killers(ply), &self.config)
        } else {
            // Stalemate loses. Only a side reduced to general, advisors and elephants is ever
            // likely to have no move, so only then is the (costly) test made.
            if crate::eval::cannot_mate(&self.pos, self.pos.side_to_move())
                && self.pos.has_no_legal_move()
            {
                return mated_in(ply);
            }
            best = self.evaluate_lazy(alpha, beta);
            if self.config.correction_history {
                best = self.heur.correction.correct(&self.pos, best);
            }
            if best >= beta {
                return best;
            }
            alpha = alpha.max(best);
            MovePicker::captures(&self.pos)
        };
        // The stand-pat (not in check): what delta pruning adds a victim's value to.
        let stand_pat = best;
        while let Some(m) = picker.next_move(&mut self.pos, &self.heur, &self.config) {
            // Delta pruning: even winning the victim for free leaves the score below alpha.
            let hopeless = !in_check
                && self.config.qs_futility
                && alpha.abs() < WIN_BOUND
                && stand_pat.abs() < WIN_BOUND
                && self.pos.piece_at(m.to()).is_some_and(|victim| {
                    stand_pat + crate::eval::piece_value(victim.kind()) + delta_margin() <= alpha
                });
            // A capture that loses material by static exchange cannot help the stand-pat,
            // unless it gives check (not computed for a capture already pruned).
            let see_fails = !in_check && !hopeless && self.config.see && !see_ge(&self.pos, m, 0);
            self.make_move(m);
            if (see_fails || hopeless) && !self.pos.in_check() {
                self.unmake_move();
                continue;
            }
            let score = -self.qsearch(-beta, -alpha, ply + 1);
            self.unmake_move();
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
        }
        if in_check && picker.yielded() == 0 {
            return mated_in(ply);
        }
        best
    }
}
