//! The two dialects: UCCI and UCI (xiangqi). Handshake, option and `go` lines out; `info` and
//! `bestmove` lines in.

use super::super::clock::Clock;
use crate::common::process::{EngineError, EngineProcess};
use std::time::Duration;

/// The protocol an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// UCCI.
    Ucci,
    /// UCI.
    Uci,
}

impl Protocol {
    /// The word that starts the handshake.
    pub fn hello(self) -> &'static str {
        match self {
            Protocol::Ucci => "ucci",
            Protocol::Uci => "uci",
        }
    }

    fn ok(self) -> &'static str {
        match self {
            Protocol::Ucci => "ucciok",
            Protocol::Uci => "uciok",
        }
    }

    /// A `setoption` line in this dialect.
    pub fn setoption(self, name: &str, value: &str) -> String {
        match self {
            Protocol::Ucci => format!("setoption {name} {value}"),
            Protocol::Uci => format!("setoption name {name} value {value}"),
        }
    }

    /// The new-game command.
    pub fn newgame(self) -> &'static str {
        match self {
            Protocol::Ucci => "setoption newgame",
            Protocol::Uci => "ucinewgame",
        }
    }
}

/// What the engine told us during the handshake.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Handshake {
    /// UCCI engine advertised `usemillisec`.
    pub millisec: bool,
    /// UCI engine advertised `UCI_Variant`.
    pub variant: bool,
    /// The names of the options it offered, in order.
    pub options: Vec<String>,
}

/// Sends the hello word and reads up to the ok line, noting the options that matter.
pub fn handshake(
    engine: &mut EngineProcess,
    proto: Protocol,
    timeout: Duration,
) -> Result<Handshake, EngineError> {
    engine.send(proto.hello())?;
    let mut hs = Handshake::default();
    engine.wait_for(timeout, |line| {
        let mut words = line.split_whitespace();
        if words.next() == Some("option") {
            let rest: Vec<&str> = words.collect();
            match proto {
                Protocol::Ucci => {
                    hs.millisec |= rest.first() == Some(&"usemillisec");
                    hs.options.extend(rest.first().map(|n| n.to_string()));
                }
                Protocol::Uci => {
                    hs.variant |= rest.len() >= 2 && rest[0] == "name" && rest[1] == "UCI_Variant";
                    // A UCI name may hold spaces: the words between `name` and `type`.
                    if rest.first() == Some(&"name") {
                        let end = rest.iter().position(|w| *w == "type").unwrap_or(rest.len());
                        hs.options.push(rest[1..end.max(1)].join(" "));
                    }
                }
            }
        }
        line.trim() == proto.ok()
    })?;
    Ok(hs)
}

/// Sends `isready` and waits for `readyok`.
pub fn sync(engine: &mut EngineProcess, timeout: Duration) -> Result<(), EngineError> {
    engine.send("isready")?;
    engine.wait_for(timeout, |l| l.trim() == "readyok")
}

/// An engine's evaluation from its own point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns (UCCI: the engine's integer score).
    Cp(i32),
    /// Mate in this many moves (negative: being mated).
    Mate(i32),
}

impl Score {
    /// A number for threshold tests: mates are beyond any centipawn score.
    pub fn value(self) -> i64 {
        match self {
            Score::Cp(c) => c as i64,
            Score::Mate(m) if m > 0 => 1_000_000 - m as i64,
            Score::Mate(m) => -1_000_000 - m as i64,
        }
    }

    /// A UCCI score, which is a bare integer: engines write a mate as +-(M - plies), Pao with
    /// M = 30000 (plies up to 1000), ElephantEye with M = 10000 (plies up to 99, below that
    /// its own "ban" scores begin). Those become mate scores in moves; the rest is centipawns.
    pub fn from_ucci(v: i32) -> Score {
        for (mate, max_plies) in [(30_000, 1_000), (10_000, 99)] {
            let plies = mate - v.abs();
            if (0..=max_plies).contains(&plies) {
                let moves = (plies + 1) / 2;
                return Score::Mate(if v < 0 { -moves } else { moves });
            }
        }
        Score::Cp(v)
    }

    /// As in PGN comments: `+0.25`, `-1.00`, `+M5`, `-M3`.
    pub fn pgn(self) -> String {
        match self {
            Score::Cp(c) => {
                let sign = if c < 0 { '-' } else { '+' };
                format!(
                    "{sign}{}.{:02}",
                    c.unsigned_abs() / 100,
                    c.unsigned_abs() % 100
                )
            }
            Score::Mate(m) => format!("{}M{}", if m < 0 { '-' } else { '+' }, m.unsigned_abs()),
        }
    }
}

/// The last search report of a move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Info {
    /// Last score reported.
    pub score: Option<Score>,
    /// Last depth reported.
    pub depth: Option<u32>,
}

