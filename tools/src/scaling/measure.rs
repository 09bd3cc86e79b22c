//! Measuring: `pao bench` runs at one thread count, their medians and speed-ups.

use std::process::Command;

/// One bench run's totals.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchRun {
    /// Nodes searched.
    pub nodes: u64,
    /// Wall time in ms.
    pub time_ms: u64,
    /// Nodes per second.
    pub nps: u64,
}

/// Finds the last `bench: nodes N time_ms T nps P` line of the output.
pub fn parse_bench_output(text: &str) -> Option<BenchRun> {
    text.lines().rev().find_map(|line| {
        let w: Vec<&str> = line.split_whitespace().collect();
        match w[..] {
            ["bench:", "nodes", n, "time_ms", t, "nps", p] => Some(BenchRun {
                nodes: n.parse().ok()?,
                time_ms: t.parse().ok()?,
                nps: p.parse().ok()?,
            }),
            _ => None,
        }
    })
}

/// Medians of a thread count's runs, and its speed-ups against one thread.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    /// Threads.
    pub threads: usize,
    /// Median totals.
    pub run: BenchRun,
    /// NPS(T) / NPS(1).
    pub nps_speedup: f64,
    /// time(1) / time(T).
    pub ttd_speedup: f64,
}

fn median(mut v: Vec<u64>) -> u64 {
    v.sort_unstable();
    match v.len() {
        0 => 0,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2,
    }
}

/// Medians per thread count, speed-ups relative to the first (1-thread) entry.
pub fn points(measured: &[(usize, Vec<BenchRun>)]) -> Vec<Point> {
    let med: Vec<(usize, BenchRun)> = measured
        .iter()
        .map(|(t, runs)| {
            (
                *t,
                BenchRun {
                    nodes: median(runs.iter().map(|r| r.nodes).collect()),
                    time_ms: median(runs.iter().map(|r| r.time_ms).collect()),
                    nps: median(runs.iter().map(|r| r.nps).collect()),
                },
            )
        })
        .collect();
    let Some(&(_, base)) = med.first() else {
        return Vec::new();
    };
    let ratio = |a: u64, b: u64| if b == 0 { 0.0 } else { a as f64 / b as f64 };
    med.iter()
        .map(|&(threads, run)| Point {
            threads,
            run,
            nps_speedup: ratio(run.nps, base.nps),
            ttd_speedup: ratio(base.time_ms, run.time_ms),
        })
        .collect()
}

/// The thread counts 1, 2, 4, ... up to `max`, with `max` itself last.
pub fn thread_counts(max: usize) -> Vec<usize> {
    let mut v = Vec::new();
    let mut t = 1;
    while t < max {
        v.push(t);
        t *= 2;
    }
    v.push(max.max(1));
    v
}

/// Runs `ENGINE bench --threads T --depth D` once.
pub fn run_bench(engine: &str, threads: usize, depth: u32) -> Result<BenchRun, String> {
    let out = Command::new(engine)
        .args([
            "bench",
            "--threads",
            &threads.to_string(),
            "--depth",
            &depth.to_string(),
        ])
        .output()
        .map_err(|e| format!("cannot run '{engine}': {e}"))?;
    let text = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        return Err(format!("'{engine} bench' failed with {}", out.status));
    }
    parse_bench_output(&text)
        .ok_or_else(|| format!("'{engine} bench' printed no 'bench: nodes N time_ms T nps P' line"))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) fn run(nodes: u64, time_ms: u64, nps: u64) -> BenchRun {
        BenchRun {
            nodes,
            time_ms,
            nps,
        }
    }

    #[test]
    fn parses_the_bench_line() {
        let out = "info string x\nbench: nodes 12 time_ms 3 nps 4000\nbench: nodes 1234567 time_ms 890 nps 1387154\n";
        assert_eq!(
            parse_bench_output(out),
            Some(run(1_234_567, 890, 1_387_154))
        );
        assert_eq!(parse_bench_output("bench: nodes x time_ms 1 nps 1\n"), None);
        assert_eq!(parse_bench_output("Nodes searched: 5\n"), None);
        assert_eq!(thread_counts(1), vec![1]);
        assert_eq!(thread_counts(6), vec![1, 2, 4, 6]);
        assert_eq!(thread_counts(8), vec![1, 2, 4, 8]);
    }
}
