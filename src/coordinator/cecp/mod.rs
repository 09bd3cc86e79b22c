//! CECP (xboard protocol 2) games. Unlike UCCI and UCI, the engine keeps the game: the
//! position and its history, the side it plays (none in force mode), the clocks, pondering and
//! analysis. Moves are made on the coordinator's own position; searches run through the same
//! `go` as the other dialects, and their answer comes back through `cecp_bestmove`.
//!
//! While the engine thinks on its own move, the commands of `acts_on_move` act at once (`force`,
//! `new`, `result` and `quit` call the move off: no move is printed after them), a time control
//! (`level`, `st`, `sd`) is kept for after the move, a line that cannot be parsed is answered at
//! once, and the rest wait for the move (so `ping` is answered after it, as the protocol asks).
//! Nothing that waits holds up a command that acts at once behind it. A `?` that acts ahead of
//! waiting commands also keeps its place behind them, so that a search one of them starts (a
//! user move that gives the engine its turn) moves at once too, and a `ping` after the `?` is
//! not held up by it. While the engine ponders
//! or analyses, everything acts at once: a command that changes the game ends that search
//! first.

mod clock;
mod features;

use super::Coordinator;
use crate::board::rules::{game_result, GameResult, Reason};
use crate::board::{format_move, Color, Move, Position};
use crate::protocol::cecp::RANK_BASE;
use crate::protocol::{parse_cecp, CecpCommand, GoParams};
use clock::{CecpClock, Control};
use std::io::Write;
use std::time::Instant;

/// Whether `cmd` acts at once while the engine thinks on its own move (a time control is
/// kept for after the move, so it never waits).
fn acts_on_move(cmd: &CecpCommand) -> bool {
    use CecpCommand as C;
    matches!(
        cmd,
        C::MoveNow
            | C::Quit
            | C::Force
            | C::New
            | C::Result
            | C::Post
            | C::NoPost
            | C::Easy
            | C::Hard
            | C::Time(_)
            | C::Otim(_)
            | C::Ignored
            | C::Level { .. }
            | C::St(_)
            | C::Sd(_)
    )
}

/// What the search in progress is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Purpose {
    /// No search.
    Idle,
    /// The engine's move.
    Move,
    /// Thinking on the opponent's time, on the position after the expected reply (already
    /// made on the coordinator's position).
    Ponder(Move),
    /// Analyze mode.
    Analyze,
}

/// The state of a CECP connection.
#[derive(Debug)]
pub(in crate::coordinator) struct CecpState {
    /// The side the engine plays; `None` in force mode.
    engine: Option<Color>,
    analyzing: bool,
    post: bool,
    ponder: bool,
    clock: CecpClock,
    purpose: Purpose,
    /// When the engine's move search started (for its own clock).
    move_start: Instant,
    /// False after a rejected `setboard`, until `new` or a good `setboard`.
    board_valid: bool,
    /// The result was claimed or received: no more thinking until the game changes.
    game_over: bool,
    /// The move to ponder on, once the queue is drained after the engine's move.
    pending_ponder: Option<Move>,
}

impl Default for CecpState {
    fn default() -> Self {
        CecpState {
            engine: Some(Color::Black),
            analyzing: false,
            post: false,
            ponder: false,
            clock: CecpClock::default(),
            purpose: Purpose::Idle,
            move_start: Instant::now(),
            board_valid: true,
            game_over: false,
            pending_ponder: None,
        }
    }
}

impl<W: Write> Coordinator<W> {
    /// True when `line` acts at once during the search in progress. A line that does not
    /// parse is answered at once: its error line changes nothing.
    pub(super) fn cecp_immediate(&self, line: &str) -> bool {
        if self.cecp.purpose != Purpose::Move {
            return true;
        }
        match parse_cecp(line) {
            Ok(Some(cmd)) => acts_on_move(&cmd),
            Ok(None) | Err(_) => true,
        }
    }

    /// True for `?` (move now).
    pub(super) fn cecp_is_move_now(line: &str) -> bool {
        matches!(parse_cecp(line), Ok(Some(CecpCommand::MoveNow)))
    }

    /// Whether thinking lines are printed.
    pub(super) fn cecp_post(&self) -> bool {
        self.cecp.post
    }

