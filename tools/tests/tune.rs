//! `pao-tools tune` end to end against the scripted engine (`fake-engine --tune-options`
//! offers the parameters' options as a `tune` build of Pao does, and their values change its
//! moves): a run killed with SIGKILL continues from its state file, which stays whole; SIGINT,
//! even when the run inherited it ignored, stops a run without losing a pair; changed settings
//! and a normal build of the engine are refused; `tune show` gives the option words.

mod support;

use pao::search::params::PARAMS;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use support::{Scratch, BIN};

const ITERATIONS: u64 = 40;

/// The arguments of a run on `state` with `iterations`.
fn args(state: &str, iterations: u64) -> Vec<String> {
    let openings = concat!(env!("CARGO_MANIFEST_DIR"), "/data/balanced-openings.txt");
    format!(
        "tune --state {state} --engine cmd={BIN} arg=fake-engine arg=--tune-options \
         --iterations {iterations} --nodes 100 --maxplies 400 --concurrency 2 --openings {openings}"
    )
    .split_whitespace()
    .map(String::from)
    .collect()
}

/// The parameters of the search switches that are off by default: the run holds them.
fn held() -> Vec<&'static pao::search::params::Param> {
    PARAMS
        .iter()
        .filter(|p| {
            p.switch
                .is_some_and(|s| pao::search::SearchConfig::FULL.is_on(s) == Some(false))
        })
        .collect()
}

/// The value of the state's line `key N`.
fn count(text: &str, key: &str) -> u64 {
    text.lines()
        .find_map(|l| l.strip_prefix(key)?.strip_prefix(' ')?.parse().ok())
        .unwrap_or_else(|| panic!("no '{key}' line in\n{text}"))
}

/// Checks that `text` is a whole state file: its six header lines and every parameter.
fn assert_whole(text: &str) {
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 6 + PARAMS.len(), "{text}");
    assert!(lines[0].starts_with("# pao-tools tune state"), "{text}");
    for (line, p) in lines[6..].iter().zip(PARAMS) {
        assert!(line.starts_with(&format!("param {} ", p.name)), "{line}");
        assert!(line.ends_with(&format!(" min={} max={} c_end={}", p.min, p.max, p.c_end)));
    }
    let wdl: u64 = lines[5]
        .split(' ')
        .skip(1)
        .map(|w| w.parse::<u64>().expect("a count"))
        .sum();
    assert_eq!(wdl, count(text, "games"), "{text}");
    assert_eq!(count(text, "games"), 2 * count(text, "iteration"), "{text}");
}

