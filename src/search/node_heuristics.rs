//! The search's per-node use of its per-thread heuristics: the ordering hints, the LMR
//! adjustment, and the rewards after a cutoff.

use super::heuristics::{cont_key, NO_CONT};
use super::ordering::OrderingHints;
use super::params as param;
use super::worker::Searcher;
use crate::board::{Move, Piece};

/// The bonus (and, negated, the malus) a cutoff at `depth` gives the histories.
#[inline]
fn history_bonus(depth: i32) -> i32 {
    (depth * depth).min(param::history_bonus_max()) * param::history_bonus_mul()
}

impl Searcher {
    /// The per-move change to the LMR reduction: -1 for a killer or the counter-move, minus
    /// the quiet history in units of `LmrHistoryDivisor`, +1 when the position is not
    /// improving.
    #[inline]
    pub(crate) fn lmr_adjustment(
        &self,
        m: Move,
        piece: Option<Piece>,
        hints: &OrderingHints,
        improving: bool,
    ) -> i32 {
        let mut r = i32::from(!improving);
        if hints.killers.contains(&m) || hints.counter == m {
            r -= 1;
        }
        if let Some(p) = piece {
            r -= self.heur.quiet(p, m, hints.cont) / param::lmr_history_divisor();
        }
        r
    }

    /// Killers and the counter-move for the node at `ply`.
    pub(crate) fn ordering_hints(&self, ply: usize, tt_move: Move) -> OrderingHints {
        let (prev, prev_piece) = if ply > 0 {
            (self.stack[ply - 1].mv, self.stack[ply - 1].piece)
        } else {
            (Move::NONE, None)
        };
        OrderingHints {
            cont: [self.cont_key(ply, 1), self.cont_key(ply, 2)],
            tt_move,
            killers: self.heur.killers(ply),
            counter: match prev_piece {
                Some(p) if !prev.is_none() => self.heur.counter(p, prev),
                _ => Move::NONE,
            },
        }
    }

    /// The continuation-history key of the move `back` plies before the node at `ply`.
    #[inline]
    fn cont_key(&self, ply: usize, back: usize) -> usize {
        if !self.config.cont_history || ply < back {
            return NO_CONT;
        }
        let e = &self.stack[ply - back];
        match e.piece {
            Some(p) if !e.mv.is_none() => cont_key(p, e.mv),
            _ => NO_CONT,
        }
    }

    /// Updates the capture history after `best` (a capture or not) caused a cutoff: the
    /// capture that cut is rewarded, the captures tried before it punished.
    pub(crate) fn reward_capture(
        &mut self,
        best: Move,
        best_is_capture: bool,
        depth: i32,
        tried: &[Move],
    ) {
        let bonus = history_bonus(depth);
        for &c in tried {
            let b = if best_is_capture && c == best {
                bonus
            } else {
                -bonus
            };
            self.heur.update_capture_history(&self.pos, c, b);
        }
    }

    /// Updates killers, counter-move and history after a quiet move caused a cutoff.
    pub(crate) fn reward_quiet(&mut self, ply: usize, m: Move, depth: i32, tried: &[Move]) {
        if self.config.killers {
            self.heur.add_killer(ply, m);
        }
        if self.config.counter_move && ply > 0 {
            if let Some(p) = self.stack[ply - 1].piece {
                let prev = self.stack[ply - 1].mv;
                if !prev.is_none() {
                    self.heur.set_counter(p, prev, m);
                }
            }
        }
        if self.config.history {
            let bonus = history_bonus(depth);
            let cont = [self.cont_key(ply, 1), self.cont_key(ply, 2)];
            for &q in tried {
                if let Some(p) = self.pos.piece_at(q.from()) {
                    let b = if q == m { bonus } else { -bonus };
                    self.heur.update_history(p, q, b);
                    for prev in cont {
                        self.heur.update_cont_history(prev, p, q, b);
                    }
                }
            }
        }
    }
}
