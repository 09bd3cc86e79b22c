//! SSS* (Stockman, 1979), best-first, as Pearl's "Heuristics" states it: a list of states
//! (node, LIVE or SOLVED, merit h), where h is an upper bound on the node's contribution to
//! the root's value. The state with the highest merit (ties: the leftmost node) is taken and
//! transformed by one of six cases until the root is SOLVED; its merit is then the minimax
//! value. MAX nodes (the root's side to move) open all their children at once, MIN nodes one
//! at a time, so SSS* refines the best upper bound and never evaluates a leaf that alpha-beta
//! in the same move order would prune (Stockman's theorem; the tests check it).
//!
//! Nodes are named by their path of move indices from the root (the game is replayed along
//! it), so nothing of the game is stored: memory is the list of states, which holds up to the
//! leaves of one "cluster" (about b^(d/2)).

use super::game::Game;
use super::{leaf_value, Counter};
use crate::search::score::INFINITE;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashSet};

/// A state of the list: ordered by merit, then leftmost path first.
#[derive(PartialEq, Eq, PartialOrd, Ord)]
struct State {
    merit: i32,
    path: Reverse<Vec<usize>>,
    solved: bool,
}

/// Plays the moves of `path` (indices into each position's move list).
fn replay<G: Game>(game: &mut G, path: &[usize]) {
    for &i in path {
        let m = game.moves()[i];
        game.make(m);
    }
}

fn rewind<G: Game>(game: &mut G, plies: usize) {
    for _ in 0..plies {
        game.unmake();
    }
}

/// The value of `game` searched to `depth` (from the side to move's point of view, the same as
/// negamax), by SSS*. `counter` counts the nodes generated and the leaves valued.
pub fn sss_star<G: Game>(game: &mut G, depth: u32, counter: &mut Counter) -> i32 {
    let mut open = BinaryHeap::new();
    // Nodes whose subtrees were dropped from the list (their parent MAX node was solved).
    let mut dropped: HashSet<Vec<usize>> = HashSet::new();
    open.push(State {
        merit: INFINITE,
        path: Reverse(Vec::new()),
        solved: false,
    });
    counter.nodes += 1;
    while let Some(State {
        merit,
        path: Reverse(path),
        solved,
    }) = open.pop()
    {
        if (0..path.len()).any(|n| dropped.contains(&path[..n])) {
            continue;
        }
        let ply = path.len();
        // Values are from the root's side: MAX nodes are at even plies.
        let max_node = ply % 2 == 0;
        if !solved {
            replay(game, &path);
            let sign = if max_node { 1 } else { -1 };
            let remaining = depth.saturating_sub(ply as u32);
            if let Some(v) = leaf_value(game, remaining, ply, counter) {
                // Case 1: a leaf is solved with the smaller of its merit and its value.
                open.push(State {
                    merit: merit.min(sign * v),
                    path: Reverse(path.clone()),
                    solved: true,
                });
            } else {
                // Cases 2 and 3: a MAX node opens every child, a MIN node its first.
                let children = if max_node { game.moves().len() } else { 1 };
                for i in 0..children {
                    let mut child = path.clone();
                    child.push(i);
                    counter.nodes += 1;
                    open.push(State {
                        merit,
                        path: Reverse(child),
                        solved: false,
                    });
                }
            }
            rewind(game, ply);
            continue;
        }
        // Case 4: the root is solved: its merit is the value.
        let Some((&index, parent)) = path.split_last() else {
            return merit;
        };
        if max_node {
            // Case 5: a MAX node under a MIN node: on to its next sibling, or the MIN
            // parent is solved when this was the last one.
            replay(game, parent);
            let siblings = game.moves().len();
            rewind(game, parent.len());
            let (next, solved) = if index + 1 < siblings {
                counter.nodes += 1;
                let mut sibling = parent.to_vec();
                sibling.push(index + 1);
                (sibling, false)
            } else {
                (parent.to_vec(), true)
            };
            open.push(State {
                merit,
                path: Reverse(next),
                solved,
            });
        } else {
            // Case 6: a MIN node solved with the highest merit solves its MAX parent, and
            // the parent's other subtrees are dropped.
            dropped.insert(parent.to_vec());
            open.push(State {
                merit,
                path: Reverse(parent.to_vec()),
                solved: true,
            });
        }
    }
    // The list never empties before the root is solved.
    -INFINITE
}
