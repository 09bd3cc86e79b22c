//! `pao-tools generation`: one generation of the network end to end within a time budget.
//! Self-play data from the current net, training warm-started from it on this data and on
//! whatever data of earlier generations is still on the machine, a fixed-node screen, the SPRT
//! against the current net, and, when the SPRT accepts, the new net with its provenance and a
//! row for the generations table (docs/strength-log.md).
//!
//! Every stage keeps its result in the generation's directory (`DIR/gen-CHECKSUM/`, named by
//! the current net's checksum, holding that net's bytes as `current.nnue`, which every stage
//! plays and trains with) and records what it did, its settings and the time it spent in
//! `state.txt`, so running the same command again continues where the last run stopped:
//! datagen appends to its file, training resumes from its last checkpoint, matches from their
//! results files. One run at a time (a lock), children stopped with it (SIGTERM, SIGINT),
//! and `--retry` starts a new attempt of the same generation on its data.
//!
//! `generation decide` is the decision alone, for a generation whose stages ran elsewhere (the
//! Slurm pipeline of docs/cluster.md), `generation seed` prints the self-play seed a
//! generation takes by default, and `generation match-args` the arguments of its matches.

mod attempt;
mod child;
mod decide;
mod decision;
mod pairing;
mod settings;
mod stages;
mod state;
mod window;

use crate::common::signals;
use crate::common::Failure;
use crate::train::init;
use clap::Subcommand;
use std::path::{Path, PathBuf};

/// Environment variable naming the data directory (overrides the default).
pub const DATA_DIR_VAR: &str = "PAO_DATA_DIR";

/// Run one generation of the network, or decide one whose stages ran elsewhere.
#[derive(clap::Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct GenerationCli {
    #[command(subcommand)]
    command: Option<GenerationCommand>,
    #[command(flatten)]
    run: GenerationArgs,
}

#[derive(Subcommand, Debug)]
enum GenerationCommand {
    /// Decides a generation from its files (data, trained net, the SPRT's merged report) with
    /// the rule of `pao-tools generation`, and writes accepted.nnue and row.md when it accepts.
    Decide(Box<decide::DecideArgs>),
    /// Prints the self-play seed a generation from NET takes by default (from its checksum).
    Seed {
        /// The current net: a net file, or `embedded`.
        #[arg(long, default_value = "embedded")]
        net: String,
    },
    /// Writes the bytes of the current net NET (a net file, or `embedded`) to OUT, atomically:
    /// the file every stage of a generation plays and trains with.
    WriteNet {
        /// The current net: a net file, or `embedded`.
        #[arg(long, default_value = "embedded")]
        net: String,
        /// The file to write.
        #[arg(long)]
        out: PathBuf,
    },
    /// Prints the `pao-tools match` arguments of the screen's and the SPRT's pairing (engines,
    /// options, openings, adjudication), one per line, for scripts that play them elsewhere.
    MatchArgs {
        /// The engine program both sides run.
        #[arg(long)]
        engine: String,
        /// The candidate net file.
        #[arg(long)]
        candidate: String,
        /// The current net's file: the generation's current.nnue (`write-net` writes it).
        #[arg(long)]
        net: String,
        /// Table size of each engine, MiB.
        #[arg(long, default_value_t = 16)]
        hash: usize,
        /// The openings file.
        #[arg(long)]
        openings: String,
    },
}

