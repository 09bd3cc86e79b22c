//! The command line: perft output formats, EPD checking, bench lines, and clean errors.

use std::process::Command;

fn pao(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_pao"))
        .args(args)
        .output()
        .expect("run pao");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

#[test]
fn perft_prints_the_final_line() {
    let (code, out, _) = pao(&["perft", "3"]);
    assert_eq!(code, 0);
    let last = out.lines().last().expect("a line");
    let w: Vec<&str> = last.split_whitespace().collect();
    assert_eq!(
        (w[0], w[1], w[2], w[4]),
        ("nodes", "79666", "time_ms", "nps"),
        "{last}"
    );
}

#[test]
fn divide_lists_every_root_move() {
    let fen = "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1";
    let (code, out, _) = pao(&["perft", "2", "--fen", fen, "--divide"]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 38 + 1);
    let sum: u64 = lines[..38]
        .iter()
        .map(|l| {
            let (m, n) = l.split_once(' ').expect("move and count");
            assert_eq!(m.len(), 4, "{l}");
            n.parse::<u64>().expect("count")
        })
        .sum();
    assert_eq!(sum, 1128);
    assert!(lines[38].starts_with("nodes 1128 time_ms "));
}

#[test]
fn epd_checks_every_depth() {
    let dir = std::env::temp_dir().join(format!("pao-epd-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let good = dir.join("good.epd");
    std::fs::write(
        &good,
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 ;D1 44 ;D2 1920 ;D3 79666\n\
         1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1 ;D1 7 ;D2 281 ;D5 10369923\n",
    )
    .expect("write");
    let (code, out, _) = pao(&[
        "perft",
        "--epd",
        good.to_str().expect("path"),
        "--max-depth",
        "3",
    ]);
    assert_eq!((code, out.trim()), (0, "perft-epd: 2 passed, 0 failed"));
    let bad = dir.join("bad.epd");
    std::fs::write(
        &bad,
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 ;D1 44 ;D2 1921\n",
    )
    .expect("write");
    let (code, out, _) = pao(&["perft", "--epd", bad.to_str().expect("path")]);
    assert_eq!(code, 1);
    assert!(out.contains("depth 2: expected 1921, got 1920"), "{out}");
    assert!(
        out.trim_end().ends_with("perft-epd: 0 passed, 1 failed"),
        "{out}"
    );
}

#[test]
fn bad_arguments_give_one_error_and_status_two() {
    for args in [
        vec!["perft"],
        vec!["perft", "x"],
        vec!["perft", "3", "--fen", "rnbakabnr/9 w"],
        vec!["perft", "--epd", "/nonexistent/file.epd"],
        vec!["perft", "3", "--bogus"],
        vec!["bench", "--depth", "0"],
        vec!["bench", "--threads", "many"],
        vec!["frobnicate"],
        vec!["perft", "--epd", "x.epd", "--divide"],
        vec!["bench", "--ablation", "--positions", "x"],
        vec!["bench", "--evalfile", "/nonexistent/net.nnue"],
        vec!["bench", "--evalfile", "x.nnue", "--hce"],
        vec!["bench", "--switches", "bogus"],
    ] {
        let (code, out, err) = pao(&args);
        assert_eq!(code, 2, "{args:?}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert!(err.starts_with("error: "), "{args:?}: {err}");
        // The error names what was wrong.
        let named = args.iter().skip(1).any(|a| err.contains(a))
            || err.contains("<DEPTH>")
            || err.contains("frobnicate");
        assert!(named, "{args:?}: {err}");
    }
}

#[test]
fn bench_prints_a_line_per_position_and_the_total() {
    let dir = std::env::temp_dir().join(format!("pao-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let fens = dir.join("two.fens");
    std::fs::write(
        &fens,
        "# two positions\nrnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\n3k5/R8/9/8p/9/9/9/9/9/R3K4 w - - 0 1\n",
    )
    .expect("write");
    let (code, out, _) = pao(&[
        "bench",
        "--fens",
        fens.to_str().expect("path"),
        "--depth",
        "6",
    ]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    // The second position is a mate in one (the rook to d0 or a9; move generation offers d0
    // first), which any evaluation finds at depth 1, so the line does not depend on the net.
    let w: Vec<&str> = lines[1].split_whitespace().collect();
    assert_eq!(
        (w[0], w[1], w[2], w[3], w[4], w[5]),
        ("position", "2", "bestmove", "a0d0", "score", "29999"),
        "{out}"
    );
    assert!(lines[2].starts_with("bench: nodes "), "{out}");
}

#[test]
fn help_and_version_on_every_command() {
    for command in [&[][..], &["perft"], &["bench"]] {
        for flag in ["--help", "-h"] {
            let args: Vec<&str> = command.iter().copied().chain([flag]).collect();
            let (code, out, err) = pao(&args);
            assert_eq!((code, err.as_str()), (0, ""), "{args:?}");
            let usage = format!("Usage: pao {}", command.join(" "));
            assert!(out.contains(usage.trim_end()), "{args:?}: {out}");
        }
    }
    let (code, out, _) = pao(&["help", "bench"]);
    assert_eq!(code, 0);
    assert!(out.contains("--stagger"), "{out}");
    for flag in ["--version", "-V"] {
        let (code, out, _) = pao(&[flag]);
        assert_eq!(
            (code, out.trim()),
            (0, format!("pao {}", env!("CARGO_PKG_VERSION")).as_str())
        );
    }
}

/// A reader that goes away ends `pao bench` silently, as it ends the shell's tools (`pao
/// bench | head -1`): no panic on the failed write, no message.
#[cfg(target_os = "linux")]
#[test]
fn bench_ends_quietly_when_its_reader_goes_away() {
    use std::io::{BufRead, BufReader};
    use std::os::unix::process::ExitStatusExt;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_pao"))
        .args(["bench", "--depth", "11"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run pao");
    let mut first = String::new();
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    stdout.read_line(&mut first).expect("a line");
    assert!(first.starts_with("position   1 bestmove "), "{first}");
    drop(stdout);
    let out = child.wait_with_output().expect("wait");
    assert_eq!(
        (out.status.code(), out.status.signal()),
        (None, Some(libc::SIGPIPE)),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}
