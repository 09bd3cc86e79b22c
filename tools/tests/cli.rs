//! The `pao-tools` command line: help and version everywhere, every command listed with its
//! full usage, status 2 on bad arguments, the engine found where `cargo install` puts it, and
//! a printing command ended silently by a reader that goes away.

mod support;

use support::{tools, Scratch};

const COMMANDS: &[&[&str]] = &[
    &[],
    &["match"],
    &["match", "merge"],
    &["match", "sprt"],
    &["scaling"],
    &["book"],
    &["book", "build"],
    &["book", "show"],
    &["datagen"],
    &["datagen", "stats"],
    &["datagen", "merge"],
    &["judge"],
    &["latency"],
    &["openings"],
    &["train"],
    &["wdlfit"],
    &["soak"],
    &["hashclear"],
    &["fake-engine"],
    &["levels"],
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
        (&["datagen", "--out", "x.bin", "--shard", "4/3"], "4/3"),
        (&["datagen", "--out", "x.bin", "--shard", "1/3"], "--games"),
        (
            &[
                "datagen",
                "--out",
                "x.bin",
                "--shard",
                "1/3",
                "--games",
                "9",
                "--positions",
                "5",
            ],
            "--positions",
        ),
        (&["datagen", "merge", "a.bin"], "--out"),
        (
            &[
                "match", "--engine", "cmd=a", "--engine", "cmd=b", "--shard", "1/2",
            ],
            "--resume",
        ),
        (
            &[
                "match", "--engine", "cmd=a", "--engine", "cmd=b", "--shard", "1/2", "--resume",
                "r.tsv", "--sprt",
            ],
            "match merge",
        ),
        (&["match", "merge", "r.tsv", "--sprt", "elo0=x"], "--sprt"),
        (&["match", "sprt", "576-549"], "give W-L-D"),
        (&["match", "sprt", "1-2-3", "--sprt", "elo1=-1"], "--sprt"),
        (&["match", "sprt", "0-0-0"], "no game counted"),
    ] {
        let (code, out, err) = tools(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert!(err.starts_with("error: "), "{args:?}: {err}");
        assert!(err.contains(named), "{args:?}: {err}");
    }
}

/// The commands that once parsed their own arguments (`wdlfit`, `hashclear`, `synth-data`,
/// `openings`, `soak`; `train` still does) report a bad command line as clap does: status 2,
/// nothing on stdout, and this exact first line on stderr.
#[test]
fn every_command_reports_a_bad_command_line_with_status_two() {
    let unexpected = "error: unexpected argument '--bogus' found";
    for (args, first_line) in [
        // Unknown flag, bad value, missing value or argument, out of range; for each command.
        (&["wdlfit", "--bogus"][..], unexpected),
        (
            &["wdlfit"],
            "error: the following required arguments were not provided:",
        ),
        (&["hashclear", "--bogus"], unexpected),
        (
            &["hashclear", "--hash", "lots"],
            "error: invalid value 'lots' for '--hash <MB>': invalid digit found in string",
        ),
        (
            &["hashclear", "--runs"],
            "error: a value is required for '--runs <N>' but none was supplied",
        ),
        (&["synth-data", "--bogus"], unexpected),
        (
            &["synth-data", "--positions", "x", "--out", "d.bin"],
            "error: invalid value 'x' for '--positions <N>': invalid digit found in string",
        ),
        (
            &["synth-data", "--out", "d.bin"],
            "error: the following required arguments were not provided:",
        ),
        (
            &["synth-data", "--positions", "0", "--out", "d.bin"],
            "error: invalid value '0' for '--positions <N>': 0 is not in 1..18446744073709551615",
        ),
        (&["openings", "--bogus"], unexpected),
        (
            &["openings", "--count", "many"],
            "error: invalid value 'many' for '--count <N>': invalid digit found in string",
        ),
        (
            &["openings", "--plies", "0"],
            "error: invalid value '0' for '--plies <P>': 0 is not in 1..18446744073709551615",
        ),
        (&["soak", "--bogus"], unexpected),
        (
            &["soak", "--minutes", "0"],
            "error: invalid value '0' for '--minutes <M>': '0' is not a positive number of minutes",
        ),
        (
            &["soak", "--hash"],
            "error: a value is required for '--hash <MB>' but none was supplied",
        ),
        (
            &["train", "--bogus"],
            "error: unexpected argument '--bogus'",
        ),
        (
            &["train", "--data", "d.bin", "--epochs", "x"],
            "error: bad value 'x' for --epochs",
        ),
        (
            &["train", "--epochs", "2"],
            "error: no data: give --data FILE...",
        ),
    ] {
        let (code, out, err) = tools(args);
        assert_eq!(
            (code, out.as_str(), err.lines().next()),
            (2, "", Some(first_line)),
            "{args:?}: {err}"
        );
        // clap's closing line; `train`'s own errors end with its usage line instead.
        let last = if args[0] == "train" {
            "Usage: pao-tools train [ARGS]..."
        } else {
            "For more information, try '--help'."
        };
        assert_eq!(err.lines().last(), Some(last), "{args:?}: {err}");
    }
    // What a missing required argument names comes on the next line.
    let (_, _, err) = tools(&["synth-data", "--out", "d.bin"]);
    assert_eq!(err.lines().nth(1), Some("  --positions <N>"));
    let (_, _, err) = tools(&["wdlfit"]);
    assert_eq!(err.lines().nth(1), Some("  <FILE.pgn>..."));
}

