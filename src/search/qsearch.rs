//! Quiescence search: captures (all evasions in check) until the position is quiet, with the
//! static evaluation as a stand-pat lower bound. With `qsearch_tt` it probes the transposition
//! table (any stored bound cuts at null-window nodes) and stores its result at depth 0.

use super::ordering::MovePicker;
use super::score::{from_tt, mated_in, to_tt, INFINITE, MAX_PLY, WIN_BOUND};
use super::see::see_ge;
use super::worker::Searcher;
use crate::board::Move;
use crate::tt::Bound;

/// Delta pruning's margin above the victim's value (positional gains of a capture).
const DELTA_MARGIN: i32 = 150;

/// Stored as the static evaluation when quiescence has no exact one (its stand-pat may be a
/// lazy bound): outside the mate bound, so the main search evaluates afresh.
const NO_EVAL: i32 = INFINITE;

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
        let use_tt = self.config.qsearch_tt;
        let key = self.pos.key();
        let pv_node = beta - alpha > 1;
        let mut tt_eval = None;
        // A main-search result of this position is worth more than quiescence's: kept.
        let mut deeper_stored = false;
        if use_tt {
            if let Some(entry) = self.tt.probe(key) {
                deeper_stored = entry.depth > 0;
                let score = from_tt(entry.score, ply);
                let cut = entry.bound.cuts(score, alpha, beta);
                if cut && !pv_node {
                    return score;
                }
                if entry.eval.abs() < WIN_BOUND
                    && (entry.bound != Bound::None || !entry.mv.is_none())
                {
                    tt_eval = Some(entry.eval);
                }
            }
        }
        let original_alpha = alpha;
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
            best = match tt_eval {
                Some(e) => self.corrected(e),
                None => {
                    // Lazy against the window as the correction will shift it.
                    let c = self.correction();
                    let v = self.evaluate_lazy(alpha.saturating_sub(c), beta.saturating_sub(c));
                    self.corrected(v)
                }
            };
            if best >= beta {
                if use_tt && !deeper_stored {
                    // A lazy stand-pat only proves beta.
                    let (score, eval) = match tt_eval {
                        Some(e) => (best, e),
                        None => (beta, NO_EVAL),
                    };
                    self.tt
                        .store(key, Move::NONE, to_tt(score, ply), eval, 0, Bound::Lower);
                }
                return best;
            }
            alpha = alpha.max(best);
            MovePicker::captures(&self.pos)
        };
        let mut best_move = Move::NONE;
        // The stand-pat (not in check): what delta pruning adds a victim's value to.
        let stand_pat = best;
        while let Some(m) = picker.next_move(&mut self.pos, &self.heur, &self.config) {
            // Delta pruning: even winning the victim for free leaves the score below alpha.
            let hopeless = !in_check
                && self.config.qs_futility
                && alpha.abs() < WIN_BOUND
                && stand_pat.abs() < WIN_BOUND
                && self.pos.piece_at(m.to()).is_some_and(|victim| {
                    stand_pat + crate::eval::piece_value(victim.kind()) + DELTA_MARGIN <= alpha
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
                    best_move = m;
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
        if use_tt && !deeper_stored {
            let bound = if best >= beta {
                Bound::Lower
            } else if pv_node && best > original_alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            // A lazy stand-pat below alpha only proves alpha.
            let stand_pat_low = !in_check && best_move.is_none() && tt_eval.is_none();
            let score = if bound == Bound::Upper && stand_pat_low {
                original_alpha.max(best)
            } else {
                best
            };
            let eval = tt_eval.unwrap_or(NO_EVAL);
            self.tt
                .store(key, best_move, to_tt(score, ply), eval, 0, bound);
        }
        best
    }
}
