//! Reference searchers for tests and comparison: plain minimax and plain alpha-beta, in
//! generation order, with static leaves and the same terminal and repetition rules as the search.

use super::config::RepetitionRule;
use super::repetition::repetition_score;
use super::score::{mated_in, INFINITE};
use crate::board::Position;
use crate::eval;

/// Counts visited nodes.
#[derive(Default, Debug)]
pub struct Counter {
    /// Nodes visited.
    pub nodes: u64,
}

/// Minimax (negamax form) to `depth`: the exact value of the depth-limited tree.
pub fn minimax(pos: &mut Position, depth: u32, ply: usize, counter: &mut Counter) -> i32 {
    counter.nodes += 1;
    if ply > 0 {
        if let Some(s) = repetition_score(pos, ply, RepetitionRule::Asian) {
            return s;
        }
    }
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return mated_in(ply);
    }
    if depth == 0 {
        return eval::evaluate(pos);
    }
    let mut best = -INFINITE;
    for &m in moves.iter() {
        pos.make_move(m);
        best = best.max(-minimax(pos, depth - 1, ply + 1, counter));
        pos.unmake_move();
    }
    best
}

/// Alpha-beta (fail-hard) to `depth`; equals `minimax` for a full window.
pub fn alphabeta(
    pos: &mut Position,
    depth: u32,
    mut alpha: i32,
    beta: i32,
    ply: usize,
    counter: &mut Counter,
) -> i32 {
    counter.nodes += 1;
    if ply > 0 {
        if let Some(s) = repetition_score(pos, ply, RepetitionRule::Asian) {
            return s.clamp(alpha, beta);
        }
    }
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return mated_in(ply).clamp(alpha, beta);
    }
    if depth == 0 {
        return eval::evaluate(pos).clamp(alpha, beta);
    }
    for &m in moves.iter() {
        pos.make_move(m);
        let score = -alphabeta(pos, depth - 1, -beta, -alpha, ply + 1, counter);
        pos.unmake_move();
        if score >= beta {
            return beta;
        }
        alpha = alpha.max(score);
    }
    alpha
}
