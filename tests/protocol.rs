//! Process-level protocol tests: the real binary, driven line by line in both dialects.

mod common;

use common::{bestmove_of, Engine, TIMEOUT};
use pao::board::{parse_move, Position, RankBase};
use std::time::Duration;

/// Asserts `text` is a legal move in the position after `moves` from the start.
/// Reads up to the next `bestmove` and asserts it is a legal move of the start position.
fn expect_legal_bestmove_from_start(e: &mut Engine) {
    let (best, _) = e.expect_prefix("bestmove");
    assert_legal(
        None,
        &[],
        &bestmove_of(&best).expect("move"),
        RankBase::Zero,
    );
}

fn assert_legal(fen: Option<&str>, moves: &[&str], text: &str, base: RankBase) {
    let mut pos = match fen {
        Some(f) => Position::from_fen(f).expect("fen"),
        None => Position::startpos(),
    };
    for m in moves {
        let mv = pos.parse_legal_move(m, base).expect("setup move");
        pos.make_move(mv);
    }
    let m = parse_move(text, base).expect("well-formed bestmove");
    assert!(
        pos.is_legal(m),
        "bestmove {text} is illegal after {moves:?}"
    );
}

#[test]
fn ucci_handshake_lists_options() {
    let mut e = Engine::start();
    e.send("ucci");
    let (_, lines) = e.expect_prefix("ucciok");
    assert!(lines[0].starts_with("id name Pao"), "{lines:?}");
    for expected in [
        "option usemillisec type check default true",
        "option ponder type check default false",
        "option usebook type check default true",
        "option pinthreads type check default false",
        "option newgame type button",
    ] {
        assert!(
            lines.iter().any(|l| l == expected),
            "missing '{expected}' in {lines:?}"
        );
    }
    assert!(lines
        .iter()
        .any(|l| l.starts_with("option hashsize type spin min 1 ")));
    assert!(lines
        .iter()
        .any(|l| l.starts_with("option threads type spin min 1 max 1024 ")));
    e.send("isready");
    e.expect_exact("readyok");
    e.send("quit");
    e.expect_exact("bye");
    assert_eq!(e.wait_exit(TIMEOUT), Some(0));
}

#[test]
fn ucci_go_depth_prints_info_and_a_legal_bestmove() {
    let mut e = Engine::ucci(1);
    e.send("position startpos moves h2e2 h9g7");
    e.send("go depth 4");
    let (best, lines) = e.expect_prefix("bestmove");
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert_eq!(infos.len(), 4, "{lines:?}");
    for (i, l) in infos.iter().enumerate() {
        let w: Vec<&str> = l.split_whitespace().collect();
        assert_eq!((w[1], w[2]), ("depth", (i + 1).to_string().as_str()), "{l}");
        for key in [
            "seldepth", "score", "time", "nodes", "nps", "hashfull", "pv",
        ] {
            assert!(w.contains(&key), "'{key}' missing in {l}");
        }
    }
    assert!(
        lines.last().is_some_and(|l| l.starts_with("info time ")),
        "{lines:?}"
    );
    let m = bestmove_of(&best).expect("a move");
    assert_legal(None, &["h2e2", "h9g7"], &m, RankBase::Zero);
}

#[test]
fn ucci_go_time_returns_in_time() {
    let mut e = Engine::ucci(2);
    e.send("position startpos");
    let start = std::time::Instant::now();
    let cpu_before = e.cpu_time();
    e.send("go time 3000 increment 0");
    let (best, _) = e.expect_prefix("bestmove");
    let wall = start.elapsed();
    let cpu = cpu_before
        .zip(e.cpu_time())
        .map(|(a, b)| b.saturating_sub(a));
    // Not the whole clock: its hard limit is min(5 x 99, (3000 - 30) / 4) = 495 ms (the
    // policy of src/time.rs), plus a margin for the pipe and the scheduler; on a runner too
    // busy for that, the engine's CPU (two threads) shows it stopped in time.
    let bound = Duration::from_millis(495 + 400);
    assert!(
        wall < bound || cpu.is_some_and(|c| c < 2 * bound),
        "wall {wall:?}, engine CPU {cpu:?}"
    );
    assert_legal(
        None,
        &[],
        &bestmove_of(&best).expect("move"),
        RankBase::Zero,
    );
}

