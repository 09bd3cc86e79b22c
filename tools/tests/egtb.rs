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

#[test]
fn bitbases_made_from_generated_tables_are_the_embedded_ones() {
    let scratch = Scratch::new("egtb-bitbase");
    let dir = scratch.dir();
    let d = dir.to_str().expect("utf-8 path");
    let (code, _, err) = tools(&["generate", "KNKB", "KPKA", "--dir", d, "--threads", "2"]);
    assert_eq!(code, 0, "{err}");
    let out_dir = dir.join("bitbase");
    let o = out_dir.to_str().expect("utf-8 path");
    let args = [
        "bitbase",
        "--dir",
        d,
        "--materials",
        "KPKA,KNKB",
        "--out",
        o,
    ];
    let (code, out, err) = tools(&args);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("| KNKB | 68040 | "), "{out}");
    assert!(out.contains("| KPKA | 29700 | "), "{out}");
    // The same bytes as the engine embeds: the blob depends on the verdicts alone.
    let committed =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../src/eval/bitbase/data");
    for name in ["KNKB", "KPKA"] {
        let made = std::fs::read(out_dir.join(format!("data/{name}.pbb"))).expect("written");
        let embedded = std::fs::read(committed.join(format!("{name}.pbb"))).expect("committed");
        assert!(
            made == embedded,
            "{name}: {} bytes, embedded {}",
            made.len(),
            embedded.len()
        );
    }
    let list = std::fs::read_to_string(out_dir.join("embedded.rs")).expect("written");
    assert!(list.contains("pub const MAX_PIECES: u32 = 4;"), "{list}");
    assert!(
        list.contains("    (\"KNKB\", include_bytes!(\"data/KNKB.pbb\")),\n    (\"KPKA\", include_bytes!(\"data/KPKA.pbb\")),\n"),
        "{list}"
    );
    // A material whose table is missing: one line, nothing written.
    let args = ["bitbase", "--dir", d, "--materials", "KNKP", "--out", o];
    let (code, _, err) = tools(&args);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("KNKP.ptb"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
}
