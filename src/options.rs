//! Engine options: one table serves both dialects (UCCI name, UCI name), with ranges checked
//! at the edge so the coordinator only ever sees valid values.

use crate::protocol::{parse_bool, parse_range};
use crate::search::{Driver, RepetitionRule};
use crate::smp::{DEFAULT_STAGGER, DEFAULT_VOTE};

/// Largest accepted hash size in MiB (16 TiB); what the machine can give is checked on allocation.
pub const MAX_HASH_MIB: usize = 1 << 24;
/// Largest accepted thread count.
pub const MAX_THREADS: usize = 1024;

/// Current option values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Transposition table size in MiB.
    pub hash_mib: usize,
    /// Worker threads.
    pub threads: usize,
    /// Pin workers to cores.
    pub pin_threads: bool,
    /// Pondering allowed (only changes time allocation).
    pub ponder: bool,
    /// Use the opening book.
    pub use_book: bool,
    /// Book files, `;`-separated.
    pub book_files: String,
    /// UCCI times in milliseconds (else seconds).
    pub use_millisec: bool,
    /// Time kept back per move for I/O and GUI lag, in ms.
    pub move_overhead_ms: u64,
    /// Forward pruning: `none` turns every forward-pruning switch off
    /// (`SearchConfig::without_forward_pruning`).
    pub pruning: Level,
    /// Evaluation knowledge: `none` = material and piece-square tables only.
    pub knowledge: Level,
    /// Random noise added to root scores (none..huge).
    pub randomness: Level,
    /// Root driver: PVS, MTD(f), SSS* (MTD(+inf)) or B*.
    pub driver: Driver,
    /// How the search scores repetitions: the Asian rules, or every repetition a draw.
    pub repetition_rule: RepetitionRule,
    /// Lazy SMP depth stagger for helper threads (off: every thread runs the same iterations).
    pub stagger: bool,
    /// A timed search answers with a vote among the threads weighted by depth and score
    /// (true), or with the main thread's result (false).
    pub smp_vote: bool,
    /// Verbose info output.
    pub debug: bool,
    /// Offer and accept draws, resign lost games (`draw`/`resign` suffixes).
    pub draw_resign: bool,
    /// UCI ranks numbered 1-10 instead of 0-9.
    pub rank_base_one: bool,
    /// An explicit UCI_RankBase was set (overrides what UCI_Variant implies).
    pub rank_base_explicit: bool,
    /// Evaluate with the network (else the hand-written evaluation).
    pub use_nnue: bool,
    /// Net file to load; empty = the net embedded in the binary.
    pub eval_file: String,
    /// Directory of endgame tables; empty = none.
    pub egtb_path: String,
    /// Probe the endgame tables (UCCI `useegtb`).
    pub use_egtb: bool,
    /// Root lines per iteration (MultiPV).
    pub multipv: usize,
    /// UCI: add `wdl W D L` to the info lines.
    pub show_wdl: bool,
    /// The GUI is analysing (UCI_AnalyseMode): the book stays closed.
    pub analyse_mode: bool,
    /// Ask for large pages for the hash table.
    pub large_pages: bool,
    /// Search enhancements flipped from the engine's defaults (`SearchSwitches`, a developer
    /// option for A/B tests of one binary; see `SearchConfig::with_switches`).
    pub search_switches: String,
    /// The strength limit: `Skill Level`, `UCI_LimitStrength`, `UCI_Elo`, `Skill Seed`.
    pub strength: crate::skill::StrengthOptions,
    /// `nodestime`: the clock counts nodes, this many per millisecond (0: the wall clock).
    pub nodes_time: u64,
    /// `Debug Log File`: every input and output line is appended to this file (empty: none).
    pub debug_log_file: String,
}

/// Largest MultiPV.
pub const MAX_MULTIPV: usize = 128;

