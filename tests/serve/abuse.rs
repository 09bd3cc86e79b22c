//! Abuse: fuzzed requests and WebSocket frames against a server with a token, listening on
//! every address and reached through loopback, while it analyses: bad JSON, huge bodies,
//! wrong tokens, random paths and methods, raw garbage, paths that climb out of the API,
//! half-open connections and random frames. Nothing may panic, every answer must be one of
//! the documented refusals, nothing but the page and the API may answer 200, no file of the
//! machine may show, and at the end the analysis still answers.
//!
//! The whole run takes seconds (most of it waiting for the header deadline), so CI runs it
//! in full:  cargo test --release --test serve -- --nocapture

use crate::common::{Server, Watcher};
use futures_util::SinkExt;
use serde_json::json;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::Semaphore;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;
use tokio_tungstenite::tungstenite::Message;

const TOKEN: &str = "abuse-test-token-0123456789";

/// Texts that would show a file of the machine (or of the source tree) leaked.
const LEAKS: [&str; 6] = [
    "root:",
    "[package]",
    "fn main",
    "PATH=",
    "HOME=",
    "\u{7f}ELF",
];

/// The routes that may answer 200 (method, path), and the page.
const ROUTES: [(&str, &str); 13] = [
    ("GET", "/"),
    ("GET", "/ws"),
    ("GET", "/api/state"),
    ("GET", "/api/pgn"),
    ("POST", "/api/position"),
    ("POST", "/api/move"),
    ("POST", "/api/undo"),
    ("POST", "/api/go"),
    ("POST", "/api/stop"),
    ("POST", "/api/options"),
    ("POST", "/api/clear-hash"),
    ("POST", "/api/game"),
    ("POST", "/api/game/resign"),
];

/// A small deterministic generator (xorshift64*), so that a failure can be replayed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
    fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }
    /// Fewer than `max` random bytes.
    fn some_bytes(&mut self, max: usize) -> Vec<u8> {
        let n = self.below(max);
        self.bytes(n)
    }
}

