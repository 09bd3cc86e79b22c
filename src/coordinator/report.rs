//! Pool events and the clock: iterations become `info` lines, the soft and hard time limits
//! stop the search, and a quiet search gets a periodic `info time ... nps` line.

use super::Coordinator;
use crate::protocol::{self, Dialect};
use crate::search::score::is_mate_score;
use crate::search::wdl::wdl;
use crate::search::Iteration;
use crate::smp::PoolEvent;
use crate::time;
use std::io::Write;
use std::time::{Duration, Instant};

/// How often UCCI `debug` looks for a new root move to show as `currmove`.
const DEBUG_CURRMOVE_INTERVAL: Duration = Duration::from_millis(100);

impl<W: Write> Coordinator<W> {
    /// How long to sleep before the next clock check.
    pub(super) fn next_wake(&self) -> Duration {
        let Some(a) = &self.active else {
            return Duration::from_secs(3600);
        };
        let mut wake = Duration::from_millis(1000).saturating_sub(a.last_info.elapsed());
        if self.ucci_debug() {
            wake = wake.min(DEBUG_CURRMOVE_INTERVAL);
        }
        // With `nodestime` the workers' node limit is the hard limit.
        if let (Some(b), false, None) = (&a.budget, a.ponder, a.nodes_per_ms) {
            let hard = Duration::from_millis(b.hard_ms);
            wake = wake.min(hard.saturating_sub(a.clock_start.elapsed()));
        }
        wake.max(Duration::from_millis(1))
    }

    pub(super) fn on_pool_event(&mut self, ev: PoolEvent) {
        match ev {
            // An iteration of a search already answered (its event raced the `bestmove`)
            // must not stand in for the next search's answer.
            PoolEvent::Iteration { id, iteration } => {
                if self.active.as_ref().is_some_and(|a| a.id == id) {
                    self.on_iteration(iteration);
                }
            }
            PoolEvent::Cleared { id } => self.on_cleared(id),
            PoolEvent::Finished { id, result } => {
                let Some(a) = self.active.as_mut() else {
                    return;
                };
                if a.id != id {
                    return;
                }
                a.held = Some(result);
                if !a.hold {
                    self.finish();
                }
                if self.quit_pending && self.active.is_none() {
                    self.say_bye();
                }
            }
        }
    }

    pub(super) fn on_iteration(&mut self, it: Iteration) {
        let nodes = self.pool.nodes();
        let hashfull = self.tt.hashfull();
        let rank_base = self.rank_base();
        let dialect = self.dialect.unwrap_or(Dialect::Ucci);
        let tbhits = self.tablebases_in_use().map(|t| t.hits());
        // One thread's count at the iteration's end is exact (`nodestime` then decides the same
        // way every time); the pool's is read a little later.
        let counted = if self.pool.threads() == 1 {
            it.nodes
        } else {
            nodes
        };
        let Some(a) = self.active.as_mut() else {
            return;
        };
        let elapsed = a.start.elapsed().as_millis() as u64;
        let best = it.pv.first().copied();
        if best != a.last_best {
            if a.last_best.is_some() {
                a.best_changes += 1;
            }
            a.stable_iterations = 0;
        } else {
            a.stable_iterations += 1;
        }
        let score_drop = a.last_score.map_or(0, |s| s - it.score);
        a.last_best = best;
        a.last_score = Some(it.score);
        a.last_iteration = Some(it.clone());
        a.last_info = Instant::now();
        a.iteration_start = a.last_info;
        let next_depth = (it.depth < a.max_depth).then_some(it.depth + 1);
        let show_wdl = dialect == Dialect::Uci && self.options.show_wdl;
        let numbered = self.options.multipv > 1;
        if let Some(play) = a.skill.as_mut() {
            play.note(&it);
        }
        // A level searches more lines than it shows (its candidates): the GUI sees MultiPV's.
        let lines: Vec<String> = it
            .lines
            .iter()
            .take(self.options.multipv)
            .enumerate()
            .map(|(i, l)| {
                protocol::format_info(
                    dialect,
                    &protocol::InfoLine {
                        depth: it.depth,
                        seldepth: it.seldepth,
                        score: l.score,
                        time_ms: elapsed,
                        nodes,
                        hashfull,
                        pv: l.pv.clone(),
                        multipv: numbered.then_some(i + 1),
                        wdl: show_wdl.then(|| wdl(l.score)),
                        tbhits,
                    },
                    rank_base,
                )
            })
            .collect();
        // Soft limit: stop after an iteration when the next one is unlikely to finish in time.
        let stop = match (&a.budget, a.ponder) {
            (Some(b), false) => {
                let used = a.used_ms(counted);
                // A mate ends the search when the main thread has proven it exact (or at
                // the hard limit): the soft limit would stop at a mate longer than the shortest.
                !is_mate_score(it.score)
                    && time::should_stop(b, used, a.best_changes, score_drop, a.stable_iterations)
            }
            _ => false,
        };
        if stop && a.nodes_per_ms.is_some() {
            a.counted_nodes = Some(counted);
        }
        if dialect != Dialect::Cecp || self.cecp_post() {
            for line in &lines {
                self.line(line);
            }
            // B*'s root bounds (UCCI and UCI; CECP has no `info string`).
            if let (Some(proven), false) = (it.proven, dialect == Dialect::Cecp) {
                self.line(&protocol::format_bounds(&it.bounds, proven, rank_base));
            }
        }
        if stop {
            self.pool.stop();
        } else if let (Some(depth), true) = (next_depth, self.ucci_debug()) {
            // UCCI `debug`: the next iteration starts now.
            self.line(&format!("info depth {depth}"));
        }
    }

