//! `pao-tools scaling`: runs `pao bench --threads T --depth D` for T = 1, 2, 4, ... and reports
//! NPS and time-to-depth speed-ups as a table, a CSV file and an SVG chart.

use std::process::Command;

/// Help for `scaling`.
pub fn usage() -> String {
    "pao-tools scaling [options]
  Measures thread scaling with `pao bench --threads T --depth D`.
  options:
    --engine PATH       the pao binary (default: `pao` next to this program)
    --depth D           bench depth (default 10)
    --max-threads N     largest thread count (default: the number of logical cores);
                        counts are 1, 2, 4, ... and N
    --runs R            runs per point, medians are reported (default 3)
    --csv FILE          CSV output (default scaling.csv)
    --svg FILE          SVG chart (default scaling.svg)"
        .to_string()
}

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

/// CSV text.
pub fn csv(points: &[Point], cores: usize) -> String {
    let mut s = String::from("threads,nodes,time_ms,nps,nps_speedup,ttd_speedup,oversubscribed\n");
    for p in points {
        s.push_str(&format!(
            "{},{},{},{},{:.3},{:.3},{}\n",
            p.threads,
            p.run.nodes,
            p.run.time_ms,
            p.run.nps,
            p.nps_speedup,
            p.ttd_speedup,
            if p.threads > cores { "yes" } else { "no" }
        ));
    }
    s
}

/// A note when some thread counts exceed the machine's cores.
pub fn oversubscription_note(points: &[Point], cores: usize) -> Option<String> {
    let max = points.iter().map(|p| p.threads).max()?;
    (max > cores)
        .then(|| format!("only {cores} cores: points above {cores} threads are oversubscribed"))
}

/// The text table.
pub fn table(points: &[Point], cores: usize) -> String {
    let mut s = format!(
        "{:>7} {:>12} {:>9} {:>11} {:>8} {:>8}\n",
        "threads", "nodes", "time_ms", "nps", "nps x", "ttd x"
    );
    for p in points {
        s.push_str(&format!(
            "{:>7} {:>12} {:>9} {:>11} {:>8.2} {:>8.2}{}\n",
            p.threads,
            p.run.nodes,
            p.run.time_ms,
            p.run.nps,
            p.nps_speedup,
            p.ttd_speedup,
            if p.threads > cores {
                "  (more threads than cores)"
            } else {
                ""
            }
        ));
    }
    if let Some(n) = oversubscription_note(points, cores) {
        s.push_str(&n);
        s.push('\n');
    }
    s
}

fn run_bench(engine: &str, threads: usize, depth: u32) -> Result<BenchRun, String> {
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

fn default_engine() -> String {
    std::env::current_exe()
        .ok()
        .and_then(|p| p.parent().map(|d| d.join("pao")))
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_else(|| "pao".to_string())
}

/// Runs `pao-tools scaling ARGS`.
pub fn run(args: &[String]) -> Result<(), String> {
    let mut engine = default_engine();
    let (mut depth, mut runs) = (10u32, 3usize);
    let cores = num_cpus::get();
    let mut max_threads = cores;
    let (mut csv_path, mut svg_path) = ("scaling.csv".to_string(), "scaling.svg".to_string());
    let mut i = 0;
    while i < args.len() {
        let flag = args[i].as_str();
        let value = args
            .get(i + 1)
            .cloned()
            .ok_or_else(|| format!("{flag} needs a value"))?;
        let num = |v: &str| {
            v.parse::<usize>()
                .map_err(|_| format!("{flag}: bad number '{v}'"))
        };
        match flag {
            "--engine" => engine = value,
            "--depth" => depth = num(&value)? as u32,
            "--max-threads" => max_threads = num(&value)?,
            "--runs" => runs = num(&value)?,
            "--csv" => csv_path = value,
            "--svg" => svg_path = value,
            _ => return Err(format!("scaling: unknown argument '{flag}'")),
        }
        i += 2;
    }
    if max_threads == 0 || runs == 0 {
        return Err("scaling: --max-threads and --runs must be positive".to_string());
    }
    let mut measured = Vec::new();
    for t in thread_counts(max_threads) {
        let mut v = Vec::new();
        for r in 0..runs {
            eprintln!("scaling: {t} threads, run {}/{runs}", r + 1);
            v.push(run_bench(&engine, t, depth)?);
        }
        measured.push((t, v));
    }
    let pts = points(&measured);
    write_outputs(&pts, cores, depth, &csv_path, &svg_path)?;
    print!("{}", table(&pts, cores));
    println!("wrote {csv_path} and {svg_path}");
    Ok(())
}

/// Writes the CSV and the SVG chart.
pub fn write_outputs(
    pts: &[Point],
    cores: usize,
    depth: u32,
    csv_path: &str,
    svg_path: &str,
) -> Result<(), String> {
    std::fs::write(csv_path, csv(pts, cores))
        .map_err(|e| format!("cannot write '{csv_path}': {e}"))?;
    let mut title = format!("pao thread scaling, bench depth {depth}");
    if oversubscription_note(pts, cores).is_some() {
        title.push_str(&format!(" (machine has only {cores} cores)"));
    }
    crate::plot::speedup_svg(pts, &title, svg_path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(nodes: u64, time_ms: u64, nps: u64) -> BenchRun {
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

    fn synthetic() -> Vec<Point> {
        points(&[
            (
                1,
                vec![
                    run(1000, 1000, 1000),
                    run(1000, 1200, 900),
                    run(1000, 1100, 950),
                ],
            ),
            (2, vec![run(1500, 600, 1900), run(1500, 500, 1800)]),
            (4, vec![run(2600, 400, 3300)]),
        ])
    }

    #[test]
    fn csv_and_table() {
        let pts = synthetic();
        assert_eq!(
            csv(&pts, 2),
            "threads,nodes,time_ms,nps,nps_speedup,ttd_speedup,oversubscribed\n\
             1,1000,1100,950,1.000,1.000,no\n\
             2,1500,550,1850,1.947,2.000,no\n\
             4,2600,400,3300,3.474,2.750,yes\n"
        );
        let t = table(&pts, 2);
        assert!(t.contains("      4         2600       400        3300     3.47     2.75  (more threads than cores)\n"), "{t}");
        assert!(
            t.ends_with("only 2 cores: points above 2 threads are oversubscribed\n"),
            "{t}"
        );
        assert_eq!(oversubscription_note(&pts, 4), None);
    }

    #[test]
    fn writes_csv_and_svg() {
        let dir = std::env::temp_dir().join(format!("pao-scaling-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let csv_path = dir.join("s.csv").to_string_lossy().into_owned();
        let svg_path = dir.join("s.svg").to_string_lossy().into_owned();
        write_outputs(&synthetic(), 2, 9, &csv_path, &svg_path).unwrap();
        assert_eq!(
            std::fs::read_to_string(&csv_path).unwrap(),
            csv(&synthetic(), 2)
        );
        let svg = std::fs::read_to_string(&svg_path).unwrap();
        assert!(svg.starts_with("<svg"), "{}", &svg[..40.min(svg.len())]);
        for label in [
            "threads",
            "speed-up",
            "ideal",
            "NPS",
            "time to depth",
            "only 2 cores",
        ] {
            assert!(svg.contains(label), "missing {label}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
