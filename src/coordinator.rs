//! The coordinator: owns the worker pool, the transposition table, the options, the position
//! and the clock; turns typed commands into searches and search events into protocol lines.
//! It alone writes to the output, one flushed line at a time. Two threads drive it, one at a
//! time under a lock: the input thread (each line is handled by the thread that read it) and
//! the events thread (pool events and the clock).

use crate::board::{Move, Position, RankBase};
use crate::book::BookSet;
use crate::options::{Effect, Level, Options};
use crate::protocol::{self, Command, Dialect, GoParams, ParseContext, ReaderEvent};
use crate::search::score::mated_in;
use crate::search::{Driver, Iteration, Limits, SearchConfig, SearchResult};
use crate::smp::{Job, PoolEvent, WorkerPool};
use crate::time::{self, TimeBudget};
use crate::tt::TranspositionTable;
use crossbeam_channel::{select, Receiver};
use parking_lot::Mutex;
use std::collections::VecDeque;
use std::io::Write;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Commands that act at once even while a search runs; others wait for `bestmove`.
const IMMEDIATE: [&str; 6] = ["stop", "ponderhit", "isready", "probe", "quit", "bye"];

/// The search in progress.
struct Active {
    id: u64,
    start: Instant,
    /// Pondering or infinite: hold `bestmove` until `stop`/`ponderhit`.
    hold: bool,
    ponder: bool,
    draw_offered: bool,
    budget: Option<TimeBudget>,
    /// When the clock started (the `go`, or the `ponderhit`).
    clock_start: Instant,
    held: Option<SearchResult>,
    last_info: Instant,
    last_best: Option<Move>,
    best_changes: u32,
    stable_iterations: u32,
    last_score: Option<i32>,
    /// The main thread's last completed iteration: the answer when stopping early.
    last_iteration: Option<Iteration>,
}

/// The engine's state machine between the reader, the pool and the output.
pub struct Coordinator<W: Write> {
    out: W,
    dialect: Option<Dialect>,
    options: Options,
    tt: Arc<TranspositionTable>,
    pool: WorkerPool,
    events: Receiver<PoolEvent>,
    events_tx: crossbeam_channel::Sender<PoolEvent>,
    position: Position,
    banned: Vec<Move>,
    active: Option<Active>,
    queue: VecDeque<String>,
    next_id: u64,
    quitting: bool,
    /// `quit` arrived during a search whose answer is still to come.
    quit_pending: bool,
    books: BookSet,
    rng: u64,
}

