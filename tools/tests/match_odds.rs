//! Time odds in `pao-tools match` with the real engine: each engine's own `tc=`, `st=`,
//! `depth=` or `nodes=` decides what it is sent, and each side's clock runs by its own
//! control. The runner's transcript (`PAO_TOOLS_DEBUG`: `NAME < line` for every line sent) is
//! the evidence; the PGN gives each move's charged time in ms.
//!
//! The engine is the `pao` built next to `pao-tools` (`cargo test --workspace` builds both);
//! when only this crate was built, the tests say so and do nothing.

mod support;

use std::process::Command;
use support::{engine, output, Scratch, BIN};

/// Runs `pao-tools match` with the transcript on: (exit code, stdout, stderr).
fn run_match(args: &str) -> (i32, String, String) {
    output(
        Command::new(BIN)
            .arg("match")
            .args(args.split_whitespace())
            .env("PAO_TOOLS_DEBUG", "1"),
    )
}

/// Two instances of the engine named `a` and `b` with their own settings, one thread each.
fn engines(pao: &std::path::Path, a: &str, b: &str) -> String {
    let p = pao.display();
    format!(
        "--engine name=a cmd={p} {a} --engine name=b cmd={p} {b} \
         --each option.Threads=1 option.Hash=16 option.PinThreads=false option.OwnBook=false"
    )
}

/// The `go` lines sent, in order, as (engine, line).
fn go_lines(transcript: &str) -> Vec<(String, String)> {
    transcript
        .lines()
        .filter_map(|l| l.split_once(" < "))
        .filter(|(_, sent)| sent.starts_with("go "))
        .map(|(who, sent)| (who.to_string(), sent.to_string()))
        .collect()
}

/// The value of tag `name` in each PGN game, in order.
fn tags(pgn: &str, name: &str) -> Vec<String> {
    let prefix = format!("[{name} \"");
    pgn.lines()
        .filter_map(|l| l.strip_prefix(prefix.as_str()))
        .map(|v| v.trim_end_matches("\"]").to_string())
        .collect()
}

#[test]
fn depth_and_node_odds_are_what_each_engine_is_sent() {
    let Some(pao) = engine() else { return };
    let dir = Scratch::new("fixed");
    let (pgn, res) = (dir.path("g.pgn"), dir.path("r.tsv"));
    let args = format!(
        "{} --depth 3 --games 2 --maxplies 10 --pgnout {pgn} --resume {res}",
        engines(&pao, "nodes=300", "")
    );
    let (code, out, err) = run_match(&args);
    assert_eq!(code, 0, "{out}\n{err}");
    let gos = go_lines(&err);
    // 10 engine plies per game, 5 each: `a` by its own node limit, `b` by the match's depth.
    assert_eq!(gos.len(), 20, "{gos:?}");
    for (who, line) in &gos {
        let expected = if who == "a" {
            "go nodes 300"
        } else {
            "go depth 3"
        };
        assert_eq!(line, expected);
    }
    assert_eq!(gos.iter().filter(|(who, _)| who == "a").count(), 10);
    // The engine searched by what it was sent: `b`'s last report of each move is depth 3.
    let b_depths: Vec<&str> = err
        .lines()
        .filter_map(|l| l.strip_prefix("b > info depth "))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert!(
        b_depths.iter().all(|d| ["1", "2", "3"].contains(d)),
        "{b_depths:?}"
    );
    assert_eq!(b_depths.iter().filter(|d| **d == "3").count(), 10);
    assert!(out.starts_with("game 1 a - b: "), "{out}");
    assert!(
        out.contains("\ntime controls: a nodes=300, b depth=3\n"),
        "{out}"
    );
    let text = std::fs::read_to_string(&pgn).expect("pgn");
    assert_eq!(tags(&text, "RedTimeControl"), ["nodes=300", "depth=3"]);
    assert_eq!(tags(&text, "BlackTimeControl"), ["depth=3", "nodes=300"]);
    assert!(tags(&text, "TimeControl").is_empty());

    // Resumed with the same odds: nothing left to play, and the results file is unchanged.
    let before = std::fs::read_to_string(&res).expect("results");
    assert_eq!(before.lines().filter(|l| !l.starts_with('#')).count(), 2);
    let (code, out, err) = run_match(&args);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(
        out.contains("resuming: 2 of 2 games already played"),
        "{out}"
    );
    assert!(go_lines(&err).is_empty());
    assert_eq!(std::fs::read_to_string(&res).expect("results"), before);
}

/// The numbers after the words of a `go` line: `go time 984 increment 10 ...` -> time = 984.
fn field(line: &str, key: &str) -> Option<i64> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|w| *w == key)?;
    words.get(at + 1)?.parse().ok()
}

/// Each engine move's charged time in ms, from the PGN comments (`{+0.10/7 0.026s}`), per game.
fn charged_ms(pgn: &str) -> Vec<Vec<i64>> {
    pgn.split("[Game \"Chinese Chess\"]")
        .skip(1)
        .map(|game| {
            let body: String = game.lines().filter(|l| !l.starts_with('[')).collect();
            body.split('{')
                .skip(1)
                .filter_map(|c| c.split('}').next())
                .filter_map(|c| {
                    c.split_whitespace()
                        .last()?
                        .strip_suffix('s')
                        .map(str::to_string)
                })
                .filter_map(|s| {
                    let (whole, frac) = s.split_once('.')?;
                    Some(whole.parse::<i64>().ok()? * 1000 + frac.parse::<i64>().ok()?)
                })
                .collect()
        })
        .collect()
}