/// A fuzzed JSON body: random bytes, a valid body mutated, deep nesting, odd values.
fn bad_json(rng: &mut Rng) -> Vec<u8> {
    let valid = [
        r#"{"move":"h2e2"}"#,
        r#"{"fen":"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1","moves":["h2e2"]}"#,
        r#"{"threads":1,"multipv":2,"wdl":true}"#,
        r#"{"human":"red","base_ms":60000,"inc_ms":0}"#,
        r#"{}"#,
    ];
    match rng.below(6) {
        0 => {
            let n = rng.below(200);
            rng.bytes(n)
        }
        1 | 2 => {
            let mut b = rng.pick(&valid).as_bytes().to_vec();
            for _ in 0..1 + rng.below(4) {
                let at = rng.below(b.len() + 1);
                match rng.below(3) {
                    0 if at < b.len() => {
                        b.remove(at);
                    }
                    1 if at < b.len() => b[at] = rng.next() as u8,
                    _ => b.insert(at, *rng.pick(b"{}[]\",:0-e\\\x00\xff")),
                }
            }
            b
        }
        3 => {
            let depth = 100 + rng.below(5000);
            let mut b = vec![b'['; depth];
            b.extend(vec![b']'; depth]);
            b
        }
        4 => rng
            .pick(&[
                r#"{"move":1e999}"#,
                r#"{"threads":18446744073709551616}"#,
                r#"{"hash":-1}"#,
                r#"{"moves":"h2e2"}"#,
                r#"{"fen":null}"#,
                r#"{"move":"\ud800"}"#,
                r#"{"EvalFile":"/etc/passwd"}"#,
                r#"{"bookfile":"../../etc/shadow"}"#,
                r#"{"human":"red","base_ms":99999999999999}"#,
                r#"{"move":"h2e2","move":"h0g2"}"#,
            ])
            .as_bytes()
            .to_vec(),
        _ => format!(r#"{{"moves":[{}]}}"#, vec![r#""h2e2""#; 1500].join(",")).into_bytes(),
    }
}

/// A path that tries to leave the API.
fn odd_path(rng: &mut Rng) -> String {
    let parts = [
        "..",
        "%2e%2e",
        "%2E%2E%2F",
        "etc",
        "passwd",
        "proc",
        "self",
        "environ",
        "api",
        "ws",
        "Cargo.toml",
        "src",
        "main.rs",
        "target",
        "release",
        "pao",
        "app.js",
        "index.html",
        "page",
        "%00",
        "~",
        "",
        ".",
        "%2f",
        "\\..\\",
        "state",
        "game",
    ];
    let mut p = String::new();
    for _ in 0..1 + rng.below(6) {
        p.push('/');
        p.push_str(rng.pick::<&str>(&parts));
    }
    if rng.below(10) == 0 {
        p.push_str(&"a".repeat(rng.below(6000)));
    }
    p
}

#[derive(Default)]
struct Tally {
    /// Status (or "error: ...") -> count, per kind of abuse.
    seen: BTreeMap<String, u64>,
    problems: Vec<String>,
    total: u64,
}

impl Tally {
    fn note(&mut self, kind: &str, outcome: &str) {
        *self.seen.entry(format!("{kind} {outcome}")).or_default() += 1;
        self.total += 1;
    }
    fn problem(&mut self, what: String) {
        if self.problems.len() < 20 {
            self.problems.push(what);
        }
    }
}

/// One raw HTTP exchange: the status and the body, or what went wrong. Closed connections
/// and timeouts are answers too (the server may hang up on garbage).
async fn raw(addr: std::net::SocketAddr, bytes: &[u8]) -> Result<(u16, String), String> {
    let mut s = TcpStream::connect(addr).await.map_err(|e| e.to_string())?;
    s.write_all(bytes)
        .await
        .map_err(|e| format!("write: {e}"))?;
    let mut buf = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(5), async {
        let mut chunk = [0u8; 8192];
        loop {
            match s.read(&mut chunk).await {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    buf.extend_from_slice(&chunk[..n]);
                    if let Some(end) = find_end(&buf) {
                        if buf.len() >= end {
                            break;
                        }
                    }
                }
            }
        }
    })
    .await;
    let text = String::from_utf8_lossy(&buf).to_string();
    if read.is_err() && text.is_empty() {
        return Err("no answer".to_string());
    }
    let status = text
        .strip_prefix("HTTP/1.1 ")
        .and_then(|t| t.get(..3))
        .and_then(|c| c.parse().ok())
        .ok_or_else(|| "closed".to_string())?;
    Ok((status, text))
}

/// Where a response with a Content-Length ends.
fn find_end(buf: &[u8]) -> Option<usize> {
    let text = String::from_utf8_lossy(buf);
    let head_end = text.find("\r\n\r\n")? + 4;
    let len = text[..head_end]
        .lines()
        .find_map(|l| {
            l.to_ascii_lowercase()
                .strip_prefix("content-length:")
                .map(|v| v.trim().parse::<usize>().unwrap_or(0))
        })
        .unwrap_or(0);
    Some(head_end + len)
}

fn leaks(text: &str) -> Option<&'static str> {
    LEAKS.iter().find(|l| text.contains(**l)).copied()
}

