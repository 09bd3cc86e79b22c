//! Drives the real `pao` binary line by line, as a GUI would.
#![allow(dead_code)]

pub mod documents;
pub mod searching;

use std::io::Read;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A running engine process.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Every line read so far, for failure messages.
    pub transcript: Vec<String>,
    /// What the engine wrote to stderr (only with `start_watched`).
    stderr: Arc<Mutex<String>>,
}

/// Generous bound for any single expected reply (CI machines are slow and shared).
pub const TIMEOUT: Duration = Duration::from_secs(20);

impl Engine {
    /// Starts `pao` with no arguments (the daemon).
    pub fn start() -> Engine {
        Engine::start_with(&[])
    }

    /// Starts `pao` with arguments.
    pub fn start_with(args: &[&str]) -> Engine {
        Engine::spawn(Command::new(env!("CARGO_BIN_EXE_pao")).args(args), false)
    }

    /// Starts the daemon with its stderr kept (`stderr_text`), to prove that nothing panicked.
    pub fn start_watched() -> Engine {
        Engine::spawn(&mut Command::new(env!("CARGO_BIN_EXE_pao")), true)
    }

    /// Starts the daemon in the directory `dir` (for commands that write files there).
    pub fn start_in(dir: &std::path::Path) -> Engine {
        Engine::spawn(
            Command::new(env!("CARGO_BIN_EXE_pao")).current_dir(dir),
            false,
        )
    }

    fn spawn(command: &mut Command, keep_stderr: bool) -> Engine {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if keep_stderr {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .spawn()
            .expect("start pao");
        let stderr = Arc::new(Mutex::new(String::new()));
        if let Some(mut pipe) = child.stderr.take() {
            let sink = Arc::clone(&stderr);
            std::thread::spawn(move || {
                let mut chunk = [0u8; 4096];
                while let Ok(n @ 1..) = pipe.read(&mut chunk) {
                    let text = String::from_utf8_lossy(&chunk[..n]).into_owned();
                    sink.lock().expect("stderr buffer").push_str(&text);
                }
            });
        }
        let stdout = child.stdout.take().expect("stdout");
        let stdin = child.stdin.take();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines: rx,
            transcript: Vec::new(),
            stderr,
        }
    }

    /// What the engine wrote to stderr so far (empty unless started by `start_watched`).
    pub fn stderr_text(&self) -> String {
        self.stderr.lock().expect("stderr buffer").clone()
    }

