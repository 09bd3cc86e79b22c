//! `pao-tools datagen stats`: what a data file holds.

use super::record::{read_file, Outcome, Record};
use pao::board::Color;
use std::collections::HashSet;
use std::fmt::Write;

/// Score histogram bucket edges (centipawns, side to move).
const EDGES: [i32; 10] = [-2000, -1000, -500, -200, -50, 50, 200, 500, 1000, 2000];

/// Counts over a set of records.
#[derive(Default, Debug, PartialEq, Eq)]
pub struct Summary {
    /// Records.
    pub positions: u64,
    /// Records that start a game.
    pub games: u64,
    /// Results for red over all positions' games, counted once per game: win, draw, loss.
    pub red_results: [u64; 3],
    /// Positions per score bucket (`EDGES.len() + 1` buckets).
    pub histogram: [u64; EDGES.len() + 1],
    /// Distinct (board, side to move) pairs.
    pub distinct: u64,
}

/// Summarises `records`.
pub fn summarise<'a>(records: impl IntoIterator<Item = &'a Record>) -> Summary {
    let mut s = Summary::default();
    let mut seen = HashSet::new();
    for r in records {
        s.positions += 1;
        if r.first_of_game {
            s.games += 1;
            let red = if r.side == Color::Red {
                r.outcome
            } else {
                r.outcome.flip()
            };
            s.red_results[match red {
                Outcome::Win => 0,
                Outcome::Draw => 1,
                Outcome::Loss => 2,
            }] += 1;
        }
        let bucket = EDGES.iter().take_while(|&&e| r.score as i32 >= e).count();
        s.histogram[bucket] += 1;
        if seen.insert((r.board, r.side)) {
            s.distinct += 1;
        }
    }
    s
}

/// The report for `files`.
pub fn report(files: &[String]) -> Result<String, String> {
    let mut all = Vec::new();
    for f in files {
        all.extend(read_file(f).map_err(|e| e.to_string())?);
    }
    let s = summarise(&all);
    let mut out = String::new();
    let pct = |n: u64, of: u64| 100.0 * n as f64 / of.max(1) as f64;
    let _ = writeln!(out, "positions {}", s.positions);
    let _ = writeln!(out, "games {}", s.games);
    let _ = writeln!(
        out,
        "red wins {} ({:.1}%), draws {} ({:.1}%), black wins {} ({:.1}%)",
        s.red_results[0],
        pct(s.red_results[0], s.games),
        s.red_results[1],
        pct(s.red_results[1], s.games),
        s.red_results[2],
        pct(s.red_results[2], s.games)
    );
    let _ = writeln!(
        out,
        "distinct positions {} ({:.1}%)",
        s.distinct,
        pct(s.distinct, s.positions)
    );
    let _ = writeln!(out, "score histogram (side to move, centipawns):");
    for (i, n) in s.histogram.iter().enumerate() {
        let label = match i {
            0 => format!("< {}", EDGES[0]),
            i if i == EDGES.len() => format!(">= {}", EDGES[i - 1]),
            i => format!("{} .. {}", EDGES[i - 1], EDGES[i] - 1),
        };
        let _ = writeln!(out, "  {label:>14} {n:>10} {:5.1}%", pct(*n, s.positions));
    }
    Ok(out)
}
