//! A watcher's WebSocket: the state first, then every event in order. Watchers only listen;
//! what they send, pings included, is counted against their address's rate and otherwise
//! ignored. A watcher takes its place (in all and of its address's share) before the
//! upgrade, so that upgrades at the same moment cannot pass the limits together, and gives it
//! back when its task ends (or the upgrade fails).
//!
//! Every message the server sends, the state included, must be taken within the send
//! timeout; a watcher that falls more than the queue behind, or does not answer a ping within
//! the ping timeout (a peer that vanished without closing), is dropped: the others never wait
//! for it.

use super::app::App;
use super::limits::{ConnectionSlot, Full};
use super::respond::refuse;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, State};
use axum::http::StatusCode;
use axum::response::Response;
use futures_util::stream::SplitSink;
use futures_util::{SinkExt, StreamExt};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::broadcast::error::RecvError;
use tokio::time::Instant;

/// A watcher's read buffer, bytes.
const BUFFER: usize = 4096;

/// Policy violation (RFC 6455).
const CLOSE_POLICY: u16 = 1008;

/// A watcher's place in the count; given back when dropped.
struct Place {
    app: Arc<App>,
    _slot: ConnectionSlot,
    /// The server dropped the watcher (counted in `server.dropped`).
    dropped: bool,
}

impl Place {
    /// A place for a watcher from `peer`, unless every one is taken or its address holds
    /// its share.
    fn take(app: &Arc<App>, peer: SocketAddr) -> Result<Place, Full> {
        let slot = app.watchers.take(peer.ip())?;
        app.hub.watcher_joined();
        Ok(Place {
            app: Arc::clone(app),
            _slot: slot,
            dropped: false,
        })
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        self.app.hub.watcher_left(self.dropped);
    }
}

/// `GET /ws`: the upgrade, refused past the watcher limit.
pub async fn upgrade(
    State(app): State<Arc<App>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    ws: WebSocketUpgrade,
) -> Response {
    let place = match Place::take(&app, peer) {
        Ok(p) => p,
        Err(Full::All) => return refuse(StatusCode::SERVICE_UNAVAILABLE, "too many watchers"),
        Err(Full::Client) => {
            let why = format!(
                "too many watchers from this address (at most {})",
                app.watchers.per_client()
            );
            return refuse(StatusCode::SERVICE_UNAVAILABLE, &why);
        }
    };
    let size = app.limits.max_message;
    // Watchers send little, and each event is written at once: small buffers keep each
    // watcher's memory small (the defaults hold 128 KiB each way).
    ws.max_message_size(size)
        .max_frame_size(size)
        .read_buffer_size(BUFFER)
        .write_buffer_size(0)
        .on_upgrade(move |socket| watch(socket, place, peer))
}

type Sink = SplitSink<WebSocket, Message>;

/// How a send ended.
enum Sent {
    Done,
    /// The peer did not take it within the send timeout.
    TooSlow,
    /// The connection is gone.
    Failed,
}

/// True when `e` is a write that ran out of time on the socket (`timed_io`).
fn timed_out(e: &axum::Error) -> bool {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(err) = source {
        if let Some(io) = err.downcast_ref::<std::io::Error>() {
            return io.kind() == std::io::ErrorKind::TimedOut;
        }
        source = err.source();
    }
    false
}

async fn send(sink: &mut Sink, message: Message, timeout: Duration) -> Sent {
    match tokio::time::timeout(timeout, sink.send(message)).await {
        Ok(Ok(())) => Sent::Done,
        Ok(Err(e)) if timed_out(&e) => Sent::TooSlow,
        Ok(Err(_)) => Sent::Failed,
        Err(_) => Sent::TooSlow,
    }
}

async fn close(sink: &mut Sink, reason: &str) {
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

async fn watch(socket: WebSocket, mut place: Place, peer: SocketAddr) {
    let app = Arc::clone(&place.app);
    let limits = &app.limits;
    let (state, mut events) = app.hub.subscribe();
    let (mut sink, mut stream) = socket.split();
    match send(&mut sink, Message::Text(state.into()), limits.send_timeout).await {
        Sent::Done => {}
        Sent::TooSlow => {
            place.dropped = true;
            return;
        }
        Sent::Failed => return,
    }
    let mut ping =
        tokio::time::interval_at(Instant::now() + limits.ping_interval, limits.ping_interval);
    ping.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    // When the last ping's answer is due, while one is awaited.
    let mut pong_due: Option<Instant> = None;
    loop {
        let sent = tokio::select! {
            ev = events.recv() => match ev {
                Ok(text) => send(&mut sink, Message::Text(text), limits.send_timeout).await,
                Err(RecvError::Lagged(_)) => {
                    place.dropped = true;
                    close(&mut sink, "fell behind the stream").await;
                    break;
                }
                Err(RecvError::Closed) => break,
            },
            _ = ping.tick(), if pong_due.is_none() => {
                pong_due = Some(Instant::now() + limits.ping_timeout);
                send(&mut sink, Message::Ping(Default::default()), limits.send_timeout).await
            }
            () = tokio::time::sleep_until(pong_due.unwrap_or_else(Instant::now)), if pong_due.is_some() => {
                place.dropped = true;
                close(&mut sink, "no answer to ping").await;
                break;
            }
            msg = stream.next() => match msg {
                // A ping costs an answer: it counts like any other message.
                Some(Ok(Message::Text(_) | Message::Binary(_) | Message::Ping(_))) => {
                    if !app.limiter.allow(peer.ip()) {
                        close(&mut sink, "too many messages").await;
                        break;
                    }
                    Sent::Done
                }
                Some(Ok(Message::Pong(_))) => {
                    pong_due = None;
                    Sent::Done
                }
                Some(Ok(Message::Close(_)) | Err(_)) | None => break,
            },
        };
        match sent {
            Sent::Done => {}
            Sent::TooSlow => {
                place.dropped = true;
                break;
            }
            Sent::Failed => break,
        }
    }
}
