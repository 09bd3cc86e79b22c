//! The server in process, over in-memory connections whose buffers the test controls: what
//! cannot be arranged through real sockets. An upgrade is complete only once its answer
//! (101) has been written, and a real socket always has room for it; a pipe of 64 bytes has
//! not, so upgrades can be held half done while others are asked for.

use super::api;
use super::app::{App, Limits};
use super::auth::{Access, Gate};
use super::control::{self, Control};
use super::engine::Engine;
use super::events::OptionsView;
use super::hub::Hub;
use super::limits::{ConnectionSlots, RateLimiter};
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;
use parking_lot::Mutex;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt, DuplexStream};
use tower::ServiceExt;

/// A server without a token on port 1 (the Host the requests name), with `max_watchers`.
fn server(max_watchers: usize) -> (axum::Router, Arc<App>) {
    let options = OptionsView {
        threads: 1,
        hash: 1,
        multipv: 1,
        wdl: false,
        max_threads: 1,
        max_hash: 1,
    };
    let mut start = crate::board::Position::startpos();
    let position = control::position_view(crate::board::START_FEN, &[], &mut start);
    let (finished, _) = tokio::sync::mpsc::unbounded_channel();
    let hub = Arc::new(Hub::new(position, options.clone(), 64, finished));
    let engine = Engine::start(Arc::clone(&hub)).expect("the engine");
    let control = Arc::new(Mutex::new(Control::new(engine, Arc::clone(&hub), options)));
    let limiter = Arc::new(RateLimiter::new(1000));
    let app = Arc::new(App {
        hub,
        control,
        limiter: Arc::clone(&limiter),
        watchers: ConnectionSlots::new(max_watchers, max_watchers),
        limits: Limits {
            max_body: 1024,
            max_message: 1024,
            max_watchers,
            max_watchers_per_client: max_watchers,
            send_timeout: Duration::from_secs(10),
            ping_interval: Duration::from_secs(60),
            ping_timeout: Duration::from_secs(60),
            request_timeout: Duration::from_secs(10),
        },
    });
    let gate = Arc::new(Gate {
        access: Access::new(None, SocketAddr::from(([127, 0, 0, 1], 1)), Vec::new()),
        holders: limiter,
        others: RateLimiter::new(1000),
    });
    (api::router(Arc::clone(&app), gate), app)
}

/// A connection to `router` through a pipe of `buffer` bytes each way; returns the client's
/// end.
fn connect(router: &axum::Router, buffer: usize) -> DuplexStream {
    let (client, server) = tokio::io::duplex(buffer);
    let router = router.clone();
    let peer = SocketAddr::from(([127, 0, 0, 1], 40000));
    tokio::spawn(async move {
        let service = hyper::service::service_fn(move |mut req: hyper::Request<Incoming>| {
            req.extensions_mut().insert(ConnectInfo(peer));
            router.clone().oneshot(req)
        });
        let _ = hyper::server::conn::http1::Builder::new()
            .serve_connection(TokioIo::new(server), service)
            .with_upgrades()
            .await;
    });
    client
}

/// The status of the answer at the start of `stream`.
async fn status(stream: &mut DuplexStream) -> u16 {
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n") {
        stream.read_exact(&mut byte).await.expect("an answer");
        head.push(byte[0]);
    }
    let line = String::from_utf8_lossy(&head);
    line.split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("a status")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn upgrades_held_half_done_stay_within_the_watcher_limit() {
    let (router, app) = server(2);
    let upgrade = "GET /ws HTTP/1.1\r\nHost: 127.0.0.1:1\r\nConnection: Upgrade\r\n\
                   Upgrade: websocket\r\nSec-WebSocket-Version: 13\r\n\
                   Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n";
    // Sixteen upgrades asked for, none of whose answers can be written whole until read.
    let mut clients = Vec::new();
    for _ in 0..16 {
        let mut c = connect(&router, 64);
        c.write_all(upgrade.as_bytes()).await.expect("the request");
        clients.push(c);
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let mut statuses = Vec::new();
    for c in &mut clients {
        statuses.push(status(c).await);
    }
    let upgraded = statuses.iter().filter(|&&s| s == 101).count();
    assert_eq!(upgraded, 2, "{statuses:?}");
    assert_eq!(statuses.iter().filter(|&&s| s == 503).count(), 14);
    // The two hold their places from before their answers; when they close, the places come
    // back.
    assert_eq!(app.hub.server_view().watchers, 2);
    drop(clients);
    let mut waited = 0;
    while app.hub.server_view().watchers > 0 {
        assert!(waited < 100, "the places did not come back");
        tokio::time::sleep(Duration::from_millis(20)).await;
        waited += 1;
    }
    app.control.lock().shutdown();
}
