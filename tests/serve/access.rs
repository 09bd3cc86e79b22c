//! Who gets in, and how much: the token on any address (401 for every route and the
//! upgrade), a given token, Host and Origin checks (403), requests through a proxy (403 with
//! `--no-token`), and the rate, message size and watcher limits (429, a closed socket, 503)
//! hit and survived.

use crate::common::{Server, Watcher, TIMEOUT};
use reqwest::Method;
use serde_json::json;
use std::time::Duration;

#[tokio::test]
async fn on_every_address_every_request_needs_the_token() {
    let _gate = crate::common::shared().await;
    // Listening on every address; reached through loopback.
    let server = Server::start(&["--listen", "0.0.0.0:0"]);
    let token = server.token.clone().expect("a generated token");
    assert_eq!(token.len(), 32);
    assert!(server.open_line.contains(&format!("/?token={token}")));
    let client = reqwest::Client::new();
    let http = server.http();
    for path in ["/", "/api/state", "/ws", "/nothing", "/api/pgn"] {
        let r = http.send_bare(Method::GET, path, &[]).await;
        assert_eq!(r.status, 401, "{path}");
        let why = if path == "/" {
            "missing or wrong token: open the address that pao serve printed when it started (it ends in /?token=...)\n"
        } else {
            "missing or wrong token\n"
        };
        assert_eq!(r.text, why, "{path}");
        let wrong = format!("{path}?token=0123456789abcdef0123456789abcdef");
        let r = http.send_bare(Method::GET, &wrong, &[]).await;
        assert_eq!(r.status, 401, "{path} with a wrong token");
    }
    let r = http
        .send_bare(
            Method::POST,
            "/api/go",
            &[("Authorization", "Bearer wrong")],
        )
        .await;
    assert_eq!(r.status, 401);
    // A WebSocket upgrade without the token.
    let url = format!("ws://{}/ws", server.addr);
    let err = Watcher::connect(&url, None, None)
        .await
        .err()
        .expect("refused");
    assert!(err.contains("401"), "{err}");
    // With it: in the header, or in the page's address as the printed link carries it.
    assert_eq!(http.get("/api/state").await.status, 200);
    let (r, csp) = http.open_link("content-security-policy").await;
    assert_eq!(r.status, 200);
    let csp = csp.unwrap_or_default();
    assert!(csp.contains("connect-src 'self'"), "{csp}");
    assert!(r.text.contains("<svg id=\"board\""));
    // Any Host is fine with a token (the server may have any name).
    let r = client
        .get(format!("{}/api/state", server.base))
        .bearer_auth(&token)
        .header("Host", "analysis.example.org:8080")
        .send()
        .await
        .expect("reply");
    assert_eq!(r.status().as_u16(), 200);
    let mut w = server.watch().await;
    http.post("/api/go", json!({})).await;
    w.until_type("info").await;
    http.post("/api/stop", json!({})).await;
    w.until_type("bestmove").await;
}

#[tokio::test]
async fn a_given_token_and_origins() {
    let _gate = crate::common::shared().await;
    let token = "correct-horse-battery-staple";
    let server = Server::start(&["--token", token, "--allow-origin", "https://friend.example"]);
    assert_eq!(server.token.as_deref(), Some(token));
    let own = format!("http://{}", server.addr);
    assert!(server.try_watch(Some(&own)).await.is_ok());
    assert!(server
        .try_watch(Some("https://friend.example"))
        .await
        .is_ok());
    let err = server.try_watch(Some("http://evil.example")).await.err();
    assert!(err.is_some_and(|e| e.contains("403")));
    // A cross-site POST is refused too.
    let r = reqwest::Client::new()
        .post(format!("{}/api/go", server.base))
        .bearer_auth(token)
        .header("Origin", "http://evil.example")
        .json(&json!({}))
        .send()
        .await
        .expect("reply");
    assert_eq!(r.status().as_u16(), 403);
    assert_eq!(r.text().await.expect("body"), "origin not allowed\n");
}

#[tokio::test]
async fn on_loopback_without_a_token_foreign_hosts_and_origins_are_refused() {
    let _gate = crate::common::shared().await;
    let server = Server::start(&["--no-token"]);
    assert_eq!(server.token, None);
    let client = reqwest::Client::new();
    for host in ["evil.example", "evil.example:80", "127.0.0.1.evil.example"] {
        let r = client
            .get(format!("{}/api/state", server.base))
            .header("Host", host)
            .send()
            .await
            .expect("reply");
        assert_eq!(r.status().as_u16(), 403, "{host}");
    }
    let port = server.addr.port();
    for host in [format!("localhost:{port}"), format!("127.0.0.1:{port}")] {
        let r = client
            .get(format!("{}/api/state", server.base))
            .header("Host", &host)
            .send()
            .await
            .expect("reply");
        assert_eq!(r.status().as_u16(), 200, "{host}");
    }
    let err = server.try_watch(Some("http://evil.example")).await.err();
    assert!(err.is_some_and(|e| e.contains("403")));
    let own = format!("http://localhost:{port}");
    let err = server.try_watch(Some(&own)).await.err();
    assert!(
        err.is_some_and(|e| e.contains("403")),
        "the origin must match the Host the page was loaded from"
    );
    assert!(server
        .try_watch(Some(&format!("http://127.0.0.1:{port}")))
        .await
        .is_ok());
}

