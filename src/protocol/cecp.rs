//! CECP (the xboard protocol, version 2) input: every line becomes a `CecpCommand` or a
//! `CecpError`, whose text is the line CECP wants back (`Error (...): ...` or
//! `Illegal move: ...`). Moves are checked for form here and for legality by the game.
//!
//! Squares are XBoard's for a 9x10 board: files `a`-`i` from red's left, ranks `0`-`9` from
//! red's side ("on boards with exactly 10 ranks, counting of the ranks starts at 0"), which is
//! ICCS: `h2e2`.

use crate::board::{parse_move, Move, RankBase};

/// One CECP command from the GUI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CecpCommand {
    /// `xboard`: the handshake's first line (also accepted later, as a no-op).
    Xboard,
    /// `protover N`: answered with the `feature` lines.
    Protover(u32),
    /// `new`: the start position, the engine plays black, clocks and depth limit reset.
    New,
    /// `variant NAME`.
    Variant(String),
    /// `setboard FEN` (the FEN as given; the game checks it).
    SetBoard(String),
    /// `usermove MOVE` or a bare move.
    UserMove(Move),
    /// `force`: play neither side.
    Force,
    /// `go`: play the side to move, and think now.
    Go,
    /// `playother`: play the side not to move.
    PlayOther,
    /// `level MPS BASE INC`: `moves` per period (0 = whole game), base and increment in ms.
    Level {
        /// Moves per time-control period; 0 = the whole game.
        moves: u32,
        /// Base time in ms.
        base_ms: u64,
        /// Increment in ms.
        inc_ms: u64,
    },
    /// `st SECONDS`: a fixed time per move, in ms.
    St(u64),
    /// `sd DEPTH`: a depth limit.
    Sd(u32),
    /// `time N`: the engine's clock, in centiseconds.
    Time(u64),
    /// `otim N`: the opponent's clock, in centiseconds.
    Otim(u64),
    /// `?`: move now.
    MoveNow,
    /// `ping N`.
    Ping(u64),
    /// `result RESULT {COMMENT}`: the game is over.
    Result,
    /// `undo`: take back one ply.
    Undo,
    /// `remove`: take back two plies.
    Remove,
    /// `hard`: ponder.
    Hard,
    /// `easy`: no pondering.
    Easy,
    /// `post`: thinking output on.
    Post,
    /// `nopost`: thinking output off.
    NoPost,
    /// `analyze`: analyse until `exit`.
    Analyze,
    /// `exit`: leave analyze mode.
    Exit,
    /// `.`: a status line in analyze mode.
    Status,
    /// `memory N`: memory for the tables, in MiB.
    Memory(u64),
    /// `cores N`: search threads.
    Cores(u64),
    /// `option NAME[=VALUE]`.
    SetOption {
        /// Name as defined in the `feature option` line.
        name: String,
        /// Value (empty for buttons).
        value: String,
    },
    /// `quit`.
    Quit,
    /// `perft N`: the leaves below each legal move, then their sum (as UCI's `go perft N`).
    Perft(u32),
    /// `bench`: `pao bench`'s search, with its node count.
    Bench,
    /// `compiler`: how this binary was built.
    Compiler,
    /// `export_net [FILE]`: writes the net in use.
    ExportNet(Option<String>),
    /// Commands that need no action here: `accepted`, `rejected`, `random`, `computer`,
    /// `name`, `rating`, `ics`, `draw`, `hint`, `bk`, `easy`-style notices.
    Ignored,
}

/// A rejected line; `Display` gives the exact line to send back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CecpError {
    /// `Error (unknown command): LINE`.
    Unknown(String),
    /// `Error (REASON): LINE`.
    Bad {
        /// What is wrong.
        reason: String,
        /// The line as received.
        line: String,
    },
    /// `Illegal move: MOVE` (a `usermove` whose text is not a move on this board).
    IllegalMove(String),
}

impl std::fmt::Display for CecpError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CecpError::Unknown(line) => write!(f, "Error (unknown command): {line}"),
            CecpError::Bad { reason, line } => write!(f, "Error ({reason}): {line}"),
            CecpError::IllegalMove(m) => write!(f, "Illegal move: {m}"),
        }
    }
}

