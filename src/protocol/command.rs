//! Typed commands: every input line becomes a `Command` or a `ProtocolError` with a message
//! naming the problem and where; the engine core never sees strings.

use crate::board::{parse_move, Move, Position, RankBase, START_FEN};

/// The protocol spoken, decided by the first line.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// UCCI (ElephantEye's protocol).
    Ucci,
    /// UCI as Pikafish and tournament managers speak it.
    Uci,
    /// CECP (the xboard protocol, version 2), as XBoard and WinBoard speak it.
    Cecp,
}

/// What the parser needs to know about the connection.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ParseContext {
    /// The dialect, once the handshake happened.
    pub dialect: Option<Dialect>,
    /// Rank numbering of moves.
    pub rank_base: RankBase,
    /// UCCI times are milliseconds (else seconds).
    pub usemillisec: bool,
}

impl Default for ParseContext {
    fn default() -> Self {
        ParseContext {
            dialect: None,
            rank_base: RankBase::Zero,
            usemillisec: true,
        }
    }
}

/// Parameters of `go`. Times are in milliseconds whatever unit the GUI used.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    /// Fixed depth.
    pub depth: Option<u32>,
    /// Node budget.
    pub nodes: Option<u64>,
    /// Fixed time for this move.
    pub movetime: Option<u64>,
    /// UCCI: time left for the side to move.
    pub time: Option<u64>,
    /// UCCI: increment per move.
    pub increment: Option<u64>,
    /// Moves to the next time control (UCCI and UCI).
    pub movestogo: Option<u32>,
    /// UCCI: the opponent's clock.
    pub opptime: Option<u64>,
    /// UCCI: the opponent's increment.
    pub oppincrement: Option<u64>,
    /// UCCI: the opponent's moves to go.
    pub oppmovestogo: Option<u32>,
    /// UCI: red's clock.
    pub wtime: Option<u64>,
    /// UCI: black's clock.
    pub btime: Option<u64>,
    /// UCI: red's increment.
    pub winc: Option<u64>,
    /// UCI: black's increment.
    pub binc: Option<u64>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Ponder: the clock starts at `ponderhit`.
    pub ponder: bool,
    /// The opponent offers a draw (UCCI).
    pub draw: bool,
    /// `searchmoves m ...`: only these root moves (empty = all).
    pub searchmoves: Vec<Move>,
    /// `mate N`: search for a mate in at most N moves.
    pub mate: Option<u32>,
}

impl GoParams {
    /// True when any clock field was given.
    pub fn has_clock(&self) -> bool {
        self.time.is_some()
            || self.wtime.is_some()
            || self.btime.is_some()
            || self.movetime.is_some()
    }
}

/// One parsed input line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `ucci`
    Ucci,
    /// `uci`
    Uci,
    /// `xboard`: CECP from here on (its commands have their own parser, `cecp.rs`).
    Xboard,
    /// `isready`
    IsReady,
    /// `setoption <name> <value>` (UCCI) or `setoption name N [value V]` (UCI).
    SetOption {
        /// Option name as given.
        name: String,
        /// Value (empty for buttons).
        value: String,
    },
    /// `ucinewgame`
    NewGame,
    /// `position {fen F | startpos} [moves ...]`, proven valid: the FEN parses and every move
    /// is legal in turn.
    Position {
        /// The FEN.
        fen: String,
        /// The moves, each legal after the ones before.
        moves: Vec<Move>,
    },
    /// `banmoves m ...` (UCCI).
    BanMoves(Vec<Move>),
    /// `go ...`
    Go(GoParams),
    /// `ponderhit [draw]`
    PonderHit {
        /// The opponent also offers a draw.
        draw: bool,
    },
    /// `stop`
    Stop,
    /// `probe {fen F | startpos} [moves ...]` (UCCI).
    Probe {
        /// The FEN.
        fen: String,
        /// The moves.
        moves: Vec<Move>,
    },
    /// `quit` or `bye`.
    Quit,
    /// `d`: the board, FEN, key and counters as text.
    Display,
    /// `eval`: the static evaluation term by term.
    Eval,
    /// `go perft N`: the leaves below each legal move at depth N, then their sum.
    Perft(u32),
    /// `flip`: the position with the colours swapped.
    Flip,
    /// `bench`: `pao bench`'s search of its positions, and its node count.
    Bench,
    /// `compiler`: the compiler, target, profile and CPU features of this build.
    Compiler,
    /// `export_net [FILE]`: writes the net in use.
    ExportNet(Option<String>),
}

/// Deepest `go perft` accepted (perft 7 from the start already takes minutes).
pub const MAX_PERFT_DEPTH: u32 = 12;

/// A rejected line, with its message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProtocolError(pub String);

impl std::fmt::Display for ProtocolError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ProtocolError {}

