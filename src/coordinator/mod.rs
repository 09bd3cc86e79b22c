//! The coordinator: owns the worker pool, the transposition table, the options, the position
//! and the clock; turns typed commands into searches and search events into protocol lines.
//! It alone writes to the output, one flushed line at a time. Two threads drive it, one at a
//! time under a lock: the input thread (each line is handled by the thread that read it) and
//! the events thread (pool events and the clock).
//!
//! By concern: `lifecycle` (go, stop, ponderhit, quit, bestmove), `settings` (options, hash,
//! the pool), `report` (pool events and the clock become `info` lines), `stdio` (the two
//! threads that drive it), `driver` (the events thread, and a coordinator fed by another
//! front than stdin), `cecp` (the game an xboard connection keeps), `developer` (perft, flip,
//! bench, compiler, export_net), `debug_log` (the `Debug Log File` option). This file holds
//! the state and the dispatch of commands.

mod cecp;
mod clock_lag;
mod debug_log;
mod debug_view;
mod developer;
mod driver;
mod lifecycle;
mod report;
mod settings;
mod stdio;
mod strength;
mod tablebase;

pub use driver::{Driven, DrivenGuard};
pub use stdio::run_stdio;

use crate::board::{Move, Position, RankBase};
use crate::book::BookSet;
use crate::eval::nnue::Network;
use crate::options::Options;
use crate::protocol::{self, Command, Dialect, ParseContext, ReaderEvent};
use crate::search::{Iteration, SearchResult};
use crate::smp::{PoolEvent, WorkerPool};
use crate::time::TimeBudget;
use crate::tt::TranspositionTable;
use crossbeam_channel::Receiver;
use std::collections::VecDeque;
use std::io::Write;
use std::sync::Arc;
use std::time::Instant;

/// Commands that act at once even while a search runs; others wait for `bestmove`.
const IMMEDIATE: [&str; 6] = ["stop", "ponderhit", "isready", "probe", "quit", "bye"];
/// Commands that act at once while the table is being cleared (`isready` is then answered
/// when the clear is done); others wait for it.
const IMMEDIATE_WHILE_CLEARING: [&str; 3] = ["isready", "quit", "bye"];

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
    /// When the last iteration ended (or the search began): `currmove` after 3 s.
    iteration_start: Instant,
    /// The strength limit's choice, when a level below full strength plays.
    skill: Option<strength::SkillPlay>,
    /// The deepest iteration the search may run (UCCI `debug` announces each one).
    max_depth: u32,
    /// The last `currmove` shown (UCCI `debug` shows each new one).
    last_currmove: Option<(Move, u32, u32)>,
    /// `nodestime`: the clock counts nodes, this many per millisecond.
    nodes_per_ms: Option<u64>,
    /// `nodestime` on the engine's clock: the increment in nodes, added to the nodes left when
    /// the search ends.
    nodes_increment: Option<u64>,
    /// `nodestime`: the nodes counted against the clock when the soft limit ended the search
    /// (the workers' last nodes before they see the stop are not).
    counted_nodes: Option<u64>,
}

impl Active {
    /// The time spent on the clock: milliseconds, or with `nodestime` nodes at its rate.
    fn used_ms(&self, nodes: u64) -> u64 {
        match self.nodes_per_ms {
            Some(n) => nodes / n,
            None => self.clock_start.elapsed().as_millis() as u64,
        }
    }
}

/// A line waiting for the search or the clear in progress.
struct Waiting {
    line: String,
    /// For a CECP `?`: the search it has moved already. A `?` keeps its place behind the lines
    /// that came before it, and moves every search in progress until they have all run.
    moved: Option<u64>,
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
    queue: VecDeque<Waiting>,
    next_id: u64,
    quitting: bool,
    /// `quit` arrived during a search whose answer is still to come.
    quit_pending: bool,
    books: BookSet,
    rng: u64,
    /// The loaded network (the embedded one unless `EvalFile` named another).
    network: Option<Arc<Network>>,
    /// The endgame tables of `EGTBPath`, when it names any.
    tablebases: Option<Arc<crate::egtb::Tablebases>>,
    /// The workers are clearing the table (the id given to the pool).
    clearing: Option<u64>,
    /// `isready` arrived during a clear: answer when it is done.
    ready_pending: bool,
    /// False after a rejected `position` (UCCI/UCI), until a valid one: `go` must not search
    /// the previous position, which the GUI no longer shows.
    position_valid: bool,
    /// The CECP connection's game (unused in the other dialects).
    cecp: cecp::CecpState,
    /// The CECP line being handled, for its `Error (...): LINE` replies.
    current_line: String,
    /// The `Debug Log File`, when one is open.
    debug_log: Option<debug_log::DebugLog>,
    /// `nodestime`: the nodes left on the engine's own clock, counted through the game (as
    /// Stockfish does); `None` until the first search on a clock, and after a new game.
    available_nodes: Option<u64>,
    /// What the GUI's clock charges each move beyond the engine's thinking (`clock_lag.rs`).
    clock_lag: clock_lag::ClockLag,
}