/// Run one generation of the network: data, training, screen, SPRT, the new net.
#[derive(clap::Args, Debug, Clone)]
pub struct GenerationArgs {
    /// The whole generation's time budget in minutes, over every run of the command.
    #[arg(long, default_value_t = 150.0)]
    pub minutes: f64,
    /// Data directory (default: $PAO_DATA_DIR, else $XDG_DATA_HOME/pao, else ~/.local/share/pao).
    #[arg(long)]
    pub dir: Option<PathBuf>,
    /// The current net: a net file, or `embedded` for the engine's own.
    #[arg(long, default_value = "embedded")]
    pub net: String,
    /// The engine for the matches (default: the `pao` beside this program, else on PATH).
    #[arg(long)]
    pub engine: Option<PathBuf>,
    /// Threads for datagen and training, games at once in the matches (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Nodes per move in self-play.
    #[arg(long, default_value_t = crate::datagen::DEFAULT_NODES)]
    pub nodes: u64,
    /// Seed of the self-play games (default: from the current net's checksum, so that each
    /// generation plays new games).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Share of the budget spent on self-play data.
    #[arg(long, default_value_t = 0.45)]
    pub data_share: f64,
    /// Stop self-play once this generation's file holds this many positions.
    #[arg(long)]
    pub data_positions: Option<u64>,
    /// Earlier data to train on too (data files, e.g. unpacked data packs), after this
    /// generation's data and before the data of other generations in the directory.
    #[arg(long, num_args = 1..)]
    pub window: Vec<PathBuf>,
    /// Most positions in the training window (whole files are added while below it).
    #[arg(long, default_value_t = 10_000_000)]
    pub window_positions: u64,
    /// Most earlier data files in the window, newest first (data played by nets two
    /// generations back made a weaker net; 0: this generation's data alone).
    #[arg(long, default_value_t = 1)]
    pub window_files: usize,
    /// Hidden neurons of the new net (default: the current net's; more widens it).
    #[arg(long)]
    pub hidden: Option<usize>,
    /// Training epochs.
    #[arg(long, default_value_t = 8)]
    pub epochs: usize,
    /// Training's learning rate (AdamW's, before the schedule). A warm start's rate: the
    /// trainer's 0.001 from scratch reached a lower validation loss from a warm start but a
    /// net that played weaker, in generations 2 and 5 (docs/strength-log.md).
    #[arg(long, default_value_t = 0.0003)]
    pub lr: f32,
    /// Training's warm-up: batches over which the rate climbs from 0 to --lr.
    #[arg(long, default_value_t = 0)]
    pub warmup: u64,
    /// Training's decoupled weight decay. A warm start's: the trainer's 0.3 (for nets from
    /// random weights) pulls every weight toward zero at each batch, so that a warm start
    /// forgot its parent; on generation 6's window 0.03 beat 0.01 by +17.2 at 10,000 nodes a
    /// move, and 0.01 beat 0.3 (docs/strength-log.md).
    #[arg(long, default_value_t = 0.03)]
    pub weight_decay: f32,
    /// Games of the fixed-node screen (0: no screen).
    #[arg(long, default_value_t = 200)]
    pub screen_games: u64,
    /// Nodes per move in the screen.
    #[arg(long, default_value_t = 10_000)]
    pub screen_nodes: u64,
    /// The SPRT's clock.
    #[arg(long, default_value = "3+0.03")]
    pub sprt_tc: String,
    /// Nodes per move in the SPRT instead of a clock (for tests and quick trials).
    #[arg(long)]
    pub sprt_nodes: Option<u64>,
    /// Most games of the SPRT in one run: still undecided after them, the SPRT waits, and the
    /// next run of the command continues it from its results file.
    #[arg(long, default_value_t = 3000)]
    pub sprt_games: u64,
    /// Reject the candidate when the SPRT is still undecided after this many games in all (by
    /// default an undecided SPRT continues run after run until its LLR crosses a bound).
    #[arg(long)]
    pub sprt_cap: Option<u64>,
    /// The SPRT's hypotheses, as `pao-tools match --sprt` takes them (normalised Elo).
    #[arg(long, default_value = "elo0=0 elo1=10")]
    pub sprt: String,
    /// Table size of each engine in the matches, MiB.
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    /// Seconds between progress lines.
    #[arg(long, default_value_t = 60)]
    pub report_every: u64,
    /// Start a new attempt of this generation: training, screen and SPRT afresh, with this
    /// run's settings, on the data already played (after a rejection, or to change settings).
    #[arg(long)]
    pub retry: bool,
}

/// The data directory: `--dir`, else $PAO_DATA_DIR, else $XDG_DATA_HOME/pao, else
/// ~/.local/share/pao.
pub fn data_dir(given: Option<&Path>) -> Result<PathBuf, String> {
    if let Some(d) = given {
        return Ok(d.to_path_buf());
    }
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    if let Some(d) = var(DATA_DIR_VAR) {
        return Ok(PathBuf::from(d));
    }
    if let Some(d) = var("XDG_DATA_HOME") {
        return Ok(PathBuf::from(d).join("pao"));
    }
    var("HOME")
        .map(|h| PathBuf::from(h).join(".local/share/pao"))
        .ok_or_else(|| format!("no data directory: give --dir DIR or set {DATA_DIR_VAR}"))
}