/// The squares of a move in XBoard's xiangqi coordinates (ICCS, ranks 0-9).
pub const RANK_BASE: RankBase = RankBase::Zero;

/// Parses one line. Blank lines give `Ok(None)`.
pub fn parse_cecp(line: &str) -> Result<Option<CecpCommand>, CecpError> {
    let line = line.trim();
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some(&first) = words.first() else {
        return Ok(None);
    };
    let rest = &words[1..];
    let bad = |reason: &str| CecpError::Bad {
        reason: reason.to_string(),
        line: line.to_string(),
    };
    let one = |what: &str| -> Result<u64, CecpError> {
        match rest {
            [v] => v
                .parse::<u64>()
                .map_err(|_| bad(&format!("{what} is not a number"))),
            [] => Err(bad(&format!("missing {what}"))),
            _ => Err(bad("too many parameters")),
        }
    };
    let cmd = match first {
        "xboard" => CecpCommand::Xboard,
        "protover" => CecpCommand::Protover(one("version")?.min(u32::MAX as u64) as u32),
        "new" => CecpCommand::New,
        "variant" => match rest {
            [name] => CecpCommand::Variant(name.to_string()),
            _ => return Err(bad("expected one variant name")),
        },
        "setboard" if rest.is_empty() => return Err(bad("missing FEN")),
        "setboard" => CecpCommand::SetBoard(rest.join(" ")),
        "usermove" => match rest {
            [m] => CecpCommand::UserMove(
                parse_move(m, RANK_BASE).map_err(|_| CecpError::IllegalMove(m.to_string()))?,
            ),
            _ => return Err(bad("expected one move")),
        },
        "force" => CecpCommand::Force,
        "go" => CecpCommand::Go,
        "playother" => CecpCommand::PlayOther,
        "level" => parse_level(rest).map_err(|reason| bad(&reason))?,
        "st" => match rest {
            [v] => CecpCommand::St(seconds(v).map_err(|r| bad(&r))?),
            _ => return Err(bad("expected seconds per move")),
        },
        "sd" => CecpCommand::Sd(one("depth")?.clamp(1, 120) as u32),
        "time" => CecpCommand::Time(one("time")?),
        "otim" => CecpCommand::Otim(one("time")?),
        "?" => CecpCommand::MoveNow,
        "ping" => CecpCommand::Ping(one("ping number")?),
        "result" => CecpCommand::Result,
        "undo" => CecpCommand::Undo,
        "remove" => CecpCommand::Remove,
        "hard" => CecpCommand::Hard,
        "easy" => CecpCommand::Easy,
        "post" => CecpCommand::Post,
        "nopost" => CecpCommand::NoPost,
        "analyze" => CecpCommand::Analyze,
        "exit" => CecpCommand::Exit,
        "." => CecpCommand::Status,
        "memory" => CecpCommand::Memory(one("memory size")?),
        "cores" => CecpCommand::Cores(one("core count")?),
        "option" => {
            let body = line["option".len()..].trim();
            if body.is_empty() {
                return Err(bad("missing option name"));
            }
            let (name, value) = body.split_once('=').unwrap_or((body, ""));
            CecpCommand::SetOption {
                name: name.trim().to_string(),
                value: value.trim().to_string(),
            }
        }
        "quit" => CecpCommand::Quit,
        "perft" => {
            CecpCommand::Perft(crate::protocol::command::parse_perft(rest).map_err(|e| bad(&e.0))?)
        }
        "bench" if rest.is_empty() => CecpCommand::Bench,
        "compiler" if rest.is_empty() => CecpCommand::Compiler,
        "bench" | "compiler" => return Err(bad("too many parameters")),
        "export_net" => CecpCommand::ExportNet((!rest.is_empty()).then(|| rest.join(" "))),
        "accepted" | "rejected" | "random" | "computer" | "name" | "rating" | "ics" | "draw"
        | "hint" | "bk" => CecpCommand::Ignored,
        word => match parse_move(word, RANK_BASE) {
            // A bare move (protocol 1 style, or a GUI that ignores usermove=1).
            Ok(m) if rest.is_empty() => CecpCommand::UserMove(m),
            _ => return Err(CecpError::Unknown(line.to_string())),
        },
    };
    Ok(Some(cmd))
}

