//! The consistency proof of a table: every position's verdict agrees with its moves'.
//!
//! - a win in N has a move to a loss in N - 1 and none to a shorter loss;
//! - a loss in N has every move to a win in at most N - 1 and one to exactly N - 1
//!   (a loss in 0 has no legal move);
//! - a draw has no move to a loss and one move to a draw.

use super::index::position_of;
use super::material::Material;
use super::value::Outcome;
use super::Tablebases;
use crate::board::MoveList;
use rayon::prelude::*;

/// What the check found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Legal positions checked.
    pub positions: u64,
    /// Positions whose verdict disagrees with their moves.
    pub violations: u64,
    /// Up to ten of them: FEN and what is wrong.
    pub examples: Vec<String>,
}

/// Checks every position of the table of `material` in `tables` (which must also hold the
/// tables its captures reach).
pub fn check_table(tables: &Tablebases, material: &Material) -> Result<Report, String> {
    let table = tables
        .table(material)
        .ok_or_else(|| format!("no table {}", material.name()))?;
    let index = table.index().clone();
    let len = index.len();
    const CHUNK: u64 = 4096;
    let reports: Result<Vec<Report>, String> = (0..len.div_ceil(CHUNK) as usize)
        .into_par_iter()
        .map(|c| {
            let chunk = c as u64 * CHUNK..((c as u64 + 1) * CHUNK).min(len);
            let mut r = Report::default();
            let mut list = MoveList::new();
            for i in chunk {
                let code = table.code(i).map_err(|e| e.to_string())?;
                let Some(outcome) = super::value::outcome(code) else {
                    continue;
                };
                let Some((pl, side)) = index.decode(i) else {
                    r.violations += 1;
                    continue;
                };
                let Some(mut pos) = position_of(&pl, side) else {
                    r.violations += 1;
                    continue;
                };
                r.positions += 1;
                list.clear();
                pos.generate_legal(&mut list);
                let mut children = Vec::with_capacity(list.len());
                for &m in list.iter() {
                    pos.make_move(m);
                    let o = tables.capture_outcome(&pos);
                    pos.unmake_move();
                    children.push(o?);
                }
                if let Some(why) = disagreement(outcome, &children) {
                    r.violations += 1;
                    if r.examples.len() < 10 {
                        r.examples
                            .push(format!("{}: {outcome}: {why}", pos.to_fen()));
                    }
                }
            }
            Ok(r)
        })
        .collect();
    let mut total = Report::default();
    for r in reports? {
        total.positions += r.positions;
        total.violations += r.violations;
        for e in r.examples {
            if total.examples.len() < 10 {
                total.examples.push(e);
            }
        }
    }
    Ok(total)
}

/// What is wrong with `outcome` given the children's verdicts (from the side to move there),
/// or `None`.
pub fn disagreement(outcome: Outcome, children: &[Outcome]) -> Option<String> {
    let losses: Vec<u16> = children
        .iter()
        .filter_map(|c| match c {
            Outcome::Loss(n) => Some(*n),
            _ => None,
        })
        .collect();
    let draws = children
        .iter()
        .any(|c| matches!(c, Outcome::Draw | Outcome::RuleDraw));
    match outcome {
        Outcome::Win(n) => {
            let shortest = losses.iter().min().copied();
            match shortest {
                Some(k) if k + 1 == n => None,
                Some(k) => Some(format!("the shortest move to a loss is {k} plies")),
                None => Some("no move to a loss".into()),
            }
        }
        Outcome::Loss(n) => {
            if children.is_empty() {
                return (n != 0).then(|| "no legal move but not lost now".into());
            }
            if !losses.is_empty() || draws {
                return Some("a move escapes the loss".into());
            }
            let longest = children
                .iter()
                .filter_map(|c| match c {
                    Outcome::Win(k) => Some(*k),
                    _ => None,
                })
                .max();
            match longest {
                Some(k) if k + 1 == n => None,
                other => Some(format!("the longest win after a move is {other:?}")),
            }
        }
        Outcome::Draw | Outcome::RuleDraw => {
            if !losses.is_empty() {
                Some("a move wins".into())
            } else if !draws {
                Some("no move keeps the draw".into())
            } else {
                None
            }
        }
    }
}
