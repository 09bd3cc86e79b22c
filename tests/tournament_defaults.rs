//! The defaults are the field's (Pikafish, Fairy-Stockfish): one search thread, pinned to no
//! core, in every dialect. A tournament manager that starts two engines on their defaults on
//! one machine gets two single-threaded processes that the scheduler spreads over the cores,
//! and each searches about as fast as one engine alone.

mod common;

use common::{last_line, Engine};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

/// The speed test wants the cores to itself: the tests of this file run one at a time.
static CORES: Mutex<()> = Mutex::new(());

fn cores() -> MutexGuard<'static, ()> {
    CORES.lock().unwrap_or_else(|e| e.into_inner())
}

/// The lines of the handshake up to `end`.
fn handshake(first: &[&str], end: &str) -> Vec<String> {
    let mut e = Engine::start();
    for line in first {
        e.send(line);
    }
    e.expect_exact_eventually(end)
}

#[test]
fn every_dialect_advertises_one_thread_unpinned() {
    let _cores = cores();
    let ucci = handshake(&["ucci"], "ucciok");
    for expected in [
        "option threads type spin min 1 max 1024 default 1",
        "option pinthreads type check default false",
    ] {
        assert!(ucci.iter().any(|l| l == expected), "{expected}: {ucci:?}");
    }
    let uci = handshake(&["uci"], "uciok");
    for expected in [
        "option name Threads type spin default 1 min 1 max 1024",
        "option name PinThreads type check default false",
    ] {
        assert!(uci.iter().any(|l| l == expected), "{expected}: {uci:?}");
    }
    // CECP sets the threads with `cores` (XBoard sends its own default, 1) and offers pinning.
    let cecp = handshake(&["xboard", "protover 2"], "feature done=1");
    let pin = "feature option=\"PinThreads -check 0\"";
    assert!(cecp.iter().any(|l| l == pin), "{cecp:?}");
}

/// The engine's worker threads (`pao-worker-N`) and the CPUs each may run on, read from
/// /proc; the main thread's CPUs first.
#[cfg(target_os = "linux")]
fn workers(pid: u32) -> (String, Vec<String>) {
    let cpus = |task: &std::path::Path| {
        std::fs::read_to_string(task.join("status"))
            .unwrap_or_default()
            .lines()
            .find_map(|l| l.strip_prefix("Cpus_allowed_list:"))
            .map(|s| s.trim().to_string())
            .unwrap_or_default()
    };
    let main = cpus(&std::path::PathBuf::from(format!("/proc/{pid}/task/{pid}")));
    let mut list = Vec::new();
    if let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) {
        for task in tasks.flatten() {
            let comm = std::fs::read_to_string(task.path().join("comm")).unwrap_or_default();
            if comm.starts_with("pao-worker-") {
                list.push(cpus(&task.path()));
            }
        }
    }
    (main, list)
}

