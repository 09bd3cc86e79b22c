//! `pao-tools generation` end to end on a tiny budget: every stage runs through the real
//! programs and leaves its files, later runs continue from the state instead of redoing work
//! (an SPRT left undecided by a cap of games or by the end of the budget continues from its
//! results file, and is rejected undecided only at the cap the user gives), and bad arguments
//! get one error line. `generation decide` (the Slurm pipeline's last
//! job) takes the net and writes its row only when the SPRT's report accepts it, and
//! `generation seed` prints the default self-play seed.

mod support;

use std::path::Path;
use support::generation::{args, games, generation_dir, synth_data, value};
use support::tools;

/// The embedded net and its body checksum (the net file header's bytes 40-48).
fn embedded() -> (pao::eval::nnue::Network, String) {
    let bytes = include_bytes!("../../src/eval/nnue/default.nnue");
    let net = pao::eval::nnue::Network::from_bytes(bytes).expect("the embedded net");
    let checksum = u64::from_le_bytes(bytes[40..48].try_into().expect("a header"));
    (net, format!("{checksum:016x}"))
}

#[test]
fn a_generation_runs_every_stage_and_a_second_run_continues_from_its_state() {
    let root = std::env::temp_dir().join(format!("pao-generation-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let args = args(&root, &["--threads", "2"]);
    let (code, out, err) = tools(&args);
    assert_eq!(code, 0, "{out}\n{err}");
    for line in [
        "generation: stage 1/4: data",
        "generation: stage 2/4: train",
        "generation: stage 3/4: screen",
        "generation: stage 4/4: sprt",
    ] {
        assert!(out.contains(line), "no '{line}' in:\n{out}");
    }
    let gen = generation_dir(&root);
    // Named by the embedded net's body checksum.
    let (net, checksum) = embedded();
    assert_eq!(
        gen.file_name().and_then(|n| n.to_str()),
        Some(format!("gen-{checksum}").as_str())
    );
    for file in [
        "data.bin",
        "candidate.nnue",
        "screen.tsv",
        "sprt.tsv",
        "sprt.pgn",
        "state.txt",
        "openings.txt",
        "current.nnue",
    ] {
        assert!(gen.join(file).is_file(), "no {file} in {}", gen.display());
    }
    // Two games cannot decide anything: the SPRT waits for the next run, with its results.
    let state = support::generation::state(&gen);
    assert_eq!(value(&state, "decision"), None, "{state}");
    let candidate_sum = value(&state, "candidate").expect("a candidate").to_string();
    let results = gen.join("sprt.tsv");
    let waits = value(&state, "sprt_undecided").expect("an SPRT under way");
    let progress = waits
        .strip_suffix(&format!(", {}", results.display()))
        .expect("the results file");
    assert!(progress.starts_with("2 games, LLR "), "{state}");
    assert!(
        out.contains(&format!(
            "generation: the SPRT of candidate {candidate_sum} is undecided after {progress} \
             (bounds -2.94, 2.94): run the same command to continue it"
        )),
        "{out}"
    );
    assert_eq!(games(&results), 2);
    assert!(!gen.join("accepted.nnue").exists());
    assert_eq!(games(&gen.join("screen.tsv")), 2);
    let candidate = pao::eval::nnue::Network::load(gen.join("candidate.nnue").to_str().unwrap())
        .expect("the candidate loads");
    assert_eq!(candidate.hidden, net.hidden);
    assert!(
        candidate
            .provenance
            .contains(&format!("init current.nnue (body checksum {checksum})")),
        "{}",
        candidate.provenance
    );
    // The second run redoes nothing and continues the SPRT until its budget (of its own: the
    // earlier runs' minutes do not count against an SPRT under way) runs out.
    let data = std::fs::metadata(gen.join("data.bin")).expect("data").len();
    // One game at a time, so that the games stopped by the budget leave no gap in the file.
    let short = ["--threads", "1", "--minutes", "0.2", "--sprt-games", "1000"];
    let (code, out, err) = tools(&support::generation::args(&root, &short));
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(!out.contains("stage 1/4"), "{out}");
    assert!(
        out.contains(&format!(
            "generation: continuing the SPRT of candidate {candidate_sum}: {progress}\n"
        )),
        "{out}"
    );
    let state = support::generation::state(&gen);
    let waits = value(&state, "sprt_undecided").expect("an SPRT under way");
    let played = games(&results);
    assert!(played > 2, "{played}");
    assert!(
        waits.starts_with(&format!("{played} games, LLR ")),
        "{state}"
    );
    assert!(
        out.contains(&format!(
            "generation: out of time in the sprt stage: the SPRT of candidate {candidate_sum} \
             is undecided after {played} games, LLR "
        )),
        "{out}"
    );
    // A state file written before the SPRT could wait (no sprt_undecided, --sprt-games
    // recorded as a setting) still loads: its SPRT continues within the rest of the budget.
    let old: String = state
        .lines()
        .filter(|l| !l.starts_with("sprt_undecided "))
        .map(|l| format!("{l}\n"))
        .chain(["setting_sprt_games 2\n".to_string()])
        .collect();
    std::fs::write(gen.join("state.txt"), old).expect("written");
    // With a cap given, an SPRT still undecided there is rejected, as asked.
    let cap = (played + 2).to_string();
    let more = ["--minutes", "20", "--sprt-cap", cap.as_str()];
    let capped = support::generation::args(&root, &[&short[..], &more[..]].concat());
    let (code, out, err) = tools(&capped);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(
        out.contains(&format!(
            "generation: continuing the SPRT of candidate {candidate_sum}: {played} games, LLR "
        )),
        "{out}"
    );
    assert_eq!(games(&results), played + 2);
    let state = support::generation::state(&gen);
    let decision = value(&state, "decision").expect("decided");
    assert!(
        decision.starts_with(&format!(
            "not taken: the SPRT was undecided at cap {cap}, rejected as asked ("
        )),
        "{state}"
    );
    assert_eq!(value(&state, "sprt_undecided"), None, "{state}");
    assert!(!gen.join("accepted.nnue").exists());
    let (code, out, err) = tools(&capped);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(
        out.contains(&format!("already decided: {decision}")),
        "{out}"
    );
    assert_eq!(
        std::fs::metadata(gen.join("data.bin")).expect("data").len(),
        data
    );
    std::fs::remove_dir_all(&root).ok();
}

#[test]
fn bad_arguments_and_nets_get_one_line() {
    let (code, _, err) = tools(&["generation", "--minutes", "0", "--dir", "/nonexistent"]);
    assert_eq!(code, 2);
    assert!(err.contains("--minutes 0 must be positive"), "{err}");
    let (code, _, err) = tools(&["generation", "--data-share", "2", "--dir", "/nonexistent"]);
    assert_eq!(code, 2, "{err}");
    let root = std::env::temp_dir().join(format!("pao-generation-bad-{}", std::process::id()));
    let missing = root.join("missing.nnue");
    let (code, _, err) = tools(&[
        "generation",
        "--dir",
        root.to_str().unwrap(),
        "--net",
        missing.to_str().unwrap(),
    ]);
    assert_eq!(code, 1);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("missing.nnue"), "{err}");
    std::fs::remove_dir_all(&root).ok();
}

/// `generation decide` into DIR with a report (beside DIR) whose result line is `result`.
fn decide(dir: &Path, data: &Path, candidate: &Path, result: &str) -> (i32, String, String) {
    let report = dir.with_file_name("report.txt");
    std::fs::write(
        &report,
        format!("engine  games  score\n(the rest of the report)\n{result}\n"),
    )
    .expect("report written");
    let s = |p: &Path| p.to_str().expect("utf-8").to_string();
    let args = [
        "generation",
        "decide",
        "--dir",
        &s(dir),
        "--data",
        &s(data),
        "--candidate",
        &s(candidate),
        "--sprt-report",
        &s(&report),
        "--nodes",
        "200",
        "--seed",
        "5",
        "--epochs",
        "1",
        "--sprt-nodes",
        "300",
        "--data-minutes",
        "1.4",
        "--train-minutes",
        "0.3",
    ];
    tools(&args)
}

#[test]
fn decide_takes_the_net_only_when_the_sprt_accepts_it_and_writes_its_row() {
    let root = std::env::temp_dir().join(format!("pao-generation-decide-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&root).expect("temp dir");
    let data = root.join("data.bin");
    synth_data(&data, 50);
    let (net, checksum) = embedded();
    let candidate = root.join("candidate.nnue");
    std::fs::write(&candidate, net.to_bytes()).expect("candidate written");
    let gen = root.join("gen");

    let (code, out, err) = decide(
        &gen,
        &data,
        &candidate,
        "result: elo=+9.0 err=4.0 llr=2.95 w=5 l=2 d=3 games=10 sprt=accepted",
    );
    assert_eq!(code, 0, "{out}\n{err}");
    let accepted = gen.join("accepted.nnue");
    assert!(
        out.contains(&format!(
            "generation: decided: accepted: {}\n",
            accepted.display()
        )),
        "{out}"
    );
    let sprt = "+9.0 ± 4.0 (5-2-3) accepted, 300 nodes per move";
    let taken = pao::eval::nnue::Network::load(accepted.to_str().expect("utf-8"))
        .expect("the accepted net loads");
    assert_eq!(
        taken.provenance,
        format!(
            "{}; generation from embedded (body checksum {checksum}): self-play 50 positions, \
             seed 5, 200 nodes per move; screen -; SPRT {sprt}",
            net.provenance
        )
    );
    let row = std::fs::read_to_string(gen.join("row.md")).expect("row.md");
    let parts: [&str; 3] = [
        " | 50 positions of self-play by the current net (200 nodes/move, seed 5, 1 min) + \
         window: data.bin=50 | ",
        " KiB | 1 epochs warm-started from embedded, 0.3 min, val loss ",
        &format!(" | screen: -; SPRT: {sprt} |\n"),
    ];
    for part in parts {
        assert!(row.contains(part), "no '{part}' in {row}");
    }
    assert!(row.starts_with("| 20") && row.ends_with(" |\n"), "{row}");
    let state = support::generation::state(&gen);
    for line in [
        format!("decision accepted: {}", accepted.display()),
        format!("net embedded {checksum}"),
        "data_positions 50".to_string(),
        "data_seconds 84.000".to_string(),
        "train_seconds 18.000".to_string(),
        format!("window {}=50", data.display()),
        format!("sprt {sprt}"),
    ] {
        assert!(state.lines().any(|l| l == line), "no '{line}' in\n{state}");
    }

    // Decided again on a report that did not accept: the earlier net and row are gone.
    let (code, out, err) = decide(
        &gen,
        &data,
        &candidate,
        "result: elo=+3.0 err=40.0 llr=0.20 w=2 l=1 d=1 games=4 sprt=running",
    );
    assert_eq!(code, 0, "{out}\n{err}");
    let decision = "not taken: the SPRT did not accept it (+3.0 ± 40.0 (2-1-1) running, 300 \
                    nodes per move)";
    assert!(
        out.contains(&format!("generation: decided: {decision}\n")),
        "{out}"
    );
    assert!(!accepted.exists() && !gen.join("row.md").exists());
    let state = support::generation::state(&gen);
    assert!(
        state.lines().any(|l| l == format!("decision {decision}")),
        "{state}"
    );
    let (code, _, _) = decide(
        &gen,
        &data,
        &candidate,
        "result: elo=-60.0 err=20.0 llr=-3.10 w=1 l=9 d=2 games=12 sprt=rejected",
    );
    assert_eq!(code, 0);
    let state = support::generation::state(&gen);
    assert!(
        state.contains("decision not taken: the SPRT rejected it (-60.0 ± 20.0 (1-9-2) rejected"),
        "{state}"
    );

    // A report without the SPRT, or without a result line, decides nothing: one line.
    for (result, says) in [
        (
            "result: elo=+3.0 err=40.0 llr=- w=2 l=1 d=1 games=4 sprt=off",
            "merge the match with --sprt",
        ),
        ("status: half a report", "no result line"),
    ] {
        let (code, _, err) = decide(&gen, &data, &candidate, result);
        assert_eq!(code, 1, "{err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(err.contains(says) && err.contains("report.txt"), "{err}");
    }
    std::fs::remove_dir_all(&root).ok();
}

#[test]
fn seed_prints_the_default_seed_of_a_generation_from_the_net() {
    let (_, checksum) = embedded();
    let low = u64::from_str_radix(&checksum[8..], 16).expect("hex");
    let (code, out, err) = tools(&["generation", "seed"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, format!("{low}\n"));
    let (code, _, err) = tools(&["generation", "seed", "--net", "/nonexistent/net.nnue"]);
    assert_eq!(code, 1);
    assert!(err.contains("/nonexistent/net.nnue"), "{err}");
}

#[test]
fn match_args_loads_the_current_net_from_its_file_and_refuses_embedded() {
    let scratch = support::Scratch::new("generation-match-args");
    let current = scratch.path("current.nnue");
    let (code, _, err) = tools(&[
        "generation",
        "write-net",
        "--net",
        "embedded",
        "--out",
        &current,
    ]);
    assert_eq!(code, 0, "{err}");
    let base = [
        "generation",
        "match-args",
        "--engine",
        "/bin/pao",
        "--candidate",
        "/g/candidate.nnue",
        "--openings",
        "/g/openings.txt",
    ];
    let (code, out, err) = tools(&[&base[..], &["--net", current.as_str()][..]].concat());
    assert_eq!(code, 0, "{err}");
    // The current side (after the candidate's four arguments) loads the file.
    let evalfile = format!("option.EvalFile={current}");
    assert_eq!(
        out.lines().skip(4).take(4).collect::<Vec<_>>(),
        ["--engine", "name=current", "cmd=/bin/pao", &evalfile]
    );
    // The engine's own net need not be the generation's: refused, and so is a net that is not.
    let (code, out, err) = tools(&[&base[..], &["--net", "embedded"][..]].concat());
    assert_eq!((code, out.as_str()), (1, ""));
    assert_eq!(
        err,
        "pao-tools generation: --net embedded: the current side would play whatever net the \
         engine was built with; give the generation's current.nnue (pao-tools generation \
         write-net --net NET --out DIR/current.nnue writes it)\n"
    );
    let missing = scratch.path("missing.nnue");
    let (code, _, err) = tools(&[&base[..], &["--net", missing.as_str()][..]].concat());
    assert_eq!(code, 1, "{err}");
    assert!(
        err.starts_with(&format!("pao-tools generation: --net {missing}: ")),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    let (code, _, err) = tools(&base);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--net <NET>"), "{err}");
}
