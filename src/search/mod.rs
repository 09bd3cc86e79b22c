//! One thread's search.

pub mod config;
pub mod heuristics;
pub mod limits;
pub mod ordering;
mod pvs;
mod qsearch;
pub mod reference;
pub mod repetition;
pub mod score;
pub mod worker;

pub use config::{Driver, SearchConfig};
pub use limits::Limits;
pub use worker::{Iteration, SearchResult, Searcher};
