//! The `pao-tools` command line: help and version everywhere, status 2 on bad arguments.

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

const COMMANDS: &[&[&str]] = &[
    &[],
    &["match"],
    &["scaling"],
    &["book"],
    &["book", "build"],
    &["book", "show"],
    &["datagen"],
    &["datagen", "stats"],
    &["judge"],
    &["latency"],
    &["openings"],
    &["train"],
    &["wdlfit"],
    &["soak"],
    &["hashclear"],
    &["fake-engine"],
];

#[test]
fn every_command_has_help_in_both_spellings() {
    for command in COMMANDS {
        for flag in ["--help", "-h"] {
            let args: Vec<&str> = command.iter().copied().chain([flag]).collect();
            let (code, out, err) = tools(&args);
            assert_eq!((code, err.as_str()), (0, ""), "{args:?}");
            // clap's "Usage:", or the own usage text of a command that parses its own.
            let usage = format!("usage: pao-tools {}", command.join(" "));
            assert!(
                out.to_lowercase().contains(usage.trim_end()),
                "{args:?}: {out}"
            );
        }
    }
    let (_, out, _) = tools(&["help", "match"]);
    assert!(out.contains("--engine <KEY=VALUE>"), "{out}");
    assert!(out.contains("cmd=PATH"), "{out}");
}

#[test]
fn version_is_the_crate_version() {
    for args in [&["--version"][..], &["-V"], &["match", "--version"]] {
        let (code, out, _) = tools(args);
        assert_eq!(code, 0, "{args:?}");
        let name = if args.len() == 2 {
            "pao-tools-match"
        } else {
            "pao-tools"
        };
        assert_eq!(out.trim(), format!("{name} {}", env!("CARGO_PKG_VERSION")));
    }
}

#[test]
fn bad_arguments_name_the_argument_and_exit_with_two() {
    for (args, named) in [
        (&["frobnicate"][..], "frobnicate"),
        (&["match", "--engine", "cmd=a"], "at least two"),
        (
            &[
                "match", "--engine", "cmd=a", "--engine", "cmd=b", "--games", "x",
            ],
            "--games",
        ),
        (
            &[
                "match", "--engine", "cmd=a", "--engine", "cmd=b", "--st", "1", "--depth", "3",
            ],
            "--depth",
        ),
        (
            &["match", "--engine", "cmd=a", "--engine", "colour=red"],
            "colour",
        ),
        (
            &["match", "--engine", "cmd=a", "--engine", "cmd=b", "--bogus"],
            "--bogus",
        ),
        (&["scaling", "--runs", "0"], "--runs"),
        (&["latency", "--threads", "1,x"], "--threads"),
        (&["book", "build", "games.pgn"], "--output"),
        (
            &[
                "book",
                "show",
                "startpos",
                "--book",
                "/nonexistent/book.bin",
            ],
            "/nonexistent/book.bin",
        ),
        (&["fake-engine", "--behaviour", "sulk"], "sulk"),
        (&["datagen", "--nodes", "100"], "--out"),
        (&["openings", "--count", "many"], "--count"),
        (&["train", "--epochs", "2"], "--data"),
        (&["datagen", "--out", "x.bin", "--nodes", "lots"], "--nodes"),
    ] {
        let (code, out, err) = tools(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert!(err.starts_with("error: "), "{args:?}: {err}");
        assert!(err.contains(named), "{args:?}: {err}");
    }
}
