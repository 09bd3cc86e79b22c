//! What several commands share, one floor below all of them: how a command fails, which engine
//! to run and the engine process, openings, the seeded generator, shards of a run, the date of
//! PGN tags and provenance lines, the thread pool, atomic writes,
//! writers' locks and the stop signals. Nothing here imports a command.

pub mod atomic;
pub mod date;
pub mod engine;
pub mod failure;
pub mod lock;
pub mod openings;
pub mod process;
pub mod rng;
pub mod shard;
pub mod signals;
pub mod threads;

pub use failure::Failure;