fn err<T>(msg: String) -> Result<T, ProtocolError> {
    Err(ProtocolError(msg))
}

/// Parses one line. Blank lines give `Ok(None)`.
pub fn parse_command(line: &str, ctx: &ParseContext) -> Result<Option<Command>, ProtocolError> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some(first) = words.first() else {
        return Ok(None);
    };
    let rest = &words[1..];
    let keyword = first.to_ascii_lowercase();
    let cmd = match keyword.as_str() {
        "ucci" => Command::Ucci,
        "uci" => Command::Uci,
        "xboard" => Command::Xboard,
        "isready" => Command::IsReady,
        "ucinewgame" => Command::NewGame,
        "stop" => Command::Stop,
        "d" => Command::Display,
        "eval" => Command::Eval,
        "flip" => no_arguments(Command::Flip, rest, first)?,
        "bench" => no_arguments(Command::Bench, rest, first)?,
        "compiler" => no_arguments(Command::Compiler, rest, first)?,
        "export_net" => Command::ExportNet((!rest.is_empty()).then(|| rest.join(" "))),
        "quit" | "bye" => Command::Quit,
        "ponderhit" => match rest {
            [] => Command::PonderHit { draw: false },
            [w] if w.eq_ignore_ascii_case("draw") => Command::PonderHit { draw: true },
            _ => return err(format!("ponderhit: unexpected '{}'", rest.join(" "))),
        },
        "setoption" => parse_setoption(rest, ctx)?,
        "position" => {
            let (fen, moves) = parse_position(rest, ctx, "position")?;
            Command::Position { fen, moves }
        }
        "probe" => {
            let (fen, moves) = parse_position(rest, ctx, "probe")?;
            Command::Probe { fen, moves }
        }
        "banmoves" => {
            let mut moves = Vec::with_capacity(rest.len());
            for (i, w) in rest.iter().enumerate() {
                match parse_move(w, ctx.rank_base) {
                    Ok(m) => moves.push(m),
                    Err(_) => {
                        return err(format!(
                            "banmoves: malformed move '{w}' at position {}",
                            i + 1
                        ))
                    }
                }
            }
            Command::BanMoves(moves)
        }
        "go" if rest
            .first()
            .is_some_and(|w| w.eq_ignore_ascii_case("perft")) =>
        {
            Command::Perft(parse_perft(&rest[1..])?)
        }
        "go" => Command::Go(parse_go(rest, ctx)?),
        _ => return err(format!("unknown command '{first}'")),
    };
    Ok(Some(cmd))
}

fn no_arguments(cmd: Command, rest: &[&str], word: &str) -> Result<Command, ProtocolError> {
    if rest.is_empty() {
        Ok(cmd)
    } else {
        err(format!("{word}: unexpected '{}'", rest.join(" ")))
    }
}

/// The depth of `go perft N` (also CECP's `perft N`).
pub fn parse_perft(rest: &[&str]) -> Result<u32, ProtocolError> {
    match rest {
        [d] => d
            .parse::<u32>()
            .ok()
            .filter(|d| (1..=MAX_PERFT_DEPTH).contains(d))
            .ok_or_else(|| {
                ProtocolError(format!(
                    "perft: '{d}' is not a depth in 1..{MAX_PERFT_DEPTH}"
                ))
            }),
        [] => err("perft: missing depth".to_string()),
        _ => err(format!("perft: unexpected '{}'", rest[1..].join(" "))),
    }
}

fn parse_setoption(rest: &[&str], ctx: &ParseContext) -> Result<Command, ProtocolError> {
    let uci_form = rest.first().is_some_and(|w| w.eq_ignore_ascii_case("name"));
    if uci_form || ctx.dialect == Some(Dialect::Uci) {
        let body = if uci_form { &rest[1..] } else { rest };
        let split = body.iter().position(|w| w.eq_ignore_ascii_case("value"));
        let (name, value) = match split {
            Some(i) => (body[..i].join(" "), body[i + 1..].join(" ")),
            None => (body.join(" "), String::new()),
        };
        if name.is_empty() {
            return err("setoption: missing option name".to_string());
        }
        return Ok(Command::SetOption { name, value });
    }
    match rest.split_first() {
        None => err("setoption: missing option name".to_string()),
        Some((name, value)) => Ok(Command::SetOption {
            name: name.to_string(),
            value: value.join(" "),
        }),
    }
}

