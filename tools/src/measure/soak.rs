//! `pao-tools soak`: a long-run check of an engine under `go infinite`. First a small endgame
//! where the iterations pass depth 100 (deep stacks, bounded plies), then the start position
//! for the rest of the time, sampled every few seconds: the process's memory stays flat, node
//! counts only grow, `nps` agrees with nodes and time, `hashfull` reaches 1000, and `stop`,
//! `isready` and `quit` are still answered at the end. One PASS/FAIL line sums it up.

use crate::common::engine::default_engine;
use crate::common::process::{EngineError, EngineProcess};
use crate::common::Failure;
use std::time::{Duration, Instant};

/// A position where the iterations race past depth 100: kings, an advisor and a pawn each.
const DEEP_FEN: &str = "3k5/4a4/9/9/4p4/9/4P4/9/4A4/5K3 w - - 0 1";

/// `pao-tools soak`: runs `go infinite` for M minutes after a short endgame search that passes
/// depth 100; samples the engine's memory (VmRSS) and info lines every S seconds and prints
/// one `soak: PASS ...` or `soak: FAIL ...` line (exit status 1 on failure).
#[derive(clap::Args, Debug)]
#[command(
    after_help = "First an endgame `go infinite` until depth 100, then the start position \
for M minutes. Fails on memory above the table + 128 MiB or growing by more than 8 MiB over \
the second half, node counts going down, `nps` disagreeing with nodes/time, `hashfull` below \
990 or above 1000, error lines, or `stop`/`isready` not answered. Prints one `soak: PASS ...` \
or `soak: FAIL ...` line; exit status 1 on failure."
)]
pub struct SoakArgs {
    /// The engine (UCI; default: `pao` beside pao-tools, else on PATH)
    #[arg(long, value_name = "PATH")]
    engine: Option<String>,
    /// Minutes of `go infinite` from the start position (fractions allowed)
    #[arg(long, value_name = "M", default_value_t = 30.0, value_parser = positive_minutes)]
    minutes: f64,
    /// Search threads
    #[arg(long, value_name = "T", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    threads: u64,
    /// Table size in MiB
    #[arg(long, value_name = "MB", default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..))]
    hash: u64,
    /// Seconds between samples
    #[arg(long, value_name = "S", default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..))]
    sample: u64,
}

fn positive_minutes(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(m) if m > 0.0 && m.is_finite() => Ok(m),
        _ => Err(format!("'{text}' is not a positive number of minutes")),
    }
}

/// The value after `key` in an info line.
fn field(line: &str, key: &str) -> Option<u64> {
    let mut words = line.split_whitespace();
    while let Some(w) = words.next() {
        if w == key {
            return words.next()?.parse().ok();
        }
    }
    None
}

/// What the info lines showed, and what went wrong with them.
#[derive(Default)]
struct Watch {
    last_nodes: u64,
    max_depth: u64,
    max_seldepth: u64,
    max_hashfull: u64,
    lines: u64,
    problems: Vec<String>,
}

impl Watch {
    fn see(&mut self, line: &str) {
        if !line.starts_with("info") || line.starts_with("info string") {
            return;
        }
        self.lines += 1;
        if line.contains("error") {
            self.problems.push(format!("error line: {line}"));
        }
        if let Some(d) = field(line, "depth") {
            self.max_depth = self.max_depth.max(d);
        }
        if let Some(s) = field(line, "seldepth") {
            self.max_seldepth = self.max_seldepth.max(s);
        }
        if let Some(h) = field(line, "hashfull") {
            if h > 1000 {
                self.problems.push(format!("hashfull above 1000: {line}"));
            }
            self.max_hashfull = self.max_hashfull.max(h);
        }
        if let Some(n) = field(line, "nodes") {
            if n < self.last_nodes {
                self.problems
                    .push(format!("nodes went down ({} then {n})", self.last_nodes));
            }
            self.last_nodes = n;
            if let (Some(t), Some(nps)) = (field(line, "time"), field(line, "nps")) {
                let expect = n.saturating_mul(1000) / t.max(1);
                if t >= 1000 && nps.abs_diff(expect) > expect / 100 + 1 {
                    self.problems
                        .push(format!("nps {nps} disagrees with nodes/time {expect}"));
                }
            }
        }
        if self.problems.len() > 20 {
            self.problems.truncate(20);
        }
    }
}

/// Reads lines for `span`, or until one starts with `until`; returns whether it came.
fn pump(e: &mut EngineProcess, w: &mut Watch, span: Duration, until: Option<&str>) -> bool {
    let deadline = Instant::now() + span;
    loop {
        match e.recv_until(deadline) {
            Ok(line) => {
                w.see(&line);
                if until.is_some_and(|u| line.starts_with(u)) {
                    return true;
                }
            }
            Err(_) => return false,
        }
    }
}

