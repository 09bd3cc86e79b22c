//! `pao-tools egtb verify`: every position of a table against its moves, and a sample of
//! positions against Pao's own search with the tables off.

use pao::egtb::{index::position_of, verify, Material, Outcome, Tablebases};
use pao::search::score::MATE;
use pao::search::{Limits, SearchConfig, Searcher};
use rayon::prelude::*;
use std::path::Path;
use std::sync::Arc;

/// How a sampled position's search compared with its table verdict.
#[derive(Default, Debug, Clone, Copy)]
struct Agreement {
    same_mate: u64,
    longer_mate: u64,
    mate_beyond_depth: u64,
    draw_held: u64,
    rule_draw: u64,
    disagree: u64,
}

/// Runs the checks; fails when any position disagrees.
pub fn run(
    dir: &Path,
    names: &[String],
    samples: usize,
    depth: u32,
    seed: u64,
    threads: Option<usize>,
) -> Result<(), crate::Failure> {
    crate::egtb::set_threads(threads);
    let (set, errors) = Tablebases::open_dir(dir);
    for e in &errors {
        eprintln!("pao-tools egtb: {e}");
    }
    let materials: Vec<Material> = if names.is_empty() {
        set.materials()
    } else {
        names
            .iter()
            .map(|n| Material::parse(n).map_err(|e| crate::Failure::Usage(e.to_string())))
            .collect::<Result<_, _>>()?
    };
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
                "{}: search depth {depth}, {samples} positions: same mate {}, longer mate {}, mate beyond the depth {}, draw held {}, rule draw {}, disagree {}",
                m.name(), a.same_mate, a.longer_mate, a.mate_beyond_depth, a.draw_held, a.rule_draw, a.disagree
            );
            for l in lines {
                println!("  {l}");
            }
            bad += a.disagree;
        }
    }
    if bad > 0 {
        return Err(format!("{bad} disagreements").into());
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
    let mut rng = crate::rng::SplitMix64::from_state(seed);
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
                a.disagree += 1;
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
            let note =
                |why: &str| format!("{}: table {outcome}, search {score} ({why})", pos.to_fen());
            let mut line = None;
            match outcome {
                Outcome::Win(n) | Outcome::Loss(n) => {
                    let win = matches!(outcome, Outcome::Win(_));
                    match mate_plies {
                        Some(p) if (score > 0) == win && p == n => a.same_mate += 1,
                        Some(p) if (score > 0) == win && p > n => a.longer_mate += 1,
                        Some(_) => {
                            a.disagree += 1;
                            line = Some(note("mate disagrees"));
                        }
                        None if n as u32 > depth => a.mate_beyond_depth += 1,
                        None => {
                            a.disagree += 1;
                            line = Some(note("no mate within the depth"));
                        }
                    }
                }
                Outcome::Draw => {
                    if mate_plies.is_some() {
                        a.disagree += 1;
                        line = Some(note("mate in a draw"));
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
        total.same_mate += a.same_mate;
        total.longer_mate += a.longer_mate;
        total.mate_beyond_depth += a.mate_beyond_depth;
        total.draw_held += a.draw_held;
        total.rule_draw += a.rule_draw;
        total.disagree += a.disagree;
        if let Some(l) = l {
            if lines.len() < 20 {
                lines.push(l);
            }
        }
    }
    Ok((total, lines))
}
