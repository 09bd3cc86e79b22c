//! Static evaluation: material and piece-square tables for both phases (kept incrementally on
//! the search stack by `PsqStack`, as the network keeps its accumulators), xiangqi knowledge,
//! tapering by the material left, and draw scaling for a side that has nothing left to mate
//! with. Scores are from the side to move's point of view.

pub mod bitbase;
pub mod breakdown;
pub mod cache;
pub mod endgame;
pub mod knowledge;
pub mod nnue;
pub mod psq_stack;
pub mod psqt;

use crate::board::{Color, PieceKind, Position};
pub use cache::KnowledgeCache;
pub use psq_stack::PsqStack;
use psqt::{Pair, MATERIAL, MAX_PHASE, PHASE_WEIGHT};

/// Bonus for having the move.
pub const TEMPO: i32 = 10;

/// Midgame material value of a piece kind.
pub fn piece_value(kind: PieceKind) -> i32 {
    MATERIAL[kind.index()].mg
}

/// Game phase: `MAX_PHASE` with all rooks, horses and cannons, 0 with none.
pub fn phase(pos: &Position) -> i32 {
    let mut phase = 0;
    for color in Color::BOTH {
        for kind in [PieceKind::Rook, PieceKind::Horse, PieceKind::Cannon] {
            phase += PHASE_WEIGHT[kind.index()] * pos.count(color, kind) as i32;
        }
    }
    phase.min(MAX_PHASE)
}

/// True when `color` has no piece that can ever give mate (rook, horse, cannon or soldier).
pub fn cannot_mate(pos: &Position, color: Color) -> bool {
    [
        PieceKind::Rook,
        PieceKind::Horse,
        PieceKind::Cannon,
        PieceKind::Soldier,
    ]
    .iter()
    .all(|&k| pos.count(color, k) == 0)
}

/// The network's evaluation `score` (side to move) with the rule the hand-written evaluation
/// also applies: a side with nothing left that can mate cannot be winning.
#[inline]
pub fn scale_network(pos: &Position, score: i32) -> i32 {
    let side = pos.side_to_move();
    let leader = if score > 0 { side } else { side.flip() };
    if score != 0 && cannot_mate(pos, leader) {
        score / 16
    } else {
        score
    }
}

/// Full evaluation from the side to move's point of view.
#[inline]
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_with(pos, true)
}

/// Evaluation with or without the knowledge terms (UCCI `knowledge none` = material and
/// piece-square tables only).
#[inline]
pub fn evaluate_with(pos: &Position, knowledge: bool) -> i32 {
    evaluate_lazy(pos, knowledge, -i32::MAX, i32::MAX)
}

/// Knowledge terms never move the score by more than this (a generous bound).
pub const LAZY_MARGIN: i32 = 300;

/// `evaluate_with` for a position whose material and piece-square sum `psq` is known (kept by
/// a `PsqStack`), without a cache: what one search node's evaluation costs.
pub fn evaluate_from_sum(pos: &Position, psq: Pair, knowledge: bool) -> i32 {
    evaluate_impl(pos, psq, knowledge, -i32::MAX, i32::MAX, None)
}

/// Evaluation that skips the knowledge terms when material and position alone are already
/// `LAZY_MARGIN` outside (alpha, beta): the exact value would not matter there.
pub fn evaluate_lazy(pos: &Position, knowledge: bool, alpha: i32, beta: i32) -> i32 {
    evaluate_impl(pos, psqt::sum(pos), knowledge, alpha, beta, None)
}

/// `evaluate_lazy` with the material and piece-square sum `psq` kept by a `PsqStack` and a
/// cache of knowledge terms (the search's hot path); same values.
#[inline]
pub fn evaluate_cached(
    pos: &Position,
    psq: Pair,
    knowledge: bool,
    alpha: i32,
    beta: i32,
    cache: &mut KnowledgeCache,
) -> i32 {
    debug_assert_eq!(psq, psqt::sum(pos), "the search's PSQ stack is out of step");
    evaluate_impl(pos, psq, knowledge, alpha, beta, Some(cache))
}

#[inline(always)]
fn evaluate_impl(
    pos: &Position,
    psq: Pair,
    knowledge: bool,
    alpha: i32,
    beta: i32,
    cache: Option<&mut KnowledgeCache>,
) -> i32 {
    let phase = phase(pos);
    let taper = |mg: i32, eg: i32| (mg * phase + eg * (MAX_PHASE - phase)) / MAX_PHASE;
    let sign = if pos.side_to_move() == Color::Red {
        1
    } else {
        -1
    };
    let mut sum = psq;
    if knowledge {
        let base = sign * taper(sum.mg, sum.eg) + TEMPO;
        let lazy =
            base.saturating_sub(LAZY_MARGIN) >= beta || base.saturating_add(LAZY_MARGIN) <= alpha;
        if !lazy {
            let k = match cache {
                Some(cache) => match cache.get(pos.key()) {
                    Some(k) => k,
                    None => {
                        let k = knowledge::terms(pos);
                        cache.put(pos.key(), k);
                        k
                    }
                },
                None => knowledge::terms(pos),
            };
            sum.mg += k.mg;
            sum.eg += k.eg;
        }
    }
    let mut score = taper(sum.mg, sum.eg);
    // A side with nothing that can mate cannot be winning.
    let leader = if score > 0 { Color::Red } else { Color::Black };
    if score != 0 && cannot_mate(pos, leader) {
        score /= 16;
    }
    sign * score + TEMPO
}