    /// Runs one CECP line.
    pub(super) fn cecp_execute(&mut self, line: &str) {
        self.current_line = line.trim().to_string();
        let cmd = match parse_cecp(line) {
            Ok(Some(cmd)) => cmd,
            Ok(None) => return,
            Err(e) => {
                self.line(&e.to_string());
                return;
            }
        };
        match cmd {
            CecpCommand::Xboard | CecpCommand::Ignored => {}
            CecpCommand::Protover(_) => self.cecp_features(),
            CecpCommand::New => {
                self.cecp_abort();
                self.position = Position::startpos();
                self.cecp.engine = Some(Color::Black);
                self.cecp.clock.new_game();
                self.cecp.board_valid = true;
                self.cecp.game_over = false;
                self.new_game();
                self.cecp_resume_analysis();
            }
            CecpCommand::Variant(name) if name == "xiangqi" => {}
            CecpCommand::Variant(_) => self.cecp_error("only xiangqi is supported"),
            CecpCommand::SetBoard(fen) => self.cecp_setboard(&fen),
            CecpCommand::UserMove(m) => self.cecp_user_move(m),
            CecpCommand::Force => {
                self.cecp_abort();
                self.cecp.engine = None;
            }
            CecpCommand::Go => {
                self.cecp_abort();
                self.cecp.analyzing = false;
                self.cecp.engine = Some(self.position.side_to_move());
                self.cecp_think();
            }
            CecpCommand::PlayOther => {
                self.cecp_abort();
                self.cecp.engine = Some(self.position.side_to_move().flip());
            }
            CecpCommand::Level {
                moves,
                base_ms,
                inc_ms,
            } => self.cecp_control(Control::Level {
                moves,
                base_ms,
                inc_ms,
            }),
            CecpCommand::St(ms) => self.cecp_control(Control::MoveTime(ms)),
            CecpCommand::Sd(depth) => self.cecp_control(Control::Depth(depth)),
            CecpCommand::Time(cs) => self.cecp.clock.own_time(cs),
            CecpCommand::Otim(_) => {}
            CecpCommand::MoveNow => {
                if self.cecp.purpose == Purpose::Move {
                    self.stop();
                }
            }
            CecpCommand::Ping(n) => self.line(&format!("pong {n}")),
            CecpCommand::Result => {
                self.cecp_abort();
                self.cecp.game_over = true;
            }
            CecpCommand::Undo => self.cecp_take_back(1),
            CecpCommand::Remove => self.cecp_take_back(2),
            CecpCommand::Hard => self.cecp.ponder = true,
            CecpCommand::Easy => {
                self.cecp.ponder = false;
                if matches!(self.cecp.purpose, Purpose::Ponder(_)) {
                    self.cecp_abort();
                }
            }
            CecpCommand::Post => self.cecp.post = true,
            CecpCommand::NoPost => self.cecp.post = false,
            CecpCommand::Analyze => {
                self.cecp_abort();
                self.cecp.analyzing = true;
                self.cecp.engine = None;
                self.cecp_resume_analysis();
            }
            CecpCommand::Exit => {
                if self.cecp.analyzing {
                    self.cecp_abort();
                    self.cecp.analyzing = false;
                }
            }
            CecpCommand::Status => self.cecp_status(),
            CecpCommand::Memory(mib) => self.cecp_set_option("Hash", &mib.to_string()),
            CecpCommand::Cores(n) => self.cecp_set_option("Threads", &n.to_string()),
            CecpCommand::SetOption { name, value } => self.cecp_set_option(&name, &value),
            CecpCommand::Quit => {
                self.cecp_abort();
                self.quit();
            }
            CecpCommand::Perft(depth) => {
                self.cecp_stop_pondering();
                self.perft(depth);
            }
            CecpCommand::Bench => {
                self.cecp_stop_pondering();
                self.bench();
            }
            CecpCommand::Compiler => self.compiler(),
            CecpCommand::ExportNet(file) => self.export_net(file.as_deref()),
        }
    }

    /// False after a rejected `setboard`, until `new` or a good `setboard`.
    pub(super) fn cecp_board_valid(&self) -> bool {
        self.cecp.board_valid
    }

    /// A ponder search has the expected reply made on the board: `perft` and `bench` run on
    /// the game's own position, with the cores to themselves, so pondering ends first.
    fn cecp_stop_pondering(&mut self) {
        if matches!(self.cecp.purpose, Purpose::Ponder(_)) {
            self.cecp_abort();
        }
    }

