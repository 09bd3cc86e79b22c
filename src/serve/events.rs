//! The JSON of the API: every event of the WebSocket stream and the state a late watcher gets
//! first. docs/serve.md shows each one; the field names here are the contract.

use serde::Serialize;

/// A score as the page shows it, from the side to move's point of view.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Score {
    /// `cp` (centipawns), `mate` (moves to mate; negative when mated) or `rule` (plies to a
    /// win by the repetition rules; negative for a loss).
    pub kind: &'static str,
    /// The number the kind measures.
    pub value: i32,
}

/// The board the engine works on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PositionView {
    /// The FEN the moves start from.
    pub fen: String,
    /// The moves played from `fen`, in ICCS coordinates.
    pub moves: Vec<String>,
    /// The FEN after the moves.
    pub current: String,
    /// `red` or `black`: who is to move.
    pub side: &'static str,
    /// The side to move is in check.
    pub in_check: bool,
    /// Every legal move, in ICCS coordinates.
    pub legal: Vec<String>,
    /// `ongoing`, or how the rules end the game here (`black wins (checkmate)`, ...).
    pub result: String,
}

/// The options the web may set.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OptionsView {
    /// Search threads.
    pub threads: usize,
    /// Transposition table, MiB.
    pub hash: usize,
    /// Lines per iteration.
    pub multipv: usize,
    /// Win/draw/loss expectations in the lines.
    pub wdl: bool,
    /// Most threads the server allows.
    pub max_threads: usize,
    /// Largest table the server allows, MiB.
    pub max_hash: usize,
}

/// A search began (`started`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Started {
    /// The search's number, carried by its `info`, `progress`, `currmove` and `bestmove`.
    pub search: u64,
    /// `analysis` or `game`.
    pub kind: &'static str,
    /// The position searched.
    pub fen: String,
}

/// One line of a completed iteration (`info`): the search's number, then the line's fields.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Info {
    /// The search.
    pub search: u64,
    /// What the engine's line says.
    #[serde(flatten)]
    pub fields: InfoFields,
}

/// The fields of an iteration's line, as the engine wrote them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct InfoFields {
    /// Iteration depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// The line's rank, from 1.
    pub multipv: u32,
    /// The line's score.
    pub score: Score,
    /// Per-mille win, draw, loss when the `wdl` option is on.
    pub wdl: Option<[u32; 3]>,
    /// Milliseconds since the search began.
    pub time: u64,
    /// Nodes, all threads.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Table use, per mille.
    pub hashfull: u32,
    /// Endgame-table probes, when tables are in use.
    pub tbhits: Option<u64>,
    /// The line, in ICCS coordinates.
    pub pv: Vec<String>,
}

impl Default for InfoFields {
    /// A line before any of its fields is read: depth 0, the first line, a score of 0 cp.
    fn default() -> InfoFields {
        InfoFields {
            depth: 0,
            seldepth: 0,
            multipv: 1,
            score: Score {
                kind: "cp",
                value: 0,
            },
            wdl: None,
            time: 0,
            nodes: 0,
            nps: 0,
            hashfull: 0,
            tbhits: None,
            pv: Vec::new(),
        }
    }
}

/// The once-a-second figures of a search (`progress`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Progress {
    /// The search.
    pub search: u64,
    /// Milliseconds since the search began.
    pub time: u64,
    /// Nodes, all threads.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Table use, per mille.
    pub hashfull: u32,
}

/// The root move a long iteration is on (`currmove`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CurrMove {
    /// The search.
    pub search: u64,
    /// Iteration depth.
    pub depth: u32,
    /// The move.
    pub r#move: String,
    /// Its number in the root's order, from 1.
    pub number: u32,
}

/// A search ended (`bestmove`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BestMove {
    /// The search.
    pub search: u64,
    /// `analysis` or `game`.
    pub kind: &'static str,
    /// The move, or null when the position has none.
    pub r#move: Option<String>,
    /// The expected reply.
    pub ponder: Option<String>,
    /// Milliseconds the search took.
    pub time: u64,
    /// Nodes, all threads.
    pub nodes: u64,
    /// Nodes per second over the whole search.
    pub nps: u64,
}

