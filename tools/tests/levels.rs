//! `pao-tools levels` through the real binary: the plan of matches, the rating fit on
//! results written by hand (exact ratings and error bars), and a tiny calibration of levels 0
//! and 1 played by the real `pao`, continued from its results files.

mod support;

use support::Scratch;

/// `pao-tools levels ARGS`: (success, stdout, stderr).
fn levels(args: &[&str]) -> (bool, String, String) {
    let words: Vec<&str> = std::iter::once("levels")
        .chain(args.iter().copied())
        .collect();
    let (code, out, err) = support::tools(&words);
    (code == 0, out, err)
}

/// A results file as `pao-tools match --resume` writes it, from (red, black, result) rows.
fn results(rows: &[(&str, &str, &str)]) -> String {
    let mut text =
        String::from("# pao-tools match results: index\tred\tblack\tresult\tplies\treason\n");
    for (i, (red, black, result)) in rows.iter().enumerate() {
        text.push_str(&format!("{i}\t{red}\t{black}\t{result}\t80\tcheckmate\n"));
    }
    text
}

/// Lines of `text` from the one starting with `from` (inclusive), `count` of them.
fn lines_from<'a>(text: &'a str, from: &str, count: usize) -> Vec<&'a str> {
    text.lines()
        .skip_while(|l| !l.starts_with(from))
        .take(count)
        .collect()
}

#[test]
fn the_plan_chains_levels_and_places_the_anchor() {
    let (ok, out, err) = levels(&["--plan", "--levels", "15-20", "--anchor-cmd", "ee"]);
    assert!(ok, "{err}");
    let plan: Vec<&str> = out.lines().skip(1).collect();
    assert_eq!(
        plan,
        [
            "100 games: L15-L16",
            "100 games: L16-L17",
            "100 games: L17-L18",
            "100 games: L18-L19",
            "100 games: L19-L20",
            "100 games: L15-L17",
            "100 games: L16-L18",
            "100 games: L17-L19",
            "100 games: L18-L20",
            "100 games: L16-L20",
            "100 games: anchor-L20",
            "100 games: anchor against the level nearest it after these (unless it met it already)",
        ]
    );
    assert!(out.starts_with(
        "scale: anchor at 10+0.1 = 2000; levels at 120+1 (bound by their nodes), full strength at 10+0.1"
    ));
    // The default plan: 20 neighbours, 19 second neighbours, level 16 against full strength.
    let (ok, out, _) = levels(&["--plan", "--games", "40"]);
    assert!(ok);
    assert_eq!(
        out.lines().filter(|l| l.starts_with("40 games: ")).count(),
        40
    );
    assert!(out.contains("scale: no anchor, level 20 held at 2000"));
    for bad in [
        &["--plan", "--levels", "3"][..],
        &["--plan", "--levels", "0-4", "--against-full", "5"],
        &["--plan", "--anchor-level", "4"],
        &["--plan", "--anchor-cmd", "ee", "--anchor-name", "L3"],
        &["--plan", "--anchor-cmd", "ee", "--anchor-engine", "name=x"],
        &["--plan", "--steps", "0"],
    ] {
        let (ok, _, err) = levels(bad);
        assert!(!ok && err.contains("error"), "{bad:?}: {err}");
    }
}

