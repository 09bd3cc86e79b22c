//! The commands of the field's engines (Stockfish, Pikafish, Fairy-Stockfish) for people who
//! test an engine by hand, through the real binary: `go perft N` (CECP `perft N`), `flip`,
//! `bench`, `compiler`, `export_net [FILE]`, and the options `nodestime` and `Debug Log File`.

mod common;

use common::{last_line, Engine, TIMEOUT};
use pao::board::perft::perft;
use pao::board::{parse_move, Position, RankBase};
use std::path::PathBuf;

fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pao-dev-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// The perft rows of `tests/data/perft.tsv` (checked by Pikafish and Fairy-Stockfish) up to
/// `max` leaves.
fn perft_rows(max: u64) -> Vec<(String, u32, u64)> {
    include_str!("data/perft.tsv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            let (depth, nodes) = (cols[1].parse().ok()?, cols[2].parse().ok()?);
            (nodes <= max).then(|| (cols[0].to_string(), depth, nodes))
        })
        .collect()
}

/// Sends `go perft D` (or CECP's `perft D`) and reads the divide lines up to `Nodes searched`.
fn divide(e: &mut Engine, command: &str) -> (Vec<(String, u64)>, u64) {
    e.send(command);
    let (last, lines) = e.expect_prefix("Nodes searched: ");
    let total = last["Nodes searched: ".len()..]
        .parse()
        .expect("a node count");
    assert_eq!(lines.last().map(String::as_str), Some(""), "{lines:?}");
    let rows = lines[..lines.len() - 1]
        .iter()
        .map(|l| {
            let (m, n) = l.split_once(": ").expect("MOVE: COUNT");
            (m.to_string(), n.parse().expect("a count"))
        })
        .collect();
    e.expect_exact("");
    (rows, total)
}

#[test]
fn go_perft_divides_and_counts_as_the_reference() {
    let mut e = Engine::uci(1);
    let rows = perft_rows(200_000);
    assert!(rows.len() > 100, "{} rows", rows.len());
    for (fen, depth, nodes) in &rows {
        e.send(&format!("position fen {fen}"));
        let (moves, total) = divide(&mut e, &format!("go perft {depth}"));
        assert_eq!(total, *nodes, "{fen} depth {depth}");
        assert_eq!(moves.iter().map(|(_, n)| n).sum::<u64>(), total, "{fen}");
        // Each line is its move's own count.
        let mut pos = Position::from_fen(fen).expect("fen");
        assert_eq!(moves.len(), pos.legal_moves().len(), "{fen}");
        for (m, n) in &moves {
            let mv = parse_move(m, RankBase::Zero).expect("a move");
            assert!(pos.is_legal(mv), "{m} in {fen}");
            pos.make_move(mv);
            assert_eq!(perft(&mut pos, depth - 1), *n, "{m} in {fen}");
            pos.unmake_move();
        }
    }
    // Moves as the connection writes them: ranks 1-10 once a GUI sets UCI_Variant.
    e.send("setoption name UCI_Variant value xiangqi");
    e.send("position startpos");
    let (moves, total) = divide(&mut e, "go perft 1");
    assert_eq!(total, 44);
    assert!(moves.contains(&("h3e3".to_string(), 1)), "{moves:?}");
    for (bad, message) in [
        (
            "go perft 0",
            "info string error: perft: '0' is not a depth in 1..12",
        ),
        ("go perft", "info string error: perft: missing depth"),
        ("go perft 2 3", "info string error: perft: unexpected '3'"),
    ] {
        e.send(bad);
        e.expect_exact(message);
    }
    e.send("isready");
    e.expect_exact("readyok");
}

