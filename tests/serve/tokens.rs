//! The token by default: generated at the start and printed in the link, required of every
//! request however it arrives (a proxy that adds no header of its own included); after the
//! first load it travels in a cookie, never in an address a proxy would log; a page loaded
//! without it says what to do; the printed link opens the page whatever the loopback address.

use crate::common::{Server, Watcher};
use serde_json::json;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;

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
    let client = reqwest::Client::new();
    let host = format!("127.0.0.1:{}", server.addr.port());
    for (post, path) in [
        (false, "/"),
        (false, "/api/state"),
        (true, "/api/stop"),
        (true, "/api/position"),
    ] {
        let url = format!("{}{path}", server.base);
        let rb = if post {
            client.post(&url).json(&json!({}))
        } else {
            client.get(&url)
        };
        let r = rb
            .header("Host", &host)
            .header("Connection", "close")
            .send()
            .await
            .expect("reply");
        assert_eq!(r.status().as_u16(), 401, "{path}");
    }
    let err = Watcher::connect(&format!("ws://{}/ws", server.addr), None, None)
        .await
        .err();
    assert!(err.is_some_and(|e| e.contains("401")));
    // With the token, all of them.
    let http = server.http();
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
    let client = reqwest::Client::new();
    // The printed link: the page, and a cookie for this server's port (cookies are per host,
    // not per port: another server on this machine keeps its own).
    let r = client
        .get(format!("{}/?token={token}", server.base))
        .send()
        .await
        .expect("reply");
    assert_eq!(r.status().as_u16(), 200);
    let set = r
        .headers()
        .get("set-cookie")
        .and_then(|v| v.to_str().ok())
        .expect("a cookie")
        .to_string();
    assert_eq!(
        set,
        format!("pao_token_{port}={token}; Path=/; HttpOnly; SameSite=Strict")
    );
    let page = r.text().await.expect("the page");
    assert!(
        !page.contains("?token="),
        "the page's script puts no token in an address"
    );
    let cookie = format!("pao_token_{port}={token}");
    // A reload, the API and the WebSocket with the cookie alone.
    for path in ["/", "/api/state"] {
        let r = client
            .get(format!("{}{path}", server.base))
            .header("Cookie", &cookie)
            .send()
            .await
            .expect("reply");
        assert_eq!(r.status().as_u16(), 200, "{path}");
    }
    let r = client
        .post(format!("{}/api/stop", server.base))
        .header("Cookie", format!("other=1; {cookie}"))
        .json(&json!({}))
        .send()
        .await
        .expect("reply");
    assert_eq!(r.status().as_u16(), 200);
    let mut request = format!("ws://{}/ws", server.addr)
        .into_client_request()
        .expect("a request");
    request
        .headers_mut()
        .insert("Cookie", HeaderValue::from_str(&cookie).expect("a header"));
    let (ws, _) = tokio_tungstenite::connect_async(request)
        .await
        .expect("a watcher with the cookie");
    Watcher::from_stream(ws).await.expect("the state");
    // The token in any other address is not taken: it would reach a proxy's log.
    for path in ["/api/state", "/ws"] {
        let r = client
            .get(format!("{}{path}?token={token}", server.base))
            .send()
            .await
            .expect("reply");
        assert_eq!(r.status().as_u16(), 401, "{path}");
    }
    // Another port's cookie is not this server's.
    let r = client
        .get(format!("{}/api/state", server.base))
        .header("Cookie", format!("pao_token_{}={token}", port + 1))
        .send()
        .await
        .expect("reply");
    assert_eq!(r.status().as_u16(), 401);
}

#[tokio::test]
async fn the_page_without_its_token_says_what_to_do() {
    let _gate = crate::common::shared().await;
    let server = Server::start(&[]);
    let port = server.addr.port();
    let client = reqwest::Client::new();
    // A reload once the cookie is gone (another browser, a server started again with a new
    // token): the page's address without the token.
    for cookie in [None, Some(format!("pao_token_{port}=0123456789abcdef"))] {
        let mut rb = client.get(format!("{}/", server.base));
        if let Some(c) = &cookie {
            rb = rb.header("Cookie", c);
        }
        let r = rb.send().await.expect("reply");
        assert_eq!(r.status().as_u16(), 401);
        assert_eq!(
            r.text().await.expect("body"),
            "missing or wrong token: open the address that pao serve printed when it started \
             (it ends in /?token=...)\n",
            "{cookie:?}"
        );
    }
    // The API's refusal stays short.
    let r = client
        .get(format!("{}/api/state", server.base))
        .send()
        .await
        .expect("reply");
    assert_eq!(r.text().await.expect("body"), "missing or wrong token\n");
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