#[test]
fn the_fit_of_written_results() {
    let dir = Scratch::new("levels-fit");
    // Level 0 scores 1 of 4 against level 1 (-190.85), level 1 2.5 of 4 against level 2
    // (+88.74), the anchor 3 of 4 against level 2 (+190.85), held at 1000.
    dir.file(
        "L0-L1.tsv",
        &results(&[
            ("L0", "L1", "1-0"),
            ("L1", "L0", "1-0"),
            ("L0", "L1", "0-1"),
            ("L1", "L0", "1-0"),
        ]),
    );
    dir.file(
        "L1-L2.tsv",
        &results(&[
            ("L1", "L2", "1-0"),
            ("L2", "L1", "1/2-1/2"),
            ("L1", "L2", "1-0"),
            ("L2", "L1", "1-0"),
        ]),
    );
    dir.file(
        "EE-L2.tsv",
        &results(&[
            ("EE", "L2", "1-0"),
            ("L2", "EE", "0-1"),
            ("EE", "L2", "0-1"),
            ("L2", "EE", "0-1"),
        ]),
    );
    let out_dir = dir.path("");
    let args = [
        "--report",
        "--levels",
        "0-2",
        "--steps",
        "1",
        "--games",
        "4",
        "--out",
        &out_dir,
        "--anchor-cmd",
        "ee",
        "--anchor-name",
        "EE",
        "--anchor-rating",
        "1000",
        "--anchor-level",
        "2",
    ];
    let (ok, out, err) = levels(&args);
    assert!(ok, "{out}\n{err}");
    assert_eq!(
        lines_from(&out, "| level", 6),
        [
            "| level | rating | ± (95 %) | games |",
            "|---|---:|---:|---:|",
            "| 0 | 707 | 658 | 4 |",
            "| 1 | 898 | 527 | 8 |",
            "| 2 | 809 | 393 | 8 |",
            "| EE (anchor) | 1000 | fixed | 4 |",
        ]
    );
    assert!(out.contains("L1-L2: 4 games, L1 2.5 points"), "{out}");
    assert!(out.contains("warning: level 2 is not above level 1: -89 ± 352, within its error bar"));
    assert_eq!(
        lines_from(&out, "// left out", 5),
        [
            "// left out, not above the level before: 2",
            "pub const CALIBRATION: [(f64, i32); 2] = [",
            "    (0.0, 707),",
            "    (1.0, 898),",
            "];",
        ]
    );
    let table = std::fs::read_to_string(dir.path("table.md")).unwrap();
    assert!(out.ends_with(&table));
    // A results file that is not the pairing's is refused; a missing one leaves level 0 alone.
    dir.file("L0-L1.tsv", &results(&[("L1", "L2", "1-0")]));
    let (ok, _, err) = levels(&args);
    assert!(!ok && err.contains("L0-L1.tsv"), "{err}");
    std::fs::remove_file(dir.path("L0-L1.tsv")).unwrap();
    let (ok, _, err) = levels(&args);
    assert!(
        !ok && err.contains("level 0 has no games linking it to EE"),
        "{err}"
    );
}

