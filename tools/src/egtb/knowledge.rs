//! `pao-tools egtb knowledge`: what the evaluation knows of the endings the tables solve.
//! Every position of a sample (`egtb sample`) is searched without tables, one thread, a fixed
//! number of nodes; the score agrees with the table when a win scores +300 or more (a mate or
//! a rule win included), a draw within 100 of 0, a loss -300 or below (100 = one pawn as a
//! GUI shows scores). Printed per material and in total, as a Markdown table.

use crate::common::threads::set_threads;
use crate::common::Failure;
use pao::board::Position;
use pao::eval::nnue::Network;
use pao::search::{Limits, SearchConfig, Searcher};
use pao::tt::TranspositionTable;
use rayon::prelude::*;
use std::path::PathBuf;
use std::sync::Arc;

/// A win (or loss) is judged right from this score on.
pub const DECIDED: i32 = 300;
/// A draw is judged right within this score of 0.
pub const DRAWN: i32 = 100;

#[derive(clap::Args, Debug)]
pub struct KnowledgeArgs {
    /// The sample (`pao-tools egtb sample` writes it)
    #[arg(long, default_value = "tools/data/endgame-knowledge.txt")]
    sample: PathBuf,
    /// Nodes per search (one thread)
    #[arg(long, default_value_t = 20_000)]
    nodes: u64,
    /// Hash per search in MiB
    #[arg(long, default_value_t = 8)]
    hash: usize,
    /// Search switches relative to the engine's defaults, as `SearchSwitches` takes them
    #[arg(long, default_value = "")]
    switches: String,
    /// A network file instead of the embedded net
    #[arg(long, conflicts_with = "hand")]
    eval_file: Option<String>,
    /// The hand-written evaluation instead of the net
    #[arg(long)]
    hand: bool,
    /// Only the totals, not one row per material
    #[arg(long)]
    totals: bool,
    /// Searches run side by side, each on one thread (default: all cores)
    #[arg(long)]
    threads: Option<usize>,
}

/// One sampled position.
struct Item {
    material: String,
    fen: String,
    /// 1 win, 0 draw, -1 loss, for the side to move.
    wdl: i32,
}

/// Right / sampled, per class.
#[derive(Default, Clone, Copy)]
struct Tally {
    right: [u64; 3],
    total: [u64; 3],
}

impl Tally {
    fn add(&mut self, o: &Tally) {
        for c in 0..3 {
            self.right[c] += o.right[c];
            self.total[c] += o.total[c];
        }
    }

    fn cell(&self, c: usize) -> String {
        if self.total[c] == 0 {
            "-".into()
        } else {
            format!(
                "{} / {} ({:.0} %)",
                self.right[c],
                self.total[c],
                100.0 * self.right[c] as f64 / self.total[c] as f64
            )
        }
    }

    fn all(&self) -> String {
        let (r, t): (u64, u64) = (self.right.iter().sum(), self.total.iter().sum());
        format!("{r} / {t} ({:.1} %)", 100.0 * r as f64 / t.max(1) as f64)
    }
}

fn parse_sample(text: &str) -> Result<Vec<Item>, String> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = || format!("line {}: expected MATERIAL<tab>FEN<tab>VALUE", n + 1);
        let mut cols = line.split('\t');
        let (Some(material), Some(fen), Some(value)) = (cols.next(), cols.next(), cols.next())
        else {
            return Err(bad());
        };
        let wdl = match value.split_whitespace().next() {
            Some("win") => 1,
            Some("draw") => 0,
            Some("loss") => -1,
            _ => return Err(bad()),
        };
        out.push(Item {
            material: material.to_string(),
            fen: fen.to_string(),
            wdl,
        });
    }
    Ok(out)
}

/// Whether `score` (side to move) agrees with the table's `wdl`.
pub fn agrees(wdl: i32, score: i32) -> bool {
    match wdl {
        1 => score >= DECIDED,
        -1 => score <= -DECIDED,
        _ => score.abs() <= DRAWN,
    }
}

