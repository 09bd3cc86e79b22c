//! The API over loopback with a real HTTP client and real WebSockets: positions, illegal
//! moves, options, analysis started and stopped, sequence numbers without gaps, a late
//! watcher's state, games against the engine, bad requests (400, 404, 405, 409, 413, 415)
//! with the server and the analysis still answering, and requests that time out (408) and
//! change nothing.

use crate::common::{Server, TIMEOUT};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .expect("an array")
        .iter()
        .map(|s| s.as_str().expect("a string").to_string())
        .collect()
}

#[tokio::test]
async fn positions_moves_undo_and_the_pgn() {
    let _gate = crate::common::shared().await;
    let server = Server::start(&[]);
    let http = server.http();
    let state = http.state().await;
    assert_eq!(state["type"], "state");
    assert_eq!(state["position"]["fen"], START);
    assert_eq!(state["position"]["side"], "red");
    assert_eq!(
        state["position"]["legal"].as_array().map(Vec::len),
        Some(44)
    );
    assert_eq!(state["options"]["threads"], 1);
    assert_eq!(state["options"]["hash"], 16);

    let r = http
        .post("/api/position", json!({"moves": ["h2e2", "h9g7"]}))
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let p = r.json();
    assert_eq!(strings(&p["moves"]), ["h2e2", "h9g7"]);
    assert_eq!(
        p["current"],
        "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2"
    );
    assert_eq!(p["result"], "ongoing");

    // An illegal move is refused with its place, and nothing changes.
    let r = http
        .post("/api/position", json!({"moves": ["h2e2", "h2e3"]}))
        .await;
    assert_eq!(
        (r.status, r.text.as_str()),
        (400, "move 2: illegal move 'h2e3'\n")
    );
    let r = http.post("/api/move", json!({"move": "a0a5"})).await;
    assert_eq!((r.status, r.text.as_str()), (400, "illegal move 'a0a5'\n"));
    let r = http.post("/api/move", json!({"move": "z9"})).await;
    assert_eq!((r.status, r.text.as_str()), (400, "malformed move 'z9'\n"));
    let r = http
        .post("/api/position", json!({"fen": "rnbakabnr/9/9 w"}))
        .await;
    assert_eq!(r.status, 400);
    assert!(r.text.starts_with("bad FEN: "), "{}", r.text);
    assert_eq!(r.text.lines().count(), 1);
    assert_eq!(
        http.state().await["position"]["moves"],
        json!(["h2e2", "h9g7"])
    );

    let r = http.post("/api/move", json!({"move": "h0g2"})).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json()["side"], "black");
    let r = http.post("/api/undo", json!({})).await;
    assert_eq!(strings(&r.json()["moves"]), ["h2e2", "h9g7"]);

    // A position with black to move, by FEN; checkmate is a result, with no legal move.
    let mate = "3k5/9/9/9/9/9/9/9/3R5/3RK4 b - - 0 1";
    let r = http.post("/api/position", json!({"fen": mate})).await;
    let p = r.json();
    assert_eq!(p["current"], mate);
    assert_eq!(p["in_check"], true);
    assert_eq!(p["legal"], json!([]));
    assert_eq!(p["result"], "red wins (checkmate)");
    let r = http.post("/api/undo", json!({})).await;
    assert_eq!((r.status, r.text.as_str()), (409, "no move to take back\n"));

    http.post("/api/position", json!({"moves": ["h2e2", "h9g7"]}))
        .await;
    let r = http.get("/api/pgn").await;
    assert_eq!(r.status, 200);
    assert_eq!(
        r.text,
        "[Game \"Chinese Chess\"]\n[Event \"Pao analysis\"]\n[Site \"pao serve\"]\n\
         [Result \"*\"]\n[Format \"ICCS\"]\n\n1. H2-E2 H9-G7 *\n"
    );
}

