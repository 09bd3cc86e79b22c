//! Negamax principal variation search with the classic pruning: transposition-table cutoffs,
//! mate-distance pruning, reverse futility, null move (with a zugzwang guard and verification),
//! futility, SEE pruning, late move reductions and the check extension. Each one has a switch.

use super::ordering::MovePicker;
use super::params as param;
use super::probcut::ProbCutNode;
use super::repetition::{repetition_score, sixty_move_draw};
use super::root_noise::{child_window, noisy};
use super::score::{from_tt, mate_in, mated_in, to_tt, DRAW, INFINITE, MAX_PLY, WIN_BOUND};
use super::see::see_ge;
use super::singular::{Singular, SingularNode};
use super::tablebase::TB_DEPTH;
use super::worker::Searcher;
use crate::board::{Move, PieceKind, Position};
use crate::tt::Bound;

/// Futility margins by remaining depth 1 to 3.
#[inline(always)]
fn futility_margin(depth: i32) -> i32 {
    match depth {
        1 => param::futility_margin_1(),
        2 => param::futility_margin_2(),
        _ => param::futility_margin_3(),
    }
}

/// True when the side to move has a piece that makes null-move pruning safe (zugzwang guard).
#[inline]
fn has_big_piece(pos: &Position) -> bool {
    let us = pos.side_to_move();
    pos.count(us, PieceKind::Rook)
        + pos.count(us, PieceKind::Horse)
        + pos.count(us, PieceKind::Cannon)
        > 0
}

/// LMR reductions by depth and move number (both capped at 63), a classic log-log table.
#[cfg(not(feature = "tune"))]
static LMR: std::sync::LazyLock<[[u8; 64]; 64]> = std::sync::LazyLock::new(|| {
    let mut t = [[0u8; 64]; 64];
    for (d, row) in t.iter_mut().enumerate() {
        for (m, r) in row.iter_mut().enumerate() {
            *r = param::lmr_entry(d, m, param::lmr_base(), param::lmr_divisor());
        }
    }
    t
});

/// LMR reduction for a depth and move number (both >= 1).
#[cfg(not(feature = "tune"))]
#[inline]
fn lmr_reduction(depth: i32, move_number: usize) -> i32 {
    i32::from(LMR[(depth.max(1) as usize).min(63)][move_number.min(63)])
}