/// The four-step levels of UCCI's combo options.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Level {
    /// none
    None,
    /// tiny (randomness only)
    Tiny,
    /// small
    Small,
    /// medium
    Medium,
    /// large
    Large,
    /// huge (randomness only)
    Huge,
}

impl Level {
    fn parse(value: &str) -> Option<Level> {
        Some(match value.to_ascii_lowercase().as_str() {
            "none" => Level::None,
            "tiny" => Level::Tiny,
            "small" => Level::Small,
            "medium" => Level::Medium,
            "large" => Level::Large,
            "huge" => Level::Huge,
            _ => return None,
        })
    }

    /// The level's name, as the options spell it.
    pub fn name(self) -> &'static str {
        match self {
            Level::None => "none",
            Level::Tiny => "tiny",
            Level::Small => "small",
            Level::Medium => "medium",
            Level::Large => "large",
            Level::Huge => "huge",
        }
    }

    /// ElephantEye's mask of root noise for `randomness` (on its own scale).
    pub fn noise(self) -> i32 {
        match self {
            Level::None => 0,
            Level::Tiny => 1,
            Level::Small => 3,
            Level::Medium => 7,
            Level::Large => 15,
            Level::Huge => 31,
        }
    }
}

/// The levels of `randomness`, in order.
const RANDOMNESS_LEVELS: [Level; 6] = [
    Level::None,
    Level::Tiny,
    Level::Small,
    Level::Medium,
    Level::Large,
    Level::Huge,
];

/// Pao's centipawns per ElephantEye score point: EE's horse and cannon are worth about 100,
/// Pao's horse 400.
pub const RANDOMNESS_SCALE: i32 = 4;

impl Level {
    /// The largest root noise of `randomness`, in Pao's centipawns: ElephantEye's mask on
    /// Pao's scale, 0/4/12/28/60/124 for none..huge. Even `huge` stays under a third of a
    /// horse, so a move that wins or saves a piece is never passed over.
    pub fn noise_cp(self) -> i32 {
        self.noise() * RANDOMNESS_SCALE
    }
}

impl Options {
    /// Defaults: 64 MiB, one thread, not pinned, book on. One thread and no pinning are the
    /// field's defaults (Pikafish, Fairy-Stockfish): a tournament manager that starts two
    /// engines on one machine must not find them fighting over the same cores.
    pub fn new() -> Options {
        Options {
            hash_mib: 64,
            threads: 1,
            pin_threads: false,
            ponder: false,
            use_book: true,
            book_files: String::new(),
            use_millisec: true,
            move_overhead_ms: 30,
            pruning: Level::Large,
            knowledge: Level::Large,
            randomness: Level::None,
            driver: Driver::Pvs,
            repetition_rule: RepetitionRule::Asian,
            stagger: DEFAULT_STAGGER,
            smp_vote: DEFAULT_VOTE,
            debug: false,
            draw_resign: false,
            rank_base_one: false,
            rank_base_explicit: false,
            use_nnue: crate::eval::nnue::USE_BY_DEFAULT,
            eval_file: String::new(),
            egtb_path: String::new(),
            use_egtb: true,
            multipv: 1,
            show_wdl: false,
            analyse_mode: false,
            large_pages: true,
            search_switches: String::new(),
            strength: crate::skill::StrengthOptions::default(),
            nodes_time: 0,
            debug_log_file: String::new(),
        }
    }
}

impl Default for Options {
    fn default() -> Self {
        Options::new()
    }
}

/// What changing an option requires of the coordinator.
#[derive(Debug, PartialEq, Eq)]
pub enum Effect {
    /// Nothing beyond the new value.
    None,
    /// Reallocate the transposition table.
    Resize,
    /// Recreate the worker pool.
    Respawn,
    /// Clear the table and heuristics (new game).
    NewGame,
    /// Reload the opening book.
    Book,
    /// Load the net file (`eval_file`), or check that a net is there (`use_nnue`).
    Network,
    /// Open the endgame tables of `egtb_path`.
    Tablebases,
    /// Open (or close) the log of `debug_log_file`.
    DebugLog,
}

