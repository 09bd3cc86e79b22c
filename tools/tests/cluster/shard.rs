//! Runs spread over shards (`--shard I/N`) and merged give exactly what one run gives: the
//! datagen file byte for byte, the match report and results file line for line. Datagen runs
//! in process; the matches play the real `pao` built next to `pao-tools` at depth 2 (when only
//! this crate was built, the match tests say so and do nothing).

use crate::support::{engine, Scratch};
use std::path::Path;

/// Runs `pao-tools` with `args`: (success, stdout, stderr).
fn tools(args: &[String]) -> (bool, String, String) {
    let (code, out, err) = crate::support::tools(args);
    (code == 0, out, err)
}

fn words(text: &str) -> Vec<String> {
    text.split_whitespace().map(str::to_string).collect()
}

/// Runs and insists on success; returns stdout.
fn ok(args: Vec<String>) -> String {
    let (success, out, err) = tools(&args);
    assert!(success, "{args:?}\nstdout {out}\nstderr {err}");
    out
}

/// Runs and insists on failure; returns stderr.
fn fails(args: Vec<String>) -> String {
    let (success, out, err) = tools(&args);
    assert!(!success, "{args:?} succeeded: {out}");
    err
}

fn read(path: &str) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// `datagen` with `settings` into `out`, optionally as shard `shard`.
fn datagen(settings: &str, out: &str, shard: Option<&str>) -> Vec<String> {
    let mut args = words(&format!("datagen --out {out} {settings}"));
    if let Some(s) = shard {
        args.extend(["--shard".to_string(), s.to_string()]);
    }
    args
}

/// Plays the `n` shards of `settings` into `dir` (shard i with `threads(i)` threads) and merges
/// them; returns the merged file's bytes.
fn datagen_sharded(dir: &Scratch, tag: &str, settings: &str, n: u64) -> Vec<u8> {
    let mut files = Vec::new();
    for i in 1..=n {
        let file = dir.path(&format!("{tag}-{i}of{n}.bin"));
        let threads = 1 + i % 2;
        ok(datagen(
            &format!("{settings} --threads {threads}"),
            &file,
            Some(&format!("{i}/{n}")),
        ));
        files.push(file);
    }
    // Any order of the files merges alike.
    files.reverse();
    let merged = dir.path(&format!("{tag}-merged{n}.bin"));
    let mut args = words(&format!("datagen merge --out {merged}"));
    args.extend(files);
    ok(args);
    read(&merged)
}

#[test]
fn datagen_shards_merge_into_the_single_runs_file_byte_for_byte() {
    let dir = Scratch::new("datagen");
    // Whole games of up to 40 plies; and games of 2 plies, some of which keep no position.
    for (tag, settings) in [
        ("long", "--games 7 --nodes 300 --max-plies 40 --seed 5"),
        ("short", "--games 30 --nodes 300 --max-plies 2 --seed 5"),
    ] {
        let single = dir.path(&format!("{tag}.bin"));
        ok(datagen(&format!("{settings} --threads 2"), &single, None));
        let expected = read(&single);
        assert!(
            expected.len() > 32 + 10 * 32,
            "{tag}: {} bytes",
            expected.len()
        );
        let empty = std::fs::read_to_string(format!("{single}.empty")).ok();
        for n in [1, 3] {
            assert!(
                datagen_sharded(&dir, tag, settings, n) == expected,
                "{tag}: {n} shards differ from one run"
            );
            // The games that kept no position are listed as the single run lists them.
            let merged = dir.path(&format!("{tag}-merged{n}.bin"));
            assert_eq!(
                std::fs::read_to_string(format!("{merged}.empty")).ok(),
                empty,
                "{tag}: {n} shards"
            );
        }
    }
    // The short games' logs name games that kept no position: the data alone could not
    // place them.
    let logs: String = (1..=3)
        .map(|i| std::fs::read_to_string(dir.path(&format!("short-{i}of3.bin.shard"))).unwrap())
        .collect();
    assert!(logs.lines().any(|l| l.ends_with("\t0")), "{logs}");
    let single_empty = std::fs::read_to_string(dir.path("short.bin.empty")).unwrap_or_default();
    assert!(!single_empty.is_empty(), "the single run lists them too");
    // Played with the embedded net (datagen's default), named by its file's hash.
    let net = pao::eval::nnue::file::fnv1a(include_bytes!("../../../src/eval/nnue/default.nnue"));
    let settings = format!("settings seed=5 nodes=300 depth=none random-plies=8 max-plies=2 hash=16 openings=start evalfile=fnv1a:{net:016x}");
    assert!(
        logs.contains(&format!("\nshard 2/3\n{settings}\n1\t")),
        "{logs}"
    );
}

