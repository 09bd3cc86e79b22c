//! `pao-tools hashclear`: how long `Clear Hash` takes on a big, used table. The engine fills
//! its table with a `go infinite` of a few seconds (its resident memory shows how much of the
//! table the search touched), then `setoption name Clear Hash` and `isready` are sent together
//! and the time until `readyok` is taken: the engine answers `isready` only once the clear is
//! done. An `isready` alone gives the floor of that measurement.

use crate::r#match::client::process::EngineProcess;
use crate::soak::rss_kib;
use std::time::{Duration, Instant};

/// Help text.
pub fn usage() -> String {
    "usage: pao-tools hashclear [--engine PATH] [--hash MB] [--threads T] [--fill S] [--runs N]\n\
     [--settle MS]\n\
     Times `setoption name Clear Hash` + `isready` -> `readyok` on a table of MB MiB (default\n\
     16384) filled by S seconds (default 10) of `go infinite` with T threads (default 2),\n\
     N times (default 3), MS ms (default 3000) after the search's `bestmove`, so that its\n\
     workers have parked; prints the engine's memory before and after each clear.\n"
        .to_string()
}

fn wait(e: &mut EngineProcess, what: &str, secs: u64) -> Result<Instant, String> {
    e.wait_for(Duration::from_secs(secs), |l| l.starts_with(what))
        .map_err(|x| format!("no {what}: {x}"))?;
    Ok(Instant::now())
}

/// Runs the measurement.
pub fn run(args: &[String]) -> Result<(), String> {
    let (mut engine, mut hash, mut threads, mut fill, mut runs) = (
        "target/release/pao".to_string(),
        16384usize,
        2usize,
        10u64,
        3usize,
    );
    let mut settle = 3000u64;
    let mut i = 0;
    while i < args.len() {
        let value = args
            .get(i + 1)
            .ok_or_else(|| format!("{} needs a value", args[i]))?;
        let bad = || format!("bad value '{value}' for {}", args[i]);
        match args[i].as_str() {
            "--engine" => engine = value.clone(),
            "--hash" => hash = value.parse().map_err(|_| bad())?,
            "--threads" => threads = value.parse().map_err(|_| bad())?,
            "--fill" => fill = value.parse().map_err(|_| bad())?,
            "--runs" => runs = value.parse().map_err(|_| bad())?,
            "--settle" => settle = value.parse().map_err(|_| bad())?,
            other => return Err(format!("unexpected argument '{other}'")),
        }
        i += 2;
    }
    let mut e = EngineProcess::spawn("engine", &engine, &[], None).map_err(|x| x.to_string())?;
    let pid = e.pid();
    let mib = |kib: Option<u64>| kib.map_or(0, |k| k / 1024);
    e.send("uci").map_err(|x| x.to_string())?;
    wait(&mut e, "uciok", 10)?;
    for line in [
        format!("setoption name Threads value {threads}"),
        format!("setoption name Hash value {hash}"),
        "isready".to_string(),
    ] {
        e.send(&line).map_err(|x| x.to_string())?;
    }
    let t = Instant::now();
    let ready = wait(&mut e, "readyok", 900)?;
    println!(
        "hash {hash} MiB threads {threads}: allocated in {:.1} ms",
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
        let before = mib(rss_kib(pid));
        let t = Instant::now();
        e.send("setoption name Clear Hash")
            .map_err(|x| x.to_string())?;
        e.send("isready").map_err(|x| x.to_string())?;
        let done = wait(&mut e, "readyok", 900)? - t;
        let after = mib(rss_kib(pid));
        println!(
            "{run:>4} {before:>14} {:>10.1} {after:>13}",
            done.as_secs_f64() * 1000.0
        );
    }
    e.shutdown();
    Ok(())
}
