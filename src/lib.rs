//! Pao: a xiangqi (Chinese chess) engine daemon.
#![deny(missing_docs)]

pub mod bench;
pub mod board;
pub mod book;
pub mod coordinator;
pub mod egtb;
pub mod eval;
pub mod options;
pub mod protocol;
pub mod search;
pub mod serve;
pub mod sigpipe;
pub mod skill;
pub mod smp;
pub mod time;
pub mod tt;
