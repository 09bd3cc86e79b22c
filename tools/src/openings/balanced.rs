//! `pao-tools openings`: a file of distinct, balanced openings made by Pao's own search.
//!
//! Each opening is a short random walk from the start position over moves that a shallow
//! search finds playable (within a margin of the best move), kept only when a deeper search
//! of the final position scores it near zero. A seed makes the file reproducible.

use super::formats::{self, Format};
use crate::common::openings::{self as opening_file, Opening};
use crate::common::rng::SplitMix64;
use crate::common::Failure;
use pao::board::{Move, Position};
use pao::search::{Limits, SearchConfig, Searcher};
use pao::tt::TranspositionTable;
use std::collections::HashSet;
use std::sync::Arc;

/// `pao-tools openings [options] > FILE`: writes balanced openings for `pao-tools match
/// --openings`, one line of ICCS moves from the start position each, after a '#' header that
/// records the command; or as EPD or PGN for cutechess-cli and the GUIs; or converts a file.
#[derive(clap::Args, Clone, Debug, PartialEq, Eq)]
#[command(
    after_help = "Usage: pao-tools openings [OPTIONS] > FILE. Writes one line of ICCS \
moves from the start position per opening, after a '#' header that records the command; \
--format epd or pgn writes the position each opening ends in (the moves in a comment). \
With --from FILE the openings of FILE are converted instead of searched, e.g. \
pao-tools openings --from tools/data/balanced-openings.txt --format epd"
)]
pub struct GenConfig {
    /// Openings to write
    #[arg(long, value_name = "N", default_value_t = 250, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    pub count: usize,
    /// Moves (plies) per opening
    #[arg(long, value_name = "P", default_value_t = 6, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    pub plies: usize,
    /// Depth of the search that rates each candidate move
    #[arg(long = "pick-depth", value_name = "D", default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..))]
    pub pick_depth: u32,
    /// A move is playable within CP centipawns of the best one
    #[arg(
        long,
        value_name = "CP",
        default_value_t = 60,
        allow_negative_numbers = true
    )]
    pub margin: i32,
    /// Depth of the balance search of the final position
    #[arg(long, value_name = "D", default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..))]
    pub depth: u32,
    /// Keep an opening when |score| <= CP at --depth
    #[arg(
        long = "max-score",
        value_name = "CP",
        default_value_t = 60,
        allow_negative_numbers = true
    )]
    pub max_score: i32,
    /// Random seed
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// The file format to write
    #[arg(long, value_enum, default_value_t = Format::Iccs)]
    pub format: Format,
    /// Convert the openings of this file (as `match --openings` reads them) instead of
    /// searching new ones; the search options are then unused
    #[arg(long, value_name = "FILE")]
    pub from: Option<String>,
}

/// One opening found: its moves and the balance search's score (red to move's view when the
/// ply count is even).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generated {
    /// ICCS moves from the start position.
    pub moves: Vec<Move>,
    /// Score of the final position for the side to move at the balance depth.
    pub score: i32,
}

/// A searcher on a fresh table for every call, so results do not depend on earlier searches.
struct Scorer {
    tt: Arc<TranspositionTable>,
    searcher: Searcher,
}

impl Scorer {
    fn new() -> Result<Scorer, String> {
        let tt = Arc::new(TranspositionTable::new(4).map_err(|e| e.to_string())?);
        let searcher = Searcher::new(tt.clone(), SearchConfig::FULL);
        Ok(Scorer { tt, searcher })
    }

    /// Score of `pos` at `depth`, optionally for one root move only.
    fn score(&mut self, pos: &Position, depth: u32, only: &[Move]) -> i32 {
        self.tt.clear();
        self.searcher.clear_heuristics();
        self.searcher
            .search(pos, &Limits::depth(depth), only, &mut |_| {})
            .score
    }
}