    /// CPU time the process has used so far (Linux: from /proc; `None` elsewhere). A reply
    /// that came late while the engine used next to no CPU was held up by other jobs on the
    /// machine; one that came late while it used a core's worth waited for a search.
    pub fn cpu_time(&self) -> Option<Duration> {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.child.id())).ok()?;
        // Fields after the command name (which may hold spaces) end with ')'.
        let rest = &stat[stat.rfind(')')? + 2..];
        let fields: Vec<&str> = rest.split_whitespace().collect();
        // utime and stime are fields 14 and 15 of the line, in clock ticks of 1/100 s here.
        let ticks: u64 =
            fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
        Some(Duration::from_millis(ticks * 10))
    }

    /// True while the process runs.
    pub fn is_alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Sends raw bytes as they are (for input that is not valid UTF-8).
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        self.transcript
            .push(format!("> {}", String::from_utf8_lossy(bytes).trim_end()));
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("write to engine");
        stdin.flush().expect("flush");
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) {
        self.transcript.push(format!("> {line}"));
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").expect("write to engine");
        stdin.flush().expect("flush");
    }

    /// Sends lines in one write, so that they arrive together (as a GUI's burst does).
    pub fn send_burst(&mut self, lines: &[&str]) {
        let mut text = String::new();
        for line in lines {
            self.transcript.push(format!("> {line}"));
            text.push_str(line);
            text.push('\n');
        }
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(text.as_bytes()).expect("write to engine");
        stdin.flush().expect("flush");
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Closes the engine's input (end of input).
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    /// The next line, or `None` on timeout or end of output.
    pub fn next_line(&mut self, timeout: Duration) -> Option<String> {
        match self.lines.recv_timeout(timeout) {
            Ok(l) => {
                self.transcript.push(format!("< {l}"));
                Some(l)
            }
            Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Reads lines until one satisfies `pred`; returns it with the lines before it.
    pub fn read_until(&mut self, what: &str, pred: impl Fn(&str) -> bool) -> (String, Vec<String>) {
        let deadline = Instant::now() + TIMEOUT;
        let mut before = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next_line(left) {
                Some(l) if pred(&l) => return (l, before),
                Some(l) => before.push(l),
                None => panic!("no {what}; transcript:\n{}", self.transcript.join("\n")),
            }
        }
    }

    /// Reads until a line equal to `expected`, for at most `wait`; the lines before it.
    pub fn read_until_within(&mut self, expected: &str, wait: Duration) -> Option<Vec<String>> {
        let deadline = Instant::now() + wait;
        let mut before = Vec::new();
        loop {
            match self.next_line(deadline.saturating_duration_since(Instant::now())) {
                Some(l) if l == expected => return Some(before),
                Some(l) => before.push(l),
                None => return None,
            }
        }
    }

    /// Reads until a line starting with `prefix`.
    pub fn expect_prefix(&mut self, prefix: &str) -> (String, Vec<String>) {
        self.read_until(prefix, |l| l.starts_with(prefix))
    }

    /// Reads the next line and asserts it equals `expected`.
    pub fn expect_exact(&mut self, expected: &str) {
        let got = self.next_line(TIMEOUT);
        assert_eq!(
            got.as_deref(),
            Some(expected),
            "transcript:\n{}",
            self.transcript.join("\n")
        );
    }

    /// Asserts that no `bestmove`/`nobestmove` arrives within `wait` (`info` lines may), and
    /// that the engine is still running then: a dead engine sends no `bestmove` either.
    pub fn expect_no_bestmove(&mut self, wait: Duration) {
        let deadline = Instant::now() + wait;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                break;
            }
            match self.lines.recv_timeout(left) {
                Ok(l) if l.contains("bestmove") => {
                    self.transcript.push(format!("< {l}"));
                    panic!(
                        "unexpected '{l}'; transcript:\n{}",
                        self.transcript.join("\n")
                    )
                }
                Ok(l) => self.transcript.push(format!("< {l}")),
                Err(RecvTimeoutError::Timeout) => break,
                Err(RecvTimeoutError::Disconnected) => panic!(
                    "the engine's output ended; transcript:\n{}",
                    self.transcript.join("\n")
                ),
            }
        }
        self.assert_alive();
    }

    /// Asserts that nothing at all arrives within `wait` and that the engine is still running.
    pub fn expect_silence(&mut self, wait: Duration) {
        match self.lines.recv_timeout(wait) {
            Ok(l) => {
                self.transcript.push(format!("< {l}"));
                panic!(
                    "unexpected '{l}'; transcript:\n{}",
                    self.transcript.join("\n")
                )
            }
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => panic!(
                "the engine's output ended; transcript:\n{}",
                self.transcript.join("\n")
            ),
        }
        self.assert_alive();
    }

    /// Panics when the process has exited.
    pub fn assert_alive(&mut self) {
        if let Ok(Some(status)) = self.child.try_wait() {
            panic!(
                "the engine exited ({status}); transcript:\n{}",
                self.transcript.join("\n")
            );
        }
    }

    /// Waits for the process to exit; returns its status code.
    pub fn wait_exit(&mut self, timeout: Duration) -> Option<i32> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                return status.code();
            }
            if Instant::now() >= deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// UCCI handshake with quiet defaults for tests (one thread, small hash, no pinning).
    pub fn ucci(threads: usize) -> Engine {
        let mut e = Engine::start();
        e.send("ucci");
        e.expect_prefix("ucciok");
        e.send(&format!("setoption threads {threads}"));
        e.send("setoption hashsize 16");
        e.send("setoption pinthreads false");
        e.send("isready");
        e.expect_exact("readyok");
        e
    }

    /// CECP handshake (`xboard`, `protover 2`) with quiet defaults for tests: one core, a
    /// small table, no pinning, a fast clock (`st 1`), no pondering; ends with `ping 1`.
    pub fn cecp() -> Engine {
        let mut e = Engine::start();
        e.send("xboard");
        e.send("protover 2");
        e.expect_exact_eventually("feature done=1");
        for line in [
            "new",
            "variant xiangqi",
            "memory 16",
            "cores 1",
            "option PinThreads=0",
            "easy",
            "st 1",
            "ping 1",
        ] {
            e.send(line);
        }
        e.expect_exact("pong 1");
        e
    }

    /// Reads lines until one equals `expected`.
    pub fn expect_exact_eventually(&mut self, expected: &str) -> Vec<String> {
        self.read_until(expected, |l| l == expected).1
    }

    /// UCI handshake with quiet defaults for tests.
    pub fn uci(threads: usize) -> Engine {
        let mut e = Engine::start();
        e.send("uci");
        e.expect_prefix("uciok");
        e.send(&format!("setoption name Threads value {threads}"));
        e.send("setoption name Hash value 16");
        e.send("setoption name PinThreads value false");
        e.send("isready");
        e.expect_exact("readyok");
        e
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The move of a `bestmove` line (`None` for `nobestmove` / `bestmove (none)`).
pub fn bestmove_of(line: &str) -> Option<String> {
    let mut words = line.split_whitespace();
    match (words.next(), words.next()) {
        (Some("bestmove"), Some("(none)")) => None,
        (Some("bestmove"), Some(m)) => Some(m.to_string()),
        _ => None,
    }
}

/// Black's rook stands free on a4, attacked by red's rook on a0 (and attacking it).
pub const FREE_ROOK: &str = "1nbakabnr/9/1c5c1/p1p1p1p1p/9/r8/2P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// The number after the word `name` in an `info` line (`depth`, `score`, `nodes`, ...).
pub fn info_number(line: &str, name: &str) -> Option<i64> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|w| *w == name)?;
    words.get(at + 1)?.parse().ok()
}