/// Folds one `info` line into `info`. Lines that are not `info` lines are ignored.
pub fn parse_info(line: &str, info: &mut Info) {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.first() != Some(&"info") {
        return;
    }
    let mut i = 1;
    while i < words.len() {
        match words[i] {
            // A PV or a free-text string ends the fields we read.
            "pv" | "string" | "message" => break,
            "depth" => {
                if let Some(d) = words.get(i + 1).and_then(|w| w.parse().ok()) {
                    info.depth = Some(d);
                }
                i += 1;
            }
            "score" => match words.get(i + 1) {
                Some(&"cp") => {
                    if let Some(v) = words.get(i + 2).and_then(|w| w.parse().ok()) {
                        info.score = Some(Score::Cp(v));
                    }
                    i += 2;
                }
                Some(&"mate") => {
                    if let Some(v) = words.get(i + 2).and_then(|w| w.parse().ok()) {
                        info.score = Some(Score::Mate(v));
                    }
                    i += 2;
                }
                Some(w) => {
                    if let Ok(v) = w.parse() {
                        info.score = Some(Score::from_ucci(v));
                    }
                    i += 1;
                }
                None => {}
            },
            _ => {}
        }
        i += 1;
    }
}

/// The end of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BestMove {
    /// A move, as text (not yet parsed).
    Move(String),
    /// `nobestmove`, `bestmove (none)`, `bestmove 0000` or a bare `bestmove`.
    None,
}

/// Recognises a `bestmove` / `nobestmove` line.
pub fn parse_bestmove(line: &str) -> Option<BestMove> {
    let mut words = line.split_whitespace();
    match words.next()? {
        "nobestmove" => Some(BestMove::None),
        "bestmove" => match words.next() {
            None | Some("(none)") | Some("0000") | Some("none") => Some(BestMove::None),
            Some(m) => Some(BestMove::Move(m.to_string())),
        },
        _ => None,
    }
}

/// What to search for: a clock, or a fixed limit.
#[derive(Clone, Copy, Debug)]
pub enum GoLimit<'a> {
    /// The mover's clock, and the opponent's when it plays on a clock too (with time odds it
    /// may search by depth, nodes or a fixed time instead: then its clock is left out).
    Clocks {
        /// Side to move's clock.
        own: &'a Clock,
        /// The opponent's clock, if it has one.
        opp: Option<&'a Clock>,
        /// Red to move (UCI names clocks by colour).
        red_to_move: bool,
    },
    /// Fixed time per move, ms.
    MoveTime(u64),
    /// Fixed depth.
    Depth(u32),
    /// Fixed nodes.
    Nodes(u64),
}

