//! Reference searchers for tests and comparison, generic over a small [`Game`] trait:
//! minimax (max/min form), negamax, alpha-beta (with and without a transposition table) and
//! SSS*, all in the game's natural move order, full width, with static leaves. On xiangqi they
//! use the same terminal and repetition rules as the engine's search.

mod game;
mod sss;
pub mod tictactoe;

pub use game::Game;
pub use sss::sss_star;
pub use tictactoe::TicTacToe;

use super::score::INFINITE;
use std::collections::HashMap;

/// Counts visited nodes, and the leaves among them (nodes valued without expanding them: the
/// game is over there, or the depth is reached).
#[derive(Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Counter {
    /// Nodes visited, the root included.
    pub nodes: u64,
    /// Leaves valued.
    pub leaves: u64,
}

/// The value of a leaf (`None`: expand it), counting it.
fn leaf_value<G: Game>(game: &mut G, depth: u32, ply: usize, counter: &mut Counter) -> Option<i32> {
    let value = match game.terminal(ply) {
        Some(v) => Some(v),
        None if depth == 0 => Some(game.evaluate()),
        None => None,
    };
    counter.leaves += u64::from(value.is_some());
    value
}

/// Minimax in its max/min form to `depth`: the exact value of the depth-limited tree, for the
/// side to move at the root (which maximises).
pub fn minimax<G: Game>(game: &mut G, depth: u32, ply: usize, counter: &mut Counter) -> i32 {
    fn search<G: Game>(g: &mut G, depth: u32, ply: usize, max: bool, c: &mut Counter) -> i32 {
        c.nodes += 1;
        let sign = if max { 1 } else { -1 };
        if let Some(v) = leaf_value(g, depth, ply, c) {
            return sign * v;
        }
        let mut best = if max { -INFINITE } else { INFINITE };
        for m in g.moves() {
            g.make(m);
            let v = search(g, depth - 1, ply + 1, !max, c);
            g.unmake();
            best = if max { best.max(v) } else { best.min(v) };
        }
        best
    }
    search(game, depth, ply, true, counter)
}

/// Negamax to `depth`: the same value as [`minimax`], each node maximising for its own side.
pub fn negamax<G: Game>(game: &mut G, depth: u32, ply: usize, counter: &mut Counter) -> i32 {
    counter.nodes += 1;
    if let Some(v) = leaf_value(game, depth, ply, counter) {
        return v;
    }
    let mut best = -INFINITE;
    for m in game.moves() {
        game.make(m);
        best = best.max(-negamax(game, depth - 1, ply + 1, counter));
        game.unmake();
    }
    best
}

/// Alpha-beta (fail-hard) to `depth`; equals [`minimax`] for a full window.
pub fn alphabeta<G: Game>(
    game: &mut G,
    depth: u32,
    mut alpha: i32,
    beta: i32,
    ply: usize,
    counter: &mut Counter,
) -> i32 {
    counter.nodes += 1;
    if let Some(v) = leaf_value(game, depth, ply, counter) {
        return v.clamp(alpha, beta);
    }
    for m in game.moves() {
        game.make(m);
        let score = -alphabeta(game, depth - 1, -beta, -alpha, ply + 1, counter);
        game.unmake();
        if score >= beta {
            return beta;
        }
        alpha = alpha.max(score);
    }
    alpha
}

/// What a transposition-table entry knows: the value is exact, or a bound.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

/// A plain transposition table for [`alphabeta_tt`]: key -> (depth, value, bound).
#[derive(Default, Debug)]
pub struct Table {
    entries: HashMap<u64, (u32, i32, Bound)>,
}

/// Alpha-beta (fail-hard) with a transposition table, for games whose values do not depend on
/// the path (tic-tac-toe; not xiangqi, whose repetition and mate scores do).
pub fn alphabeta_tt<G: Game>(
    game: &mut G,
    depth: u32,
    mut alpha: i32,
    mut beta: i32,
    ply: usize,
    table: &mut Table,
    counter: &mut Counter,
) -> i32 {
    counter.nodes += 1;
    if let Some(v) = leaf_value(game, depth, ply, counter) {
        return v.clamp(alpha, beta);
    }
    let key = game.key();
    if let Some(&(d, v, bound)) = table.entries.get(&key) {
        if d >= depth {
            match bound {
                Bound::Exact => return v.clamp(alpha, beta),
                Bound::Lower if v >= beta => return beta,
                Bound::Lower => alpha = alpha.max(v),
                Bound::Upper if v <= alpha => return alpha,
                Bound::Upper => beta = beta.min(v),
            }
        }
    }
    let original_alpha = alpha;
    let mut value = alpha;
    let mut cut = false;
    for m in game.moves() {
        game.make(m);
        let score = -alphabeta_tt(game, depth - 1, -beta, -value, ply + 1, table, counter);
        game.unmake();
        if score >= beta {
            value = beta;
            cut = true;
            break;
        }
        value = value.max(score);
    }
    let bound = if cut {
        Bound::Lower
    } else if value > original_alpha {
        Bound::Exact
    } else {
        Bound::Upper
    };
    table.entries.insert(key, (depth, value, bound));
    value
}