#[tokio::test]
async fn analysis_streams_in_order_and_a_late_watcher_starts_from_the_state() {
    let _gate = crate::common::shared().await;
    let server = Server::start(&[]);
    let http = server.http();
    let mut w = server.watch().await;
    let r = http.post("/api/go", json!({})).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let search = r.json()["search"].as_u64().expect("a search number");
    let started = w.until_type("started").await;
    assert_eq!(started["search"], search);
    assert_eq!(started["kind"], "analysis");
    assert_eq!(started["fen"], START);
    let info = w
        .until(|e| e["type"] == "info" && e["depth"].as_u64() >= Some(6))
        .await;
    assert_eq!(info["search"], search);
    assert_eq!(info["multipv"], 1);
    assert_eq!(info["score"]["kind"], "cp");
    assert!(info["nodes"].as_u64() > Some(0));
    assert!(info["seldepth"].as_u64() >= info["depth"].as_u64());
    assert!(!info["pv"].as_array().expect("pv").is_empty());

    // A late watcher: the state holds the lines so far, and its next event follows its seq.
    let mut late = server.watch().await;
    assert_eq!(late.state["searching"], true);
    assert_eq!(late.state["search"]["search"], search);
    assert!(late.state["lines"][0]["depth"].as_u64() >= Some(6));
    assert!(!late.state["history"]
        .as_array()
        .expect("history")
        .is_empty());
    assert_eq!(late.state["server"]["watchers"], 2);
    let next = late.next_within(TIMEOUT).await.expect("an event");
    assert_eq!(
        next["seq"].as_u64(),
        Some(late.state["seq"].as_u64().unwrap_or(0) + 1)
    );

    // Once a second, the figures.
    let progress = w.until_type("progress").await;
    assert_eq!(progress["search"], search);
    assert!(progress["nps"].as_u64() > Some(0));

    let r = http.post("/api/stop", json!({})).await;
    assert_eq!(r.status, 200);
    let best = w.until_type("bestmove").await;
    assert_eq!(best["search"], search);
    assert_eq!(best["kind"], "analysis");
    let mv = best["move"].as_str().expect("a move").to_string();
    assert!(strings(&http.state().await["position"]["legal"]).contains(&mv));
    assert!(best["nodes"].as_u64() > Some(0));
    let best_late = late.until_type("bestmove").await;
    assert_eq!(
        best_late["seq"], best["seq"],
        "both watchers saw the same stream"
    );

    // A move during analysis: the search goes on from the new board.
    http.post("/api/go", json!({})).await;
    w.until_type("started").await;
    w.until_type("info").await;
    let r = http.post("/api/move", json!({"move": "h2e2"})).await;
    assert_eq!(r.status, 200);
    w.until_type("position").await;
    w.until_type("bestmove").await;
    let again = w.until_type("started").await;
    assert_eq!(again["fen"], r.json()["current"]);
    let info = w.until_type("info").await;
    assert_eq!(info["search"], again["search"]);
    http.post("/api/stop", json!({})).await;
    w.until_type("bestmove").await;
    assert_eq!(http.state().await["searching"], false);
}

