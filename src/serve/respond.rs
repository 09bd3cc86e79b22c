//! Answers that are not JSON: one line of plain text saying why a request was refused.

use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};

/// `status` with `reason` as one line of text.
pub fn refuse(status: StatusCode, reason: &str) -> Response {
    // A reason never spans lines, whatever the text it quotes.
    let line: String = reason
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    (
        status,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        format!("{line}\n"),
    )
        .into_response()
}