/// Waits until the engine runs `n` workers (a new thread names itself as it starts); returns
/// the main thread's CPUs and each worker's.
#[cfg(target_os = "linux")]
fn expect_workers(e: &Engine, n: usize) -> (String, Vec<String>) {
    let deadline = std::time::Instant::now() + common::TIMEOUT;
    loop {
        let (main, list) = workers(e.pid());
        if list.len() == n || std::time::Instant::now() > deadline {
            assert_eq!(list.len(), n, "worker threads: {list:?}");
            return (main, list);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[cfg(target_os = "linux")]
#[test]
fn by_default_one_worker_runs_where_the_scheduler_puts_it() {
    let _cores = cores();
    for first in ["ucci", "uci"] {
        let mut e = Engine::start();
        e.send(first);
        e.send("isready");
        e.expect_exact_eventually("readyok");
        let (main, list) = expect_workers(&e, 1);
        assert_eq!(list, vec![main], "{first}: the worker is pinned");
    }
    // CECP: one worker until `cores` asks for more, none of them pinned.
    let mut e = Engine::start();
    for line in ["xboard", "protover 2", "ping 1"] {
        e.send(line);
    }
    e.expect_exact_eventually("pong 1");
    let (main, list) = expect_workers(&e, 1);
    assert_eq!(list, vec![main.clone()], "cecp: the worker is pinned");
    e.send("cores 2");
    e.send("ping 2");
    e.expect_exact_eventually("pong 2");
    let (_, list) = expect_workers(&e, 2);
    assert_eq!(list, vec![main.clone(), main], "cecp: a worker is pinned");
}

/// Nodes per second of the last search, from its final `info time T nodes N` line.
fn finish(e: &mut Engine) -> f64 {
    let (_, lines) = e.expect_prefix("bestmove");
    let last = last_line(&lines, "info time ");
    let words: Vec<&str> = last.split_whitespace().collect();
    let (ms, nodes): (f64, f64) = match words.as_slice() {
        ["info", "time", t, "nodes", n, ..] => {
            (t.parse().expect("time"), n.parse().expect("nodes"))
        }
        _ => panic!("unexpected final line '{last}'"),
    };
    nodes * 1000.0 / ms.max(1.0)
}

/// Clears the table and sets the start position, so that every search does the same work.
fn prepare(e: &mut Engine) {
    e.send("ucinewgame");
    e.send("position startpos");
    e.send("isready");
    e.expect_exact_eventually("readyok");
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// A UCI engine on its defaults (or with `setup` on top), warmed by one short search.
fn engine(setup: &[&str]) -> Engine {
    let mut e = Engine::start();
    e.send("uci");
    e.expect_prefix("uciok");
    for line in setup {
        e.send(line);
    }
    prepare(&mut e);
    e.send("go movetime 200");
    finish(&mut e);
    e
}

/// CPU time in clock ticks: the machine's busy time and its wall time (/proc/stat: all cores'
/// time over their number), and the time of the given processes and of this test's own
/// (/proc/PID/stat), to tell the engines' use of the cores from other work's. `None` where
/// /proc is not there.
fn ticks(pids: &[u32]) -> Option<(u64, u64, u64)> {
    let stat = std::fs::read_to_string("/proc/stat").ok()?;
    let cores = stat
        .lines()
        .filter(|l| l.starts_with("cpu") && !l.starts_with("cpu "))
        .count();
    let cpu: Vec<u64> = stat
        .lines()
        .next()?
        .split_whitespace()
        .skip(1)
        .filter_map(|v| v.parse().ok())
        .collect();
    let total: u64 = cpu.iter().take(8).sum();
    // user nice system idle iowait irq softirq steal: idle and iowait are not work.
    let busy = total - cpu.get(3)? - cpu.get(4)?;
    let mut ours = 0;
    for pid in pids.iter().map(u32::to_string).chain(["self".to_string()]) {
        let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        // The fields after the command name (which may hold spaces): utime and stime are the
        // 12th and 13th.
        let fields: Vec<&str> = text.rsplit_once(')')?.1.split_whitespace().collect();
        ours += fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    }
    Some((busy, total / cores.max(1) as u64, ours))
}

/// Runs `run` and returns its result with the cores that other work (neither these engines nor
/// this test) kept busy meanwhile, on average (0 where that cannot be measured).
fn measured<T>(pids: &[u32], run: impl FnOnce() -> T) -> (T, f64) {
    let before = ticks(pids);
    let out = run();
    let cores = match (before, ticks(pids)) {
        (Some((b0, w0, o0)), Some((b1, w1, o1))) if w1 > w0 => {
            let other = (b1 - b0).saturating_sub(o1.saturating_sub(o0));
            other as f64 / (w1 - w0) as f64
        }
        _ => 0.0,
    };
    (out, cores)
}

/// The nodes per second of `go` on the given engines at once (each cleared and set to the start
/// position first): the slowest engine's, and the cores other work kept busy meanwhile.
fn run_together(engines: &mut [&mut Engine], pids: &[u32], go: &str) -> (f64, f64) {
    for e in engines.iter_mut() {
        prepare(e);
    }
    measured(pids, || {
        for e in engines.iter_mut() {
            e.send(go);
        }
        engines
            .iter_mut()
            .map(|e| finish(e))
            .fold(f64::INFINITY, f64::min)
    })
}

/// The /proc directories of the search worker threads of `pid`.
fn worker_tasks(pid: u32) -> Vec<std::path::PathBuf> {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return Vec::new();
    };
    tasks
        .flatten()
        .map(|t| t.path())
        .filter(|t| {
            std::fs::read_to_string(t.join("comm")).is_ok_and(|c| c.starts_with("pao-worker-"))
        })
        .collect()
}

/// The CPU each worker thread of `pid` last ran on (field 39 of /proc/PID/task/TID/stat).
fn worker_cpus(pid: u32) -> Vec<u32> {
    let mut cpus = Vec::new();
    for task in worker_tasks(pid) {
        let stat = std::fs::read_to_string(task.join("stat")).unwrap_or_default();
        // After the command name: state is the 3rd field of the line, processor the 39th.
        if let Some(cpu) = stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().nth(36))
            .and_then(|c| c.parse().ok())
        {
            cpus.push(cpu);
        }
    }
    cpus
}

/// How many CPUs each worker thread of `pid` may run on (its `Cpus_allowed_list`).
fn worker_allowed_cpus(pid: u32) -> Vec<usize> {
    let mut counts = Vec::new();
    for task in worker_tasks(pid) {
        let status = std::fs::read_to_string(task.join("status")).unwrap_or_default();
        let Some(list) = status
            .lines()
            .find_map(|l| l.strip_prefix("Cpus_allowed_list:"))
        else {
            continue;
        };
        // "0-3,6,8-9": ranges and single CPUs.
        let count = list
            .trim()
            .split(',')
            .filter_map(|part| match part.split_once('-') {
                Some((a, b)) => Some(b.parse::<usize>().ok()? + 1 - a.parse::<usize>().ok()?),
                None => part.parse::<usize>().ok().map(|_| 1),
            })
            .sum();
        counts.push(count);
    }
    counts
}

/// While `run` runs, samples where the two engines' workers last ran, every few milliseconds:
/// (samples, samples with the two on different CPUs). Engines pinned to one core are never apart;
/// the scheduler spreads unpinned ones however busy the machine is.
fn sample_apart<T>(pids: [u32; 2], run: impl FnOnce() -> T) -> (T, usize, usize) {
    let stop = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|scope| {
        let sampler = scope.spawn(|| {
            let (mut samples, mut apart) = (0, 0);
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                if let ([a], [b]) = (&worker_cpus(pids[0])[..], &worker_cpus(pids[1])[..]) {
                    samples += 1;
                    apart += usize::from(a != b);
                }
                std::thread::sleep(Duration::from_millis(3));
            }
            (samples, apart)
        });
        let out = run();
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        let (samples, apart) = sampler.join().expect("the sampler");
        (out, samples, apart)
    })
}

