//! The files only the command line may name: `--book` (the engine's first move in a game
//! comes from it), `--egtb-path` (the analysis probes the tables), `--evalfile` (another net
//! evaluates); a file that cannot be read stops the server at the start with one line.

use crate::common::{Server, TIMEOUT};
use crate::daemon::random_net;
use pao::board::{parse_move, Position, RankBase};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A fresh directory for this test's files.
fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pao-serve-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Starts `pao serve` with `args`, which must fail: returns its exit status and stderr.
fn start_fails(args: &[&str]) -> (Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pao"))
        .args([
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--threads",
            "1",
            "--hash",
            "16",
        ])
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start pao serve");
    let deadline = Instant::now() + TIMEOUT;
    loop {
        if let Ok(Some(status)) = child.try_wait() {
            let mut err = String::new();
            if let Some(mut e) = child.stderr.take() {
                use std::io::Read;
                let _ = e.read_to_string(&mut err);
            }
            return (status.code(), err);
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("pao serve {args:?} kept running");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The first `info` events of an analysis of `fen` up to depth `depth`, as (depth, score,
/// line, tbhits). (Not the nodes: an `info` reports the nodes counted so far, which depends
/// on when the threads last added theirs.)
async fn analysis(server: &Server, fen: &str, depth: u64) -> Vec<(u64, Value, Value, Value)> {
    let http = server.http();
    let mut w = server.watch().await;
    let r = http.post("/api/position", json!({ "fen": fen })).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(http.post("/api/go", json!({})).await.status, 200);
    let mut lines = Vec::new();
    loop {
        let ev = w.until_type("info").await;
        let d = ev["depth"].as_u64().expect("depth");
        lines.push((
            d,
            ev["score"].clone(),
            ev["pv"].clone(),
            ev["tbhits"].clone(),
        ));
        if d >= depth {
            break;
        }
    }
    assert_eq!(http.post("/api/stop", json!({})).await.status, 200);
    w.until_type("bestmove").await;
    lines
}

#[tokio::test]
async fn book_gives_the_engines_first_move_in_a_game() {
    let _gate = crate::common::shared().await;
    // A book of one move for the start position that no search would choose: the general
    // steps up.
    use pao::book::eleeye::{book_key, encode_move};
    let dir = temp_dir("book");
    let path = dir.join("book.dat");
    let mut bytes = Vec::new();
    bytes.extend_from_slice(&book_key(&Position::startpos(), false).to_le_bytes());
    let mv = parse_move("e0e1", RankBase::Zero).expect("move");
    bytes.extend_from_slice(&encode_move(mv).to_le_bytes());
    bytes.extend_from_slice(&1u16.to_le_bytes());
    std::fs::write(&path, bytes).expect("write the book");
    let book = path.display().to_string();
    let server = Server::start(&["--book", &book]);
    let http = server.http();
    let mut w = server.watch().await;
    let r = http
        .post(
            "/api/game",
            json!({"human": "black", "base_ms": 60000, "inc_ms": 0}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let best = w.until_type("bestmove").await;
    assert_eq!(best["kind"], "game");
    assert_eq!(best["move"], "e0e1");
    let position = w.until_type("position").await;
    assert_eq!(position["moves"], json!(["e0e1"]));
    drop(server);

    let missing = dir.join("missing.dat").display().to_string();
    let (code, err) = start_fails(&["--book", &missing]);
    assert_eq!(code, Some(1));
    assert!(err.starts_with("error: cannot read book"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn egtb_path_gives_the_analysis_its_tables() {
    let _gate = crate::common::shared().await;
    let dir = temp_dir("egtb");
    let krk = pao::egtb::Material::parse("KRK").expect("material");
    pao::egtb::build::build(&[krk], &dir, "serve test", |_| {}).expect("builds");
    let tables = dir.display().to_string();
    // Rook and general against the general, red to move: mate in one (the search goes no
    // deeper than it must to prove it).
    let fen = "3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1";
    let with = analysis(&Server::start(&["--egtb-path", &tables]), fen, 1).await;
    assert_eq!(with.len(), 1, "{with:?}");
    let (_, score, line, tbhits) = &with[0];
    assert_eq!(*score, json!({"kind": "mate", "value": 1}));
    assert_eq!(*line, json!(["a1d1"]));
    assert!(tbhits.as_u64().is_some_and(|t| t >= 1), "{with:?}");
    let without = analysis(&Server::start(&[]), fen, 1).await;
    assert!(without[0].3.is_null(), "{without:?}");

    let missing = dir.join("missing").display().to_string();
    let (code, err) = start_fails(&["--egtb-path", &missing]);
    assert_eq!(code, Some(1));
    assert!(err.starts_with("error: tablebase directory"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn evalfile_changes_the_evaluation() {
    let _gate = crate::common::shared().await;
    let dir = temp_dir("net");
    let path = dir.join("random.nnue");
    let net = random_net(32, pao::eval::nnue::Activation::SquaredClippedRelu, 11);
    std::fs::write(&path, net.to_bytes()).expect("write the net");
    let file = path.display().to_string();
    let start = pao::board::START_FEN;
    // One thread from a fresh table: each net's lines are the same every time.
    let embedded = analysis(&Server::start(&[]), start, 4).await;
    let again = analysis(&Server::start(&[]), start, 4).await;
    assert_eq!(embedded, again, "the analysis is reproducible");
    let random = analysis(&Server::start(&["--evalfile", &file]), start, 4).await;
    assert_ne!(random, embedded, "the net file changes the evaluation");

    let missing = dir.join("missing.nnue").display().to_string();
    let (code, err) = start_fails(&["--evalfile", &missing]);
    assert_eq!(code, Some(1));
    assert_eq!(
        err,
        format!("error: {missing}: No such file or directory (os error 2)\n")
    );
    let _ = std::fs::remove_dir_all(&dir);
}