#[test]
fn a_shard_continues_after_an_interruption_and_merges_the_same() {
    let dir = Scratch::new("continue");
    let settings = "--games 9 --nodes 300 --max-plies 30 --seed 11 --threads 2";
    let single = dir.path("one.bin");
    ok(datagen(settings, &single, None));
    let files: Vec<String> = (1..=3).map(|i| dir.path(&format!("s{i}.bin"))).collect();
    ok(datagen(settings, &files[0], Some("1/3")));
    ok(datagen(settings, &files[2], Some("3/3")));
    // Shard 2 stops after game 4 (its second of 1, 4, 7), as a run told --games 5 does ...
    ok(datagen(
        &settings.replace("--games 9", "--games 5"),
        &files[1],
        Some("2/3"),
    ));
    let merged = dir.path("m.bin");
    let merge = || {
        let mut a = words(&format!("datagen merge --out {merged}"));
        a.extend(files.iter().cloned());
        a
    };
    assert!(
        fails(merge()).contains("game 7 is missing: shard 2/3 has played 2 games"),
        "a gap is refused"
    );
    // ... and was killed while writing game 7: a torn record and no log line for it.
    let mut torn = read(&files[1]);
    torn.extend_from_slice(&[7u8; 45]);
    std::fs::write(&files[1], torn).unwrap();
    ok(datagen(settings, &files[1], Some("2/3")));
    ok(merge());
    assert!(
        read(&merged) == read(&single),
        "continued shard merges exactly"
    );
    // A shard continued with other settings, or as another shard, is refused.
    let err = fails(datagen(
        &settings.replace("--nodes 300", "--nodes 301"),
        &files[1],
        Some("2/3"),
    ));
    assert!(err.contains("other settings"), "{err}");
    let err = fails(datagen(settings, &files[1], Some("1/3")));
    assert!(err.contains("is shard 2/3, not 1/3"), "{err}");
    // A plain data file is no shard.
    let err = fails(datagen(settings, &single, Some("1/3")));
    assert!(err.contains("no shard log beside it"), "{err}");
}

#[test]
fn datagen_merge_refuses_what_is_not_one_run() {
    let dir = Scratch::new("refuse");
    let a = "--games 4 --nodes 200 --max-plies 10 --seed 3 --threads 1";
    let f = |name: &str| dir.path(name);
    ok(datagen(a, &f("a1.bin"), Some("1/2")));
    ok(datagen(a, &f("a2.bin"), Some("2/2")));
    ok(datagen(
        &a.replace("--seed 3", "--seed 4"),
        &f("b2.bin"),
        Some("2/2"),
    ));
    ok(datagen(a, &f("c1.bin"), Some("1/3")));
    let merge = |out: &str, inputs: &[&str]| {
        let mut args = words(&format!("datagen merge --out {}", f(out)));
        args.extend(inputs.iter().map(|i| f(i)));
        args
    };
    for (inputs, message) in [
        (&["a1.bin"][..], "shard 2/2 is missing"),
        (&["a1.bin", "a1.bin"], "shard 1/2 is given twice"),
        (&["a1.bin", "b2.bin"], "other settings (seed=4 "),
        (&["a1.bin", "c1.bin"], "every shard must be one of"),
        (&["a1.bin", "nothing.bin"], "nothing.bin.shard"),
    ] {
        let err = fails(merge("m.bin", inputs));
        assert!(err.contains(message), "{inputs:?}: {err}");
        assert!(!Path::new(&f("m.bin")).exists());
    }
    ok(merge("m.bin", &["a2.bin", "a1.bin"]));
    let err = fails(merge("m.bin", &["a2.bin", "a1.bin"]));
    assert!(err.contains("m.bin"), "an existing file is kept: {err}");
}

/// A small match of the network against the hand-written evaluation: deterministic games
/// (one thread, no book, fixed depth, a fresh engine per game).
fn match_args(pao: &Path, rest: &str) -> Vec<String> {
    let p = pao.display();
    words(&format!(
        "match --engine name=nnue cmd={p} --engine name=hce cmd={p} option.UseNNUE=false \
         --each option.Threads=1 option.Hash=16 option.PinThreads=false option.OwnBook=false \
         --games 8 --depth 2 --maxplies 120 {rest}"
    ))
}