#[test]
fn perft_in_ucci_and_cecp() {
    let mut e = Engine::ucci(1);
    e.send("position startpos moves h2e2");
    let (moves, total) = divide(&mut e, "go perft 2");
    let mut pos = Position::startpos();
    pos.make_move(parse_move("h2e2", RankBase::Zero).expect("move"));
    assert_eq!(moves.len(), pos.legal_moves().len());
    assert_eq!(total, perft(&mut pos, 2));
    let mut c = Engine::cecp();
    c.send("force");
    c.send("h2e2");
    let (cecp_moves, cecp_total) = divide(&mut c, "perft 2");
    assert_eq!((cecp_moves, cecp_total), (moves, total));
    c.send("perft x");
    c.expect_exact("Error (perft: 'x' is not a depth in 1..12): perft x");
}

/// The position's FEN as `d` prints it.
fn fen_of(e: &mut Engine) -> String {
    e.send("d");
    let (line, _) = e.expect_prefix("fen ");
    line["fen ".len()..].to_string()
}

/// The network's score of the position, from the side to move.
fn network_eval(e: &mut Engine) -> String {
    e.send("eval");
    let (line, _) = e.expect_prefix("eval network ");
    line.split_whitespace().nth(2).expect("a score").to_string()
}

#[test]
fn flip_swaps_the_colours() {
    for mut e in [Engine::uci(1), Engine::ucci(1)] {
        e.send("position startpos moves h2e2 h9g7 h0g2");
        let before = fen_of(&mut e);
        assert_eq!(
            before,
            "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R b - - 3 2"
        );
        let eval = network_eval(&mut e);
        e.send("flip");
        let flipped = fen_of(&mut e);
        assert_eq!(
            flipped,
            "rnbakab1r/9/1c2c1n2/p1p1p1p1p/9/9/P1P1P1P1P/1C4NC1/9/RNBAKAB1R w - - 3 2"
        );
        // The perspective network sees the same position from the other side: the same score.
        assert_eq!(network_eval(&mut e), eval);
        // The engine plays on from the flipped position: red to move.
        e.send("go depth 3");
        let (best, _) = e.expect_prefix("bestmove");
        let m = common::bestmove_of(&best).expect("a move");
        let mut pos = Position::from_fen(&flipped).expect("fen");
        assert!(pos.is_legal(parse_move(&m, RankBase::Zero).expect("move")));
        e.send("flip");
        assert_eq!(fen_of(&mut e), before);
        e.send("flip now");
        let (line, _) = e.expect_prefix("info string error:");
        assert_eq!(line, "info string error: flip: unexpected 'now'");
    }
}

/// Sends `bench` and reads its lines (each position within the usual bound, however slow the
/// machine), the last one apart.
fn bench(e: &mut Engine) -> (String, Vec<String>) {
    e.send("bench");
    let mut lines = Vec::new();
    loop {
        let line = e
            .next_line(TIMEOUT)
            .unwrap_or_else(|| panic!("bench stalled; transcript:\n{}", e.transcript.join("\n")));
        if line.starts_with("bench: nodes ") {
            return (line, lines);
        }
        lines.push(line);
    }
}

#[test]
fn bench_in_the_protocol_has_the_signature_of_pao_bench() {
    // The signature of the command line's `pao bench`, which docs and commits quote.
    let cli = std::process::Command::new(env!("CARGO_BIN_EXE_pao"))
        .arg("bench")
        .output()
        .expect("run pao bench");
    let cli = String::from_utf8_lossy(&cli.stdout);
    let signature = cli
        .lines()
        .find_map(|l| l.strip_prefix("bench: nodes "))
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("no signature from pao bench:\n{cli}"))
        .to_string();
    let expected = format!("bench: nodes {signature} time_ms ");
    let mut e = Engine::uci(1);
    let (last, lines) = bench(&mut e);
    assert_eq!(lines.len(), 49, "{lines:?}");
    assert!(lines[0].starts_with("position   1 bestmove "), "{lines:?}");
    assert!(last.starts_with(&expected), "{last} against {expected}");
    e.send("isready");
    e.expect_exact("readyok");
    let mut c = Engine::cecp();
    let (last, _) = bench(&mut c);
    assert!(last.starts_with(&expected), "{last} against {expected}");
}

