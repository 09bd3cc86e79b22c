//! `pao-tools datagen`: self-play training data for the network, in process, one game per
//! thread, each move searched to a fixed node budget. See docs/data-format.md.

mod play;
pub mod record;
mod stats;
mod writer;

use crate::r#match::openings;
use crate::Failure;
use clap::Subcommand;
use pao::search::SearchConfig;
use play::{PlaySettings, Player};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use writer::OrderedWriter;

/// Generate self-play training positions, or summarise a data file.
#[derive(clap::Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct DatagenArgs {
    #[command(subcommand)]
    command: Option<DatagenCommand>,
    #[command(flatten)]
    run: RunArgs,
}

#[derive(Subcommand, Debug)]
enum DatagenCommand {
    /// Positions, games, results, score histogram and distinct positions of data files.
    Stats {
        /// Data files.
        #[arg(required = true)]
        files: Vec<String>,
    },
}

/// Options of a generation run.
#[derive(clap::Args, Debug, Clone)]
pub struct RunArgs {
    /// Output file; appended to (and continued from) when it exists.
    #[arg(long)]
    out: Option<String>,
    /// Worker threads, one game each (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Nodes per move.
    #[arg(long, default_value_t = 5000)]
    nodes: u64,
    /// Depth per move (in addition to the node budget).
    #[arg(long)]
    depth: Option<u32>,
    /// Openings file (FENs or move lines); default: the start position.
    #[arg(long)]
    openings: Option<String>,
    /// Random legal moves played after the opening.
    #[arg(long, default_value_t = 8)]
    random_plies: u32,
    /// Seed of the run (games are numbered; game g uses its own stream from the seed).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Stop after this many games in the file (default: run until interrupted).
    #[arg(long)]
    games: Option<u64>,
    /// Stop once the file holds this many positions.
    #[arg(long)]
    positions: Option<u64>,
    /// Games are drawn after this many plies.
    #[arg(long, default_value_t = 400)]
    max_plies: u32,
    /// Table size per thread in MiB.
    #[arg(long, default_value_t = 16)]
    hash: usize,
    /// Evaluate with this net file (a later generation); default: the hand-written evaluation.
    #[arg(long)]
    evalfile: Option<String>,
    /// Seconds between progress lines when stderr is not a terminal.
    #[arg(long, default_value_t = 30)]
    report_every: u64,
}

/// Entry point.
pub fn run(parsed: DatagenArgs) -> Result<(), Failure> {
    match parsed.command {
        Some(DatagenCommand::Stats { files }) => {
            print!("{}", stats::report(&files)?);
            Ok(())
        }
        None => {
            if parsed.run.out.is_none() {
                return Err(Failure::Usage("--out FILE is required".into()));
            }
            if parsed.run.nodes == 0 {
                return Err(Failure::Usage("--nodes must be at least 1".into()));
            }
            Ok(generate(&parsed.run)?)
        }
    }
}

fn generate(args: &RunArgs) -> Result<(), String> {
    let out = args.out.as_deref().ok_or("--out FILE is required")?;
    if args.nodes == 0 {
        return Err("--nodes must be at least 1".into());
    }
    let threads = args.threads.unwrap_or_else(num_cpus::get).max(1);
    let openings = match &args.openings {
        Some(path) => openings::load(Some(path))?,
        None => Vec::new(),
    };
    let settings = PlaySettings {
        nodes: args.nodes,
        depth: args.depth.unwrap_or(100),
        random_plies: args.random_plies,
        openings,
        max_plies: args.max_plies,
        config: SearchConfig::FULL,
        network: match &args.evalfile {
            Some(path) => Some(Arc::new(
                pao::eval::nnue::Network::load(path).map_err(|e| e.0)?,
            )),
            None => None,
        },
    };
    let writer = OrderedWriter::open(out)?;
    let first_game = writer.games();
    let start_positions = writer.positions();
    eprintln!(
        "datagen: {out}: {} games, {} positions already; seed {}, {} nodes/move, {threads} threads",
        first_game, start_positions, args.seed, args.nodes
    );
    let next_game = AtomicU64::new(first_game);
    let done = AtomicBool::new(false);
    let writer = Arc::new(writer);
    let started = Instant::now();
    let failure: FailureSlot = std::sync::Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let (settings, writer, next_game, done, failure) = (
                settings.clone(),
                writer.clone(),
                &next_game,
                &done,
                &failure,
            );
            scope.spawn(move || {
                let mut player = match Player::new(settings, args.hash) {
                    Ok(p) => p,
                    Err(e) => {
                        record_failure(failure, e);
                        done.store(true, Ordering::Relaxed);
                        return;
                    }
                };
                while !done.load(Ordering::Relaxed) {
                    let index = next_game.fetch_add(1, Ordering::Relaxed);
                    if args.games.is_some_and(|g| index >= g) {
                        break;
                    }
                    match player.play(args.seed, index) {
                        Ok(game) => {
                            if let Err(e) = writer.submit(index, game) {
                                record_failure(failure, e);
                                done.store(true, Ordering::Relaxed);
                            }
                        }
                        Err(e) => {
                            record_failure(failure, format!("game {index}: {e}"));
                            done.store(true, Ordering::Relaxed);
                        }
                    }
                    if args.positions.is_some_and(|p| writer.positions() >= p) {
                        done.store(true, Ordering::Relaxed);
                    }
                }
            });
        }
        let mut last = Instant::now();
        let interactive = std::io::IsTerminal::is_terminal(&std::io::stderr());
        let every = Duration::from_secs(args.report_every.max(1));
        loop {
            std::thread::sleep(Duration::from_millis(200));
            let finished =
                done.load(Ordering::Relaxed) || args.games.is_some_and(|g| writer.games() >= g);
            if interactive {
                eprint!("\r{}   ", writer.progress(start_positions, started));
            } else if last.elapsed() >= every && !finished {
                eprintln!("{}", writer.progress(start_positions, started));
                last = Instant::now();
            }
            if finished {
                break;
            }
        }
    });
    if std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        eprintln!();
    }
    eprintln!("{}", writer.progress(start_positions, started));
    let failed = failure.lock().ok().and_then(|f| f.clone());
    match failed {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// The first error of any worker.
type FailureSlot = std::sync::Mutex<Option<String>>;

fn record_failure(slot: &FailureSlot, e: String) {
    if let Ok(mut s) = slot.lock() {
        s.get_or_insert(e);
    }
}
