//! `pao-tools mates run`: an engine process searches every row of a mate set under one `go`
//! command (by default `go movetime 3000`, an analysis of 3 s), with a new game before each; the
//! last score before `bestmove` is compared with the proven shortest mate, and the move with
//! the row's mating first moves. With `--defender` the other side is asked: after the row's
//! first mating move it is mated in exactly N - 1 moves, its longest resistance.

use super::set::{self, MateRow};
use crate::common::engine::default_engine;
use crate::common::process::{EngineError, EngineProcess};
use pao::board::{format_move, parse_move, Move, RankBase};
use pao::search::score::{MATE, MATE_BOUND};
use std::time::{Duration, Instant};

/// The dialect the engine is driven in.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Dialect {
    /// UCCI (`score` in points, mate = 30000 - plies).
    Ucci,
    /// UCI (`score mate M`).
    Uci,
}

/// `pao-tools mates run FILE`.
#[derive(clap::Args, Debug)]
pub struct RunArgs {
    /// The mate set
    file: String,
    /// The engine (default: `pao` beside pao-tools, else on PATH)
    #[arg(long, value_name = "PATH")]
    engine: Option<String>,
    /// The dialect
    #[arg(long, value_enum, default_value = "ucci")]
    protocol: Dialect,
    /// What follows `go` (`movetime 3000`: an analysis of 3 s, where mates are proven; a game's
    /// clock such as UCCI `time 3000` keeps the plain rule); `{moves}` stands for the row's
    /// mate length (`--go "mate {moves}"`)
    #[arg(long = "go", value_name = "ARGS", default_value = "movetime 3000")]
    go: String,
    /// Search threads
    #[arg(long, default_value_t = 1)]
    threads: u32,
    /// Table size in MiB
    #[arg(long, default_value_t = 64)]
    hash: u32,
    /// More options, NAME=VALUE (UCI names; for UCCI the name as the option is spelled)
    #[arg(long = "option", value_name = "NAME=VALUE")]
    options: Vec<String>,
    /// The engine numbers ranks from 1 (Fairy-Stockfish); Pao's default is 0
    #[arg(long)]
    ranks_from_one: bool,
    /// Only the first N rows
    #[arg(long, value_name = "N")]
    rows: Option<usize>,
    /// Search the defender's side instead: each row after its first mating move, where the
    /// side to move is mated in N - 1 moves at best (rows with N = 1 are skipped)
    #[arg(long)]
    defender: bool,
    /// Fail (exit status 1) unless every reported mate is the shortest
    #[arg(long)]
    require_all: bool,
}

/// What the engine answered for one row.
struct Answer {
    /// The last reported mate, in moves (positive: the side to move mates).
    mate: Option<i32>,
    best: Option<Move>,
    depth: u32,
    ms: u128,
}

/// Runs `mates run`.
pub fn run(args: &RunArgs) -> Result<(), String> {
    let mut rows = set::load(&args.file)?;
    rows.truncate(args.rows.unwrap_or(rows.len()));
    if args.defender {
        rows.retain(|r| r.moves > 1);
    }
    let rows = &rows[..];
    let path = args.engine.clone().unwrap_or_else(default_engine);
    let mut engine = start(&path, args).map_err(|e| format!("{path}: {e}"))?;
    let (mut shortest, mut mating_move) = (0, 0);
    let mut times = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let answer = ask(&mut engine, args, row).map_err(|e| format!("row {}: {e}", i + 1))?;
        let (want, good_move) = if args.defender {
            (1 - row.moves as i32, true)
        } else {
            let good = answer.best.is_some_and(|m| row.first_moves.contains(&m));
            (row.moves as i32, good)
        };
        let ok = answer.mate == Some(want);
        shortest += usize::from(ok);
        mating_move += usize::from(good_move);
        times.push(answer.ms);
        let mate = answer
            .mate
            .map_or("no mate".to_string(), |m| format!("mate {m}"));
        println!(
            "row {}: exact mate {want}, reported {mate} at depth {} in {} ms{}{}",
            i + 1,
            answer.depth,
            answer.ms,
            if ok { "" } else { "  WRONG" },
            if good_move {
                ""
            } else {
                "  (not a mating move)"
            },
        );
    }
    engine.shutdown();
    times.sort_unstable();
    let median = times.get(times.len() / 2).copied().unwrap_or(0);
    println!(
        "exact mate reported in {shortest} of {} rows; a mating first move in {mating_move}; \
         median time {median} ms (go {})",
        rows.len(),
        args.go
    );
    if args.require_all && shortest < rows.len() {
        return Err(format!(
            "{} rows without the shortest mate",
            rows.len() - shortest
        ));
    }
    Ok(())
}

