//! Drives a real `pao serve` process through loopback: start it, read its address and token,
//! make HTTP requests (reqwest) and watch its WebSocket (tokio-tungstenite), checking that
//! every event's sequence number follows the one before.

use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// The load and abuse tests measure and stress the machine: they run alone, the others
/// together.
static GATE: tokio::sync::RwLock<()> = tokio::sync::RwLock::const_new(());

/// Held by a test that may run beside others.
pub async fn shared() -> tokio::sync::RwLockReadGuard<'static, ()> {
    GATE.read().await
}

/// Held by a test that must run alone.
pub async fn exclusive() -> tokio::sync::RwLockWriteGuard<'static, ()> {
    GATE.write().await
}

/// Generous bound for one expected event (CI machines are slow and shared).
pub const TIMEOUT: Duration = Duration::from_secs(20);

/// A running server.
pub struct Server {
    child: Child,
    /// Where to reach it (loopback, whatever address it listens on).
    pub addr: SocketAddr,
    /// `http://127.0.0.1:PORT`
    pub base: String,
    /// The token from the printed address, if any.
    pub token: Option<String>,
    /// The address line the server printed.
    pub open_line: String,
    stderr: std::sync::Arc<std::sync::Mutex<String>>,
}

impl Server {
    /// Starts `pao serve` on a free loopback port (unless `args` names `--listen`), with one
    /// thread and a 16 MiB table unless `args` says otherwise.
    pub fn start(args: &[&str]) -> Server {
        Server::start_with_env(args, &[])
    }

    /// `start` with environment variables for the server process.
    pub fn start_with_env(args: &[&str], env: &[(&str, &str)]) -> Server {
        let mut all: Vec<&str> = vec!["serve"];
        if !args.contains(&"--listen") {
            all.extend(["--listen", "127.0.0.1:0"]);
        }
        if !args.contains(&"--threads") {
            all.extend(["--threads", "1"]);
        }
        if !args.contains(&"--hash") {
            all.extend(["--hash", "16"]);
        }
        all.extend(args);
        let mut child = Command::new(env!("CARGO_BIN_EXE_pao"))
            .args(&all)
            .envs(env.iter().copied())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start pao serve");
        let stderr = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
        let errors = child.stderr.take().expect("stderr");
        let sink = std::sync::Arc::clone(&stderr);
        std::thread::spawn(move || {
            for line in BufReader::new(errors).lines() {
                let Ok(line) = line else { break };
                eprintln!("pao serve: {line}");
                if let Ok(mut s) = sink.lock() {
                    s.push_str(&line);
                    s.push('\n');
                }
            }
        });
        let stdout = child.stdout.take().expect("stdout");
        let mut lines = BufReader::new(stdout).lines();
        let listening = lines.next().expect("a first line").expect("text");
        let open_line = lines.next().expect("a second line").expect("text");
        // The rest of the output is not needed; keep the pipe drained.
        std::thread::spawn(move || for _ in lines {});
        let listen: SocketAddr = listening
            .strip_prefix("pao serve: listening on ")
            .unwrap_or_else(|| panic!("unexpected first line: {listening}"))
            .parse()
            .expect("an address");
        // Loopback, or this machine through loopback when it listens on every address.
        let ip = if listen.ip().is_unspecified() {
            std::net::IpAddr::from([127, 0, 0, 1])
        } else {
            listen.ip()
        };
        let addr = SocketAddr::new(ip, listen.port());
        let token = open_line
            .split("?token=")
            .nth(1)
            .map(|t| t.split_whitespace().next().unwrap_or("").to_string());
        Server {
            child,
            addr,
            base: format!("http://{addr}"),
            token,
            open_line,
            stderr,
        }
    }

