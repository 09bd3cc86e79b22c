//! Analysis features through the real binary: MultiPV fields in both dialects combined with
//! searchmoves/banmoves, `go mate`, UCI_ShowWDL, `d`, `eval`, and `isready` after a clear.

mod common;

use common::{bestmove_of, last_line, Engine, TIMEOUT};
use std::collections::BTreeSet;

/// Value after `key` in a line.
fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let w: Vec<&str> = line.split_whitespace().collect();
    w.iter()
        .position(|x| *x == key)
        .and_then(|i| w.get(i + 1).copied())
}

fn pv_move(line: &str) -> String {
    field(line, "pv").expect("a pv").to_string()
}

/// Checks the `info depth` lines of a MultiPV search: `k` numbered lines per depth 1..=depth,
/// ranks 1..k in order, distinct first moves from `allowed`; returns the last depth's moves.
fn check_lines(lines: &[String], depth: u32, k: usize, allowed: &[&str]) -> Vec<String> {
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth") && l.contains(" pv "))
        .collect();
    assert_eq!(infos.len(), depth as usize * k, "{lines:?}");
    let mut last = Vec::new();
    for (d, group) in infos.chunks(k).enumerate() {
        let mut moves = BTreeSet::new();
        for (i, l) in group.iter().enumerate() {
            assert_eq!(field(l, "depth"), Some((d + 1).to_string().as_str()), "{l}");
            assert_eq!(
                field(l, "multipv"),
                Some((i + 1).to_string().as_str()),
                "{l}"
            );
            let m = pv_move(l);
            assert!(allowed.contains(&m.as_str()), "{m} not in {allowed:?}: {l}");
            moves.insert(m);
        }
        assert_eq!(moves.len(), k, "{group:?}");
        last = group.iter().map(|l| pv_move(l)).collect();
    }
    last
}

#[test]
fn uci_multipv_with_searchmoves() {
    let mut e = Engine::uci(1);
    e.send("setoption name MultiPV value 3");
    e.send("position startpos");
    let allowed = ["h2e2", "b2e2", "h0g2", "c3c4"];
    e.send("go depth 4 searchmoves h2e2 b2e2 h0g2 c3c4");
    let (best, lines) = e.expect_prefix("bestmove");
    let last = check_lines(&lines, 4, 3, &allowed);
    assert_eq!(bestmove_of(&best), Some(last[0].clone()));
    // MultiPV 1: no multipv field, one line per depth.
    e.send("setoption name MultiPV value 1");
    e.send("go depth 3");
    let (_, lines) = e.expect_prefix("bestmove");
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert_eq!(infos.len(), 3);
    assert!(infos.iter().all(|l| !l.contains("multipv")), "{infos:?}");
}

#[test]
fn ucci_multipv_with_banmoves_and_searchmoves() {
    let mut e = Engine::ucci(1);
    e.send("setoption multipv 2");
    e.send("position startpos");
    e.send("banmoves h2e2");
    e.send("go depth 3 searchmoves h2e2 b2e2 h0g2");
    let (best, lines) = e.expect_prefix("bestmove");
    let last = check_lines(&lines, 3, 2, &["b2e2", "h0g2"]);
    assert_eq!(bestmove_of(&best), Some(last[0].clone()));
    // Only one move left: one line per depth, still numbered.
    e.send("banmoves h2e2 b2e2");
    e.send("go depth 2 searchmoves h2e2 b2e2 h0g2");
    let (best, lines) = e.expect_prefix("bestmove");
    check_lines(&lines, 2, 1, &["h0g2"]);
    assert_eq!(bestmove_of(&best).as_deref(), Some("h0g2"));
    e.send("setoption multipv 129");
    let l = e.next_line(TIMEOUT).expect("error line");
    assert!(l.starts_with("info string error: option multipv"), "{l}");
}

#[test]
fn go_mate_in_both_dialects() {
    let mut e = Engine::uci(1);
    e.send("position fen 4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1");
    e.send("go mate 2");
    let (best, lines) = e.expect_prefix("bestmove");
    let last = last_line(&lines, "info depth");
    assert!(last.contains(" score mate 2 "), "{last}");
    assert!(bestmove_of(&best).is_some());
    // No mate in one from the start: it searches until stopped, then answers.
    e.send("position startpos");
    e.send("go mate 1");
    e.expect_no_bestmove(std::time::Duration::from_millis(300));
    e.send("stop");
    let (best, _) = e.expect_prefix("bestmove");
    assert!(bestmove_of(&best).is_some());
    let mut e = Engine::ucci(1);
    e.send("position fen 4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1");
    e.send("go mate 2");
    let (_, lines) = e.expect_prefix("bestmove");
    let last = last_line(&lines, "info depth");
    assert_eq!(field(last, "score"), Some("29997"), "{last}");
}

