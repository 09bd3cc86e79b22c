//! `pao-tools hashclear`: how long `Clear Hash` takes on a big, used table. The engine fills
//! its table with a `go infinite` of a few seconds (its resident memory shows how much of the
//! table the search touched), then `setoption name Clear Hash` and `isready` are sent together
//! and the time until `readyok` is taken: the engine answers `isready` only once the clear is
//! done. An `isready` alone gives the floor of that measurement.

use crate::common::engine::default_engine;
use crate::common::process::EngineProcess;
use crate::common::Failure;
use std::time::{Duration, Instant};

/// `pao-tools hashclear`: times `setoption name Clear Hash` + `isready` -> `readyok` on a
/// used table, N times; prints the engine's memory before and after each clear.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Fills the table with `go infinite` for S seconds, stops, waits MS ms, \
then times `setoption name Clear Hash` + `isready` until `readyok`, N times; prints the \
engine's memory before and after each clear."
)]
pub struct HashclearArgs {
    /// The engine (UCI; default: `pao` beside pao-tools, else on PATH)
    #[arg(long, value_name = "PATH")]
    engine: Option<String>,
    /// Table size in MiB
    #[arg(long, value_name = "MB", default_value_t = 16384, value_parser = clap::value_parser!(u64).range(1..))]
    hash: u64,
    /// Search threads that fill the table
    #[arg(long, value_name = "T", default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..))]
    threads: u64,
    /// Seconds of `go infinite` that fill the table before each clear
    #[arg(long, value_name = "S", default_value_t = 10)]
    fill: u64,
    /// Clears to time
    #[arg(long, value_name = "N", default_value_t = 3)]
    runs: u64,
    /// Pause after the search's `bestmove`, so that its workers have parked
    #[arg(long, value_name = "MS", default_value_t = 3000)]
    settle: u64,
    /// Set the engine's `LargePages` option to false (it defaults to true)
    #[arg(long)]
    no_large_pages: bool,
}

fn wait(e: &mut EngineProcess, what: &str, secs: u64) -> Result<Instant, String> {
    e.wait_for(Duration::from_secs(secs), |l| l.starts_with(what))
        .map_err(|x| format!("no {what}: {x}"))?;
    Ok(Instant::now())
}

/// Runs the measurement.
pub fn run(args: HashclearArgs) -> Result<(), Failure> {
    let HashclearArgs {
        engine,
        hash,
        threads,
        fill,
        runs,
        settle,
        no_large_pages,
    } = args;
    let mut e = EngineProcess::spawn("engine", &engine.unwrap_or_else(default_engine), &[], None)
        .map_err(|x| x.to_string())?;
    let mib = |kib: Option<u64>| kib.map_or(0, |k| k / 1024);
    e.send("uci").map_err(|x| x.to_string())?;
    wait(&mut e, "uciok", 10)?;
    for line in [
        format!("setoption name Threads value {threads}"),
        format!("setoption name LargePages value {}", !no_large_pages),
        format!("setoption name Hash value {hash}"),
        "isready".to_string(),
    ] {
        e.send(&line).map_err(|x| x.to_string())?;
    }
    let t = Instant::now();
    let ready = wait(&mut e, "readyok", 900)?;
    println!(
        "hash {hash} MiB threads {threads} large pages {}: allocated in {:.1} ms",
        !no_large_pages,
        (ready - t).as_secs_f64() * 1000.0
    );
    let t = Instant::now();
    e.send("isready").map_err(|x| x.to_string())?;
    let floor = wait(&mut e, "readyok", 10)? - t;
    println!("isready alone: {:.2} ms", floor.as_secs_f64() * 1000.0);
    println!(
        "{:>4} {:>14} {:>10} {:>13}",
        "run", "rss_before_MiB", "clear_ms", "rss_after_MiB"
    );
    for run in 1..=runs {
        for line in ["position startpos", "go infinite"] {
            e.send(line).map_err(|x| x.to_string())?;
        }
        std::thread::sleep(Duration::from_secs(fill));
        e.send("stop").map_err(|x| x.to_string())?;
        wait(&mut e, "bestmove", 10)?;
        // `bestmove` comes at once; the workers park a moment later (the clear waits for
        // them). Without a pause, the time below includes that.
        std::thread::sleep(Duration::from_millis(settle));
        let before = mib(e.resident_kib());
        let t = Instant::now();
        e.send("setoption name Clear Hash")
            .map_err(|x| x.to_string())?;
        e.send("isready").map_err(|x| x.to_string())?;
        let done = wait(&mut e, "readyok", 900)? - t;
        let after = mib(e.resident_kib());
        println!(
            "{run:>4} {before:>14} {:>10.1} {after:>13}",
            done.as_secs_f64() * 1000.0
        );
    }
    e.shutdown();
    Ok(())
}