    /// What the server wrote to stderr so far.
    pub fn stderr(&self) -> String {
        self.stderr.lock().map(|s| s.clone()).unwrap_or_default()
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Resident memory of the server, KiB.
    pub fn rss_kib(&self) -> u64 {
        let status =
            std::fs::read_to_string(format!("/proc/{}/status", self.pid())).expect("/proc status");
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .expect("VmRSS")
    }

    /// True while the process runs.
    pub fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// An HTTP client.
    pub fn http(&self) -> Http {
        Http {
            client: reqwest::Client::builder()
                .timeout(TIMEOUT)
                .build()
                .expect("client"),
            base: self.base.clone(),
            token: self.token.clone(),
        }
    }

    /// The WebSocket's request, with the token in the Authorization header if the server has
    /// one.
    pub fn ws_request(&self) -> tokio_tungstenite::tungstenite::handshake::client::Request {
        let mut request = format!("ws://{}/ws", self.addr)
            .into_client_request()
            .expect("a request");
        if let Some(t) = &self.token {
            request.headers_mut().insert(
                "Authorization",
                HeaderValue::from_str(&format!("Bearer {t}")).expect("a header"),
            );
        }
        request
    }

    /// A WebSocket upgrade with no token but one header (a cookie, a proxy's): the socket, or
    /// the handshake's error.
    pub async fn upgrade_with(
        &self,
        name: &'static str,
        value: &str,
    ) -> Result<WebSocketStream<MaybeTlsStream<TcpStream>>, String> {
        let mut request = format!("ws://{}/ws", self.addr)
            .into_client_request()
            .expect("a request");
        request
            .headers_mut()
            .insert(name, HeaderValue::from_str(value).expect("a header"));
        let (ws, _) = tokio_tungstenite::connect_async(request)
            .await
            .map_err(|e| e.to_string())?;
        Ok(ws)
    }

    /// A watcher (with the token, if the server has one).
    pub async fn watch(&self) -> Watcher {
        self.try_watch(None).await.expect("a watcher")
    }

    /// A watcher with the token if the server has one, and `origin` as its Origin if given;
    /// the error if it is refused.
    pub async fn try_watch(&self, origin: Option<&str>) -> Result<Watcher, String> {
        let url = format!("ws://{}/ws", self.addr);
        Watcher::connect(&url, self.token.as_deref(), origin).await
    }
}

/// Resident memory of process `pid`, KiB (0 once it is gone).
pub fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find_map(|l| l.strip_prefix("VmRSS:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or(0)
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An HTTP client of the server: the token goes in the Authorization header.
#[derive(Clone)]
pub struct Http {
    /// The client.
    pub client: reqwest::Client,
    /// `http://127.0.0.1:PORT`
    pub base: String,
    /// The token.
    pub token: Option<String>,
}

/// A reply: status and body.
#[derive(Debug)]
pub struct Reply {
    /// HTTP status.
    pub status: u16,
    /// Body text.
    pub text: String,
}

impl Reply {
    /// The body as JSON.
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.text).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.text))
    }
}

impl Http {
    fn auth(&self, rb: reqwest::RequestBuilder) -> reqwest::RequestBuilder {
        match &self.token {
            Some(t) => rb.bearer_auth(t),
            None => rb,
        }
    }

    async fn send(rb: reqwest::RequestBuilder) -> Reply {
        let r = rb.send().await.expect("a reply");
        let status = r.status().as_u16();
        let text = r.text().await.expect("a body");
        Reply { status, text }
    }

    /// GET `path`.
    pub async fn get(&self, path: &str) -> Reply {
        Self::send(self.auth(self.client.get(format!("{}{path}", self.base)))).await
    }

    /// POST `path` with a JSON body.
    pub async fn post(&self, path: &str, body: Value) -> Reply {
        Self::send(self.auth(self.client.post(format!("{}{path}", self.base)).json(&body))).await
    }

    /// POST `path` with raw bytes and a content type.
    pub async fn post_raw(&self, path: &str, content_type: &str, body: Vec<u8>) -> Reply {
        let rb = self
            .client
            .post(format!("{}{path}", self.base))
            .header("Content-Type", content_type)
            .body(body);
        Self::send(self.auth(rb)).await
    }

