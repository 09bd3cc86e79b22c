//! Reporting: the CSV file, the text table, and the SVG chart.

use super::measure::Point;

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
    super::plot::speedup_svg(pts, &title, svg_path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scaling::measure::{points, tests::run};

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
