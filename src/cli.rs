//! Command-line subcommands: `perft`, `bench`, `help`, and the daemon when there are none.

use pao::board::perft::{divide, perft};
use pao::board::{Position, START_FEN};
use std::time::Instant;

const USAGE: &str =
    "usage: pao                     start the engine daemon (UCCI/UCI on stdin/stdout)
       pao perft <depth> [--fen FEN] [--divide]
       pao perft --epd FILE [--max-depth D]
       pao bench [--depth D] [--threads T] [--hash MB] [--fens FILE] [--no-stagger] [--no-pin]
       pao bench --ablation [--depth D] [--positions N] [--fens FILE]
       pao help";

/// Runs the command line; returns the process exit status.
pub fn run(args: &[String]) -> i32 {
    let result = match args.first().map(String::as_str) {
        None => return pao::coordinator::run_stdio(),
        Some("perft") => perft_command(&args[1..]),
        Some("bench") => bench_command(&args[1..]),
        Some("help") | Some("--help") | Some("-h") => {
            println!("{USAGE}");
            Ok(())
        }
        Some(other) => Err(CliError::Usage(format!(
            "unknown command '{other}'\n{USAGE}"
        ))),
    };
    match result {
        Ok(()) => 0,
        Err(CliError::Usage(msg)) | Err(CliError::Failed(msg)) if msg.is_empty() => 1,
        Err(e) => {
            eprintln!("error: {e}");
            e.status()
        }
    }
}

/// A command-line failure: bad usage (status 2) or a failed check (status 1).
#[derive(Debug)]
pub enum CliError {
    /// Bad arguments or bad input data.
    Usage(String),
    /// The command ran and found a failure (already reported).
    Failed(String),
}

impl CliError {
    fn status(&self) -> i32 {
        match self {
            CliError::Usage(_) => 2,
            CliError::Failed(_) => 1,
        }
    }
}

impl std::fmt::Display for CliError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CliError::Usage(m) | CliError::Failed(m) => write!(f, "{m}"),
        }
    }
}

impl From<String> for CliError {
    fn from(s: String) -> Self {
        CliError::Usage(s)
    }
}

fn perft_command(args: &[String]) -> Result<(), CliError> {
    let mut depth: Option<u32> = None;
    let mut fen = START_FEN.to_string();
    let mut show_divide = false;
    let mut epd: Option<String> = None;
    let mut max_depth = u32::MAX;
    let mut i = 0;
    let value = |i: usize, name: &str| -> Result<String, CliError> {
        args.get(i + 1)
            .cloned()
            .ok_or_else(|| CliError::Usage(format!("{name} needs a value")))
    };
    while i < args.len() {
        match args[i].as_str() {
            "--fen" => {
                fen = value(i, "--fen")?;
                i += 1;
            }
            "--divide" => show_divide = true,
            "--epd" => {
                epd = Some(value(i, "--epd")?);
                i += 1;
            }
            "--max-depth" => {
                let v = value(i, "--max-depth")?;
                max_depth = v
                    .parse()
                    .map_err(|_| CliError::Usage(format!("--max-depth '{v}' is not a number")))?;
                i += 1;
            }
            a if depth.is_none() && !a.starts_with("--") => {
                depth = Some(
                    a.parse()
                        .map_err(|_| CliError::Usage(format!("depth '{a}' is not a number")))?,
                );
            }
            a => {
                return Err(CliError::Usage(format!(
                    "unexpected argument '{a}'\n{USAGE}"
                )))
            }
        }
        i += 1;
    }
    if let Some(path) = epd {
        return perft_epd(&path, max_depth);
    }
    let depth = depth.ok_or_else(|| CliError::Usage(format!("perft needs a depth\n{USAGE}")))?;
    let mut pos = Position::from_fen(&fen).map_err(|e| CliError::Usage(format!("bad FEN: {e}")))?;
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
        Err(CliError::Failed(String::new()))
    } else {
        Ok(())
    }
}

fn bench_command(args: &[String]) -> Result<(), CliError> {
    use pao::bench;
    let mut options = bench::BenchOptions::default();
    let mut fens_text = bench::BENCH_FENS.to_string();
    let mut ablation = false;
    let mut positions: Option<usize> = None;
    let mut depth_given = false;
    let mut i = 0;
    let value = |i: usize, name: &str| -> Result<&String, CliError> {
        args.get(i + 1)
            .ok_or_else(|| CliError::Usage(format!("{name} needs a value")))
    };
    let number = |v: &str, name: &str, max: u64| -> Result<u64, CliError> {
        v.parse::<u64>()
            .ok()
            .filter(|n| (1..=max).contains(n))
            .ok_or_else(|| CliError::Usage(format!("{name} '{v}' is not a number in 1..={max}")))
    };
    while i < args.len() {
        let flag = args[i].as_str();
        match flag {
            "--depth" => {
                options.depth = number(value(i, flag)?, flag, 100)? as u32;
                depth_given = true;
            }
            "--threads" => options.threads = number(value(i, flag)?, flag, 1024)? as usize,
            "--hash" => options.hash_mib = number(value(i, flag)?, flag, 1 << 20)? as usize,
            "--fens" => {
                let path = value(i, flag)?;
                fens_text = std::fs::read_to_string(path)
                    .map_err(|e| CliError::Usage(format!("cannot read '{path}': {e}")))?;
            }
            "--no-stagger" => {
                options.stagger = false;
                i += 1;
                continue;
            }
            "--ablation" => {
                ablation = true;
                i += 1;
                continue;
            }
            "--positions" => {
                positions = Some(number(value(i, flag)?, flag, 10_000)? as usize);
            }
            "--no-pin" => {
                options.pin = false;
                i += 1;
                continue;
            }
            a => {
                return Err(CliError::Usage(format!(
                    "unexpected argument '{a}'\n{USAGE}"
                )))
            }
        }
        i += 2;
    }
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
                "{:<38} {:>14} {:>10} {:>11.1}x",
                r.name,
                r.nodes,
                r.time_ms,
                b as f64 / r.nodes.max(1) as f64
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
