//! The HTTP API: JSON in, JSON out, one line of text for a refusal. Every route, the page
//! included, sits behind the access check and its rate limits; nothing else is served.

use super::app::App;
use super::auth::{self, Gate};
use super::control::{Control, OptionChanges, Refusal};
use super::deadline;
use super::respond::refuse;
use super::{page, ws};
use crate::board::Color;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{middleware, Router};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use std::sync::Arc;
use tower_http::limit::RequestBodyLimitLayer;

/// The router: the page, the API and the WebSocket, behind the access check and its rates.
pub fn router(app: Arc<App>, gate: Arc<Gate>) -> Router {
    let max_body = app.limits.max_body;
    let request_timeout = app.limits.request_timeout;
    Router::new()
        .route("/", get(page::index))
        .route("/ws", get(ws::upgrade))
        .route("/api/state", get(state))
        .route("/api/pgn", get(pgn))
        .route("/api/position", post(position))
        .route("/api/move", post(play))
        .route("/api/undo", post(undo))
        .route("/api/go", post(go))
        .route("/api/stop", post(stop))
        .route("/api/options", post(options))
        .route("/api/clear-hash", post(clear_hash))
        .route("/api/game", post(game))
        .route("/api/game/resign", post(resign))
        .fallback(not_found)
        .with_state(app)
        .layer(DefaultBodyLimit::max(max_body))
        .layer(RequestBodyLimitLayer::new(max_body))
        .layer(middleware::from_fn_with_state(
            request_timeout,
            deadline::limit,
        ))
        .layer(middleware::from_fn_with_state(gate, auth::check))
}

async fn not_found() -> Response {
    refuse(StatusCode::NOT_FOUND, "not found")
}

fn json(body: String) -> Response {
    (
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        body,
    )
        .into_response()
}

/// A refusal on its way out: the status and the one-line reason (a whole `Response` is too
/// large to pass around in `Result`s).
struct Rejection(StatusCode, String);

impl IntoResponse for Rejection {
    fn into_response(self) -> Response {
        refuse(self.0, &self.1)
    }
}

fn refusal(r: Refusal) -> Response {
    match r {
        Refusal::Bad(m) => refuse(StatusCode::BAD_REQUEST, &m),
        Refusal::Conflict(m) => refuse(StatusCode::CONFLICT, &m),
        Refusal::Engine(m) => refuse(StatusCode::INTERNAL_SERVER_ERROR, &m),
    }
}

/// A JSON body: an object of type `T`, or a refusal. `empty_ok`: no body reads as `{}`.
fn body<T: DeserializeOwned>(
    headers: &HeaderMap,
    bytes: &Bytes,
    empty_ok: bool,
) -> Result<T, Rejection> {
    if bytes.is_empty() && empty_ok {
        return serde_json::from_str("{}")
            .map_err(|e| Rejection(StatusCode::BAD_REQUEST, e.to_string()));
    }
    let json_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("application/json"));
    if !json_type {
        return Err(Rejection(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "the body must be JSON (Content-Type: application/json)".to_string(),
        ));
    }
    serde_json::from_slice(bytes)
        .map_err(|e| Rejection(StatusCode::BAD_REQUEST, format!("bad JSON: {e}")))
}

/// Runs `f` on the analysis's control away from the async threads (the engine may take a moment:
/// a new table, new threads). A request whose deadline passes while it waits for its turn
/// does nothing (it has been answered 408).
async fn with_control<T: Send + 'static>(
    app: &Arc<App>,
    f: impl FnOnce(&mut Control) -> T + Send + 'static,
) -> Result<T, Rejection> {
    let control = Arc::clone(&app.control);
    let deadline = deadline::current();
    let done = tokio::task::spawn_blocking(move || {
        let mut control = control.lock();
        if deadline.is_some_and(|d| !d.begin()) {
            return None;
        }
        Some(f(&mut control))
    })
    .await;
    match done {
        Ok(Some(v)) => Ok(v),
        Ok(None) => Err(Rejection(
            StatusCode::REQUEST_TIMEOUT,
            "the request took too long; nothing was changed".to_string(),
        )),
        Err(_) => Err(Rejection(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the request failed".to_string(),
        )),
    }
}

