//! A watcher's WebSocket: the state first, then every event in order. Watchers only listen;
//! what they send is counted against their address's rate and otherwise ignored. A watcher
//! that falls more than the queue behind, or whose socket takes longer than the send timeout
//! (`--watcher-timeout`) to accept an event, is dropped: the others never wait for it.

use super::app::App;
use super::respond::refuse;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, State};
use axum::http::StatusCode;
use axum::response::Response;
use futures_util::{SinkExt, StreamExt};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::broadcast::error::RecvError;

/// A watcher's read buffer, bytes.
const BUFFER: usize = 4096;

/// Policy violation (RFC 6455).
const CLOSE_POLICY: u16 = 1008;

/// `GET /ws`: the upgrade, refused past the watcher limit.
pub async fn upgrade(
    State(app): State<Arc<App>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    ws: WebSocketUpgrade,
) -> Response {
    if app.hub.watchers() >= app.limits.max_watchers {
        return refuse(StatusCode::SERVICE_UNAVAILABLE, "too many watchers");
    }
    let size = app.limits.max_message;
    // Watchers send little, and each event is written at once: small buffers keep each
    // watcher's memory small (the defaults hold 128 KiB each way).
    ws.max_message_size(size)
        .max_frame_size(size)
        .read_buffer_size(BUFFER)
        .write_buffer_size(0)
        .on_upgrade(move |socket| watch(socket, app, peer))
}

async fn close(sink: &mut futures_util::stream::SplitSink<WebSocket, Message>, reason: &str) {
    let frame = CloseFrame {
        code: CLOSE_POLICY,
        reason: reason.into(),
    };
    let _ = tokio::time::timeout(
        Duration::from_secs(1),
        sink.send(Message::Close(Some(frame))),
    )
    .await;
}

async fn watch(socket: WebSocket, app: Arc<App>, peer: SocketAddr) {
    app.hub.watcher_joined();
    let (state, mut events) = app.hub.subscribe();
    let (mut sink, mut stream) = socket.split();
    let mut dropped = false;
    if sink.send(Message::Text(state.into())).await.is_err() {
        app.hub.watcher_left(false);
        return;
    }
    loop {
        tokio::select! {
            ev = events.recv() => match ev {
                Ok(text) => {
                    match tokio::time::timeout(app.limits.send_timeout, sink.send(Message::Text(text))).await {
                        Ok(Ok(())) => {}
                        Ok(Err(_)) => break,
                        Err(_) => {
                            dropped = true;
                            break;
                        }
                    }
                }
                Err(RecvError::Lagged(_)) => {
                    dropped = true;
                    close(&mut sink, "fell behind the stream").await;
                    break;
                }
                Err(RecvError::Closed) => break,
            },
            msg = stream.next() => match msg {
                Some(Ok(Message::Text(_) | Message::Binary(_))) => {
                    if !app.limiter.allow(peer.ip()) {
                        close(&mut sink, "too many messages").await;
                        break;
                    }
                }
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => {}
                Some(Ok(Message::Close(_)) | Err(_)) | None => break,
            },
        }
    }
    app.hub.watcher_left(dropped);
}
