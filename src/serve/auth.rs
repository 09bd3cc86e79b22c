//! Who may use the server, and how often. By default every request must carry the token:
//! `Authorization: Bearer TOKEN`, or the cookie the server sets when the page is loaded from
//! the printed link (`/?token=TOKEN`, the only address that takes it), so that after the
//! first load the token is in no address that a proxy would log. A proxy that forwards
//! without saying so cannot open the server: nothing passes without the token.
//!
//! Without a token (`--no-token`, loopback only) the Host header must name the address the
//! server listens on, so that a web page cannot reach the server through a name it controls
//! (DNS rebinding), and a request that a proxy says it forwarded is refused. Whatever the
//! mode, a browser's WebSocket upgrade or POST must come from the server's own page (Origin),
//! and a request must name no other host (an absolute URI, a second Host).
//!
//! Requests are rate-limited before the token is refused (guessing it is slow), in two
//! kinds: those with the token and those without have a bucket each per client address, so
//! that clients without the token, all behind one proxy's address, cannot spend the rate of
//! those who have it.

use super::limits::RateLimiter;
use super::respond::refuse;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::Response;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::Arc;

/// Headers that proxies add to say for whom they forward (beside `X-Forwarded` and any
/// `X-Forwarded-*`).
const PROXY_HEADERS: [&str; 12] = [
    "forwarded",
    "via",
    "x-real-ip",
    "x-client-ip",
    "client-ip",
    "true-client-ip",
    "cf-connecting-ip",
    "fastly-client-ip",
    "x-cluster-client-ip",
    "x-original-forwarded-for",
    "x-proxyuser-ip",
    "x-envoy-external-address",
];

/// The refusal of the page without its token: a reload once the cookie is gone, or a link
/// without the token, must say where the token is.
const PAGE_WITHOUT_TOKEN: &str = "missing or wrong token: open the address that pao serve \
    printed when it started (it ends in /?token=...)";

/// The first header of `req` that a proxy adds, if any.
fn proxy_header(req: &Request) -> Option<&str> {
    req.headers()
        .keys()
        .map(|k| k.as_str())
        .find(|k| k.starts_with("x-forwarded") || PROXY_HEADERS.contains(k))
}

/// An address as a URL writes it: IPv6 in brackets.
fn ip_text(ip: IpAddr) -> String {
    match ip {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => format!("[{v6}]"),
    }
}

/// An address and port as a URL writes them: without the port when it is 80 (a browser
/// leaves the default port out of the Host it sends).
fn url_host(addr: SocketAddr) -> String {
    let ip = ip_text(addr.ip());
    if addr.port() == 80 {
        ip
    } else {
        format!("{ip}:{}", addr.port())
    }
}

/// The link the server prints at the start: where to open the page, with the token.
pub fn link(addr: SocketAddr, token: Option<&str>) -> String {
    let query = token.map_or(String::new(), |t| format!("?token={t}"));
    if addr.ip().is_unspecified() {
        let port = if addr.port() == 80 {
            String::new()
        } else {
            format!(":{}", addr.port())
        };
        format!("http://HOST{port}/{query} (HOST: this machine's name or address)")
    } else {
        format!("http://{}/{query}", url_host(addr))
    }
}

/// The access rules of a running server.
#[derive(Clone, Debug)]
pub struct Access {
    /// The token every request must carry, if any.
    pub token: Option<String>,
    /// The cookie that carries it: one name per port, as cookies are kept per host whatever
    /// the port, and two servers on one machine must not overwrite each other's.
    cookie: String,
    /// Without a token: the Host values accepted (the address listened on, with `localhost`
    /// for 127.0.0.1 and ::1).
    pub hosts: Option<Vec<String>>,
    /// Where the page is, for a refusal of a foreign Host.
    home: String,
    /// Origins accepted besides the server's own (`--allow-origin`).
    pub origins: Vec<String>,
}

impl Access {
    /// The rules for a server listening on `listen`: a token, or its own address only.
    pub fn new(token: Option<String>, listen: SocketAddr, origins: Vec<String>) -> Access {
        let hosts = token.is_none().then(|| {
            let ip = listen.ip();
            let mut names = vec![ip_text(ip)];
            if ip == IpAddr::V4(Ipv4Addr::LOCALHOST) || ip == IpAddr::V6(Ipv6Addr::LOCALHOST) {
                names.push("localhost".to_string());
            }
            let mut hosts: Vec<String> = names
                .iter()
                .map(|n| format!("{n}:{}", listen.port()))
                .collect();
            if listen.port() == 80 {
                hosts.extend(names);
            }
            hosts
        });
        Access {
            token,
            cookie: format!("pao_token_{}", listen.port()),
            hosts,
            home: link(listen, None),
            origins,
        }
    }

