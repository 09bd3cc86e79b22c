//! Endgame tablebases: generation with exact counts, consistency over every position, the
//! file format and its failures, probing at the root and in the search.

mod common;

use common::{last_line, Engine};
use pao::board::{Position, RankBase};
use pao::egtb::{build, file, verify, Material, Outcome, Table, Tablebases};
use std::path::PathBuf;
use std::time::Duration;

fn material(name: &str) -> Material {
    Material::parse(name).expect("valid material")
}

/// A fresh directory under the system's temporary directory.
fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pao-egtb-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Per side to move (red, black): wins, draws, rule draws, losses, invalid indices.
type Counts = [[u64; 5]; 2];

const PINNED: [(&str, Counts, u32); 6] = [
    ("KRK", [[2556, 0, 0, 0, 2304], [0, 66, 0, 3210, 1584]], 4),
    ("KPK", [[1602, 288, 0, 0, 1080], [0, 360, 0, 1656, 954]], 20),
    ("KNK", [[3060, 0, 0, 0, 1800], [0, 66, 0, 3210, 1584]], 14),
    (
        "KRKA",
        [[12195, 0, 0, 0, 12105], [0, 480, 0, 14562, 9258]],
        10,
    ),
    (
        "KRKN",
        [
            [230988, 51, 315, 663, 205383],
            [24542, 778, 1291, 248033, 162756],
        ],
        26,
    ),
    (
        "KCKP",
        [[0, 180025, 0, 173, 87102], [6631, 162971, 0, 0, 97698]],
        21,
    ),
];

#[test]
fn small_tables_have_their_exact_counts_and_every_position_is_consistent() {
    let targets: Vec<Material> = PINNED.iter().map(|(n, _, _)| material(n)).collect();
    let set = build::in_memory(&targets).expect("generates");
    for (name, counts, longest) in PINNED {
        let m = material(name);
        let h = set.table(&m).expect("held").header().clone();
        assert_eq!(h.counts, counts, "{name}: counts");
        assert_eq!(h.longest, longest, "{name}: longest mate");
        let r = verify::check_table(&set, &m).expect("checks");
        assert_eq!(r.violations, 0, "{name}: {:?}", r.examples);
        let legal: u64 = counts.iter().map(|c| c[0] + c[1] + c[2] + c[3]).sum();
        assert_eq!(r.positions, legal, "{name}: every legal position checked");
    }
}

#[test]
fn the_consistency_check_catches_a_wrong_verdict() {
    // A win in 3 whose moves reach a loss in 0 at best is a win in 1, not 3.
    let wrong = verify::disagreement(Outcome::Win(3), &[Outcome::Loss(0), Outcome::Draw]);
    assert!(wrong.is_some());
    let right = verify::disagreement(Outcome::Win(1), &[Outcome::Loss(0), Outcome::Draw]);
    assert_eq!(right, None);
    // A loss must not have an escape, a draw must not have a win.
    assert!(verify::disagreement(Outcome::Loss(2), &[Outcome::Win(1), Outcome::Draw]).is_some());
    assert!(verify::disagreement(Outcome::Draw, &[Outcome::Loss(4)]).is_some());
    assert!(verify::disagreement(Outcome::Draw, &[Outcome::Win(1)]).is_some());
    assert_eq!(verify::disagreement(Outcome::Loss(0), &[]), None);
}