/// The report at the end of a match's output (game and status lines come before it).
fn report_of(out: &str) -> String {
    let at = out
        .find("engine  games")
        .unwrap_or_else(|| panic!("no report in {out}"));
    out[at..].to_string()
}

#[test]
fn match_shards_merge_into_the_single_runs_report_and_results() {
    let Some(pao) = engine() else { return };
    let dir = Scratch::new("match");
    let sprt = "--sprt elo0=0 elo1=5";
    let single = dir.path("one.tsv");
    let out = ok(match_args(&pao, &format!("--resume {single} {sprt}")));
    let expected = report_of(&out);
    // The test stays undecided over these games, so the single run played them all.
    assert!(
        expected.contains(": undecided (below min-games)\n"),
        "{expected}"
    );
    assert!(expected.contains("over 4 pairs"), "{expected}");
    for n in [1, 3] {
        let mut files = Vec::new();
        for i in 1..=n {
            let file = dir.path(&format!("s{i}of{n}.tsv"));
            let out = ok(match_args(
                &pao,
                &format!(
                    "--shard {i}/{n} --resume {file} --concurrency {}",
                    1 + i % 2
                ),
            ));
            assert!(!out.contains("SPRT"), "{out}");
            files.push(file);
        }
        files.reverse();
        let merged = dir.path(&format!("merged{n}.tsv"));
        // Files first: --sprt takes the words after it.
        let mut args = words(&format!("match merge --out {merged}"));
        args.extend(files.iter().cloned());
        args.extend(words(sprt));
        assert_eq!(ok(args), expected, "{n} shards");
        assert_eq!(read(&merged), read(&single), "{n} shards' results file");
    }
    // Shard 2 of 3 holds the second pair: games 2 and 3.
    let shard2 = std::fs::read_to_string(dir.path("s2of3.tsv")).unwrap();
    let indices: Vec<&str> = shard2
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split('\t').next().unwrap_or(""))
        .collect();
    assert_eq!(indices, ["2", "3"]);
    // Merging while a shard is unfinished reports the games so far, as an interrupted run does.
    let partial = dir.path("s3of3.tsv");
    let text = std::fs::read_to_string(&partial).unwrap();
    let cut: Vec<&str> = text.lines().collect();
    std::fs::write(&partial, format!("{}\n", cut[..cut.len() - 1].join("\n"))).unwrap();
    let mut args = words("match merge");
    args.extend((1..=3).map(|i| dir.path(&format!("s{i}of3.tsv"))));
    let report = ok(args);
    assert!(
        report.contains("7 of 8 scheduled games played\n"),
        "{report}"
    );
    // The shard then plays its missing game and no other.
    let out = ok(match_args(&pao, &format!("--shard 3/3 --resume {partial}")));
    assert!(
        out.contains("resuming: 1 of 2 games already played"),
        "{out}"
    );
    assert_eq!(std::fs::read_to_string(&partial).unwrap(), text);
}

#[test]
fn match_shards_refuse_mixing() {
    let Some(pao) = engine() else { return };
    let dir = Scratch::new("matchmix");
    let (a, b) = (dir.path("a.tsv"), dir.path("b.tsv"));
    ok(match_args(&pao, &format!("--shard 1/2 --resume {a}")));
    ok(match_args(
        &pao,
        &format!("--shard 2/2 --resume {b} --movetimeout 30"),
    ));
    let mut args = words("match merge");
    args.extend([a.clone(), b.clone()]);
    let err = fails(args);
    assert!(err.contains("is of another match than shard 1/2"), "{err}");
    let err = fails(match_args(&pao, &format!("--shard 2/2 --resume {a}")));
    assert!(err.contains("holds shard 1/2, not 2/2"), "{err}");
    let err = fails(match_args(
        &pao,
        &format!("--shard 1/2 --resume {a} --timemargin 60"),
    ));
    assert!(err.contains("holds games of another match"), "{err}");
    let single = dir.path("one.tsv");
    ok(match_args(&pao, &format!("--resume {single}")));
    let err = fails(words(&format!("match merge {single}")));
    assert!(err.contains("no '# shard' line"), "{err}");
    let err = fails(words(&format!("match merge {a}")));
    assert!(err.contains("shard 2/2 is missing"), "{err}");
}