fn to_json<T: serde::Serialize>(v: &T) -> Response {
    match serde_json::to_string(v) {
        Ok(s) => json(s),
        Err(e) => refuse(StatusCode::INTERNAL_SERVER_ERROR, &e.to_string()),
    }
}

async fn state(State(app): State<Arc<App>>) -> Response {
    json(app.hub.state_json())
}

async fn pgn(State(app): State<Arc<App>>) -> Response {
    match with_control(&app, |s| s.pgn()).await {
        Ok(text) => ([(header::CONTENT_TYPE, "application/x-chess-pgn")], text).into_response(),
        Err(r) => r.into_response(),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PositionBody {
    fen: Option<String>,
    #[serde(default)]
    moves: Vec<String>,
}

async fn position(State(app): State<Arc<App>>, headers: HeaderMap, bytes: Bytes) -> Response {
    let b: PositionBody = match body(&headers, &bytes, false) {
        Ok(b) => b,
        Err(r) => return r.into_response(),
    };
    match with_control(&app, move |s| s.set_position(b.fen.as_deref(), &b.moves)).await {
        Ok(Ok(view)) => to_json(&view),
        Ok(Err(r)) => refusal(r),
        Err(r) => r.into_response(),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveBody {
    r#move: String,
}

async fn play(State(app): State<Arc<App>>, headers: HeaderMap, bytes: Bytes) -> Response {
    let b: MoveBody = match body(&headers, &bytes, false) {
        Ok(b) => b,
        Err(r) => return r.into_response(),
    };
    match with_control(&app, move |s| s.play(&b.r#move)).await {
        Ok(Ok(view)) => to_json(&view),
        Ok(Err(r)) => refusal(r),
        Err(r) => r.into_response(),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NoArguments {}

/// Runs a request without arguments: its body must be empty or `{}`.
async fn simple<T: serde::Serialize + Send + 'static>(
    app: Arc<App>,
    headers: HeaderMap,
    bytes: Bytes,
    f: impl FnOnce(&mut Control) -> Result<T, Refusal> + Send + 'static,
) -> Response {
    if let Err(r) = body::<NoArguments>(&headers, &bytes, true) {
        return r.into_response();
    }
    match with_control(&app, f).await {
        Ok(Ok(v)) => to_json(&v),
        Ok(Err(r)) => refusal(r),
        Err(r) => r.into_response(),
    }
}

#[derive(serde::Serialize)]
struct Done {
    ok: bool,
}

#[derive(serde::Serialize)]
struct SearchNumber {
    search: u64,
}

async fn undo(State(app): State<Arc<App>>, headers: HeaderMap, bytes: Bytes) -> Response {
    simple(app, headers, bytes, |s| s.undo()).await
}

async fn go(State(app): State<Arc<App>>, headers: HeaderMap, bytes: Bytes) -> Response {
    simple(app, headers, bytes, |s| {
        s.start_analysis().map(|search| SearchNumber { search })
    })
    .await
}

async fn stop(State(app): State<Arc<App>>, headers: HeaderMap, bytes: Bytes) -> Response {
    simple(app, headers, bytes, |s| {
        s.stop();
        Ok(Done { ok: true })
    })
    .await
}

async fn clear_hash(State(app): State<Arc<App>>, headers: HeaderMap, bytes: Bytes) -> Response {
    simple(app, headers, bytes, |s| {
        s.clear_hash().map(|()| Done { ok: true })
    })
    .await
}

async fn resign(State(app): State<Arc<App>>, headers: HeaderMap, bytes: Bytes) -> Response {
    simple(app, headers, bytes, |s| {
        s.resign().map(|()| Done { ok: true })
    })
    .await
}

/// Options that name files or directories on the server: never from the web.
const PATH_OPTIONS: [&str; 6] = [
    "evalfile",
    "bookfile",
    "bookfiles",
    "egtbpath",
    "egtbpaths",
    "syzygypath",
];

/// The option changes of a JSON object: known names with values of the right type.
fn option_changes(
    map: &serde_json::Map<String, serde_json::Value>,
) -> Result<OptionChanges, String> {
    let mut c = OptionChanges::default();
    for (name, value) in map {
        let key: String = name
            .chars()
            .filter(|ch| !ch.is_whitespace() && *ch != '_')
            .collect::<String>()
            .to_ascii_lowercase();
        let count = || {
            value
                .as_u64()
                .map(|v| v.min(usize::MAX as u64) as usize)
                .ok_or_else(|| format!("option '{name}' takes a whole number"))
        };
        match key.as_str() {
            "threads" => c.threads = Some(count()?),
            "hash" => c.hash = Some(count()?),
            "multipv" => c.multipv = Some(count()?),
            "wdl" => {
                c.wdl = Some(
                    value
                        .as_bool()
                        .ok_or_else(|| format!("option '{name}' takes true or false"))?,
                )
            }
            k if PATH_OPTIONS.contains(&k) => {
                return Err(format!(
                    "option '{name}' names a file on the server; only the command line sets it"
                ))
            }
            _ => {
                return Err(format!(
                    "unknown option '{name}' (threads, hash, multipv, wdl)"
                ))
            }
        }
    }
    Ok(c)
}

async fn options(State(app): State<Arc<App>>, headers: HeaderMap, bytes: Bytes) -> Response {
    let map: serde_json::Map<String, serde_json::Value> = match body(&headers, &bytes, false) {
        Ok(m) => m,
        Err(r) => return r.into_response(),
    };
    let changes = match option_changes(&map) {
        Ok(c) => c,
        Err(e) => return refuse(StatusCode::BAD_REQUEST, &e),
    };
    match with_control(&app, move |s| s.set_options(&changes)).await {
        Ok(Ok(view)) => to_json(&view),
        Ok(Err(r)) => refusal(r),
        Err(r) => r.into_response(),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GameBody {
    human: String,
    base_ms: u64,
    #[serde(default)]
    inc_ms: u64,
    /// The engine's `Skill Level`, 0..=20 (20, full strength, when absent).
    #[serde(default = "full_level")]
    level: u8,
}

fn full_level() -> u8 {
    crate::skill::FULL_LEVEL
}

async fn game(State(app): State<Arc<App>>, headers: HeaderMap, bytes: Bytes) -> Response {
    let b: GameBody = match body(&headers, &bytes, false) {
        Ok(b) => b,
        Err(r) => return r.into_response(),
    };
    let human = match b.human.as_str() {
        "red" => Color::Red,
        "black" => Color::Black,
        other => {
            return refuse(
                StatusCode::BAD_REQUEST,
                &format!("human must be red or black, not '{other}'"),
            )
        }
    };
    match with_control(&app, move |s| {
        s.start_game(human, b.base_ms, b.inc_ms, b.level)
    })
    .await
    {
        Ok(Ok(())) => to_json(&Done { ok: true }),
        Ok(Err(r)) => refusal(r),
        Err(r) => r.into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn changes(text: &str) -> Result<OptionChanges, String> {
        let map = serde_json::from_str(text).expect("an object");
        option_changes(&map)
    }

    #[test]
    fn option_names_and_values() {
        assert_eq!(
            changes(r#"{"Threads": 2, "hash": 16, "MultiPV": 3, "UCI_ShowWDL": true}"#),
            Err("unknown option 'UCI_ShowWDL' (threads, hash, multipv, wdl)".to_string())
        );
        assert_eq!(
            changes(r#"{"Threads": 2, "hash": 16, "MultiPV": 3, "wdl": true}"#),
            Ok(OptionChanges {
                threads: Some(2),
                hash: Some(16),
                multipv: Some(3),
                wdl: Some(true)
            })
        );
        assert_eq!(
            changes(r#"{"threads": "2"}"#),
            Err("option 'threads' takes a whole number".to_string())
        );
        assert_eq!(
            changes(r#"{"EvalFile": "/etc/passwd"}"#),
            Err(
                "option 'EvalFile' names a file on the server; only the command line sets it"
                    .to_string()
            )
        );
        assert_eq!(
            changes(r#"{"EGTB Path": "/"}"#).map_err(|e| e.contains("names a file")),
            Err(true)
        );
    }
}
