//! `pao serve`: the engine behind an HTTP server with one analysis page and a WebSocket of
//! the engine's events (docs/serve.md). The coordinator runs as in the daemon, fed UCI lines
//! built from checked requests; its output feeds the event hub. Async code (tokio, axum) lives
//! here only, on its own threads: the search never sees it.
//!
//! By concern: `api` (routes), `ws` (watchers), `hub` (sequence numbers, the late watcher's
//! state), `control` (board, analysis, options, games), `game` (clocks), `engine` (the
//! coordinator and its output), `engine_lines` (that output read back), `events` (the JSON),
//! `auth` (token, cookie, Host, Origin, proxies, the rates of the two kinds of request),
//! `limits` (rates, connection and watcher counts), `listener`
//! (connections), `timed_io` (writes that must finish in time), `deadline` (a request's
//! time), `page` (the embedded page), `pgn`, `respond`.

mod api;
mod app;
mod auth;
mod control;
mod deadline;
mod engine;
mod engine_lines;
mod events;
mod game;
mod hub;
mod limits;
mod listener;
mod page;
mod pgn;
mod respond;
#[cfg(test)]
mod tests;
mod timed_io;
mod ws;

pub use auth::{generate_token, link};

use app::App;
pub use app::Limits;
use auth::{Access, Gate};
use control::Control;
use engine::Engine;
use events::OptionsView;
use hub::Hub;
use limits::{ConnectionSlots, RateLimiter};
use parking_lot::Mutex;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

/// How the server runs (`pao serve --help` describes each).
#[derive(Clone, Debug)]
pub struct ServeConfig {
    /// Address and port to listen on.
    pub listen: SocketAddr,
    /// The token; generated when absent, unless `no_token`.
    pub token: Option<String>,
    /// Serve without a token (loopback only).
    pub no_token: bool,
    /// Search threads at the start.
    pub threads: usize,
    /// Table size at the start, MiB.
    pub hash: usize,
    /// Most threads the web may ask for.
    pub max_threads: usize,
    /// Largest table the web may ask for, MiB.
    pub max_hash: usize,
    /// Requests (and watcher frames) a second per client address.
    pub rate: u32,
    /// Sizes, counts and timeouts of requests and watchers.
    pub limits: Limits,
    /// Most HTTP connections at once.
    pub max_connections: usize,
    /// Most HTTP connections at once from one client address (for IPv6, its /64).
    pub max_connections_per_client: usize,
    /// A connection's kernel send buffer, bytes.
    pub send_buffer: usize,
    /// Longest a client may take to send a request's headers.
    pub header_timeout: Duration,
    /// Events a watcher may fall behind before it is dropped.
    pub queue: usize,
    /// Origins allowed besides the server's own.
    pub allow_origins: Vec<String>,
    /// Engine options the operator sets at the start (`EvalFile`, `BookFile`, `EGTBPath`):
    /// `(name, value)`.
    pub engine_options: Vec<(String, String)>,
}

/// Why `--no-token` cannot serve on `addr`, if it cannot: only loopback is served without
/// a token.
pub fn no_token_refusal(addr: &SocketAddr) -> Option<&'static str> {
    (!addr.ip().is_loopback()).then_some(
        "--no-token serves this machine only: listen on a loopback address (127.0.0.1, ::1) \
         or leave the token on",
    )
}

/// Checks a token given on the command line: 16 or more URL-safe characters.
pub fn check_token(token: &str) -> Result<(), String> {
    let safe = token
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b"-_.~".contains(&b));
    if token.len() < 16 || !safe {
        return Err(
            "the token must be at least 16 characters: letters, digits, '-', '_', '.', '~'"
                .to_string(),
        );
    }
    Ok(())
}

/// Runs the server until Ctrl-C; returns the exit status.
pub fn run(config: ServeConfig) -> i32 {
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("pao-serve")
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: cannot start the server's threads: {e}");
            return 1;
        }
    };
    match runtime.block_on(serve(config)) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("error: {e}");
            1
        }
    }
}

async fn serve(config: ServeConfig) -> Result<(), String> {
    let token = if config.no_token {
        if let Some(why) = no_token_refusal(&config.listen) {
            return Err(why.to_string());
        }
        None
    } else if let Some(t) = &config.token {
        check_token(t)?;
        Some(t.clone())
    } else {
        Some(generate_token()?)
    };
    let listener = tokio::net::TcpListener::bind(config.listen)
        .await
        .map_err(|e| format!("cannot listen on {}: {e}", config.listen))?;
    let addr = listener
        .local_addr()
        .map_err(|e| format!("cannot read the address: {e}"))?;

    let options = OptionsView {
        threads: config.threads,
        hash: config.hash,
        multipv: 1,
        wdl: false,
        max_threads: config.max_threads,
        max_hash: config.max_hash,
    };
    let mut start = crate::board::Position::startpos();
    let position = control::position_view(crate::board::START_FEN, &[], &mut start);
    let (finished_tx, mut finished_rx) = tokio::sync::mpsc::unbounded_channel();
    let hub = Arc::new(Hub::new(
        position,
        options.clone(),
        config.queue,
        finished_tx,
    ));
    let engine = Engine::start(Arc::clone(&hub))?;
    {
        let mut e = engine.lock();
        let mut lines = vec![
            format!("setoption name Threads value {}", config.threads),
            format!("setoption name Hash value {}", config.hash),
        ];
        for (name, value) in &config.engine_options {
            lines.push(format!("setoption name {name} value {value}"));
        }
        for line in &lines {
            if let Some(err) = e.send(line).first() {
                return Err(err.clone());
            }
        }
    }
    let control = Arc::new(Mutex::new(Control::new(engine, Arc::clone(&hub), options)));

    // Ended searches and the clock drive games on; both act on the control off these threads.
    let driver = Arc::clone(&control);
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(Duration::from_millis(250));
        loop {
            let s = Arc::clone(&driver);
            tokio::select! {
                f = finished_rx.recv() => {
                    let Some(f) = f else { break };
                    let _ = tokio::task::spawn_blocking(move || s.lock().on_finished(&f)).await;
                }
                _ = tick.tick() => {
                    let _ = tokio::task::spawn_blocking(move || s.lock().tick()).await;
                }
            }
        }
    });

    let holders = Arc::new(RateLimiter::new(config.rate));
    let app = Arc::new(App {
        hub,
        control: Arc::clone(&control),
        limiter: Arc::clone(&holders),
        watchers: ConnectionSlots::new(
            config.limits.max_watchers,
            config.limits.max_watchers_per_client,
        ),
        limits: config.limits.clone(),
    });
    let gate = Arc::new(Gate {
        access: Access::new(token.clone(), addr, config.allow_origins.clone()),
        holders,
        others: RateLimiter::new(config.rate),
    });
    let router = api::router(app, gate);

    println!("pao serve: listening on {addr}");
    println!("pao serve: open {}", link(addr, token.as_deref()));
    use std::io::Write;
    let _ = std::io::stdout().flush();

    let connections = listener::ConnectionLimits {
        max: config.max_connections,
        per_client: config.max_connections_per_client,
        header_timeout: config.header_timeout,
        send_timeout: config.limits.send_timeout,
        send_buffer: config.send_buffer,
    };
    tokio::select! {
        () = listener::serve(listener, router, connections) => {}
        _ = tokio::signal::ctrl_c() => {}
    }
    tokio::task::spawn_blocking(move || control.lock().shutdown())
        .await
        .map_err(|e| format!("shutdown: {e}"))?;
    Ok(())
}