#[test]
fn two_engines_on_their_defaults_each_search_as_fast_as_one_alone() {
    let _cores = cores();
    let parallelism = std::thread::available_parallelism().map_or(1, |n| n.get());
    if parallelism < 2 {
        // CI's runner has two cores: there, one is a broken runner, not a reason to pass.
        assert_ne!(
            std::env::var("CI").as_deref(),
            Ok("true"),
            "one core only under CI=true"
        );
        println!("skipped: one core only, two engines cannot run side by side");
        return;
    }
    let go = "go movetime 600";
    // Other work may use the cores the engines leave free, and a quarter of a core more: a run
    // during which it took more than that competed with the engines, and is not counted.
    let free = |engines: usize| (parallelism - engines) as f64 + 0.25;
    // Two engines set for tournaments by hand (one thread, unpinned); the first alone is the
    // yardstick. Then two engines on their defaults.
    let tournament = [
        "setoption name Threads value 1",
        "setoption name PinThreads value false",
    ];
    let (mut one, mut two) = (engine(&tournament), engine(&tournament));
    let (mut a, mut b) = (engine(&[]), engine(&[]));
    let pids = [one.pid(), two.pid(), a.pid(), b.pid()];
    // The three measurements take turns, so that a drift in the machine's speed touches each;
    // the medians ignore a disturbed run. A run during which other work held the cores says
    // nothing about the engines (they would share the cores with it), so such rounds are run
    // again, and a machine that is never quiet enough skips the test and says so.
    let (mut alone, mut by_hand, mut defaults) = (Vec::new(), Vec::new(), Vec::new());
    let mut other = Vec::new();
    let (mut samples, mut apart) = (0, 0);
    for round in 0..10 {
        let mut results = [(0.0, 0.0); 3];
        for turn in 0..3 {
            let which = (round + turn) % 3;
            results[which] = match which {
                0 => run_together(&mut [&mut one], &pids, go),
                1 => run_together(&mut [&mut one, &mut two], &pids, go),
                _ => {
                    let ab = [a.pid(), b.pid()];
                    let (r, n, k) =
                        sample_apart(ab, || run_together(&mut [&mut a, &mut b], &pids, go));
                    samples += n;
                    apart += k;
                    r
                }
            };
        }
        let [(s, s_other), (h, h_other), (d, d_other)] = results;
        other.push(format!("{s_other:.2}/{h_other:.2}/{d_other:.2}"));
        if s_other <= free(1) && h_other <= free(2) && d_other <= free(2) {
            alone.push(s);
            by_hand.push(h);
            defaults.push(d);
        }
        if alone.len() == 4 || (round == 3 && alone.is_empty()) {
            break;
        }
    }
    // What the two engines on their defaults may run on holds under any load: every worker
    // may use every core, never held to one (where they happened to run is only a sample: a
    // busy scheduler can keep two runnable engines on one core for seconds).
    if cfg!(target_os = "linux") {
        for pid in [a.pid(), b.pid()] {
            let allowed = worker_allowed_cpus(pid);
            assert!(
                !allowed.is_empty() && allowed.iter().all(|&n| n >= parallelism),
                "an engine on its defaults is held to fewer cores than the machine's \
                 {parallelism}: {allowed:?} (it ran apart from the other in {apart} of \
                 {samples} samples)"
            );
        }
    }
    if alone.len() < 3 {
        // Their speed needs cores the engines have to themselves: with other work on them, the
        // scheduler shares each core fairly and no yardstick is left (where they ran is the proof).
        println!(
            "the speed not compared: other work held the cores (cores it kept busy, alone/by \
             hand/defaults: {}); the engines on their defaults ran apart in {apart} of {samples} \
             samples",
            other.join(", ")
        );
        return;
    }
    // On some machines one busy core runs faster than two (a clock that boosts a lone core,
    // cores that share a physical one): there no two engines reach a lone engine's speed, and
    // the defaults are held to what two engines set by hand reach. Each round is its own
    // yardstick, so that a machine whose speed drifts between rounds moves both sides of a ratio
    // together; the median ratio ignores one disturbed round. Engines that collided on one core
    // would show about half the speed, far below the bar.
    let ratios: Vec<f64> = (0..alone.len())
        .map(|i| defaults[i] / alone[i].min(by_hand[i]))
        .collect();
    let ratio = median(ratios.clone());
    let report = format!(
        "nodes/s alone {alone:.0?}, the slower of two set by hand {by_hand:.0?}, the slower of \
         two on their defaults {defaults:.0?}, ratios per round {ratios:.2?}: median {:.1}% \
         (cores other work kept busy: {})",
        ratio * 100.0,
        other.join(", ")
    );
    assert!(
        ratio >= 0.8,
        "two engines on their defaults are too slow: {report}"
    );
    println!("{report}");
}