#[test]
fn ucci_infinite_then_stop() {
    let mut e = Engine::ucci(2);
    e.send("position startpos");
    e.send("go infinite");
    e.expect_no_bestmove(Duration::from_millis(300));
    e.send("stop");
    expect_legal_bestmove_from_start(&mut e);
    e.send("isready");
    e.expect_exact("readyok");
}

#[test]
fn ucci_ponder_waits_for_ponderhit() {
    let mut e = Engine::ucci(1);
    e.send("position startpos moves h2e2");
    e.send("go ponder time 2000 increment 0");
    e.expect_no_bestmove(Duration::from_millis(400));
    e.send("ponderhit");
    let (best, _) = e.expect_prefix("bestmove");
    assert_legal(
        None,
        &["h2e2"],
        &bestmove_of(&best).expect("move"),
        RankBase::Zero,
    );
}

#[test]
fn ucci_stop_while_idle_answers_nobestmove() {
    let mut e = Engine::ucci(1);
    e.send("stop");
    e.expect_exact("nobestmove");
}

#[test]
fn ucci_go_depth_zero_prints_the_quiescence_score() {
    let mut e = Engine::ucci(1);
    // Red's cannon hangs to the rook: quiescence sees black win it (static: about +450).
    e.send("position fen 4k4/9/9/9/r8/9/9/C8/9/3K5 b - - 0 1");
    e.send("go depth 0");
    let line = e.next_line(TIMEOUT).expect("info line");
    let score: i32 = line
        .strip_prefix("info depth 0 score ")
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("{line}"));
    assert!(score > 700, "{line}");
    e.expect_exact("nobestmove");
}

#[test]
fn ucci_no_legal_move_answers_nobestmove() {
    let mut e = Engine::ucci(1);
    // Black is stalemated.
    e.send("position fen 4k4/3R5/9/9/9/9/9/9/9/5K3 b - - 0 1");
    e.send("go depth 3");
    e.expect_exact("nobestmove");
}

#[test]
fn quit_mid_search_still_answers() {
    let mut e = Engine::ucci(2);
    e.send("position startpos");
    e.send("go infinite");
    e.expect_no_bestmove(Duration::from_millis(200));
    e.send("quit");
    e.expect_prefix("bestmove");
    e.expect_exact("bye");
    assert_eq!(e.wait_exit(TIMEOUT), Some(0));
}

#[test]
fn quit_right_after_go_answers_then_says_bye() {
    for threads in [1, 4] {
        let mut e = Engine::ucci(threads);
        e.send("position startpos");
        e.send("go infinite");
        e.send("quit");
        expect_legal_bestmove_from_start(&mut e);
        e.expect_exact("bye");
        assert_eq!(e.wait_exit(TIMEOUT), Some(0));
    }
}

#[test]
fn end_of_input_mid_search_exits() {
    let mut e = Engine::ucci(2);
    e.send("position startpos");
    e.send("go infinite");
    e.expect_no_bestmove(Duration::from_millis(200));
    e.close_input();
    e.expect_prefix("bestmove");
    assert_eq!(e.wait_exit(TIMEOUT), Some(0));
}

#[test]
fn commands_during_search_wait_for_bestmove() {
    let mut e = Engine::ucci(1);
    e.send("position startpos");
    e.send("go depth 5");
    e.send("position startpos moves h2e2");
    e.send("go depth 1");
    expect_legal_bestmove_from_start(&mut e);
    let (second, _) = e.expect_prefix("bestmove");
    assert_legal(
        None,
        &["h2e2"],
        &bestmove_of(&second).expect("move"),
        RankBase::Zero,
    );
}