/// Runs the soak test.
pub fn run(a: SoakArgs) -> Result<(), Failure> {
    let engine = a.engine.clone().unwrap_or_else(default_engine);
    let mut e = EngineProcess::spawn("engine", &engine, &[], None).map_err(|e| e.to_string())?;
    let mut w = Watch::default();
    let mut fail: Vec<String> = Vec::new();
    let send = |e: &mut EngineProcess, l: &str| e.send(l).map_err(|x: EngineError| x.to_string());
    send(&mut e, "uci")?;
    e.wait_for(Duration::from_secs(10), |l| l == "uciok")
        .map_err(|x| format!("no uciok: {x}"))?;
    send(
        &mut e,
        &format!("setoption name Threads value {}", a.threads),
    )?;
    send(&mut e, &format!("setoption name Hash value {}", a.hash))?;
    send(&mut e, "isready")?;
    if !pump(&mut e, &mut w, Duration::from_secs(60), Some("readyok")) {
        return Err("no readyok after the options".to_string().into());
    }

    // Phase 1: iterations beyond depth 100 in a bare endgame.
    send(&mut e, &format!("position fen {DEEP_FEN}"))?;
    send(&mut e, "go infinite")?;
    let deep_start = Instant::now();
    while w.max_depth < 100 && deep_start.elapsed() < Duration::from_secs(120) {
        pump(&mut e, &mut w, Duration::from_millis(200), None);
    }
    send(&mut e, "stop")?;
    if !pump(&mut e, &mut w, Duration::from_secs(2), Some("bestmove")) {
        fail.push("no bestmove within 2 s of stop (endgame)".to_string());
    }
    let deep = (w.max_depth, w.max_seldepth);
    if deep.0 < 100 {
        fail.push(format!("endgame reached only depth {}", deep.0));
    }

    // Phase 2: the start position for the rest of the time.
    send(&mut e, "ucinewgame")?;
    send(&mut e, "position startpos")?;
    send(&mut e, "isready")?;
    if !pump(&mut e, &mut w, Duration::from_secs(30), Some("readyok")) {
        fail.push("no readyok after ucinewgame".to_string());
    }
    w.last_nodes = 0;
    w.max_hashfull = 0;
    send(&mut e, "go infinite")?;
    let start = Instant::now();
    let total = Duration::from_secs_f64(a.minutes * 60.0);
    let mut samples: Vec<(f64, u64)> = Vec::new();
    while start.elapsed() < total {
        let left = total.saturating_sub(start.elapsed());
        pump(
            &mut e,
            &mut w,
            left.min(Duration::from_secs(a.sample)),
            None,
        );
        match e.resident_kib() {
            Some(kib) => samples.push((start.elapsed().as_secs_f64(), kib)),
            None => {
                fail.push("the engine process is gone".to_string());
                break;
            }
        }
    }
    send(&mut e, "stop")?;
    if !pump(&mut e, &mut w, Duration::from_secs(2), Some("bestmove")) {
        fail.push("no bestmove within 2 s of stop".to_string());
    }
    send(&mut e, "isready")?;
    if !pump(&mut e, &mut w, Duration::from_secs(5), Some("readyok")) {
        fail.push("no readyok at the end".to_string());
    }
    e.shutdown();

    // Memory: bounded by the table plus a margin, and flat over the second half.
    let max_rss = samples.iter().map(|s| s.1).max().unwrap_or(0);
    let half = samples.len() / 2;
    let (mid_rss, end_rss) = (
        samples.get(half).map_or(0, |s| s.1),
        samples.last().map_or(0, |s| s.1),
    );
    let bound = (a.hash + 128) * 1024;
    if max_rss > bound {
        fail.push(format!("memory {max_rss} KiB above {bound} KiB"));
    }
    if end_rss > mid_rss + 8 * 1024 {
        fail.push(format!(
            "memory grew {mid_rss} -> {end_rss} KiB over the second half"
        ));
    }
    if w.max_hashfull < 990 {
        fail.push(format!("hashfull reached only {}", w.max_hashfull));
    }
    fail.extend(w.problems.iter().cloned());
    let summary = format!(
        "minutes {} threads {} hash {} MiB: endgame depth {} seldepth {}; start position nodes {} \
         hashfull {} info lines {} rss KiB mid {mid_rss} end {end_rss} max {max_rss}",
        a.minutes, a.threads, a.hash, deep.0, deep.1, w.last_nodes, w.max_hashfull, w.lines
    );
    if fail.is_empty() {
        println!("soak: PASS {summary}");
        Ok(())
    } else {
        println!("soak: FAIL {summary}");
        for f in &fail {
            println!("soak: {f}");
        }
        Err(format!("{} problem(s)", fail.len()).into())
    }
}