/// The engine beside this program (as `cargo install` and `cargo build` place them), else
/// `pao` from PATH.
fn default_engine() -> PathBuf {
    let beside = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(|d| d.join("pao")))
        .filter(|p| p.is_file());
    beside.unwrap_or_else(|| PathBuf::from("pao"))
}

/// The body checksum of the net `net` names (a file, or `embedded`): the checksum its file's
/// header carries (bytes 40-48), which names a generation's directory.
pub fn checksum(net: &str) -> Result<u64, String> {
    Ok(body_checksum(&init::load(net)?.to_bytes()))
}

/// The body checksum in a net file's bytes (0 for bytes too short to hold one).
pub fn body_checksum(bytes: &[u8]) -> u64 {
    bytes
        .get(40..48)
        .and_then(|c| c.try_into().ok())
        .map_or(0, u64::from_le_bytes)
}

/// The self-play seed of a generation from the net with this checksum, unless one is given:
/// each generation plays new games.
pub fn default_seed(checksum: u64) -> u64 {
    checksum & 0xffff_ffff
}

impl GenerationCli {
    /// Whether it only prints a report or a listing (`main.rs` says what that changes).
    pub fn only_prints(&self) -> bool {
        match self.command {
            Some(GenerationCommand::Seed { .. } | GenerationCommand::MatchArgs { .. }) => true,
            Some(GenerationCommand::Decide(_) | GenerationCommand::WriteNet { .. }) | None => false,
        }
    }
}

/// Entry point.
pub fn run(cli: GenerationCli) -> Result<(), Failure> {
    match cli.command {
        Some(GenerationCommand::Decide(args)) => decide::run(*args),
        Some(GenerationCommand::Seed { net }) => {
            println!("{}", default_seed(checksum(&net)?));
            Ok(())
        }
        Some(GenerationCommand::WriteNet { net, out }) => {
            let bytes = init::load(&net)?.to_bytes();
            crate::common::atomic::write(&out, &bytes)?;
            println!(
                "{} (body checksum {:016x})",
                out.display(),
                body_checksum(&bytes)
            );
            Ok(())
        }
        Some(GenerationCommand::MatchArgs {
            engine,
            candidate,
            net,
            hash,
            openings,
        }) => Ok(pairing::print(&pairing::Pairing {
            engine: &engine,
            candidate: &candidate,
            net: &net,
            hash,
            openings: &openings,
        })?),
        None => run_generation(cli.run),
    }
}

fn run_generation(args: GenerationArgs) -> Result<(), Failure> {
    if !(args.minutes > 0.0 && args.minutes.is_finite()) {
        return Err(Failure::Usage(format!(
            "--minutes {} must be positive",
            args.minutes
        )));
    }
    if !(0.0..=1.0).contains(&args.data_share) {
        return Err(Failure::Usage(format!(
            "--data-share {} is not between 0 and 1",
            args.data_share
        )));
    }
    if !(args.lr > 0.0 && args.lr.is_finite() && (0.0..1.0).contains(&args.weight_decay)) {
        return Err(Failure::Usage(
            "--lr must be positive and --weight-decay in [0, 1)".into(),
        ));
    }
    if args.nodes == 0 || args.epochs == 0 || args.sprt_games == 0 || args.sprt_cap == Some(0) {
        return Err(Failure::Usage(
            "--nodes, --epochs, --sprt-games and --sprt-cap must be at least 1".into(),
        ));
    }
    let dir = data_dir(args.dir.as_deref()).map_err(Failure::Usage)?;
    let engine = args.engine.clone().unwrap_or_else(default_engine);
    let program = std::env::current_exe().map_err(|e| format!("cannot find pao-tools: {e}"))?;
    signals::install();
    stages::Generation::open(args, dir, engine, program)?.run()?;
    // The state is saved and the lock released: a stop by a signal still reads as one.
    match signals::stopped_by() {
        Some(signal) => Err(Failure::Interrupted(signal)),
        None => Ok(()),
    }
}
