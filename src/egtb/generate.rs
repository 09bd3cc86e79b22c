//! Retrograde analysis of one table: every position's distance to mate, by levels.
//!
//! 1. A pass over every index: illegal placements are marked invalid; a position with no
//!    legal move is lost now (mate or stalemate: level 0); captures lead into smaller tables,
//!    already made, whose verdicts are noted (the shortest win by a capture, whether a capture
//!    holds the draw, the longest loss when every capture loses), and the moves that stay in
//!    this table are counted.
//! 2. Level L, from 0 up: every position decided at L is taken back one move. A parent of a
//!    loss in L wins in L + 1 unless already decided; a parent of a win in L loses one more of
//!    its moves, and when none is left and no capture saves it, it loses in L + 1 (or at the
//!    longest capture's loss, if later). A capture's win or loss joins at its own level.
//! 3. What is left undecided is drawn. Then the draws that hang on perpetual check are marked
//!    (`rules`).
//!
//! Levels are processed in parallel (rayon); a position is decided by one compare-and-swap,
//! and counters fall with atomic subtraction, so the result does not depend on the threads.

use super::index::{position_of, TableIndex};
use super::material::Material;
use super::retro::for_each_parent;
use super::value::{decided, Outcome, DRAW, INVALID};
use super::Tablebases;
use crate::board::{Color, MoveList};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU16, AtomicU8, Ordering::Relaxed};
use std::time::Instant;

/// A pending code for "some capture holds the draw": the position can never lose.
const CAPTURE_DRAWS: u16 = 0xfffe;

/// What generation measured.
#[derive(Clone, Debug, Default)]
pub struct GenStats {
    /// Indices (both sides to move).
    pub indices: u64,
    /// Legal positions among them.
    pub positions: u64,
    /// Levels of the retrograde pass (the longest mate + 1).
    pub levels: u32,
    /// Seconds of the first pass, the levels, and the repetition marking.
    pub seconds: [f64; 3],
    /// Draws marked as hanging on perpetual check.
    pub rule_draws: u64,
}

/// A generated table: one code per index, red to move first.
pub struct Generated {
    /// The material.
    pub material: Material,
    /// The codes.
    pub codes: Vec<u16>,
    /// Figures.
    pub stats: GenStats,
}

