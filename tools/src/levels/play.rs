//! Plays one pairing of a calibration as a `pao-tools match` of two engines, with its own
//! results file (`STEM.tsv`, so a stopped run continues where it stopped), its games
//! (`STEM.pgn`) and its match report (`STEM.txt`); reads a pairing's results back.

use super::plan::{Pairing, Player, FULL};
use crate::common::openings::Opening;
use crate::r#match::client::spec::{parse_engine, EngineSpec};
use crate::r#match::clock::Limit;
use crate::r#match::config::MatchConfig;
use crate::r#match::game::GameConfig;
use crate::r#match::runner::run_match;
use crate::r#match::schedule::schedule;
use crate::r#match::state;
use pao::board::Color;
use std::path::{Path, PathBuf};

/// How the players are started and how long they think.
#[derive(Clone, Debug)]
pub struct Players {
    /// Pao, every level of it.
    pub engine: String,
    /// Settings for every Pao (`option.Hash=64` ...), as `match --each` takes them.
    pub each: Vec<String>,
    /// The levels' clock (generous: a level is bound by its nodes, not by its clock).
    pub level_tc: Limit,
    /// Full strength's and the anchor's clock: the scale's time control.
    pub tc: Limit,
    /// The anchor's settings as `match --engine` takes them (`cmd=` among them); `None`
    /// without an anchor.
    pub anchor: Option<Vec<String>>,
    /// The anchor's name.
    pub anchor_name: String,
}

impl Players {
    /// The engine that plays as `p`.
    pub fn spec(&self, p: Player) -> Result<EngineSpec, String> {
        match p {
            Player::Level(level) => {
                let tc = if level == FULL {
                    &self.tc
                } else {
                    &self.level_tc
                };
                let own = [
                    format!("name={}", p.name(&self.anchor_name)),
                    format!("cmd={}", self.engine),
                    format!("option.skilllevel={level}"),
                ];
                let mut spec = parse_engine(&self.each, &own)?;
                spec.limit = Some(tc.clone());
                Ok(spec)
            }
            Player::Anchor => {
                let words = self.anchor.as_ref().ok_or("no anchor engine given")?;
                let mut own = vec![format!("name={}", self.anchor_name)];
                own.extend(words.iter().cloned());
                let mut spec = parse_engine(&[], &own)?;
                spec.name.clone_from(&self.anchor_name);
                spec.limit = Some(self.tc.clone());
                Ok(spec)
            }
        }
    }
}

/// Where a pairing's files go, and the rest of a game's settings.
#[derive(Clone, Debug)]
pub struct Table {
    /// The output directory.
    pub dir: PathBuf,
    /// Games per pairing.
    pub games: usize,
    /// The openings, each played twice with colours swapped.
    pub openings: Vec<Opening>,
    /// Games at once.
    pub concurrency: usize,
}

impl Table {
    fn file(&self, pairing: &Pairing, players: &Players, ext: &str) -> String {
        let name = format!("{}.{ext}", pairing.stem(&players.anchor_name));
        self.dir.join(name).to_string_lossy().into_owned()
    }
}

/// A pairing's results so far from `a`'s side: (games, points).
pub type Score = (usize, f64);

/// Plays what remains of `pairing`'s games (none when its results file is complete) and
/// returns its score.
pub fn play(pairing: &Pairing, players: &Players, table: &Table) -> Result<Score, String> {
    let engines = vec![players.spec(pairing.a)?, players.spec(pairing.b)?];
    let cfg = MatchConfig {
        engines,
        gauntlet: false,
        games: table.games,
        openings: table.openings.clone(),
        game: GameConfig {
            limit: players.tc.clone(),
            margin_ms: 50,
            move_timeout_ms: 60_000,
            handshake_timeout_ms: 10_000,
            max_plies: 600,
            resign: None,
            draw: None,
        },
        concurrency: table.concurrency,
        pgnout: Some(table.file(pairing, players, "pgn")),
        resume: Some(table.file(pairing, players, "tsv")),
        sprt: None,
        event: format!("pao-tools levels {}", pairing.stem(&players.anchor_name)),
        shard: None,
        prior: Default::default(),
        first_pair: 0,
    };
    let (done, _) = score(pairing, players, table)?;
    if done < table.games {
        let report = run_match(&cfg)?;
        std::fs::write(table.file(pairing, players, "txt"), report)
            .map_err(|e| format!("cannot write the report of {pairing}: {e}"))?;
    }
    score(pairing, players, table)
}

/// The score of `pairing` in its results file (nothing played: no games).
pub fn score(pairing: &Pairing, players: &Players, table: &Table) -> Result<Score, String> {
    let names = [
        pairing.a.name(&players.anchor_name),
        pairing.b.name(&players.anchor_name),
    ];
    let path = table.file(pairing, players, "tsv");
    if !Path::new(&path).exists() {
        return Ok((0, 0.0));
    }
    // Results beyond `games` (a longer run before) count too: the schedule only grows.
    let text = std::fs::read_to_string(&path).map_err(|e| format!("cannot read '{path}': {e}"))?;
    let played = text.lines().filter(|l| !l.starts_with('#')).count();
    let jobs = schedule(
        2,
        false,
        table.games.max(played),
        table.openings.len().max(1),
    );
    let results = state::load(&path, &jobs, &names)?;
    let points = results
        .values()
        .map(|r| {
            let a_colour = if r.red == names[0] {
                Color::Red
            } else {
                Color::Black
            };
            r.outcome.points_for(a_colour)
        })
        .sum();
    Ok((results.len(), points))
}