/// `{fen F... | startpos} [moves m...]`, proven legal move by move.
fn parse_position(
    rest: &[&str],
    ctx: &ParseContext,
    what: &str,
) -> Result<(String, Vec<Move>), ProtocolError> {
    let moves_at = rest.iter().position(|w| w.eq_ignore_ascii_case("moves"));
    let (spec, move_words) = match moves_at {
        Some(i) => (&rest[..i], &rest[i + 1..]),
        None => (rest, &[][..]),
    };
    let fen = match spec.split_first() {
        Some((w, [])) if w.eq_ignore_ascii_case("startpos") => START_FEN.to_string(),
        Some((w, fen)) if w.eq_ignore_ascii_case("fen") && !fen.is_empty() => fen.join(" "),
        Some((w, _)) if w.eq_ignore_ascii_case("fen") => {
            return err(format!("{what}: 'fen' needs a FEN"))
        }
        _ => return err(format!("{what}: expected 'startpos' or 'fen <FEN>'")),
    };
    let mut pos =
        Position::from_fen(&fen).map_err(|e| ProtocolError(format!("{what}: bad FEN: {e}")))?;
    let mut moves = Vec::with_capacity(move_words.len());
    for (i, w) in move_words.iter().enumerate() {
        let m = parse_move(w, ctx.rank_base).map_err(|_| {
            ProtocolError(format!(
                "{what}: malformed move '{w}' at position {} in moves",
                i + 1
            ))
        })?;
        if !pos.is_legal(m) {
            return err(format!(
                "{what}: illegal move '{w}' at position {} in moves",
                i + 1
            ));
        }
        pos.make_move(m);
        moves.push(m);
    }
    Ok((fen, moves))
}

fn number<T: std::str::FromStr>(key: &str, value: Option<&&str>) -> Result<T, ProtocolError> {
    let Some(v) = value else {
        return err(format!("go: '{key}' needs a number"));
    };
    v.parse::<T>().map_err(|_| {
        ProtocolError(format!(
            "go: '{key}' needs a non-negative number, got '{v}'"
        ))
    })
}

fn parse_go(rest: &[&str], ctx: &ParseContext) -> Result<GoParams, ProtocolError> {
    let mut p = GoParams::default();
    // UCCI times are seconds unless `usemillisec` is on; UCI times are always milliseconds.
    let scale = if ctx.dialect != Some(Dialect::Uci) && !ctx.usemillisec {
        1000
    } else {
        1
    };
    let ms = |key: &str, v: Option<&&str>| -> Result<u64, ProtocolError> {
        number::<u64>(key, v).map(|t| t.saturating_mul(scale))
    };
    let mut i = 0;
    while i < rest.len() {
        let key = rest[i].to_ascii_lowercase();
        let value = rest.get(i + 1);
        let mut takes_value = true;
        match key.as_str() {
            "infinite" => {
                p.infinite = true;
                takes_value = false;
            }
            "ponder" => {
                p.ponder = true;
                takes_value = false;
            }
            "draw" => {
                p.draw = true;
                takes_value = false;
            }
            "depth" => {
                // UCCI allows `depth infinite`.
                if value.is_some_and(|v| v.eq_ignore_ascii_case("infinite")) {
                    p.infinite = true;
                } else {
                    p.depth = Some(number(&key, value)?);
                }
            }
            "nodes" => p.nodes = Some(number(&key, value)?),
            "movetime" => p.movetime = Some(number(&key, value)?),
            "time" => p.time = Some(ms(&key, value)?),
            "increment" => p.increment = Some(ms(&key, value)?),
            "opptime" => p.opptime = Some(ms(&key, value)?),
            "oppincrement" => p.oppincrement = Some(ms(&key, value)?),
            "movestogo" => p.movestogo = Some(number(&key, value)?),
            "oppmovestogo" => p.oppmovestogo = Some(number(&key, value)?),
            "wtime" => p.wtime = Some(number(&key, value)?),
            "btime" => p.btime = Some(number(&key, value)?),
            "winc" => p.winc = Some(number(&key, value)?),
            "binc" => p.binc = Some(number(&key, value)?),
            "mate" => p.mate = Some(number(&key, value)?),
            "searchmoves" => {
                // The moves run to the next word that is not a move.
                let mut j = i + 1;
                while let Some(Ok(m)) = rest.get(j).map(|w| parse_move(w, ctx.rank_base)) {
                    p.searchmoves.push(m);
                    j += 1;
                }
                if j == i + 1 {
                    return err("go: 'searchmoves' needs at least one move".to_string());
                }
                i = j;
                continue;
            }
            other => return err(format!("go: unknown parameter '{other}'")),
        }
        i += if takes_value { 2 } else { 1 };
    }
    if p.ponder && p.draw {
        return err("go: 'ponder' and 'draw' exclude each other".to_string());
    }
    if p.mate == Some(0) {
        return err("go: 'mate' needs a number of moves from 1".to_string());
    }
    let limited = p.depth.is_some() || p.nodes.is_some() || p.mate.is_some() || p.has_clock();
    if !limited && !p.ponder {
        // A bare `go` searches until `stop`.
        p.infinite = true;
    }
    Ok(p)
}