/// LMR reduction for a depth and move number (both >= 1), from the current coefficients.
#[cfg(feature = "tune")]
#[inline]
fn lmr_reduction(depth: i32, move_number: usize) -> i32 {
    i32::from(param::lmr_entry(
        (depth.max(1) as usize).min(63),
        move_number.min(63),
        param::lmr_base(),
        param::lmr_divisor(),
    ))
}

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
        // searches found in positions of the same soldier structure.
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
            // Reverse futility: far above beta near the leaves, the opponent will not catch up.
            let rfp_depth = if self.config.rfp_improving && improving && depth > 1 {
                depth - 1
            } else {
                depth
            };
            if self.config.futility
                && depth <= param::rfp_depth()
                && eval.abs() < WIN_BOUND
                && eval - param::rfp_margin() * rfp_depth >= beta
            {
                self.horizon = true;
                return eval;
            }
            // Razoring: hopelessly below alpha near the leaves, only captures can save it.
            if self.config.razoring
                && depth <= param::razor_depth()
                && alpha.abs() < WIN_BOUND
                && eval + param::razor_margin() * depth <= alpha
            {
                let score = self.qsearch(alpha, alpha + 1, ply);
                if self.stopped {
                    return 0;
                }
                if score <= alpha {
                    self.horizon = true;
                    return score;
                }
            }
            // Null move: if passing still fails high, a real move will too.
            if self.config.null_move
                && allow_null
                && depth >= 3
                && eval >= beta
                && beta.abs() < WIN_BOUND
                && has_big_piece(&self.pos)
            {
                let r = param::nmp_base()
                    + depth / param::nmp_depth_divisor()
                    + if self.config.nmp_eval_r {
                        ((eval - beta) / param::nmp_eval_divisor()).min(3)
                    } else {
                        0
                    };
                self.stack[ply].mv = Move::NONE;
                self.stack[ply + 1].doubles = self.stack[ply].doubles;
                self.make_null();
                let score = -self.pvs(depth - 1 - r, -beta, -beta + 1, ply + 1, false, false);
                self.unmake_null();
                if self.stopped {
                    return 0;
                }
                if score >= beta {
                    self.horizon = true;
                    if depth < 10 {
                        return if score >= WIN_BOUND { beta } else { score };
                    }
                    // Verification at high depth guards against zugzwang-like positions.
                    let verified = self.pvs(depth - r, beta - 1, beta, ply, false, false);
                    if verified >= beta {
                        return verified;
                    }
                }
            }
            if self.config.probcut {
                let node = ProbCutNode {
                    depth,
                    beta,
                    ply,
                    static_eval,
                    raw_eval,
                    key,
                    tt_value: tt_value.map(|(score, _)| score),
                    tt_depth,
                };
                if let Some(score) = self.probcut(&node) {
                    self.horizon = true;
                    return score;
                }
                if self.stopped {
                    return 0;
                }
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

        // The TT move is tried before any generation: when it cuts off, nothing is generated.
        let restricted = root && !self.root_moves.is_empty();
        if restricted && !self.root_moves.contains(&tt_move) {
            tt_move = Move::NONE;
        }
        if excluding {
            tt_move = Move::NONE;
        }
        let hints = self.ordering_hints(ply, tt_move);
        let mut picker = MovePicker::new(&self.pos, &hints, &self.config);
        let original_alpha = alpha;
        let mut best_score = -INFINITE;
        let mut best_move = Move::NONE;
        let mut searched = 0usize;
        let mut legal = 0usize;
        let mut quiets_tried: [Move; 64] = [Move::NONE; 64];
        let mut quiet_count = 0usize;
        let mut captures_tried: [Move; 32] = [Move::NONE; 32];
        let mut capture_count = 0usize;

        while let Some(m) = picker.next_move(&mut self.pos, &self.heur, &self.config) {
            if (restricted && !self.root_moves.contains(&m)) || m == excluded {
                continue;
            }
            legal += 1;
            if root {
                self.note_root_move(m, legal, depth);
            }
            let capture = self.pos.is_capture(m);
            let piece = self.pos.piece_at(m.from());
            // A quiet move futility will prune unless it gives check: SEE, which keeps checks
            // too, could not change its fate, so it is not computed.
            let futile_quiet = !capture
                && self.config.futility
                && !pv_node
                && !in_check
                && depth <= 3
                // Stalemate wins in xiangqi, so a quiet move can end the game: keep them all
                // when a decided score (mate or rule win) is already on the board.
                && alpha.abs() < WIN_BOUND
                && eval + futility_margin(depth) <= alpha;
            // SEE pruning: near the leaves, a move that loses material by static exchange is
            // not worth a search once one move has been searched. Checks are kept: sacrifices
            // with check (a rook for an advisor) are how xiangqi mates.
            let see_fails = self.config.see
                && !futile_quiet
                && !root
                && !in_check
                && searched > 0
                && depth <= param::see_prune_depth()
                && best_score > -WIN_BOUND
                && alpha.abs() < WIN_BOUND
                && !see_ge(
                    &self.pos,
                    m,
                    if capture {
                        -param::see_capture_margin() * depth
                    } else {
                        -param::see_quiet_margin() * depth * depth
                    },
                );
            // Late move pruning and history pruning: late or historically failing quiet
            // moves near the leaves of a node that expects no cutoff. Checks are kept: the
            // move is made first and pruned below unless it checks.
            let prune_quiet = !capture
                && !pv_node
                && !in_check
                && !root
                && searched > 0
                && best_score > -WIN_BOUND
                && alpha.abs() < WIN_BOUND
                && m != hints.tt_move
                && ((self.config.lmp
                    && depth <= param::lmp_depth()
                    && searched as i32
                        >= (param::lmp_base() + depth * depth) / if improving { 1 } else { 2 }
                    // Not against a side left with general, advisors and elephants: a quiet
                    // move that leaves it no move wins (stalemate loses), and gives no check.
                    && !crate::eval::cannot_mate(&self.pos, self.pos.side_to_move().flip()))
                    || (self.config.history_pruning
                        && depth <= param::history_prune_depth()
                        && piece.is_some_and(|p| {
                            self.heur.history(p, m) + self.heur.cont_history(hints.cont[0], p, m)
                                < -param::history_prune_margin() * depth
                        })));
            self.stack[ply].mv = m;
            self.stack[ply].piece = piece;
            if depth >= 2 && !prune_quiet {
                self.tt.prefetch(self.pos.key_after(m));
            }
            // A check that loses material is not extended (with `check_ext_see`): it is
            // tested before the move is made, only for moves that may check.
            let sound_for_extension =
                !self.config.check_ext_see || !self.pos.gives_check(m) || see_ge(&self.pos, m, 0);
            self.make_move(m);
            let gives_check = self.pos.in_check();
            let check_extension = i32::from(
                self.config.check_extension
                    && gives_check
                    && sound_for_extension
                    && ply < MAX_PLY / 2,
            );
            let extension = if m == hints.tt_move && ply < MAX_PLY / 2 {
                if singular_extension < 0 {
                    singular_extension + check_extension
                } else {
                    check_extension.max(singular_extension)
                }
            } else {
                check_extension
            };
            self.stack[ply + 1].doubles = self.stack[ply].doubles + u8::from(extension >= 2);
            let new_depth = depth - 1 + extension;
            if (prune_quiet || see_fails) && !gives_check {
                self.horizon = true;
                self.unmake_move();
                continue;
            }

            // Futility: quiet moves that cannot lift a hopeless static score near the leaves.
            if futile_quiet && !gives_check && searched > 0 && best_score > -WIN_BOUND {
                self.horizon = true;
                self.unmake_move();
                continue;
            }

            // UCCI `randomness`: at the root, the move's noise (0 without it).
            let noise = if root { self.limits.noise.of(m) } else { 0 };
            let score = if searched == 0 || !self.config.pvs {
                self.child(noise, new_depth, alpha, beta, ply, pv_node)
            } else {
                let reduction = if self.config.lmr
                    && depth >= 3
                    && searched >= if pv_node { 3 } else { 2 }
                    && !capture
                    && !in_check
                    && !gives_check
                {
                    let mut r = lmr_reduction(depth, searched);
                    if pv_node {
                        r -= 1;
                    }
                    if self.config.lmr_adjust {
                        r += self.lmr_adjustment(m, piece, &hints, improving);
                    }
                    r.clamp(0, new_depth - 1)
                } else {
                    0
                };
                let mut s = self.child(noise, new_depth - reduction, alpha, alpha + 1, ply, false);
                if s > alpha && reduction > 0 {
                    s = self.child(noise, new_depth, alpha, alpha + 1, ply, false);
                }
                if s > alpha && s < beta && pv_node {
                    s = self.child(noise, new_depth, alpha, beta, ply, true);
                }
                s
            };
            self.unmake_move();
            if self.stopped {
                return 0;
            }
            searched += 1;
            if !capture && quiet_count < quiets_tried.len() {
                quiets_tried[quiet_count] = m;
                quiet_count += 1;
            } else if capture && capture_count < captures_tried.len() {
                captures_tried[capture_count] = m;
                capture_count += 1;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = m;
                    self.update_pv(ply, m);
                    if root {
                        self.root_best = m;
                        self.root_best_raw = self.root_raw;
                    }
                    if score >= beta {
                        if !capture {
                            self.reward_quiet(ply, m, depth, &quiets_tried[..quiet_count]);
                        }
                        if self.config.capture_history {
                            self.reward_capture(
                                m,
                                capture,
                                depth,
                                &captures_tried[..capture_count],
                            );
                        }
                        break;
                    }
                    alpha = score;
                }
            }
        }
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
        } else if best_score > original_alpha {
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

    /// Searches the move just made at `ply` within (`alpha`, `beta`) from the mover's side.
    /// At the root with `noise` (UCCI `randomness`) the child's window is shifted and its
    /// value returned with the noise added; the child's own value is kept in `root_raw`.
    #[inline]
    fn child(
        &mut self,
        noise: i32,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        pv_node: bool,
    ) -> i32 {
        if noise == 0 {
            let score = -self.pvs(depth, -beta, -alpha, ply + 1, pv_node, true);
            if ply == 0 {
                self.root_raw = score;
            }
            return score;
        }
        let (low, high) = child_window(alpha, beta, noise);
        let raw = -self.pvs(depth, -high, -low, ply + 1, pv_node, true);
        self.root_raw = raw;
        noisy(raw, noise)
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
