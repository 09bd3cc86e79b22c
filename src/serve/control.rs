//! The one analysis everybody watches: the board, whether it is analysed, the options the web
//! may set, and a game against the engine. Every request is checked here, before anything
//! reaches the engine, so that a refused request changes nothing.

use super::engine::Engine;
use super::events::{Event, OptionsView, PositionView};
use super::game::{side_name, Game, MAX_BASE_MS, MAX_INC_MS};
use super::hub::{Finished, Hub, SearchKind};
use crate::board::rules::{game_result, GameResult};
use crate::board::{Color, Move, Position, RankBase, START_FEN};
use crate::skill::FULL_LEVEL;
use std::sync::Arc;

/// Most moves a position may carry.
pub const MAX_MOVES: usize = 1000;

/// Why a request was refused: one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The request is wrong (400).
    Bad(String),
    /// The request does not fit what is going on (409).
    Conflict(String),
    /// The engine refused it (500).
    Engine(String),
}

/// Option changes asked by the web; `None` leaves an option as it is.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OptionChanges {
    /// Search threads.
    pub threads: Option<usize>,
    /// Table size, MiB.
    pub hash: Option<usize>,
    /// Lines per iteration.
    pub multipv: Option<usize>,
    /// Win/draw/loss in the lines.
    pub wdl: Option<bool>,
}

/// The analysis everybody watches, and the game.
pub struct Control {
    engine: Engine,
    hub: Arc<Hub>,
    fen: String,
    moves: Vec<Move>,
    current: Position,
    /// The running analysis, if any.
    analysis: Option<u64>,
    game: Option<Game>,
    options: OptionsView,
}

/// The position after `moves` from `fen`, checked: a bad FEN or an illegal move is refused
/// with its place named.
fn replay(fen: &str, moves: &[String]) -> Result<(Position, Vec<Move>), Refusal> {
    if moves.len() > MAX_MOVES {
        return Err(Refusal::Bad(format!("more than {MAX_MOVES} moves")));
    }
    let mut pos = Position::from_fen(fen).map_err(|e| Refusal::Bad(format!("bad FEN: {e}")))?;
    let mut played = Vec::with_capacity(moves.len());
    for (i, text) in moves.iter().enumerate() {
        let m = pos
            .parse_legal_move(text, RankBase::Zero)
            .map_err(|e| Refusal::Bad(format!("move {}: {e}", i + 1)))?;
        pos.make_move(m);
        played.push(m);
    }
    Ok((pos, played))
}

fn result_text(pos: &mut Position) -> String {
    match game_result(pos) {
        GameResult::Ongoing => "ongoing".to_string(),
        r => r.to_string(),
    }
}

impl Control {
    /// The start position, not analysed, with `options` already set in the engine.
    pub fn new(engine: Engine, hub: Arc<Hub>, options: OptionsView) -> Control {
        let s = Control {
            engine,
            hub,
            fen: START_FEN.to_string(),
            moves: Vec::new(),
            current: Position::startpos(),
            analysis: None,
            game: None,
            options,
        };
        s.engine.lock().send(&s.position_line());
        s
    }

    /// The board as the stream shows it.
    pub fn position_view(&mut self) -> PositionView {
        position_view(&self.fen, &self.moves, &mut self.current)
    }

    fn position_line(&self) -> String {
        let mut line = format!("position fen {}", self.fen);
        if !self.moves.is_empty() {
            line.push_str(" moves");
            for m in &self.moves {
                line.push(' ');
                line.push_str(&m.to_string());
            }
        }
        line
    }

    fn game_running(&self) -> bool {
        self.game.as_ref().is_some_and(Game::ongoing)
    }

    fn refuse_during_game(&self, what: &str) -> Result<(), Refusal> {
        if self.game_running() {
            return Err(Refusal::Conflict(format!(
                "{what} is not possible during a game (resign it first)"
            )));
        }
        Ok(())
    }