/// Generates openings; `progress` is called with each one kept.
pub fn generate(
    cfg: &GenConfig,
    progress: &mut dyn FnMut(&Generated),
) -> Result<Vec<Generated>, String> {
    let mut rng = SplitMix64::from_state(cfg.seed);
    let mut scorer = Scorer::new()?;
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    // Give up rather than loop for ever when the settings admit too few openings.
    let max_attempts = cfg.count * 50 + 100;
    for _ in 0..max_attempts {
        if out.len() >= cfg.count {
            break;
        }
        let mut pos = Position::startpos();
        let mut moves = Vec::new();
        for _ in 0..cfg.plies {
            let legal: Vec<Move> = pos.legal_moves().iter().copied().collect();
            if legal.is_empty() {
                break;
            }
            let scored: Vec<(Move, i32)> = legal
                .iter()
                .map(|&m| (m, scorer.score(&pos, cfg.pick_depth, &[m])))
                .collect();
            let best = scored.iter().map(|s| s.1).max().unwrap_or(0);
            let playable: Vec<Move> = scored
                .iter()
                .filter(|s| s.1 >= best - cfg.margin)
                .map(|s| s.0)
                .collect();
            let m = playable[rng.below_by_modulo(playable.len())];
            pos.make_move(m);
            moves.push(m);
        }
        if moves.len() < cfg.plies || !seen.insert(pos.key()) {
            continue;
        }
        let score = scorer.score(&pos, cfg.depth, &[]);
        if score.abs() <= cfg.max_score {
            let g = Generated { moves, score };
            progress(&g);
            out.push(g);
        }
    }
    Ok(out)
}

/// Runs `pao-tools openings ARGS`.
pub fn run(cfg: GenConfig) -> Result<(), Failure> {
    if let Some(path) = &cfg.from {
        let openings = opening_file::load(Some(path)).map_err(Failure::Usage)?;
        print!("{}", formats::file(&openings, cfg.format)?);
        return Ok(());
    }
    if cfg.format == Format::Iccs {
        println!(
            "# {} balanced openings by Pao's search: pao-tools openings --count {} --plies {} \
             --pick-depth {} --margin {} --depth {} --max-score {} --seed {}",
            cfg.count,
            cfg.count,
            cfg.plies,
            cfg.pick_depth,
            cfg.margin,
            cfg.depth,
            cfg.max_score,
            cfg.seed
        );
    }
    let mut kept = 0;
    let mut failed = None;
    let got = generate(&cfg, &mut |g| {
        let text: Vec<String> = g.moves.iter().map(|m| m.to_string()).collect();
        kept += 1;
        let opening = Opening {
            fen: pao::board::START_FEN.to_string(),
            moves: g.moves.clone(),
        };
        match formats::record(&opening, kept, cfg.format) {
            Ok(r) => print!("{r}"),
            Err(e) => failed = Some(e),
        }
        eprintln!("score {:+4}  {}", g.score, text.join(" "));
    })?;
    if let Some(e) = failed {
        return Err(e.into());
    }
    if got.len() < cfg.count {
        return Err(format!(
            "only {} of {} openings found: loosen --margin or --max-score",
            got.len(),
            cfg.count
        )
        .into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openings_are_distinct_legal_and_balanced() {
        let cfg = GenConfig {
            count: 3,
            plies: 2,
            pick_depth: 1,
            margin: 30,
            depth: 3,
            max_score: 60,
            seed: 7,
            format: Format::Iccs,
            from: None,
        };
        let got = generate(&cfg, &mut |_| {}).unwrap();
        assert_eq!(got.len(), 3);
        let mut keys = HashSet::new();
        for g in &got {
            assert_eq!(g.moves.len(), 2);
            assert!(g.score.abs() <= 60);
            let mut pos = Position::startpos();
            for &m in &g.moves {
                assert!(pos.is_legal(m));
                pos.make_move(m);
            }
            assert!(keys.insert(pos.key()));
        }
        // The same seed gives the same openings.
        assert_eq!(generate(&cfg, &mut |_| {}).unwrap(), got);
    }
}
