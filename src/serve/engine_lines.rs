//! The coordinator's UCI output, read back into typed values for the event stream. The
//! coordinator stays the only writer; the server reads what it wrote, as a GUI would.

use super::events::{InfoFields, Score};
use crate::search::score::{RULE_WIN, WIN_BOUND};

/// One output line of the engine, as the server uses it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineLine {
    /// A line of a completed iteration.
    Info(InfoFields),
    /// `info time T nodes N nps P hashfull H`: the once-a-second figures.
    Progress {
        /// ms
        time: u64,
        /// nodes
        nodes: u64,
        /// nodes per second
        nps: u64,
        /// per mille
        hashfull: u32,
    },
    /// `info time T nodes N`: the last figures before `bestmove`.
    Final {
        /// ms
        time: u64,
        /// nodes
        nodes: u64,
    },
    /// `info depth D currmove M currmovenumber K`.
    CurrMove {
        /// depth
        depth: u32,
        /// the move
        mv: String,
        /// its number
        number: u32,
    },
    /// `bestmove M [ponder P]` or `bestmove (none)`.
    BestMove {
        /// the move
        mv: Option<String>,
        /// the expected reply
        ponder: Option<String>,
    },
    /// `info string error: ...`.
    Error(String),
    /// Any other `info string ...`.
    Message(String),
    /// Handshake and other lines the stream leaves out.
    Ignored,
}

/// A UCI score: `cp` beyond the rule-win bound is a win (or loss) by the repetition rules,
/// counted in plies.
fn score(kind: &str, value: i32) -> Option<Score> {
    match kind {
        "mate" => Some(Score {
            kind: "mate",
            value,
        }),
        "cp" if value.abs() > WIN_BOUND => Some(Score {
            kind: "rule",
            value: value.signum() * (RULE_WIN - value.abs()),
        }),
        "cp" => Some(Score { kind: "cp", value }),
        _ => None,
    }
}

fn number<T: std::str::FromStr>(word: Option<&str>) -> Option<T> {
    word.and_then(|w| w.parse().ok())
}

