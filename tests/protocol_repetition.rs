//! The repetition rule through the real binary, in both dialects: a repetition win is reported
//! as the rule-win score (never `mate`), `RepetitionRule` / `repetitionrule` = `draw` reports 0,
//! and a decided search on a clock ends at a normal depth.

mod common;

use common::Engine;

/// The position of tests/repetition_rule.rs: black's only play that is not mated is a
/// perpetual check, which the Asian rules make a loss; red's evasion is forced.
const FEN: &str = "3aka3/3P5/9/9/4C4/1C7/7n1/3p1p3/5K3/4RA3 w - - 0 1";
/// One turn of the perpetual.
const CYCLE: &str = "f1e1 f2e2 e1f1 e2f2";

/// Two cycles played: red's forced evasion makes the third occurrence, which ends the game.
fn third_occurrence() -> String {
    format!("position fen {FEN} moves {CYCLE} {CYCLE}")
}

/// Sends `position` and `go`; returns the `info depth` lines and the `bestmove` line.
fn go(e: &mut Engine, position: &str, go: &str) -> (Vec<String>, String) {
    e.send(position);
    e.send(go);
    let (best, lines) = e.expect_prefix("bestmove");
    let infos = lines
        .into_iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    (infos, best)
}

/// The score words of an info line (`score cp 28998`, `score 0`).
fn score_of(line: &str) -> String {
    let words: Vec<&str> = line.split_whitespace().collect();
    let i = words.iter().position(|w| *w == "score").expect("a score");
    let n = if words[i + 1] == "cp" || words[i + 1] == "mate" {
        3
    } else {
        2
    };
    words[i..i + n].join(" ")
}

fn assert_no_mate(infos: &[String]) {
    assert!(
        infos.iter().all(|l| !l.contains("mate")),
        "a mate score in {infos:?}"
    );
}

#[test]
fn uci_reports_the_rule_win_in_centipawns_and_the_draw_rule_as_zero() {
    let mut e = Engine::uci(1);
    let (infos, best) = go(&mut e, &third_occurrence(), "go depth 8");
    assert_no_mate(&infos);
    assert_eq!(infos.len(), 8);
    assert_eq!(score_of(infos.last().expect("info")), "score cp 28999");
    assert_eq!(best, "bestmove f1e1");

    e.send("setoption name RepetitionRule value draw");
    e.send("ucinewgame");
    let (infos, best) = go(&mut e, &third_occurrence(), "go depth 8");
    assert_eq!(infos.len(), 8);
    assert!(
        infos.iter().all(|l| score_of(l) == "score cp 0"),
        "{infos:?}"
    );
    assert_eq!(best, "bestmove f1e1");

    e.send("setoption name RepetitionRule value Asian");
    e.send("ucinewgame");
    let (infos, _) = go(&mut e, &third_occurrence(), "go depth 8");
    assert_eq!(score_of(infos.last().expect("info")), "score cp 28999");
}

#[test]
fn ucci_reports_the_rule_win_as_an_integer_below_mates_and_the_draw_rule_as_zero() {
    let mut e = Engine::ucci(1);
    let (infos, best) = go(&mut e, &third_occurrence(), "go depth 8");
    assert_eq!(infos.len(), 8);
    assert_eq!(score_of(infos.last().expect("info")), "score 28999");
    assert_eq!(best, "bestmove f1e1");

    e.send("setoption repetitionrule draw");
    e.send("setoption newgame");
    let (infos, best) = go(&mut e, &third_occurrence(), "go depth 8");
    assert!(infos.iter().all(|l| score_of(l) == "score 0"), "{infos:?}");
    assert_eq!(best, "bestmove f1e1");
}

#[test]
fn a_rule_win_on_the_clock_is_searched_on_and_ends_long_before_the_clock() {
    // One cycle of history: the search must see black's deviations mated before the rule win
    // shows. A rule win held for four iterations does not end an analysis (`go movetime`; a mate
    // can hide behind it, docs/search.md "Shortest mates"); here the tree is small, so the search
    // runs out of depth within milliseconds instead of using the 20 s it was given, and never
    // calls the rule win a mate.
    let position = format!("position fen {FEN} moves {CYCLE}");
    for (mut e, prefix) in [(Engine::uci(1), "score cp "), (Engine::ucci(1), "score ")] {
        let (infos, best) = go(&mut e, &position, "go movetime 20000");
        assert_no_mate(&infos);
        let last = infos.last().expect("info");
        let score: i32 = score_of(last)
            .strip_prefix(prefix)
            .and_then(|v| v.parse().ok())
            .expect("a score");
        assert!((28873..=29000).contains(&score), "{last}");
        let field = |name: &str| -> u64 {
            let words: Vec<&str> = last.split_whitespace().collect();
            words
                .iter()
                .position(|w| *w == name)
                .and_then(|i| words.get(i + 1))
                .and_then(|v| v.parse().ok())
                .expect(name)
        };
        assert_eq!(field("depth"), 120, "{last}");
        assert!(field("time") < 5_000, "{last}");
        assert!(infos[infos.len() - 4..]
            .iter()
            .all(|l| score_of(l) == score_of(last)));
        assert!(best.starts_with("bestmove f1e1"), "{best}");
    }
}

#[test]
fn the_option_is_advertised_and_checked_in_both_dialects() {
    let mut e = Engine::start();
    e.send("uci");
    let (_, lines) = e.expect_prefix("uciok");
    assert!(lines
        .iter()
        .any(|l| l == "option name RepetitionRule type combo default asian var asian var draw"));
    e.send("setoption name RepetitionRule value sometimes");
    e.expect_exact("info string error: option RepetitionRule: 'sometimes' is not asian or draw");
    e.send("isready");
    e.expect_exact("readyok");

    let mut e = Engine::start();
    e.send("ucci");
    let (_, lines) = e.expect_prefix("ucciok");
    assert!(lines
        .iter()
        .any(|l| l == "option repetitionrule type combo var asian var draw default asian"));
    e.send("setoption repetitionrule sometimes");
    e.expect_exact("info string error: option repetitionrule: 'sometimes' is not asian or draw");
    e.send("isready");
    e.expect_exact("readyok");
}
