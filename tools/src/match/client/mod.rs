//! The runner's side of the engine protocols: engine specifications from the command line, the
//! UCCI and UCI dialects over the engine process (`common::process`), and one engine as a
//! player in a game.

pub mod player;
pub mod protocol;
pub mod spec;
