//! The real engine under a fast clock with increments: a short `pao-tools match` of Pao
//! against itself at 2 s + 0.1 s, whose games must end without a time forfeit (the runner
//! keeps both clocks and names every forfeit in its terminations and results file).
//!
//! The engine is the `pao` built next to `pao-tools` (`cargo test --workspace` builds both);
//! when only this crate was built, the test says so and does nothing, except under `CI=true`,
//! where it fails.

use std::path::PathBuf;
use std::process::Command;

#[test]
fn a_fast_match_with_increments_loses_no_game_on_time() {
    let pao = PathBuf::from(env!("CARGO_BIN_EXE_pao-tools")).with_file_name("pao");
    if !pao.exists() {
        let why = format!("{} not built (run cargo test --workspace)", pao.display());
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "CI=true: {why}"
        );
        println!("skipped: {why}");
        return;
    }
    let dir = std::env::temp_dir().join(format!("pao-match-clock-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    let results = dir.join("r.tsv");
    let cmd = format!("cmd={}", pao.to_string_lossy());
    let args = [
        "match",
        "--engine",
        "name=a",
        &cmd,
        "--engine",
        "name=b",
        &cmd,
        "--each",
        "option.Threads=1",
        "option.Hash=16",
        "option.PinThreads=false",
        "option.OwnBook=false",
        "--games",
        "2",
        "--tc",
        "2+0.1",
        "--maxplies",
        "80",
        "--concurrency",
        "1",
        "--resume",
        &results.to_string_lossy(),
    ];
    let out = Command::new(env!("CARGO_BIN_EXE_pao-tools"))
        .args(args)
        .output()
        .expect("run pao-tools match");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    let rows: Vec<String> = std::fs::read_to_string(&results)
        .expect("results file")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(str::to_string)
        .collect();
    assert_eq!(rows.len(), 2, "{stdout}");
    for row in &rows {
        // Columns: round, red, black, result, ..., reason.
        let reason = row.split('\t').nth(5).expect("a reason column");
        assert!(!reason.contains("time forfeit"), "{row}\n{stdout}");
        assert!(
            !reason.ends_with(" by a") && !reason.ends_with(" by b"),
            "{row}"
        );
    }
    let tally = stdout
        .lines()
        .find_map(|l| l.strip_prefix("terminations: "))
        .unwrap_or_else(|| panic!("no terminations line in {stdout}"));
    assert!(!tally.contains("time forfeit"), "{tally}");
    let _ = std::fs::remove_dir_all(&dir);
}
