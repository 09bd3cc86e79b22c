//! `pao-tools mates`: solve, find, prove and run, on small inputs with exact outputs. `run`
//! drives the `pao` built next to `pao-tools` (`cargo test --workspace` builds both); when
//! only this crate was built, those tests say so and do nothing.

mod support;

use support::{engine, tools, Scratch};

/// Two rooks: i7i9 mates, i7f7 and a8f8 stalemate (which loses in xiangqi).
const TWO_ROOKS: &str = "4k4/R8/8R/9/9/9/9/9/9/3K5 w - - 0 1";
/// Red mates in 3 with any elephant move, in 4 from two plies earlier (an endgame of
/// Pao's self-play).
const MATE_IN_3: &str = "3a5/5k3/3NP4/9/9/9/9/4B4/4K4/9 w - - 0 1";
const MATE_IN_4: &str = "3a1k3/9/3aP4/9/4N4/9/9/4B4/4K4/9 w - - 0 1";

#[test]
fn solve_prints_the_row_and_refuses_a_position_without_a_short_mate() {
    let (code, out, err) = tools(&["mates", "solve", TWO_ROOKS, MATE_IN_4]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        format!("{TWO_ROOKS}\t1\ti7f7 i7i9 a8f8\tcomposed\n{MATE_IN_4}\t4\te5d7\tcomposed\n")
    );
    let bare = "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1";
    let (code, out, err) = tools(&["mates", "solve", "--max-moves", "2", bare]);
    assert_eq!(code, 1);
    assert_eq!(out, "");
    assert_eq!(
        err,
        format!("no mate in 2 moves: {bare}\npao-tools mates: 1 positions without a short mate\n")
    );
}

#[test]
fn find_plays_out_games_and_keeps_the_solved_mates() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/data/endgame-positions.txt");
    let args = [
        "mates",
        "find",
        "--from",
        "endgames",
        "--file",
        file,
        "--games",
        "3",
        "--seed",
        "2",
        "--random-plies",
        "0",
        "--nodes",
        "3000",
    ];
    let (code, out, err) = tools(&args);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines.len() >= 2, "no mate found: {out}");
    assert!(lines[0].starts_with("# pao-tools mates find --from endgames --file "));
    for row in &lines[1..] {
        assert!(row.contains("\tself-play endgames seed 2 game "), "{row}");
    }
    // Which mates the games walk into is the engine's choice; that each row is a true shortest
    // mate with all its mating first moves is proven apart, by `mates prove` (the solver and
    // Pao's pruning-free search).
    let dir = Scratch::new("mates-find");
    let set = dir.file("found.tsv", &out);
    let (code, proof, err) = tools(&["mates", "prove", set.as_str()]);
    assert_eq!(code, 0, "{proof}\n{err}");
    let rows = lines.len() - 1;
    assert_eq!(
        proof.lines().last(),
        Some(format!("proven {rows} of {rows} rows").as_str()),
        "{proof}"
    );
}

#[test]
fn prove_confirms_true_rows_and_names_what_is_wrong() {
    let dir = Scratch::new("mates-prove");
    let set = dir.file(
        "prove.tsv",
        &format!(
            "# a small set\n{TWO_ROOKS}\t1\ti7f7 i7i9 a8f8\tx\n{MATE_IN_4}\t4\te5d7\tx\n\
             {MATE_IN_4}\t5\te5d7\tx\n{MATE_IN_3}\t3\te2g4\tx\n"
        ),
    );
    let (code, out, err) = tools(&["mates", "prove", set.as_str()]);
    assert_eq!(code, 1, "{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 5, "{out}");
    assert!(lines[0].starts_with("row 1 ok: mate in 1 ("), "{out}");
    assert!(lines[1].starts_with("row 2 ok: mate in 4 ("), "{out}");
    // A mate in 4 listed as a mate in 5: both proofs object, each in its words.
    assert!(
        lines[2].starts_with(
            "row 3 WRONG: solver: a mate in 4 exists; solver: mating first moves are e5d7 \
             e7d7; search: depth 7 scores 29993, a mate shorter than 5; search: depth 9 scores \
             29993 (mate), not 29991 ("
        ),
        "{out}"
    );
    // A first move missing from the list.
    assert!(
        lines[3].starts_with("row 4 WRONG: solver: mating first moves are e2c0 e2g0 e2c4 e2g4 ("),
        "{out}"
    );
    assert_eq!(lines[4], "proven 2 of 4 rows");
    assert_eq!(err, "pao-tools mates: 2 rows are wrong\n");
}

#[test]
fn run_counts_the_exact_mates_an_engine_reports() {
    let Some(pao) = engine() else { return };
    let pao = pao.to_str().expect("utf-8 path");
    let dir = Scratch::new("mates-run");
    let set = dir.file(
        "run.tsv",
        &format!("{TWO_ROOKS}\t1\ti7f7 i7i9 a8f8\tx\n{MATE_IN_4}\t4\te5d7\tx\n{MATE_IN_3}\t3\te2g4 e2c4 e2g0 e2c0\tx\n"),
    );
    let (code, out, err) = tools(&[
        "mates",
        "run",
        set.as_str(),
        "--engine",
        pao,
        "--go",
        "depth 13",
    ]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    assert!(lines[0].starts_with("row 1: exact mate 1, reported mate 1 at depth 13 in "));
    assert!(lines[1].starts_with("row 2: exact mate 4, reported mate 4 at depth 13 in "));
    assert!(lines[3]
        .starts_with("exact mate reported in 3 of 3 rows; a mating first move in 3; median time "));
    // The defender's side: after each first mating move, mated in N - 1 (the mate in 1 has
    // no defender to ask).
    let args = [
        "mates",
        "run",
        set.as_str(),
        "--engine",
        pao,
        "--go",
        "depth 13",
        "--defender",
    ];
    let (code, out, err) = tools(&args);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(lines[0].starts_with("row 1: exact mate -3, reported mate -3 at depth 13 in "));
    assert!(lines[2].starts_with("exact mate reported in 2 of 2 rows"));
    // A depth too shallow for the mate in 4: not the exact mate, and --require-all fails.
    let args = [
        "mates",
        "run",
        set.as_str(),
        "--engine",
        pao,
        "--go",
        "depth 3",
        "--require-all",
    ];
    let (code, out, err) = tools(&args);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("row 2: exact mate 4, reported "), "{out}");
    assert!(out.contains("  WRONG"), "{out}");
    assert!(err.starts_with("pao-tools mates: "), "{err}");
    assert!(err.ends_with(" rows without the shortest mate\n"), "{err}");
}