/// A game against the engine (`game`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameView {
    /// `red` or `black`: the side the person plays.
    pub human: &'static str,
    /// Starting time per side, ms.
    pub base_ms: u64,
    /// Increment per move, ms.
    pub inc_ms: u64,
    /// Red's clock, ms, when this event was sent.
    pub red_ms: u64,
    /// Black's clock, ms, when this event was sent.
    pub black_ms: u64,
    /// `red` or `black`: whose clock runs; null once the game is over.
    pub running: Option<&'static str>,
    /// `ongoing`, or how the game ended (`red wins (time)`, `black wins (resignation)`, ...).
    pub result: String,
    /// The engine's `Skill Level`, 0..=20 (20: full strength).
    pub level: u8,
}

/// Figures of the server itself.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ServerView {
    /// Watchers connected now.
    pub watchers: usize,
    /// Watchers dropped for falling behind since the start.
    pub dropped: u64,
}

/// Everything a late watcher needs to show what the others see (`state`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct State {
    /// The board.
    pub position: PositionView,
    /// The options.
    pub options: OptionsView,
    /// The search running or last run, if any.
    pub search: Option<Started>,
    /// True while `search` runs.
    pub searching: bool,
    /// The last line of each rank of the current search.
    pub lines: Vec<Info>,
    /// The last `progress` of the current search.
    pub progress: Option<Progress>,
    /// Depth and score of the first line at each iteration of the current search (the chart),
    /// the most recent 1000.
    pub history: Vec<HistoryPoint>,
    /// How the last search ended.
    pub bestmove: Option<BestMove>,
    /// The game, if one was played since the start.
    pub game: Option<GameView>,
    /// The server's figures.
    pub server: ServerView,
}

/// One point of the chart.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HistoryPoint {
    /// Milliseconds since the search began.
    pub time: u64,
    /// Iteration depth.
    pub depth: u32,
    /// Score of the first line.
    pub score: Score,
}

/// An event of the stream. Each goes out as one JSON object with `seq` and `type` first.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// The board changed.
    Position(PositionView),
    /// The options changed.
    Options(OptionsView),
    /// A search began.
    Started(Started),
    /// An iteration's line.
    Info(Info),
    /// Once-a-second figures.
    Progress(Progress),
    /// The root move of a long iteration.
    CurrMove(CurrMove),
    /// A search ended.
    BestMove(BestMove),
    /// The game changed (a move, a clock, the end).
    Game(GameView),
    /// The engine refused something (one line).
    Error(String),
    /// A note from the engine (`info string ...`).
    Message(String),
}

#[derive(Serialize)]
struct Envelope<'a, T: Serialize> {
    seq: u64,
    r#type: &'static str,
    #[serde(flatten)]
    body: &'a T,
}

#[derive(Serialize)]
struct Text<'a> {
    message: &'a str,
}

fn envelope<T: Serialize>(seq: u64, kind: &'static str, body: &T) -> String {
    // Serializing these plain structs cannot fail; an empty object is a safe fallback.
    serde_json::to_string(&Envelope {
        seq,
        r#type: kind,
        body,
    })
    .unwrap_or_else(|_| "{}".to_string())
}

impl Event {
    /// The event as one JSON line with its sequence number.
    pub fn to_json(&self, seq: u64) -> String {
        match self {
            Event::Position(p) => envelope(seq, "position", p),
            Event::Options(o) => envelope(seq, "options", o),
            Event::Started(s) => envelope(seq, "started", s),
            Event::Info(i) => envelope(seq, "info", i),
            Event::Progress(p) => envelope(seq, "progress", p),
            Event::CurrMove(c) => envelope(seq, "currmove", c),
            Event::BestMove(b) => envelope(seq, "bestmove", b),
            Event::Game(g) => envelope(seq, "game", g),
            Event::Error(m) => envelope(seq, "error", &Text { message: m }),
            Event::Message(m) => envelope(seq, "message", &Text { message: m }),
        }
    }
}

impl State {
    /// The state as the first message of a watcher (`type` `state`, `seq` the last event it
    /// includes).
    pub fn to_json(&self, seq: u64) -> String {
        envelope(seq, "state", self)
    }
}
