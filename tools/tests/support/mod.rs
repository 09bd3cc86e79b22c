//! What the tests of `pao-tools` share: running a program and collecting what it printed, the
//! `pao` built beside `pao-tools`, and a scratch directory. Each test binary uses a part of it.
#![allow(dead_code)]

pub mod generation;

use std::ffi::OsStr;
use std::path::PathBuf;
use std::process::Command;

/// The `pao-tools` under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_pao-tools");

/// Runs `command` to its end: (exit code, stdout, stderr); -1 when a signal ended it.
pub fn output(command: &mut Command) -> (i32, String, String) {
    let out = command
        .output()
        .unwrap_or_else(|e| panic!("cannot run {command:?}: {e}"));
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs `pao-tools ARGS`: (exit code, stdout, stderr).
pub fn tools<S: AsRef<OsStr>>(args: &[S]) -> (i32, String, String) {
    output(Command::new(BIN).args(args))
}

/// The `pao` built beside `pao-tools` (`cargo test --workspace` builds both); when only this
/// crate was built, says that the test is skipped and gives `None`. Under CI=true, where the
/// workspace is built, a missing `pao` fails the test instead: a skip there would hide it.
pub fn engine() -> Option<PathBuf> {
    let pao = PathBuf::from(BIN).with_file_name(format!("pao{}", std::env::consts::EXE_SUFFIX));
    if pao.exists() {
        Some(pao)
    } else if std::env::var("CI").as_deref() == Ok("true") {
        panic!(
            "{} not built, and CI=true: cargo test --workspace builds it",
            pao.display()
        );
    } else {
        println!(
            "skipped: {} not built (run cargo test --workspace, or cargo build first)",
            pao.display()
        );
        None
    }
}

/// Writes an executable file the test will run: `from`'s bytes copied (`cp -p`), or `script`
/// written (`sh -c`), by a child process. A file written by the test process itself could not
/// always be run: another test's thread forking at that moment gives its child the open write
/// descriptor until that child execs, and running the file then fails with "Text file busy".
#[cfg(unix)]
pub fn install_program(to: &std::path::Path, from: Program) {
    let mut command = Command::new(match from {
        Program::Copy(_) => "cp",
        Program::Script(_) => "sh",
    });
    match from {
        Program::Copy(source) => command.arg("-p").arg(source).arg(to),
        Program::Script(text) => command
            .args([
                "-c",
                "printf '%s' \"$1\" > \"$2\" && chmod 755 \"$2\"",
                "sh",
                text,
            ])
            .arg(to),
    };
    let (code, out, err) = output(&mut command);
    assert_eq!(code, 0, "cannot write {}: {out}{err}", to.display());
}

/// What `install_program` writes.
#[cfg(unix)]
pub enum Program<'a> {
    /// A copy of this file.
    Copy(&'a std::path::Path),
    /// A shell script of this text.
    Script(&'a str),
}

/// A scratch directory per test, made empty at the start and removed at the end.
pub struct Scratch(PathBuf);

impl Scratch {
    /// `pao-tools-NAME-PID` in the temporary directory.
    pub fn new(name: &str) -> Scratch {
        let d = std::env::temp_dir().join(format!("pao-tools-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).expect("scratch directory");
        Scratch(d)
    }

    /// The directory.
    pub fn dir(&self) -> &std::path::Path {
        &self.0
    }

    /// File `f` in the directory, as text.
    pub fn path(&self, f: &str) -> String {
        self.0.join(f).to_string_lossy().into_owned()
    }

    /// Writes `text` to file `f` in the directory; its path.
    pub fn file(&self, f: &str, text: &str) -> String {
        let path = self.path(f);
        std::fs::write(&path, text).unwrap_or_else(|e| panic!("{path}: {e}"));
        path
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The moves of a PGN movetext (`H2-E2`), without move numbers, comments (which carry the
/// time a move took) or the result.
pub fn pgn_moves(movetext: &str) -> Vec<String> {
    let mut text = String::new();
    let mut depth = 0;
    for c in movetext.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            _ if depth == 0 => text.push(c),
            _ => {}
        }
    }
    text.split_whitespace()
        .filter(|w| {
            let b = w.as_bytes();
            b.len() == 5 && b[2] == b'-' && b[0].is_ascii_uppercase()
        })
        .map(str::to_string)
        .collect()
}

/// The games of a PGN file as `pao-tools match` writes them, sorted by round: each round and
/// its moves (`H2-E2`; no move numbers, comments, which carry the time a move took, or result).
pub fn pgn_games(pgn: &str) -> Vec<(usize, Vec<String>)> {
    let mut out: Vec<(usize, Vec<String>)> = pgn
        .split("[Event ")
        .skip(1)
        .map(|record| {
            let round = record
                .split("[Round \"")
                .nth(1)
                .and_then(|r| r.split('"').next())
                .and_then(|r| r.parse().ok())
                .expect("a round tag");
            // The movetext follows the tags' blank line, up to the next game's first tag.
            let body = record.split_once("\n\n").map(|(_, b)| b).unwrap_or("");
            let body = body.split("\n[").next().unwrap_or("");
            (round, pgn_moves(body))
        })
        .collect();
    out.sort();
    out
}
