//! The sbatch scripts on a real Slurm: `tools/cluster/slurm/test-single-node.sh` starts a
//! one-node Slurm (munged, slurmctld, slurmd) in a temporary directory, runs an array of 4
//! datagen shards with the merge and a training job after it, then a match of 4 shards with its
//! merge, and compares both with local runs byte for byte; it stops the daemons it started.
//! It needs root and Debian's slurm-wlm and munge (`.ci/run` installs them where apt can);
//! elsewhere this test says it was skipped.

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
    if !missing.is_empty() {
        println!(
            "skipped: no {} (install slurm-wlm and munge)",
            missing.join(", ")
        );
        return;
    }
    if !is_root() {
        println!("skipped: the single-node Slurm test starts slurmd, which needs root");
        return;
    }
    let tools = PathBuf::from(crate::support::BIN);
    let Some(pao) = crate::support::engine() else {
        return;
    };
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
        "SPRT elo0=0 elo1=5 alpha=0.05 beta=0.05: LLR ",
        "slurm test: passed\n",
    ] {
        assert!(stdout.contains(line), "no '{line}' in\n{stdout}");
    }
    println!("{stdout}");
}
