//! `pao-tools fake-engine`: a scripted UCCI/UCI engine for tests. It plays pseudo-random legal
//! moves (a fixed function of the position and the seed) or misbehaves on purpose.

use crate::common::Failure;
use pao::board::{format_move, Position, RankBase, START_FEN};
use std::io::{BufRead, Write};

/// How the fake engine misbehaves once its `--after` normal moves are used up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Behaviour {
    Random,
    Illegal,
    Crash,
    Hang,
    Garbage,
    #[value(name = "nobestmove")]
    NoBestMove,
    Slow,
}

/// The dialect the fake engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Proto {
    Ucci,
    Uci,
}

/// `pao-tools fake-engine`: a scripted engine for tests. Random legal moves (a fixed function
/// of position and seed) for the first N moves, then the chosen misbehaviour.
#[derive(clap::Args, Debug)]
pub struct FakeArgs {
    /// Dialect
    #[arg(long, value_enum, default_value = "ucci")]
    proto: Proto,
    /// What to do once the normal moves are used up
    #[arg(long, alias = "behavior", value_enum, default_value = "random")]
    behaviour: Behaviour,
    /// Normal moves before the misbehaviour
    #[arg(long, value_name = "N", default_value_t = 0)]
    after: u64,
    /// Delay of a `slow` move
    #[arg(long = "delay-ms", value_name = "MS", default_value_t = 0)]
    delay_ms: u64,
    /// Seed of the move choice
    #[arg(long, value_name = "S", default_value_t = 0)]
    seed: u64,
    /// Advertise UCI_Variant (moves with ranks 1-10 once it is set)
    #[arg(long)]
    variant: bool,
    /// Do not advertise usemillisec (UCCI)
    #[arg(long = "no-millisec")]
    no_millisec: bool,
    /// Offer the search parameters' options as a `tune` build of Pao does; the values set
    /// change the move choice (so that `pao-tools tune` sees different players)
    #[arg(long = "tune-options")]
    tune_options: bool,
}

fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Parses `position {startpos | fen F} [moves ...]`; None when anything is wrong.
fn parse_position(line: &str, base: RankBase) -> Option<Position> {
    let rest = line.strip_prefix("position")?.trim();
    let (setup, moves) = match rest.split_once(" moves") {
        Some((s, m)) => (s.trim(), m),
        None => (rest, ""),
    };
    let fen = if setup == "startpos" {
        START_FEN
    } else {
        setup.strip_prefix("fen")?.trim()
    };
    let mut pos = Position::from_fen(fen).ok()?;
    for t in moves.split_whitespace() {
        let m = pos.parse_legal_move(t, base).ok()?;
        pos.make_move(m);
    }
    Some(pos)
}

/// Runs the fake engine on stdin/stdout.
pub fn run(f: FakeArgs) -> Result<(), Failure> {
    let uci = f.proto == Proto::Uci;
    let millisec = !f.no_millisec;
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    let mut say = |s: &str| {
        let _ = writeln!(out, "{s}");
        let _ = out.flush();
    };
    let mut base = RankBase::Zero;
    let mut pos = Position::startpos();
    let mut goes = 0u64;
    let mut hung = false;
    // With --tune-options: the sum of the parameters set so far, mixed into the move choice.
    let mut tuned = 0u64;
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let line = line.trim();
        if hung {
            continue;
        }
        match line.split_whitespace().next().unwrap_or("") {
            "ucci" if !uci => {
                say("id name FakeUcci");
                if millisec {
                    say("option usemillisec type check default true");
                }
                if f.tune_options {
                    pao::search::params::ucci_lines()
                        .iter()
                        .for_each(|l| say(l));
                }
                say("ucciok");
            }
            "uci" if uci => {
                say("id name FakeUci");
                if f.variant {
                    say("option name UCI_Variant type combo default xiangqi var xiangqi");
                }
                if f.tune_options {
                    pao::search::params::uci_lines().iter().for_each(|l| say(l));
                }
                say("uciok");
            }
            "setoption" if f.tune_options => {
                let value = line.split_whitespace().last().unwrap_or("");
                let named = pao::search::params::PARAMS.iter().any(|p| {
                    line.split_whitespace()
                        .any(|w| w.eq_ignore_ascii_case(p.name))
                });
                if let (true, Ok(v)) = (named, value.parse::<i64>()) {
                    tuned = tuned.wrapping_add(v as u64);
                }
                if f.variant && line.contains("UCI_Variant") {
                    base = RankBase::One;
                }
            }
            "setoption" if f.variant && line.contains("UCI_Variant") => base = RankBase::One,
            "isready" => say("readyok"),
            "position" => match parse_position(line, base) {
                Some(p) => pos = p,
                None => say("info string error: bad position"),
            },
            "go" => {
                goes += 1;
                let act = if goes > f.after {
                    f.behaviour
                } else {
                    Behaviour::Random
                };
                let legal = pos.legal_moves();
                match act {
                    Behaviour::Crash => std::process::exit(3),
                    Behaviour::Hang => hung = true,
                    Behaviour::Garbage => {
                        say("%%% not a protocol line %%%");
                        say("bestmove zz99");
                    }
                    Behaviour::NoBestMove => {
                        say(if uci { "bestmove (none)" } else { "nobestmove" })
                    }
                    Behaviour::Illegal => {
                        // A well-formed move that is not legal here: the first such square pair.
                        let bad = pao::board::Square::all()
                            .flat_map(|a| pao::board::Square::all().map(move |b| (a, b)))
                            .map(|(a, b)| pao::board::Move::new(a, b))
                            .find(|&m| m.from() != m.to() && !pos.is_legal(m));
                        if let Some(m) = bad {
                            say(&format!("bestmove {}", format_move(m, base)));
                        }
                    }
                    Behaviour::Random | Behaviour::Slow => {
                        if act == Behaviour::Slow {
                            std::thread::sleep(std::time::Duration::from_millis(f.delay_ms));
                        }
                        if legal.is_empty() {
                            say(if uci { "bestmove (none)" } else { "nobestmove" });
                        } else {
                            let tuned_mix = if tuned == 0 { 0 } else { mix(tuned) };
                            let m = legal[(mix(pos.key() ^ f.seed ^ tuned_mix) % legal.len() as u64)
                                as usize];
                            let score = (mix(pos.key()) % 41) as i64 - 20;
                            let text = format_move(m, base);
                            if uci {
                                say(&format!("info depth 1 score cp {score} nodes 1 pv {text}"));
                            } else {
                                say(&format!(
                                    "info depth 1 score {score} time 0 nodes 1 pv {text}"
                                ));
                            }
                            say(&format!("bestmove {text}"));
                        }
                    }
                }
            }
            "quit" => {
                if !uci {
                    say("bye");
                }
                break;
            }
            _ => {}
        }
    }
    Ok(())
}
