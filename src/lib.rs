//! Pao: a xiangqi (Chinese chess) engine daemon.
#![deny(missing_docs)]

pub mod bench;
pub mod board;
pub mod eval;
pub mod search;
pub mod smp;
pub mod tt;
pub mod options;
