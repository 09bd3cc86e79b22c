//! The `pao` command line (clap): no subcommand starts the daemon; `perft` and `bench`.

use clap::{Args, Parser, Subcommand};
use pao::board::perft::{divide, perft};
use pao::board::{Position, START_FEN};
use std::time::Instant;

/// Pao, a xiangqi engine. With no command it is the engine daemon: it speaks UCCI, UCI or
/// CECP (xboard) on stdin/stdout, chosen by the first line (`ucci`, `uci` or `xboard`).
#[derive(Parser, Debug)]
#[command(name = "pao", version, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Count the leaves of the legal move tree (or check an EPD file of perft counts)
    Perft(PerftArgs),
    /// Search the bench positions to a fixed depth; the last line's node count is the
    /// search's signature
    Bench(BenchArgs),
}

#[derive(Args, Debug)]
struct PerftArgs {
    /// Depth in plies
    #[arg(value_name = "DEPTH", required_unless_present = "epd")]
    depth: Option<u32>,
    /// The position (default: the start position)
    #[arg(long, value_name = "FEN", default_value = START_FEN, hide_default_value = true)]
    fen: String,
    /// One line per root move with its count
    #[arg(long)]
    divide: bool,
    /// Check the lines `<fen> ;D1 <n> ;D2 <n> ...` of FILE instead
    #[arg(long, value_name = "FILE", conflicts_with_all = ["depth", "divide"])]
    epd: Option<String>,
    /// With --epd: skip depths beyond D
    #[arg(long = "max-depth", value_name = "D", requires = "epd", default_value_t = u32::MAX, hide_default_value = true)]
    max_depth: u32,
}

#[derive(Args, Debug)]
struct BenchArgs {
    /// Search depth (default 9; with --ablation 5)
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u32).range(1..=100))]
    depth: Option<u32>,
    /// Search threads
    #[arg(long, value_name = "T", value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: Option<u32>,
    /// Transposition table in MiB
    #[arg(long, value_name = "MB", value_parser = clap::value_parser!(u32).range(1..=(1 << 20)))]
    hash: Option<u32>,
    /// Positions file (one FEN a line, '#' comments) instead of the built-in list
    #[arg(long, value_name = "FILE")]
    fens: Option<String>,
    /// Helpers run the Lazy SMP depth stagger (the engine's SMPStagger; off by default)
    #[arg(long)]
    stagger: bool,
    /// Do not pin threads to cores
    #[arg(long = "no-pin")]
    no_pin: bool,
    /// Do not ask for large pages for the table
    #[arg(long = "no-large-pages")]
    no_large_pages: bool,
    /// Search with the enhancements added one at a time (plain alpha-beta to the full search)
    #[arg(long)]
    ablation: bool,
    /// Only the first N positions
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=10_000))]
    positions: Option<u32>,
    /// Evaluate with this net file (default: the default evaluation)
    #[arg(long, value_name = "FILE", conflicts_with = "hce")]
    evalfile: Option<String>,
    /// Evaluate with the hand-written evaluation
    #[arg(long)]
    hce: bool,
    /// Search switches flipped, as the SearchSwitches option takes them (e.g. "see,-iir")
    #[arg(long, value_name = "LIST", allow_hyphen_values = true)]
    switches: Option<String>,
}

/// Runs the command line; returns the process exit status.
pub fn run() -> i32 {
    let cli = Cli::parse();
    let result = match cli.command {
        None => return pao::coordinator::run_stdio(),
        Some(Command::Perft(a)) => perft_command(a),
        Some(Command::Bench(a)) => bench_command(a),
    };
    match result {
        Ok(()) => 0,
        Err(CliError::Failed) => 1,
        Err(CliError::Usage(msg)) => {
            eprintln!("error: {msg}");
            2
        }
    }
}

/// A command-line failure: bad input named on the command line (status 2) or a failed check
/// (status 1, already reported).
#[derive(Debug)]
pub enum CliError {
    /// Bad arguments or bad input data.
    Usage(String),
    /// The command ran and found a failure (already reported).
    Failed,
}

fn perft_command(args: PerftArgs) -> Result<(), CliError> {
    let (fen, show_divide, max_depth) = (args.fen, args.divide, args.max_depth);
    if let Some(path) = args.epd {
        return perft_epd(&path, max_depth);
    }
    let depth = args
        .depth
        .ok_or_else(|| CliError::Usage("perft needs a depth".to_string()))?;
    let mut pos =
        Position::from_fen(&fen).map_err(|e| CliError::Usage(format!("--fen '{fen}': {e}")))?;
    let start = Instant::now();
    let nodes = if show_divide {
        let rows = divide(&mut pos, depth.max(1));
        for (m, n) in &rows {
            println!("{m} {n}");
        }
        if depth == 0 {
            1
        } else {
            rows.iter().map(|(_, n)| n).sum()
        }
    } else {
        perft(&mut pos, depth)
    };
    let ms = start.elapsed().as_millis();
    let nps = (nodes as u128 * 1000) / ms.max(1);
    println!("nodes {nodes} time_ms {ms} nps {nps}");
    Ok(())
}