/// Reads one output line.
pub fn parse(line: &str) -> EngineLine {
    if let Some(rest) = line.strip_prefix("bestmove ") {
        let mut words = rest.split_whitespace();
        let mv = words.next().filter(|m| *m != "(none)").map(str::to_string);
        let ponder = match (words.next(), words.next()) {
            (Some("ponder"), Some(p)) => Some(p.to_string()),
            _ => None,
        };
        return EngineLine::BestMove { mv, ponder };
    }
    if let Some(text) = line.strip_prefix("info string ") {
        return match text.strip_prefix("error: ") {
            Some(e) => EngineLine::Error(e.to_string()),
            None => EngineLine::Message(text.to_string()),
        };
    }
    let Some(rest) = line.strip_prefix("info ") else {
        return EngineLine::Ignored;
    };
    let mut f = InfoFields::default();
    let (mut has_score, mut has_nps, mut has_depth) = (false, false, false);
    let mut currmove: Option<(String, u32)> = None;
    let mut words = rest.split_whitespace();
    while let Some(key) = words.next() {
        match key {
            "depth" => {
                f.depth = number(words.next()).unwrap_or(0);
                has_depth = true;
            }
            "seldepth" => f.seldepth = number(words.next()).unwrap_or(0),
            "multipv" => f.multipv = number(words.next()).unwrap_or(1),
            "score" => {
                let kind = words.next().unwrap_or("");
                if let Some(s) = number(words.next()).and_then(|v| score(kind, v)) {
                    f.score = s;
                    has_score = true;
                }
            }
            "wdl" => {
                let w: Option<u32> = number(words.next());
                let d: Option<u32> = number(words.next());
                let l: Option<u32> = number(words.next());
                if let (Some(w), Some(d), Some(l)) = (w, d, l) {
                    f.wdl = Some([w, d, l]);
                }
            }
            "time" => f.time = number(words.next()).unwrap_or(0),
            "nodes" => f.nodes = number(words.next()).unwrap_or(0),
            "nps" => {
                f.nps = number(words.next()).unwrap_or(0);
                has_nps = true;
            }
            "hashfull" => f.hashfull = number(words.next()).unwrap_or(0),
            "tbhits" => f.tbhits = number(words.next()),
            "currmove" => currmove = words.next().map(|m| (m.to_string(), 0)),
            "currmovenumber" => {
                if let Some(c) = currmove.as_mut() {
                    c.1 = number(words.next()).unwrap_or(0);
                }
            }
            "pv" => {
                f.pv = words.by_ref().map(str::to_string).collect();
            }
            _ => {}
        }
    }
    if let Some((mv, number)) = currmove {
        return EngineLine::CurrMove {
            depth: f.depth,
            mv,
            number,
        };
    }
    if has_score {
        return EngineLine::Info(f);
    }
    match (has_depth, has_nps) {
        (false, true) => EngineLine::Progress {
            time: f.time,
            nodes: f.nodes,
            nps: f.nps,
            hashfull: f.hashfull,
        },
        (false, false) => EngineLine::Final {
            time: f.time,
            nodes: f.nodes,
        },
        _ => EngineLine::Ignored,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_iteration_line_with_every_field() {
        let line = "info depth 12 seldepth 19 multipv 2 score cp -34 wdl 40 700 260 time 1520 \
                    nodes 2000000 nps 1315789 hashfull 87 tbhits 3 pv h2e2 h9g7 h0g2";
        let EngineLine::Info(f) = parse(line) else {
            panic!("not an info line: {line}");
        };
        assert_eq!(
            f,
            InfoFields {
                depth: 12,
                seldepth: 19,
                multipv: 2,
                score: Score {
                    kind: "cp",
                    value: -34
                },
                wdl: Some([40, 700, 260]),
                time: 1520,
                nodes: 2_000_000,
                nps: 1_315_789,
                hashfull: 87,
                tbhits: Some(3),
                pv: vec!["h2e2".into(), "h9g7".into(), "h0g2".into()],
            }
        );
    }

    #[test]
    fn mates_and_rule_wins() {
        let info = |l: &str| match parse(l) {
            EngineLine::Info(f) => f.score,
            other => panic!("{other:?}"),
        };
        let s = |kind, value| Score { kind, value };
        assert_eq!(
            info("info depth 5 seldepth 5 score mate -3 time 1 nodes 1 nps 1 hashfull 0 pv a0a1"),
            s("mate", -3)
        );
        // 29000 - 7 plies: a win by the repetition rules, not 28993 centipawns.
        assert_eq!(
            info("info depth 9 seldepth 9 score cp 28993 time 1 nodes 1 nps 1 hashfull 0"),
            s("rule", 7)
        );
        assert_eq!(
            info("info depth 9 seldepth 9 score cp -28990 time 1 nodes 1 nps 1 hashfull 0"),
            s("rule", -10)
        );
    }

    #[test]
    fn the_other_lines() {
        assert_eq!(
            parse("info time 3000 nodes 900 nps 300 hashfull 5"),
            EngineLine::Progress {
                time: 3000,
                nodes: 900,
                nps: 300,
                hashfull: 5
            }
        );
        assert_eq!(
            parse("info time 3000 nodes 900"),
            EngineLine::Final {
                time: 3000,
                nodes: 900
            }
        );
        assert_eq!(
            parse("info depth 20 currmove h2e2 currmovenumber 4"),
            EngineLine::CurrMove {
                depth: 20,
                mv: "h2e2".into(),
                number: 4
            }
        );
        assert_eq!(
            parse("bestmove h2e2 ponder h9g7"),
            EngineLine::BestMove {
                mv: Some("h2e2".into()),
                ponder: Some("h9g7".into())
            }
        );
        assert_eq!(
            parse("bestmove (none)"),
            EngineLine::BestMove {
                mv: None,
                ponder: None
            }
        );
        assert_eq!(
            parse("info string error: option Hash: 'x' is not a number in 1..16777216"),
            EngineLine::Error("option Hash: 'x' is not a number in 1..16777216".into())
        );
        assert_eq!(
            parse("info string large pages not available: no"),
            EngineLine::Message("large pages not available: no".into())
        );
        assert_eq!(parse("readyok"), EngineLine::Ignored);
        assert_eq!(parse("option name Hash type spin"), EngineLine::Ignored);
    }
}
