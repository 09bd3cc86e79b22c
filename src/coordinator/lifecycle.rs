//! The life of one search: `go` (or the book), `ponderhit`, `stop`, `quit`, and `bestmove`.

use super::{Active, Coordinator};
use crate::board::Move;
use crate::protocol::{self, Dialect, GoParams};
use crate::search::score::mated_in;
use crate::search::{Limits, SearchResult};
use crate::smp::Job;
use crate::time;
use std::io::Write;
use std::time::{Duration, Instant};

impl<W: Write> Coordinator<W> {
    pub(super) fn go(&mut self, params: GoParams) {
        if !self.position_valid {
            // The GUI's board is not ours: a move of the old position would be illegal there.
            self.error("no valid position (the last position command was rejected)");
            self.print_final(None, None, false);
            return;
        }
        // The GUI's clock against what the last timed search left it (`clock_lag.rs`): on its
        // own clock only, not while pondering (the clock runs for the opponent) nor when the
        // engine's clock counts nodes.
        let own_clock = time::own_clock(&params, self.position.side_to_move()).filter(|_| {
            !params.ponder && params.movetime.is_none() && self.options.nodes_time == 0
        });
        self.clock_lag.on_go(own_clock, Instant::now());
        let mut root = self.position.clone();
        let mut legal = root.legal_moves();
        if !self.banned.is_empty() {
            let banned = self.banned.clone();
            legal.retain(|m| !banned.contains(&m));
        }
        let base = self.rank_base();
        for &m in &params.searchmoves {
            if !root.is_legal(m) {
                let m = crate::board::format_move(m, base);
                self.error(&format!("go: searchmoves: illegal move '{m}' ignored"));
            }
        }
        // searchmoves keeps only its moves; with banmoves, the moves in one and not the other.
        let restricted = !self.banned.is_empty() || !params.searchmoves.is_empty();
        if !params.searchmoves.is_empty() {
            legal.retain(|m| params.searchmoves.contains(&m));
        }
        if params.depth == Some(0) && !legal.is_empty() {
            // UCCI's `go depth 0`: the quiescence score, and no move.
            let score =
                crate::search::quiescence_score(&root, self.search_config(), self.network_in_use());
            let dialect = self.dialect.unwrap_or(Dialect::Ucci);
            self.line(&format!(
                "info depth 0 {}",
                protocol::format_score(dialect, score)
            ));
        }
        if params.depth == Some(0) || legal.is_empty() {
            self.print_final(None, None, false);
            return;
        }
        let book = self.options.use_book && !self.options.analyse_mode;
        if book
            && params.searchmoves.is_empty()
            && !params.ponder
            && !params.infinite
            && self.play_from_book()
        {
            return;
        }
        if params.searchmoves.is_empty()
            && !params.ponder
            && !params.infinite
            && self.play_from_tablebases(&legal)
        {
            return;
        }
        let us = root.side_to_move();
        // `nodestime`: the clock counts nodes (a ponder search keeps the wall clock).
        let mut nodes_per_ms =
            (self.options.nodes_time > 0 && !params.ponder).then_some(self.options.nodes_time);
        let mut nodes_increment = None;
        let clock = nodes_per_ms.and_then(|n| {
            let (p, left, inc) = time::nodes_clock(&params, us, n, self.available_nodes)?;
            self.available_nodes = Some(left);
            nodes_increment = Some(inc);
            Some(p)
        });
        let budget = time::budget_with_lag(
            clock.as_ref().unwrap_or(&params),
            us,
            self.options.move_overhead_ms,
            if clock.is_none() {
                self.clock_lag.lag_ms()
            } else {
                0
            },
        );
        if budget.is_none() {
            nodes_per_ms = None;
        }
        let now = Instant::now();
        let hold = params.infinite || params.ponder;
        let mut limits = Limits::depth(params.depth.unwrap_or(u32::MAX).min(120));
        limits.nodes = params.nodes.unwrap_or(u64::MAX);
        limits.stop_when_decided = params.depth.is_none();
        limits.prove_mates = proves_mates(&params, budget.is_some());
        limits.multipv = self.options.multipv;
        limits.mate = params.mate;
        let skill = self.start_skill(&mut limits, legal.len());
        limits.noise = self.root_noise();
        let limited = skill.is_some();
        if let (Some(b), false) = (&budget, params.ponder) {
            match nodes_per_ms {
                // Each worker counts its own nodes: the hard limit is shared among them.
                Some(n) => {
                    let threads = self.pool.threads().max(1) as u64;
                    let each = b.hard_ms.saturating_mul(n).div_ceil(threads).max(1);
                    limits.nodes = limits.nodes.min(each);
                }
                None => limits.deadline = Some(now + Duration::from_millis(b.hard_ms)),
            }
        }
        self.tt.new_search();
        if let Some(t) = &self.tablebases {
            t.reset_hits();
        }
        self.next_id += 1;
        let config = self.search_config();
        let allowed: Vec<Move> = if !restricted {
            Vec::new()
        } else {
            legal.iter().copied().collect()
        };
        self.active = Some(Active {
            id: self.next_id,
            start: now,
            hold,
            ponder: params.ponder,
            draw_offered: params.draw,
            budget,
            clock_start: now,
            held: None,
            last_info: now,
            last_best: None,
            best_changes: 0,
            stable_iterations: 0,
            last_score: None,
            last_iteration: None,
            iteration_start: now,
            skill,
            last_currmove: None,
            max_depth: limits
                .depth
                .clamp(1, (crate::search::score::MAX_PLY - 8) as u32),
            nodes_per_ms,
            nodes_increment,
            counted_nodes: None,
        });
        self.pool.set_stagger(self.options.stagger);
        self.pool.start(Job {
            id: self.next_id,
            root,
            limits,
            allowed,
            config,
            network: self.network_in_use(),
            tablebases: self.tablebases_in_use(),
            // Fixed-depth searches answer with the main thread's result, reproducibly.
            main_thread_result: (params.depth.is_some() && budget.is_none())
                || !self.options.smp_vote
                || limited,
            solo: limited,
        });
        if self.ucci_debug() {
            self.line("info depth 1");
        }
    }

