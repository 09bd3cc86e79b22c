//! Watcher places: a watcher that never reads its first message, one that stops answering
//! pings (a peer that vanished), upgrades at the same moment beyond `--max-watchers`, and a
//! watcher that falls more than `--queue` events behind.

use crate::common::{
    connect_from, horse_dance, read_status, upgrade_request, Server, Watcher, TIMEOUT,
};
use serde_json::json;
use std::time::{Duration, Instant};
use tokio::io::AsyncWriteExt;
use tokio_tungstenite::MaybeTlsStream;

/// Tries to become a watcher until it works; returns the watcher and how long it took.
async fn watcher_within(server: &Server, limit: Duration) -> (Watcher, Duration) {
    let started = Instant::now();
    loop {
        match server.try_watch(None).await {
            Ok(w) => return (w, started.elapsed()),
            Err(e) => {
                assert!(e.contains("503"), "{e}");
                assert!(
                    started.elapsed() < limit,
                    "still no place for a watcher after {limit:?}"
                );
            }
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn dropped(server: &Server) -> u64 {
    server.http().state().await["server"]["dropped"]
        .as_u64()
        .expect("dropped")
}

#[tokio::test]
async fn a_watcher_that_never_reads_its_first_message_is_dropped() {
    let _gate = crate::common::shared().await;
    let server = Server::start(&[
        "--max-watchers",
        "1",
        "--send-timeout",
        "1",
        "--send-buffer",
        "4096",
        "--rate",
        "100000",
    ]);
    let http = server.http();
    // A large state: a position of 1,000 moves and 44 lines of analysis.
    let r = http
        .post("/api/position", json!({ "moves": horse_dance(1000) }))
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(
        http.post("/api/options", json!({"multipv": 44}))
            .await
            .status,
        200
    );
    assert_eq!(http.post("/api/go", json!({})).await.status, 200);
    let deadline = Instant::now() + TIMEOUT;
    let mut size = 0;
    while size < 16_000 {
        assert!(Instant::now() < deadline, "the state stays at {size} bytes");
        tokio::time::sleep(Duration::from_millis(100)).await;
        size = http.get("/api/state").await.text.len();
    }
    assert_eq!(http.post("/api/stop", json!({})).await.status, 200);
    // A watcher whose receive buffer is about 1 KiB, that reads the upgrade's answer and
    // nothing more: the state (over 16 KB) does not fit in the sockets' buffers (about 6 KB).
    let mut silent = connect_from(server.addr, [127, 0, 0, 2], Some(1024)).await;
    silent
        .write_all(upgrade_request(server.addr, server.token.as_deref()).as_bytes())
        .await
        .expect("send the upgrade");
    assert_eq!(read_status(&mut silent, TIMEOUT).await, Some(101));
    // It holds the only place, until the send timeout drops it.
    let err = server.try_watch(None).await.err();
    assert!(err.is_some_and(|e| e.contains("503")));
    let (mut w, waited) = watcher_within(&server, Duration::from_secs(8)).await;
    println!("a watcher that did not read its state was dropped; another got in after {waited:?}");
    assert_eq!(w.state["server"]["dropped"], 1);
    assert_eq!(dropped(&server).await, 1);
    assert_eq!(
        w.state["position"]["moves"].as_array().map(Vec::len),
        Some(1000)
    );
    assert!(!w.closed_within(Duration::from_millis(300)).await);
}

#[tokio::test]
async fn a_watcher_that_does_not_answer_pings_is_dropped() {
    let _gate = crate::common::shared().await;
    let server = Server::start(&[
        "--max-watchers",
        "1",
        "--ping-interval",
        "0.3",
        "--ping-timeout",
        "1",
    ]);
    // A watcher takes the state and then is never read again, as if its machine vanished:
    // nothing answers the server's pings (no events flow, so nothing else would notice).
    let gone = server.watch().await;
    let err = server.try_watch(None).await.err();
    assert!(err.is_some_and(|e| e.contains("503")));
    let (mut w, waited) = watcher_within(&server, Duration::from_secs(8)).await;
    println!("a watcher that did not answer pings was dropped; another got in after {waited:?}");
    assert_eq!(dropped(&server).await, 1);
    // A watcher that reads answers the pings (its library does) and stays.
    assert!(
        !w.closed_within(Duration::from_secs(3)).await,
        "a watcher that answers pings was dropped"
    );
    assert_eq!(dropped(&server).await, 1);
    drop(gone);
}

/// Through real sockets an upgrade completes as soon as it is answered, so this shows the
/// limit and the places coming back; upgrades held half done, where a count taken only after
/// the upgrade would let every one through, are forced in process (`src/serve/tests.rs`).
#[tokio::test]
async fn upgrades_at_the_same_moment_stay_within_the_limit() {
    let _gate = crate::common::shared().await;
    let server = Server::start(&["--max-watchers", "2", "--rate", "100000"]);
    let mut sockets = Vec::new();
    for _ in 0..16 {
        sockets.push(connect_from(server.addr, [127, 0, 0, 1], None).await);
    }
    // Every upgrade is sent before any answer is read.
    let request = upgrade_request(server.addr, server.token.as_deref());
    let sends = sockets.iter_mut().map(|s| s.write_all(request.as_bytes()));
    for r in futures_util::future::join_all(sends).await {
        r.expect("send the upgrade");
    }
    let reads = sockets.iter_mut().map(|s| read_status(s, TIMEOUT));
    let statuses = futures_util::future::join_all(reads).await;
    let upgraded = statuses.iter().filter(|&&s| s == Some(101)).count();
    let refused = statuses.iter().filter(|&&s| s == Some(503)).count();
    assert_eq!((upgraded, refused), (2, 14), "{statuses:?}");
    let http = server.http();
    assert_eq!(http.state().await["server"]["watchers"], 2);
    // Places come back when watchers leave.
    drop(sockets);
    let (_w, _) = watcher_within(&server, Duration::from_secs(5)).await;
    let (_v, _) = watcher_within(&server, Duration::from_secs(5)).await;
    assert_eq!(http.state().await["server"]["watchers"], 2);
}

/// A watcher with a small receive buffer that reads its state, then stops reading while 40
/// large events go out, then reads again: returns it.
async fn paused_through_a_burst(server: &Server) -> Watcher {
    let stream = connect_from(server.addr, [127, 0, 0, 2], Some(1024)).await;
    let (ws, _) =
        tokio_tungstenite::client_async(server.ws_request(), MaybeTlsStream::Plain(stream))
            .await
            .expect("upgrade");
    let w = Watcher::from_stream(ws).await.expect("the state");
    let http = server.http();
    // Each board of 1,000 moves is an event of about 8 KB; 40 of them, 320 KB, fill the
    // sockets' buffers (about 100 KB) and hold up the watcher's task.
    let body = json!({ "moves": horse_dance(1000) });
    for _ in 0..40 {
        assert_eq!(http.post("/api/position", body.clone()).await.status, 200);
    }
    w
}

#[tokio::test]
async fn queue_bounds_how_far_a_watcher_may_fall_behind() {
    let _gate = crate::common::shared().await;
    for (queue, kept) in [("8", false), ("1024", true)] {
        let server = Server::start(&["--queue", queue, "--send-timeout", "60", "--rate", "100000"]);
        let mut w = paused_through_a_burst(&server).await;
        let mut positions = 0;
        while let Some(ev) = w.next_within(Duration::from_secs(3)).await {
            if ev["type"] == "position" {
                positions += 1;
            }
        }
        if kept {
            assert_eq!(positions, 40, "--queue {queue}");
            assert_eq!(w.close_reason, None, "--queue {queue}");
            assert_eq!(dropped(&server).await, 0);
        } else {
            assert!(positions < 40, "--queue {queue}: {positions}");
            assert_eq!(
                w.close_reason.as_deref(),
                Some("fell behind the stream"),
                "--queue {queue}"
            );
            assert_eq!(dropped(&server).await, 1);
        }
    }
}
