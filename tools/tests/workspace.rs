//! `cargo build --release` at the top of the workspace, as README gives it, builds both
//! binaries: the engine and `pao-tools` are the workspace's default members, so one is never
//! left stale beside the other.

use std::process::Command;

#[test]
fn a_plain_cargo_build_builds_the_engine_and_the_tools() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let out = Command::new(cargo)
        .args([
            "metadata",
            "--no-deps",
            "--format-version",
            "1",
            "--offline",
        ])
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let key = "\"workspace_default_members\":[";
    let start = text.find(key).expect("cargo names the default members") + key.len();
    let members: Vec<&str> = text[start..]
        .split(']')
        .next()
        .unwrap_or("")
        .split(',')
        .filter_map(|id| id.trim_matches('"').rsplit('#').next())
        .filter_map(|name| name.split('@').next())
        .collect();
    assert_eq!(members, ["pao", "pao-tools"], "{}", &text[start..]);
    // Both binaries of the test build are where README says they are.
    let tools = std::path::PathBuf::from(env!("CARGO_BIN_EXE_pao-tools"));
    assert!(
        tools.with_file_name("pao").is_file(),
        "no pao beside {}",
        tools.display()
    );
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md"))
        .expect("README.md");
    assert!(
        readme.contains("cargo build --release\n")
            && readme.contains("This builds the engine, `target/release/pao`, and the tools")
            && readme.contains("`target/release/pao-tools`"),
        "README no longer says what cargo build gives"
    );
}
