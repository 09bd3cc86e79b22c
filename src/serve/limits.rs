//! Request rates: a token bucket per client address, shared by HTTP requests, WebSocket
//! upgrades and the frames a watcher sends. Sizes are limited where they are read (the body
//! limit layer, the WebSocket's message size) and connections in the accept loop.

use super::respond::refuse;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::Response;
use parking_lot::Mutex;
use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Instant;

/// Addresses remembered before idle ones are forgotten.
const MAX_CLIENTS: usize = 4096;

/// At most `rate` requests a second per client address, in bursts of up to `rate`.
pub struct RateLimiter {
    rate: f64,
    buckets: Mutex<HashMap<IpAddr, (f64, Instant)>>,
}

impl RateLimiter {
    /// A limiter of `rate` requests a second per address.
    pub fn new(rate: u32) -> RateLimiter {
        RateLimiter {
            rate: f64::from(rate.max(1)),
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// The requests a second allowed.
    pub fn rate(&self) -> u32 {
        self.rate as u32
    }

    /// Takes one request from `ip`'s bucket; false when it is empty.
    pub fn allow(&self, ip: IpAddr) -> bool {
        let now = Instant::now();
        let mut buckets = self.buckets.lock();
        if buckets.len() >= MAX_CLIENTS && !buckets.contains_key(&ip) {
            // Forget the addresses whose buckets have refilled: they owe nothing.
            let rate = self.rate;
            buckets.retain(|_, (tokens, at)| {
                *tokens + now.duration_since(*at).as_secs_f64() * rate < rate
            });
        }
        let (tokens, at) = buckets.entry(ip).or_insert((self.rate, now));
        *tokens = (*tokens + now.duration_since(*at).as_secs_f64() * self.rate).min(self.rate);
        *at = now;
        if *tokens >= 1.0 {
            *tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// The middleware: 429 once a client's bucket is empty.
pub async fn limit_rate(
    State(limiter): State<Arc<RateLimiter>>,
    req: Request,
    next: Next,
) -> Response {
    let ip = req
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0.ip());
    if let Some(ip) = ip {
        if !limiter.allow(ip) {
            let why = format!("too many requests: at most {} a second", limiter.rate());
            return refuse(StatusCode::TOO_MANY_REQUESTS, &why);
        }
    }
    next.run(req).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::Ipv4Addr;

    #[test]
    fn a_burst_then_refusals_then_refill() {
        let l = RateLimiter::new(5);
        let a = IpAddr::V4(Ipv4Addr::LOCALHOST);
        let b = IpAddr::V4(Ipv4Addr::new(10, 0, 0, 1));
        assert_eq!((0..5).filter(|_| l.allow(a)).count(), 5);
        assert!(!l.allow(a));
        // Another address has its own bucket.
        assert!(l.allow(b));
        std::thread::sleep(std::time::Duration::from_millis(450));
        // 0.45 s at 5 a second: two more.
        assert_eq!((0..5).filter(|_| l.allow(a)).count(), 2);
    }
}