    /// Answers from the opening book when the position is in it: one `info depth 0 score
    /// <weight> pv <move>` per candidate, then a move chosen by weight, with the heaviest book
    /// reply as the ponder move. Returns false when the book has nothing to say.
    pub(super) fn play_from_book(&mut self) -> bool {
        if self.books.is_empty() {
            return false;
        }
        let mut pos = self.position.clone();
        let candidates = self.books.moves(&mut pos);
        let draw = self.next_random();
        let Some(choice) = self.books.choose(&mut pos, draw, &self.banned) else {
            return false;
        };
        let base = self.rank_base();
        // CECP has no place for candidate lists outside thinking output; the move says enough.
        let candidates = if self.dialect == Some(Dialect::Cecp) {
            Vec::new()
        } else {
            candidates
        };
        for b in &candidates {
            self.line(&format!(
                "info depth 0 score {} pv {}",
                b.weight,
                crate::board::format_move(b.mv, base)
            ));
        }
        pos.make_move(choice.mv);
        let ponder = self.books.moves(&mut pos).first().map(|b| b.mv);
        self.print_final(Some(choice.mv), ponder, false);
        true
    }

    pub(super) fn ponderhit(&mut self, draw: bool) {
        let Some(a) = self.active.as_mut() else {
            return;
        };
        a.draw_offered |= draw;
        if !a.ponder {
            return;
        }
        a.ponder = false;
        a.hold = false;
        a.clock_start = Instant::now();
        if a.held.is_some() {
            self.finish();
        } else if a.budget.is_none() {
            // Pondering without a clock becomes a normal search that ends on `stop`.
            a.hold = true;
        }
    }

    pub(super) fn stop(&mut self) {
        match self.active.as_mut() {
            None => {
                if self.dialect == Some(Dialect::Ucci) {
                    self.line("nobestmove");
                }
            }
            Some(a) => {
                a.hold = false;
                a.ponder = false;
                self.pool.stop();
                self.finish_early();
            }
        }
    }

    /// Answers a stopped search at once with the main thread's last completed iteration (what
    /// its result would be), rather than waiting for every worker to notice the stop flag: on
    /// an oversubscribed machine that can take a scheduler slice per thread. The workers park
    /// by themselves; the next search waits for them, and their late result is ignored.
    pub(super) fn finish_early(&mut self) {
        let Some(a) = self.active.as_mut() else {
            return;
        };
        if a.held.is_none() {
            let Some(it) = a.last_iteration.take() else {
                // Nothing completed yet: the pool's own answer follows shortly.
                return;
            };
            a.held = Some(SearchResult {
                best_move: it.pv.first().copied(),
                ponder: it.pv.get(1).copied(),
                score: it.score,
                depth: it.depth,
                pv: it.pv,
                nodes: it.nodes,
            });
        }
        self.finish();
    }