    /// True when `host` (a Host header) may reach the server.
    pub fn host_allowed(&self, host: &str) -> bool {
        self.hosts
            .as_ref()
            .is_none_or(|hosts| hosts.iter().any(|h| h.eq_ignore_ascii_case(host)))
    }

    /// Whether `req` carries the token (always, without one), and whether it came in the
    /// page's address (then the answer sets the cookie).
    fn authorized(&self, req: &Request) -> (bool, bool) {
        let Some(token) = &self.token else {
            return (true, false);
        };
        let right = |t: &str| same(t.as_bytes(), token.as_bytes());
        let headers = req.headers();
        let bearer = headers
            .get_all(header::AUTHORIZATION)
            .iter()
            .filter_map(|v| v.to_str().ok()?.strip_prefix("Bearer "));
        let prefix = format!("{}=", self.cookie);
        let cookies = headers
            .get_all(header::COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(';'))
            .filter_map(|c| c.trim().strip_prefix(prefix.as_str()));
        if bearer.chain(cookies).any(right) {
            return (true, false);
        }
        let in_query = is_page(req)
            && req.uri().query().is_some_and(|q| {
                q.split('&')
                    .filter_map(|kv| kv.strip_prefix("token="))
                    .any(right)
            });
        (in_query, in_query)
    }

    /// The cookie that carries the token from the page's first load on.
    fn set_cookie(&self) -> Option<HeaderValue> {
        let token = self.token.as_ref()?;
        HeaderValue::from_str(&format!(
            "{}={token}; Path=/; HttpOnly; SameSite=Strict",
            self.cookie
        ))
        .ok()
    }
}

/// The access rules and the rates of the two kinds of request.
pub struct Gate {
    /// Who may use the server.
    pub access: Access,
    /// Requests with the token (every request, without one): also the watchers' frames.
    pub holders: Arc<RateLimiter>,
    /// Requests without the token.
    pub others: RateLimiter,
}

/// A random token: 128 bits from the operating system, in hex.
pub fn generate_token() -> Result<String, String> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| format!("no randomness for a token: {e}"))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// Compares in time that depends only on the lengths, not on where the texts differ.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// True for a request of the page itself (`GET /`).
fn is_page(req: &Request) -> bool {
    req.uri().path() == "/" && matches!(*req.method(), Method::GET | Method::HEAD)
}

/// The middleware: 429 past the rate of the request's kind; 400 for a request that names
/// another host; 401 without the token; 403 for a proxied request without a token, a foreign
/// Host or Origin.
pub async fn check(State(gate): State<Arc<Gate>>, req: Request, next: Next) -> Response {
    let access = &gate.access;
    let (authorized, from_address) = access.authorized(&req);
    let ip = req
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0.ip());
    if let Some(ip) = ip {
        let limiter = if authorized {
            &*gate.holders
        } else {
            &gate.others
        };
        if !limiter.allow(ip) {
            let why = format!("too many requests: at most {} a second", limiter.rate());
            return refuse(StatusCode::TOO_MANY_REQUESTS, &why);
        }
    }
    // The request's target is its path; the Host header, one, names the host.
    if req.uri().scheme().is_some() || req.uri().authority().is_some() {
        return refuse(
            StatusCode::BAD_REQUEST,
            "the request's target must be a path, not an absolute URI",
        );
    }
    let mut hosts = req.headers().get_all(header::HOST).iter();
    let host = hosts.next().and_then(|h| h.to_str().ok()).unwrap_or("");
    if hosts.next().is_some() {
        return refuse(StatusCode::BAD_REQUEST, "more than one Host header");
    }
    if !authorized {
        let why = if is_page(&req) {
            PAGE_WITHOUT_TOKEN
        } else {
            "missing or wrong token"
        };
        return refuse(StatusCode::UNAUTHORIZED, why);
    }
    if access.token.is_none() {
        if let Some(name) = proxy_header(&req) {
            return refuse(
                StatusCode::FORBIDDEN,
                &format!(
                    "forwarded by a proxy ({name}): serving through a proxy needs the token; start pao serve without --no-token"
                ),
            );
        }
    }
    if !access.host_allowed(host) {
        return refuse(
            StatusCode::FORBIDDEN,
            &format!("host not allowed: open the page at {}", access.home),
        );
    }
    let upgrade = req.headers().contains_key(header::UPGRADE);
    if upgrade || !matches!(*req.method(), Method::GET | Method::HEAD) {
        if let Some(origin) = req.headers().get(header::ORIGIN) {
            let origin = origin.to_str().unwrap_or("");
            let own = origin
                .strip_prefix("http://")
                .is_some_and(|o| o.eq_ignore_ascii_case(host));
            if !own && !access.origins.iter().any(|o| o == origin) {
                return refuse(StatusCode::FORBIDDEN, "origin not allowed");
            }
        }
    }
    let mut answer = next.run(req).await;
    if from_address && answer.status().is_success() {
        if let Some(cookie) = access.set_cookie() {
            answer.headers_mut().insert(header::SET_COOKIE, cookie);
        }
    }
    answer
}

