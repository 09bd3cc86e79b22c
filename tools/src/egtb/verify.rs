//! `pao-tools egtb verify`: every position of a table against its moves, and a sample of
//! positions against Pao's own search with the tables off.

use super::tables::{open, parse_materials};
use crate::common::rng::SplitMix64;
use crate::common::threads::set_threads;
use crate::common::Failure;
use pao::egtb::{index::position_of, verify, Material, Outcome, Tablebases};
use pao::search::score::MATE;
use pao::search::{Limits, SearchConfig, Searcher};
use rayon::prelude::*;
use std::path::PathBuf;
use std::sync::Arc;

#[derive(clap::Args, Debug)]
pub struct VerifyArgs {
    /// Directory of table files
    #[arg(long)]
    dir: PathBuf,
    /// Signatures to check (default: every table in the directory)
    materials: Vec<String>,
    /// Also compare this many random positions per table with Pao's search (tables off)
    #[arg(long, default_value_t = 0)]
    search: usize,
    /// Depth of those searches
    #[arg(long, default_value_t = 12)]
    depth: u32,
    /// Seed of the sample
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: all cores)
    #[arg(long)]
    threads: Option<usize>,
}

/// How a sampled position's search compared with its table verdict. Only `contradict` is a
/// fault: a mate shorter than the table's, a mate for the wrong side, a mate in a drawn
/// position. A depth-limited search with pruning may find a longer mate or none.
#[derive(Default, Debug, Clone, Copy)]
struct Agreement {
    same_mate: u64,
    longer_mate: u64,
    rule_win: u64,
    no_mate_eval_agrees: u64,
    no_mate_eval_disagrees: u64,
    draw_held: u64,
    draw_rule_decided: u64,
    rule_draw: u64,
    contradict: u64,
}

impl Agreement {
    fn add(&mut self, o: &Agreement) {
        self.same_mate += o.same_mate;
        self.longer_mate += o.longer_mate;
        self.rule_win += o.rule_win;
        self.no_mate_eval_agrees += o.no_mate_eval_agrees;
        self.no_mate_eval_disagrees += o.no_mate_eval_disagrees;
        self.draw_held += o.draw_held;
        self.draw_rule_decided += o.draw_rule_decided;
        self.rule_draw += o.rule_draw;
        self.contradict += o.contradict;
    }
}

/// Runs the checks; fails when any position disagrees.
pub fn run(a: VerifyArgs) -> Result<(), Failure> {
    set_threads(a.threads);
    let set = open(&a.dir);
    let materials: Vec<Material> = if a.materials.is_empty() {
        set.materials()
    } else {
        parse_materials(&a.materials)?
    };
    let (samples, depth, seed) = (a.search, a.depth, a.seed);
    let mut bad = 0u64;
    for m in &materials {
        let r = verify::check_table(&set, m)?;
        println!(
            "{}: consistency: {} positions, {} violations",
            m.name(),
            r.positions,
            r.violations
        );
        for e in &r.examples {
            println!("  {e}");
        }
        bad += r.violations;
        if samples > 0 {
            let (a, lines) = against_search(&set, m, samples, depth, seed)?;
            println!(
                "{}: search depth {depth}, {samples} positions: decided {}: same mate {}, longer mate {}, rule win {}, no mate but the evaluation agrees {} / disagrees {}; drawn {}: held {}, decided by a repetition rule {}; rule draws {}; contradictions {}",
                m.name(),
                a.same_mate + a.longer_mate + a.rule_win + a.no_mate_eval_agrees + a.no_mate_eval_disagrees,
                a.same_mate, a.longer_mate, a.rule_win, a.no_mate_eval_agrees, a.no_mate_eval_disagrees,
                a.draw_held + a.draw_rule_decided, a.draw_held, a.draw_rule_decided, a.rule_draw, a.contradict
            );
            for l in lines {
                println!("  {l}");
            }
            bad += a.contradict;
        }
    }
    if bad > 0 {
        return Err(format!("{bad} positions contradict their tables").into());
    }
    Ok(())
}

/// Compares `samples` random legal positions of a table with a depth-limited search.
fn against_search(
    set: &Tablebases,
    m: &Material,
    samples: usize,
    depth: u32,
    seed: u64,
) -> Result<(Agreement, Vec<String>), String> {
    let table = set.table(m).ok_or("no such table")?;
    let index = table.index().clone();
    let mut rng = SplitMix64::from_state(seed);
    let mut picks = Vec::new();
    while picks.len() < samples {
        let i = rng.next_u64() % index.len();
        let code = table.code(i).map_err(|e| e.to_string())?;
        if let Some(o) = pao::egtb::value::outcome(code) {
            picks.push((i, o));
        }
    }
    let net = pao::eval::nnue::embedded();
    let results: Vec<(Agreement, Option<String>)> = picks
        .par_iter()
        .map(|&(i, outcome)| {
            let mut a = Agreement::default();
            let Some(pos) = index
                .decode(i)
                .and_then(|(pl, side)| position_of(&pl, side))
            else {
                a.contradict += 1;
                return (a, Some(format!("index {i} does not decode")));
            };
            let tt = match pao::tt::TranspositionTable::new(4) {
                Ok(t) => Arc::new(t),
                Err(e) => return (a, Some(format!("table: {e}"))),
            };
            let mut s = Searcher::new(tt, SearchConfig::FULL);
            s.set_network(net.clone());
            let r = s.search(&pos, &Limits::depth(depth), &[], &mut |_| {});
            let score = r.score;
            let mate_plies = (score.abs() > MATE - 200).then(|| (MATE - score.abs()) as u16);
            let rule = pao::search::score::is_rule_score(score);
            let note =
                |why: &str| format!("{}: table {outcome}, search {score} ({why})", pos.to_fen());
            let mut line = None;
            match outcome {
                Outcome::Win(n) | Outcome::Loss(n) => {
                    let win = matches!(outcome, Outcome::Win(_));
                    let right_side = (score > 0) == win;
                    match mate_plies {
                        Some(p) if right_side && p == n => a.same_mate += 1,
                        Some(p) if right_side && p > n => a.longer_mate += 1,
                        Some(_) => {
                            a.contradict += 1;
                            line =
                                Some(note("mate shorter than the table's, or for the other side"));
                        }
                        None if rule && right_side => a.rule_win += 1,
                        None if right_side => a.no_mate_eval_agrees += 1,
                        None => {
                            a.no_mate_eval_disagrees += 1;
                            line =
                                Some(note("no mate found, the evaluation favours the other side"));
                        }
                    }
                }
                Outcome::Draw => {
                    if mate_plies.is_some() {
                        a.contradict += 1;
                        line = Some(note("mate in a drawn position"));
                    } else if rule {
                        a.draw_rule_decided += 1;
                        line = Some(note("a repetition rule decides a table draw"));
                    } else {
                        a.draw_held += 1;
                    }
                }
                Outcome::RuleDraw => a.rule_draw += 1,
            }
            (a, line)
        })
        .collect();
    let mut total = Agreement::default();
    let mut lines = Vec::new();
    for (a, l) in results {
        total.add(&a);
        if let Some(l) = l {
            if lines.len() < 20 {
                lines.push(l);
            }
        }
    }
    Ok((total, lines))
}