#[test]
fn compiler_names_the_build_and_the_kernels() {
    for mut e in [Engine::uci(1), Engine::ucci(1), Engine::cecp()] {
        e.send("compiler");
        let (first, _) = e.expect_prefix("Compiled by");
        assert!(first.contains(": rustc 1."), "{first}");
        let mut lines = vec![first];
        for _ in 0..4 {
            lines.push(e.next_line(TIMEOUT).expect("a line"));
        }
        let arch = std::env::consts::ARCH;
        assert!(
            lines[1].starts_with("Target                : ") && lines[1].contains(arch),
            "{lines:?}"
        );
        assert!(
            lines[2].starts_with("Profile               : release, opt-level "),
            "{lines:?}"
        );
        assert!(
            lines[3].starts_with("Target features       : "),
            "{lines:?}"
        );
        #[cfg(target_arch = "x86_64")]
        let kernels = if std::is_x86_feature_detected!("avx2") {
            "AVX2 (this CPU has it)"
        } else {
            "portable (this CPU has no AVX2)"
        };
        #[cfg(not(target_arch = "x86_64"))]
        let kernels = "portable (AVX2 exists on x86-64 only)";
        assert_eq!(lines[4], format!("Evaluation kernels    : {kernels}"));
    }
}

const EMBEDDED: &[u8] = include_bytes!("../src/eval/nnue/default.nnue");

