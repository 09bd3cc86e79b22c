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
use std::collections::{HashMap, HashSet};
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
    /// Threads for the searches (the file is the same for any count; default: all cores)
    #[arg(long, value_name = "N", value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    pub threads: Option<usize>,
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

/// The move-scoring searches of every thread, and the playable moves of each position met.
///
/// The walks of one file start from the same position, so their first plies meet the same
/// positions again and again: the playable moves of a position are computed once. Every search
/// runs on a fresh table, so a score is a function of the position alone and the file does not
/// depend on the thread count.
struct Walker {
    scorers: Vec<Scorer>,
    playable: HashMap<u64, Vec<Move>>,
    pick_depth: u32,
    margin: i32,
}

impl Walker {
    /// The moves of `pos` within the margin of the best one at the pick depth.
    fn playable(&mut self, pos: &mut Position) -> Vec<Move> {
        if let Some(p) = self.playable.get(&pos.key()) {
            return p.clone();
        }
        let legal: Vec<Move> = pos.legal_moves().iter().copied().collect();
        let depth = self.pick_depth;
        let root: &Position = pos;
        let scored = score_all(&mut self.scorers, &legal, |scorer, &m| {
            (m, scorer.score(root, depth, &[m]))
        });
        let best = scored.iter().map(|s| s.1).max().unwrap_or(0);
        let moves: Vec<Move> = scored
            .iter()
            .filter(|s| s.1 >= best - self.margin)
            .map(|s| s.0)
            .collect();
        self.playable.insert(pos.key(), moves.clone());
        moves
    }
}

/// `f` over `items` on one thread per scorer, each thread with its own scorer; results in
/// the order of `items`.
fn score_all<T: Sync, R: Send>(
    scorers: &mut [Scorer],
    items: &[T],
    f: impl Fn(&mut Scorer, &T) -> R + Sync,
) -> Vec<R> {
    if scorers.len() <= 1 || items.len() <= 1 {
        let Some(scorer) = scorers.first_mut() else {
            return Vec::new();
        };
        return items.iter().map(|it| f(scorer, it)).collect();
    }
    let chunk = items.len().div_ceil(scorers.len());
    let f = &f;
    std::thread::scope(|s| {
        let handles: Vec<_> = scorers
            .iter_mut()
            .zip(items.chunks(chunk))
            .map(|(scorer, part)| {
                s.spawn(move || part.iter().map(|it| f(scorer, it)).collect::<Vec<R>>())
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect::<Vec<R>>()
    })
}

/// Generates openings on `threads` threads (the same file for any count); `progress` is
/// called with each one kept.
pub fn generate(
    cfg: &GenConfig,
    threads: usize,
    progress: &mut dyn FnMut(&Generated),
) -> Result<Vec<Generated>, String> {
    let mut rng = SplitMix64::from_state(cfg.seed);
    let mut walker = Walker {
        scorers: (0..threads.max(1))
            .map(|_| Scorer::new())
            .collect::<Result<_, _>>()?,
        playable: HashMap::new(),
        pick_depth: cfg.pick_depth,
        margin: cfg.margin,
    };
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    // Give up rather than loop for ever when the settings admit too few openings.
    let max_attempts = cfg.count * 50 + 100;
    let mut attempts = 0;
    while out.len() < cfg.count && attempts < max_attempts {
        // A batch of walks, one after another (each draws from the one random sequence), then
        // the balance searches of their new final positions side by side.
        let batch = (walker.scorers.len() * 2).min(max_attempts - attempts);
        let mut walks = Vec::with_capacity(batch);
        for _ in 0..batch {
            let mut pos = Position::startpos();
            let mut moves = Vec::new();
            for _ in 0..cfg.plies {
                let playable = walker.playable(&mut pos);
                if playable.is_empty() {
                    break;
                }
                let m = playable[rng.below_by_modulo(playable.len())];
                pos.make_move(m);
                moves.push(m);
            }
            walks.push((moves, pos));
        }
        // Which walks are kept is decided in order below; a walk past the last one needed is
        // searched for nothing, which changes no result.
        let fresh: Vec<bool> = walks
            .iter()
            .map(|(moves, pos)| moves.len() == cfg.plies && seen.insert(pos.key()))
            .collect();
        let finals: Vec<&Position> = walks
            .iter()
            .zip(&fresh)
            .filter(|(_, &f)| f)
            .map(|(w, _)| &w.1)
            .collect();
        let depth = cfg.depth;
        let mut scores = score_all(&mut walker.scorers, &finals, |scorer, pos| {
            scorer.score(pos, depth, &[])
        })
        .into_iter();
        for ((moves, _), is_fresh) in walks.into_iter().zip(fresh) {
            if out.len() >= cfg.count {
                break;
            }
            attempts += 1;
            if !is_fresh {
                continue;
            }
            let score = scores.next().unwrap_or(i32::MAX);
            if score.abs() <= cfg.max_score {
                let g = Generated { moves, score };
                progress(&g);
                out.push(g);
            }
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
    let threads = cfg.threads.unwrap_or_else(num_cpus::get);
    let got = generate(&cfg, threads, &mut |g| {
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
            threads: None,
            format: Format::Iccs,
            from: None,
        };
        let got = generate(&cfg, 1, &mut |_| {}).unwrap();
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
        assert_eq!(generate(&cfg, 1, &mut |_| {}).unwrap(), got);
    }

    #[test]
    fn the_file_does_not_depend_on_the_thread_count() {
        let cfg = GenConfig {
            count: 24,
            plies: 4,
            pick_depth: 2,
            margin: 40,
            depth: 4,
            max_score: 60,
            seed: 11,
            threads: None,
            format: Format::Iccs,
            from: None,
        };
        let one = generate(&cfg, 1, &mut |_| {}).unwrap();
        assert_eq!(one.len(), 24);
        assert_eq!(generate(&cfg, 3, &mut |_| {}).unwrap(), one);
    }
}
