//! `pao-tools datagen`: self-play training data for the network, in process, one game per
//! thread, each move searched to a fixed node budget. See docs/data-format.md; `--shard` and
//! `datagen merge` spread one run over several machines (docs/cluster.md).

mod empties;
mod merge;
mod play;
pub mod record;
mod shard_log;
mod stats;
mod writer;

use crate::common::openings;
use crate::common::shard::Shard;
use crate::common::Failure;
use clap::Subcommand;
use pao::search::SearchConfig;
use play::{PlaySettings, Player};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use writer::OrderedWriter;

/// Nodes per move of self-play unless told otherwise: at equal CPU, data made at 2,500 nodes
/// a move trains a better net than at 5,000 (docs/strength-log.md, "Self-play at 2,500 nodes a move"). `generation`
/// and `generation decide` take the same default.
pub const DEFAULT_NODES: u64 = 2500;

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
    /// Merges the files of a run's shards (`--shard I/N`) into the file one run writes.
    Merge {
        /// The merged file (must not exist).
        #[arg(long)]
        out: String,
        /// The shards' data files, each with its log (FILE.shard) beside it; any order.
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
    #[arg(long, default_value_t = DEFAULT_NODES)]
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
    /// Start no game after this many seconds of this run (games under way finish).
    #[arg(long)]
    seconds: Option<u64>,
    /// Games are drawn after this many plies.
    #[arg(long, default_value_t = 400)]
    max_plies: u32,
    /// Table size per thread in MiB.
    #[arg(long, default_value_t = 16)]
    hash: usize,
    /// Evaluate with this net file; default: the engine's embedded net.
    #[arg(long, conflicts_with = "hce")]
    evalfile: Option<String>,
    /// Evaluate with the hand-written evaluation instead of a net.
    #[arg(long)]
    hce: bool,
    /// Seconds between progress lines when stderr is not a terminal.
    #[arg(long, default_value_t = 30)]
    report_every: u64,
    /// Play shard I of N: every N-th game from game I - 1 (needs --games, the whole run's);
    /// writes a log beside --out for `datagen merge`.
    #[arg(long, value_name = "I/N")]
    shard: Option<Shard>,
}

impl DatagenArgs {
    /// Whether it only prints a report or a listing (`main.rs` says what that changes).
    pub fn only_prints(&self) -> bool {
        matches!(self.command, Some(DatagenCommand::Stats { .. }))
    }
}