/// One EPD line: `<fen> ;D1 <n> ;D2 <n> ...`.
fn parse_epd_line(line: &str) -> Result<(String, Vec<(u32, u64)>), String> {
    let mut parts = line.split(';');
    let fen = parts.next().unwrap_or("").trim().to_string();
    let mut checks = Vec::new();
    for p in parts {
        let p = p.trim();
        if p.is_empty() {
            continue;
        }
        let mut words = p.split_whitespace();
        let tag = words.next().unwrap_or("");
        let d = tag
            .strip_prefix('D')
            .and_then(|d| d.parse::<u32>().ok())
            .ok_or_else(|| format!("bad depth tag '{tag}'"))?;
        let n = words
            .next()
            .and_then(|n| n.parse::<u64>().ok())
            .ok_or_else(|| format!("bad count after '{tag}'"))?;
        checks.push((d, n));
    }
    Ok((fen, checks))
}

fn perft_epd(path: &str, max_depth: u32) -> Result<(), CliError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError::Usage(format!("cannot read '{path}': {e}")))?;
    let (mut passed, mut failed) = (0u32, 0u32);
    for (lineno, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (fen, checks) = parse_epd_line(line)
            .map_err(|e| CliError::Usage(format!("{path}:{}: {e}", lineno + 1)))?;
        let mut pos = Position::from_fen(&fen)
            .map_err(|e| CliError::Usage(format!("{path}:{}: bad FEN: {e}", lineno + 1)))?;
        let mut ok = true;
        for (d, expected) in checks {
            if d > max_depth {
                continue;
            }
            let got = perft(&mut pos, d);
            if got != expected {
                println!("FAIL {fen} depth {d}: expected {expected}, got {got}");
                ok = false;
            }
        }
        if ok {
            passed += 1;
        } else {
            failed += 1;
        }
    }
    println!("perft-epd: {passed} passed, {failed} failed");
    if failed > 0 {
        Err(CliError::Failed)
    } else {
        Ok(())
    }
}

fn bench_command(args: BenchArgs) -> Result<(), CliError> {
    use pao::bench;
    let mut options = bench::BenchOptions::default();
    if let Some(d) = args.depth {
        options.depth = d;
    }
    if let Some(t) = args.threads {
        options.threads = t as usize;
    }
    if let Some(h) = args.hash {
        options.hash_mib = h as usize;
    }
    options.stagger = args.stagger;
    options.pin = !args.no_pin;
    options.large_pages = !args.no_large_pages;
    if let Some(path) = &args.evalfile {
        let net = pao::eval::nnue::Network::load(path).map_err(|e| CliError::Usage(e.0))?;
        options.network = Some(std::sync::Arc::new(net));
    }
    if args.hce {
        options.network = None;
    }
    if let Some(list) = &args.switches {
        options.config = options
            .config
            .with_switches(list)
            .map_err(CliError::Usage)?;
    }
    let fens_text = match &args.fens {
        Some(path) => std::fs::read_to_string(path)
            .map_err(|e| CliError::Usage(format!("cannot read '{path}': {e}")))?,
        None => bench::BENCH_FENS.to_string(),
    };
    let (ablation, positions, depth_given) = (
        args.ablation,
        args.positions.map(|n| n as usize),
        args.depth.is_some(),
    );
    let mut fens = bench::parse_fens(&fens_text);
    if let Some(n) = positions {
        fens.truncate(n);
    }
    if fens.is_empty() {
        return Err(CliError::Usage("no positions to bench".to_string()));
    }
    if ablation {
        let depth = if depth_given {
            options.depth
        } else {
            bench::ABLATION_DEPTH
        };
        println!(
            "ablation: {} positions, depth {depth}, 1 thread",
            fens.len()
        );
        println!(
            "{:<38} {:>14} {:>10} {:>12}",
            "search", "nodes", "time_ms", "vs alpha-beta"
        );
        let mut base: Option<u64> = None;
        bench::run_ablation(&fens, depth, options.hash_mib, &mut |r| {
            let b = *base.get_or_insert(r.nodes);
            println!(
                "{:<38} {:>14} {:>10} {:>11.1}x {}",
                r.name,
                r.nodes,
                r.time_ms,
                b as f64 / r.nodes.max(1) as f64,
                r.note
            );
        })
        .map_err(CliError::Usage)?;
        return Ok(());
    }
    let mut index = 0;
    let (nodes, ms) = bench::run(&fens, &options, &mut |l| {
        index += 1;
        println!(
            "position {index:>3} bestmove {:<5} score {:>6} nodes {:>10} time_ms {:>6}",
            l.best_move, l.score, l.nodes, l.time_ms
        )
    })
    .map_err(CliError::Usage)?;
    let nps = nodes as u128 * 1000 / ms.max(1);
    println!("bench: nodes {nodes} time_ms {ms} nps {nps}");
    Ok(())
}
