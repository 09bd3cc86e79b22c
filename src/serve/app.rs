//! What every handler shares: the event stream, the analysis, the rate limiter and the
//! server's limits. The HTTP API (`api.rs`) and the WebSocket (`ws.rs`) both work on it.

use super::control::Control;
use super::hub::Hub;
use super::limits::{ConnectionSlots, RateLimiter};
use parking_lot::Mutex;
use std::sync::Arc;
use std::time::Duration;

/// Sizes and counts the server accepts.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Largest request body, bytes.
    pub max_body: usize,
    /// Largest WebSocket message a watcher may send, bytes.
    pub max_message: usize,
    /// Most watchers at once.
    pub max_watchers: usize,
    /// Most watchers at once from one client address (for IPv6, its /64).
    pub max_watchers_per_client: usize,
    /// Longest a connection may take to accept an answer or a watcher's message (once its
    /// socket's buffer is full) before it is closed.
    pub send_timeout: Duration,
    /// Time between pings to a watcher.
    pub ping_interval: Duration,
    /// Longest a watcher may take to answer a ping before it is dropped.
    pub ping_timeout: Duration,
    /// Longest a request may take to arrive and begin to act (a slow body is cut off).
    pub request_timeout: Duration,
}

/// What every handler shares.
pub struct App {
    /// The event stream.
    pub hub: Arc<Hub>,
    /// The analysis.
    pub control: Arc<Mutex<Control>>,
    /// Requests a second per address, of those with the token (every request, without one),
    /// and the frames of watchers.
    pub limiter: Arc<RateLimiter>,
    /// Watchers' places: in all and per client.
    pub watchers: Arc<ConnectionSlots>,
    /// Sizes and counts.
    pub limits: Limits,
}