/// Runs `egtb knowledge`.
pub fn run(a: KnowledgeArgs) -> Result<(), Failure> {
    set_threads(a.threads);
    let text = std::fs::read_to_string(&a.sample)
        .map_err(|e| Failure::Usage(format!("{}: {e}", a.sample.display())))?;
    let items = parse_sample(&text).map_err(|e| format!("{}: {e}", a.sample.display()))?;
    let config = SearchConfig::FULL
        .with_switches(&a.switches)
        .map_err(Failure::Usage)?;
    let net: Option<Arc<Network>> = if a.hand {
        None
    } else if let Some(path) = &a.eval_file {
        Some(Arc::new(
            Network::load(path).map_err(|e| format!("{path}: {e}"))?,
        ))
    } else {
        pao::eval::nnue::embedded()
    };
    let (nodes, hash) = (a.nodes, a.hash);
    let scores: Vec<Result<i32, String>> = items
        .par_iter()
        .map_init(
            || -> Result<(Arc<TranspositionTable>, Searcher), String> {
                let tt = Arc::new(TranspositionTable::new(hash).map_err(|e| e.0)?);
                let mut s = Searcher::new(tt.clone(), config);
                s.set_network(net.clone());
                Ok((tt, s))
            },
            |state, item| {
                let (tt, s) = state.as_mut().map_err(|e| e.clone())?;
                let pos = Position::from_fen(&item.fen)
                    .map_err(|e| format!("bad FEN '{}': {e}", item.fen))?;
                tt.clear();
                s.clear_heuristics();
                // As `go nodes N` sets them.
                let mut limits = Limits::depth(120);
                limits.nodes = nodes;
                limits.stop_when_decided = true;
                Ok(s.search(&pos, &limits, &[], &mut |_| {}).score)
            },
        )
        .collect();
    let mut rows: Vec<(String, Tally)> = Vec::new();
    for (item, score) in items.iter().zip(scores) {
        let score = score?;
        if rows
            .last()
            .map(|(m, _)| m != &item.material)
            .unwrap_or(true)
        {
            rows.push((item.material.clone(), Tally::default()));
        }
        let Some((_, t)) = rows.last_mut() else {
            continue;
        };
        let c = (1 - item.wdl) as usize;
        t.total[c] += 1;
        t.right[c] += u64::from(agrees(item.wdl, score));
    }
    println!(
        "| material | wins scored +{DECIDED} or more | draws scored within {DRAWN} of 0 | losses scored -{DECIDED} or below | all |"
    );
    println!("|---|---:|---:|---:|---:|");
    let mut total = Tally::default();
    let (mut drawn, mut drawn_ok) = (0, 0);
    for (m, t) in &rows {
        total.add(t);
        if t.total[1] > 0 {
            drawn += 1;
            if t.right[1] * 100 >= 95 * t.total[1] {
                drawn_ok += 1;
            }
        }
        if !a.totals {
            println!(
                "| {m} | {} | {} | {} | {} |",
                t.cell(0),
                t.cell(1),
                t.cell(2),
                t.all()
            );
        }
    }
    println!(
        "| **all ({} materials)** | {} | {} | {} | {} |",
        rows.len(),
        total.cell(0),
        total.cell(1),
        total.cell(2),
        total.all()
    );
    println!(
        "materials whose sampled draws are scored as draws in 95 % or more: {drawn_ok} of {drawn}"
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_agree_with_values_by_the_thresholds() {
        assert!(agrees(1, 300) && !agrees(1, 299) && agrees(1, 29_990));
        assert!(agrees(0, 100) && agrees(0, -100) && !agrees(0, 101) && !agrees(0, -340));
        assert!(agrees(-1, -300) && !agrees(-1, 0));
        let items =
            parse_sample("# c\nKCK\t4k4/9/9/9/9/9/9/9/4C4/3K5 w - - 0 1\tdraw\n").expect("sample");
        assert_eq!((items.len(), items[0].wdl), (1, 0));
        assert!(parse_sample("KCK\tfen\tmaybe\n").is_err());
    }
}