/// Generates the table of `material`; `below` must hold every table its captures reach.
pub fn generate(material: &Material, below: &Tablebases) -> Result<Generated, String> {
    for m in material.captures() {
        if !below.has(&m) {
            return Err(format!(
                "{} needs table {} first (generate it, or use --all)",
                material.name(),
                m.name()
            ));
        }
    }
    let index = TableIndex::new(material);
    let len = index.len();
    let codes: Vec<AtomicU16> = (0..len).map(|_| AtomicU16::new(DRAW)).collect();
    let counters: Vec<AtomicU8> = (0..len).map(|_| AtomicU8::new(0)).collect();
    let mut pending: Vec<u16> = vec![0; len as usize];
    let mut stats = GenStats {
        indices: len,
        ..GenStats::default()
    };

    // 1. The first pass.
    let start = Instant::now();
    let chunk = 4096usize;
    let first: Result<Vec<(u64, Vec<u64>, u16)>, String> = pending
        .par_chunks_mut(chunk)
        .enumerate()
        .map(|(c, pend)| {
            let base = (c * chunk) as u64;
            let mut valid = 0u64;
            let mut lost_now = Vec::new();
            let mut max_pending = 0u16;
            let mut list = MoveList::new();
            for (k, p) in pend.iter_mut().enumerate() {
                let i = base + k as u64;
                let pos = index
                    .decode(i)
                    .and_then(|(pl, side)| position_of(&pl, side));
                let Some(mut pos) = pos else {
                    codes[i as usize].store(INVALID, Relaxed);
                    continue;
                };
                valid += 1;
                list.clear();
                pos.generate_legal(&mut list);
                if list.is_empty() {
                    codes[i as usize].store(decided(0), Relaxed);
                    lost_now.push(i);
                    continue;
                }
                let (mut stay, mut win, mut draws, mut loss) = (0u8, u16::MAX, false, 0u16);
                for &m in list.iter() {
                    if !pos.is_capture(m) {
                        stay += 1;
                        continue;
                    }
                    pos.make_move(m);
                    let o = below.capture_outcome(&pos);
                    pos.unmake_move();
                    match o? {
                        Outcome::Loss(n) => win = win.min(n + 1),
                        Outcome::Win(n) => loss = loss.max(n + 1),
                        Outcome::Draw | Outcome::RuleDraw => draws = true,
                    }
                }
                counters[i as usize].store(stay, Relaxed);
                *p = if win != u16::MAX {
                    decided(win)
                } else if draws {
                    CAPTURE_DRAWS
                } else if loss > 0 {
                    decided(loss)
                } else {
                    0
                };
                if *p != CAPTURE_DRAWS {
                    max_pending = max_pending.max(*p);
                }
            }
            Ok((valid, lost_now, max_pending))
        })
        .collect();
    let first = first?;
    stats.positions = first.iter().map(|f| f.0).sum();
    let max_pending = first.iter().map(|f| f.2).max().unwrap_or(0);
    let mut frontier: Vec<u64> = first.into_iter().flat_map(|f| f.1).collect();
    stats.seconds[0] = start.elapsed().as_secs_f64();

    // 2. The levels.
    let start = Instant::now();
    let mut level: u16 = 0;
    loop {
        // Captures that decide a position at this level join it (a loss only when no move
        // stays in the table undecided).
        if max_pending >= decided(level) {
            let code = decided(level);
            let joined: Vec<u64> = pending
                .par_iter()
                .enumerate()
                .filter(|&(i, &p)| {
                    p == code
                        && (level % 2 == 1 || counters[i].load(Relaxed) == 0)
                        && codes[i]
                            .compare_exchange(DRAW, code, Relaxed, Relaxed)
                            .is_ok()
                })
                .map(|(i, _)| i as u64)
                .collect();
            frontier.extend(joined);
        }
        if frontier.is_empty() && decided(level) > max_pending {
            break;
        }
        let next: Vec<u64> = frontier
            .par_chunks(256)
            .flat_map_iter(|part| {
                let mut out = Vec::new();
                for &i in part {
                    take_back(&index, i, level, &codes, &counters, &pending, &mut out);
                }
                out
            })
            .collect();
        frontier = next;
        level += 1;
        if level >= super::value::MAX_PLIES {
            return Err("distance to mate beyond the format's range".into());
        }
    }
    stats.levels = level as u32;
    stats.seconds[1] = start.elapsed().as_secs_f64();

    let mut codes: Vec<u16> = codes.into_iter().map(|c| c.into_inner()).collect();
    drop(pending);
    drop(counters);

    // 3. Draws that hang on perpetual check.
    let start = Instant::now();
    stats.rule_draws = super::rules::mark_rule_draws(&index, &mut codes, below)?;
    stats.seconds[2] = start.elapsed().as_secs_f64();
    Ok(Generated {
        material: *material,
        codes,
        stats,
    })
}

/// Takes back every move into position `i`, decided at `level`, and decides its parents.
fn take_back(
    index: &TableIndex,
    i: u64,
    level: u16,
    codes: &[AtomicU16],
    counters: &[AtomicU8],
    pending: &[u16],
    out: &mut Vec<u64>,
) {
    let Some((placement, side)) = index.decode(i) else {
        return;
    };
    let child_lost = level.is_multiple_of(2);
    let next = decided(level + 1);
    let mut visit = |p: u64| {
        let pi = p as usize;
        if codes[pi].load(Relaxed) != DRAW {
            return;
        }
        if child_lost {
            if codes[pi]
                .compare_exchange(DRAW, next, Relaxed, Relaxed)
                .is_ok()
            {
                out.push(p);
            }
            return;
        }
        if counters[pi].fetch_sub(1, Relaxed) != 1 {
            return;
        }
        // Every move that stays in the table loses; a capture may still win or hold.
        let pend = pending[pi];
        let loses_now = match pend {
            0 => true,
            CAPTURE_DRAWS => false,
            p if (p - 1) % 2 == 1 => false,
            p => p <= next,
        };
        if loses_now
            && codes[pi]
                .compare_exchange(DRAW, next, Relaxed, Relaxed)
                .is_ok()
        {
            out.push(p);
        }
    };
    // A board whose red general stands on file d has a mirror image (general on f) stored
    // under the same index: moves into that image lead here too. On file e the image has an
    // index of its own.
    let mirrored: super::index::Placement = placement
        .iter()
        .map(|&(p, s)| (p, s.mirror_file()))
        .collect();
    let boards = if placement[0].1.file() == 4 { 1 } else { 2 };
    for pl in [&placement, &mirrored].into_iter().take(boards) {
        let Some(mut child) = position_of(pl, side) else {
            return;
        };
        for_each_parent(index, &mut child, pl, &mut visit);
    }
}

/// The side to move of an index.
pub fn side_of(index: &TableIndex, i: u64) -> Color {
    if i >= index.per_side() {
        Color::Black
    } else {
        Color::Red
    }
}
