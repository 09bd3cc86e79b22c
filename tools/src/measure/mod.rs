//! The measuring commands: one engine process driven and timed or watched. `latency` times
//! `stop` to `bestmove`, `soak` watches a long `go infinite`, `hashclear` times `Clear Hash`
//! on a used table.

pub mod hashclear;
pub mod latency;
pub mod soak;
