//! The accept loop: HTTP/1.1 connections (WebSocket upgrades included) with a cap on how many
//! are open in all and from one client, a deadline for a request's headers (a connection that
//! sends half a request, or none, is closed), a deadline for the peer to take what is written
//! (`timed_io`), a small header buffer and a bounded send buffer per socket.

use super::limits::ConnectionSlots;
use super::timed_io::TimedWrites;
use axum::extract::ConnectInfo;
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::time::Duration;
use tokio::net::TcpListener;
use tower::ServiceExt;

/// Largest request head (line and headers), bytes.
const MAX_HEAD: usize = 16 * 1024;

/// How many connections, and how long each may stall.
#[derive(Clone, Debug)]
pub struct ConnectionLimits {
    /// Connections open at once, in all.
    pub max: usize,
    /// Connections open at once from one client (an address; for IPv6 its /64).
    pub per_client: usize,
    /// Longest a client may take to send a request's headers.
    pub header_timeout: Duration,
    /// Longest the peer may take to accept what is written once the socket's buffer is full.
    pub send_timeout: Duration,
    /// A socket's kernel send buffer, bytes: enough for the usual event, small enough that a
    /// watcher that stops reading fills it soon and is noticed.
    pub send_buffer: usize,
}

/// Serves `app` on `listener` until the process ends. A connection past the limits is closed
/// as soon as it is accepted. A connection leaves the count when it closes or becomes a
/// WebSocket (watchers have their own limit).
pub async fn serve(listener: TcpListener, app: Router, limits: ConnectionLimits) {
    let slots = ConnectionSlots::new(limits.max, limits.per_client);
    loop {
        let (stream, peer) = match listener.accept().await {
            Ok(s) => s,
            Err(_) => {
                // Out of descriptors or a connection reset before accept: try again shortly.
                tokio::time::sleep(Duration::from_millis(10)).await;
                continue;
            }
        };
        let Ok(slot) = slots.take(peer.ip()) else {
            drop(stream);
            continue;
        };
        let _ = stream.set_nodelay(true);
        let _ = socket2::SockRef::from(&stream).set_send_buffer_size(limits.send_buffer);
        let app = app.clone();
        let (header_timeout, send_timeout) = (limits.header_timeout, limits.send_timeout);
        tokio::spawn(async move {
            let service = hyper::service::service_fn(move |mut req: hyper::Request<Incoming>| {
                req.extensions_mut().insert(ConnectInfo(peer));
                app.clone().oneshot(req)
            });
            let mut http = hyper::server::conn::http1::Builder::new();
            http.timer(TokioTimer::new())
                .header_read_timeout(header_timeout)
                .max_buf_size(MAX_HEAD);
            let io = TokioIo::new(TimedWrites::new(stream, send_timeout));
            let _ = http.serve_connection(io, service).with_upgrades().await;
            drop(slot);
        });
    }
}
