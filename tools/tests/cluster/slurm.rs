//! The sbatch scripts on a real Slurm: `tools/cluster/slurm/test-single-node.sh` starts a
//! one-node Slurm (munged, slurmctld, slurmd) in a temporary directory, runs an array of 4
//! datagen shards with the merge and a training job after it, then a match of 4 shards with its
//! merge, and compares both with local runs byte for byte, then a whole network generation
//! with `submit-generation.sh` (self-play shards, merge, training, SPRT shards, merge,
//! decision) on a tiny budget, checking every file it leaves and its decision, and one whose
//! self-play array is cancelled, checking that the jobs waiting on it end, and a tuning run of
//! 2 array tasks on one state; it stops the daemons it started. `submit-generation.sh` checks
//! its settings before it submits anything: that part runs everywhere.
//! It needs root and Debian's slurm-wlm and munge (`.ci/run` installs them where apt can);
//! elsewhere this test says it was skipped, except under `CI=true` (which `.ci/run` sets),
//! where it fails: a skip there would hide a failed install.

use std::path::{Path, PathBuf};
use std::process::Command;

/// A program on PATH or in the system directories where Debian puts the daemons.
fn have(program: &str) -> bool {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain(["/usr/sbin", "/sbin"].map(PathBuf::from))
        .any(|dir| dir.join(program).is_file())
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false)
}

#[test]
fn sbatch_scripts_on_a_single_node_slurm_merge_exactly() {
    let missing: Vec<&str> = ["sbatch", "scontrol", "slurmctld", "slurmd", "munged"]
        .into_iter()
        .filter(|p| !have(p))
        .collect();
    let tools = PathBuf::from(env!("CARGO_BIN_EXE_pao-tools"));
    let pao = tools.with_file_name("pao");
    let why = if !missing.is_empty() {
        Some(format!(
            "no {} (install slurm-wlm and munge)",
            missing.join(", ")
        ))
    } else if !is_root() {
        Some("the single-node Slurm test starts slurmd, which needs root".to_string())
    } else if !pao.exists() {
        Some(format!(
            "{} not built (run cargo test --workspace)",
            pao.display()
        ))
    } else {
        None
    };
    if let Some(why) = why {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "CI=true: {why}"
        );
        println!("skipped: {why}");
        return;
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("cluster/slurm/test-single-node.sh");
    let out = Command::new("bash")
        .arg(&script)
        .arg(&tools)
        .arg(&pao)
        .output()
        .expect("run test-single-node.sh");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "test-single-node.sh failed\nstdout:\n{stdout}\nstderr:\n{stderr}"
    );
    for line in [
        "slurm test: datagen: 4 shards (array job ",
        ") merged by job ",
        "= one local run, ",
        "slurm test: train: job ",
        "slurm test: match: 4 shards (array job ",
        "SPRT elo0=0 elo1=5 alpha=0.05 beta=0.05 model=normalized min-games=200: LLR ",
        "slurm test: generation: jobs ",
        ": decision not taken: the SPRT did not accept it (",
        "slurm test: cancelled generation: array job ",
        "slurm test: tune: 2 tasks (array job ",
        "slurm test: passed\n",
    ] {
        assert!(stdout.contains(line), "no '{line}' in\n{stdout}");
    }
    println!("{stdout}");
}

/// Runs submit-generation.sh with `settings` (on top of a valid set) and returns its exit
/// status and stderr. Every case fails before anything is submitted.
fn submit_generation(settings: &[(&str, &str)]) -> (i32, String) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("cluster/slurm/submit-generation.sh");
    let out = std::env::temp_dir().join(format!("pao-submit-gen-{}", std::process::id()));
    let tools = env!("CARGO_BIN_EXE_pao-tools");
    let mut command = Command::new("bash");
    command.arg(&script);
    for (k, v) in [
        ("OUT", out.to_str().expect("utf-8")),
        ("SHARDS", "2"),
        ("GAMES", "4"),
        ("PAO_TOOLS", tools),
    ]
    .into_iter()
    .chain(settings.iter().copied())
    {
        command.env(k, v);
    }
    let result = command.output().expect("run submit-generation.sh");
    assert!(
        !out.exists(),
        "{} was made before the settings were checked",
        out.display()
    );
    (
        result.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&result.stderr).to_string(),
    )
}

#[test]
fn submit_generation_checks_its_settings_before_it_submits() {
    let pao = PathBuf::from(env!("CARGO_BIN_EXE_pao-tools")).with_file_name("pao");
    let pao = pao.to_str().expect("utf-8");
    let broken = std::env::temp_dir().join(format!("pao-submit-gen-{}.nnue", std::process::id()));
    std::fs::write(&broken, "not a net").expect("written");
    let broken = broken.to_str().expect("utf-8");
    let net_error = format!("NET: pao-tools generation: --init {broken}: ");
    for (settings, says) in [
        (
            vec![("SHARDS", "")],
            "SHARDS must be a whole number of at least 1 (it is '')",
        ),
        (
            vec![("GAMES", "ten")],
            "GAMES must be a whole number of at least 1 (it is 'ten')",
        ),
        (
            vec![("GAMES", "1")],
            "GAMES (1) must be at least SHARDS (2)",
        ),
        (
            vec![("LR", "-1")],
            "LR must be a number above 0 such as 0.0003 (it is '-1')",
        ),
        (
            vec![("LR", "0")],
            "LR must be a number above 0 such as 0.0003 (it is '0')",
        ),
        (
            vec![("WEIGHT_DECAY", "1")],
            "WEIGHT_DECAY must be a number from 0 to below 1 such as 0.03 (it is '1')",
        ),
        (
            vec![("WEIGHT_DECAY", "-0.1")],
            "WEIGHT_DECAY must be a number from 0 to below 1 such as 0.03 (it is '-0.1')",
        ),
        (
            vec![("PAIRS", "0")],
            "PAIRS must be a whole number of at least 1 (it is '0')",
        ),
        (
            vec![("SPRT_TC", "fast")],
            "SPRT_TC must be a clock such as 3+0.03",
        ),
        (
            vec![("SPRT", "elo0=0 elo2=5")],
            "SPRT takes elo0=, elo1=, alpha=, beta= with numbers (not 'elo2=5')",
        ),
        (
            vec![("PAO", "/nonexistent/pao")],
            "PAO: no file /nonexistent/pao",
        ),
        (
            vec![("PAO_TOOLS", "/nonexistent/pao-tools")],
            "PAO_TOOLS: no file /nonexistent/pao-tools",
        ),
        (
            vec![("PAO", pao), ("NET", "/nonexistent/net.nnue")],
            "NET: no file /nonexistent/net.nnue",
        ),
        (vec![("PAO", pao), ("NET", broken)], net_error.as_str()),
        (
            vec![("PAO", pao), ("WINDOW", "/nonexistent/old.bin")],
            "WINDOW: no file /nonexistent/old.bin",
        ),
    ] {
        let (code, err) = submit_generation(&settings);
        assert_eq!(code, 2, "{settings:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{settings:?}: {err}");
        assert!(
            err.starts_with("submit-generation.sh: ") && err.contains(says),
            "{settings:?}: no '{says}' in {err}"
        );
    }
    std::fs::remove_file(broken).ok();
}
