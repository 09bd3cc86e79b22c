//! What the tests of `pao-tools generation` share: the arguments of a tiny generation, its
//! directory and state file, the engine it plays with, and the one-line refusals they expect.

use super::BIN;
use std::path::{Path, PathBuf};

/// The `pao` built beside `pao-tools`: the generation tests need it and fail without it.
pub fn engine_built() -> PathBuf {
    let pao = PathBuf::from(BIN).with_file_name(format!("pao{}", std::env::consts::EXE_SUFFIX));
    assert!(
        pao.is_file(),
        "{} not built: run cargo test --workspace",
        pao.display()
    );
    pao
}

/// The arguments of a tiny generation in `root` (one thread, 200 nodes per move, 400
/// positions, one epoch, matches of two games at 300 nodes per move), with `more`: a flag
/// given there replaces its value here, others are added.
pub fn args(root: &Path, more: &[&str]) -> Vec<String> {
    let engine = engine_built();
    let mut a: Vec<String> = [
        "generation",
        "--dir",
        root.to_str().expect("utf-8"),
        "--engine",
        engine.to_str().expect("utf-8"),
        "--minutes",
        "20",
        "--threads",
        "1",
        "--nodes",
        "200",
        "--data-positions",
        "400",
        "--epochs",
        "1",
        "--screen-games",
        "2",
        "--screen-nodes",
        "300",
        "--sprt-nodes",
        "300",
        "--sprt-games",
        "2",
    ]
    .map(String::from)
    .to_vec();
    let mut rest = more.iter();
    while let Some(flag) = rest.next() {
        match a.iter().position(|x| x == flag) {
            Some(i) if flag.starts_with("--") && !["--retry"].contains(flag) => {
                a[i + 1] = rest.next().expect("a value").to_string();
            }
            _ => a.push(flag.to_string()),
        }
    }
    a
}

/// The one generation directory (`gen-CHECKSUM`) in the data directory `root`.
pub fn generation_dir(root: &Path) -> PathBuf {
    let dirs: Vec<PathBuf> = std::fs::read_dir(root)
        .expect("data dir")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("gen-"))
        })
        .collect();
    assert_eq!(dirs.len(), 1, "{dirs:?}");
    dirs[0].clone()
}

/// The state file of the generation (or attempt) directory `dir`.
pub fn state(dir: &Path) -> String {
    std::fs::read_to_string(dir.join("state.txt")).expect("state")
}

/// The number stored under `key` in a state file's text (0 when absent).
pub fn number(state: &str, key: &str) -> f64 {
    value(state, key)
        .and_then(|v| v.parse().ok())
        .unwrap_or(0.0)
}

/// The value stored under `key` in a state file's text.
pub fn value<'a>(state: &'a str, key: &str) -> Option<&'a str> {
    state
        .lines()
        .find_map(|l| l.strip_prefix(key)?.strip_prefix(' '))
}

/// The decision in a state file's text.
pub fn decision(state: &str) -> String {
    value(state, "decision").expect("decided").to_string()
}

/// Games in a match's results file.
pub fn games(results: &Path) -> usize {
    std::fs::read_to_string(results)
        .expect("results")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .count()
}

/// `pao-tools datagen` arguments: `games` games at `nodes` per move on one thread into `out`.
pub fn datagen(out: &str, nodes: &str, games: &str) -> Vec<String> {
    [
        "datagen",
        "--out",
        out,
        "--threads",
        "1",
        "--nodes",
        nodes,
        "--games",
        games,
    ]
    .map(String::from)
    .to_vec()
}

/// Writes `positions` synthetic positions to `out` (`pao-tools synth-data`).
pub fn synth_data(out: &Path, positions: u64) {
    let (code, _, err) = super::tools(&[
        "synth-data",
        "--positions",
        &positions.to_string(),
        "--out",
        out.to_str().expect("utf-8"),
    ]);
    assert_eq!(code, 0, "{err}");
}

/// A run that was refused with one line (exit status 1) saying `says`.
pub fn refused((code, _, err): &(i32, String, String), says: &str) {
    assert_eq!(*code, 1, "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains(says), "no '{says}' in: {err}");
}
