//! The accept loop: HTTP/1.1 connections (WebSocket upgrades included) with a cap on how many
//! are open, a deadline for a request's headers (a connection that sends half a request is
//! closed), a small header buffer and a bounded send buffer per socket.

use axum::extract::ConnectInfo;
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tower::ServiceExt;

/// Largest request head (line and headers), bytes.
const MAX_HEAD: usize = 16 * 1024;
/// A socket's kernel send buffer: enough for any event, small enough that a watcher that
/// stops reading fills it soon and is noticed.
const SEND_BUFFER: usize = 64 * 1024;

/// Serves `app` on `listener` until the process ends, at most `max_connections` at once
/// (more are closed as soon as they are accepted); a client gets `header_timeout` to send a
/// request's headers.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    max_connections: usize,
    header_timeout: Duration,
) {
    let open = Arc::new(Semaphore::new(max_connections.max(1)));
    loop {
        let (stream, peer) = match listener.accept().await {
            Ok(s) => s,
            Err(_) => {
                // Out of descriptors or a connection reset before accept: try again shortly.
                tokio::time::sleep(Duration::from_millis(10)).await;
                continue;
            }
        };
        let Ok(permit) = Arc::clone(&open).try_acquire_owned() else {
            drop(stream);
            continue;
        };
        let _ = stream.set_nodelay(true);
        let _ = socket2::SockRef::from(&stream).set_send_buffer_size(SEND_BUFFER);
        let app = app.clone();
        tokio::spawn(async move {
            let service = hyper::service::service_fn(move |mut req: hyper::Request<Incoming>| {
                req.extensions_mut().insert(ConnectInfo(peer));
                app.clone().oneshot(req)
            });
            let mut http = hyper::server::conn::http1::Builder::new();
            http.timer(TokioTimer::new())
                .header_read_timeout(header_timeout)
                .max_buf_size(MAX_HEAD);
            let _ = http
                .serve_connection(TokioIo::new(stream), service)
                .with_upgrades()
                .await;
            drop(permit);
        });
    }
}