    /// A time control: now, or after the engine's move when it is thinking on one.
    fn cecp_control(&mut self, control: Control) {
        if self.cecp.purpose == Purpose::Move {
            self.cecp.clock.defer(control);
        } else {
            self.cecp.clock.control(control);
        }
    }

    /// `Error (REASON): LINE` for the line being handled.
    pub(super) fn cecp_error(&mut self, reason: &str) {
        let line = format!("Error ({reason}): {}", self.current_line);
        self.line(&line);
    }

    fn cecp_setboard(&mut self, fen: &str) {
        self.cecp_abort();
        match Position::from_fen(fen) {
            Ok(pos) => {
                self.position = pos;
                self.cecp.board_valid = true;
                self.cecp.game_over = false;
                self.cecp_resume_analysis();
            }
            Err(e) => {
                // The protocol's advice: tell the user, then refuse moves until a new position.
                self.cecp.board_valid = false;
                self.line(&format!("tellusererror Illegal position: {e}"));
            }
        }
    }

    fn cecp_user_move(&mut self, m: Move) {
        if let Purpose::Ponder(expected) = self.cecp.purpose {
            if expected == m && self.active.is_some() {
                // The expected reply: the ponder search goes on as the engine's move.
                self.cecp.purpose = Purpose::Move;
                self.cecp.move_start = Instant::now();
                self.ponderhit(false);
                return;
            }
        }
        self.cecp_abort();
        let text = format_move(m, RANK_BASE);
        if !self.cecp.board_valid {
            self.line(&format!("Illegal move (no valid position): {text}"));
            return;
        }
        if !self.position.is_legal(m) {
            self.line(&format!("Illegal move: {text}"));
            return;
        }
        self.position.make_move(m);
        if self.cecp.analyzing {
            self.cecp_resume_analysis();
        } else if !self.cecp_claim_end() && self.cecp.engine == Some(self.position.side_to_move()) {
            self.cecp_think();
        }
    }

    /// Starts the engine's move search (or answers at once: the book, a rejected board).
    fn cecp_think(&mut self) {
        if !self.cecp.board_valid {
            self.cecp_error("no valid position, the last setboard was rejected");
            return;
        }
        if self.cecp.game_over || self.cecp_claim_end() {
            return;
        }
        let sixty_moves = GameResult::Draw {
            reason: Reason::SixtyMoveRule,
        };
        if game_result(&mut self.position) == sixty_moves {
            self.line("offer draw");
        }
        let params = self.cecp.clock.go_params(self.moves_made());
        self.cecp.purpose = Purpose::Move;
        self.cecp.move_start = Instant::now();
        self.go(params);
    }

    /// The engine's moves so far in this game: the full-move number counts both sides' moves.
    fn moves_made(&self) -> u32 {
        self.position.fullmove_number().saturating_sub(1)
    }

    /// The answer of a search (`bestmove` in the other dialects).
    pub(super) fn cecp_bestmove(&mut self, best: Option<Move>, ponder: Option<Move>) {
        let purpose = std::mem::replace(&mut self.cecp.purpose, Purpose::Idle);
        if let Purpose::Ponder(_) = purpose {
            // A ponder search that ended by itself: the ponder move stays made until the
            // reply comes (and is taken back if it is another move).
            self.cecp.purpose = purpose;
            return;
        }
        if purpose != Purpose::Move {
            // Analysis ends without a move.
            return;
        }
        let Some(best) = best else {
            self.cecp.clock.apply_deferred();
            self.cecp_claim_end();
            return;
        };
        self.line(&format!("move {}", format_move(best, RANK_BASE)));
        self.position.make_move(best);
        let used = self.cecp.move_start.elapsed().as_millis() as u64;
        let made = self.moves_made();
        self.cecp.clock.after_own_move(used, made);
        self.cecp.clock.apply_deferred();
        if self.cecp_claim_end() {
            return;
        }
        if self.cecp.ponder {
            self.cecp.pending_ponder = ponder.filter(|&p| self.position.is_legal(p));
        }
    }

