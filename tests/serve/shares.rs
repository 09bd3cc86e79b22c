//! What clients without the token, and one client, can take from the others: the rate of
//! requests without the token is its own (those with it keep theirs even when everyone
//! shares a proxy's address), a watcher's pings count against the rate, watchers are capped
//! per address, and a request that names another host (an absolute URI, a second Host) is
//! refused.

use crate::common::{connect_from, raw_status, read_status, upgrade_request, Server, TIMEOUT};
use std::time::Duration;
use tokio::io::AsyncWriteExt;

const TOKEN: &str = "shares-test-token-0123456789";

#[tokio::test]
async fn requests_without_the_token_cannot_spend_the_holders_rate() {
    let _gate = crate::common::shared().await;
    let server = Server::start(&["--token", TOKEN, "--rate", "10"]);
    // Everyone from one address, as behind a proxy: 250 requests without the token...
    let client = reqwest::Client::new();
    let mut codes = Vec::new();
    for _ in 0..250 {
        let r = client
            .get(format!("{}/api/state", server.base))
            .send()
            .await
            .expect("reply");
        codes.push(r.status().as_u16());
    }
    assert!(codes.iter().all(|&c| c == 401 || c == 429), "{codes:?}");
    // ...are limited themselves (guessing the token is slow)...
    assert!(codes.contains(&429), "{codes:?}");
    // ...and leave the holder's ten a second whole.
    let http = server.http();
    for i in 0..10 {
        let r = http.get("/api/state").await;
        assert_eq!(r.status, 200, "request {i} with the token: {}", r.text);
    }
}

#[tokio::test]
async fn a_watchers_pings_count_against_the_rate() {
    let _gate = crate::common::shared().await;
    let server = Server::start(&["--token", TOKEN, "--rate", "10"]);
    let mut w = server.watch().await;
    for _ in 0..300 {
        if w.send_ping().await.is_err() {
            break;
        }
    }
    assert!(w.closed_within(TIMEOUT).await, "300 pings at a rate of 10");
    // Another watcher, later, is served.
    tokio::time::sleep(Duration::from_millis(1200)).await;
    server.watch().await;
}

#[tokio::test]
async fn watchers_are_capped_per_address() {
    let _gate = crate::common::shared().await;
    let server = Server::start(&[
        "--token",
        TOKEN,
        "--max-watchers",
        "8",
        "--max-watchers-per-address",
        "3",
        "--rate",
        "100000",
    ]);
    let mut held = Vec::new();
    for _ in 0..3 {
        held.push(server.watch().await);
    }
    let err = server.try_watch(None).await.err();
    assert!(
        err.as_deref().is_some_and(|e| e.contains("503")),
        "a fourth from one address: {err:?}"
    );
    let ask = format!("GET /ws HTTP/1.1\r\nHost: {}\r\nAuthorization: Bearer {TOKEN}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n", server.addr);
    let mut s = connect_from(server.addr, [127, 0, 0, 1], None).await;
    s.write_all(ask.as_bytes()).await.expect("send");
    let mut body = Vec::new();
    assert_eq!(read_status(&mut s, TIMEOUT).await, Some(503));
    let _ = tokio::time::timeout(
        Duration::from_secs(2),
        tokio::io::AsyncReadExt::read_buf(&mut s, &mut body),
    )
    .await;
    assert_eq!(
        String::from_utf8_lossy(&body),
        "too many watchers from this address (at most 3)\n"
    );
    // Another address has its own share.
    let mut other = connect_from(server.addr, [127, 0, 0, 2], None).await;
    other
        .write_all(upgrade_request(server.addr, Some(TOKEN)).as_bytes())
        .await
        .expect("send");
    assert_eq!(read_status(&mut other, TIMEOUT).await, Some(101));
    // A place given back is taken again.
    held.pop();
    let mut waited = 0;
    while server.try_watch(None).await.is_err() {
        assert!(waited < 100, "the place did not come back");
        tokio::time::sleep(Duration::from_millis(50)).await;
        waited += 1;
    }
}

#[tokio::test]
async fn a_request_for_another_host_is_refused() {
    let _gate = crate::common::shared().await;
    for args in [&["--no-token"][..], &["--token", TOKEN][..]] {
        let server = Server::start(args);
        let host = server.addr.to_string();
        let auth = if args[0] == "--token" {
            format!("Authorization: Bearer {TOKEN}\r\n")
        } else {
            String::new()
        };
        let ask = |target: &str, hosts: &[&str]| {
            let hosts: String = hosts.iter().map(|h| format!("Host: {h}\r\n")).collect();
            format!("GET {target} HTTP/1.1\r\n{hosts}{auth}Connection: close\r\n\r\n")
        };
        let from = [127, 0, 0, 1];
        assert_eq!(
            raw_status(server.addr, from, &ask("/api/state", &[&host])).await,
            Some(200),
            "{args:?}"
        );
        for (what, request) in [
            (
                "an absolute URI for another host",
                ask("http://evil.example/api/state", &[&host]),
            ),
            (
                "an absolute URI for this one",
                ask(&format!("http://{host}/api/state"), &[&host]),
            ),
            ("a second Host", ask("/api/state", &[&host, "evil.example"])),
            ("the same Host twice", ask("/api/state", &[&host, &host])),
        ] {
            assert_eq!(
                raw_status(server.addr, from, &request).await,
                Some(400),
                "{args:?}: {what}"
            );
        }
    }
}