#[test]
fn export_net_writes_the_net_in_use() {
    let dir = temp_dir("export");
    let mut e = Engine::start_in(&dir);
    e.send("uci");
    e.expect_prefix("uciok");
    // No name: the embedded net, byte for byte, as default.nnue.
    e.send("export_net");
    let size = EMBEDDED.len();
    e.expect_exact(&format!(
        "info string net written to default.nnue ({size} bytes)"
    ));
    assert!(std::fs::read(dir.join("default.nnue")).expect("written") == EMBEDDED);
    let named = dir.join("copy of the net.nnue");
    e.send(&format!("export_net {}", named.display()));
    e.expect_prefix("info string net written to ");
    assert!(std::fs::read(&named).expect("written") == EMBEDDED);
    // A net loaded from a file is written as loaded, under a name given.
    let net = common::random_net(32, pao::eval::nnue::Activation::SquaredClippedRelu, 7);
    let loaded = dir.join("loaded.nnue");
    std::fs::write(&loaded, net.to_bytes()).expect("write net");
    e.send(&format!(
        "setoption name EvalFile value {}",
        loaded.display()
    ));
    e.send("export_net");
    let (line, _) = e.expect_prefix("info string error:");
    assert!(line.contains("name a file"), "{line}");
    let out = dir.join("out.nnue");
    e.send(&format!("export_net {}", out.display()));
    e.expect_prefix("info string net written to ");
    assert_eq!(std::fs::read(&out).expect("written"), net.to_bytes());
    e.send(&format!(
        "export_net {}",
        dir.join("no/such/dir.nnue").display()
    ));
    let (line, _) = e.expect_prefix("info string error:");
    assert!(line.contains("cannot write"), "{line}");
    // CECP answers with a comment line; UCCI as UCI.
    let mut c = Engine::cecp();
    let cecp_out = dir.join("cecp.nnue");
    c.send(&format!("export_net {}", cecp_out.display()));
    c.expect_exact(&format!(
        "# net written to {} ({size} bytes)",
        cecp_out.display()
    ));
    assert!(std::fs::read(&cecp_out).expect("written") == EMBEDDED);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The `bestmove` line of a search and its final node count.
fn timed_search(e: &mut Engine, go: &str) -> (String, u64) {
    e.send(go);
    let (best, lines) = e.expect_prefix("bestmove");
    let last = last_line(&lines, "info time ");
    let nodes = last
        .split_whitespace()
        .nth(4)
        .and_then(|n| n.parse().ok())
        .expect("nodes");
    (best, nodes)
}

#[test]
fn nodestime_counts_the_clock_in_nodes() {
    // One node a millisecond: ten minutes become 600,000 nodes, and the hard limit of the first
    // move is 5 x (599,970 / 30) = 99,995 nodes, where the wall clock would allow 100 s.
    let mut e = Engine::uci(1);
    e.send("setoption name nodestime value 1");
    e.send("position startpos");
    // The node bound is the proof: a wall-clock search would run 100 s and far more nodes.
    let (best, nodes) = timed_search(&mut e, "go wtime 600000 btime 600000");
    assert!(nodes <= 99_995 + 1_000, "{nodes} nodes");
    assert!(best.starts_with("bestmove "), "{best}");
    // 100 nodes a millisecond: 60 s become 6,000,000 nodes, the hard limit 999,500.
    e.send("setoption name nodestime value 100");
    e.send("ucinewgame");
    e.send("position startpos");
    let (_, nodes) = timed_search(&mut e, "go wtime 60000 btime 60000");
    assert!(nodes <= 999_500 + 1_000, "{nodes} nodes");
    // The engine keeps its own clock through the game: the GUI's 50 ms are not its budget (on
    // the wall clock they would allow 5 ms), the nodes it has left are.
    e.send("position startpos moves h2e2 h9g7");
    let (_, nodes) = timed_search(&mut e, "go wtime 50 btime 60000");
    assert!(nodes >= 60_000, "{nodes} nodes");
    // UCCI: the same option and the same limit.
    let mut u = Engine::ucci(1);
    u.send("setoption nodestime 100");
    u.send("position startpos");
    let (best, nodes) = timed_search(&mut u, "go time 60000");
    assert!(nodes <= 999_500 + 1_000, "{nodes} nodes");
    assert!(best.starts_with("bestmove "), "{best}");
    // Out of range: one error line, the old value stays.
    e.send("setoption name nodestime value 10001");
    let (line, _) = e.expect_prefix("info string error:");
    assert!(line.contains("0..10000"), "{line}");
}

#[test]
fn debug_log_file_holds_the_conversation() {
    let dir = temp_dir("log");
    let log = dir.join("pao.log");
    let mut e = Engine::uci(1);
    e.send(&format!(
        "setoption name Debug Log File value {}",
        log.display()
    ));
    let from = e.transcript.len();
    e.send("isready");
    e.expect_exact("readyok");
    e.send("position startpos");
    e.send("go depth 3");
    e.expect_prefix("bestmove");
    e.send("setoption name Debug Log File value <empty>");
    e.send("isready");
    e.expect_exact("readyok");
    // Everything between the two setoptions, in order, with Stockfish's marks.
    let expected: Vec<String> = e.transcript[from..e.transcript.len() - 2]
        .iter()
        .map(|l| l.replacen("> ", ">> ", 1).replacen("< ", "<< ", 1))
        .collect();
    let text = std::fs::read_to_string(&log).expect("the log");
    let logged: Vec<&str> = text.lines().collect();
    assert_eq!(logged, expected);
    // Appended to, in every dialect: UCCI's option name is one word, CECP's as UCI's.
    let mut u = Engine::ucci(1);
    u.send(&format!("setoption debuglogfile {}", log.display()));
    u.send("isready");
    u.expect_exact("readyok");
    let mut c = Engine::cecp();
    c.send(&format!("option Debug Log File={}", log.display()));
    c.send("ping 7");
    c.expect_exact("pong 7");
    let text = std::fs::read_to_string(&log).expect("the log");
    let tail: Vec<&str> = text.lines().skip(logged.len()).collect();
    assert_eq!(tail, [">> isready", "<< readyok", ">> ping 7", "<< pong 7"]);
    // A file that cannot be opened: one error line, no log.
    let bad = dir.join("no/such/dir/pao.log");
    e.send(&format!(
        "setoption name Debug Log File value {}",
        bad.display()
    ));
    let (line, _) = e.expect_prefix("info string error:");
    assert!(line.contains("cannot open the debug log"), "{line}");
    let _ = std::fs::remove_dir_all(&dir);
}
