//! Quiescence search: captures (all evasions in check) until the position is quiet, with the
//! static evaluation as a stand-pat lower bound.

use super::ordering::MovePicker;
use super::score::{mated_in, INFINITE, MAX_PLY};
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
            if best >= beta {
                return best;
            }
            alpha = alpha.max(best);
            MovePicker::captures(&self.pos)
        };
        while let Some(m) = picker.next_move(&mut self.pos, &self.heur, &self.config) {
            self.make_move(m);
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
