//! The token by default: generated at the start and printed in the link, required of every
//! request however it arrives (a proxy that adds no header of its own included); after the
//! first load it travels in a cookie, never in an address a proxy would log; a page loaded
//! without it says what to do; the printed link opens the page whatever the loopback address.

use crate::common::{Server, Watcher};
use reqwest::Method;
use serde_json::json;

#[tokio::test]
async fn a_token_by_default_and_a_silent_proxy_gets_nothing_without_it() {
    let _gate = crate::common::shared().await;
    let server = Server::start(&[]);
    let token = server.token.clone().expect("a token by default");
    assert_eq!(token.len(), 32);
    assert_eq!(
        server.open_line,
        format!("pao serve: open http://{}/?token={token}", server.addr)
    );
    // nginx's plain `proxy_pass`: this machine's own address, Host as the upstream's, no
    // forwarding header. Nothing tells it from a local client, and nothing opens without the
    // token.
    let http = server.http();
    let host = format!("127.0.0.1:{}", server.addr.port());
    for (method, path) in [
        (Method::GET, "/"),
        (Method::GET, "/api/state"),
        (Method::POST, "/api/stop"),
        (Method::POST, "/api/position"),
    ] {
        let r = http
            .send_bare(method, path, &[("Host", &host), ("Connection", "close")])
            .await;
        assert_eq!(r.status, 401, "{path}");
    }
    let err = Watcher::connect(&format!("ws://{}/ws", server.addr), None, None)
        .await
        .err();
    assert!(err.is_some_and(|e| e.contains("401")));
    // With the token, all of them.
    assert_eq!(http.get("/").await.status, 200);
    assert_eq!(http.post("/api/stop", json!({})).await.status, 200);
    assert_eq!(http.post("/api/position", json!({})).await.status, 200);
    server.watch().await;
}

#[tokio::test]
async fn after_the_first_load_the_token_travels_in_a_cookie_only() {
    let _gate = crate::common::shared().await;
    let server = Server::start(&[]);
    let token = server.token.clone().expect("a token");
    let port = server.addr.port();
    // The printed link: the page, and a cookie for this server's port (cookies are per host,
    // not per port: another server on this machine keeps its own).
    let http = server.http();
    let (r, set) = http.open_link("set-cookie").await;
    assert_eq!(r.status, 200);
    let set = set.expect("a cookie");
    assert_eq!(
        set,
        format!("pao_token_{port}={token}; Path=/; HttpOnly; SameSite=Strict")
    );
    assert!(
        !r.text.contains("?token="),
        "the page's script puts no token in an address"
    );
    let cookie = format!("pao_token_{port}={token}");
    // A reload, the API and the WebSocket with the cookie alone.
    for path in ["/", "/api/state"] {
        let r = http
            .send_bare(Method::GET, path, &[("Cookie", &cookie)])
            .await;
        assert_eq!(r.status, 200, "{path}");
    }
    let r = http
        .send_bare(
            Method::POST,
            "/api/stop",
            &[("Cookie", &format!("other=1; {cookie}"))],
        )
        .await;
    assert_eq!(r.status, 200);
    let ws = server
        .upgrade_with("Cookie", &cookie)
        .await
        .expect("a watcher with the cookie");
    Watcher::from_stream(ws).await.expect("the state");
    // The token in any other address is not taken: it would reach a proxy's log.
    for path in ["/api/state", "/ws"] {
        let r = http
            .send_bare(Method::GET, &format!("{path}?token={token}"), &[])
            .await;
        assert_eq!(r.status, 401, "{path}");
    }
    // Another port's cookie is not this server's.
    let other = format!("pao_token_{}={token}", port + 1);
    let r = http
        .send_bare(Method::GET, "/api/state", &[("Cookie", &other)])
        .await;
    assert_eq!(r.status, 401);
}

#[tokio::test]
async fn the_page_without_its_token_says_what_to_do() {
    let _gate = crate::common::shared().await;
    let server = Server::start(&[]);
    let port = server.addr.port();
    let http = server.http();
    // A reload once the cookie is gone (another browser, a server started again with a new
    // token): the page's address without the token.
    let stale = format!("pao_token_{port}=0123456789abcdef");
    for headers in [&[][..], &[("Cookie", stale.as_str())][..]] {
        let r = http.send_bare(Method::GET, "/", headers).await;
        assert_eq!(r.status, 401);
        assert_eq!(
            r.text,
            "missing or wrong token: open the address that pao serve printed when it started \
             (it ends in /?token=...)\n",
            "{headers:?}"
        );
    }
    // The API's refusal stays short.
    let r = http.send_bare(Method::GET, "/api/state", &[]).await;
    assert_eq!(r.text, "missing or wrong token\n");
}

#[tokio::test]
async fn the_printed_link_opens_the_page_on_any_loopback_address() {
    let _gate = crate::common::shared().await;
    for args in [
        &["--listen", "127.0.0.2:0"][..],
        &["--listen", "127.0.0.2:0", "--no-token"][..],
    ] {
        let server = Server::start(args);
        let link = server
            .open_line
            .strip_prefix("pao serve: open ")
            .expect("a link");
        let r = reqwest::get(link).await.expect("reply");
        assert_eq!(r.status().as_u16(), 200, "{args:?}: {link}");
        assert!(r.text().await.expect("page").contains("<svg id=\"board\""));
    }
    // Without a token, a foreign Host is told the address that works.
    let server = Server::start(&["--listen", "127.0.0.2:0", "--no-token"]);
    let r = reqwest::Client::new()
        .get(format!("{}/", server.base))
        .header("Host", "evil.example")
        .send()
        .await
        .expect("reply");
    assert_eq!(r.status().as_u16(), 403);
    assert_eq!(
        r.text().await.expect("body"),
        format!(
            "host not allowed: open the page at http://{}/\n",
            server.addr
        )
    );
}

#[test]
fn no_token_is_for_loopback_only() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_pao"))
        .args(["serve", "--no-token", "--listen", "0.0.0.0:0"])
        .output()
        .expect("run pao serve");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: --no-token serves this machine only: listen on a loopback address \
         (127.0.0.1, ::1) or leave the token on\n"
    );
    let help = std::process::Command::new(env!("CARGO_BIN_EXE_pao"))
        .args(["serve", "--help"])
        .output()
        .expect("run pao serve --help");
    let help = String::from_utf8_lossy(&help.stdout).replace(char::is_whitespace, " ");
    let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        help.contains(
            "a proxy, tunnel or published port in front opens it to whoever reaches that"
        ),
        "{help}"
    );
}