#[tokio::test]
async fn rates_and_sizes_are_limited_and_the_server_survives() {
    let _gate = crate::common::shared().await;
    let server = Server::start(&[
        "--rate",
        "10",
        "--max-watchers",
        "2",
        "--max-message",
        "256",
    ]);
    let http = server.http();
    let mut codes = Vec::new();
    for _ in 0..15 {
        codes.push(http.get("/api/state").await.status);
    }
    let refused = codes.iter().filter(|&&c| c == 429).count();
    assert!(refused >= 4, "{codes:?}");
    assert_eq!(codes[..8], [200; 8], "{codes:?}");
    let r = http.get("/api/state").await;
    assert_eq!(r.text, "too many requests: at most 10 a second\n");
    tokio::time::sleep(Duration::from_millis(1200)).await;
    assert_eq!(http.get("/api/state").await.status, 200);

    // A watcher that sends too much is closed; so is one whose message is too large.
    tokio::time::sleep(Duration::from_millis(1200)).await;
    let mut chatty = server.watch().await;
    for i in 0..30 {
        if chatty.send_text(format!("hello {i}")).await.is_err() {
            break;
        }
    }
    assert!(chatty.closed_within(TIMEOUT).await);
    tokio::time::sleep(Duration::from_millis(1200)).await;
    let mut big = server.watch().await;
    let _ = big.send_text("x".repeat(10_000)).await;
    assert!(big.closed_within(TIMEOUT).await);

    // Two watchers at most.
    tokio::time::sleep(Duration::from_millis(1200)).await;
    let _a = server.watch().await;
    let mut b = server.watch().await;
    let err = server.try_watch(None).await.err();
    assert!(err.is_some_and(|e| e.contains("503")));

    // And everything still works.
    tokio::time::sleep(Duration::from_millis(1200)).await;
    assert_eq!(http.post("/api/go", json!({})).await.status, 200);
    b.until_type("info").await;
    assert_eq!(http.post("/api/stop", json!({})).await.status, 200);
    b.until_type("bestmove").await;
}

#[tokio::test]
async fn a_request_through_a_proxy_needs_a_token() {
    let _gate = crate::common::shared().await;
    // The loopback server without a token, behind a proxy on the same machine: the proxy
    // sends the upstream's own address as Host (nginx's default), and says for whom it
    // forwards.
    let server = Server::start(&["--no-token"]);
    let client = reqwest::Client::new();
    let host = format!("127.0.0.1:{}", server.addr.port());
    let headers = [
        ("X-Forwarded-For", "203.0.113.9"),
        ("X-Real-IP", "203.0.113.9"),
        ("Forwarded", "for=203.0.113.9;proto=https"),
        ("X-Forwarded-Proto", "https"),
        ("Via", "1.1 proxy.example"),
    ];
    let http = server.http();
    for (name, value) in headers {
        let r = http
            .send_bare(Method::POST, "/api/stop", &[("Host", &host), (name, value)])
            .await;
        assert_eq!(r.status, 403, "{name}");
        assert_eq!(
            r.text,
            format!(
                "forwarded by a proxy ({}): serving through a proxy needs the token; start pao serve without --no-token\n",
                name.to_ascii_lowercase()
            )
        );
        let r = http.send_bare(Method::GET, "/", &[(name, value)]).await;
        assert_eq!(r.status, 403, "the page, {name}");
    }
    let err = server
        .upgrade_with("X-Forwarded-For", "203.0.113.9")
        .await
        .err();
    assert!(err.is_some_and(|e| e.contains("403")));
    // The same request from this machine itself is served.
    let r = http
        .send_bare(Method::POST, "/api/stop", &[("Host", &host)])
        .await;
    assert_eq!(r.status, 200);
    drop(server);

    // With a token, a proxied request is served when it carries the token, and only then.
    let token = "proxy-test-token-0123456789";
    let server = Server::start(&["--token", token]);
    for bearer in [None, Some("wrong-token-0123456789")] {
        let mut rb = client
            .post(format!("{}/api/stop", server.base))
            .header("X-Forwarded-For", "203.0.113.9")
            .json(&json!({}));
        if let Some(b) = bearer {
            rb = rb.bearer_auth(b);
        }
        assert_eq!(rb.send().await.expect("reply").status().as_u16(), 401);
    }
    let r = client
        .post(format!("{}/api/stop", server.base))
        .header("X-Forwarded-For", "203.0.113.9")
        .header("Host", "analysis.example.org")
        .bearer_auth(token)
        .json(&json!({}))
        .send()
        .await
        .expect("reply");
    assert_eq!(r.status().as_u16(), 200);
}
