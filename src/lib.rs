//! Pao: a xiangqi (Chinese chess) engine daemon.
#![deny(missing_docs)]

pub mod board;