#[test]
fn show_wdl_and_analyse_mode() {
    let mut e = Engine::uci(1);
    e.send("setoption name UCI_ShowWDL value true");
    // ElephantEye's book knows the start position: a game's `go` plays from it at once.
    let book = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/eleeye-BOOK.DAT");
    e.send(&format!("setoption name BookFile value {book}"));
    e.send("setoption name OwnBook value true");
    e.send("position startpos");
    e.send("go depth 3");
    let (best, lines) = e.expect_prefix("bestmove");
    assert!(bestmove_of(&best).is_some(), "{best}");
    let depths = |lines: &[String]| -> Vec<String> {
        lines
            .iter()
            .filter(|l| l.starts_with("info depth "))
            .map(|l| l.split_whitespace().nth(2).unwrap_or("").to_string())
            .collect()
    };
    let book_lines = depths(&lines);
    assert_eq!(book_lines.len(), 16, "one line per book move: {lines:?}");
    assert!(book_lines.iter().all(|d| d == "0"), "{lines:?}");
    // Analysis mode: no book, a search, and every line with its win/draw/loss per mille.
    e.send("setoption name UCI_AnalyseMode value true");
    e.send("position startpos");
    e.send("go depth 3");
    let (best, lines) = e.expect_prefix("bestmove");
    assert!(bestmove_of(&best).is_some(), "{best}");
    let searched = depths(&lines);
    assert!(!searched.contains(&"0".to_string()), "{lines:?}");
    for d in ["1", "2", "3"] {
        assert!(searched.contains(&d.to_string()), "no depth {d}: {lines:?}");
    }
    for l in lines.iter().filter(|l| l.starts_with("info depth")) {
        let w: Vec<&str> = l.split_whitespace().collect();
        let i = w.iter().position(|x| *x == "wdl").expect("wdl field");
        let sum: u32 = w[i + 1..i + 4]
            .iter()
            .map(|x| x.parse::<u32>().expect("n"))
            .sum();
        assert_eq!(sum, 1000, "{l}");
    }
}

#[test]
fn d_and_eval_print_one_item_per_line() {
    let mut e = Engine::ucci(1);
    e.send("position startpos moves h2e2");
    e.send("d");
    let (_, lines) = e.read_until("the counters", |l| l.starts_with("plies since capture"));
    assert_eq!(lines[0], "9  r n b a k a b n r");
    assert_eq!(lines[7], "2  . C . . C . . . .");
    assert!(lines
        .iter()
        .any(|l| l == "fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1"));
    assert!(lines.iter().any(|l| l == "side black"));
    e.send("eval");
    let (last, lines) = e.read_until("eval static", |l| l.starts_with("eval static"));
    for term in ["material+pst", "horse", "cannon", "rook", "guards"] {
        let prefix = format!("eval term {term} red mg ");
        assert!(
            lines.iter().any(|l| l.starts_with(&prefix)),
            "{term}: {lines:?}"
        );
    }
    assert!(last.ends_with("(black to move)"), "{last}");
}

#[test]
fn isready_after_a_clear_and_a_search_after_it() {
    let mut e = Engine::uci(2);
    e.send("setoption name Hash value 64");
    e.send("position startpos");
    e.send("go depth 5");
    e.expect_prefix("bestmove");
    // The clear runs on the workers; commands behind it wait, isready is answered after it.
    e.send("ucinewgame");
    e.send("position startpos moves h2e2");
    e.send("go depth 3");
    e.send("isready");
    let (best, lines) = e.read_until("bestmove", |l| l.starts_with("bestmove"));
    assert!(bestmove_of(&best).is_some());
    let ready = lines.iter().position(|l| l == "readyok").expect("readyok");
    let first = lines
        .iter()
        .position(|l| l.starts_with("info depth 1"))
        .expect("depth 1");
    assert!(first > ready, "{lines:?}");
    e.send("setoption name Clear Hash");
    e.send("isready");
    e.expect_exact("readyok");
    // A search after the clear starts afresh: on one thread it counts the nodes of an engine
    // that has searched nothing before (a table left full would cut some of them).
    let nodes = |e: &mut Engine| {
        e.send("position startpos moves h2e2");
        e.send("go depth 6");
        let (_, lines) = e.expect_prefix("bestmove");
        let last = last_line(&lines, "info depth 6 ");
        field(last, "nodes").expect("nodes").to_string()
    };
    let mut fresh = Engine::uci(1);
    fresh.send("setoption name Hash value 64");
    let want = nodes(&mut fresh);
    e.send("setoption name Threads value 1");
    e.send("go depth 7");
    e.expect_prefix("bestmove");
    // Clear Hash alone, no ucinewgame: the button itself must empty the table.
    e.send("setoption name Clear Hash");
    assert_eq!(nodes(&mut e), want);
}