#[test]
fn banmoves_restrict_the_root() {
    let mut e = Engine::ucci(1);
    e.send("position startpos");
    let mut pos = Position::startpos();
    let all: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
    let keep = "a3a4";
    let banned: Vec<&str> = all
        .iter()
        .map(String::as_str)
        .filter(|m| *m != keep)
        .collect();
    e.send(&format!("banmoves {}", banned.join(" ")));
    e.send("go depth 3");
    let (best, _) = e.expect_prefix("bestmove");
    assert_eq!(bestmove_of(&best).as_deref(), Some(keep));
}

#[test]
fn probe_answers_pophash() {
    let mut e = Engine::ucci(1);
    e.send("position startpos");
    e.send("go depth 3");
    e.expect_prefix("bestmove");
    e.send("probe startpos");
    let (line, _) = e.expect_prefix("pophash");
    assert!(line.starts_with("pophash bestmove "), "{line}");
}

/// Each bad line gets exactly one error line and changes nothing.
#[test]
fn bad_input_is_reported_and_harmless() {
    let mut e = Engine::ucci(1);
    e.send("position startpos moves h2e2");
    for (bad, mention) in [
        ("frobnicate now", "frobnicate"),
        ("position fen rnbakabnr/9/1c5c1 w", "FEN"),
        (
            "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w",
            "X",
        ),
        ("position startpos moves h2e2 h9h0", "h9h0"),
        ("position startpos moves h2e2 zz99", "zz99"),
        ("go depth abc", "abc"),
        ("go depth -3", "-3"),
        ("go bogus 5", "bogus"),
        ("setoption hashsize 0", "hashsize"),
        ("setoption threads 5000", "threads"),
        ("banmoves x9", "x9"),
    ] {
        e.send(bad);
        let line = e.next_line(TIMEOUT).expect("an error line");
        assert!(
            line.starts_with("info string error: "),
            "'{bad}' gave '{line}'"
        );
        assert!(
            line.contains(mention),
            "'{bad}' gave '{line}' without '{mention}'"
        );
    }
    e.send("isready");
    e.expect_exact("readyok");
    // The last position command was rejected: no search of an older position.
    e.send("go depth 2");
    e.expect_exact("info string error: no valid position (the last position command was rejected)");
    e.expect_exact("nobestmove");
    // A valid position restores the search.
    e.send("position startpos moves h2e2");
    e.send("go depth 2");
    let (best, _) = e.expect_prefix("bestmove");
    assert_legal(
        None,
        &["h2e2"],
        &bestmove_of(&best).expect("move"),
        RankBase::Zero,
    );
}

#[test]
fn lines_before_the_handshake_get_an_error() {
    let mut e = Engine::start();
    e.send("isready");
    let line = e.next_line(TIMEOUT).expect("error line");
    assert!(line.starts_with("info string error: "), "{line}");
    e.send("ucci");
    e.expect_prefix("ucciok");
}

#[test]
fn the_first_handshake_decides_the_dialect() {
    let mut e = Engine::uci(1);
    // Fuzzed input once turned a UCI session into CECP, where `isready` is no command.
    e.send("xboard");
    e.expect_exact("info string error: this session speaks uci; 'xboard' ignored");
    e.send("ucci");
    e.expect_exact("info string error: this session speaks uci; 'ucci' ignored");
    e.send("isready");
    e.expect_exact("readyok");
    // The same handshake again is answered again.
    e.send("uci");
    e.expect_prefix("uciok");
    e.send("isready");
    e.expect_exact("readyok");
    let mut e = Engine::ucci(1);
    e.send("uci");
    e.expect_exact("info string error: this session speaks ucci; 'uci' ignored");
    e.send("isready");
    e.expect_exact("readyok");
}