impl<W: Write> Coordinator<W> {
    /// A coordinator writing to `out`, with default options.
    pub fn new(out: W) -> Result<Coordinator<W>, String> {
        let options = Options::new();
        let tt = Arc::new(
            TranspositionTable::new(options.hash_mib)
                .map_err(|e| format!("cannot allocate {} MiB of hash: {e}", options.hash_mib))?,
        );
        let (events_tx, events) = crossbeam_channel::unbounded();
        let pool = WorkerPool::new(
            options.threads,
            options.pin_threads,
            Arc::clone(&tt),
            events_tx.clone(),
        );
        Ok(Coordinator {
            out,
            dialect: None,
            options,
            tt,
            pool,
            events,
            events_tx,
            position: Position::startpos(),
            banned: Vec::new(),
            active: None,
            queue: VecDeque::new(),
            next_id: 0,
            quitting: false,
            quit_pending: false,
            books: BookSet::default(),
            // Book choices vary from game to game; nothing else depends on this seed.
            rng: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0x9E37_79B9_7F4A_7C15, |d| d.as_nanos() as u64)
                | 1,
        })
    }

    fn line(&mut self, text: &str) {
        // A closed output means the GUI is gone; there is nobody left to tell.
        let _ = writeln!(self.out, "{text}");
        let _ = self.out.flush();
    }

    fn error(&mut self, msg: &str) {
        self.line(&format!("info string error: {msg}"));
    }

    fn rank_base(&self) -> RankBase {
        if self.dialect == Some(Dialect::Uci) && self.options.rank_base_one {
            RankBase::One
        } else {
            RankBase::Zero
        }
    }

    fn context(&self) -> ParseContext {
        ParseContext {
            dialect: self.dialect,
            rank_base: self.rank_base(),
            usemillisec: self.options.use_millisec,
        }
    }

    /// Handles one event of the input: a line, an unreadable line, or the end of input.
    pub fn on_input(&mut self, ev: ReaderEvent) {
        match ev {
            ReaderEvent::Line(line) => self.on_line(line),
            ReaderEvent::Error(msg) => self.error(&msg),
            ReaderEvent::Eof => self.quit(),
        }
    }

    /// True once `quit` (or the end of input) has been handled: no more input is read.
    /// The events thread may still have the last `bestmove` and `bye` to write.
    pub fn is_quitting(&self) -> bool {
        self.quitting || self.quit_pending
    }

    /// True while a search runs (its clock needs watching).
    pub fn is_searching(&self) -> bool {
        self.active.is_some()
    }

    /// How long to sleep before the next clock check.
    fn next_wake(&self) -> Duration {
        let Some(a) = &self.active else {
            return Duration::from_secs(3600);
        };
        let mut wake = Duration::from_millis(1000).saturating_sub(a.last_info.elapsed());
        if let (Some(b), false) = (&a.budget, a.ponder) {
            let hard = Duration::from_millis(b.hard_ms);
            wake = wake.min(hard.saturating_sub(a.clock_start.elapsed()));
        }
        wake.max(Duration::from_millis(1))
    }

    fn on_line(&mut self, line: String) {
        let word = line
            .split_whitespace()
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        if self.active.is_some() && !IMMEDIATE.contains(&word.as_str()) {
            self.queue.push_back(line);
            return;
        }
        self.execute(&line);
    }

    /// Runs queued commands until one starts a search.
    fn drain_queue(&mut self) {
        while self.active.is_none() && !self.is_quitting() {
            let Some(line) = self.queue.pop_front() else {
                break;
            };
            self.execute(&line);
        }
    }

    fn execute(&mut self, line: &str) {
        let cmd = match protocol::parse_command(line, &self.context()) {
            Ok(Some(cmd)) => cmd,
            Ok(None) => return,
            Err(e) => {
                self.error(&e.to_string());
                return;
            }
        };
        if self.dialect.is_none() && !matches!(cmd, Command::Ucci | Command::Uci | Command::Quit) {
            self.error("expected 'ucci' or 'uci' first");
            return;
        }
        match cmd {
            Command::Ucci => self.handshake(Dialect::Ucci),
            Command::Uci => self.handshake(Dialect::Uci),
            Command::IsReady => self.line("readyok"),
            Command::SetOption { name, value } => self.set_option(&name, &value),
            Command::NewGame => self.new_game(),
            Command::Position { fen, moves } => self.set_position(&fen, &moves),
            Command::BanMoves(moves) => self.banned = moves,
            Command::Go(params) => self.go(params),
            Command::PonderHit { draw } => self.ponderhit(draw),
            Command::Stop => self.stop(),
            Command::Probe { fen, moves } => self.probe(&fen, &moves),
            Command::Quit => self.quit(),
        }
    }

    fn handshake(&mut self, dialect: Dialect) {
        self.dialect = Some(dialect);
        let version = env!("CARGO_PKG_VERSION");
        match dialect {
            Dialect::Ucci => {
                self.line(&format!("id name Pao {version}"));
                self.line("id copyright 2026 the Pao authors");
                self.line("id author the Pao authors");
                for l in self.options.ucci_lines() {
                    self.line(&l);
                }
                self.line("ucciok");
            }
            Dialect::Uci => {
                self.line(&format!("id name Pao {version}"));
                self.line("id author the Pao authors");
                for l in self.options.uci_lines() {
                    self.line(&l);
                }
                self.line("uciok");
            }
        }
    }

    fn set_option(&mut self, name: &str, value: &str) {
        let strict = self.dialect == Some(Dialect::Uci);
        let before = self.options.clone();
        match self.options.set(name, value, strict) {
            Err(e) => self.error(&e),
            Ok(Effect::None) => {}
            Ok(Effect::Book) => match BookSet::open(&self.options.book_files) {
                Ok(books) => self.books = books,
                Err(e) => {
                    self.books = BookSet::default();
                    self.error(&e);
                }
            },
            Ok(Effect::NewGame) => self.new_game(),
            Ok(Effect::Resize) => match TranspositionTable::new(self.options.hash_mib) {
                Ok(tt) => {
                    self.tt = Arc::new(tt);
                    self.respawn();
                }
                Err(e) => {
                    let mib = self.options.hash_mib;
                    self.options = before;
                    self.error(&format!(
                        "cannot allocate {mib} MiB of hash ({e}); keeping {} MiB",
                        self.options.hash_mib
                    ));
                }
            },
            Ok(Effect::Respawn) => self.respawn(),
        }
    }

    fn respawn(&mut self) {
        // Drop the old pool first so its threads are gone before new ones start.
        let (tx, rx) = crossbeam_channel::unbounded();
        let old = std::mem::replace(
            &mut self.pool,
            WorkerPool::new(0, false, Arc::clone(&self.tt), tx.clone()),
        );
        drop(old);
        self.events = rx;
        self.events_tx = tx.clone();
        self.pool = WorkerPool::new(
            self.options.threads,
            self.options.pin_threads,
            Arc::clone(&self.tt),
            tx,
        );
    }

    fn new_game(&mut self) {
        self.tt.clear();
        self.pool.clear_heuristics();
    }

    fn set_position(&mut self, fen: &str, moves: &[Move]) {
        // The parser already proved the FEN and every move; a failure here is still reported.
        match Position::from_fen(fen) {
            Ok(mut pos) => {
                for &m in moves {
                    if !pos.is_legal(m) {
                        self.error(&format!("illegal move '{m}'"));
                        return;
                    }
                    pos.make_move(m);
                }
                self.position = pos;
                self.banned.clear();
            }
            Err(e) => self.error(&format!("bad FEN: {e}")),
        }
    }

    fn search_config(&self) -> SearchConfig {
        let mut config = SearchConfig::FULL;
        if self.options.pruning == Level::None {
            config.null_move = false;
            config.lmr = false;
            config.futility = false;
        }
        config.knowledge = self.options.knowledge != Level::None;
        if self.options.mtdf {
            config.driver = Driver::Mtdf;
        }
        config
    }

    fn go(&mut self, params: GoParams) {
        let mut root = self.position.clone();
        let mut legal = root.legal_moves();
        if !self.banned.is_empty() {
            let banned = self.banned.clone();
            legal.retain(|m| !banned.contains(&m));
        }
        if params.depth == Some(0) && !legal.is_empty() {
            // UCCI's `go depth 0`: the quiescence score, and no move.
            let score = crate::search::quiescence_score(&root, self.search_config());
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
        if self.options.use_book && !params.ponder && !params.infinite && self.play_from_book() {
            return;
        }
        let us = root.side_to_move();
        let budget = time::budget(&params, us, self.options.move_overhead_ms);
        let now = Instant::now();
        let hold = params.infinite || params.ponder;
        let mut limits = Limits::depth(params.depth.unwrap_or(u32::MAX).min(120));
        limits.nodes = params.nodes.unwrap_or(u64::MAX);
        if let (Some(b), false) = (&budget, params.ponder) {
            limits.deadline = Some(now + Duration::from_millis(b.hard_ms));
        }
        self.tt.new_search();
        self.next_id += 1;
        let allowed: Vec<Move> = if self.banned.is_empty() {
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
        });
        self.pool.set_stagger(self.options.stagger);
        self.pool.start(Job {
            id: self.next_id,
            root,
            limits,
            allowed,
            config: self.search_config(),
            main_thread_result: params.depth.is_some() && budget.is_none(),
        });
    }

    /// Answers from the opening book when the position is in it: one `info depth 0 score
    /// <weight> pv <move>` per candidate, then a move chosen by weight, with the heaviest book
    /// reply as the ponder move. Returns false when the book has nothing to say.
    fn play_from_book(&mut self) -> bool {
        if self.books.is_empty() {
            return false;
        }
        let mut pos = self.position.clone();
        let candidates = self.books.moves(&mut pos);
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        let Some(choice) = self.books.choose(&mut pos, self.rng, &self.banned) else {
            return false;
        };
        let base = self.rank_base();
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

    fn ponderhit(&mut self, draw: bool) {
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

    fn stop(&mut self) {
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
    fn finish_early(&mut self) {
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

    fn quit(&mut self) {
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

    fn say_bye(&mut self) {
        if self.dialect == Some(Dialect::Ucci) {
            self.line("bye");
        }
        self.quitting = true;
    }

    fn probe(&mut self, fen: &str, moves: &[Move]) {
        let Ok(mut pos) = Position::from_fen(fen) else {
            self.error("probe: bad FEN");
            return;
        };
        for &m in moves {
            pos.make_move(m);
        }
        let mut text = String::from("pophash");
        if let Some(e) = self.tt.probe(pos.key()) {
            if !e.mv.is_none() {
                text.push_str(&format!(
                    " bestmove {}",
                    crate::board::format_move(e.mv, self.rank_base())
                ));
            }
            use crate::tt::Bound;
            if matches!(e.bound, Bound::Lower | Bound::Exact) {
                text.push_str(&format!(" lowerbound {} depth {}", e.score, e.depth));
            }
            if matches!(e.bound, Bound::Upper | Bound::Exact) {
                text.push_str(&format!(" upperbound {} depth {}", e.score, e.depth));
            }
        }
        self.line(&text);
    }

    fn on_pool_event(&mut self, ev: PoolEvent) {
        match ev {
            PoolEvent::Iteration(it) => self.on_iteration(it),
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

    fn on_iteration(&mut self, it: Iteration) {
        let nodes = self.pool.nodes();
        let hashfull = self.tt.hashfull();
        let rank_base = self.rank_base();
        let dialect = self.dialect.unwrap_or(Dialect::Ucci);
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
        let line = protocol::format_info(
            dialect,
            &protocol::InfoLine {
                depth: it.depth,
                seldepth: it.seldepth,
                score: it.score,
                time_ms: elapsed,
                nodes,
                hashfull,
                pv: it.pv.clone(),
            },
            rank_base,
        );
        // Soft limit: stop after an iteration when the next one is unlikely to finish in time.
        let stop = match (&a.budget, a.ponder) {
            (Some(b), false) => {
                let used = a.clock_start.elapsed().as_millis() as u64;
                time::should_stop(b, used, a.best_changes, score_drop, a.stable_iterations)
            }
            _ => false,
        };
        self.line(&line);
        if stop {
            self.pool.stop();
        }
    }

    fn on_tick(&mut self) {
        let nodes = self.pool.nodes();
        let hashfull = self.tt.hashfull();
        let Some(a) = self.active.as_mut() else {
            return;
        };
        if let (Some(b), false) = (&a.budget, a.ponder) {
            if a.clock_start.elapsed().as_millis() as u64 >= b.hard_ms {
                self.pool.stop();
                self.finish_early();
                return;
            }
        }
        if a.last_info.elapsed() >= Duration::from_millis(1000) {
            a.last_info = Instant::now();
            let ms = a.start.elapsed().as_millis() as u64;
            let nps = nodes * 1000 / ms.max(1);
            self.line(&format!(
                "info time {ms} nodes {nodes} nps {nps} hashfull {hashfull}"
            ));
        }
    }

    /// Prints the final lines of the active search and returns to idle.
    fn finish(&mut self) {
        let Some(a) = self.active.take() else { return };
        let result = a.held.unwrap_or(SearchResult {
            best_move: None,
            ponder: None,
            score: mated_in(0),
            depth: 0,
            pv: Vec::new(),
            nodes: 0,
        });
        let ms = a.start.elapsed().as_millis() as u64;
        let nodes = self.pool.nodes().max(result.nodes);
        self.line(&format!("info time {ms} nodes {nodes}"));
        let draw = self.options.draw_resign && a.draw_offered && result.score <= 0;
        self.print_final(result.best_move, result.ponder, draw);
        self.drain_queue();
    }

    fn print_final(&mut self, best: Option<Move>, ponder: Option<Move>, draw: bool) {
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

/// Runs the daemon on stdin/stdout until `quit`, end of input or Ctrl-C.
///
/// The thread that reads a line handles it at once under the coordinator's lock, so `stop`
/// is answered by the thread the input woke: on a machine with more busy workers than cores,
/// handing the line to another sleeping thread would add a scheduler wake-up (a 4-30 ms tick
/// here at 16 threads on 2 cores). A second thread handles the pool's events and the clock.
pub fn run_stdio() -> i32 {
    let coordinator = match Coordinator::new(std::io::stdout()) {
        Ok(c) => Arc::new(Mutex::new(c)),
        Err(e) => {
            eprintln!("error: {e}");
            return 1;
        }
    };
    // Ctrl-C ends the daemon like `quit`; if the handler cannot be set, Ctrl-C still kills it.
    let on_signal = Arc::clone(&coordinator);
    let _ = ctrlc::set_handler(move || {
        on_signal.lock().on_input(ReaderEvent::Eof);
        while !on_signal.lock().quitting {
            std::thread::sleep(Duration::from_millis(1));
        }
        std::process::exit(0);
    });
    let (nudge_tx, nudge_rx) = crossbeam_channel::unbounded::<()>();
    let events_side = Arc::clone(&coordinator);
    let events_thread = std::thread::Builder::new()
        .name("pao-events".to_string())
        .spawn(move || serve_events(&events_side, &nudge_rx));
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut buf = Vec::new();
    loop {
        let ev = protocol::read_event(&mut input, &mut buf);
        let mut c = coordinator.lock();
        c.on_input(ev);
        if c.is_quitting() {
            break;
        }
        if c.is_searching() {
            // The search's clock is the events thread's to watch: let it look again.
            let _ = nudge_tx.send(());
        }
    }
    drop(nudge_tx);
    if let Ok(handle) = events_thread {
        let _ = handle.join();
    }
    0
}

/// The events thread: pool events become protocol lines; the clock is checked between them.
fn serve_events<W: Write>(coordinator: &Mutex<Coordinator<W>>, nudge: &Receiver<()>) {
    // Once the input side is gone, only the pool's last answer (and `bye`) remain to write.
    let mut nudge = nudge.clone();
    loop {
        let (events, wake) = {
            let c = coordinator.lock();
            if c.quitting {
                return;
            }
            (c.events.clone(), c.next_wake())
        };
        select! {
            // An error means the pool was replaced (`threads` changed): take the new receiver.
            recv(events) -> ev => if let Ok(ev) = ev {
                coordinator.lock().on_pool_event(ev);
            },
            recv(nudge) -> n => {
                if n.is_err() {
                    nudge = crossbeam_channel::never();
                }
            },
            default(wake) => coordinator.lock().on_tick(),
        }
    }
}