/// Every command, in the order `pao-tools --help` lists them.
const LISTED: &[&str] = &[
    "match",
    "scaling",
    "book",
    "openings",
    "levels",
    "datagen",
    "egtb",
    "judge",
    "latency",
    "generation",
    "train",
    "synth-data",
    "wdlfit",
    "mates",
    "soak",
    "tune",
    "hashclear",
    "fake-engine",
    "help",
];

#[test]
fn help_lists_every_command() {
    let (code, out, err) = tools(&["--help"]);
    assert_eq!((code, err.as_str()), (0, ""));
    let listed: Vec<&str> = out
        .lines()
        .skip_while(|l| *l != "Commands:")
        .skip(1)
        .take_while(|l| !l.is_empty())
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert_eq!(listed, LISTED, "{out}");
}

#[test]
fn help_command_prints_the_full_usage_that_command_help_prints() {
    let nested: &[&[&str]] = &[
        &["match", "merge"],
        &["match", "sprt"],
        &["egtb", "generate"],
        &["mates", "run"],
        &["datagen", "stats"],
        &["book", "show"],
    ];
    let commands = LISTED[..LISTED.len() - 1]
        .iter()
        .map(std::slice::from_ref)
        .chain(nested.iter().copied());
    for command in commands {
        let (code, by_help, err) = tools(&[&["help"], command].concat());
        assert_eq!((code, err.as_str()), (0, ""), "help {command:?}");
        let (_, by_flag, _) = tools(&[command, &["--help"]].concat());
        assert_eq!(by_help, by_flag, "help {command:?}");
        let usage = format!("usage: pao-tools {}", command.join(" "));
        assert!(by_help.to_lowercase().contains(&usage), "{by_help}");
    }
    // `train` parses its own arguments: its usage is its own text, every option in it.
    let (_, train, _) = tools(&["help", "train"]);
    assert!(
        train.starts_with("usage: pao-tools train --data FILE... [options]\n"),
        "{train}"
    );
    for option in ["--data FILE...", "--epochs N", "--resume FILE", "--fit-k"] {
        assert!(train.contains(option), "no {option} in {train}");
    }
    assert!(!train.contains("[ARGS]"), "{train}");
}

/// `latency`, `soak`, `hashclear`, `mates run` and `scaling` run the `pao` beside `pao-tools`
/// when no `--engine` is given, else the first on PATH: installed by `cargo install`, both are
/// in one directory; elsewhere `pao` is found on PATH. Shown with `latency`, the quickest.
#[cfg(unix)]
#[test]
fn the_default_engine_is_the_pao_beside_the_tools_then_on_path() {
    use std::os::unix::fs::symlink;
    use std::process::Command;
    use support::Program;
    let Some(pao) = support::engine() else { return };
    let scratch = Scratch::new("installed");
    let [bin, elsewhere, broken] = ["bin", "elsewhere", "broken"].map(|d| scratch.dir().join(d));
    for d in [&bin, &elsewhere, &broken] {
        std::fs::create_dir_all(d).expect("directory");
    }
    let tools = bin.join("pao-tools");
    support::install_program(&tools, Program::Copy(support::BIN.as_ref()));
    symlink(&pao, elsewhere.join("pao")).expect("link pao");
    // A `pao` that is no engine: it exits at once.
    let no_engine = broken.join("pao");
    support::install_program(&no_engine, Program::Script("#!/bin/sh\nexit 0\n"));
    let latency = |path: &[&std::path::Path]| {
        let path = std::env::join_paths(path).expect("PATH");
        support::output(
            Command::new(&tools)
                .args(["latency", "--threads", "1", "--runs", "1"])
                .env("PATH", path),
        )
    };
    let row = |out: &str| {
        out.lines()
            .nth(1)
            .map(|l| l.starts_with("       1      1 "))
    };

    // Nowhere: the bare name, which does not start.
    let (code, out, err) = latency(&[scratch.dir()]);
    assert_eq!((code, out.as_str()), (1, ""), "{err}");
    assert!(
        err.starts_with("pao-tools latency: cannot start 'pao': "),
        "{err}"
    );
    // On PATH, the first directory that has one.
    let (code, out, err) = latency(&[scratch.dir(), &elsewhere, &broken]);
    assert_eq!((code, row(&out)), (0, Some(true)), "{out}{err}");
    let (code, _, err) = latency(&[&broken, &elsewhere]);
    assert_eq!(code, 1, "{err}");
    // Beside the tools, before PATH.
    symlink(&pao, bin.join("pao")).expect("link pao");
    let (code, out, err) = latency(&[&broken]);
    assert_eq!((code, row(&out)), (0, Some(true)), "{out}{err}");
}

/// A command that only prints ends silently when its reader goes away, as the shell's tools do
/// (`pao-tools egtb list | head -1`): SIGPIPE's default action, no panic, nothing on stderr.
/// Its stdout is a pipe whose reading end is closed before it starts, so its first write fails
/// however the two processes are scheduled. The other side, a match runner that outlives an
/// engine that died, is `crash_loses` in tools/tests/match.rs.
#[cfg(target_os = "linux")]
#[test]
fn printers_end_quietly_when_their_reader_goes_away() {
    use std::os::unix::process::ExitStatusExt;
    use std::process::Command;
    for args in [
        &["egtb", "list"][..],
        &["match", "plan", "--sprt", "elo0=0", "elo1=10"],
    ] {
        let (reader, writer) = std::io::pipe().expect("a pipe");
        drop(reader);
        let out = Command::new(support::BIN)
            .args(args)
            .stdout(writer)
            .output()
            .expect("run pao-tools");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            (out.status.code(), out.status.signal()),
            (None, Some(libc::SIGPIPE)),
            "{args:?}: {err}"
        );
        assert_eq!(err, "", "{args:?}");
    }
}