    pub(super) fn quit(&mut self) {
        if let Some(a) = self.active.as_mut() {
            // The GUI still gets its bestmove: from the last iteration at once, or else from
            // the pool's own answer, which the events thread delivers before `bye`.
            a.hold = false;
            a.ponder = false;
            self.pool.stop();
            self.finish_early();
        }
        self.quit_pending = true;
        if self.active.is_none() {
            self.say_bye();
        }
    }

    pub(super) fn say_bye(&mut self) {
        if self.dialect == Some(Dialect::Ucci) {
            self.line("bye");
        }
        self.quitting = true;
    }
    /// Prints the final lines of the active search and returns to idle.
    pub(super) fn finish(&mut self) {
        let Some(a) = self.active.take() else { return };
        let mut result = a.held.unwrap_or(SearchResult {
            best_move: None,
            ponder: None,
            score: mated_in(0),
            depth: 0,
            pv: Vec::new(),
            nodes: 0,
        });
        let ms = a.start.elapsed().as_millis() as u64;
        self.clock_lag.on_answer(Instant::now());
        if let Some(play) = &a.skill {
            self.finish_skill(play, &mut result, ms);
        }
        let nodes = self.pool.nodes().max(result.nodes);
        if let Some(inc) = a.nodes_increment {
            let used = a.counted_nodes.unwrap_or(nodes);
            self.available_nodes = self
                .available_nodes
                .map(|left| left.saturating_add(inc).saturating_sub(used));
        }
        if self.dialect != Some(Dialect::Cecp) {
            self.line(&format!("info time {ms} nodes {nodes}"));
        }
        let draw = self.options.draw_resign && a.draw_offered && result.score <= 0;
        self.print_final(result.best_move, result.ponder, draw);
        self.drain_queue();
    }

    pub(super) fn print_final(&mut self, best: Option<Move>, ponder: Option<Move>, draw: bool) {
        self.report_tablebase_errors();
        if self.dialect == Some(Dialect::Cecp) {
            self.cecp_bestmove(best, ponder);
            return;
        }
        let line = protocol::format_bestmove(
            self.dialect.unwrap_or(Dialect::Ucci),
            best,
            ponder,
            self.rank_base(),
            draw,
            false,
        );
        self.line(&line);
    }
}

/// True when a held mate must be proven exact before it ends the iterations: an analysis, that
/// is a search that no game clock bounds (`go infinite`, a bare `go`, `go movetime`). On a game's
/// clock (`clocked`: the side to move has time left and an increment, pondering included) the
/// plain rule stays: a won game gains nothing from the shortest mate, and the time a proof takes
/// comes off the clock. `go depth` and `go nodes` keep it too (their node counts stay as they
/// were).
fn proves_mates(params: &GoParams, clocked: bool) -> bool {
    params.depth.is_none() && params.nodes.is_none() && (!clocked || params.movetime.is_some())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Color;

    fn budgeted(params: &GoParams, us: Color) -> bool {
        time::budget(params, us, 0).is_some()
    }

    #[test]
    fn only_searches_without_a_game_clock_prove_mates() {
        let analyses = [
            GoParams {
                infinite: true,
                ..GoParams::default()
            },
            GoParams::default(),
            GoParams {
                movetime: Some(3000),
                ..GoParams::default()
            },
            // A clock for the other side only: nothing bounds red's search.
            GoParams {
                btime: Some(60_000),
                ..GoParams::default()
            },
        ];
        for p in &analyses {
            assert!(proves_mates(p, budgeted(p, Color::Red)), "{p:?}");
        }
        let plain = [
            GoParams {
                wtime: Some(60_000),
                btime: Some(60_000),
                ..GoParams::default()
            },
            GoParams {
                time: Some(60_000),
                increment: Some(1000),
                ..GoParams::default()
            },
            GoParams {
                wtime: Some(60_000),
                ponder: true,
                ..GoParams::default()
            },
            GoParams {
                depth: Some(12),
                ..GoParams::default()
            },
            GoParams {
                nodes: Some(100_000),
                ..GoParams::default()
            },
            GoParams {
                nodes: Some(100_000),
                movetime: Some(3000),
                ..GoParams::default()
            },
        ];
        for p in &plain {
            assert!(!proves_mates(p, budgeted(p, Color::Red)), "{p:?}");
        }
    }
}
