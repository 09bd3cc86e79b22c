//! The analysis page: one HTML document with its style and scripts inlined (so that loading
//! it is one request, which carries the token), embedded in the binary.

use axum::http::header;
use axum::response::{IntoResponse, Response};
use std::sync::OnceLock;

const HTML: &str = include_str!("page/index.html");
const STYLE: &str = include_str!("page/style.css");
const BOARD: &str = include_str!("page/board.js");
const APP: &str = include_str!("page/app.js");

/// The page's security policy: its own inline code only, requests to its own origin only,
/// and no referrer (the address may carry the token).
const POLICY: &str = "default-src 'none'; script-src 'unsafe-inline'; \
    style-src 'unsafe-inline'; img-src data:; connect-src 'self'; base-uri 'none'; \
    form-action 'none'; frame-ancestors 'none'";

/// The document.
pub fn document() -> &'static str {
    static PAGE: OnceLock<String> = OnceLock::new();
    PAGE.get_or_init(|| {
        HTML.replace("/*STYLE*/", STYLE)
            .replace("/*BOARD*/", BOARD)
            .replace("/*APP*/", APP)
    })
}

/// `GET /`.
pub async fn index() -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CONTENT_SECURITY_POLICY, POLICY),
            (header::REFERRER_POLICY, "no-referrer"),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        document(),
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_part_is_inlined() {
        let page = super::document();
        assert!(!page.contains("/*STYLE*/") && !page.contains("/*BOARD*/"));
        assert!(!page.contains("/*APP*/"));
        assert!(page.contains("const Board = "));
        assert!(page.contains("#board {"));
        assert!(page.contains("history.replaceState"));
    }
}