/// The `go` line. UCCI times are in ms when the engine took `usemillisec`, else whole seconds.
/// Each clock is written by its own control (moves per period or increment), so that sides
/// with different time controls each get theirs.
pub fn go_line(proto: Protocol, limit: GoLimit, millisec: bool) -> String {
    let t = |ms: u64| if millisec { ms } else { ms / 1000 };
    let ms = |c: &Clock| c.remaining_ms.max(0) as u64;
    match (proto, limit) {
        (_, GoLimit::Depth(d)) => format!("go depth {d}"),
        (_, GoLimit::Nodes(n)) => format!("go nodes {n}"),
        (Protocol::Uci, GoLimit::MoveTime(m)) => format!("go movetime {m}"),
        (Protocol::Ucci, GoLimit::MoveTime(m)) => format!("go time {} movestogo 1", t(m)),
        (Protocol::Ucci, GoLimit::Clocks { own, opp, .. }) => {
            let mut s = format!("go time {}", t(ms(own)));
            match own.moves_to_go {
                Some(m) => s.push_str(&format!(" movestogo {m}")),
                None => s.push_str(&format!(" increment {}", t(own.increment_ms()))),
            }
            if let Some(opp) = opp {
                s.push_str(&format!(" opptime {}", t(ms(opp))));
                match opp.moves_to_go {
                    Some(m) => s.push_str(&format!(" oppmovestogo {m}")),
                    None => s.push_str(&format!(" oppincrement {}", t(opp.increment_ms()))),
                }
            }
            s
        }
        (
            Protocol::Uci,
            GoLimit::Clocks {
                own,
                opp,
                red_to_move,
            },
        ) => {
            let (w, b) = if red_to_move {
                (Some(own), opp)
            } else {
                (opp, Some(own))
            };
            let mut s = "go".to_string();
            for (key, clock) in [("wtime", w), ("btime", b)] {
                if let Some(c) = clock {
                    s.push_str(&format!(" {key} {}", ms(c)));
                }
            }
            for (key, clock) in [("winc", w), ("binc", b)] {
                if let Some(c) = clock {
                    s.push_str(&format!(" {key} {}", c.increment_ms()));
                }
            }
            if let Some(m) = own.moves_to_go {
                s.push_str(&format!(" movestogo {m}"));
            }
            s
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines() {
        let mut i = Info::default();
        parse_info(
            "info depth 7 score 35 time 10 nodes 100 pv h2e2 h9g7",
            &mut i,
        );
        assert_eq!(
            i,
            Info {
                score: Some(Score::Cp(35)),
                depth: Some(7)
            }
        );
        parse_info(
            "info depth 8 seldepth 12 score cp -120 nodes 5 pv h2e2",
            &mut i,
        );
        assert_eq!(
            i,
            Info {
                score: Some(Score::Cp(-120)),
                depth: Some(8)
            }
        );
        parse_info("info depth 9 score mate -3 pv a0a1", &mut i);
        assert_eq!(i.score, Some(Score::Mate(-3)));
        parse_info("info string depth 99 score 5", &mut i);
        parse_info("garbage depth 1", &mut i);
        assert_eq!(i.depth, Some(9));
        assert_eq!(Score::Cp(-5).pgn(), "-0.05");
        assert_eq!(Score::Cp(250).pgn(), "+2.50");
        assert_eq!(Score::Mate(-3).pgn(), "-M3");
    }

    #[test]
    fn ucci_mate_scores_become_mates_in_moves() {
        let mut i = Info::default();
        // Pao: mate in 13 plies (7 moves) for the side to move; mated in 8 plies (4 moves).
        parse_info("info depth 20 score 29987 pv h2e2", &mut i);
        assert_eq!(
            (i.score, i.score.map(Score::pgn)),
            (Some(Score::Mate(7)), Some("+M7".into()))
        );
        parse_info("info depth 20 score -29992 pv h2e2", &mut i);
        assert_eq!(i.score.map(Score::pgn), Some("-M4".into()));
        // ElephantEye's MATE_VALUE 10000.
        parse_info("info depth 9 score 9995", &mut i);
        assert_eq!(i.score, Some(Score::Mate(3)));
        // Large but ordinary scores, and ElephantEye's ban scores, stay centipawns.
        for (v, pgn) in [(28_999, "+289.99"), (-9_850, "-98.50"), (2_000, "+20.00")] {
            parse_info(&format!("info score {v}"), &mut i);
            assert_eq!(i.score.map(Score::pgn), Some(pgn.to_string()), "{v}");
        }
    }

    #[test]
    fn bestmove_lines() {
        assert_eq!(
            parse_bestmove("bestmove h2e2 ponder h9g7"),
            Some(BestMove::Move("h2e2".into()))
        );
        assert_eq!(parse_bestmove("nobestmove"), Some(BestMove::None));
        assert_eq!(parse_bestmove("bestmove (none)"), Some(BestMove::None));
        assert_eq!(parse_bestmove("info depth 1"), None);
    }

    #[test]
    fn go_lines() {
        let own = Clock::new(None, 10_000, 100);
        let mut opp = Clock::new(None, 10_000, 100);
        opp.remaining_ms = 9_500;
        let clocks = GoLimit::Clocks {
            own: &own,
            opp: Some(&opp),
            red_to_move: false,
        };
        assert_eq!(
            go_line(Protocol::Ucci, clocks, true),
            "go time 10000 increment 100 opptime 9500 oppincrement 100"
        );
        assert_eq!(
            go_line(Protocol::Ucci, clocks, false),
            "go time 10 increment 0 opptime 9 oppincrement 0"
        );
        assert_eq!(
            go_line(Protocol::Uci, clocks, true),
            "go wtime 9500 btime 10000 winc 100 binc 100"
        );
        let p = Clock::new(Some(40), 60_000, 0);
        let periods = GoLimit::Clocks {
            own: &p,
            opp: Some(&p),
            red_to_move: true,
        };
        assert_eq!(
            go_line(Protocol::Ucci, periods, true),
            "go time 60000 movestogo 40 opptime 60000 oppmovestogo 40"
        );
        assert_eq!(
            go_line(Protocol::Uci, periods, true),
            "go wtime 60000 btime 60000 winc 0 binc 0 movestogo 40"
        );
        // Time odds: each clock by its own control, or only the mover's.
        let odds = GoLimit::Clocks {
            own: &p,
            opp: Some(&opp),
            red_to_move: false,
        };
        assert_eq!(
            go_line(Protocol::Ucci, odds, true),
            "go time 60000 movestogo 40 opptime 9500 oppincrement 100"
        );
        assert_eq!(
            go_line(Protocol::Uci, odds, true),
            "go wtime 9500 btime 60000 winc 100 binc 0 movestogo 40"
        );
        let alone = GoLimit::Clocks {
            own: &own,
            opp: None,
            red_to_move: false,
        };
        assert_eq!(
            go_line(Protocol::Ucci, alone, true),
            "go time 10000 increment 100"
        );
        assert_eq!(
            go_line(Protocol::Uci, alone, true),
            "go btime 10000 binc 100"
        );
        assert_eq!(
            go_line(Protocol::Ucci, GoLimit::MoveTime(200), true),
            "go time 200 movestogo 1"
        );
        assert_eq!(
            go_line(Protocol::Uci, GoLimit::MoveTime(200), true),
            "go movetime 200"
        );
        assert_eq!(
            go_line(Protocol::Uci, GoLimit::Depth(5), true),
            "go depth 5"
        );
        assert_eq!(
            go_line(Protocol::Ucci, GoLimit::Nodes(1000), true),
            "go nodes 1000"
        );
        assert_eq!(
            Protocol::Ucci.setoption("hashsize", "64"),
            "setoption hashsize 64"
        );
        assert_eq!(
            Protocol::Uci.setoption("Hash", "64"),
            "setoption name Hash value 64"
        );
    }
}