/// Waits until the state file at `state` records `iteration N`, the child still running.
fn wait_for_iteration(child: &mut std::process::Child, state: &str, n: u64) {
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let text = std::fs::read_to_string(state).unwrap_or_default();
        if text.lines().any(|l| l == format!("iteration {n}")) {
            return;
        }
        assert!(Instant::now() < deadline, "no update {n} in 120 s:\n{text}");
        assert!(
            child.try_wait().expect("wait").is_none(),
            "ended early:\n{text}"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
}

#[test]
fn a_killed_run_continues_from_its_state() {
    let scratch = Scratch::new("tune-kill");
    let state = scratch.path("state.txt");
    let mut child = Command::new(BIN)
        .args(args(&state, ITERATIONS))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start pao-tools tune");
    // Killed (SIGKILL) once three updates are written, with pairs in flight.
    wait_for_iteration(&mut child, &state, 3);
    child.kill().expect("SIGKILL");
    child.wait().expect("reaped");
    let killed = std::fs::read_to_string(&state).expect("the state after the kill");
    assert_whole(&killed);
    let (started, done) = (count(&killed, "started"), count(&killed, "iteration"));
    assert!(
        done >= 3 && started >= done && started - done <= 2,
        "{killed}"
    );
    assert!(
        started < ITERATIONS,
        "the run was over before the kill:\n{killed}"
    );

    // Run again: it continues from the state's counts and plays the iterations not yet handed
    // out; the pairs that were in flight at the kill are lost.
    let out = Command::new(BIN)
        .args(args(&state, ITERATIONS))
        .output()
        .expect("run pao-tools tune again");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stderr}");
    let first = stderr.lines().next().unwrap_or("");
    assert_eq!(
        first,
        format!(
            "tune: {} parameters ({} held: their search switches are off), iteration {done} of \
             {ITERATIONS}, 2 pairs at a time, 100 nodes per move",
            PARAMS.len(),
            held().len()
        )
    );
    let end = std::fs::read_to_string(&state).expect("the state at the end");
    assert_whole(&end);
    let lost = started - done;
    assert_eq!(count(&end, "started"), ITERATIONS);
    assert_eq!(count(&end, "iteration"), ITERATIONS - lost);
    let updates = stderr
        .lines()
        .filter(|l| l.starts_with("tune: iteration "))
        .count() as u64;
    assert_eq!(updates, ITERATIONS - started, "{stderr}");
    assert!(stdout.starts_with(&format!(
        "iteration {} of {ITERATIONS} ({ITERATIONS} started), {} games",
        ITERATIONS - lost,
        2 * (ITERATIONS - lost)
    )));
    // Pairs were decided, and the values moved from the defaults.
    let wdl: Vec<u64> = end
        .lines()
        .nth(5)
        .unwrap_or("")
        .split(' ')
        .skip(1)
        .map(|w| w.parse().expect("a count"))
        .collect();
    assert!(wdl[0] + wdl[1] > 0, "{end}");
    assert!(
        end.lines()
            .skip(6)
            .zip(PARAMS)
            .any(|(l, p)| !l.starts_with(&format!("param {} {} ", p.name, p.default))),
        "{end}"
    );

    // The parameters of switches that are off in the engine as it plays never moved.
    for p in held() {
        assert!(
            end.lines()
                .any(|l| l.starts_with(&format!("param {} {} ", p.name, p.default))),
            "{} moved:\n{end}",
            p.name
        );
    }

    // Once over, the same command plays nothing more and leaves the state as it is.
    let out = Command::new(BIN)
        .args(args(&state, ITERATIONS))
        .output()
        .expect("run pao-tools tune a third time");
    assert!(out.status.success());
    assert_eq!(std::fs::read_to_string(&state).expect("state"), end);

    // `tune show`: the values and, last, the option words for `pao-tools match`.
    let show = Command::new(BIN)
        .args(["tune", "show", &state])
        .output()
        .expect("tune show");
    let text = String::from_utf8_lossy(&show.stdout);
    assert_eq!(text, stdout, "the run ends by showing its state");
    let words: Vec<&str> = text.lines().last().unwrap_or("").split(' ').collect();
    assert_eq!(words.len(), PARAMS.len());
    for (w, p) in words.iter().zip(PARAMS) {
        let value: i32 = w
            .strip_prefix(&format!("option.{}=", p.name))
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("{w}"));
        assert!((p.min..=p.max).contains(&value), "{w}");
    }
}

