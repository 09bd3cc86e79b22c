//! `Debug Log File`: a copy of the conversation, input lines as `>> LINE` and output lines as
//! `<< LINE` (Stockfish's marks), appended to the file and written line by line, so that the
//! log is whole even if the engine is killed.

use std::fs::{File, OpenOptions};
use std::io::Write;

/// An open log.
#[derive(Debug)]
pub(super) struct DebugLog {
    file: File,
}

impl DebugLog {
    /// Opens `path` for appending (created when missing).
    pub(super) fn open(path: &str) -> Result<DebugLog, String> {
        OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map(|file| DebugLog { file })
            .map_err(|e| format!("cannot open the debug log {path}: {e}"))
    }

    /// An input line.
    pub(super) fn input(&mut self, line: &str) {
        self.write(">> ", line);
    }

    /// An output line.
    pub(super) fn output(&mut self, line: &str) {
        self.write("<< ", line);
    }

    fn write(&mut self, mark: &str, line: &str) {
        // One write per line; a full disk must not stop the engine.
        let _ = self.file.write_all(format!("{mark}{line}\n").as_bytes());
    }
}