    /// Sends the board to the engine and the stream; a running analysis goes on from the
    /// new board.
    fn board_changed(&mut self) {
        let view = self.position_view();
        self.hub.publish(Event::Position(view));
        let analysing = self.analysis.is_some();
        let line = self.position_line();
        let fen = self.current.to_fen();
        let mut engine = self.engine.lock();
        if analysing {
            engine.send("stop");
        }
        engine.send(&line);
        if analysing {
            self.analysis = Some(engine.go(SearchKind::Analysis, fen, "go infinite", FULL_LEVEL));
        }
    }

    /// Sets the board: `fen` (default: the start position) and moves from it.
    pub fn set_position(
        &mut self,
        fen: Option<&str>,
        moves: &[String],
    ) -> Result<PositionView, Refusal> {
        self.refuse_during_game("setting the position")?;
        let fen = fen.unwrap_or(START_FEN).trim();
        let (pos, played) = replay(fen, moves)?;
        // The FEN as the engine writes it, so that equal boards read the same.
        self.fen = Position::from_fen(fen)
            .map(|p| p.to_fen())
            .unwrap_or_else(|_| fen.to_string());
        self.moves = played;
        self.current = pos;
        self.board_changed();
        Ok(self.position_view())
    }

    /// Plays one move: on the board when analysing, or the person's move in a game.
    pub fn play(&mut self, text: &str) -> Result<PositionView, Refusal> {
        let m = self
            .current
            .parse_legal_move(text.trim(), RankBase::Zero)
            .map_err(|e| Refusal::Bad(e.to_string()))?;
        let side = self.current.side_to_move();
        if let Some(game) = self.game.as_mut().filter(|g| g.ongoing()) {
            if side != game.human {
                return Err(Refusal::Conflict("it is the engine's turn".to_string()));
            }
            if !game.charge(side) {
                let view = game.view(side);
                self.hub.publish(Event::Game(view));
                return Err(Refusal::Conflict("your time ran out".to_string()));
            }
        } else if self.moves.len() >= MAX_MOVES {
            return Err(Refusal::Bad(format!("more than {MAX_MOVES} moves")));
        }
        self.current.make_move(m);
        self.moves.push(m);
        if self.game_running() {
            self.game_moved();
        } else {
            self.board_changed();
        }
        Ok(self.position_view())
    }

    /// Takes back the last move.
    pub fn undo(&mut self) -> Result<PositionView, Refusal> {
        self.refuse_during_game("taking a move back")?;
        if self.moves.pop().is_none() {
            return Err(Refusal::Conflict("no move to take back".to_string()));
        }
        self.current.unmake_move();
        self.board_changed();
        Ok(self.position_view())
    }

    /// Starts analysing the board until stopped; returns the search's number.
    pub fn start_analysis(&mut self) -> Result<u64, Refusal> {
        self.refuse_during_game("analysis")?;
        if let Some(id) = self.analysis {
            return Ok(id);
        }
        let fen = self.current.to_fen();
        let id = self
            .engine
            .lock()
            .go(SearchKind::Analysis, fen, "go infinite", FULL_LEVEL);
        self.analysis = Some(id);
        Ok(id)
    }

    /// Stops the search: the analysis ends; in a game the engine moves now.
    pub fn stop(&mut self) {
        self.analysis = None;
        self.engine.lock().send("stop");
    }

    /// Clears the table and the search's memory (a new game for the engine).
    pub fn clear_hash(&mut self) -> Result<(), Refusal> {
        self.refuse_during_game("clearing the table")?;
        let analysing = self.analysis.is_some();
        let fen = self.current.to_fen();
        let mut engine = self.engine.lock();
        if analysing {
            engine.send("stop");
        }
        engine.send("ucinewgame");
        if analysing {
            self.analysis = Some(engine.go(SearchKind::Analysis, fen, "go infinite", FULL_LEVEL));
        }
        Ok(())
    }