#[test]
fn uci_handshake_and_search() {
    let mut e = Engine::start();
    e.send("uci");
    let (_, lines) = e.expect_prefix("uciok");
    for expected in [
        "option name UCI_Variant type combo default xiangqi var xiangqi",
        "option name Clear Hash type button",
        "option name Ponder type check default false",
    ] {
        assert!(
            lines.iter().any(|l| l == expected),
            "missing '{expected}' in {lines:?}"
        );
    }
    assert!(lines
        .iter()
        .any(|l| l.starts_with("option name Hash type spin default 64 min 1")));
    e.send("setoption name Threads value 1");
    e.send("ucinewgame");
    e.send("position startpos moves h2e2");
    e.send("go depth 3");
    let (best, lines) = e.expect_prefix("bestmove");
    assert!(lines.iter().any(|l| l.contains(" score cp ")), "{lines:?}");
    assert_legal(
        None,
        &["h2e2"],
        &bestmove_of(&best).expect("move"),
        RankBase::Zero,
    );
}

#[test]
fn uci_variant_switches_to_ranks_one_to_ten() {
    let mut e = Engine::uci(1);
    e.send("setoption name UCI_Variant value xiangqi");
    e.send("position startpos moves h3e3 h10g8");
    e.send("go depth 2");
    let (best, _) = e.expect_prefix("bestmove");
    assert_legal(
        None,
        &["h3e3", "h10g8"],
        &bestmove_of(&best).expect("move"),
        RankBase::One,
    );
    // An explicit rank base overrides the variant's.
    e.send("setoption name UCI_RankBase value 0");
    e.send("position startpos moves h2e2");
    e.send("go depth 2");
    let (best, _) = e.expect_prefix("bestmove");
    assert_legal(
        None,
        &["h2e2"],
        &bestmove_of(&best).expect("move"),
        RankBase::Zero,
    );
}

#[test]
fn uci_mate_score_and_no_move() {
    let mut e = Engine::uci(1);
    e.send("position fen 3aka3/9/9/9/4C4/1C7/9/9/9/3K5 w - - 0 1");
    e.send("go depth 3");
    let (_, lines) = e.expect_prefix("bestmove");
    assert!(
        lines.iter().any(|l| l.contains(" score mate 1 ")),
        "{lines:?}"
    );
    e.send("position fen 4k4/3R5/9/9/9/9/9/9/9/5K3 b - - 0 1");
    e.send("go depth 2");
    e.expect_exact("bestmove (none)");
}

#[test]
fn uci_go_clock_and_nodes() {
    let mut e = Engine::uci(1);
    e.send("position startpos");
    e.send("go wtime 2000 btime 2000 winc 10 binc 10");
    expect_legal_bestmove_from_start(&mut e);
    e.send("go nodes 5000");
    expect_legal_bestmove_from_start(&mut e);
    e.send("go movetime 200");
    e.expect_prefix("bestmove");
}

/// Deterministic garbage: random bytes and mutated valid commands, fed to the real daemon;
/// it must answer `isready` and search afterwards.
#[test]
fn garbage_lines_leave_the_daemon_responsive() {
    let valid = [
        "position startpos moves h2e2 h9g7",
        "go depth 1",
        "setoption hashsize 8",
        "banmoves h2e2",
        "probe startpos",
        "setoption name Hash value 8",
    ];
    let mut state = 0x1234_5678_9abc_def1u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for dialect in ["ucci", "uci"] {
        let mut e = if dialect == "ucci" {
            Engine::ucci(1)
        } else {
            Engine::uci(1)
        };
        for _ in 0..300 {
            let line: String = if next() % 2 == 0 {
                (0..next() % 60)
                    .map(|_| char::from(32 + (next() % 95) as u8))
                    .collect()
            } else {
                let mut b = valid[(next() % valid.len() as u64) as usize]
                    .as_bytes()
                    .to_vec();
                let p = (next() as usize) % (b.len() + 1);
                b.insert(p, (next() % 128) as u8);
                b.truncate(1 + (next() as usize) % b.len());
                String::from_utf8_lossy(&b).replace(['\n', '\r'], " ")
            };
            let lower = line.to_ascii_lowercase();
            // Keep the connection alive: no quit, and no search that waits for a stop.
            if lower.contains("quit")
                || lower.contains("bye")
                || lower.trim_start().starts_with("go")
            {
                continue;
            }
            e.send(&line);
        }
        e.send("isready");
        e.read_until("readyok", |l| l == "readyok");
        e.send("position startpos");
        e.send("go depth 2");
        let (best, _) = e.read_until("bestmove", |l| l.starts_with("bestmove"));
        assert_legal(
            None,
            &[],
            &bestmove_of(&best).expect("move"),
            RankBase::Zero,
        );
    }
}

