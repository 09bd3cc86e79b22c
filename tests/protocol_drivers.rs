//! The search drivers through the real binary: `searchdriver sssstar` and `bstar` in both dialects.

mod common;

use common::{bestmove_of, Engine};
use pao::board::{parse_move, Position, RankBase};

fn legal_from_start(text: &str) -> bool {
    let m = parse_move(text, RankBase::Zero).expect("well-formed move");
    Position::startpos().is_legal(m)
}

#[test]
fn sssstar_and_bstar_answer_in_both_dialects() {
    for (mut e, set) in [
        (Engine::ucci(1), "setoption searchdriver "),
        (Engine::uci(1), "setoption name SearchDriver value "),
    ] {
        e.send(&format!("{set}sssstar"));
        e.send("position startpos");
        e.send("go depth 4");
        let (best, lines) = e.expect_prefix("bestmove");
        assert_eq!(
            lines.iter().filter(|l| l.starts_with("info depth")).count(),
            4
        );
        assert!(legal_from_start(&bestmove_of(&best).expect("a move")));

        e.send(&format!("{set}bstar"));
        e.send("position startpos");
        e.send("go nodes 20000");
        let (best, lines) = e.expect_prefix("bestmove");
        let bounds: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with("info string bstar "))
            .collect();
        assert!(!bounds.is_empty(), "{lines:?}");
        // 44 root moves, each with its move and two bounds.
        let words = bounds[0].split_whitespace().count();
        assert_eq!(words, 5 + 44 * 3, "{}", bounds[0]);
        assert!(legal_from_start(&bestmove_of(&best).expect("a move")));
    }
}

#[test]
fn the_drivers_are_advertised_and_checked() {
    let mut e = Engine::start();
    e.send("ucci");
    let (_, lines) = e.expect_prefix("ucciok");
    assert!(lines.iter().any(|l| l
        == "option searchdriver type combo var pvs var mtdf var sssstar var bstar default pvs"));
    e.send("setoption searchdriver alphabeta");
    e.expect_exact(
        "info string error: option searchdriver: 'alphabeta' is not pvs, mtdf, sssstar or bstar",
    );
    let mut e = Engine::start();
    e.send("uci");
    let (_, lines) = e.expect_prefix("uciok");
    assert!(lines.iter().any(|l| {
        l
        == "option name SearchDriver type combo default pvs var pvs var mtdf var sssstar var bstar"
    }));
}