async fn abuse(count: u64) {
    let server = Server::start(&[
        "--listen",
        "0.0.0.0:0",
        "--token",
        TOKEN,
        "--rate",
        "1000000",
        "--max-threads",
        "1",
        "--max-hash",
        "32",
        "--max-connections",
        "512",
        "--max-connections-per-address",
        "512",
        "--max-watchers",
        "256",
        "--header-timeout",
        "3",
    ]);
    let addr = server.addr;
    let http = server.http();
    let mut watcher = server.watch().await;
    assert_eq!(http.post("/api/go", json!({})).await.status, 200);
    watcher.until_type("info").await;

    // Half-open connections: half a request each, held open throughout.
    let mut half_open: Vec<TcpStream> = Vec::new();
    for i in 0..100 {
        let mut s = TcpStream::connect(addr).await.expect("connect");
        let part = format!(
            "GET /api/state HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {TOKEN}\r\nX-{i}: "
        );
        s.write_all(part.as_bytes()).await.expect("write");
        half_open.push(s);
    }
    let opened_at = Instant::now();

    let tally = Arc::new(Mutex::new(Tally::default()));
    let seed = 0x5EED_0000_0000_2911u64;
    println!("abuse: {count} requests and frames, seed {seed:#x}");
    let started = Instant::now();
    let gate = Arc::new(Semaphore::new(16));
    let mut tasks = Vec::new();
    // Each task does a batch of 20 of one kind.
    let batches = count.div_ceil(20);
    for b in 0..batches {
        let permit = Arc::clone(&gate).acquire_owned().await.expect("gate");
        let tally = Arc::clone(&tally);
        // A connection per request: the server may close one after a refusal whose body it
        // did not read, and a pooled connection would race that close.
        let mut http = http.clone();
        http.client = reqwest::Client::builder()
            .pool_max_idle_per_host(0)
            .timeout(Duration::from_secs(20))
            .build()
            .expect("client");
        let mut rng = Rng(seed ^ (b + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        tasks.push(tokio::spawn(async move {
            let kind = b % 7;
            for _ in 0..20 {
                match kind {
                    0 => {
                        let (_, path) = *rng.pick(&ROUTES[4..]);
                        let r = http.post_raw(path, "application/json", bad_json(&mut rng)).await;
                        let mut t = tally.lock().expect("tally");
                        t.note("bad-json", &r.status.to_string());
                        if ![200, 400, 409, 413, 415].contains(&r.status) {
                            t.problem(format!("bad JSON to {path}: {} {}", r.status, r.text));
                        }
                        if r.status != 200 && r.text.trim_end().lines().count() != 1 {
                            t.problem(format!("not one line: {:?}", r.text));
                        }
                    }
                    1 => {
                        let size = *rng.pick(&[17_000usize, 65_536, 300_000, 1 << 20]);
                        let (_, path) = *rng.pick(&ROUTES[4..]);
                        let url = format!("{}{path}", http.base);
                        let res = http
                            .client
                            .post(url)
                            .bearer_auth(TOKEN)
                            .header("Content-Type", "application/json")
                            .body(vec![b' '; size])
                            .send()
                            .await;
                        let outcome = match res {
                            Ok(r) => r.status().as_u16().to_string(),
                            Err(_) => "closed".to_string(),
                        };
                        let mut t = tally.lock().expect("tally");
                        if outcome != "413" && outcome != "closed" {
                            t.problem(format!("{size}-byte body to {path}: {outcome}"));
                        }
                        t.note("huge-body", &outcome);
                    }
                    2 => {
                        let (method, path) = *rng.pick(&ROUTES);
                        let wrong = String::from_utf8_lossy(&rng.some_bytes(40))
                            .chars()
                            .filter(|c| c.is_ascii_alphanumeric())
                            .collect::<String>();
                        let wrong = if rng.below(4) == 0 {
                            TOKEN[..TOKEN.len() - 1].to_string()
                        } else {
                            wrong
                        };
                        let url = if rng.below(2) == 0 {
                            format!("{}{path}?token={wrong}", http.base)
                        } else {
                            format!("{}{path}", http.base)
                        };
                        let mut rb = http
                            .client
                            .request(method.parse().expect("method"), url)
                            .header("Content-Type", "application/json")
                            .body("{}");
                        if rng.below(2) == 0 {
                            rb = rb.header("Authorization", format!("Bearer {wrong}"));
                        }
                        let r = rb.send().await.expect("a reply");
                        let status = r.status().as_u16();
                        let mut t = tally.lock().expect("tally");
                        t.note("wrong-token", &status.to_string());
                        if status != 401 {
                            t.problem(format!("{method} {path} with token '{wrong}': {status}"));
                        }
                    }
                    3 => {
                        let path = odd_path(&mut rng);
                        let method = *rng.pick(&["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD", "TRACE"]);
                        let request = format!(
                            "{method} {path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {TOKEN}\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{{}}"
                        );
                        let outcome = raw(addr, request.as_bytes()).await;
                        let mut t = tally.lock().expect("tally");
                        match &outcome {
                            Ok((status, text)) => {
                                t.note("odd-path", &status.to_string());
                                // HEAD answers where GET does.
                                let as_get = if method == "HEAD" { "GET" } else { method };
                                let route = ROUTES.iter().any(|(m, p)| *m == as_get && *p == path);
                                if *status == 200 && !route {
                                    t.problem(format!("{method} {path} answered 200"));
                                }
                                if let Some(l) = leaks(text) {
                                    t.problem(format!("{method} {path} shows '{l}'"));
                                }
                                if *status >= 500 {
                                    t.problem(format!("{method} {path}: {status}"));
                                }
                            }
                            Err(e) => t.note("odd-path", e),
                        }
                    }
                    4 => {
                        // Garbage, broken request lines, oversized heads.
                        let bytes: Vec<u8> = match rng.below(4) {
                            0 => {
                                let n = 1 + rng.below(3000);
                                rng.bytes(n)
                            }
                            1 => b"GET /api/state HTTP/9.9\r\n\r\n".to_vec(),
                            2 => format!(
                                "GET / HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {TOKEN}\r\nX-Big: {}\r\n\r\n",
                                "b".repeat(20_000 + rng.below(40_000))
                            )
                            .into_bytes(),
                            _ => format!(
                                "POST /api/move HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {TOKEN}\r\nContent-Type: application/json\r\nContent-Length: 99999999999999999999\r\n\r\n{{}}"
                            )
                            .into_bytes(),
                        };
                        let outcome = raw(addr, &bytes).await;
                        let mut t = tally.lock().expect("tally");
                        match outcome {
                            Ok((status, text)) => {
                                t.note("garbage", &status.to_string());
                                if status < 400 {
                                    t.problem(format!("garbage answered {status}: {text:.200}"));
                                }
                            }
                            Err(e) => t.note("garbage", &e),
                        }
                    }
                    5 => {
                        // Random frames from watchers; one that is closed for its frames is
                        // replaced by a new one.
                        let mut request = format!("ws://{addr}/ws")
                            .into_client_request()
                            .expect("a request");
                        request.headers_mut().insert(
                            "Authorization",
                            HeaderValue::from_str(&format!("Bearer {TOKEN}")).expect("a header"),
                        );
                        let mut ws = None;
                        for _ in 0..20 {
                            if ws.is_none() {
                                ws = tokio_tungstenite::connect_async(request.clone())
                                    .await
                                    .ok()
                                    .map(|(w, _)| w);
                            }
                            let Some(w) = ws.as_mut() else {
                                tally.lock().expect("tally").note("frames", "refused");
                                continue;
                            };
                            let frame = match rng.below(5) {
                                0 => Message::Text(
                                    String::from_utf8_lossy(&rng.some_bytes(300))
                                        .to_string()
                                        .into(),
                                ),
                                1 => Message::Binary(rng.some_bytes(300).into()),
                                2 => Message::Text("x".repeat(5000 + rng.below(20_000)).into()),
                                3 => Message::Ping(rng.some_bytes(100).into()),
                                _ => Message::Text(r#"{"type":"go"}"#.into()),
                            };
                            let sent = w.send(frame).await.is_ok();
                            tally
                                .lock()
                                .expect("tally")
                                .note("frames", if sent { "sent" } else { "closed" });
                            if !sent {
                                ws = None;
                            }
                        }
                        if let Some(mut w) = ws {
                            let _ = w.close(None).await;
                        }
                        drop(permit);
                        return;
                    }
                    _ => {
                        // Raw bytes after a WebSocket handshake.
                        let key = "dGhlIHNhbXBsZSBub25jZQ==";
                        let mut request = format!(
                            "GET /ws HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {TOKEN}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
                        )
                        .into_bytes();
                        let n = 1 + rng.below(2000);
                        request.extend(rng.bytes(n));
                        let outcome = raw(addr, &request).await;
                        let mut t = tally.lock().expect("tally");
                        match outcome {
                            Ok((status, _)) => t.note("raw-frames", &status.to_string()),
                            Err(e) => t.note("raw-frames", &e),
                        }
                    }
                }
            }
            drop(permit);
        }));
    }
    for t in tasks {
        t.await.expect("a fuzz task");
    }
    let elapsed = started.elapsed();

    // Paths out of the API, one by one.
    for path in [
        "/etc/passwd",
        "/../../../../etc/passwd",
        "/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
        "/..%2f..%2f..%2fetc%2fpasswd",
        "/proc/self/environ",
        "/Cargo.toml",
        "/src/serve/mod.rs",
        "/src/serve/page/app.js",
        "/app.js",
        "/index.html",
        "/target/release/pao",
        "/api",
        "/api/",
        "/ws/../Cargo.toml",
        "//etc/passwd",
    ] {
        let request =
            format!("GET {path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {TOKEN}\r\nConnection: close\r\n\r\n");
        let (status, text) = raw(addr, request.as_bytes()).await.expect("an answer");
        assert!(status == 404 || status == 400, "{path}: {status}");
        assert_eq!(leaks(&text), None, "{path}: {text}");
    }

    {
        let t = tally.lock().expect("tally");
        println!("abuse: {} requests and frames in {elapsed:?}", t.total);
        for (k, n) in &t.seen {
            println!("  {k}: {n}");
        }
        assert!(t.problems.is_empty(), "problems: {:#?}", t.problems);
        assert!(t.total >= count, "only {} of {count}", t.total);
    }

    // The half-open connections are closed by the server at the header deadline (3 s).
    let mut waits = Vec::new();
    for mut s in half_open {
        waits.push(tokio::spawn(async move {
            let mut b = [0u8; 1];
            match tokio::time::timeout(Duration::from_secs(20), s.read(&mut b)).await {
                Ok(Ok(0)) | Ok(Err(_)) => Some(opened_at.elapsed()),
                _ => None,
            }
        }));
    }
    let mut closed = Vec::new();
    for w in waits {
        closed.extend(w.await.expect("a reader"));
    }
    closed.sort();
    println!(
        "half-open connections closed by the server: {} of 100, from {:?} to {:?}",
        closed.len(),
        closed.first(),
        closed.last()
    );
    assert_eq!(closed.len(), 100);
    // Counted from the last connection opened: the first ones were opened a little earlier.
    assert!(
        closed[0] >= Duration::from_millis(2500),
        "closed before the deadline"
    );

    // Still alive, no panic, and the analysis still answers.
    let mut server = server;
    assert!(server.alive(), "the server died");
    let errors = server.stderr();
    assert!(!errors.contains("panicked"), "{errors}");
    let mut w = Watcher::connect(&format!("ws://{addr}/ws"), Some(TOKEN), None)
        .await
        .expect("a watcher");
    http.post("/api/stop", json!({})).await;
    let _ = http.post("/api/game/resign", json!({})).await;
    let r = http.post("/api/position", json!({})).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(http.post("/api/go", json!({})).await.status, 200);
    let info = w.until_type("info").await;
    assert_eq!(http.post("/api/stop", json!({})).await.status, 200);
    let best = w.until_type("bestmove").await;
    assert_eq!(best["search"], info["search"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ten_thousand_fuzzed_requests_and_frames() {
    let _gate = crate::common::exclusive().await;
    abuse(10_000).await;
}
