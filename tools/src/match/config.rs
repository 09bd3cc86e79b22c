//! A whole match as the command line describes it: engines, games, openings, limits, where
//! the results go. `mod.rs` makes it, the runner plays it, a shard's results file names it.

use super::client::spec::EngineSpec;
use super::game::GameConfig;
use super::stats::{Pentanomial, Sprt};
use crate::common::openings::Opening;
use crate::common::shard::Shard;

/// A whole match.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The engines (names unique).
    pub engines: Vec<EngineSpec>,
    /// First engine against each other instead of a round robin.
    pub gauntlet: bool,
    /// Games per pairing.
    pub games: usize,
    /// Openings, used in turn, each twice with colours swapped.
    pub openings: Vec<Opening>,
    /// Per-game settings.
    pub game: GameConfig,
    /// Games played at once.
    pub concurrency: usize,
    /// PGN file to append games to.
    pub pgnout: Option<String>,
    /// Results file: read at start (finished games are skipped) and appended to.
    pub resume: Option<String>,
    /// Stop early when the SPRT decides.
    pub sprt: Option<Sprt>,
    /// PGN event name.
    pub event: String,
    /// Play only this shard's game pairs (the results file is the shard's).
    pub shard: Option<Shard>,
    /// Earlier runs of the same test: their game pairs, pooled into the Elo and the SPRT.
    pub prior: Pentanomial,
    /// The opening pair this run starts at (`openings` is already rotated to start there).
    pub first_pair: usize,
}
