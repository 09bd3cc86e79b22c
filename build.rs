//! Records how the engine was built, for the protocol's `compiler` command: the compiler's
//! version, the target, the profile and the CPU features the compiler may use everywhere.

use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_string());
    let version = Command::new(&rustc)
        .arg("--version")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty())
        .unwrap_or_else(|| "rustc (version unknown)".to_string());
    let env = |name: &str| std::env::var(name).unwrap_or_else(|_| "unknown".to_string());
    println!("cargo:rustc-env=PAO_BUILD_RUSTC={version}");
    println!("cargo:rustc-env=PAO_BUILD_TARGET={}", env("TARGET"));
    println!("cargo:rustc-env=PAO_BUILD_PROFILE={}", env("PROFILE"));
    println!("cargo:rustc-env=PAO_BUILD_OPT_LEVEL={}", env("OPT_LEVEL"));
    println!(
        "cargo:rustc-env=PAO_BUILD_TARGET_FEATURES={}",
        std::env::var("CARGO_CFG_TARGET_FEATURE").unwrap_or_default()
    );
}