impl Options {
    /// Sets an option by its UCCI or UCI name (case-insensitive). Unknown names are an error
    /// only when `strict` (UCI); UCCI GUIs send options blindly, so they are ignored there.
    pub fn set(&mut self, name: &str, value: &str, strict: bool) -> Result<Effect, String> {
        let key: String = name
            .chars()
            .filter(|c| !c.is_whitespace() && *c != '_')
            .collect::<String>()
            .to_ascii_lowercase();
        let check = |v: &str| {
            parse_bool(v).ok_or_else(|| format!("option {name}: '{v}' is not true or false"))
        };
        let level = |v: &str| {
            Level::parse(v.trim()).ok_or_else(|| format!("option {name}: unknown level '{v}'"))
        };
        if let Some(set) = self.strength.set(&key, name, value) {
            return set.map(|()| Effect::None);
        }
        #[cfg(feature = "tune")]
        if let Some(set) = crate::search::params::set(&key, name, value) {
            return set.map(|()| Effect::None);
        }
        Ok(match key.as_str() {
            "hashsize" | "hash" => {
                self.hash_mib = parse_range(name, value, 1, MAX_HASH_MIB as u64)? as usize;
                Effect::Resize
            }
            "threads" => {
                self.threads = parse_range(name, value, 1, MAX_THREADS as u64)? as usize;
                Effect::Respawn
            }
            "pinthreads" => {
                self.pin_threads = check(value)?;
                Effect::Respawn
            }
            "ponder" => {
                self.ponder = check(value)?;
                Effect::None
            }
            "usebook" | "ownbook" => {
                self.use_book = check(value)?;
                Effect::Book
            }
            "bookfiles" | "bookfile" => {
                self.book_files = value.trim().to_string();
                Effect::Book
            }
            "usemillisec" => {
                self.use_millisec = check(value)?;
                Effect::None
            }
            "moveoverhead" => {
                self.move_overhead_ms = parse_range(name, value, 0, 10_000)?;
                Effect::None
            }
            "pruning" => {
                self.pruning = level(value)?;
                Effect::None
            }
            "knowledge" => {
                self.knowledge = level(value)?;
                Effect::None
            }
            "randomness" => {
                self.randomness = level(value)?;
                Effect::None
            }
            "searchdriver" => {
                self.driver = Driver::parse(value).ok_or_else(|| {
                    format!(
                        "option {name}: '{}' is not pvs, mtdf, sssstar or bstar",
                        value.trim()
                    )
                })?;
                Effect::None
            }
            "repetitionrule" => {
                self.repetition_rule = match value.trim().to_ascii_lowercase().as_str() {
                    "asian" => RepetitionRule::Asian,
                    "draw" => RepetitionRule::Draw,
                    v => return Err(format!("option {name}: '{v}' is not asian or draw")),
                };
                Effect::None
            }
            "smpstagger" => {
                self.stagger = check(value)?;
                Effect::None
            }
            "smpvote" => {
                self.smp_vote = check(value)?;
                Effect::None
            }
            "debug" => {
                self.debug = check(value)?;
                Effect::None
            }
            "drawresign" => {
                self.draw_resign = check(value)?;
                Effect::None
            }
            "usennue" => {
                self.use_nnue = check(value)?;
                Effect::Network
            }
            "evalfile" => {
                let v = value.trim();
                self.eval_file = if v == "<empty>" {
                    String::new()
                } else {
                    v.to_string()
                };
                Effect::Network
            }
            "egtbpath" | "egtbpaths" => {
                let v = value.trim();
                self.egtb_path = if v == "<empty>" {
                    String::new()
                } else {
                    v.to_string()
                };
                Effect::Tablebases
            }
            "useegtb" => {
                self.use_egtb = check(value)?;
                Effect::None
            }
            "newgame" | "clearhash" => Effect::NewGame,
            "ucivariant" => {
                if !value.trim().eq_ignore_ascii_case("xiangqi") {
                    return Err(format!(
                        "option {name}: only xiangqi is supported, not '{value}'"
                    ));
                }
                if !self.rank_base_explicit {
                    self.rank_base_one = true;
                }
                Effect::None
            }
            "ucirankbase" => {
                self.rank_base_one = parse_range(name, value, 0, 1)? == 1;
                self.rank_base_explicit = true;
                Effect::None
            }
            "multipv" => {
                self.multipv = parse_range(name, value, 1, MAX_MULTIPV as u64)? as usize;
                Effect::None
            }
            "ucishowwdl" => {
                self.show_wdl = check(value)?;
                Effect::None
            }
            "ucianalysemode" | "ucianalyzemode" => {
                self.analyse_mode = check(value)?;
                Effect::None
            }
            "largepages" => {
                self.large_pages = check(value)?;
                Effect::Resize
            }
            "searchswitches" => {
                // Checked here, so a bad list is refused whole and the old one stays.
                crate::search::SearchConfig::FULL.with_switches(value)?;
                self.search_switches = value.trim().to_string();
                Effect::None
            }
            "nodestime" => {
                self.nodes_time = parse_range(name, value, 0, 10_000)?;
                Effect::None
            }
            "debuglogfile" => {
                let v = value.trim();
                self.debug_log_file = if v == "<empty>" {
                    String::new()
                } else {
                    v.to_string()
                };
                Effect::DebugLog
            }
            // Accepted for compatibility with GUIs; Pao has no use for them.
            "batch" | "usehash" | "idle" | "promotion" | "style" => Effect::None,
            _ if strict => return Err(format!("unknown option '{name}'")),
            _ => Effect::None,
        })
    }