    /// Sets options, all or none: every value is checked before the engine sees any.
    pub fn set_options(&mut self, c: &OptionChanges) -> Result<OptionsView, Refusal> {
        self.refuse_during_game("changing options")?;
        let o = &self.options;
        let mut next = o.clone();
        let check = |name: &str, v: usize, max: usize| {
            if (1..=max).contains(&v) {
                Ok(v)
            } else {
                Err(Refusal::Bad(format!("{name} must be in 1..{max}, not {v}")))
            }
        };
        if let Some(v) = c.threads {
            next.threads = check("threads", v, o.max_threads)?;
        }
        if let Some(v) = c.hash {
            next.hash = check("hash", v, o.max_hash)?;
        }
        if let Some(v) = c.multipv {
            next.multipv = check("multipv", v, crate::options::MAX_MULTIPV)?;
        }
        if let Some(v) = c.wdl {
            next.wdl = v;
        }
        let mut lines = Vec::new();
        if next.threads != o.threads {
            lines.push(format!("setoption name Threads value {}", next.threads));
        }
        if next.hash != o.hash {
            lines.push(format!("setoption name Hash value {}", next.hash));
        }
        if next.multipv != o.multipv {
            lines.push(format!("setoption name MultiPV value {}", next.multipv));
        }
        if next.wdl != o.wdl {
            lines.push(format!("setoption name UCI_ShowWDL value {}", next.wdl));
        }
        if lines.is_empty() {
            return Ok(next);
        }
        let analysing = self.analysis.is_some();
        let fen = self.current.to_fen();
        let mut errors = Vec::new();
        {
            let mut engine = self.engine.lock();
            if analysing {
                engine.send("stop");
            }
            for l in &lines {
                errors.extend(engine.send(l));
            }
            if analysing {
                self.analysis =
                    Some(engine.go(SearchKind::Analysis, fen, "go infinite", FULL_LEVEL));
            }
        }
        if let Some(e) = errors.first() {
            // The hash that could not be allocated stays as it was (the engine says so).
            if e.starts_with("cannot allocate") {
                next.hash = o.hash;
            }
            self.options = next.clone();
            self.hub.publish(Event::Options(next));
            return Err(Refusal::Engine(e.clone()));
        }
        self.options = next.clone();
        self.hub.publish(Event::Options(next.clone()));
        Ok(next)
    }

    /// Starts a game from the board: the person plays `human`, each side has `base_ms` and
    /// `inc_ms` per move, and the engine plays at `level` (its `Skill Level`).
    pub fn start_game(
        &mut self,
        human: Color,
        base_ms: u64,
        inc_ms: u64,
        level: u8,
    ) -> Result<(), Refusal> {
        self.refuse_during_game("a new game")?;
        if level > FULL_LEVEL {
            return Err(Refusal::Bad(format!(
                "level must be in 0..{FULL_LEVEL}, not {level}"
            )));
        }
        if !(1000..=MAX_BASE_MS).contains(&base_ms) {
            return Err(Refusal::Bad(format!(
                "base_ms must be in 1000..{MAX_BASE_MS}, not {base_ms}"
            )));
        }
        if inc_ms > MAX_INC_MS {
            return Err(Refusal::Bad(format!(
                "inc_ms must be at most {MAX_INC_MS}, not {inc_ms}"
            )));
        }
        let result = result_text(&mut self.current);
        if result != "ongoing" {
            return Err(Refusal::Conflict(format!(
                "the game is over here: {result}"
            )));
        }
        if self.analysis.take().is_some() {
            self.engine.lock().send("stop");
        }
        self.game = Some(Game::new(human, base_ms, inc_ms, level));
        self.publish_game();
        if self.current.side_to_move() != human {
            self.engine_to_move();
        }
        Ok(())
    }