/// Entry point.
pub fn run(parsed: DatagenArgs) -> Result<(), Failure> {
    match parsed.command {
        Some(DatagenCommand::Stats { files }) => {
            print!("{}", stats::report(&files)?);
            Ok(())
        }
        Some(DatagenCommand::Merge { out, files }) => {
            eprintln!("{}", merge::merge(&out, &files)?);
            Ok(())
        }
        None => {
            if parsed.run.out.is_none() {
                return Err(Failure::Usage("--out FILE is required".into()));
            }
            if parsed.run.nodes == 0 {
                return Err(Failure::Usage("--nodes must be at least 1".into()));
            }
            if parsed.run.shard.is_some() {
                if parsed.run.games.is_none() {
                    return Err(Failure::Usage(
                        "--shard needs --games (the whole run's game count)".into(),
                    ));
                }
                if parsed.run.positions.is_some() {
                    return Err(Failure::Usage(
                        "--positions cannot be shared out: give --games with --shard".into(),
                    ));
                }
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
        network: network(args)?,
    };
    let writer = match args.shard {
        Some(shard) => OrderedWriter::open_shard(out, shard, &settings_line(args)?)?,
        None => OrderedWriter::open(out, &settings_line(args)?)?,
    };
    let first_game = writer.games();
    let start_positions = writer.positions();
    eprintln!(
        "datagen: {out}: {} games, {} positions already; seed {}, {} nodes/move, {threads} threads{}",
        first_game,
        start_positions,
        args.seed,
        args.nodes,
        args.shard
            .map(|s| format!(", shard {s}"))
            .unwrap_or_default()
    );
    // Games in the writer's order: the run's game numbers, or the shard's own (game
    // `shard.unit(k)` of the run is the shard's k-th).
    let game_index = |k: u64| args.shard.map_or(k, |s| s.unit(k));
    let target = args.games.map(|g| args.shard.map_or(g, |s| s.share(g)));
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
                    let local = next_game.fetch_add(1, Ordering::Relaxed);
                    if target.is_some_and(|g| local >= g) {
                        break;
                    }
                    let index = game_index(local);
                    match player.play(args.seed, index) {
                        Ok(game) => {
                            if let Err(e) = writer.submit(local, game) {
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
            if args
                .seconds
                .is_some_and(|s| started.elapsed() >= Duration::from_secs(s))
            {
                done.store(true, Ordering::Relaxed);
            }
            let finished =
                done.load(Ordering::Relaxed) || target.is_some_and(|g| writer.games() >= g);
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

/// The net the games are played with: `--evalfile`, else the embedded one; none with `--hce`.
fn network(args: &RunArgs) -> Result<Option<Arc<pao::eval::nnue::Network>>, String> {
    if args.hce {
        return Ok(None);
    }
    match &args.evalfile {
        Some(path) => Ok(Some(Arc::new(
            pao::eval::nnue::Network::load(path).map_err(|e| format!("{path}: {e}"))?,
        ))),
        None => pao::eval::nnue::embedded()
            .map(Some)
            .ok_or_else(|| "this build embeds no net: give --evalfile NET or --hce".to_string()),
    }
}

/// Everything that decides a shard's games besides the seed's game numbers, in the shard's
/// log: shards merge only when these agree. Files enter by their content's hash, so a path
/// may differ between machines.
fn settings_line(args: &RunArgs) -> Result<String, String> {
    let hash = |bytes: &[u8]| format!("fnv1a:{:016x}", pao::eval::nnue::file::fnv1a(bytes));
    let file_hash = |path: &Option<String>, none: &str| -> Result<String, String> {
        match path {
            Some(p) => Ok(hash(&std::fs::read(p).map_err(|e| format!("{p}: {e}"))?)),
            None => Ok(none.to_string()),
        }
    };
    // "none" is the hand-written evaluation (as in the logs of builds that defaulted to it);
    // the embedded net enters by the hash of its file, as `--evalfile` with its copy would.
    let evalfile = match (&args.evalfile, args.hce) {
        (_, true) => "none".to_string(),
        (Some(_), false) => file_hash(&args.evalfile, "none")?,
        (None, false) => hash(
            pao::eval::nnue::embedded_bytes()
                .ok_or("this build embeds no net: give --evalfile NET or --hce")?,
        ),
    };
    Ok(format!(
        "seed={} nodes={} depth={} random-plies={} max-plies={} hash={} openings={} evalfile={}",
        args.seed,
        args.nodes,
        args.depth.map_or("none".to_string(), |d| d.to_string()),
        args.random_plies,
        args.max_plies,
        args.hash,
        file_hash(&args.openings, "start")?,
        evalfile
    ))
}

/// The first error of any worker.
type FailureSlot = std::sync::Mutex<Option<String>>;

fn record_failure(slot: &FailureSlot, e: String) {
    if let Ok(mut s) = slot.lock() {
        s.get_or_insert(e);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        run: RunArgs,
    }

    fn run_args(line: &str) -> RunArgs {
        Cli::try_parse_from(std::iter::once("datagen").chain(line.split_whitespace()))
            .expect("valid arguments")
            .run
    }

    const DEFAULT_NET: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../src/eval/nnue/default.nnue");

    #[test]
    fn games_are_played_with_the_embedded_net_unless_told_otherwise() {
        let embedded = pao::eval::nnue::embedded().expect("the build embeds a net");
        let default = network(&run_args("--out x.bin")).expect("loads");
        assert_eq!(default.as_deref(), Some(&*embedded));
        assert_eq!(
            network(&run_args("--out x.bin --hce")).expect("loads"),
            None
        );
        let file = network(&run_args(&format!("--out x.bin --evalfile {DEFAULT_NET}")));
        assert_eq!(file.expect("loads").as_deref(), Some(&*embedded));
        assert!(Cli::try_parse_from(["datagen", "--hce", "--evalfile", "n.nnue"]).is_err());
        // A shard's log names the embedded net as a copy of its file given by --evalfile, and
        // the hand-written evaluation as "none", as earlier builds did.
        let named = settings_line(&run_args("--out x.bin")).expect("settings");
        let copy = settings_line(&run_args(&format!("--out x.bin --evalfile {DEFAULT_NET}")));
        assert_eq!(named, copy.expect("settings"));
        assert!(!named.ends_with("evalfile=none"), "{named}");
        let hce = settings_line(&run_args("--out x.bin --hce")).expect("settings");
        assert!(hce.ends_with("evalfile=none"), "{hce}");
    }
}
