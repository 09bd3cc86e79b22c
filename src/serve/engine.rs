//! The engine behind the server: the coordinator, driven with UCI lines that the server built
//! from checked, typed requests, writing into a sink that feeds the hub. The search code is
//! the daemon's, untouched.

use super::hub::{Hub, SearchKind};
use crate::coordinator::{Driven, DrivenGuard};
use std::io::Write;
use std::sync::Arc;

/// The coordinator's output: whole lines go to the hub, and to the caller that is waiting
/// for the answer to its own command.
pub struct Sink {
    hub: Arc<Hub>,
    partial: Vec<u8>,
    captured: Option<Vec<String>>,
}

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.partial.extend_from_slice(buf);
        while let Some(end) = self.partial.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.partial.drain(..=end).collect();
            let text = String::from_utf8_lossy(&line);
            let text = text.trim_end_matches(['\r', '\n']);
            if let Some(c) = self.captured.as_mut() {
                c.push(text.to_string());
            }
            self.hub.engine_line(text);
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The coordinator with its events thread.
pub struct Engine {
    driven: Driven<Sink>,
    hub: Arc<Hub>,
}

/// The engine, locked for a sequence of commands; no other output comes between them.
pub struct Locked<'a> {
    guard: DrivenGuard<'a, Sink>,
    hub: &'a Hub,
}

impl Engine {
    /// Starts the engine in UCI mode.
    pub fn start(hub: Arc<Hub>) -> Result<Engine, String> {
        let sink = Sink {
            hub: Arc::clone(&hub),
            partial: Vec::new(),
            captured: None,
        };
        let driven = Driven::start(sink)?;
        driven.lock().send("uci");
        Ok(Engine { driven, hub })
    }

    /// Locks the engine.
    pub fn lock(&self) -> Locked<'_> {
        Locked {
            guard: self.driven.lock(),
            hub: &self.hub,
        }
    }

    /// Quits the engine (a running search is stopped) and waits for its threads.
    pub fn shutdown(&mut self) {
        self.driven.shutdown();
    }
}

impl Locked<'_> {
    /// Sends one line; returns the engine's errors it caused at once (`info string error:`).
    pub fn send(&mut self, line: &str) -> Vec<String> {
        self.guard.output().captured = Some(Vec::new());
        self.guard.send(line);
        let lines = self.guard.output().captured.take().unwrap_or_default();
        lines
            .into_iter()
            .filter_map(|l| l.strip_prefix("info string error: ").map(str::to_string))
            .collect()
    }

    /// Starts a search of the position last sent (`go_line` is the whole `go` command) at
    /// `level` (a game's `Skill Level`; analyses are at full strength); returns its number.
    pub fn go(&mut self, kind: SearchKind, fen: String, go_line: &str, level: u8) -> u64 {
        self.send(&format!("setoption name Skill Level value {level}"));
        let id = self.hub.expect_search(kind, fen);
        self.send(go_line);
        id
    }
}