    /// The person gives up the game.
    pub fn resign(&mut self) -> Result<(), Refusal> {
        let side = self.current.side_to_move();
        let Some(game) = self.game.as_mut().filter(|g| g.ongoing()) else {
            return Err(Refusal::Conflict("no game is being played".to_string()));
        };
        game.result = Some(format!(
            "{} wins (resignation)",
            side_name(game.human.flip())
        ));
        let thinking = game.search.take().is_some();
        let view = game.view(side);
        if thinking {
            self.engine.lock().send("stop");
        }
        self.hub.publish(Event::Game(view));
        Ok(())
    }

    fn publish_game(&mut self) {
        if let Some(g) = &self.game {
            self.hub
                .publish(Event::Game(g.view(self.current.side_to_move())));
        }
    }

    /// A move was made in the game: the board goes out, the rules may end the game, else the
    /// engine or the person is to move.
    fn game_moved(&mut self) {
        let view = self.position_view();
        let over = view.result != "ongoing";
        self.hub.publish(Event::Position(view.clone()));
        self.engine.lock().send(&self.position_line());
        if let Some(g) = self.game.as_mut() {
            if over {
                g.result = Some(view.result);
            }
        }
        if !over
            && self.current.side_to_move() != self.game.as_ref().map_or(Color::Red, |g| g.human)
        {
            self.engine_to_move();
        } else {
            self.publish_game();
        }
    }

    fn engine_to_move(&mut self) {
        let to_move = self.current.side_to_move();
        let fen = self.current.to_fen();
        let Some(game) = self.game.as_mut() else {
            return;
        };
        let go = game.go_line(to_move);
        let view = game.view(to_move);
        let level = game.level;
        self.hub.publish(Event::Game(view));
        let id = self.engine.lock().go(SearchKind::Game, fen, &go, level);
        if let Some(game) = self.game.as_mut() {
            game.search = Some(id);
        }
    }

    /// A search ended: an analysis that stopped by itself (no legal move), or the engine's
    /// move in a game.
    pub fn on_finished(&mut self, f: &Finished) {
        if f.kind == SearchKind::Analysis && self.analysis == Some(f.search) {
            self.analysis = None;
            return;
        }
        let side = self.current.side_to_move();
        let Some(game) = self.game.as_mut() else {
            return;
        };
        if f.kind != SearchKind::Game || game.search != Some(f.search) || !game.ongoing() {
            return;
        }
        game.search = None;
        if !game.charge(side) {
            self.publish_game();
            return;
        }
        let mv =
            f.mv.as_deref()
                .and_then(|t| self.current.parse_legal_move(t, RankBase::Zero).ok());
        let Some(m) = mv else {
            // The engine answers a position with moves with one of them; this is a bug's mark.
            game.result = Some(format!("{} wins (no move)", side_name(side.flip())));
            self.publish_game();
            return;
        };
        self.current.make_move(m);
        self.moves.push(m);
        self.game_moved();
    }

    /// The clock's check: a person out of time loses.
    pub fn tick(&mut self) {
        let side = self.current.side_to_move();
        if let Some(g) = self.game.as_mut() {
            if g.human == side && g.flag(side) {
                self.publish_game();
            }
        }
    }

    /// The PGN of the board and the current lines.
    pub fn pgn(&mut self) -> String {
        let view = self.position_view();
        let lines = self.hub.lines_for(&view.current);
        let result = match view.result.as_str() {
            r if r.starts_with("red wins") => "1-0",
            r if r.starts_with("black wins") => "0-1",
            r if r.starts_with("draw") => "1/2-1/2",
            _ => "*",
        };
        super::pgn::format(&view.fen, &view.moves, &lines, result)
    }

    /// Quits the engine.
    pub fn shutdown(&mut self) {
        self.engine.shutdown();
    }
}

/// The board as the stream shows it.
pub fn position_view(fen: &str, moves: &[Move], current: &mut Position) -> PositionView {
    PositionView {
        fen: fen.to_string(),
        moves: moves.iter().map(Move::to_string).collect(),
        current: current.to_fen(),
        side: side_name(current.side_to_move()),
        in_check: current.in_check(),
        legal: current.legal_moves().iter().map(Move::to_string).collect(),
        result: result_text(current),
    }
}
