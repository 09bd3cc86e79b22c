//! Draws that hang on perpetual check.
//!
//! Retrograde analysis counts every cycle as a draw. Under the Asian rules a side that checks
//! with every move of a repetition loses, so some of those draws are losses for the checker.
//! For each colour X as the possible perpetual checker, the largest set Y of drawn positions
//! is found such that
//! - with X to move, X has a drawing move and every one of them is a check leading into Y
//!   (X cannot keep the draw without checking, and cannot leave the set), and
//! - with the other side to move, it has a drawing move into Y (it can steer back into it).
//!
//! Y is found by removing positions that break the conditions until none does (a greatest
//! fixed point). Then Y grows by the draws that lead into it by force (a least fixed point):
//! with the other side to move, a drawing move into Y; with X to move, every drawing move
//! into Y (a capture into a smaller table's rule draw counts as into Y). If the rule makes Y
//! a loss for X, it makes those positions decided as well: a general stepping out of a check
//! into a perpetual check it would lose by rule is not a plain draw. Every position of either
//! colour's set is marked a rule draw: the search does not take it as exact and searches it
//! under the full repetition rules instead. The set is an upper bound on the draws the rule
//! overturns: it ignores that the defender's own moves may check or chase as well, which
//! makes the repetition a draw again.

use super::index::{placement_of, position_of, TableIndex};
use super::value::{Outcome, DRAW, RULE_DRAW};
use super::Tablebases;
use crate::board::{Color, MoveList};
use rayon::prelude::*;

/// Marks the rule draws in `codes` and returns how many there are.
pub fn mark_rule_draws(
    index: &TableIndex,
    codes: &mut [u16],
    below: &Tablebases,
) -> Result<u64, String> {
    let mut marked = vec![false; codes.len()];
    for checker in Color::BOTH {
        let draws: Vec<bool> = codes.iter().map(|&c| c == DRAW).collect();
        // The greatest set: start from every draw and drop what breaks the conditions.
        let set = fixed_point(draws, |i, set| {
            Ok(set[i] && judge(index, i, codes, set, below, checker, Pass::Stays)?)
        })?;
        // Then the draws forced into it: start from the set and add what leads into it.
        let set = fixed_point(set, |i, set| {
            Ok(set[i]
                || (codes[i] == DRAW
                    && judge(index, i, codes, set, below, checker, Pass::DrawnInto)?))
        })?;
        for (m, y) in marked.iter_mut().zip(&set) {
            *m |= *y;
        }
    }
    let mut n = 0;
    for (c, m) in codes.iter_mut().zip(&marked) {
        if *m {
            *c = RULE_DRAW;
            n += 1;
        }
    }
    Ok(n)
}

/// Applies `step` to every index in parallel until the set no longer changes.
fn fixed_point(
    mut set: Vec<bool>,
    step: impl Fn(usize, &[bool]) -> Result<bool, String> + Sync,
) -> Result<Vec<bool>, String> {
    loop {
        let next = (0..set.len())
            .into_par_iter()
            .map(|i| step(i, &set))
            .collect::<Result<Vec<bool>, String>>()?;
        if next == set {
            return Ok(set);
        }
        set = next;
    }
}

/// The two passes over the draws for one checker.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Pass {
    /// Whether a position of the set stays: the checker to move has drawing moves and every
    /// one is a check into the set; the other side to move has a drawing move into it.
    Stays,
    /// Whether a draw outside the set is drawn into it by force: the checker to move has
    /// drawing moves and every one leads into the set; the other side to move has a drawing
    /// move into it. A capture into a smaller table's rule draw counts as into the set.
    DrawnInto,
}

/// The verdict of `pass` on drawn position `i` for `checker` (false for an index that is no
/// legal position).
fn judge(
    index: &TableIndex,
    i: usize,
    codes: &[u16],
    in_set: &[bool],
    below: &Tablebases,
    checker: Color,
    pass: Pass,
) -> Result<bool, String> {
    let Some((placement, side)) = index.decode(i as u64) else {
        return Ok(false);
    };
    let Some(mut pos) = position_of(&placement, side) else {
        return Ok(false);
    };
    let must_check = side == checker && pass == Pass::Stays;
    let mut list = MoveList::new();
    pos.generate_legal(&mut list);
    let mut any_draw = false;
    for &m in list.iter() {
        let capture = pos.is_capture(m);
        pos.make_move(m);
        // (drawing move, leads into the set)
        let verdict = if capture {
            below.capture_outcome(&pos).map(|o| match o {
                Outcome::RuleDraw => (true, pass == Pass::DrawnInto),
                Outcome::Draw => (true, false),
                _ => (false, false),
            })
        } else {
            let (pl, s) = placement_of(&pos, false);
            Ok(match index.encode(&pl, s) {
                Some(c) => (codes[c as usize] == DRAW, in_set[c as usize]),
                None => (false, false),
            })
        };
        let check = must_check && pos.in_check();
        pos.unmake_move();
        let (draws, into) = verdict?;
        if !draws {
            continue;
        }
        any_draw = true;
        if side == checker {
            if !into || (must_check && !check) {
                return Ok(false);
            }
        } else if into {
            return Ok(true);
        }
    }
    Ok(side == checker && any_draw)
}