#[cfg(test)]
mod tests {
    use super::*;

    fn addr(text: &str) -> SocketAddr {
        text.parse().expect("an address")
    }

    #[test]
    fn tokens_are_random_hex() {
        let (a, b) = (
            generate_token().expect("token"),
            generate_token().expect("token"),
        );
        assert_eq!(a.len(), 32);
        assert!(a.bytes().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a, b);
    }

    #[test]
    fn comparison() {
        assert!(same(b"abc", b"abc"));
        assert!(!same(b"abc", b"abd"));
        assert!(!same(b"abc", b"abcd"));
    }

    #[test]
    fn without_a_token_the_address_listened_on_only() {
        let a = Access::new(None, addr("127.0.0.1:8080"), Vec::new());
        assert_eq!(
            a.hosts.as_deref(),
            Some(&["127.0.0.1:8080".to_string(), "localhost:8080".to_string()][..])
        );
        let a = Access::new(None, addr("[::1]:80"), Vec::new());
        assert_eq!(
            a.hosts.as_deref(),
            Some(
                &[
                    "[::1]:80".to_string(),
                    "localhost:80".to_string(),
                    "[::1]".to_string(),
                    "localhost".to_string()
                ][..]
            )
        );
        assert!(!a.host_allowed("evil.example"));
        let a = Access::new(Some("t".into()), addr("127.0.0.1:8080"), Vec::new());
        assert_eq!(a.hosts, None);
        assert!(a.host_allowed("evil.example"));
    }

    /// The Host a browser sends for `link`: its authority, without the default port.
    fn browser_host(link: &str) -> String {
        let authority = link
            .strip_prefix("http://")
            .and_then(|l| l.split('/').next())
            .expect("an http link");
        authority
            .strip_suffix(":80")
            .unwrap_or(authority)
            .to_string()
    }

    #[test]
    fn every_printed_link_is_accepted() {
        for listen in [
            "127.0.0.1:80",
            "127.0.0.1:8080",
            "127.0.0.2:8080",
            "127.0.0.2:80",
            "[::1]:80",
            "[::1]:8080",
        ] {
            let listen = addr(listen);
            let link = link(listen, None);
            let access = Access::new(None, listen, Vec::new());
            assert!(
                access.host_allowed(&browser_host(&link)),
                "{listen}: {link} gives Host {}, refused",
                browser_host(&link)
            );
        }
        assert_eq!(
            link(addr("0.0.0.0:8080"), Some("abc")),
            "http://HOST:8080/?token=abc (HOST: this machine's name or address)"
        );
        assert_eq!(link(addr("127.0.0.1:80"), None), "http://127.0.0.1/");
    }

    #[test]
    fn proxy_headers() {
        let with = |name: &str| {
            let req = Request::builder()
                .uri("/api/state")
                .header(name, "203.0.113.9")
                .body(axum::body::Body::empty())
                .expect("a request");
            proxy_header(&req).map(str::to_string)
        };
        for name in [
            "X-Forwarded-For",
            "x-forwarded-host",
            "X-Forwarded",
            "Forwarded",
            "Via",
            "X-Real-IP",
        ] {
            assert_eq!(with(name), Some(name.to_ascii_lowercase()), "{name}");
        }
        assert_eq!(with("Referer"), None);
    }
}