impl<W: Write> Coordinator<W> {
    /// A coordinator writing to `out`, with default options.
    pub fn new(out: W) -> Result<Coordinator<W>, String> {
        let options = Options::new();
        let tt = Arc::new(
            TranspositionTable::new(options.hash_mib)
                .map_err(|e| format!("cannot allocate {} MiB of hash: {e}", options.hash_mib))?,
        );
        if let crate::tt::LargePages::Unavailable(why) = tt.large_pages() {
            // Before the handshake there is no dialect to speak in: stderr.
            eprintln!("info string large pages not available: {why}");
        }
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
            network: crate::eval::nnue::embedded(),
            tablebases: None,
            clearing: None,
            ready_pending: false,
            // Book choices vary from game to game; nothing else depends on this seed.
            rng: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0x9E37_79B9_7F4A_7C15, |d| d.as_nanos() as u64)
                | 1,
            position_valid: true,
            cecp: cecp::CecpState::default(),
            current_line: String::new(),
            debug_log: None,
            available_nodes: None,
            clock_lag: clock_lag::ClockLag::default(),
        })
    }

    pub(super) fn line(&mut self, text: &str) {
        // Logged first, so that the log holds every line the GUI has seen.
        if let Some(log) = self.debug_log.as_mut() {
            log.output(text);
        }
        // A closed output means the GUI is gone; there is nobody left to tell.
        let _ = writeln!(self.out, "{text}");
        let _ = self.out.flush();
    }

    pub(super) fn error(&mut self, msg: &str) {
        if self.dialect == Some(Dialect::Cecp) {
            self.cecp_error(msg);
        } else {
            self.line(&format!("info string error: {msg}"));
        }
    }

    pub(super) fn rank_base(&self) -> RankBase {
        if self.dialect == Some(Dialect::Uci) && self.options.rank_base_one {
            RankBase::One
        } else {
            RankBase::Zero
        }
    }

    pub(super) fn context(&self) -> ParseContext {
        ParseContext {
            dialect: self.dialect,
            rank_base: self.rank_base(),
            usemillisec: self.options.use_millisec,
        }
    }

    /// Handles one event of the input: a line, an unreadable line, or the end of input.
    pub fn on_input(&mut self, ev: ReaderEvent) {
        match ev {
            ReaderEvent::Line(line) => {
                if let Some(log) = self.debug_log.as_mut() {
                    log.input(&line);
                }
                if self.ucci_debug() {
                    // ElephantEye's echo: what was read, and whether a search was running.
                    let state = if self.active.is_some() {
                        "busy"
                    } else {
                        "idle"
                    };
                    self.line(&format!("info {state}line {line}"));
                }
                self.on_line(line)
            }
            ReaderEvent::Error(msg) => self.error(&msg),
            ReaderEvent::Eof => self.quit(),
        }
    }

    /// True when UCCI's `debug` is on: the echo of each command, `info depth N` at each
    /// iteration's start and `currmove` with every progress line.
    pub(super) fn ucci_debug(&self) -> bool {
        self.options.debug && self.dialect == Some(Dialect::Ucci)
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

    /// True when `line` has to wait for the search or the clear in progress.
    fn must_wait(&self, line: &str) -> bool {
        let word = line
            .split_whitespace()
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        let immediate = match self.dialect {
            Some(Dialect::Cecp) => self.cecp_immediate(line),
            _ => IMMEDIATE.contains(&word.as_str()),
        };
        (self.active.is_some() && !immediate)
            || (self.clearing.is_some() && !IMMEDIATE_WHILE_CLEARING.contains(&word.as_str()))
    }

    fn on_line(&mut self, line: String) {
        if self.must_wait(&line) {
            self.queue.push_back(Waiting { line, moved: None });
            return;
        }
        // CECP's `?` moves now in the search in progress, and in any that the lines waiting
        // before it start (a user move that gives the engine its turn): it keeps its place
        // behind them too (`drain_queue`).
        if self.dialect == Some(Dialect::Cecp)
            && !self.queue.is_empty()
            && Self::cecp_is_move_now(&line)
        {
            let moved = self.active.as_ref().map(|a| a.id);
            self.queue.push_back(Waiting {
                line: line.clone(),
                moved,
            });
        }
        self.execute(&line);
        // A CECP command may end the engine's search without a move: what waited runs now.
        if self.active.is_none() && !self.queue.is_empty() {
            self.drain_queue();
        }
    }

    /// Runs queued commands in order until one has to wait (a search or a clear started
    /// before it); a queued `stop` behind a `go` thus still stops that search. In CECP a
    /// command that acts at once during the engine's move (`force`, `new`, `quit`) does not
    /// wait behind one that waits, just as when it arrives during the move; a `?` moves the
    /// search in progress from wherever it waits, but leaves the queue only in its turn.
    pub(super) fn drain_queue(&mut self) {
        while !self.is_quitting() {
            if self.dialect == Some(Dialect::Cecp) && self.move_now_from_the_queue() {
                continue;
            }
            let cecp = self.dialect == Some(Dialect::Cecp);
            let next = if cecp {
                self.queue.iter().enumerate().position(|(i, w)| {
                    (i == 0 || !Self::cecp_is_move_now(&w.line)) && !self.must_wait(&w.line)
                })
            } else {
                self.queue
                    .front()
                    .filter(|w| !self.must_wait(&w.line))
                    .map(|_| 0)
            };
            let Some(waiting) = next.and_then(|at| self.queue.remove(at)) else {
                break;
            };
            self.execute(&waiting.line);
        }
        if self.dialect == Some(Dialect::Cecp) && self.active.is_none() {
            self.cecp_idle();
        }
    }

    /// A CECP `?` waiting behind other lines moves the search in progress (once per search).
    /// True when one did.
    fn move_now_from_the_queue(&mut self) -> bool {
        let Some(id) = self.active.as_ref().map(|a| a.id) else {
            return false;
        };
        let found = self.queue.iter().position(|w| {
            w.moved != Some(id) && Self::cecp_is_move_now(&w.line) && !self.must_wait(&w.line)
        });
        let Some(at) = found else {
            return false;
        };
        self.queue[at].moved = Some(id);
        let line = self.queue[at].line.clone();
        self.execute(&line);
        true
    }

    fn execute(&mut self, line: &str) {
        if self.dialect == Some(Dialect::Cecp) {
            self.cecp_execute(line);
            return;
        }
        let cmd = match protocol::parse_command(line, &self.context()) {
            Ok(Some(cmd)) => cmd,
            Ok(None) => return,
            Err(e) => {
                if line.split_whitespace().next() == Some("position") {
                    self.position_valid = false;
                }
                self.error(&e.to_string());
                return;
            }
        };
        let handshake = matches!(
            cmd,
            Command::Ucci | Command::Uci | Command::Xboard | Command::Quit
        );
        if self.dialect.is_none() && !handshake {
            self.error("expected 'ucci', 'uci' or 'xboard' first");
            return;
        }
        match cmd {
            Command::Ucci => self.handshake(Dialect::Ucci),
            Command::Uci => self.handshake(Dialect::Uci),
            Command::IsReady if self.clearing.is_some() => self.ready_pending = true,
            Command::Xboard => self.handshake(Dialect::Cecp),
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
            Command::Display => self.display(),
            Command::Eval => self.print_eval(),
            Command::Perft(depth) => self.perft(depth),
            Command::Flip => self.flip(),
            Command::Bench => self.bench(),
            Command::Compiler => self.compiler(),
            Command::ExportNet(file) => self.export_net(file.as_deref()),
        }
    }

    fn handshake(&mut self, dialect: Dialect) {
        if let Some(spoken) = self.dialect.filter(|&d| d != dialect) {
            // The first handshake decides: a GUI that switched mid-session would no longer
            // understand the answers (and CECP keeps state the others do not).
            let name = |d: Dialect| match d {
                Dialect::Ucci => "ucci",
                Dialect::Uci => "uci",
                Dialect::Cecp => "xboard",
            };
            self.error(&format!(
                "this session speaks {}; '{}' ignored",
                name(spoken),
                name(dialect)
            ));
            return;
        }
        self.dialect = Some(dialect);
        let version = env!("CARGO_PKG_VERSION");
        match dialect {
            Dialect::Ucci => {
                self.line(&format!("id name Pao {version}"));
                self.line("id copyright 2026 the Pao authors");
                self.line("id author the Pao authors");
                let strength = self.options.strength.ucci_lines();
                for l in self.options.ucci_lines().into_iter().chain(strength) {
                    self.line(&l);
                }
                self.line("ucciok");
            }
            Dialect::Uci => {
                self.line(&format!("id name Pao {version}"));
                self.line("id author the Pao authors");
                let strength = self.options.strength.uci_lines();
                for l in self.options.uci_lines().into_iter().chain(strength) {
                    self.line(&l);
                }
                self.line("uciok");
            }
            // `protover 2` comes next and is answered with the feature lines.
            Dialect::Cecp => {}
        }
    }

    fn set_position(&mut self, fen: &str, moves: &[Move]) {
        // The parser already proved the FEN and every move; a failure here is still reported.
        match Position::from_fen(fen) {
            Ok(mut pos) => {
                for &m in moves {
                    if !pos.is_legal(m) {
                        self.position_valid = false;
                        self.error(&format!("illegal move '{m}'"));
                        return;
                    }
                    pos.make_move(m);
                }
                self.position = pos;
                self.position_valid = true;
                self.banned.clear();
            }
            Err(e) => {
                self.position_valid = false;
                self.error(&format!("bad FEN: {e}"));
            }
        }
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
}
