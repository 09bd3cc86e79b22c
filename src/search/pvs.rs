//! Principal variation search, one node: rule draws, table, evaluation, then pruning and moves.

use super::move_loop::{MoveLoop, Searched};
use super::node_pruning::PruningNode;
use super::params as param;
use super::repetition::{repetition_score, sixty_move_draw};
use super::score::{from_tt, mate_in, mated_in, to_tt, DRAW, INFINITE, MAX_PLY, WIN_BOUND};
use super::singular::{Singular, SingularNode};
use super::tablebase::TB_DEPTH;
use super::worker::Searcher;
use crate::board::Move;
use crate::tt::Bound;

impl Searcher {
    /// Searches the current position to `depth` within (alpha, beta) at `ply` from the root.
    /// Returns a fail-soft score from the side to move's view; 0 (ignored) once stopped.
    pub(crate) fn pvs(
        &mut self,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        pv_node: bool,
        allow_null: bool,
    ) -> i32 {
        self.pv_len[ply] = 0;
        let root = ply == 0;
        if root {
            self.stack[0].doubles = 0;
        }
        if !root {
            if let Some(score) = repetition_score(&mut self.pos, ply, self.config.repetition) {
                return score;
            }
            if self.config.sixty_move_draw && sixty_move_draw(&mut self.pos) {
                return DRAW;
            }
        }
        if depth <= 0 {
            self.horizon = true;
            return if self.config.quiescence {
                self.qsearch(alpha, beta, ply)
            } else {
                self.leaf_eval(ply)
            };
        }
        if self.poll_stop() {
            return 0;
        }
        self.nodes += 1;
        if !root {
            if ply >= MAX_PLY - 1 {
                self.horizon = true;
                return self.evaluate();
            }
            if self.config.mate_distance {
                alpha = alpha.max(mated_in(ply));
                beta = beta.min(mate_in(ply + 1));
                if alpha >= beta {
                    return alpha;
                }
            }
        }
        let in_check = self.pos.in_check();
        let key = self.pos.key();
        // A singular-extension search of this node leaves one move out: its result is not
        // the node's, so the table is neither trusted for cutoffs nor written.
        let excluded = self.stack[ply].excluded;
        let excluding = !excluded.is_none();
        let mut tt_move = Move::NONE;
        let mut tt_eval = None;
        // The stored score, its bound and depth: for refining the static evaluation and for
        // the singular extension.
        let mut tt_value = None;
        let mut tt_depth = -1;
        if let Some(entry) = self.tt.probe(key) {
            let score = from_tt(entry.score, ply);
            if entry.bound != Bound::None {
                tt_value = Some((score, entry.bound));
                tt_depth = entry.depth;
            }
            // The stored static evaluation saves recomputing it (only scores need trust).
            if entry.bound != Bound::None || !entry.mv.is_none() {
                tt_eval = Some(entry.eval);
            }
            if self.config.tt_move && self.pos.is_pseudo_legal(entry.mv) {
                tt_move = entry.mv;
            }
            if self.config.tt_cutoffs && !pv_node && !root && !excluding && entry.depth >= depth {
                let cut = entry.bound.cuts(score, alpha, beta);
                if cut {
                    // The stored result may rest on a horizon the table does not record.
                    self.horizon = true;
                    return score;
                }
            }
        }
        if !root && !excluding {
            if let Some(score) = self.probe_tablebases(ply) {
                self.tt.store(
                    key,
                    Move::NONE,
                    to_tt(score, ply),
                    score,
                    TB_DEPTH,
                    Bound::Exact,
                );
                return score;
            }
        }
        // The evaluation as computed (and stored in the table), and as corrected by what
        // searches found in positions alike (`correction.rs`).
        let raw_eval = match (in_check, tt_eval) {
            (true, _) => -INFINITE,
            (false, Some(e)) if e.abs() < WIN_BOUND => e,
            (false, _) => self.evaluate(),
        };
        let static_eval = if self.config.correction_history && !in_check {
            self.heur.correction.correct(&self.pos, raw_eval)
        } else {
            raw_eval
        };
        self.stack[ply].static_eval = static_eval;
        // What pruning compares with beta and alpha: the static evaluation, or the table's
        // score where its bound shows the true value lies beyond the evaluation.
        let eval = match tt_value {
            Some((score, bound))
                if self.config.tt_eval
                    && !in_check
                    && score.abs() < WIN_BOUND
                    && bound.cuts(score, static_eval, static_eval + 1) =>
            {
                score
            }
            _ => static_eval,
        };
        // Improving: the static evaluation rose since our previous move (two plies up); unknown
        // (in check there) counts as improving, the cautious choice.
        let improving = !in_check
            && (ply < 2
                || self.stack[ply - 2].static_eval == -INFINITE
                || static_eval > self.stack[ply - 2].static_eval);

        if !pv_node && !in_check && !root && !excluding {
            let node = PruningNode {
                depth,
                alpha,
                beta,
                ply,
                allow_null,
                raw_eval,
                static_eval,
                eval,
                improving,
                key,
                tt_value,
                tt_depth,
            };
            if let Some(score) = self.prune_before_moves(&node) {
                return score;
            }
        }

        // Internal iterative reduction: without a TT move the ordering is a guess, so a
        // shallower search is cheaper and leaves a move for the deeper visit that follows.
        if self.config.iir
            && !root
            && !excluding
            && depth >= param::iir_depth()
            && tt_move.is_none()
        {
            depth -= 1;
        }

        // Singular extension (`singular.rs`).
        let mut singular_extension = 0;
        if self.config.singular && !root && !excluding {
            let node = SingularNode {
                depth,
                beta,
                ply,
                pv_node,
                tt_move,
                tt_value,
                tt_depth,
            };
            match self.singular(&node) {
                _ if self.stopped => return 0,
                Singular::Cut(score) => return score,
                Singular::Extend(e) => singular_extension = e,
            }
        }

        let node = MoveLoop {
            depth,
            alpha,
            beta,
            ply,
            pv_node,
            in_check,
            excluded,
            tt_move,
            eval,
            improving,
            singular_extension,
        };
        let Some(Searched {
            best_score,
            best_move,
            searched,
            legal,
        }) = self.search_moves(&node)
        else {
            return 0;
        };
        // The loop raised only its own copy of alpha: `alpha` is still the node's own.
        if legal == 0 {
            // Checkmate and stalemate both lose; without the excluded move, the node only
            // fails low.
            return if excluding { alpha } else { mated_in(ply) };
        }
        if searched == 0 {
            // Every move was pruned by futility: the static score stands.
            return alpha;
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let skip_store = excluding || (root && self.skip_root_store);
        if root && !skip_store && self.limits.noise.mask > 0 {
            // A noisy root value is not the position's: keep only the move, for ordering.
            self.tt
                .store(key, best_move, 0, raw_eval, depth, Bound::None);
        } else if !skip_store {
            self.tt.store(
                key,
                best_move,
                to_tt(best_score, ply),
                raw_eval,
                depth,
                bound,
            );
        }
        // The correction learns from searched values that say where the evaluation erred:
        // not a capture's gain, and a bound only in the direction it proves.
        if self.config.correction_history
            && !in_check
            && !excluding
            && (best_move.is_none() || !self.pos.is_capture(best_move))
            && best_score.abs() < WIN_BOUND
            && !(bound == Bound::Lower && best_score <= static_eval)
            && !(bound == Bound::Upper && best_score >= static_eval)
        {
            self.heur
                .correction
                .update(&self.pos, raw_eval, best_score, depth);
        }
        best_score
    }

    /// Appends the child's PV behind `m` at `ply`.
    #[inline]
    pub(crate) fn update_pv(&mut self, ply: usize, m: Move) {
        let child_len = if ply + 1 < MAX_PLY {
            self.pv_len[ply + 1]
        } else {
            0
        };
        self.pv[ply][0] = m;
        for i in 0..child_len.min(MAX_PLY - 1) {
            self.pv[ply][i + 1] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len + 1;
    }
}