fn start(engine: &str, args: &RunArgs) -> Result<EngineProcess, EngineError> {
    let mut e = EngineProcess::spawn("engine", engine, &[], None)?;
    let wait = Duration::from_secs(30);
    match args.protocol {
        Dialect::Ucci => {
            e.send("ucci")?;
            e.wait_for(wait, |l| l == "ucciok")?;
            e.send(&format!("setoption threads {}", args.threads))?;
            e.send(&format!("setoption hashsize {}", args.hash))?;
            e.send("setoption usebook false")?;
            for o in &args.options {
                let (name, value) = o.split_once('=').unwrap_or((o, ""));
                e.send(&format!("setoption {name} {value}"))?;
            }
        }
        Dialect::Uci => {
            e.send("uci")?;
            e.wait_for(wait, |l| l == "uciok")?;
            e.send(&format!("setoption name Threads value {}", args.threads))?;
            e.send(&format!("setoption name Hash value {}", args.hash))?;
            for o in &args.options {
                let (name, value) = o.split_once('=').unwrap_or((o, ""));
                e.send(&format!("setoption name {name} value {value}"))?;
            }
        }
    }
    e.send("isready")?;
    e.wait_for(wait, |l| l == "readyok")?;
    Ok(e)
}

fn ask(e: &mut EngineProcess, args: &RunArgs, row: &MateRow) -> Result<Answer, EngineError> {
    e.send(match args.protocol {
        Dialect::Ucci => "setoption newgame",
        Dialect::Uci => "ucinewgame",
    })?;
    e.send("isready")?;
    e.wait_for(Duration::from_secs(60), |l| l == "readyok")?;
    let base = if args.ranks_from_one {
        RankBase::One
    } else {
        RankBase::Zero
    };
    if args.defender {
        let first = format_move(row.first_moves[0], base);
        e.send(&format!("position fen {} moves {first}", row.fen))?;
    } else {
        e.send(&format!("position fen {}", row.fen))?;
    }
    let start = Instant::now();
    e.send(&format!(
        "go {}",
        args.go.replace("{moves}", &row.moves.to_string())
    ))?;
    let deadline = start + Duration::from_secs(600);
    let mut answer = Answer {
        mate: None,
        best: None,
        depth: 0,
        ms: 0,
    };
    loop {
        let line = e.recv_until(deadline)?;
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().copied() {
            Some("info") => {
                if let Some(score) = score_of(&words, args.protocol) {
                    answer.mate = score;
                    answer.depth = value_after(&words, "depth").unwrap_or(0) as u32;
                }
            }
            Some("bestmove") | Some("nobestmove") => {
                answer.ms = start.elapsed().as_millis();
                answer.best = words.get(1).and_then(|w| parse_move(w, base).ok());
                return Ok(answer);
            }
            _ => {}
        }
    }
}

/// The mate an info line reports: `Some(Some(moves))` for a mate (negative: the side to move
/// is mated), `Some(None)` for another score, `None` for a line without a score.
fn score_of(words: &[&str], dialect: Dialect) -> Option<Option<i32>> {
    let at = words.iter().position(|&w| w == "score")?;
    match dialect {
        Dialect::Uci => match words.get(at + 1).copied()? {
            "mate" => Some(words.get(at + 2)?.parse().ok()),
            _ => Some(None),
        },
        Dialect::Ucci => {
            let s: i32 = words.get(at + 1)?.parse().ok()?;
            Some(if s > MATE_BOUND {
                Some((MATE - s + 1) / 2)
            } else if s < -MATE_BOUND {
                Some(-(MATE + s) / 2)
            } else {
                None
            })
        }
    }
}

fn value_after(words: &[&str], key: &str) -> Option<u64> {
    let at = words.iter().position(|&w| w == key)?;
    words.get(at + 1)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_in_both_dialects() {
        fn w(s: &str) -> Vec<&str> {
            s.split_whitespace().collect()
        }
        let ucci = Dialect::Ucci;
        assert_eq!(
            score_of(&w("info depth 3 score 29995 pv"), ucci),
            Some(Some(3))
        );
        assert_eq!(
            score_of(&w("info depth 3 score -29994"), ucci),
            Some(Some(-3))
        );
        assert_eq!(score_of(&w("info depth 3 score 28999"), ucci), Some(None));
        assert_eq!(score_of(&w("info time 5 nodes 9"), ucci), None);
        let uci = Dialect::Uci;
        assert_eq!(score_of(&w("info score mate -2 pv"), uci), Some(Some(-2)));
        assert_eq!(score_of(&w("info score cp 40"), uci), Some(None));
    }
}