#[test]
fn a_tiny_calibration_played_and_continued() {
    let Some(pao) = support::engine() else {
        return;
    };
    let pao = pao.to_string_lossy().into_owned();
    let dir = Scratch::new("levels-play");
    let out_dir = dir.path("run");
    let openings = dir.file("openings.txt", "h2e2 h9g7\nc3c4 g6g5\n");
    // The anchor is Pao at level 0 too: what matters is the plumbing, not its strength.
    let args = [
        "--levels",
        "0-1",
        "--games",
        "2",
        "--tc",
        "5+0.05",
        "--level-tc",
        "5+0.05",
        "--each",
        "option.Hash=1",
        "--engine",
        &pao,
        "--anchor-cmd",
        &pao,
        "--anchor-engine",
        "option.skilllevel=0",
        "option.Hash=1",
        "--anchor-name",
        "A",
        "--anchor-rating",
        "1000",
        "--openings",
        &openings,
        "--out",
        &out_dir,
        "--concurrency",
        "2",
    ];
    let (ok, out, err) = levels(&args);
    assert!(ok, "{out}\n{err}");
    let games = |stem: &str| {
        std::fs::read_to_string(dir.path(&format!("run/{stem}.tsv")))
            .map(|t| t.lines().filter(|l| !l.starts_with('#')).count())
            .unwrap_or(0)
    };
    assert_eq!((games("L0-L1"), games("A-L1")), (2, 2));
    // The anchor's second match is against level 0 exactly when level 0 is the nearer.
    let second = out.contains("the anchor's second match: A-L0");
    assert_eq!(games("A-L0"), if second { 2 } else { 0 });
    let table = lines_from(&out, "| level", 5);
    assert_eq!(table.len(), 5, "{out}");
    assert!(
        table[4].starts_with("| A (anchor) | 1000 | fixed |"),
        "{out}"
    );
    // The array keeps levels 0 and 1 exactly when level 1 rates above level 0 (the games decide
    // which; the table says which it was).
    let rating = |row: &str| -> i64 {
        let cell = row.split('|').nth(2).expect("a rating cell").trim();
        cell.parse::<f64>()
            .unwrap_or_else(|e| panic!("{row}: {e}"))
            .round() as i64
    };
    let (r0, r1) = (rating(table[2]), rating(table[3]));
    assert!(
        table[2].starts_with("| 0 |") && table[3].starts_with("| 1 |"),
        "{out}"
    );
    let array = if r1 > r0 {
        format!(
            "pub const CALIBRATION: [(f64, i32); 2] = [\n    (0.0, {r0}),\n    (1.0, {r1}),\n];\n"
        )
    } else {
        "// CALIBRATION needs at least two limited levels whose ratings rise\n".to_string()
    };
    assert!(out.ends_with(&array), "{out}");
    assert!(std::fs::read_to_string(dir.path("run/L0-L1.pgn"))
        .unwrap()
        .contains("[Red \"L"));
    // Again: nothing left to play, the same table.
    let (ok, again, err) = levels(&args);
    assert!(ok, "{err}");
    assert_eq!(lines_from(&again, "| level", 5), table);
    // A lost last game is played again, and only it.
    let path = dir.path("run/L0-L1.tsv");
    let text = std::fs::read_to_string(&path).unwrap();
    let kept: Vec<&str> = text.lines().take(text.lines().count() - 1).collect();
    std::fs::write(&path, format!("{}\n", kept.join("\n"))).unwrap();
    assert_eq!(games("L0-L1"), 1);
    let (ok, out, err) = levels(&args);
    assert!(ok, "{err}");
    assert!(
        out.contains("resuming: 1 of 2 games already played"),
        "{out}"
    );
    assert_eq!(games("L0-L1"), 2);
    // Other settings in the same directory are refused.
    let mut other = args.to_vec();
    other[5] = "6+0.05";
    let (ok, _, err) = levels(&other);
    assert!(!ok && err.contains("other settings"), "{err}");
}

/// Level 0 plays weaker than full strength: in a few games at a fixed node budget (the same on
/// any machine, and level 0 searches less within it), it loses every one, each to the end.
#[test]
fn level_zero_loses_every_game_to_full_strength() {
    let Some(pao) = support::engine() else {
        return;
    };
    let pao = pao.to_string_lossy().into_owned();
    let dir = Scratch::new("levels-weaker");
    let res = dir.path("games.tsv");
    let level0 = format!("name=L0 cmd={pao} option.skilllevel=0 option.skillseed=1");
    let full = format!("name=Full cmd={pao}");
    let mut args = vec!["match", "--engine"];
    args.extend(level0.split(' '));
    args.push("--engine");
    args.extend(full.split(' '));
    args.extend([
        "--each",
        "option.Hash=16",
        "--games",
        "6",
        "--nodes",
        "3000",
        "--concurrency",
        "2",
        "--resume",
        &res,
    ]);
    let (code, out, err) = support::tools(&args);
    assert_eq!(code, 0, "{out}\n{err}");
    let text = std::fs::read_to_string(&res).expect("the results file");
    let games: Vec<Vec<&str>> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split('\t').collect())
        .collect();
    assert_eq!(games.len(), 6, "{text}");
    for g in &games {
        // index, red, black, result, plies, reason: Full wins, on the board.
        let won = match (g[1], g[2]) {
            ("Full", "L0") => "1-0",
            ("L0", "Full") => "0-1",
            _ => panic!("players {g:?}"),
        };
        assert_eq!(g[3], won, "level 0 did not lose: {text}");
        assert!(
            [
                "checkmate",
                "stalemate",
                "perpetual check",
                "perpetual chase"
            ]
            .contains(&g[5]),
            "won by the rules, not by a fault: {text}"
        );
    }
    assert!(out.contains("L0 vs Full: +0 -6 =0"), "{out}");
}
