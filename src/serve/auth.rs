//! Who may use the server. With a token, every request must carry it (`Authorization: Bearer
//! TOKEN` or `?token=TOKEN`, the only way a browser's WebSocket can send it). Without one (the
//! default, on a loopback address), the Host header must name the loopback address, so that a
//! web page cannot reach the server through a name it controls (DNS rebinding), and a request
//! that a proxy forwarded is refused: a reverse proxy on this machine would otherwise open the
//! loopback server to whoever reaches the proxy. Whatever the mode, a browser's WebSocket
//! upgrade or POST must come from the server's own page (Origin).

use super::respond::refuse;
use axum::extract::{Request, State};
use axum::http::{header, Method, StatusCode};
use axum::middleware::Next;
use axum::response::Response;
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

/// The first header of `req` that a proxy adds, if any.
fn proxy_header(req: &Request) -> Option<&str> {
    req.headers()
        .keys()
        .map(|k| k.as_str())
        .find(|k| k.starts_with("x-forwarded") || PROXY_HEADERS.contains(k))
}

/// The access rules of a running server.
#[derive(Clone, Debug)]
pub struct Access {
    /// The token every request must carry, if any.
    pub token: Option<String>,
    /// Without a token: the Host values accepted (the loopback names with the port).
    pub hosts: Option<Vec<String>>,
    /// Origins accepted besides the server's own (`--allow-origin`).
    pub origins: Vec<String>,
}

impl Access {
    /// The rules for a server on `port`: a token, or loopback names only.
    pub fn new(token: Option<String>, port: u16, origins: Vec<String>) -> Access {
        let hosts = token.is_none().then(|| {
            ["127.0.0.1", "localhost", "[::1]"]
                .iter()
                .map(|h| format!("{h}:{port}"))
                .collect()
        });
        Access {
            token,
            hosts,
            origins,
        }
    }
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

/// The token a request carries, if any.
fn presented(req: &Request) -> Option<&str> {
    if let Some(v) = req.headers().get(header::AUTHORIZATION) {
        return v.to_str().ok().and_then(|v| v.strip_prefix("Bearer "));
    }
    req.uri()
        .query()?
        .split('&')
        .find_map(|kv| kv.strip_prefix("token="))
}

/// The middleware: 401 without the token, 403 for a proxied request without a token, a
/// foreign Host or Origin.
pub async fn check(State(access): State<Arc<Access>>, req: Request, next: Next) -> Response {
    if let Some(token) = &access.token {
        let ok = presented(&req).is_some_and(|t| same(t.as_bytes(), token.as_bytes()));
        if !ok {
            return refuse(StatusCode::UNAUTHORIZED, "missing or wrong token");
        }
    } else if let Some(name) = proxy_header(&req) {
        return refuse(
            StatusCode::FORBIDDEN,
            &format!(
                "forwarded by a proxy ({name}): serving through a proxy needs a token; start pao serve with --token"
            ),
        );
    }
    let host = req
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    if let Some(hosts) = &access.hosts {
        if !hosts.iter().any(|h| h.eq_ignore_ascii_case(host)) {
            return refuse(
                StatusCode::FORBIDDEN,
                "host not allowed: open the page at 127.0.0.1 or localhost",
            );
        }
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
    next.run(req).await
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn loopback_names_without_a_token_only() {
        let a = Access::new(None, 8080, Vec::new());
        assert_eq!(
            a.hosts.as_deref(),
            Some(
                &[
                    "127.0.0.1:8080".to_string(),
                    "localhost:8080".to_string(),
                    "[::1]:8080".to_string()
                ][..]
            )
        );
        assert_eq!(Access::new(Some("t".into()), 8080, Vec::new()).hosts, None);
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