#[test]
fn hash_sizes_from_one_mib_to_sixteen_gib() {
    let mut e = Engine::ucci(1);
    for mib in [1, 16384, 1] {
        e.send(&format!("setoption hashsize {mib}"));
        e.send("isready");
        e.expect_exact("readyok");
        e.send("position startpos");
        e.send("go depth 3");
        expect_legal_bestmove_from_start(&mut e);
    }
    // Beyond any machine: reported, and the old table stays in use.
    e.send("setoption hashsize 16000000");
    let line = e.next_line(TIMEOUT).expect("error line");
    assert!(
        line.starts_with("info string error: cannot allocate"),
        "{line}"
    );
    e.send("go depth 2");
    e.expect_prefix("bestmove");
}

/// A two-move book written in ElephantEye's format for the start position.
fn small_book() -> std::path::PathBuf {
    use pao::book::eleeye::{book_key, encode_move};
    let key = book_key(&Position::startpos(), false);
    let mut bytes = Vec::new();
    for (m, w) in [("b2e2", 5u16), ("h2e2", 20u16)] {
        bytes.extend_from_slice(&key.to_le_bytes());
        let mv = parse_move(m, RankBase::Zero).expect("move");
        bytes.extend_from_slice(&encode_move(mv).to_le_bytes());
        bytes.extend_from_slice(&w.to_le_bytes());
    }
    let path = std::env::temp_dir().join(format!("pao-book-{}.dat", std::process::id()));
    std::fs::write(&path, bytes).expect("write book");
    path
}

#[test]
fn book_moves_through_both_dialects() {
    let path = small_book();
    let mut e = Engine::ucci(1);
    e.send(&format!("setoption bookfiles {}", path.display()));
    e.send("position startpos");
    e.send("go depth 8");
    e.expect_exact("info depth 0 score 20 pv h2e2");
    e.expect_exact("info depth 0 score 5 pv b2e2");
    let (best, _) = e.expect_prefix("bestmove");
    assert!(
        ["bestmove h2e2", "bestmove b2e2"].contains(&best.as_str()),
        "{best}"
    );
    // Out of book: a normal search.
    e.send("position startpos moves h2e2");
    e.send("go depth 2");
    let (_, lines) = e.expect_prefix("bestmove");
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 1 ")),
        "{lines:?}"
    );
    // Banned book moves are not played.
    e.send("position startpos");
    e.send("banmoves h2e2");
    e.send("go depth 3");
    let (best, _) = e.expect_prefix("bestmove");
    assert_eq!(best, "bestmove b2e2");
    e.send("setoption bookfiles /nonexistent/book.dat");
    let line = e.next_line(TIMEOUT).expect("error");
    assert!(
        line.starts_with("info string error: cannot read book"),
        "{line}"
    );

    let mut u = Engine::uci(1);
    u.send("setoption name UCI_Variant value xiangqi");
    u.send(&format!("setoption name BookFile value {}", path.display()));
    u.send("position startpos");
    u.send("go movetime 1000");
    u.expect_exact("info depth 0 score 20 pv h3e3");
    u.expect_exact("info depth 0 score 5 pv b3e3");
    let (best, _) = u.expect_prefix("bestmove");
    assert!(
        ["bestmove h3e3", "bestmove b3e3"].contains(&best.as_str()),
        "{best}"
    );
    u.send("setoption name OwnBook value false");
    u.send("go depth 1");
    let (_, lines) = u.expect_prefix("bestmove");
    assert!(
        !lines.iter().any(|l| l.starts_with("info depth 0")),
        "{lines:?}"
    );
    let _ = std::fs::remove_file(path);
}