#[test]
fn clock_odds_each_clock_runs_by_its_own_control() {
    let Some(pao) = engine() else { return };
    let dir = Scratch::new("clock");
    let pgn = dir.path("g.pgn");
    // `a` gets a quarter of `b`'s time and increment.
    let args = format!(
        "{} --tc 4+0.04 --games 2 --maxplies 12 --pgnout {pgn}",
        engines(&pao, "tc=1+0.01", "")
    );
    let (code, out, err) = run_match(&args);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(
        out.contains("\ntime controls: a 1+0.01, b 4+0.04\n"),
        "{out}"
    );
    let text = std::fs::read_to_string(&pgn).expect("pgn");
    assert_eq!(tags(&text, "RedTimeControl"), ["1+0.01", "4+0.04"]);
    assert_eq!(tags(&text, "BlackTimeControl"), ["4+0.04", "1+0.01"]);
    let charged = charged_ms(&text);
    let gos = go_lines(&err);
    assert_eq!(gos.len(), 24, "{gos:?}");
    // The first moves of each game, exactly: each side starts with its own base time.
    assert_eq!(
        gos[0],
        (
            "a".into(),
            "go time 1000 increment 10 opptime 4000 oppincrement 40".into()
        )
    );
    assert_eq!(
        gos[12],
        (
            "b".into(),
            "go time 4000 increment 40 opptime 1000 oppincrement 10".into()
        )
    );
    for (game, moves) in gos.chunks(12).enumerate() {
        let used = &charged[game];
        assert_eq!(used.len(), 12, "game {}: {used:?}", game + 1);
        for (i, (who, line)) in moves.iter().enumerate() {
            let (inc, opp_inc) = if who == "a" { (10, 40) } else { (40, 10) };
            assert_eq!(field(line, "increment"), Some(inc), "{line}");
            assert_eq!(field(line, "oppincrement"), Some(opp_inc), "{line}");
            let time = field(line, "time").expect("time");
            // This side's clock after this move, by its own control: what is left (never below
            // zero: the margin is forgiven) plus its own increment.
            let after = (time - used[i]).max(0) + inc;
            if let Some((_, next)) = moves.get(i + 1) {
                assert_eq!(field(next, "opptime"), Some(after), "{line} then {next}");
            }
            if let Some((again, next)) = moves.get(i + 2) {
                assert_eq!(again, who);
                assert_eq!(field(next, "time"), Some(after), "{line} then {next}");
            }
        }
    }
}

#[test]
fn a_clock_against_a_fixed_time_per_move() {
    let Some(pao) = engine() else { return };
    let dir = Scratch::new("mixed");
    let pgn = dir.path("g.pgn");
    let args = format!(
        // The margin forgives a late answer on a busy machine: the clocks told, not the
        // engines' speed, are under test.
        "{} --st 0.1 --timemargin 60000 --games 2 --maxplies 4 --pgnout {pgn}",
        engines(&pao, "tc=2+0.02", "")
    );
    let (code, out, err) = run_match(&args);
    assert_eq!(code, 0, "{out}\n{err}");
    let gos = go_lines(&err);
    assert_eq!(gos.len(), 8, "{gos:?}");
    // `b` has no clock, so `a` is told only its own; `b` gets its fixed time per move.
    assert_eq!(gos[0].1, "go time 2000 increment 20");
    for (who, line) in &gos {
        if who == "a" {
            assert!(
                line.starts_with("go time ") && line.ends_with(" increment 20"),
                "{line}"
            );
            assert!(field(line, "time").is_some_and(|t| t <= 2020), "{line}");
        } else {
            assert_eq!(line, "go time 100 movestogo 1");
        }
    }
    let text = std::fs::read_to_string(&pgn).expect("pgn");
    assert_eq!(tags(&text, "RedTimeControl"), ["2+0.02", "0.1/move"]);
    assert!(
        out.contains("\ntime controls: a 2+0.02, b 0.1/move\n"),
        "{out}"
    );
}

#[test]
fn contradictory_or_bad_limit_keys_are_refused() {
    let Some(pao) = engine() else { return };
    for (own, message) in [
        (
            "tc=10+0.1 st=1",
            "error: tc= and st= both given in one --engine",
        ),
        (
            "nodes=1000 depth=5",
            "error: nodes= and depth= both given in one --engine",
        ),
        (
            "depth=3 depth=4",
            "error: depth= given twice in one --engine",
        ),
        (
            "nodes=0",
            "error: nodes=0: the node count must be a positive whole number",
        ),
        (
            "tc=fast",
            "error: time control 'fast': 'fast' is not a number of seconds",
        ),
        ("st=0", "error: st=0 gives no time"),
    ] {
        let (code, out, err) = run_match(&engines(&pao, own, ""));
        assert_eq!(code, 2, "{own}: {out}\n{err}");
        let first = err.lines().next().unwrap_or("");
        assert!(first.starts_with(message), "{own}: {err}");
        assert!(
            go_lines(&err).is_empty() && out.is_empty(),
            "{own}: {out}\n{err}"
        );
    }
    // Two limits in --each contradict as well; an engine's own replaces --each's.
    let (code, _, err) = run_match(&format!("{} --each st=1 depth=2", engines(&pao, "", "")));
    assert_eq!(code, 2, "{err}");
    assert_eq!(
        err.lines().next(),
        Some("error: st= and depth= both given in --each: an engine plays by one limit")
    );
}
