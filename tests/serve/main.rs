//! `pao serve` through loopback, against a real server process: the API with a real HTTP and
//! WebSocket client (`api`), the token, Host, Origin, proxies and limits (`access`),
//! connection places (`connections`), watcher places (`watchers`), the files only the command
//! line names (`engine_files`), the page in a real browser (`browser`), watchers under load
//! (`load`), fuzzed abuse (`abuse`), the token by default, its cookie and the printed link
//! (`tokens`), and what clients without the token or from one address can take (`shares`).
//! One test binary for all of them: each test binary is linked with the whole async stack,
//! once is enough.

mod abuse;
mod access;
mod api;
mod browser;
mod common;
mod connections;
/// The daemon tests' helpers (a random net for `--evalfile`).
#[path = "../common/mod.rs"]
mod daemon;
mod engine_files;
mod load;
mod shares;
mod tokens;
mod watchers;
