//! `pao-tools generation decide`: the decision of a generation whose stages ran elsewhere, as
//! separate jobs (the Slurm pipeline of docs/cluster.md): self-play data, a trained candidate
//! and the merged report of the SPRT against the current net. The same rule and files as
//! `pao-tools generation` (decision.rs): when the SPRT accepts, `accepted.nnue` and `row.md`;
//! either way `state.txt` records the generation and its decision.

use super::decision::{self, Facts};
use super::state::State;
use super::window;
use crate::common::Failure;
use std::path::{Path, PathBuf};

/// Decide a generation from its files.
#[derive(clap::Args, Debug)]
pub struct DecideArgs {
    /// The generation's directory: state.txt, and accepted.nnue and row.md when it accepts.
    #[arg(long)]
    dir: PathBuf,
    /// The current net the generation started from: a net file, or `embedded`.
    #[arg(long, default_value = "embedded")]
    net: String,
    /// This generation's self-play data.
    #[arg(long)]
    data: PathBuf,
    /// Earlier data files the candidate was trained on besides --data.
    #[arg(long, num_args = 1..)]
    window: Vec<PathBuf>,
    /// The trained net.
    #[arg(long)]
    candidate: PathBuf,
    /// The SPRT's report (what `pao-tools match merge ... --sprt` prints); its result line
    /// decides.
    #[arg(long)]
    sprt_report: PathBuf,
    /// Nodes per move of the self-play.
    #[arg(long, default_value_t = crate::datagen::DEFAULT_NODES)]
    nodes: u64,
    /// Seed of the self-play (default: from the current net's checksum, as `generation` takes it).
    #[arg(long)]
    seed: Option<u64>,
    /// Training epochs.
    #[arg(long, default_value_t = 8)]
    epochs: usize,
    /// The SPRT's clock.
    #[arg(long, default_value = "3+0.03")]
    sprt_tc: String,
    /// Nodes per move of the SPRT, when it was played at fixed nodes instead of a clock.
    #[arg(long)]
    sprt_nodes: Option<u64>,
    /// Minutes the self-play took (for the row).
    #[arg(long)]
    data_minutes: Option<f64>,
    /// Minutes the training took (for the row).
    #[arg(long)]
    train_minutes: Option<f64>,
}

/// The last `result:` line of a match report.
fn result_line(report: &Path) -> Result<decision::Outcome, String> {
    let text = std::fs::read_to_string(report).map_err(|e| format!("{}: {e}", report.display()))?;
    let line = text
        .lines()
        .rev()
        .find(|l| l.starts_with("result:"))
        .ok_or_else(|| format!("{}: no result line", report.display()))?;
    let result = decision::outcome(line)
        .ok_or_else(|| format!("{}: not a result line: {line}", report.display()))?;
    if result.sprt == "off" {
        return Err(format!(
            "{}: the report has no SPRT (merge the match with --sprt)",
            report.display()
        ));
    }
    Ok(result)
}

/// Entry point.
pub fn run(args: DecideArgs) -> Result<(), Failure> {
    for (name, minutes) in [
        ("--data-minutes", args.data_minutes),
        ("--train-minutes", args.train_minutes),
    ] {
        if minutes.is_some_and(|m| !(m >= 0.0 && m.is_finite())) {
            return Err(Failure::Usage(format!("{name} must be 0 or more")));
        }
    }
    let checksum = super::checksum(&args.net)?;
    let seed = args.seed.unwrap_or(super::default_seed(checksum));
    let result = result_line(&args.sprt_report)?;
    let mut window = Vec::new();
    for path in std::iter::once(&args.data).chain(&args.window) {
        window.push(format!("{}={}", path.display(), window::positions(path)?));
    }
    let data_positions = window::positions(&args.data)?;
    std::fs::create_dir_all(&args.dir).map_err(|e| format!("{}: {e}", args.dir.display()))?;
    let mut state = State::load(&args.dir)?;
    state.set("net", format!("{} {checksum:016x}", args.net))?;
    state.set("data_positions", data_positions)?;
    state.set("window", window.join(","))?;
    for (key, minutes) in [
        ("data_seconds", args.data_minutes),
        ("train_seconds", args.train_minutes),
    ] {
        if let Some(m) = minutes {
            state.set(key, format!("{:.3}", m * 60.0))?;
        }
    }
    let limit = decision::sprt_limit(args.sprt_nodes, &args.sprt_tc);
    let (line, rejected) = decision::sprt(&result, &limit);
    println!("generation: sprt: {line}");
    state.set("sprt", &line)?;
    let accepted = args.dir.join("accepted.nnue");
    let row = args.dir.join("row.md");
    let decision = match rejected {
        Some(decision) => {
            // A decision made again replaces the files of an earlier one.
            for stale in [&accepted, &row] {
                match std::fs::remove_file(stale) {
                    Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                        return Err(format!("{}: {e}", stale.display()).into())
                    }
                    _ => {}
                }
            }
            decision
        }
        None => {
            let get = |k: &str| state.get(k).unwrap_or("-").to_string();
            let facts = Facts {
                net: args.net.clone(),
                checksum,
                seed,
                nodes: args.nodes,
                data_positions: data_positions.to_string(),
                data_minutes: state.number("data_seconds") / 60.0,
                window: get("window"),
                epochs: args.epochs,
                train_minutes: state.number("train_seconds") / 60.0,
                screen: get("screen"),
                sprt: line,
            };
            let path = decision::accept(&args.dir, &args.candidate, &facts)?;
            format!("accepted: {}", path.display())
        }
    };
    state.set("decision", &decision)?;
    println!("generation: decided: {decision}");
    if accepted.exists() {
        println!(
            "generation: row for the generations table: {}",
            row.display()
        );
    }
    Ok(())
}
