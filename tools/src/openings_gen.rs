//! `pao-tools openings`: a file of distinct, balanced openings made by Pao's own search.
//!
//! Each opening is a short random walk from the start position over moves that a shallow
//! search finds playable (within a margin of the best move), kept only when a deeper search
//! of the final position scores it near zero. A seed makes the file reproducible.

use pao::board::{Move, Position};
use pao::search::{Limits, SearchConfig, Searcher};
use pao::tt::TranspositionTable;
use std::collections::HashSet;
use std::sync::Arc;

/// Help for `openings`.
pub fn usage() -> String {
    "usage: pao-tools openings [options] > FILE
  Writes balanced openings for `pao-tools match --openings`: one line of ICCS moves from the
  start position each, after a '#' header that records the command.
  options:
    --count N        openings to write (default 250)
    --plies P        moves per opening (default 6)
    --pick-depth D   depth of the search that rates each candidate move (default 4)
    --margin CP      a move is playable within CP of the best one (default 60)
    --depth D        depth of the balance search of the final position (default 10)
    --max-score CP   keep an opening when |score| <= CP at --depth (default 60)
    --seed S         random seed (default 1)
"
    .to_string()
}

/// What to generate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenConfig {
    /// Openings wanted.
    pub count: usize,
    /// Plies per opening.
    pub plies: usize,
    /// Depth used to rate candidate moves.
    pub pick_depth: u32,
    /// Playable margin in centipawns.
    pub margin: i32,
    /// Depth of the balance check.
    pub depth: u32,
    /// Largest accepted |score| at `depth`.
    pub max_score: i32,
    /// Random seed.
    pub seed: u64,
}

impl Default for GenConfig {
    fn default() -> Self {
        GenConfig {
            count: 250,
            plies: 6,
            pick_depth: 4,
            margin: 60,
            depth: 10,
            max_score: 60,
            seed: 1,
        }
    }
}

/// SplitMix64: a tiny, well-mixed generator; good enough to pick among a few moves.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
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
    let mut rng = Rng(cfg.seed);
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
            let m = playable[rng.below(playable.len())];
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

pub fn parse(args: &[String]) -> Result<GenConfig, String> {
    let mut cfg = GenConfig::default();
    let mut i = 0;
    while i < args.len() {
        let flag = args[i].as_str();
        let value = args
            .get(i + 1)
            .ok_or_else(|| format!("{flag} needs a value"))?;
        let bad = |_| format!("{flag}: '{value}' is not a valid number");
        match flag {
            "--count" => cfg.count = value.parse().map_err(bad)?,
            "--plies" => cfg.plies = value.parse().map_err(bad)?,
            "--pick-depth" => cfg.pick_depth = value.parse().map_err(bad)?,
            "--margin" => cfg.margin = value.parse().map_err(bad)?,
            "--depth" => cfg.depth = value.parse().map_err(bad)?,
            "--max-score" => cfg.max_score = value.parse().map_err(bad)?,
            "--seed" => cfg.seed = value.parse().map_err(bad)?,
            _ => {
                return Err(format!(
                    "unknown argument '{flag}' (see pao-tools help openings)"
                ))
            }
        }
        i += 2;
    }
    if cfg.count == 0 || cfg.plies == 0 || cfg.pick_depth == 0 || cfg.depth == 0 {
        return Err("--count, --plies and the depths must be positive".to_string());
    }
    Ok(cfg)
}

/// Runs `pao-tools openings ARGS`.
pub fn run(args: &[String]) -> Result<(), String> {
    let cfg = parse(args)?;
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
    let got = generate(&cfg, &mut |g| {
        let text: Vec<String> = g.moves.iter().map(|m| m.to_string()).collect();
        println!("{}", text.join(" "));
        eprintln!("score {:+4}  {}", g.score, text.join(" "));
    })?;
    if got.len() < cfg.count {
        return Err(format!(
            "only {} of {} openings found: loosen --margin or --max-score",
            got.len(),
            cfg.count
        ));
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
        assert!(parse(&["--count".into(), "x".into()]).is_err());
        assert!(parse(&["--plies".into(), "0".into()]).is_err());
    }
}