/// Seconds as `30` or `0.5`, in ms.
fn seconds(text: &str) -> Result<u64, String> {
    match text.parse::<f64>() {
        Ok(s) if s.is_finite() && s >= 0.0 => Ok((s * 1000.0).round() as u64),
        _ => Err(format!("'{text}' is not a number of seconds")),
    }
}

/// `level MPS BASE INC`: BASE is minutes or `MIN:SEC` (trailing characters after it are
/// ignored, as the protocol asks); INC is seconds.
fn parse_level(rest: &[&str]) -> Result<CecpCommand, String> {
    let [mps, base, inc] = rest else {
        return Err("expected level MPS BASE INC".to_string());
    };
    let moves = mps
        .parse::<u32>()
        .map_err(|_| format!("'{mps}' is not a move count"))?;
    let digits = |s: &str| -> Result<u64, String> {
        let end = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
        s[..end]
            .parse::<u64>()
            .map_err(|_| format!("'{base}' is not MIN or MIN:SEC"))
    };
    let base_ms = match base.split_once(':') {
        Some((min, sec)) => digits(min)? * 60_000 + digits(sec)? * 1000,
        None => digits(base)? * 60_000,
    };
    let inc_ms = seconds(inc)?;
    if base_ms == 0 && inc_ms == 0 {
        return Err("level gives no time".to_string());
    }
    Ok(CecpCommand::Level {
        moves,
        base_ms,
        inc_ms,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> CecpCommand {
        parse_cecp(line).expect("parses").expect("a command")
    }

    #[test]
    fn commands_and_their_arguments() {
        let level = |moves, base_ms, inc_ms| CecpCommand::Level {
            moves,
            base_ms,
            inc_ms,
        };
        assert_eq!(parse("level 40 5 0"), level(40, 300_000, 0));
        assert_eq!(parse("level 0 0:30 0.5"), level(0, 30_000, 500));
        assert_eq!(parse("level 40 25+5 0"), level(40, 1_500_000, 0));
        assert_eq!(parse("st 2.5"), CecpCommand::St(2_500));
        assert_eq!(parse("time 1234"), CecpCommand::Time(1234));
        assert_eq!(parse("ping 77"), CecpCommand::Ping(77));
        assert_eq!(parse("sd 500"), CecpCommand::Sd(120));
        let h2e2 = parse_move("h2e2", RankBase::Zero).expect("move");
        assert_eq!(parse("usermove h2e2"), CecpCommand::UserMove(h2e2));
        assert_eq!(parse("h2e2"), CecpCommand::UserMove(h2e2));
        assert_eq!(
            parse("option Move Overhead=50"),
            CecpCommand::SetOption {
                name: "Move Overhead".into(),
                value: "50".into()
            }
        );
        assert_eq!(
            parse("option Clear Hash"),
            CecpCommand::SetOption {
                name: "Clear Hash".into(),
                value: String::new()
            }
        );
        assert_eq!(
            parse("setboard 4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1"),
            CecpCommand::SetBoard("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1".into())
        );
        assert_eq!(parse("result 1-0 {Red mates}"), CecpCommand::Result);
        assert_eq!(parse_cecp("   "), Ok(None));
    }

    #[test]
    fn errors_are_the_lines_to_send_back() {
        let error = |line: &str| parse_cecp(line).expect_err("rejected").to_string();
        assert_eq!(error("xyzzy 3"), "Error (unknown command): xyzzy 3");
        assert_eq!(error("h2e2 h9g7"), "Error (unknown command): h2e2 h9g7");
        assert_eq!(error("usermove e2e4x"), "Illegal move: e2e4x");
        assert_eq!(
            error("level 40 5"),
            "Error (expected level MPS BASE INC): level 40 5"
        );
        assert_eq!(
            error("level 0 0 0"),
            "Error (level gives no time): level 0 0 0"
        );
        assert_eq!(error("time -5"), "Error (time is not a number): time -5");
        assert_eq!(
            error("memory 1 2"),
            "Error (too many parameters): memory 1 2"
        );
        assert_eq!(error("setboard"), "Error (missing FEN): setboard");
    }
}
