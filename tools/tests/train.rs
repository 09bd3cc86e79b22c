//! `pao-tools train` as a user runs it: a small run writes a net the engine's loader accepts,
//! a resumed run writes the same weights, and bad arguments or files get one error line.

use pao::eval::nnue::Network;
use std::process::Command;

mod support;

/// Runs `pao-tools ARGS`; stdout and stderr trimmed.
fn tools(args: &[&str]) -> (i32, String, String) {
    let (code, out, err) = support::tools(args);
    (code, out.trim().to_string(), err.trim().to_string())
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("pao-train-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// A net's provenance names no absolute path (not the temporary directory, no word starting
/// with `/`) and the commit the trainer was built from: 12 hex digits (`+dirty` allowed), a
/// commit the repository has when the tests run in a git checkout.
fn check_provenance(provenance: &str, dir: &std::path::Path) {
    assert!(
        !provenance.contains(&*dir.to_string_lossy()),
        "{provenance}"
    );
    assert!(
        !provenance
            .split([' ', '(', ',', '='])
            .any(|w| w.starts_with('/')),
        "{provenance}"
    );
    let commit = provenance
        .split("; ")
        .find_map(|part| part.strip_prefix("commit "))
        .expect("a commit field");
    let hash = commit.trim_end_matches("+dirty");
    assert!(
        hash.len() == 12 && hash.bytes().all(|b| b.is_ascii_hexdigit()),
        "not a commit: {commit}"
    );
    match Command::new("git")
        .args(["cat-file", "-e", &format!("{hash}^{{commit}}")])
        .output()
    {
        Ok(out) if out.status.success() => {}
        Ok(out) => {
            let inside = Command::new("git")
                .args(["rev-parse", "--git-dir"])
                .output()
                .is_ok_and(|o| o.status.success());
            assert!(
                !inside,
                "{hash} is not a commit of this repository: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            println!("skipped: not a git checkout, commit {hash} not checked");
        }
        Err(_) => println!("skipped: git is not installed, commit {hash} not checked"),
    }
}

#[test]
fn a_small_run_writes_a_loadable_net_and_resumes_to_the_same_weights() {
    let dir = temp_dir("run");
    let p = |name: &str| dir.join(name).to_string_lossy().into_owned();
    let (code, out, err) = tools(&[
        "synth-data",
        "--positions",
        "4000",
        "--seed",
        "3",
        "--out",
        &p("d.bin"),
    ]);
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (
            0,
            format!("wrote 4000 positions to {}", p("d.bin")).as_str(),
            ""
        )
    );
    let (a_path, b_path) = (p("a.bin"), p("b.bin"));
    let common = [
        "train",
        "--data",
        &p("d.bin"),
        "--hidden",
        "32",
        "--batch",
        "256",
        "--threads",
        "2",
        "--wdl",
        "0.5",
        "--weight-decay",
        "0.01",
    ];
    let whole: Vec<&str> = common
        .iter()
        .copied()
        .chain(["--epochs", "2", "--out", &a_path])
        .collect();
    let (code, out, err) = tools(&whole);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 7, "{out}");
    assert!(
        lines[0].starts_with("data: 4000 positions in 1 file(s): "),
        "{out}"
    );
    assert!(lines[1].starts_with("fitted K = "), "{out}");
    assert!(lines[2].starts_with("epoch 1/2: train loss "), "{out}");
    assert!(lines[3].starts_with("epoch 2/2: train loss "), "{out}");
    assert!(lines[4].starts_with("trained 2 epoch(s) in "), "{out}");
    assert!(
        lines[5].starts_with("validation loss at the end: ")
            && lines[5].ends_with(" on 161 positions (K 231.8)"),
        "{out}"
    );
    assert!(
        lines[6].starts_with(&format!(
            "wrote {} (plain features, hidden 32, SquaredClippedRelu)",
            p("a.bin")
        )),
        "{out}"
    );
    let a = Network::load(&p("a.bin")).expect("the engine's loader accepts the net");
    assert_eq!((a.hidden, a.qa, a.qb, a.scale), (32, 255, 64, 400));
    for part in [
        "pao-tools train; commit ",
        // The data and the net lie outside the directory the command ran in: their file
        // names stand for them, and the program is named as the user would type it.
        "; command: pao-tools train --data d.bin --hidden 32 ",
        "--epochs 2 --out a.bin;",
        "; data: 4000 positions (d.bin 4000); seed 1; epochs 2; K ",
    ] {
        assert!(
            a.provenance.contains(part),
            "{part} not in {}",
            a.provenance
        );
    }
    check_provenance(&a.provenance, &dir);

    // Stop after epoch 1 (as if interrupted), then resume from its checkpoint.
    let ckpt = format!("{}.checkpoints/epoch-1.ckpt", p("a.bin"));
    let resumed: Vec<&str> = common
        .iter()
        .copied()
        .chain(["--epochs", "2", "--out", &b_path, "--resume", &ckpt])
        .collect();
    let (code, out, err) = tools(&resumed);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("(from the checkpoint)") && !out.contains("epoch 1/2"),
        "{out}"
    );
    let b = Network::load(&p("b.bin")).expect("loads");
    assert_eq!(
        (a.ft_weights, a.ft_bias, a.out_weights, a.out_bias),
        (b.ft_weights, b.ft_bias, b.out_weights, b.out_bias)
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn bad_arguments_and_bad_files_are_one_error_line() {
    let dir = temp_dir("bad");
    let p = |name: &str| dir.join(name).to_string_lossy().into_owned();
    let (code, _, err) = tools(&["synth-data", "--positions", "300", "--out", &p("good.bin")]);
    assert_eq!(code, 0, "{err}");
    let good = std::fs::read(p("good.bin")).expect("written");
    // One broken record is skipped with a warning; a file mostly broken is refused.
    let mut one_bad = good.clone();
    one_bad[32 + 5 * 32 + 29] = 7;
    std::fs::write(p("one.bin"), &one_bad).expect("write");
    let (code, _, err) = tools(&[
        "train",
        "--data",
        &p("one.bin"),
        "--epochs",
        "1",
        "--out",
        &p("one.nnue"),
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        err,
        format!(
            "warning: {}: 1 of 300 records broken and skipped (the first at byte 192: bad result \
             byte 7)",
            p("one.bin")
        )
    );
    let mut bad_record = good.clone();
    for r in 5..200 {
        bad_record[32 + r * 32 + 29] = 7;
    }
    std::fs::write(p("record.bin"), &bad_record).expect("write");
    std::fs::write(
        p("magic.bin"),
        b"PAOXQDAX and then some bytes to pass the length check",
    )
    .expect("write");
    std::fs::write(p("short.bin"), b"PAOX").expect("write");
    std::fs::write(p("empty.bin"), &good[..32]).expect("write");
    std::fs::write(p("ckpt"), b"not a checkpoint").expect("write");
    let data = p("good.bin");
    let cases: Vec<(Vec<String>, String)> = vec![
        (vec![], "no data: give --data FILE...".into()),
        (
            vec![
                "--data".into(),
                data.clone(),
                "--hidden".into(),
                "100".into(),
            ],
            "--hidden 100 is not a multiple of 16 up to 2048".into(),
        ),
        (
            vec![
                "--data".into(),
                data.clone(),
                "--epochs".into(),
                "many".into(),
            ],
            "bad value 'many' for --epochs".into(),
        ),
        (
            vec!["--data".into(), data.clone(), "--threads".into()],
            "--threads needs a value".into(),
        ),
        (
            vec!["--data".into(), data.clone(), "--wdl".into(), "1.5".into()],
            "--wdl 1.5 is not between 0 and 1".into(),
        ),
        (
            vec![
                "--data".into(),
                data.clone(),
                "--frobnicate".into(),
                "1".into(),
            ],
            "unexpected argument '--frobnicate'".into(),
        ),
        (
            vec!["--data".into(), p("missing.bin")],
            format!(
                "{}: No such file or directory (os error 2)",
                p("missing.bin")
            ),
        ),
        (
            vec!["--data".into(), p("magic.bin")],
            format!("{}: not a Pao data file (bad magic)", p("magic.bin")),
        ),
        (
            vec!["--data".into(), p("short.bin")],
            format!("{}: file too short for a header", p("short.bin")),
        ),
        (
            vec!["--data".into(), p("record.bin")],
            format!(
                "{}: 195 of 300 records broken and skipped (the first at byte 192: bad result \
                 byte 7); most of the file is broken: not read",
                p("record.bin")
            ),
        ),
        (
            vec!["--data".into(), p("empty.bin")],
            format!("{}: no positions in the file", p("empty.bin")),
        ),
        (
            vec![
                "--data".into(),
                data.clone(),
                "--resume".into(),
                p("ckpt"),
                "--out".into(),
                p("n.bin"),
            ],
            format!("{}: not a Pao training checkpoint", p("ckpt")),
        ),
    ];
    // The first six are argument errors: clap's convention (status 2, `error: ...`, then the
    // usage line); the rest fail at run time (status 1, one line naming the command).
    for (i, (args, message)) in cases.into_iter().enumerate() {
        let mut all = vec!["train".to_string()];
        all.extend(args);
        let all: Vec<&str> = all.iter().map(String::as_str).collect();
        let (code, out, err) = tools(&all);
        if i < 6 {
            assert_eq!(
                (code, out.as_str(), err.lines().next()),
                (2, "", Some(format!("error: {message}").as_str())),
                "{all:?}"
            );
            assert_eq!(err.lines().last(), Some("Usage: pao-tools train [ARGS]..."));
        } else {
            assert_eq!(
                (code, out.as_str(), err),
                (1, "", format!("pao-tools train: {message}")),
                "{all:?}"
            );
        }
    }
    let (code, _, err) = tools(&["synth-data", "--positions", "0", "--out", &p("x.bin")]);
    assert_eq!(
        (code, err.lines().next()),
        (
            2,
            Some(
                "error: invalid value '0' for '--positions <N>': 0 is not in 1..18446744073709551615"
            )
        )
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn zero_epochs_from_the_embedded_net_write_its_weights_back_and_other_shapes_are_refused() {
    let dir = temp_dir("init");
    let bytes = include_bytes!("../../src/eval/nnue/default.nnue");
    let checksum = u64::from_le_bytes(bytes[40..48].try_into().expect("a header"));
    let hidden = Network::from_bytes(bytes).expect("the embedded net").hidden;
    let p = |name: &str| dir.join(name).to_string_lossy().into_owned();
    let (code, _, err) = tools(&["synth-data", "--positions", "2000", "--out", &p("d.bin")]);
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = tools(&[
        "train",
        "--data",
        &p("d.bin"),
        "--init",
        "embedded",
        "--epochs",
        "0",
        "--threads",
        "1",
        "--out",
        &p("again.nnue"),
    ]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(
        out.contains(&format!(
            "starting from embedded (plain features, hidden {hidden}, screlu"
        )),
        "{out}"
    );
    let again = Network::load(&p("again.nnue")).expect("loads");
    let embedded = Network::from_bytes(include_bytes!("../../src/eval/nnue/default.nnue"))
        .expect("the embedded net");
    assert_eq!(
        Network {
            provenance: String::new(),
            ..again.clone()
        },
        Network {
            provenance: String::new(),
            ..embedded
        }
    );
    assert!(again
        .provenance
        .contains(&format!("; init embedded (body checksum {checksum:016x})")));
    check_provenance(&again.provenance, &dir);
    // The written net starts a run in turn; a narrower or other net is refused in one line.
    let wider = (hidden + 16).to_string();
    let (code, out, err) = tools(&[
        "train",
        "--data",
        &p("d.bin"),
        "--init",
        &p("again.nnue"),
        "--epochs",
        "0",
        "--threads",
        "1",
        "--hidden",
        &wider,
        "--out",
        &p("wide.nnue"),
    ]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert_eq!(
        Network::load(&p("wide.nnue")).expect("loads").hidden,
        hidden + 16
    );
    for (flags, says) in [
        (&["--hidden", "64"][..], "hidden 64"),
        (&["--features", "king-buckets"][..], "king-buckets"),
    ] {
        let mut args = vec![
            "train",
            "--data",
            &p("d.bin"),
            "--init",
            "embedded",
            "--out",
            "x.nnue",
        ]
        .into_iter()
        .map(String::from)
        .collect::<Vec<_>>();
        args.extend(flags.iter().map(|s| s.to_string()));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, _, err) = tools(&args);
        assert_eq!(code, 1, "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.contains(&format!(
                "the net to start from has plain features, hidden {hidden}"
            )) && err.contains(says),
            "{err}"
        );
    }
    let (code, _, err) = tools(&["train", "--data", &p("d.bin"), "--epochs", "0"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--epochs must be at least 1 (0 only with --init)"),
        "{err}"
    );
    let (code, _, err) = tools(&["train", "--data", &p("d.bin"), "--init", &p("nothing.nnue")]);
    assert_eq!(code, 1);
    assert!(
        err.contains("--init") && err.contains("nothing.nnue"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// The validation loss printed at the end of a run (`validation loss at the end: X on
/// N positions`): X and N.
fn written_loss(out: &str) -> (String, usize) {
    let line = out
        .lines()
        .find_map(|l| l.strip_prefix("validation loss at the end: "))
        .unwrap_or_else(|| panic!("no validation line in {out}"));
    let mut words = line.split_whitespace();
    let loss = words.next().expect("a loss").to_string();
    let n = words.nth(1).and_then(|n| n.parse().ok()).expect("a count");
    (loss, n)
}

#[test]
fn a_common_validation_set_measures_nets_trained_on_other_data() {
    let dir = temp_dir("val-data");
    let p = |name: &str| dir.join(name).to_string_lossy().into_owned();
    for (name, n, seed) in [
        ("a.bin", "2000", "1"),
        ("b.bin", "1000", "2"),
        ("c.bin", "1500", "3"),
    ] {
        let (code, _, err) = tools(&[
            "synth-data",
            "--positions",
            n,
            "--seed",
            seed,
            "--out",
            &p(name),
        ]);
        assert_eq!(code, 0, "{err}");
    }
    let val = p("b.bin");
    let train = |data: &str, extra: &[&str], out: &str| {
        let out = p(out);
        let mut args = vec![
            "train",
            "--data",
            data,
            "--val-data",
            &val,
            "--hidden",
            "32",
            "--k",
            "200",
            "--threads",
            "1",
            "--out",
            &out,
        ];
        args.extend(extra);
        let (code, stdout, err) = tools(&args);
        assert_eq!(code, 0, "{stdout}\n{err}");
        stdout
    };
    // The training file is used whole; every position of the other file validates.
    let out = train(&p("a.bin"), &["--epochs", "1"], "n.nnue");
    assert!(
        out.contains("data: 2000 positions in 1 file(s): 2000 training, 1000 validation"),
        "{out}"
    );
    assert_eq!(written_loss(&out).1, 1000);
    let net = Network::load(&p("n.nnue")).expect("loads");
    assert!(
        net.provenance.contains("; validated on "),
        "{}",
        net.provenance
    );
    assert!(net.provenance.contains("b.bin"), "{}", net.provenance);
    check_provenance(&net.provenance, &dir);
    // A net measured on the set without training: the same loss whatever the training files.
    let init = p("n.nnue");
    let zero = ["--epochs", "0", "--init", init.as_str()];
    let on_a = written_loss(&train(&p("a.bin"), &zero, "a0.nnue"));
    let on_c = written_loss(&train(&p("c.bin"), &zero, "c0.nnue"));
    assert_eq!(on_a, on_c);
    assert!(on_a.0.parse::<f64>().expect("a number") > 0.0);
    let (code, _, err) = tools(&[
        "train",
        "--data",
        &p("a.bin"),
        "--val-data",
        &p("nothing.bin"),
    ]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("nothing.bin"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}