    /// A request with no token but the headers given (a cookie, a wrong bearer, a proxy's):
    /// GET, or POST with an empty JSON object; `path` may carry a query.
    pub async fn send_bare(
        &self,
        method: reqwest::Method,
        path: &str,
        headers: &[(&str, &str)],
    ) -> Reply {
        let mut rb = self
            .client
            .request(method.clone(), format!("{}{path}", self.base));
        if method == reqwest::Method::POST {
            rb = rb.json(&serde_json::json!({}));
        }
        for (name, value) in headers {
            rb = rb.header(*name, *value);
        }
        Self::send(rb).await
    }

    /// The page through the printed link (`/?token=TOKEN`, no header of the client's own): the
    /// reply and the value of its header `name`, if it has one.
    pub async fn open_link(&self, name: &str) -> (Reply, Option<String>) {
        let token = self.token.as_deref().expect("a server with a token");
        let r = self
            .client
            .get(format!("{}/?token={token}", self.base))
            .send()
            .await
            .expect("a reply");
        let header = r
            .headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        let status = r.status().as_u16();
        let text = r.text().await.expect("a body");
        (Reply { status, text }, header)
    }

    /// GET `/api/state`, as JSON.
    pub async fn state(&self) -> Value {
        let r = self.get("/api/state").await;
        assert_eq!(r.status, 200, "{}", r.text);
        r.json()
    }
}

/// A WebSocket watcher that checks the order of what it receives.
pub struct Watcher {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    /// The state received first.
    pub state: Value,
    /// The sequence number of the last event received.
    pub seq: u64,
    /// Every event received after the state.
    pub events: Vec<Value>,
    /// The reason in the server's close frame, once it closed the socket.
    pub close_reason: Option<String>,
}

impl Watcher {
    /// Connects to `url` with `token` in the Authorization header and `origin` as the Origin
    /// header, each if given, and reads the state.
    pub async fn connect(
        url: &str,
        token: Option<&str>,
        origin: Option<&str>,
    ) -> Result<Watcher, String> {
        let mut request = url.into_client_request().map_err(|e| e.to_string())?;
        if let Some(t) = token {
            request.headers_mut().insert(
                "Authorization",
                HeaderValue::from_str(&format!("Bearer {t}")).map_err(|e| e.to_string())?,
            );
        }
        if let Some(o) = origin {
            request.headers_mut().insert(
                "Origin",
                HeaderValue::from_str(o).map_err(|e| e.to_string())?,
            );
        }
        let (ws, _) = tokio_tungstenite::connect_async(request)
            .await
            .map_err(|e| e.to_string())?;
        Watcher::from_stream(ws).await
    }

    /// A watcher on an open WebSocket: reads the state.
    pub async fn from_stream(
        mut ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    ) -> Result<Watcher, String> {
        let first = tokio::time::timeout(TIMEOUT, ws.next())
            .await
            .map_err(|_| "no state within the timeout".to_string())?
            .ok_or("closed before the state")?
            .map_err(|e| e.to_string())?;
        let state: Value = serde_json::from_str(first.to_text().map_err(|e| e.to_string())?)
            .map_err(|e| e.to_string())?;
        if state["type"] != "state" {
            return Err(format!("first message is not the state: {state}"));
        }
        let seq = state["seq"].as_u64().ok_or("no seq in the state")?;
        Ok(Watcher {
            ws,
            state,
            seq,
            events: Vec::new(),
            close_reason: None,
        })
    }

    /// The next event, checking that its number follows; `None` on timeout or close.
    pub async fn next_within(&mut self, timeout: Duration) -> Option<Value> {
        loop {
            let msg = tokio::time::timeout(timeout, self.ws.next())
                .await
                .ok()??
                .ok()?;
            let Message::Text(text) = msg else {
                if let Message::Close(frame) = msg {
                    self.close_reason = Some(frame.map_or(String::new(), |f| f.reason.to_string()));
                    return None;
                }
                continue;
            };
            let ev: Value = serde_json::from_str(&text).expect("JSON event");
            let seq = ev["seq"].as_u64().expect("seq");
            assert_eq!(seq, self.seq + 1, "sequence gap before {ev}");
            self.seq = seq;
            self.events.push(ev.clone());
            return Some(ev);
        }
    }