#[tokio::test]
async fn options_are_checked_and_reach_the_engine() {
    let _gate = crate::common::shared().await;
    let server = Server::start(&["--max-threads", "2", "--max-hash", "64"]);
    let http = server.http();
    let mut w = server.watch().await;
    let r = http
        .post(
            "/api/options",
            json!({"threads": 2, "hash": 32, "multipv": 3, "wdl": true}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let expected = json!({"threads": 2, "hash": 32, "multipv": 3, "wdl": true,
                          "max_threads": 2, "max_hash": 64});
    assert_eq!(r.json(), expected);
    let ev = w.until_type("options").await;
    assert_eq!(ev["threads"], 2);
    assert_eq!(ev["multipv"], 3);

    // Refused: files, unknown names, out of range, wrong types; nothing changes.
    for (body, reason) in [
        (
            json!({"EvalFile": "/etc/passwd"}),
            "option 'EvalFile' names a file on the server; only the command line sets it",
        ),
        (
            json!({"bookfile": "x"}),
            "option 'bookfile' names a file on the server; only the command line sets it",
        ),
        (
            json!({"EGTBPath": "/"}),
            "option 'EGTBPath' names a file on the server; only the command line sets it",
        ),
        (
            json!({"ponder": true}),
            "unknown option 'ponder' (threads, hash, multipv, wdl)",
        ),
        (json!({"threads": 3}), "threads must be in 1..2, not 3"),
        (json!({"hash": 65}), "hash must be in 1..64, not 65"),
        (json!({"multipv": 0}), "multipv must be in 1..128, not 0"),
        (
            json!({"threads": 1, "hash": "big"}),
            "option 'hash' takes a whole number",
        ),
        (json!({"wdl": 1}), "option 'wdl' takes true or false"),
    ] {
        let r = http.post("/api/options", body.clone()).await;
        assert_eq!((r.status, r.text.trim_end()), (400, reason), "{body}");
    }
    assert_eq!(http.state().await["options"], expected);

    // Three lines with win/draw/loss.
    http.post("/api/go", json!({})).await;
    let third = w
        .until(|e| e["type"] == "info" && e["multipv"] == 3 && e["depth"].as_u64() >= Some(4))
        .await;
    let wdl = third["wdl"].as_array().expect("wdl");
    assert_eq!(wdl.iter().filter_map(Value::as_u64).sum::<u64>(), 1000);
    http.post("/api/stop", json!({})).await;
    w.until_type("bestmove").await;
    let lines = http.state().await["lines"].clone();
    assert_eq!(lines.as_array().map(Vec::len), Some(3));
    let r = http.post("/api/clear-hash", json!({})).await;
    assert_eq!(r.status, 200);
}

#[tokio::test]
async fn bad_requests_get_one_line_and_the_analysis_goes_on() {
    let _gate = crate::common::shared().await;
    let server = Server::start(&["--max-body", "1024"]);
    let http = server.http();
    let mut w = server.watch().await;
    http.post("/api/go", json!({})).await;
    let first = w.until_type("info").await;
    let cases: Vec<(&str, &str, Vec<u8>, u16, &str)> = vec![
        (
            "/api/move",
            "application/json",
            b"{\"move\":".to_vec(),
            400,
            "bad JSON: EOF while parsing a value at line 1 column 8",
        ),
        (
            "/api/move",
            "application/json",
            b"[1,2]".to_vec(),
            400,
            "bad JSON: invalid type: integer `1`, expected a string at line 1 column 2",
        ),
        (
            "/api/move",
            "application/json",
            b"{\"move\":\"h2e2\",\"x\":1}".to_vec(),
            400,
            "bad JSON: unknown field `x`, expected `move` at line 1 column 18",
        ),
        (
            "/api/move",
            "application/json",
            Vec::new(),
            400,
            "bad JSON: EOF while parsing a value at line 1 column 0",
        ),
        (
            "/api/move",
            "text/plain",
            b"{\"move\":\"h2e2\"}".to_vec(),
            415,
            "the body must be JSON (Content-Type: application/json)",
        ),
        (
            "/api/go",
            "application/json",
            b"{\"depth\":3}".to_vec(),
            400,
            "bad JSON: unknown field `depth`, there are no fields at line 1 column 8",
        ),
        (
            "/api/position",
            "application/json",
            vec![b' '; 4096],
            413,
            "length limit exceeded",
        ),
        (
            "/api/position",
            "application/json",
            b"\xff\xfe".to_vec(),
            400,
            "bad JSON: expected value at line 1 column 1",
        ),
    ];
    for (path, ctype, body, status, reason) in cases {
        let r = http.post_raw(path, ctype, body).await;
        assert_eq!((r.status, r.text.trim_end()), (status, reason), "{path}");
        assert!(r.text.lines().count() <= 1, "{}", r.text);
    }
    let r = http.get("/etc/passwd").await;
    assert_eq!((r.status, r.text.as_str()), (404, "not found\n"));
    let r = http.get("/../../etc/passwd").await;
    assert_eq!(r.status, 404);
    let r = http.get("/api/go").await;
    assert_eq!(r.status, 405);
    // The analysis went on throughout.
    let later = w
        .until(|e| e["type"] == "info" && e["depth"].as_u64() > first["depth"].as_u64())
        .await;
    assert_eq!(later["search"], first["search"]);
    http.post("/api/stop", json!({})).await;
    w.until_type("bestmove").await;
}

/// A game's level reaches the engine: at level 0 its moves stay within the level's node cap
/// on a clock where full strength thinks far longer; the analysis after the game is at full
/// strength again.
#[tokio::test]
async fn a_game_against_a_level() {
    let _gate = crate::common::shared().await;
    let server = Server::start(&[]);
    let http = server.http();
    let mut w = server.watch().await;
    let bad = http
        .post(
            "/api/game",
            json!({"human": "red", "base_ms": 60000, "level": 21}),
        )
        .await;
    assert_eq!(
        (bad.status, bad.text.as_str()),
        (400, "level must be in 0..20, not 21\n")
    );
    let r = http
        .post(
            "/api/game",
            json!({"human": "black", "base_ms": 600000, "inc_ms": 5000, "level": 0}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let g = w.until_type("game").await;
    assert_eq!(
        (g["level"].as_u64(), g["human"].as_str()),
        (Some(0), Some("black"))
    );
    let cap = pao::skill::Skill::new(0.0).hard_nodes();
    let best = w.until_type("bestmove").await;
    assert_eq!(best["kind"], "game");
    assert!(best["nodes"].as_u64().is_some_and(|n| n <= cap), "{best}");
    let p = w.until_type("position").await;
    assert_eq!(p["moves"][0], best["move"]);
    assert_eq!(http.post("/api/game/resign", json!({})).await.status, 200);

    // Analysis again, at full strength: it goes past level 0's cap.
    assert_eq!(http.post("/api/go", json!({})).await.status, 200);
    let past = w
        .until(|e| {
            (e["type"] == "info" || e["type"] == "progress")
                && e["nodes"].as_u64().is_some_and(|n| n > cap)
        })
        .await;
    assert!(past["nodes"].as_u64() > Some(cap));
    http.post("/api/stop", json!({})).await;
    w.until_type("bestmove").await;
}

#[tokio::test]
async fn a_game_against_the_engine() {
    let _gate = crate::common::shared().await;
    let server = Server::start(&[]);
    let http = server.http();
    let mut w = server.watch().await;
    let bad = http
        .post("/api/game", json!({"human": "green", "base_ms": 60000}))
        .await;
    assert_eq!(
        (bad.status, bad.text.as_str()),
        (400, "human must be red or black, not 'green'\n")
    );
    let bad = http
        .post("/api/game", json!({"human": "red", "base_ms": 10}))
        .await;
    assert_eq!(bad.status, 400);

    let r = http
        .post(
            "/api/game",
            json!({"human": "red", "base_ms": 60000, "inc_ms": 1000}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let g = w.until_type("game").await;
    assert_eq!(g["human"], "red");
    assert_eq!(g["running"], "red");
    assert_eq!(g["result"], "ongoing");
    // While the game goes on, the board is the game's.
    let r = http.post("/api/position", json!({})).await;
    assert_eq!(r.status, 409);
    assert_eq!(http.post("/api/go", json!({})).await.status, 409);
    assert_eq!(http.post("/api/undo", json!({})).await.status, 409);

    let r = http.post("/api/move", json!({"move": "h2e2"})).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let started = w.until_type("started").await;
    assert_eq!(started["kind"], "game");
    let best = w.until_type("bestmove").await;
    assert_eq!(best["kind"], "game");
    let p = w.until_type("position").await;
    assert_eq!(p["moves"].as_array().map(Vec::len), Some(2));
    assert_eq!(p["moves"][1], best["move"]);
    let g = w.until_type("game").await;
    assert_eq!(g["running"], "red");
    // Red gained the increment; black spent some of its minute.
    let red_ms = g["red_ms"].as_u64().expect("red_ms");
    let black_ms = g["black_ms"].as_u64().expect("black_ms");
    assert!((60001..=61000).contains(&red_ms), "{g}");
    // The engine's hard limit on a minute is a quarter of it: at least 45 s are left.
    assert!((45000..61000).contains(&black_ms), "{g}");
    // Red is to move: a black move is illegal.
    let r = http.post("/api/move", json!({"move": "h9g7"})).await;
    assert_eq!(r.status, 400);

    let r = http.post("/api/game/resign", json!({})).await;
    assert_eq!(r.status, 200);
    let g = w.until_type("game").await;
    assert_eq!(g["result"], "black wins (resignation)");
    assert_eq!(g["running"], Value::Null);
    assert_eq!(http.post("/api/game/resign", json!({})).await.status, 409);
    // After the game, analysis again.
    assert_eq!(http.post("/api/go", json!({})).await.status, 200);
    http.post("/api/stop", json!({})).await;

    // A flag falls: one second and no move.
    let r = http.post("/api/position", json!({"fen": START})).await;
    assert_eq!(r.status, 200);
    http.post("/api/game", json!({"human": "red", "base_ms": 1000}))
        .await;
    let g = w
        .until(|e| e["type"] == "game" && e["result"] != "ongoing")
        .await;
    assert_eq!(g["result"], "black wins (time)");
    assert_eq!(g["red_ms"], 0);
    let r = http.post("/api/move", json!({"move": "h2e2"})).await;
    assert_eq!(
        r.status, 200,
        "after the game the board is free: {}",
        r.text
    );
}

#[tokio::test]
async fn a_request_that_times_out_changes_nothing() {
    let _gate = crate::common::shared().await;
    // A deadline of a millisecond: some of the 132 requests at once below wait longer than
    // that for their turn at the board, and are answered 408.
    let server = Server::start(&[
        "--request-timeout",
        "0.001",
        "--rate",
        "100000",
        "--max-connections",
        "512",
        "--max-connections-per-address",
        "512",
    ]);
    let mut w = server.watch().await;
    // 132 boards: each first move with three replies.
    let mut boards = Vec::new();
    let mut pos = pao::board::Position::startpos();
    for &first in pos.legal_moves().iter() {
        pos.make_move(first);
        for reply in pos.legal_moves().iter().take(3) {
            boards.push(format!("{first} {reply}"));
        }
        pos.unmake_move();
    }
    assert_eq!(boards.len(), 132);
    // A connection per request: the server closes one whose body it did not read.
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(0)
        .timeout(TIMEOUT)
        .build()
        .expect("client");
    let mut timed_out = 0;
    for round in 0..5 {
        let requests = boards.iter().map(|m| {
            let moves: Vec<&str> = m.split(' ').collect();
            let mut rb = client
                .post(format!("{}/api/position", server.base))
                .json(&json!({ "moves": moves }));
            if let Some(t) = &server.token {
                rb = rb.bearer_auth(t);
            }
            async move {
                match rb.send().await {
                    Ok(r) => {
                        let status = r.status().as_u16();
                        (m, Some(status), r.text().await.unwrap_or_default())
                    }
                    // A 408 that came before the body was read closes the connection, which
                    // can reset it before the client reads the answer.
                    Err(_) => (m, None, String::new()),
                }
            }
        });
        let answers = futures_util::future::join_all(requests).await;
        let mut applied = std::collections::BTreeSet::new();
        for (m, status, text) in &answers {
            match status {
                Some(200) => {
                    applied.insert(m.to_string());
                }
                Some(408) => {
                    assert_eq!(text, "the request took too long; nothing was changed\n");
                    timed_out += 1;
                }
                None => {}
                Some(s) => panic!("{m}: {s} {text}"),
            }
        }
        // The boards the watchers saw are exactly those of the requests answered 200, also
        // long after the 408s went out.
        tokio::time::sleep(Duration::from_millis(500)).await;
        let mut seen = std::collections::BTreeSet::new();
        while let Some(ev) = w.next_within(Duration::from_millis(500)).await {
            if ev["type"] == "position" {
                let moves = strings(&ev["moves"]);
                seen.insert(moves.join(" "));
            }
        }
        let unanswered = answers.iter().filter(|a| a.1.is_none()).count();
        println!(
            "round {round}: {} answered 200, {timed_out} 408 so far, {unanswered} closed before the answer",
            applied.len()
        );
        assert_eq!(seen, applied, "round {round}");
        if timed_out > 0 {
            return;
        }
    }
    panic!("no request timed out: the test proved nothing");
}

#[tokio::test]
async fn the_state_gives_the_clocks_as_they_run() {
    let _gate = crate::common::shared().await;
    let server = Server::start(&[]);
    let http = server.http();
    let sent = Instant::now();
    let r = http
        .post("/api/game", json!({"human": "red", "base_ms": 60000}))
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let answered = Instant::now();
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let asked = Instant::now();
    let game = http.state().await["game"].clone();
    let got = Instant::now();
    // Red's clock started between `sent` and `answered`, and was read between `asked` and
    // `got`: it has run at least the time between the answer and the question, at most the
    // time between the first request and the last answer.
    let red_ms = game["red_ms"].as_u64().expect("red_ms");
    let least = (asked - answered).as_millis() as u64;
    let most = (got - sent).as_millis() as u64;
    assert!(
        (60000 - most..=60000 - least).contains(&red_ms),
        "red_ms {red_ms}, ran between {least} and {most} ms: {game}"
    );
    assert_eq!(game["black_ms"], 60000);
    assert_eq!(game["running"], "red");
}
