//! The committed book of many balanced openings, `tools/data/balanced-openings-8ply.txt`: the
//! book of the tests at fixed nodes, where a game played again from the same opening and
//! colours is the same game. Every line is legal and reaches a position no other line
//! reaches, and the header holds the commands that wrote the file, which still run and write
//! openings of its shape. They wrote it with the search of its day: the openings depend on the
//! search (a tuned margin changes a depth-4 score), so a later search writes other ones, and
//! the book is kept since the tests' counts are tied to it. A match at fixed nodes that would
//! play past the book is refused.

mod support;

use pao::board::{Position, RankBase};
use std::collections::HashSet;
use support::{pgn_games, tools, Scratch};

const BOOK: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/data/balanced-openings-8ply.txt"
);

fn book() -> (String, Vec<String>) {
    let text = std::fs::read_to_string(BOOK).unwrap_or_else(|e| panic!("{BOOK}: {e}"));
    let header = text.lines().next().unwrap_or("").to_string();
    let lines = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect();
    (header, lines)
}

#[test]
fn every_opening_is_legal_eight_plies_and_distinct() {
    let (header, lines) = book();
    let count: usize = header
        .strip_prefix("# ")
        .and_then(|h| h.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("header: {header}"));
    assert_eq!(lines.len(), count, "{header}");
    assert!(count >= 5_000, "{count} openings: too few for a long SPRT");
    assert_shape(&lines, count);
}

/// The first `n` openings the command in a header line writes (its `--count` set to `n`).
fn first_of(header_line: &str, n: usize) -> Vec<String> {
    let words: Vec<&str> = header_line
        .split_once("pao-tools ")
        .map(|(_, rest)| {
            rest.split_whitespace()
                .take_while(|w| *w != "whose")
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(words.first(), Some(&"openings"), "{header_line}");
    let mut args: Vec<String> = words.iter().map(|s| s.to_string()).collect();
    let at = args.iter().position(|a| a == "--count").expect("--count") + 1;
    args[at] = n.to_string();
    let (code, out, err) = tools(&args);
    assert_eq!(code, 0, "{err}");
    out.lines()
        .filter(|l| !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

/// Checks that `lines` are `n` legal openings of eight plies that reach distinct positions.
fn assert_shape(lines: &[String], n: usize) {
    assert_eq!(lines.len(), n, "{lines:?}");
    let mut seen = HashSet::new();
    for line in lines {
        let mut pos = Position::startpos();
        let mut plies = 0;
        for text in line.split_whitespace() {
            let m = pos
                .parse_legal_move(text, RankBase::Zero)
                .unwrap_or_else(|e| panic!("{e} in '{line}'"));
            pos.make_move(m);
            plies += 1;
        }
        assert_eq!(plies, 8, "{line}");
        assert!(
            seen.insert(pos.key()),
            "'{line}' reaches a position met before"
        );
    }
}

#[test]
fn the_header_commands_still_write_openings_of_the_book_s_shape() {
    let (header, _) = book();
    let three = first_of(&header, 3);
    assert_shape(&three, 3);
    // The walks are drawn in order from one seed: a smaller --count writes the first ones.
    assert_eq!(first_of(&header, 2), three[..2].to_vec());
    let text = std::fs::read_to_string(BOOK).expect("book");
    let second = text.lines().nth(1).expect("a second header line");
    assert!(
        second.starts_with("# then the openings of pao-tools openings "),
        "{second}"
    );
    assert_shape(&first_of(second, 3), 3);
}

#[test]
fn a_fixed_node_match_past_the_book_is_refused() {
    let small = concat!(env!("CARGO_MANIFEST_DIR"), "/data/balanced-openings.txt");
    let (code, _, err) = tools(&[
        "match",
        "--engine",
        "cmd=/bin/true",
        "--engine",
        "cmd=/bin/true",
        "--games",
        "602",
        "--nodes",
        "1000",
        "--openings",
        small,
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains(
            "--games 602 at fixed nodes or depth would replay games: each of the 300 openings is \
             played twice (colours swapped) and then the same games again; give a book of at \
             least 301 openings (--openings, such as tools/data/balanced-openings-8ply.txt), at \
             most 600 games, or --replay-openings when the engines' searches vary (several \
             threads)"
        ),
        "{err}"
    );
    // The same games at a clock are not refused at the start (the engine then fails to
    // start: /bin/true speaks no protocol), nor past the book with --replay-openings.
    for extra in [
        &["--tc", "1+0.01"][..],
        &["--nodes", "1000", "--replay-openings"][..],
    ] {
        let mut args = vec![
            "match",
            "--engine",
            "cmd=/bin/true",
            "--engine",
            "cmd=/bin/true",
            "--games",
            "602",
            "--openings",
            small,
            "--maxplies",
            "2",
        ];
        args.extend_from_slice(extra);
        let (_, _, err) = tools(&args);
        assert!(!err.contains("would replay games"), "{err}");
    }
}

#[test]
fn at_fixed_nodes_one_thread_plays_the_same_game_again() {
    let Some(pao) = support::engine() else {
        return;
    };
    let dir = Scratch::new("replay");
    let (_, lines) = book();
    let one = dir.file("one.txt", &format!("{}\n", lines[0]));
    let pgn = dir.path("games.pgn");
    let cmd = format!("cmd={}", pao.display());
    let (code, out, err) = tools(&[
        "match",
        "--engine",
        "name=a",
        &cmd,
        "option.SearchSwitches=-lmp",
        "--engine",
        "name=b",
        &cmd,
        "--each",
        "option.Threads=1",
        "option.Hash=16",
        "option.PinThreads=false",
        "option.OwnBook=false",
        "--openings",
        &one,
        "--games",
        "4",
        "--nodes",
        "400",
        "--maxplies",
        "60",
        "--concurrency",
        "2",
        "--replay-openings",
        "--pgnout",
        &pgn,
    ]);
    assert_eq!(code, 0, "{out}\n{err}");
    let games = pgn_games(&std::fs::read_to_string(&pgn).expect("pgn"));
    let rounds: Vec<usize> = games.iter().map(|g| g.0).collect();
    assert_eq!(rounds, vec![1, 2, 3, 4]);
    assert!(games[0].1.len() >= 10, "{:?}", games[0].1);
    // Games 3 and 4 play the opening again with the same colours: the same moves.
    assert_eq!(games[2].1, games[0].1);
    assert_eq!(games[3].1, games[1].1);
    // Without the switch on one side the two engines differ, so do their games.
    assert_ne!(games[0].1, games[1].1);
}