#[test]
fn a_written_table_reads_back_exactly_mapped_and_whole() {
    let dir = temp_dir("roundtrip");
    let set = build::build(&[material("KRKA")], &dir, "test provenance", |_| {}).expect("builds");
    let mem = set.table(&material("KRKA")).expect("held");
    let path = dir.join("KRKA.ptb");
    let mapped = Table::open(&path).expect("opens");
    let whole = Table::load(&path).expect("loads");
    assert_eq!(mapped.header(), mem.header());
    assert_eq!(mapped.header().provenance, "test provenance");
    for i in 0..mem.index().len() {
        let c = mem.code(i).expect("code");
        assert_eq!(mapped.code(i).expect("mapped"), c, "index {i}");
        assert_eq!(whole.code(i).expect("whole"), c, "index {i}");
    }
    mapped.verify().expect("payload checksum");
    // A second run keeps the files it finds.
    let mut kept = 0;
    build::build(&[material("KRKA")], &dir, "again", |b| {
        kept += usize::from(b.stats.is_none())
    })
    .expect("builds");
    assert_eq!(kept, 2);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_files_are_refused_with_one_line_each() {
    let dir = temp_dir("bad");
    build::build(&[material("KRK")], &dir, "t", |_| {}).expect("builds");
    let good = std::fs::read(dir.join("KRK.ptb")).expect("reads");
    let bad = temp_dir("bad-set");
    // Truncated, a flipped header byte, another version, another name, a corrupt block.
    std::fs::write(bad.join("KRK.ptb"), &good[..good.len() - 5]).expect("w");
    let mut flipped = good.clone();
    flipped[141] ^= 1;
    std::fs::write(bad.join("KRKA.ptb"), &flipped).expect("w");
    let mut version = good.clone();
    version[8] = 9;
    std::fs::write(bad.join("KRKB.ptb"), &version).expect("w");
    std::fs::write(bad.join("KNK.ptb"), &good).expect("w");
    std::fs::write(bad.join("KCK.ptb"), b"hello").expect("w");
    let (set, errors) = Tablebases::open_dir(&bad);
    assert!(set.is_empty());
    assert_eq!(errors.len(), 5, "{errors:?}");
    assert!(errors
        .iter()
        .any(|e| e.contains("KRK.ptb") && e.contains("truncated")));
    assert!(errors
        .iter()
        .any(|e| e.contains("KRKA.ptb") && e.contains("checksum")));
    assert!(errors
        .iter()
        .any(|e| e.contains("KRKB.ptb") && e.contains("version 9")));
    assert!(errors
        .iter()
        .any(|e| e.contains("KNK.ptb") && e.contains("holds KRK")));
    assert!(errors
        .iter()
        .any(|e| e.contains("KCK.ptb") && e.contains("not a table")));
    // A corrupt block passes the header check, fails when probed, and is reported once.
    let mut block = good.clone();
    let n = block.len();
    block[n - 3] ^= 0x55;
    let corrupt = temp_dir("corrupt");
    std::fs::write(corrupt.join("KRK.ptb"), &block).expect("w");
    let (set, errors) = Tablebases::open_dir(&corrupt);
    assert!(errors.is_empty());
    let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1").expect("fen");
    assert_eq!(set.probe(&pos), None);
    assert_eq!(set.probe(&pos), None);
    let reported = set.take_errors();
    assert_eq!(reported.len(), 1, "{reported:?}");
    assert!(reported[0].contains("KRK") && reported[0].contains("corrupt"));
    for d in [dir, bad, corrupt] {
        let _ = std::fs::remove_dir_all(d);
    }
}

#[test]
fn probes_see_through_colour_and_mirror() {
    let set = build::in_memory(&[material("KRK")]).expect("generates");
    // Red mates at once: the rook checks on the d-file, the red general holds the e-file.
    let red = Position::from_fen("3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1").expect("fen");
    assert_eq!(set.probe(&red), Some(Outcome::Win(1)));
    // The same position with colours swapped, and its mirror image.
    let black = Position::from_fen("4k4/r8/9/9/9/9/9/9/9/3K5 b - - 0 1").expect("fen");
    assert_eq!(set.probe(&black), Some(Outcome::Win(1)));
    let mirror = Position::from_fen("5k3/9/9/9/9/9/9/9/8R/4K4 w - - 0 1").expect("fen");
    assert_eq!(set.probe(&mirror), Some(Outcome::Win(1)));
    let line = set.line(&red, 10);
    let text: Vec<String> = line
        .iter()
        .map(|&m| pao::board::format_move(m, RankBase::Zero))
        .collect();
    assert_eq!(text, vec!["a1d1"]);
    // Black to move after a1f1's mirror: mated in one, the longest resistance is f9f8.
    let lost = Position::from_fen("5k3/9/9/9/9/9/9/9/R8/4K4 b - - 0 1").expect("fen");
    assert_eq!(set.probe(&lost), Some(Outcome::Loss(2)));
    let text: Vec<String> = set
        .line(&lost, 10)
        .iter()
        .map(|&m| pao::board::format_move(m, RankBase::Zero))
        .collect();
    assert_eq!(text, vec!["f9f8", "a1f1"]);
}

/// Tables for the protocol tests: KRKN, KRCK and what they need (five tables).
fn protocol_tables(tag: &str) -> PathBuf {
    let dir = temp_dir(tag);
    build::build(&[material("KRKN"), material("KRCK")], &dir, "t", |_| {}).expect("builds");
    dir
}

#[test]
fn the_root_answers_from_the_table_at_once_in_ucci_and_uci() {
    let dir = protocol_tables("root");
    let mut e = Engine::ucci(1);
    e.send(&format!("setoption egtbpath {}", dir.display()));
    let _ = e.expect_prefix("info string 5 endgame tables in");
    e.send("position fen 3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1");
    e.send("go time 60000");
    e.expect_exact("info depth 1 seldepth 1 score 29999 time 0 nodes 0 tbhits 1 pv a1d1");
    e.expect_exact("bestmove a1d1");
    // A lost position: the longest resistance, the line to mate as the PV.
    e.send("position fen 5k3/9/9/9/9/9/9/9/R8/4K4 b - - 0 1");
    e.send("go depth 20");
    e.expect_exact("info depth 2 seldepth 2 score -29998 time 0 nodes 0 tbhits 1 pv f9f8 a1f1");
    e.expect_exact("bestmove f9f8 ponder a1f1");
    e.send("quit");
    let mut u = Engine::uci(1);
    u.send(&format!("setoption name EGTBPath value {}", dir.display()));
    let _ = u.expect_prefix("info string 5 endgame tables");
    u.send("position fen 3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1");
    u.send("go wtime 1000 btime 1000");
    u.expect_exact("info depth 1 seldepth 1 score mate 1 time 0 nodes 0 tbhits 1 pv a1d1");
    u.expect_exact("bestmove a1d1");
    u.send("quit");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_search_probes_tables_below_the_root_and_bad_paths_keep_the_engine_serving() {
    let dir = protocol_tables("search");
    let mut u = Engine::uci(1);
    u.send("setoption name EGTBPath value /nonexistent/pao-egtb");
    let (line, _) = u.expect_prefix("info string error: tablebase directory /nonexistent/pao-egtb");
    assert!(line.len() > 40);
    u.send(&format!("setoption name EGTBPath value {}", dir.display()));
    let _ = u.expect_prefix("info string 5 endgame tables");
    // Rook and cannon against a horse: not a table, but its captures are.
    u.send("position fen 3k5/9/4n4/9/9/9/9/2C6/9/R3K4 w - - 0 1");
    u.send("go depth 9");
    let (best, infos) = u.expect_prefix("bestmove");
    assert!(best.starts_with("bestmove a0d0"), "{best}");
    let last = last_line(&infos, "info depth");
    assert!(last.contains("score mate 5"), "{last}");
    let hits: u64 = last
        .split_whitespace()
        .skip_while(|w| *w != "tbhits")
        .nth(1)
        .and_then(|w| w.parse().ok())
        .expect("tbhits");
    assert!(hits > 0, "{last}");
    u.send("isready");
    u.expect_exact("readyok");
    u.send("quit");
    let _ = std::fs::remove_dir_all(&dir);
    let _ = Duration::from_secs(1);
}

#[test]
fn use_egtb_false_leaves_the_tables_unread() {
    let dir = protocol_tables("off");
    let mut u = Engine::uci(1);
    u.send(&format!("setoption name EGTBPath value {}", dir.display()));
    let _ = u.expect_prefix("info string 5 endgame tables");
    u.send("setoption name UseEGTB value false");
    // The root is searched, not answered from the table: iterations, and no line counts hits.
    u.send("position fen 3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1");
    u.send("go depth 3");
    let (best, infos) = u.expect_prefix("bestmove");
    assert!(best.starts_with("bestmove a1d1"), "{best}");
    assert!(
        infos.iter().any(|l| l.starts_with("info depth 3 ")),
        "{infos:?}"
    );
    assert!(infos.iter().all(|l| !l.contains("tbhits")), "{infos:?}");
    // Below the root, where the tables answered with hits, neither.
    u.send("position fen 3k5/9/4n4/9/9/9/9/2C6/9/R3K4 w - - 0 1");
    u.send("go depth 9");
    let (_, infos) = u.expect_prefix("bestmove");
    assert!(infos.iter().all(|l| !l.contains("tbhits")), "{infos:?}");
    // On again: the root answers from the table at once.
    u.send("setoption name UseEGTB value true");
    u.send("position fen 3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1");
    u.send("go depth 3");
    u.expect_exact("info depth 1 seldepth 1 score mate 1 time 0 nodes 0 tbhits 1 pv a1d1");
    u.expect_exact("bestmove a1d1");
    u.send("quit");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn rule_draws_are_left_to_the_search() {
    let (set, pos) = krkn_position(|_, code, _| code == pao::egtb::value::RULE_DRAW)
        .expect("KRKN has rule draws");
    assert_eq!(set.probe(&pos), Some(Outcome::RuleDraw));
    let _ = file::VERSION;
}

#[test]
fn a_rule_draw_at_the_root_is_searched_not_answered() {
    let dir = protocol_tables("ruledraw");
    let (_, pos) =
        krkn_position(|_, code, _| code == pao::egtb::value::RULE_DRAW).expect("a rule draw");
    assert_searched_at_root(&dir, &pos.to_fen());
}

/// A check whose only answer walks into a perpetual check the checker would lose by rule is
/// not a plain draw: the rook's check forces the general aside, after which the other rook's
/// only drawing moves are checks (KRAKR, found by `pao-tools egtb verify`, where the search
/// won by the rule a position the table had called a plain draw).
#[test]
fn draws_forced_into_a_perpetual_check_are_rule_draws() {
    let set = build::in_memory(&[material("KRAKR")]).expect("generates");
    let probe = |fen: &str| set.probe(&Position::from_fen(fen).expect("valid FEN"));
    // Black to move, its drawing moves all checks: the set itself.
    assert_eq!(
        probe("9/9/5k3/4R4/9/9/9/5A3/4K4/2r6 b - - 0 1"),
        Some(Outcome::RuleDraw)
    );
    // Black in check with one move, into the set: forced, so as doubtful.
    assert_eq!(
        probe("9/9/4k4/4R4/9/9/9/5A3/3K5/2r6 b - - 0 1"),
        Some(Outcome::RuleDraw)
    );
    // Red to move, with the check into it at hand.
    assert_eq!(
        probe("9/9/4k4/3R5/9/9/9/5A3/3K5/2r6 w - - 0 1"),
        Some(Outcome::RuleDraw)
    );
    let h = set
        .table(&material("KRAKR"))
        .expect("held")
        .header()
        .clone();
    let counts: Counts = [
        [479930, 567820, 3141, 29328, 1106781],
        [363028, 680771, 1237, 58910, 1083054],
    ];
    assert_eq!(h.counts, counts);
}

/// A drawn root with a move into a rule draw is searched, not answered: that move may win by
/// the repetition rules.
#[test]
fn a_draw_with_a_move_into_a_rule_draw_is_searched_not_answered() {
    let dir = protocol_tables("intorule");
    let (_, pos) = krkn_position(|set, code, p| {
        code == pao::egtb::value::DRAW
            && set
                .rank_moves(&mut p.clone())
                .expect("covered")
                .iter()
                .any(|r| r.outcome == Outcome::RuleDraw)
    })
    .expect("a draw with a move into a rule draw");
    assert_searched_at_root(&dir, &pos.to_fen());
}

/// KRKN generated in memory and its first legal position that `pick` accepts, given the
/// position's code in the table.
fn krkn_position(
    pick: impl Fn(&Tablebases, u16, &Position) -> bool,
) -> Option<(Tablebases, Position)> {
    let set = build::in_memory(&[material("KRKN")]).expect("generates");
    let t = set.table(&material("KRKN")).expect("held");
    let pos = (0..t.index().len()).find_map(|i| {
        let code = t.code(i).expect("code");
        let (pl, side) = t.index().decode(i)?;
        let p = pao::egtb::index::position_of(&pl, side)?;
        pick(&set, code, &p).then_some(p)
    })?;
    Some((set, pos))
}

/// The engine with the tables of `dir` searches `fen` at its root (iterations with nodes, not
/// the table's single line) and still gives a move; `dir` is removed afterwards.
fn assert_searched_at_root(dir: &std::path::Path, fen: &str) {
    let mut u = Engine::uci(1);
    u.send(&format!("setoption name EGTBPath value {}", dir.display()));
    let _ = u.expect_prefix("info string 5 endgame tables");
    u.send(&format!("position fen {fen}"));
    u.send("go depth 4");
    let (best, infos) = u.expect_prefix("bestmove");
    assert!(best.len() > "bestmove ".len(), "{best}");
    assert!(
        infos
            .iter()
            .any(|l| l.starts_with("info depth 4 ") && !l.contains(" nodes 0 ")),
        "{fen}: {infos:?}"
    );
    u.send("quit");
    let _ = std::fs::remove_dir_all(dir);
}
