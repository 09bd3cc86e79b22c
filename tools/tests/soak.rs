//! `pao-tools soak` on the real engine, in seconds: a short run passes with its one summary
//! line, and a run too short to fill the table fails, says why and exits with status 1.
//!
//! The engine is the `pao` built next to `pao-tools` (`cargo test --workspace` builds both);
//! when only this crate was built, the test says so and does nothing.

mod support;

use std::process::Command;
use support::{engine, output, BIN};

fn soak(pao: &std::path::Path, args: &[&str]) -> (i32, String, String) {
    output(
        Command::new(BIN)
            .arg("soak")
            .arg("--engine")
            .arg(pao)
            .args(args),
    )
}

/// The number after `key` in the summary line.
fn field(line: &str, key: &str) -> u64 {
    let at = line
        .find(key)
        .unwrap_or_else(|| panic!("no '{key}' in {line}"))
        + key.len();
    let digits: String = line[at..]
        .trim_start()
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits
        .parse()
        .unwrap_or_else(|_| panic!("no number after '{key}' in {line}"))
}

#[test]
fn a_short_soak_passes_and_reports_what_it_saw() {
    let Some(pao) = engine() else { return };
    // 6 s on the start position with a 1 MiB table, which the search fills in well under that.
    let (code, out, err) = soak(
        &pao,
        &[
            "--minutes",
            "0.1",
            "--threads",
            "1",
            "--hash",
            "1",
            "--sample",
            "1",
        ],
    );
    assert_eq!((code, err.as_str()), (0, ""), "{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 1, "{out}");
    let line = lines[0];
    let head = "soak: PASS minutes 0.1 threads 1 hash 1 MiB: endgame depth ";
    assert!(line.starts_with(head), "{line}");
    // The endgame iterations passed depth 100 and stayed within the engine's cap of 120.
    let depth = field(line, "endgame depth");
    assert!((100..=120).contains(&depth), "{line}");
    assert!(field(line, "seldepth") >= depth, "{line}");
    assert!(field(line, "start position nodes") > 0, "{line}");
    assert!((990..=1000).contains(&field(line, "hashfull")), "{line}");
    assert!(field(line, "info lines") > 0, "{line}");
    // Memory was sampled, and stayed within the table plus the tool's 128 MiB margin.
    let (mid, end, max) = (
        field(line, "rss KiB mid"),
        field(line, " end "),
        field(line, " max "),
    );
    assert!(mid > 0 && end > 0 && max >= mid.max(end), "{line}");
    assert!(max <= (1 + 128) * 1024, "{line}");
}

#[test]
fn a_soak_that_cannot_fill_the_table_fails_with_status_one() {
    let Some(pao) = engine() else { return };
    // 60 ms on a 64 MiB table: far too few nodes for hashfull 990.
    let (code, out, err) = soak(
        &pao,
        &["--minutes", "0.001", "--hash", "64", "--sample", "1"],
    );
    assert_eq!(code, 1, "{out}{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[0].starts_with("soak: FAIL minutes 0.001 threads 1 hash 64 MiB: endgame depth "),
        "{out}"
    );
    assert_eq!(lines.len(), 2, "{out}");
    let reached = field(lines[1], "soak: hashfull reached only");
    assert!(reached < 990, "{out}");
    assert_eq!(err, "pao-tools soak: 1 problem(s)\n");
}
