//! `pao-tools latency`: how long an engine takes from `stop` to `bestmove`, at several thread
//! counts. Each run: `go infinite`, wait a varying moment, send `stop`, time the reply.

use crate::common::engine::default_engine;
use crate::common::Failure;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// `pao-tools latency`: times `stop` to `bestmove` of a UCCI engine after `go infinite`
/// (median, p90, max).
#[derive(clap::Args, Debug)]
pub struct LatencyArgs {
    /// The engine (default: `pao` beside pao-tools, else on PATH)
    #[arg(long, value_name = "PATH")]
    engine: Option<String>,
    /// Thread counts, comma-separated
    #[arg(
        long,
        value_name = "T,T,...",
        value_delimiter = ',',
        default_value = "1,2,16"
    )]
    threads: Vec<usize>,
    /// Runs per thread count
    #[arg(long, value_name = "N", default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..))]
    runs: u32,
}

/// Runs the measurement; prints one table row per thread count.
pub fn run(args: LatencyArgs) -> Result<(), Failure> {
    let engine = args.engine.unwrap_or_else(default_engine);
    let (threads, runs) = (args.threads, args.runs as usize);
    for (i, &t) in threads.iter().enumerate() {
        let mut samples = measure(&engine, t, runs)?;
        // The header once the engine has answered: an engine that cannot start prints nothing.
        if i == 0 {
            println!(
                "{:>8} {:>6} {:>10} {:>10} {:>10}",
                "threads", "runs", "median_ms", "p90_ms", "max_ms"
            );
        }
        samples.sort_by(|a, b| a.total_cmp(b));
        let at = |q: f64| samples[((samples.len() - 1) as f64 * q).round() as usize];
        println!(
            "{t:>8} {runs:>6} {:>10.2} {:>10.2} {:>10.2}",
            at(0.5),
            at(0.9),
            at(1.0)
        );
    }
    Ok(())
}

fn measure(engine: &str, threads: usize, runs: usize) -> Result<Vec<f64>, String> {
    let mut child = Command::new(engine)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start '{engine}': {e}"))?;
    let mut stdin = child.stdin.take().ok_or("no stdin")?;
    let stdout = child.stdout.take().ok_or("no stdout")?;
    // The engine's replies are read on this thread, as a GUI's event loop does: a separate
    // reader thread would add its own wake-up to every sample.
    let mut lines = BufReader::new(stdout).lines();
    let mut send = |line: &str| writeln!(stdin, "{line}").map_err(|e| format!("engine gone: {e}"));
    let mut wait_for = |prefix: &str| -> Result<Instant, String> {
        loop {
            match lines.next() {
                Some(Ok(line)) if line.starts_with(prefix) => return Ok(Instant::now()),
                Some(Ok(_)) => {}
                _ => return Err(format!("no '{prefix}' from the engine")),
            }
        }
    };
    send("ucci")?;
    wait_for("ucciok")?;
    send(&format!("setoption threads {threads}"))?;
    send("isready")?;
    wait_for("readyok")?;
    let mut samples = Vec::with_capacity(runs);
    for run in 0..runs {
        send("position startpos")?;
        send("go infinite")?;
        std::thread::sleep(Duration::from_millis(50 + (run as u64 * 37) % 250));
        let start = Instant::now();
        send("stop")?;
        let end = wait_for("bestmove")?;
        samples.push((end - start).as_secs_f64() * 1000.0);
    }
    send("quit")?;
    let _ = child.wait();
    Ok(samples)
}
