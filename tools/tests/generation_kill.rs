//! `pao-tools generation` run unattended: killed in each stage it continues to the same
//! decision as a run left alone, with no second writer and no lost time, and its lines say
//! what each run may spend and what the window left out; and each thing it refuses (a second
//! writer, changed settings, a changed candidate, a window that cannot be read, data of other
//! settings, a mostly broken data file) gets one line.

mod support;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use support::generation::{
    datagen, decision, generation_dir, number, refused, state, synth_data, value,
};
use support::{tools as run, Scratch};

fn tools() -> Command {
    Command::new(support::BIN)
}

/// The arguments of a tiny generation in `root` with a progress line every second, an SPRT
/// that ends at its two games (rejected there as asked, when still undecided), and `more`.
fn args(root: &Path, more: &[&str]) -> Vec<String> {
    let each = ["--report-every", "1", "--sprt-cap", "2"];
    support::generation::args(root, &[&each[..], more].concat())
}

fn signal(child: &Child, signal: i32) {
    // SAFETY: a signal to our own child process.
    unsafe {
        libc::kill(child.id() as libc::pid_t, signal);
    }
}

/// Runs until stdout prints a line starting with `at`, then sends `sig`; returns stdout. The
/// run, stopped by the signal, exits with status 128 + its number.
fn run_killed(args: &[String], at: &str, sig: i32) -> String {
    let mut child = tools()
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("run pao-tools");
    let stdout = child.stdout.take().expect("stdout");
    let mut seen = String::new();
    let mut sent = false;
    for line in BufReader::new(stdout).lines().map_while(Result::ok) {
        seen.push_str(&line);
        seen.push('\n');
        if !sent && line.starts_with(at) {
            signal(&child, sig);
            sent = true;
        }
    }
    let status = child.wait().expect("ends");
    assert!(sent, "no line starting with '{at}' in:\n{seen}");
    assert_eq!(status.code(), Some(128 + sig), "{seen}");
    seen
}

/// Whether anyone holds the lock of `target` (a writer still running).
fn locked(target: &Path) -> bool {
    let mut name = target.as_os_str().to_os_string();
    name.push(".lock");
    let Ok(file) = std::fs::File::open(PathBuf::from(name)) else {
        return false;
    };
    file.try_lock().is_err()
}

#[test]
fn killed_in_each_stage_it_continues_to_the_same_decision_without_losing_time() {
    // Enough data that self-play lasts a few seconds.
    let more = ["--data-positions", "30000"];
    let alone_scratch = Scratch::new("genkill-alone");
    let alone = alone_scratch.dir();
    let (code, out, err) = run(&args(alone, &more));
    assert_eq!(code, 0, "{out}\n{err}");
    let reference = generation_dir(alone);

    let root_scratch = Scratch::new("genkill-killed");
    let root = root_scratch.dir();
    let a = args(root, &more);
    // SIGKILL in the data stage: the parent dies without a word; its datagen dies with it
    // (no writer left on data.bin), and the time spent until the last tick is kept.
    let mut child = tools()
        .args(&a)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("runs");
    let data = root
        .join(reference.file_name().expect("a name"))
        .join("data.bin");
    // Killed once the first seconds of self-play are recorded, with datagen writing.
    let started = Instant::now();
    let gen_state = data.with_file_name("state.txt");
    while !std::fs::read_to_string(&gen_state).is_ok_and(|s| s.contains("spent_seconds")) {
        assert!(started.elapsed() < Duration::from_secs(60), "no data");
        std::thread::sleep(Duration::from_millis(20));
    }
    // On a busy machine the child may start writing a little after the first tick.
    while !locked(&data) {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "datagen is not writing"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    signal(&child, libc::SIGKILL);
    child.wait().expect("ends");
    let until = Instant::now() + Duration::from_secs(10);
    while locked(&data) {
        assert!(Instant::now() < until, "datagen outlived its generation");
        std::thread::sleep(Duration::from_millis(50));
    }
    let gen = generation_dir(root);
    let spent = number(&state(&gen), "spent_seconds");
    assert!(spent >= 2.0, "{}", state(&gen));

    // SIGTERM in each stage: the child stops, the time is recorded, and the line says so.
    // The time never falls; in the data stage, stopped after a progress line of datagen's, it
    // grows by what datagen ran.
    let mut last = spent;
    for (at, stage) in [
        ("generation: data: ", "data"),
        ("generation: train: ", "train"),
        ("generation: stage 3/4: screen", "screen"),
        ("generation: stage 4/4: sprt", "sprt"),
    ] {
        let out = run_killed(&a, at, libc::SIGTERM);
        assert!(
            out.contains(&format!(
                "generation: stopped by SIGTERM in the {stage} stage"
            )),
            "{out}"
        );
        assert!(!out.contains("generation: decided"), "{out}");
        let now = number(&state(&gen), "spent_seconds");
        if stage == "data" {
            assert!(now >= last + 1.0, "{stage}: {now} after {last}");
        } else {
            assert!(now >= last, "{stage}: {now} after {last}");
        }
        last = now;
        assert!(!locked(&data), "{stage}: a writer is left");
    }
    // The SPRT stopped by the signal waits, and the next run continues it with the whole
    // budget of its own: its lines say so, and count its minutes apart from the earlier runs'.
    let seed = value(&state(&gen), "setting_seed")
        .expect("a seed")
        .to_string();
    let out = run_killed(&a, "generation: stage 4/4: sprt", libc::SIGTERM);
    assert_eq!(
        out.lines().next(),
        Some(
            format!(
                "generation: {} (current net embedded, seed {seed}), the SPRT continues: 20 \
                 minutes for this run ({:.1} spent by earlier runs)",
                gen.display(),
                last / 60.0
            )
            .as_str()
        ),
        "{out}"
    );
    let now = number(&state(&gen), "spent_seconds");
    assert!(
        out.contains(&format!(
            "generation: stopped by SIGTERM in the sprt stage, its child with it; {:.1} of this \
             run's 20 minutes spent ({:.1} in all); run the same command to continue\n",
            (now - last) / 60.0,
            now / 60.0
        )),
        "{out}"
    );
    last = now;
    let (code, out, err) = run(&a);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("generation: stage 4/4: sprt"), "{out}");
    assert!(number(&state(&gen), "spent_seconds") >= last);
    // The same games (self-play stops at the first game past --data-positions, so the games
    // under way at that moment make one file a few games longer), and the same decision.
    let (killed, whole) = (
        std::fs::read(gen.join("data.bin")).expect("data"),
        std::fs::read(reference.join("data.bin")).expect("data"),
    );
    let common = killed.len().min(whole.len());
    assert!(common >= 32 + 32 * 30_000, "{common}");
    assert!(killed[..common] == whole[..common], "the games differ");
    let kind = |d: String| d.split(" (").next().unwrap_or("").to_string();
    assert_eq!(
        kind(decision(&state(&gen))),
        kind(decision(&state(&reference)))
    );
}