    /// Once nothing waits in the queue: start pondering on the expected reply.
    pub(super) fn cecp_idle(&mut self) {
        let Some(expected) = self.cecp.pending_ponder.take() else {
            return;
        };
        if self.active.is_some() || !self.cecp.ponder || !self.position.is_legal(expected) {
            return;
        }
        self.position.make_move(expected);
        if game_result(&mut self.position) != GameResult::Ongoing {
            // The expected reply ends the game: nothing to ponder.
            self.position.unmake_move();
            return;
        }
        let params = GoParams {
            ponder: true,
            ..self.cecp.clock.go_params(self.moves_made())
        };
        self.cecp.purpose = Purpose::Ponder(expected);
        self.go(params);
    }

    /// Ends the search in progress without a move; a ponder move is taken back. Time controls
    /// kept for after the engine's move take effect now.
    fn cecp_abort(&mut self) {
        let purpose = std::mem::replace(&mut self.cecp.purpose, Purpose::Idle);
        self.cecp.pending_ponder = None;
        self.cecp.clock.apply_deferred();
        if self.active.take().is_some() {
            // The workers park by themselves; their late answer has an old id and is ignored.
            self.pool.stop();
        }
        if let Purpose::Ponder(_) = purpose {
            self.position.unmake_move();
        }
    }

    /// In analyze mode, analyses the current position until the game changes or `exit`.
    fn cecp_resume_analysis(&mut self) {
        if !self.cecp.analyzing || !self.cecp.board_valid || self.position.legal_moves().is_empty()
        {
            return;
        }
        self.cecp.purpose = Purpose::Analyze;
        self.go(GoParams {
            infinite: true,
            ..GoParams::default()
        });
    }

    fn cecp_take_back(&mut self, plies: usize) {
        self.cecp_abort();
        if self.position.history().len() < plies {
            self.cecp_error("command not legal now");
            return;
        }
        for _ in 0..plies {
            self.position.unmake_move();
        }
        self.cecp.game_over = false;
        self.cecp_resume_analysis();
    }

    /// When the game is over by the rules and the engine plays in it, claims the result once.
    /// True when the game is over.
    fn cecp_claim_end(&mut self) -> bool {
        let result = game_result(&mut self.position);
        let (code, text) = match result {
            // XBoard checks claims by its own rules, and its counter of reversible moves is
            // chess's (a soldier move resets it): a claim of xiangqi's sixty-move rule can be
            // called false there and forfeit the game. So this draw is offered before each
            // move (`cecp_think`), which XBoard grants when its rules agree, and play goes on.
            GameResult::Ongoing
            | GameResult::Draw {
                reason: Reason::SixtyMoveRule,
            } => return false,
            // XBoard accepts no win claim but a mate (any other is "False win claim" and
            // forfeits the claimer) and rules perpetuals itself when a position has come back
            // as often as its `-repeatsToDraw` says; the side that must vary does so in search.
            GameResult::Win {
                reason: Reason::PerpetualCheck | Reason::PerpetualChase,
                ..
            } => return false,
            GameResult::Win {
                winner: Color::Red,
                reason,
            } => ("1-0", format!("Red wins ({reason})")),
            GameResult::Win {
                winner: Color::Black,
                reason,
            } => ("0-1", format!("Black wins ({reason})")),
            GameResult::Draw { reason } => ("1/2-1/2", format!("Draw ({reason})")),
        };
        if !self.cecp.game_over && self.cecp.engine.is_some() && !self.cecp.analyzing {
            self.line(&format!("{code} {{{text}}}"));
        }
        self.cecp.game_over = true;
        true
    }

    /// `.` in analyze mode: `stat01: TIME NODES DEPTH MOVESLEFT MOVES`.
    fn cecp_status(&mut self) {
        let Some(a) = &self.active else { return };
        if self.cecp.purpose != Purpose::Analyze {
            return;
        }
        let cs = a.start.elapsed().as_millis() / 10;
        let depth = a.last_iteration.as_ref().map_or(0, |it| it.depth);
        let moves = self.position.legal_moves().len();
        let nodes = self.pool.nodes();
        self.line(&format!("stat01: {cs} {nodes} {depth} 0 {moves}"));
    }

    /// Options change the pool or the table: a ponder or analysis search ends first.
    fn cecp_set_option(&mut self, name: &str, value: &str) {
        let analysing = self.cecp.purpose == Purpose::Analyze;
        self.cecp_abort();
        self.set_option(name, value);
        if analysing {
            self.cecp_resume_analysis();
        }
    }
}
