//! A stage's program (`pao-tools datagen`, `train` or `match`) run as a child process: its
//! output goes to the stage's log file, its last `status:`/`result:` line is kept for the
//! progress lines, the time it takes is handed to `tick` as it passes (so that a kill loses
//! at most a few seconds of the budget), and it is stopped, with its process group, when the
//! generation's time runs out or the generation receives SIGTERM or SIGINT.

use crate::common::signals;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How a child ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Ended {
    /// It exited with status 0; the last `result:` line it printed, if any.
    Finished(Option<String>),
    /// The deadline came first and it was stopped; its last status line.
    OutOfTime(Option<String>),
    /// A signal (named) stopped the generation, and the child with it.
    Stopped(&'static str),
}

/// Seconds between the `tick`s that record the time spent.
const TICK: Duration = Duration::from_secs(2);

/// Runs `program args` with its output appended to `log`; prints `progress(last line)` every
/// `every`; hands the seconds spent to `tick` every few seconds and at the end; stops the
/// child at `deadline` or on a signal. A failed child is an error that names its log.
pub fn run(
    program: &Path,
    args: &[String],
    log: &Path,
    deadline: Instant,
    every: Duration,
    progress: &dyn Fn(&str),
    tick: &mut dyn FnMut(f64) -> Result<(), String>,
) -> Result<Ended, String> {
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(log)
        .map_err(|e| format!("{}: {e}", log.display()))?;
    writeln!(file, "$ {} {}", program.display(), args.join(" "))
        .map_err(|e| format!("{}: {e}", log.display()))?;
    let file = Arc::new(Mutex::new(file));
    if let Some(signal) = signals::stopped() {
        return Ok(Ended::Stopped(signal));
    }
    let mut command = Command::new(program);
    command
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    signals::detach_and_tie(&mut command);
    let mut child = command
        .spawn()
        .map_err(|e| format!("cannot run {}: {e}", program.display()))?;
    let mut ticked = Instant::now();
    let last = Arc::new(Mutex::new((None::<String>, None::<String>)));
    let mut readers = Vec::new();
    let streams: Vec<Box<dyn std::io::Read + Send>> = [
        child
            .stdout
            .take()
            .map(|s| Box::new(s) as Box<dyn std::io::Read + Send>),
        child
            .stderr
            .take()
            .map(|s| Box::new(s) as Box<dyn std::io::Read + Send>),
    ]
    .into_iter()
    .flatten()
    .collect();
    for stream in streams {
        let (file, last) = (file.clone(), last.clone());
        readers.push(std::thread::spawn(move || {
            for line in BufReader::new(stream).lines().map_while(Result::ok) {
                if let Ok(mut f) = file.lock() {
                    // The log is a convenience: a full disk shows in the stage's own files.
                    let _ = writeln!(f, "{line}");
                }
                if let Ok(mut l) = last.lock() {
                    if line.starts_with("result:") {
                        l.0 = Some(line.clone());
                    }
                    if !line.trim().is_empty() {
                        l.1 = Some(line);
                    }
                }
            }
        }));
    }
    let mut shown = Instant::now();
    let mut tick_failed = None;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Ok(status),
            Ok(None) => {}
            Err(e) => {
                signals::stop_group(&mut child);
                return Err(format!("{}: {e}", program.display()));
            }
        }
        if let Some(signal) = signals::stopped() {
            signals::stop_group(&mut child);
            break Err(Some(signal));
        }
        if Instant::now() >= deadline {
            signals::stop_group(&mut child);
            break Err(None);
        }
        if ticked.elapsed() >= TICK {
            let seconds = ticked.elapsed().as_secs_f64();
            ticked = Instant::now();
            if let Err(e) = tick(seconds) {
                // The budget cannot be recorded (a full disk): stop rather than spend unseen.
                signals::stop_group(&mut child);
                tick_failed = Some(e);
                break Err(None);
            }
        }
        if shown.elapsed() >= every {
            if let Ok(l) = last.lock() {
                progress(l.1.as_deref().unwrap_or("started"));
            }
            shown = Instant::now();
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    for r in readers {
        let _ = r.join();
    }
    tick(ticked.elapsed().as_secs_f64())?;
    if let Some(e) = tick_failed {
        return Err(e);
    }
    let (result, line) = last.lock().map(|l| l.clone()).unwrap_or((None, None));
    match status {
        Err(Some(signal)) => Ok(Ended::Stopped(signal)),
        Err(None) => Ok(Ended::OutOfTime(line)),
        Ok(s) if s.success() => Ok(Ended::Finished(result)),
        Ok(s) => Err(format!(
            "{} failed ({s}): {}; the whole output is in {}",
            args.first().map_or("the stage", String::as_str),
            line.unwrap_or_default(),
            log.display()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str, deadline: Duration) -> (Result<Ended, String>, String) {
        let dir = std::env::temp_dir().join(format!("pao-gen-child-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let log = dir.join(format!("{}.log", script.len()));
        let _ = std::fs::remove_file(&log);
        let ended = run(
            Path::new("/bin/sh"),
            &["-c".to_string(), script.to_string()],
            &log,
            Instant::now() + deadline,
            Duration::from_secs(60),
            &|_| {},
            &mut |_| Ok(()),
        );
        let text = std::fs::read_to_string(&log).expect("log");
        (ended, text)
    }

    #[test]
    fn result_lines_logs_failures_and_deadlines() {
        let (ended, log) = sh(
            "echo 'status: a'; echo 'result: elo=+1.0' ; echo done >&2",
            Duration::from_secs(30),
        );
        assert_eq!(ended, Ok(Ended::Finished(Some("result: elo=+1.0".into()))));
        assert!(
            log.contains("status: a\n") && log.contains("done\n"),
            "{log}"
        );
        let (ended, _) = sh("echo 'broken file' >&2; exit 3", Duration::from_secs(30));
        let err = ended.expect_err("a failure");
        assert!(err.contains("broken file") && err.contains(".log"), "{err}");
        let started = Instant::now();
        let (ended, _) = sh(
            "echo 'status: slow'; exec sleep 30",
            Duration::from_millis(500),
        );
        assert_eq!(ended, Ok(Ended::OutOfTime(Some("status: slow".into()))));
        assert!(started.elapsed() < Duration::from_secs(10));
    }
}