/// The last of a search's `lines` that starts with `prefix` (its final `info depth N` or
/// `info time` line); a test fails here when there is none.
pub fn last_line<'a>(lines: &'a [String], prefix: &str) -> &'a str {
    lines
        .iter()
        .rev()
        .find(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("no line starting with '{prefix}' in {lines:?}"))
}

/// A network with deterministic pseudo-random weights in the trained range (plain features).
pub fn random_net(
    hidden: usize,
    activation: pao::eval::nnue::Activation,
    seed: u64,
) -> pao::eval::nnue::Network {
    random_net_of(pao::eval::nnue::FeatureSet::Plain, hidden, activation, seed)
}

/// The same for any feature set.
pub fn random_net_of(
    features: pao::eval::nnue::FeatureSet,
    hidden: usize,
    activation: pao::eval::nnue::Activation,
    seed: u64,
) -> pao::eval::nnue::Network {
    let mut state = seed;
    let mut next = |range: i64| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((state >> 33) as i64 % (2 * range + 1) - range) as i16
    };
    let inputs = features.inputs();
    pao::eval::nnue::Network {
        features,
        hidden,
        activation,
        qa: 255,
        qb: 64,
        scale: 400,
        ft_weights: (0..inputs * hidden).map(|_| next(200)).collect(),
        ft_bias: (0..hidden).map(|_| next(100)).collect(),
        out_weights: (0..2 * hidden).map(|_| next(127)).collect(),
        out_bias: next(3000) as i32 * 10,
        // PSQT weights up to about 300 cp (units 1/(QA*QB) of 400 cp).
        psqt: (0..inputs).map(|_| next(1200) as i32 * 10).collect(),
        provenance: "random test net".into(),
    }
}