#[test]
fn sigint_stops_a_run_in_order_even_when_inherited_ignored() {
    use std::os::unix::process::CommandExt;
    let scratch = Scratch::new("tune-sigint");
    let state = scratch.path("state.txt");
    let mut command = Command::new(BIN);
    command
        .args(args(&state, ITERATIONS))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // As a shell without job control starts a command with `&`: SIGINT ignored.
    // SAFETY: signal() is async-signal-safe and changes only the child's disposition.
    unsafe {
        command.pre_exec(|| {
            libc::signal(libc::SIGINT, libc::SIG_IGN);
            Ok(())
        });
    }
    let mut child = command.spawn().expect("start pao-tools tune");
    wait_for_iteration(&mut child, &state, 3);
    // SAFETY: a signal to our own child process (not to its engines).
    unsafe {
        libc::kill(child.id() as libc::pid_t, libc::SIGINT);
    }
    let out = child.wait_with_output().expect("the stopped run");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(128 + libc::SIGINT), "{stderr}");
    assert!(
        out.stdout.is_empty(),
        "no values are shown for a stopped run"
    );
    let stopped = std::fs::read_to_string(&state).expect("the state after SIGINT");
    assert_whole(&stopped);
    let (started, done) = (count(&stopped, "started"), count(&stopped, "iteration"));
    // The pairs in flight finished and counted: none was lost.
    assert_eq!(started, done, "{stopped}");
    assert!((3..ITERATIONS).contains(&done), "{stopped}");
    assert_eq!(
        stderr.lines().last().unwrap_or(""),
        format!(
            "tune: stopped by SIGINT at iteration {done} of {ITERATIONS} ({done} handed out); \
             the same command continues"
        )
    );

    // The same command plays the rest, every iteration of the schedule.
    let out = Command::new(BIN)
        .args(args(&state, ITERATIONS))
        .output()
        .expect("run pao-tools tune again");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let end = std::fs::read_to_string(&state).expect("the state at the end");
    assert_whole(&end);
    assert_eq!(count(&end, "started"), ITERATIONS);
    assert_eq!(count(&end, "iteration"), ITERATIONS);
}

#[test]
fn changed_settings_and_a_normal_build_are_refused() {
    let scratch = Scratch::new("tune-refuse");
    let state = scratch.path("state.txt");
    let (code, _, stderr) = support::tools(&args(&state, 1));
    assert_eq!(code, 0, "{stderr}");
    let before = std::fs::read_to_string(&state).expect("the state");
    assert_eq!(count(&before, "iteration"), 1);

    let (code, _, stderr) = support::tools(&args(&state, 2));
    assert_eq!(code, 1);
    assert_eq!(
        stderr,
        format!(
            "pao-tools tune: {state}: the state was made with other settings (iterations=1, \
             not iterations=2): give the same settings, or --new-settings to continue from its \
             values with these\n"
        )
    );
    assert_eq!(std::fs::read_to_string(&state).expect("state"), before);

    // --new-settings takes them and goes on from the state's values and counts.
    let mut again = args(&state, 2);
    again.push("--new-settings".to_string());
    let (code, _, stderr) = support::tools(&again);
    assert_eq!(code, 0, "{stderr}");
    let after = std::fs::read_to_string(&state).expect("state");
    assert_eq!(count(&after, "iteration"), 2);
    assert!(after.contains(" iterations=2 "), "{after}");

    // A normal build offers no parameter: refused before the state is touched.
    let Some(pao) = support::engine() else { return };
    let mut normal = args(&state, 2);
    let cmd = normal
        .iter()
        .position(|a| a.starts_with("cmd="))
        .expect("cmd=");
    normal[cmd] = format!("cmd={}", pao.display());
    normal.retain(|a| !a.starts_with("arg="));
    let (code, _, stderr) = support::tools(&normal);
    assert_eq!(code, 1);
    assert_eq!(
        stderr,
        format!(
            "pao-tools tune: engine '{}' offers no option FutilityMargin1 ({n} of {n} parameters \
             missing): tune a build made with `cargo build --release --features tune`\n",
            pao.display(),
            n = PARAMS.len()
        )
    );
    assert_eq!(std::fs::read_to_string(&state).expect("state"), after);
}

/// A UCI engine: its options (`option name NAME type spin ...`) are found and set the same way.
#[test]
fn a_uci_engine_is_tuned_too() {
    let scratch = Scratch::new("tune-uci");
    let state = scratch.path("state.txt");
    let mut uci = args(&state, 3);
    let at = uci
        .iter()
        .position(|a| a == "--iterations")
        .expect("--iterations");
    uci.splice(
        at..at,
        ["arg=--proto=uci".to_string(), "proto=uci".to_string()],
    );
    let (code, stdout, stderr) = support::tools(&uci);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.starts_with("iteration 3 of 3 (3 started), 6 games"),
        "{stdout}"
    );
    let text = std::fs::read_to_string(&state).expect("the state");
    assert_whole(&text);
    assert!(text.contains(" engine-args=fake-engine,--tune-options,--proto=uci "));
}