#[test]
fn a_second_writer_is_refused_naming_the_first() {
    let root_scratch = Scratch::new("genkill-writer");
    let root = root_scratch.dir();
    let data = root.join("d.bin");
    let d = data.to_str().expect("utf-8");
    let mut first = tools()
        .args(datagen(d, "200", "1000"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("runs");
    let started = Instant::now();
    while !locked(&data) {
        assert!(started.elapsed() < Duration::from_secs(30), "no lock");
        std::thread::sleep(Duration::from_millis(20));
    }
    refused(
        &run(&datagen(d, "200", "1")),
        &format!(
            "{d} is being written by another process (pid {}: pao-tools datagen)",
            first.id()
        ),
    );
    // A match's results file: the same (the lock held here, as a running match holds it).
    let results = root.join("results.tsv");
    let held = std::fs::File::create(root.join("results.tsv.lock")).expect("lock file");
    held.lock().expect("locked");
    std::fs::write(root.join("results.tsv.lock"), "pid 1: pao-tools match\n").expect("named");
    let (code, _, err) = run(&[
        "match",
        "--engine",
        "name=a",
        "cmd=/bin/true",
        "--engine",
        "name=b",
        "cmd=/bin/true",
        "--games",
        "2",
        "--nodes",
        "100",
        "--resume",
        results.to_str().expect("utf-8"),
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains(&format!(
            "{} is being written by another process (pid 1: pao-tools match)",
            results.display()
        )),
        "{err}"
    );
    drop(held);
    // A second generation in the same directory: the same.
    let a = args(root, &[]);
    let gen = root.join("gen-lock");
    std::fs::create_dir_all(&gen).expect("dir");
    signal(&first, libc::SIGTERM);
    first.wait().expect("ends");
    assert!(!locked(&data));
    let mut run_one = tools()
        .args(&a)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("runs");
    let mut lines = BufReader::new(run_one.stdout.take().expect("stdout")).lines();
    let first_line = lines.next().expect("a line").expect("text");
    assert!(first_line.starts_with("generation: "), "{first_line}");
    let second = run(&a);
    signal(&run_one, libc::SIGTERM);
    run_one.wait().expect("ends");
    refused(
        &second,
        "generation is being written by another process (pid ",
    );
}

#[test]
fn a_changed_setting_is_refused_and_retry_starts_a_new_attempt_on_the_same_data() {
    let root_scratch = Scratch::new("genkill-settings");
    let root = root_scratch.dir();
    let (code, out, err) = run(&args(root, &[]));
    assert_eq!(code, 0, "{out}\n{err}");
    let gen = generation_dir(root);
    let data = std::fs::read(gen.join("data.bin")).expect("data");
    for (flag, was, now) in [
        ("--epochs", "1", "2"),
        ("--window-files", "1", "0"),
        ("--lr", "0.0003", "0.001"),
    ] {
        refused(
            &run(&args(root, &[flag, now])),
            &format!(
                "this generation runs with {flag} {was}, not {now}; run it with {flag} {was}, \
                 or give --retry"
            ),
        );
    }
    let (code, out, err) = run(&args(root, &["--epochs", "2", "--retry"]));
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("--retry: attempt 2"), "{out}");
    assert!(!out.contains("stage 1/4"), "{out}");
    assert!(out.contains("stage 2/4: train"), "{out}");
    let second = state(&gen.join("attempt-2"));
    assert!(
        second.contains("setting_epochs 2\n") && second.contains("decision "),
        "{second}"
    );
    assert_eq!(std::fs::read(gen.join("data.bin")).expect("data"), data);
    // The first attempt's files are untouched, and later runs continue the second.
    assert!(state(&gen).contains("setting_epochs 1\n"));
    let (code, out, _) = run(&args(root, &["--epochs", "2"]));
    assert_eq!(code, 0);
    assert!(out.contains("already decided"), "{out}");
}

#[test]
fn the_window_names_what_it_left_out_and_a_changed_candidate_or_lost_window_file_is_refused() {
    let root_scratch = Scratch::new("genkill-candidate");
    let root = root_scratch.dir();
    let (gone, extra, more) = (
        root.join("gone.bin"),
        root.join("extra.bin"),
        root.join("more.bin"),
    );
    synth_data(&extra, 50);
    synth_data(&more, 60);
    let files = [&gone, &extra, &more].map(|p| p.to_str().expect("utf-8"));
    let a = args(root, &[&["--window"][..], &files[..]].concat());
    let out = run_killed(&a, "generation: train: ", libc::SIGTERM);
    let gen = generation_dir(root);
    // One earlier file fits (--window-files 1): a missing file before it is said as missing,
    // a file there after it as left out, and the lineage's next file (the embedded net's
    // parent's data, never in this directory) is passed over.
    let window: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("generation: window: "))
        .collect();
    assert_eq!(
        window,
        [
            format!("generation: window: left out {}: missing", gone.display()),
            format!(
                "generation: window: left out {}: the window is full",
                more.display()
            ),
        ],
        "{out}"
    );
    let own: u64 = value(&state(&gen), "data_positions")
        .and_then(|v| v.parse().ok())
        .expect("the data's positions");
    assert!(
        out.contains(&format!(
            "generation: train: {} positions in 2 file(s), from embedded\n",
            own + 50
        )),
        "{out}"
    );
    assert!(
        state(&gen).contains(&format!("{}=50", extra.display())),
        "{}",
        state(&gen)
    );
    std::fs::rename(&extra, root.join("moved.bin")).expect("moved");
    let lost = run(&a);
    refused(&lost, "the training window recorded in");
    assert!(lost.2.contains("extra.bin"), "{}", lost.2);
    assert!(gen.join("data.bin").is_file() && gen.join("state.txt").is_file());
    std::fs::rename(root.join("moved.bin"), &extra).expect("back");
    run_killed(&a, "generation: stage 3/4: screen", libc::SIGTERM);
    // Another net in the candidate's place: its matches would be another net's.
    std::fs::copy(gen.join("current.nnue"), gen.join("candidate.nnue")).expect("copied");
    refused(&run(&a), "the matches resume only for the same net");
}

#[test]
fn data_of_other_settings_and_broken_data_are_refused_or_cut() {
    let root_scratch = Scratch::new("genkill-data");
    let root = root_scratch.dir();
    let data = root.join("d.bin");
    let d = data.to_str().expect("utf-8");
    let play = |nodes: &str, games: &str| {
        let (code, _, err) = run(&datagen(d, nodes, games));
        (code, err)
    };
    let (code, err) = play("200", "10");
    assert_eq!(code, 0, "{err}");
    let other = run(&datagen(d, "300", "11"));
    refused(&other, "was played with other settings (seed=1 nodes=200 ");
    assert!(
        other.2.contains("this run has seed=1 nodes=300 "),
        "{}",
        other.2
    );
    // 4,096 zero bytes after the games: 128 broken records, cut before appending.
    let good = std::fs::metadata(&data).expect("data").len();
    let mut bytes = std::fs::read(&data).expect("data");
    bytes.extend_from_slice(&[0u8; 4096]);
    std::fs::write(&data, &bytes).expect("written");
    let (code, err) = play("200", "11");
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains(&format!(
            "the last 128 records are broken: cut at byte {good} before appending"
        )),
        "{err}"
    );
    let after = std::fs::read(&data).expect("data");
    assert_eq!(after[..good as usize], bytes[..good as usize]);
    assert!(after.len() as u64 > good && !after[good as usize..].iter().all(|&b| b == 0));
    // Mostly broken: refused, not appended to, not cut.
    let mut broken = after[..32].to_vec();
    broken.extend(std::iter::repeat_n(0u8, after.len() * 2));
    std::fs::write(&data, &broken).expect("written");
    let (code, err) = play("200", "12");
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("most of the file is broken: not appended to"),
        "{err}"
    );
    assert_eq!(std::fs::read(&data).expect("data"), broken);
}