    /// The `option` lines of the UCCI handshake.
    pub fn ucci_lines(&self) -> Vec<String> {
        let levels = "var none var small var medium var large";
        let lines = vec![
            "option usemillisec type check default true".to_string(),
            "option batch type check default false".to_string(),
            "option debug type check default false".to_string(),
            "option ponder type check default false".to_string(),
            "option usebook type check default true".to_string(),
            "option bookfiles type string default <empty>".to_string(),
            format!("option hashsize type spin min 1 max {MAX_HASH_MIB} default 64"),
            format!(
                "option threads type spin min 1 max {MAX_THREADS} default {}",
                Options::new().threads
            ),
            format!(
                "option pinthreads type check default {}",
                Options::new().pin_threads
            ),
            format!("option multipv type spin min 1 max {MAX_MULTIPV} default 1"),
            "option largepages type check default true".to_string(),
            "option moveoverhead type spin min 0 max 10000 default 30".to_string(),
            format!("option pruning type combo {levels} default large"),
            format!("option knowledge type combo {levels} default large"),
            "option randomness type combo var none var tiny var small var medium var large var huge default none".to_string(),
            "option searchdriver type combo var pvs var mtdf var sssstar var bstar default pvs".to_string(),
            "option repetitionrule type combo var asian var draw default asian".to_string(),
            format!("option smpstagger type check default {DEFAULT_STAGGER}"),
            format!("option smpvote type check default {DEFAULT_VOTE}"),
            "option drawresign type check default false".to_string(),
            format!("option usennue type check default {}", crate::eval::nnue::USE_BY_DEFAULT),
            "option evalfile type string default <empty>".to_string(),
            "option useegtb type check default true".to_string(),
            "option egtbpath type string default <empty>".to_string(),
            "option nodestime type spin min 0 max 10000 default 0".to_string(),
            "option debuglogfile type string default <empty>".to_string(),
            "option newgame type button".to_string(),
        ];
        #[cfg(feature = "tune")]
        let lines = [lines, crate::search::params::ucci_lines()].concat();
        lines
    }

