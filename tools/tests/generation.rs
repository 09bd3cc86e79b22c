//! `pao-tools generation` end to end on a tiny budget: every stage runs through the real
//! programs and leaves its files, a second run continues from the state instead of redoing
//! work, and bad arguments get one error line.

use std::path::{Path, PathBuf};
use std::process::Command;

fn tools(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_pao-tools"))
        .args(args)
        .output()
        .expect("run pao-tools");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

fn engine() -> PathBuf {
    let pao = PathBuf::from(env!("CARGO_BIN_EXE_pao-tools")).with_file_name("pao");
    assert!(
        pao.is_file(),
        "{} not built: run cargo test --workspace",
        pao.display()
    );
    pao
}

/// The embedded net and its body checksum (the net file header's bytes 40-48).
fn embedded() -> (pao::eval::nnue::Network, String) {
    let bytes = include_bytes!("../../src/eval/nnue/default.nnue");
    let net = pao::eval::nnue::Network::from_bytes(bytes).expect("the embedded net");
    let checksum = u64::from_le_bytes(bytes[40..48].try_into().expect("a header"));
    (net, format!("{checksum:016x}"))
}

fn generation_dir(root: &Path) -> PathBuf {
    let dirs: Vec<PathBuf> = std::fs::read_dir(root)
        .expect("data dir")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    assert_eq!(dirs.len(), 1, "{dirs:?}");
    dirs[0].clone()
}

#[test]
fn a_generation_runs_every_stage_and_a_second_run_continues_from_its_state() {
    let root = std::env::temp_dir().join(format!("pao-generation-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let pao = engine();
    let args = [
        "generation",
        "--dir",
        root.to_str().expect("utf-8"),
        "--engine",
        pao.to_str().expect("utf-8"),
        "--minutes",
        "20",
        "--threads",
        "2",
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
    ];
    let (code, out, err) = tools(&args);
    assert_eq!(code, 0, "{out}\n{err}");
    for line in [
        "generation: stage 1/4: data",
        "generation: stage 2/4: train",
        "generation: stage 3/4: screen",
        "generation: stage 4/4: sprt",
    ] {
        assert!(out.contains(line), "no '{line}' in:\n{out}");
    }
    let gen = generation_dir(&root);
    // Named by the embedded net's body checksum.
    let (net, checksum) = embedded();
    assert_eq!(
        gen.file_name().and_then(|n| n.to_str()),
        Some(format!("gen-{checksum}").as_str())
    );
    for file in [
        "data.bin",
        "candidate.nnue",
        "screen.tsv",
        "sprt.tsv",
        "sprt.pgn",
        "state.txt",
        "openings.txt",
    ] {
        assert!(gen.join(file).is_file(), "no {file} in {}", gen.display());
    }
    // Two games cannot accept anything: the new net is not taken, and that is the decision.
    let state = std::fs::read_to_string(gen.join("state.txt")).expect("state");
    assert!(
        state.contains("decision not taken: the SPRT did not accept it"),
        "{state}"
    );
    assert!(!gen.join("accepted.nnue").exists());
    let screen_games = std::fs::read_to_string(gen.join("screen.tsv"))
        .expect("screen results")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .count();
    assert_eq!(screen_games, 2);
    let candidate = pao::eval::nnue::Network::load(gen.join("candidate.nnue").to_str().unwrap())
        .expect("the candidate loads");
    assert_eq!(candidate.hidden, net.hidden);
    assert!(
        candidate
            .provenance
            .contains(&format!("init embedded (body checksum {checksum})")),
        "{}",
        candidate.provenance
    );
    // The second run redoes nothing.
    let data = std::fs::metadata(gen.join("data.bin")).expect("data").len();
    let (code, out, err) = tools(&args);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("already decided: not taken"), "{out}");
    assert!(!out.contains("stage 1/4"), "{out}");
    assert_eq!(
        std::fs::metadata(gen.join("data.bin")).expect("data").len(),
        data
    );
    std::fs::remove_dir_all(&root).ok();
}

#[test]
fn bad_arguments_and_nets_get_one_line() {
    let (code, _, err) = tools(&["generation", "--minutes", "0", "--dir", "/nonexistent"]);
    assert_eq!(code, 2);
    assert!(err.contains("--minutes 0 must be positive"), "{err}");
    let (code, _, err) = tools(&["generation", "--data-share", "2", "--dir", "/nonexistent"]);
    assert_eq!(code, 2, "{err}");
    let root = std::env::temp_dir().join(format!("pao-generation-bad-{}", std::process::id()));
    let missing = root.join("missing.nnue");
    let (code, _, err) = tools(&[
        "generation",
        "--dir",
        root.to_str().unwrap(),
        "--net",
        missing.to_str().unwrap(),
    ]);
    assert_eq!(code, 1);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("missing.nnue"), "{err}");
    std::fs::remove_dir_all(&root).ok();
}
