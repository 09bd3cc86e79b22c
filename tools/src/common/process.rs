//! Drives one engine process: spawn, send lines, receive lines with a deadline, shut down.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Why talking to an engine failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// The engine closed its output or exited.
    Eof,
    /// No line before the deadline.
    Timeout,
    /// Could not start or write to the process.
    Io(String),
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineError::Eof => write!(f, "engine exited"),
            EngineError::Timeout => write!(f, "engine did not answer in time"),
            EngineError::Io(e) => write!(f, "{e}"),
        }
    }
}

/// A running engine with a reader thread that turns its stdout into lines.
pub struct EngineProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    label: String,
    debug: bool,
}

impl EngineProcess {
    /// Starts `cmd args` in `dir`. A relative command path with a `/` is resolved against the
    /// current directory (not `dir`), so `dir=` does not change which program runs.
    pub fn spawn(
        label: &str,
        cmd: &str,
        args: &[String],
        dir: Option<&str>,
    ) -> Result<EngineProcess, EngineError> {
        let program = if cmd.contains('/') {
            std::fs::canonicalize(cmd)
                .map_err(|e| EngineError::Io(format!("cannot find engine '{cmd}': {e}")))?
        } else {
            std::path::PathBuf::from(cmd)
        };
        let mut command = Command::new(&program);
        command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(d) = dir {
            command.current_dir(d);
        }
        let mut child = command
            .spawn()
            .map_err(|e| EngineError::Io(format!("cannot start engine '{cmd}': {e}")))?;
        let stdin = child.stdin.take();
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| EngineError::Io("engine stdout unavailable".into()))?;
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf);
                        let line = line.trim_end_matches(['\n', '\r']).to_string();
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        Ok(EngineProcess {
            child,
            stdin,
            lines: rx,
            label: label.to_string(),
            debug: std::env::var_os("PAO_TOOLS_DEBUG").is_some(),
        })
    }

    /// Sends one line (a newline is added).
    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        if self.debug {
            eprintln!("{} < {line}", self.label);
        }
        let stdin = self.stdin.as_mut().ok_or(EngineError::Eof)?;
        stdin
            .write_all(line.as_bytes())
            .and_then(|_| stdin.write_all(b"\n"))
            .and_then(|_| stdin.flush())
            .map_err(|_| EngineError::Eof)
    }

    /// The next line, waiting until `deadline`.
    pub fn recv_until(&mut self, deadline: Instant) -> Result<String, EngineError> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(line) => {
                if self.debug {
                    eprintln!("{} > {line}", self.label);
                }
                Ok(line)
            }
            Err(RecvTimeoutError::Timeout) => Err(EngineError::Timeout),
            Err(RecvTimeoutError::Disconnected) => Err(EngineError::Eof),
        }
    }

    /// Reads lines until one satisfies `done`, or the timeout passes.
    pub fn wait_for(
        &mut self,
        timeout: Duration,
        mut done: impl FnMut(&str) -> bool,
    ) -> Result<(), EngineError> {
        let deadline = Instant::now() + timeout;
        loop {
            let line = self.recv_until(deadline)?;
            if done(&line) {
                return Ok(());
            }
        }
    }

    /// The engine's resident memory in KiB (VmRSS in /proc), while it runs.
    pub fn resident_kib(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
        line.split_whitespace().nth(1)?.parse().ok()
    }

    /// Asks the engine to quit, gives it a moment, then kills it.
    pub fn shutdown(&mut self) {
        let _ = self.send("quit");
        self.stdin = None;
        let deadline = Instant::now() + Duration::from_millis(300);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}
