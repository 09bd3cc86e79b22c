//! `pao-tools egtb` as a user runs it: generate, stats, probe, verify (with the search),
//! positions, and the errors of a bad command.

mod support;

use support::Scratch;

/// Runs `pao-tools egtb ARGS`.
fn tools(args: &[&str]) -> (i32, String, String) {
    support::tools(&[&["egtb"], args].concat())
}

#[test]
fn generate_stats_probe_and_verify_against_the_search() {
    let scratch = Scratch::new("egtb-cli");
    let dir = scratch.dir();
    let d = dir.to_str().expect("utf-8 path");
    let (code, out, err) = tools(&["generate", "KRKA", "--dir", d, "--threads", "2"]);
    assert_eq!(code, 0, "{err}");
    let rows: Vec<&str> = out.lines().skip(1).collect();
    assert_eq!(rows.len(), 2, "{out}");
    assert!(
        rows[0].starts_with("KRK ") && rows[1].starts_with("KRKA "),
        "{out}"
    );
    // The same command again keeps both tables.
    let (code, out, _) = tools(&["generate", "KRKA", "--dir", d]);
    assert_eq!(code, 0);
    assert_eq!(
        out.lines().filter(|l| l.contains(" kept ")).count(),
        2,
        "{out}"
    );

    let file = dir.join("KRKA.ptb");
    let (code, out, err) = tools(&["stats", file.to_str().expect("path")]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("table: KRKA\n"), "{out}");
    assert!(
        out.contains("provenance: pao-tools egtb generate KRKA; pao-tools "),
        "{out}"
    );
    assert!(
        out.contains(
            "red                   12195            0            0            0        12105"
        ),
        "{out}"
    );
    assert!(out.contains("longest mate: 10 plies: "), "{out}");

    let (code, out, err) = tools(&["probe", "--dir", d, "3k5/9/9/9/9/9/9/9/R8/4K4", "w"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("table: KRK\nvalue: win in 1 plies (mate in 1)\nbest move: a1d1\n"),
        "{out}"
    );
    assert!(out.contains("line: a1d1\n"), "{out}");

    let (code, out, err) = tools(&[
        "verify",
        "--dir",
        d,
        "KRKA",
        "--search",
        "60",
        "--depth",
        "8",
        "--threads",
        "2",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("KRKA: consistency: 27237 positions, 0 violations"),
        "{out}"
    );
    assert!(
        out.contains("KRKA: search depth 8, 60 positions: "),
        "{out}"
    );
    assert!(out.contains("; contradictions 0"), "{out}");
}

#[test]
fn bad_arguments_are_one_line_errors() {
    let (code, _, err) = tools(&["generate", "KXK", "--dir", "/tmp"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("bad material 'KXK': unknown piece letter 'X'"),
        "{err}"
    );
    let (code, _, err) = tools(&["probe", "--dir", "/nonexistent", "not a fen"]);
    assert_eq!(code, 2);
    assert!(err.contains("bad FEN"), "{err}");
    let (code, _, err) = tools(&[
        "probe",
        "--dir",
        "/nonexistent",
        "3k5/9/9/9/9/9/9/9/R8/4K4",
        "w",
    ]);
    assert_eq!(code, 1);
    assert!(err.contains("tablebase directory /nonexistent"), "{err}");
    assert!(
        err.contains("pao-tools egtb: no table covers this position (KRK)"),
        "{err}"
    );
}