    pub(super) fn on_tick(&mut self) {
        let debug = self.ucci_debug();
        let nodes = self.pool.nodes();
        let hashfull = self.tt.hashfull();
        let Some(a) = self.active.as_mut() else {
            return;
        };
        if let (Some(b), false) = (&a.budget, a.ponder) {
            if a.used_ms(nodes) >= b.hard_ms {
                self.pool.stop();
                self.finish_early();
                return;
            }
        }
        // CECP has no progress line outside thinking output.
        if a.last_info.elapsed() >= Duration::from_millis(1000)
            && self.dialect != Some(Dialect::Cecp)
        {
            a.last_info = Instant::now();
            let ms = a.start.elapsed().as_millis() as u64;
            let nps = nodes * 1000 / ms.max(1);
            let iteration_ms = a.iteration_start.elapsed().as_millis();
            self.line(&format!(
                "info time {ms} nodes {nodes} nps {nps} hashfull {hashfull}"
            ));
            // A long iteration: say which root move the main thread is on (GUIs show it).
            if iteration_ms > 3000 {
                if let Some(current) = self.pool.current_move() {
                    self.currmove(current);
                }
            }
        } else if debug {
            // UCCI `debug`: each new root move, as often as the clock is checked.
            let current = self.pool.current_move();
            if let Some(current) = current.filter(|_| current != a.last_currmove) {
                self.currmove(current);
            }
        }
    }

    /// `info depth D currmove M currmovenumber K`.
    fn currmove(&mut self, (mv, number, depth): (crate::board::Move, u32, u32)) {
        if let Some(a) = self.active.as_mut() {
            a.last_currmove = Some((mv, number, depth));
        }
        let mv = crate::board::format_move(mv, self.rank_base());
        self.line(&format!(
            "info depth {depth} currmove {mv} currmovenumber {number}"
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::super::Coordinator;
    use crate::board::{parse_move, RankBase};
    use crate::protocol::ReaderEvent;
    use crate::search::Iteration;
    use crate::smp::PoolEvent;

    /// An iteration event of an earlier search, arriving after the next `go`, is ignored: it
    /// once became the next search's answer when that search was stopped before its first
    /// iteration (an illegal, stale move in fast games).
    #[test]
    fn a_stale_iteration_never_answers_the_next_search() {
        let mut c = Coordinator::new(Vec::new()).expect("coordinator");
        for line in ["uci", "setoption name Threads value 1", "position startpos"] {
            c.on_input(ReaderEvent::Line(line.to_string()));
        }
        c.on_input(ReaderEvent::Line("go infinite".to_string()));
        let id = c.active.as_ref().expect("searching").id;
        // Black's move: never legal for red at the start.
        let stale = parse_move("h7e7", RankBase::Zero).expect("move");
        c.on_pool_event(PoolEvent::Iteration {
            id: id - 1,
            iteration: Iteration {
                depth: 20,
                seldepth: 20,
                score: 0,
                pv: vec![stale],
                nodes: 1,
                lines: Vec::new(),
                bounds: Vec::new(),
                proven: None,
            },
        });
        c.on_input(ReaderEvent::Line("stop".to_string()));
        while c.active.is_some() {
            let ev = c.events.recv().expect("pool event");
            c.on_pool_event(ev);
        }
        let out = String::from_utf8(c.out.clone()).expect("utf-8");
        let best = out
            .lines()
            .find(|l| l.starts_with("bestmove"))
            .expect("a bestmove");
        assert!(!best.contains("h7e7"), "{out}");
    }

    /// The hard limit ends a search by itself: here no iteration reaches the coordinator, so
    /// the soft limit (checked after each) never can, and the move comes at the hard limit.
    #[test]
    fn the_hard_limit_ends_a_search_the_soft_limit_never_saw() {
        let mut c = Coordinator::new(Vec::new()).expect("coordinator");
        for line in [
            "uci",
            "setoption name Threads value 1",
            "setoption name Move Overhead value 0",
            "position startpos",
        ] {
            c.on_input(ReaderEvent::Line(line.to_string()));
        }
        // The machine's load, measured meanwhile: how late a thread that sleeps 10 ms at a
        // time wakes at worst. A busy machine wakes the coordinator as late.
        let searching = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
        let probe = {
            let searching = std::sync::Arc::clone(&searching);
            std::thread::spawn(move || {
                let tick = std::time::Duration::from_millis(10);
                let mut worst = std::time::Duration::ZERO;
                while searching.load(std::sync::atomic::Ordering::Relaxed) {
                    let t = std::time::Instant::now();
                    std::thread::sleep(tick);
                    worst = worst.max(t.elapsed().saturating_sub(tick));
                }
                worst
            })
        };
        let start = std::time::Instant::now();
        c.on_input(ReaderEvent::Line("go movetime 300".to_string()));
        while c.active.is_some() {
            match c.events.recv_timeout(c.next_wake()) {
                Ok(PoolEvent::Iteration { .. }) => {}
                Ok(ev) => c.on_pool_event(ev),
                Err(_) => c.on_tick(),
            }
            assert!(start.elapsed().as_secs() < 10, "the search never ended");
        }
        let took = start.elapsed();
        searching.store(false, std::sync::atomic::Ordering::Relaxed);
        let late = probe.join().expect("the probe");
        assert!(
            took >= std::time::Duration::from_millis(295),
            "ended after {took:?}, before the hard limit"
        );
        assert!(
            took < std::time::Duration::from_millis(800) + 2 * late,
            "ended after {took:?}, long after the hard limit (a sleeping thread woke {late:?} late)"
        );
        let out = String::from_utf8(c.out.clone()).expect("utf-8");
        assert!(out.lines().any(|l| l.starts_with("bestmove ")), "{out}");
    }
}