    /// The options offered to a CECP GUI (`feature option="..."`), with their current values;
    /// the table size and the threads come from `memory` and `cores`.
    pub fn cecp_lines(&self) -> Vec<String> {
        let flag = |b: bool| u8::from(b);
        // A CECP combo's values, the current one marked with '*'.
        fn combo<T: PartialEq>(values: &[T], current: &T, name: impl Fn(&T) -> &str) -> String {
            values
                .iter()
                .map(|v| {
                    let mark = if v == current { "*" } else { "" };
                    format!("{mark}{}", name(v))
                })
                .collect::<Vec<_>>()
                .join(" /// ")
        }
        let driver = combo(
            &[Driver::Pvs, Driver::Mtdf, Driver::SssStar, Driver::BStar],
            &self.driver,
            |d| d.name(),
        );
        let randomness = combo(&RANDOMNESS_LEVELS, &self.randomness, |l| l.name());
        let lines = vec![
            format!("Move Overhead -spin {} 0 10000", self.move_overhead_ms),
            format!("OwnBook -check {}", flag(self.use_book)),
            format!("BookFile -file {}", self.book_files),
            format!("PinThreads -check {}", flag(self.pin_threads)),
            format!("SearchDriver -combo {driver}"),
            format!("SMPStagger -check {}", flag(self.stagger)),
            format!("SMPVote -check {}", flag(self.smp_vote)),
            format!("UseNNUE -check {}", flag(self.use_nnue)),
            format!("EvalFile -file {}", self.eval_file),
            format!("EGTBPath -path {}", self.egtb_path),
            format!("nodestime -spin {} 0 10000", self.nodes_time),
            format!("Debug Log File -file {}", self.debug_log_file),
            format!("Randomness -combo {randomness}"),
            "Clear Hash -button".to_string(),
        ];
        #[cfg(feature = "tune")]
        let lines = [lines, crate::search::params::cecp_lines()].concat();
        lines
    }

    /// The `option name ...` lines of the UCI handshake.
    pub fn uci_lines(&self) -> Vec<String> {
        let lines = vec![
            format!("option name Hash type spin default 64 min 1 max {MAX_HASH_MIB}"),
            format!(
                "option name Threads type spin default {} min 1 max {MAX_THREADS}",
                Options::new().threads
            ),
            "option name Ponder type check default false".to_string(),
            format!("option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}"),
            "option name UCI_ShowWDL type check default false".to_string(),
            "option name UCI_AnalyseMode type check default false".to_string(),
            "option name LargePages type check default true".to_string(),
            "option name Move Overhead type spin default 30 min 0 max 10000".to_string(),
            "option name Clear Hash type button".to_string(),
            "option name OwnBook type check default true".to_string(),
            "option name BookFile type string default <empty>".to_string(),
            format!(
                "option name PinThreads type check default {}",
                Options::new().pin_threads
            ),
            "option name SearchDriver type combo default pvs var pvs var mtdf var sssstar var bstar".to_string(),
            "option name RepetitionRule type combo default asian var asian var draw".to_string(),
            format!("option name SMPStagger type check default {DEFAULT_STAGGER}"),
            format!("option name SMPVote type check default {DEFAULT_VOTE}"),
            format!(
                "option name UseNNUE type check default {}",
                crate::eval::nnue::USE_BY_DEFAULT
            ),
            "option name EvalFile type string default <empty>".to_string(),
            "option name EGTBPath type string default <empty>".to_string(),
            "option name UCI_Variant type combo default xiangqi var xiangqi".to_string(),
            "option name UCI_RankBase type spin default 0 min 0 max 1".to_string(),
            "option name nodestime type spin default 0 min 0 max 10000".to_string(),
            "option name Debug Log File type string default <empty>".to_string(),
            "option name Randomness type combo default none var none var tiny var small var medium var large var huge".to_string(),
        ];
        #[cfg(feature = "tune")]
        let lines = [lines, crate::search::params::uci_lines()].concat();
        lines
    }
}