    /// Events until one satisfies `pred`; panics after `TIMEOUT`.
    pub async fn until(&mut self, pred: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next_within(left).await {
                Some(ev) if pred(&ev) => return ev,
                Some(_) => {}
                None => panic!(
                    "no such event within {TIMEOUT:?}; events: {:?}",
                    self.events
                ),
            }
        }
    }

    /// The next event of type `kind`.
    pub async fn until_type(&mut self, kind: &str) -> Value {
        self.until(|e| e["type"] == kind).await
    }

    /// Sends a text frame.
    pub async fn send_text(&mut self, text: String) -> Result<(), String> {
        self.ws
            .send(Message::Text(text.into()))
            .await
            .map_err(|e| e.to_string())
    }

    /// Sends a ping frame.
    pub async fn send_ping(&mut self) -> Result<(), String> {
        self.ws
            .send(Message::Ping(Vec::new().into()))
            .await
            .map_err(|e| e.to_string())
    }

    /// Waits until the server closes the socket (any message read meanwhile is dropped);
    /// false on timeout.
    pub async fn closed_within(&mut self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match tokio::time::timeout(left, self.ws.next()).await {
                Err(_) => return false,
                Ok(None) | Ok(Some(Err(_))) | Ok(Some(Ok(Message::Close(_)))) => return true,
                Ok(Some(Ok(_))) => {}
            }
        }
    }
}

/// A connection to `addr` from the loopback address `from` (every 127.x.y.z reaches this
/// machine, so tests can play several clients), with a receive buffer of about
/// `recv_buffer` bytes if given.
pub async fn connect_from(addr: SocketAddr, from: [u8; 4], recv_buffer: Option<u32>) -> TcpStream {
    let socket = tokio::net::TcpSocket::new_v4().expect("socket");
    if let Some(b) = recv_buffer {
        socket.set_recv_buffer_size(b).expect("receive buffer");
    }
    socket
        .bind(SocketAddr::from((from, 0)))
        .expect("a loopback address");
    socket.connect(addr).await.expect("connect")
}

/// A WebSocket upgrade of `/ws` as one request, with the token in the Authorization header
/// if given.
pub fn upgrade_request(addr: SocketAddr, token: Option<&str>) -> String {
    let auth = token.map_or(String::new(), |t| format!("Authorization: Bearer {t}\r\n"));
    format!(
        "GET /ws HTTP/1.1\r\nHost: {addr}\r\n{auth}Connection: Upgrade\r\nUpgrade: websocket\r\n\
         Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
    )
}

/// Reads an HTTP answer's head, a byte at a time so that nothing after it is read; returns
/// its status, or `None` if the connection closes or nothing comes within `timeout`.
pub async fn read_status(s: &mut TcpStream, timeout: Duration) -> Option<u16> {
    let read = async {
        let mut head = Vec::new();
        let mut byte = [0u8; 1];
        while !head.ends_with(b"\r\n\r\n") {
            match s.read(&mut byte).await {
                Ok(1) => head.push(byte[0]),
                _ => return None,
            }
        }
        let text = String::from_utf8_lossy(&head);
        text.split_whitespace().nth(1)?.parse().ok()
    };
    tokio::time::timeout(timeout, read).await.ok().flatten()
}

/// Sends `request` on a fresh connection from `from` and returns the answer's status.
pub async fn raw_status(addr: SocketAddr, from: [u8; 4], request: &str) -> Option<u16> {
    let mut s = connect_from(addr, from, None).await;
    s.write_all(request.as_bytes()).await.ok()?;
    read_status(&mut s, TIMEOUT).await
}

/// True when the server closes `s` within `timeout` (whatever it sent first is read and
/// dropped).
pub async fn closed_within(s: &mut TcpStream, timeout: Duration) -> bool {
    let drain = async {
        let mut buf = [0u8; 4096];
        loop {
            match s.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
        }
    };
    tokio::time::timeout(timeout, drain).await.is_ok()
}

/// `n` legal moves from the start position: the horses go out and back.
pub fn horse_dance(n: usize) -> Vec<String> {
    ["b0c2", "b9c7", "c2b0", "c7b9"]
        .iter()
        .cycle()
        .take(n)
        .map(|m| m.to_string())
        .collect()
}
