//! The runner's side of the engine protocols: engine specifications from the command line, the
//! engine process, the UCCI and UCI dialects, and one engine as a player in a game.

pub mod player;
pub mod process;
pub mod protocol;
pub mod spec;
