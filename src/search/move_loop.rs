//! A node's loop over its moves: move pruning, extensions, LMR with PVS re-searches, cutoffs.

use super::ordering::MovePicker;
use super::params as param;
use super::root_noise::{child_window, noisy};
use super::score::{INFINITE, MAX_PLY, WIN_BOUND};
use super::see::see_ge;
use super::worker::Searcher;
use crate::board::Move;

/// Futility margins by remaining depth 1 to 3.
#[inline(always)]
fn futility_margin(depth: i32) -> i32 {
    match depth {
        1 => param::futility_margin_1(),
        2 => param::futility_margin_2(),
        _ => param::futility_margin_3(),
    }
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

/// What the node hands its move loop.
#[derive(Copy, Clone)]
pub(super) struct MoveLoop {
    pub(super) depth: i32,
    pub(super) alpha: i32,
    pub(super) beta: i32,
    pub(super) ply: usize,
    pub(super) pv_node: bool,
    pub(super) in_check: bool,
    /// The move a singular search of this node leaves out (`Move::NONE`: none).
    pub(super) excluded: Move,
    pub(super) tt_move: Move,
    /// What futility compares with alpha: the static evaluation, or the table's better bound.
    pub(super) eval: i32,
    pub(super) improving: bool,
    /// What the singular search decided for the TT move.
    pub(super) singular_extension: i32,
}

/// What the move loop found.
pub(super) struct Searched {
    /// The best score (`-INFINITE` when no move was searched).
    pub(super) best_score: i32,
    /// The move that raised alpha last (`Move::NONE`: none did).
    pub(super) best_move: Move,
    /// Moves searched, and legal moves (pruned ones included).
    pub(super) searched: usize,
    pub(super) legal: usize,
}

impl Searcher {
    /// Searches the node's moves, best first as ordered, until one reaches beta. `None` once
    /// the search is stopped (the node then returns 0).
    #[inline(always)]
    pub(super) fn search_moves(&mut self, node: &MoveLoop) -> Option<Searched> {
        let MoveLoop {
            depth,
            mut alpha,
            beta,
            ply,
            pv_node,
            in_check,
            excluded,
            mut tt_move,
            eval,
            improving,
            singular_extension,
        } = *node;
        let root = ply == 0;
        let excluding = !excluded.is_none();
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
                            self.heur.quiet(p, m, hints.cont)
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
                return None;
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
                        // Without noise the move's own value is its score.
                        self.root_best_raw = if noise == 0 { score } else { self.root_raw };
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
        Some(Searched {
            best_score,
            best_move,
            searched,
            legal,
        })
    }

    /// Searches the move just made at `ply` within (`alpha`, `beta`) from the mover's side.
    /// At the root with `noise` (UCCI `randomness`) the child's window is shifted and its
    /// value returned with the noise added; the child's own value is kept in `root_raw`.
    /// Without noise nothing is kept: the caller at the root has the value itself, so no
    /// node pays for a root test.
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
            return -self.pvs(depth, -beta, -alpha, ply + 1, pv_node, true);
        }
        let (low, high) = child_window(alpha, beta, noise);
        let raw = -self.pvs(depth, -high, -low, ply + 1, pv_node, true);
        self.root_raw = raw;
        noisy(raw, noise)
    }
}
