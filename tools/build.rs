//! Records the commit the tools are built from (`PAO_TOOLS_COMMIT`), for the provenance line of
//! the nets `pao-tools train` writes. `PAO_BUILD_COMMIT` set at build time wins (a build from
//! a source archive); otherwise git names HEAD, with `+dirty` when tracked files differ from
//! it; without git the commit is reported as unknown.

use std::path::Path;
use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// Asks Cargo to run this script again when `path` changes (only if it exists: a missing
/// path would rerun it on every build).
fn watch(path: &str) {
    if Path::new(path).exists() {
        println!("cargo:rerun-if-changed={path}");
    }
}

fn main() {
    println!("cargo:rerun-if-env-changed=PAO_BUILD_COMMIT");
    // The sources of both crates (for `+dirty`) and the files git reads HEAD from.
    for path in ["src", "Cargo.toml", "../src", "../Cargo.toml"] {
        watch(path);
    }
    for name in ["HEAD", "index", "packed-refs"] {
        if let Some(p) = git(&["rev-parse", "--git-path", name]) {
            watch(&p);
        }
    }
    if let Some(head_ref) = git(&["symbolic-ref", "-q", "HEAD"]) {
        if let Some(p) = git(&["rev-parse", "--git-path", &head_ref]) {
            watch(&p);
        }
    }
    let commit = std::env::var("PAO_BUILD_COMMIT")
        .ok()
        .filter(|c| !c.trim().is_empty())
        .or_else(|| {
            let head = git(&["rev-parse", "--short=12", "HEAD"])?;
            let dirty = git(&["status", "--porcelain", "--untracked-files=no"])
                .is_some_and(|s| !s.is_empty());
            Some(if dirty { format!("{head}+dirty") } else { head })
        })
        .unwrap_or_else(|| "unknown (built outside a git checkout)".to_string());
    println!("cargo:rustc-env=PAO_TOOLS_COMMIT={commit}");
}
