//! What one client may take: requests a second (a token bucket per client address, shared by
//! HTTP requests, WebSocket upgrades and the frames a watcher sends, pings included; the
//! access check keeps one limiter for requests with the token and one for those without),
//! and connections or watchers at once (a count per client address under a count for all).
//! Sizes are limited where they are read (the body limit layer, the WebSocket's message
//! size); the accept loop and the WebSocket upgrade take their places here.

use parking_lot::Mutex;
use std::collections::HashMap;
use std::net::{IpAddr, Ipv6Addr};
use std::sync::Arc;
use std::time::Instant;

/// Addresses remembered before idle ones are forgotten.
const MAX_CLIENTS: usize = 4096;

/// The client an address belongs to: an IPv4 address (also when written as IPv6), or an IPv6
/// network of 64 bits, the block one subscriber usually holds whole. Limits count clients, so
/// that a host with a block of IPv6 addresses cannot take a share per address.
pub fn client_of(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(v4) => IpAddr::V4(v4),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6(Ipv6Addr::from(u128::from(v6) & !u128::from(u64::MAX))),
        },
    }
}

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
        self.allow_at(ip, Instant::now())
    }

    /// `allow` at the moment `now` (tests give their own clock).
    fn allow_at(&self, ip: IpAddr, now: Instant) -> bool {
        let ip = client_of(ip);
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

/// Why a place was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Full {
    /// Every place is taken.
    All,
    /// The client holds its share.
    Client,
}

/// Open connections (or watchers): at most `max` in all and `per_client` from one client.
pub struct ConnectionSlots {
    max: usize,
    per_client: usize,
    open: Mutex<Open>,
}

#[derive(Default)]
struct Open {
    total: usize,
    /// Only clients with a connection open: at most `max` entries.
    by_client: HashMap<IpAddr, usize>,
}

/// One open connection's place; given back when dropped.
pub struct ConnectionSlot {
    slots: Arc<ConnectionSlots>,
    client: IpAddr,
}

impl ConnectionSlots {
    /// Room for `max` connections, `per_client` of them from one client.
    pub fn new(max: usize, per_client: usize) -> Arc<ConnectionSlots> {
        Arc::new(ConnectionSlots {
            max: max.max(1),
            per_client: per_client.max(1),
            open: Mutex::new(Open::default()),
        })
    }

    /// The share of one client.
    pub fn per_client(&self) -> usize {
        self.per_client
    }

    /// A place for a connection from `ip`, or why not: all are taken, or its client holds
    /// its share.
    pub fn take(self: &Arc<Self>, ip: IpAddr) -> Result<ConnectionSlot, Full> {
        let client = client_of(ip);
        let mut open = self.open.lock();
        if open.total >= self.max {
            return Err(Full::All);
        }
        let held = open.by_client.entry(client).or_insert(0);
        if *held >= self.per_client {
            return Err(Full::Client);
        }
        *held += 1;
        open.total += 1;
        Ok(ConnectionSlot {
            slots: Arc::clone(self),
            client,
        })
    }

    /// Connections open now: in all, and from the client of `ip`.
    #[cfg(test)]
    pub fn open(&self, ip: IpAddr) -> (usize, usize) {
        let open = self.open.lock();
        let of_client = open.by_client.get(&client_of(ip)).copied().unwrap_or(0);
        (open.total, of_client)
    }
}

impl Drop for ConnectionSlot {
    fn drop(&mut self) {
        let mut open = self.slots.open.lock();
        open.total = open.total.saturating_sub(1);
        if let Some(held) = open.by_client.get_mut(&self.client) {
            *held = held.saturating_sub(1);
            if *held == 0 {
                open.by_client.remove(&self.client);
            }
        }
    }
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
        let t = Instant::now();
        assert_eq!((0..5).filter(|_| l.allow_at(a, t)).count(), 5);
        assert!(!l.allow_at(a, t));
        // Another address has its own bucket.
        assert!(l.allow_at(b, t));
        // 0.45 s at 5 a second: two more (the clock is the test's, whatever the machine's
        // load).
        let later = t + std::time::Duration::from_millis(450);
        assert_eq!((0..5).filter(|_| l.allow_at(a, later)).count(), 2);
    }

    #[test]
    fn clients_are_addresses_or_ipv6_networks() {
        let ip = |s: &str| s.parse::<IpAddr>().expect("an address");
        assert_eq!(client_of(ip("203.0.113.9")), ip("203.0.113.9"));
        assert_eq!(client_of(ip("::ffff:203.0.113.9")), ip("203.0.113.9"));
        assert_eq!(client_of(ip("2001:db8:1:2:3:4:5:6")), ip("2001:db8:1:2::"));
        assert_eq!(
            client_of(ip("2001:db8:1:2:ffff::1")),
            client_of(ip("2001:db8:1:2::9"))
        );
        assert_ne!(
            client_of(ip("2001:db8:1:2::1")),
            client_of(ip("2001:db8:1:3::1"))
        );
        // One bucket for the network: its second address finds it empty.
        let l = RateLimiter::new(1);
        assert!(l.allow(ip("2001:db8::1")));
        assert!(!l.allow(ip("2001:db8::2")));
    }

    #[test]
    fn connections_per_client_and_in_all() {
        let slots = ConnectionSlots::new(3, 2);
        let a = IpAddr::V4(Ipv4Addr::new(10, 0, 0, 1));
        let b = IpAddr::V4(Ipv4Addr::new(10, 0, 0, 2));
        let c = IpAddr::V4(Ipv4Addr::new(10, 0, 0, 3));
        let a1 = slots.take(a).expect("a's first");
        let a2 = slots.take(a).expect("a's second");
        assert_eq!(slots.take(a).err(), Some(Full::Client), "a holds its share");
        let b1 = slots.take(b).expect("b's first");
        assert_eq!(slots.take(c).err(), Some(Full::All), "all taken");
        assert_eq!(slots.open(a), (3, 2));
        drop(a1);
        assert_eq!(slots.open(a), (2, 1));
        let c1 = slots.take(c).expect("a place came free");
        drop((a2, b1, c1));
        assert_eq!(slots.open(a), (0, 0));
        assert!(slots.open.lock().by_client.is_empty());
    }
}
