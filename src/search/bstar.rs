//! B* (Berliner, 1979) at the root: a best-first proof that one root move is best.
//!
//! Every node of the tree carries a pessimistic and an optimistic bound on its value. At the
//! root, the move with the highest optimistic value is the candidate; it is proven best once
//! its pessimistic value is not below any other move's optimistic value. Until then one leaf
//! is expanded per step, under one of two strategies:
//! - PROVEBEST works under the candidate, to raise its pessimistic value;
//! - DISPROVEREST works under the rival with the highest optimistic value, to lower it.
//!
//! Berliner's rule picks the strategy from the depths of the subtrees built so far (plies
//! below the root move, counting the move): with t for the candidate and t_i for every rival
//! whose optimistic value still exceeds the candidate's pessimistic one, PROVEBEST when
//! t^2 <= sum of t_i^2 (deepening the candidate is the cheaper proof), else DISPROVEREST.
//! Below the root move the descent always follows the child with the best optimistic value
//! for the side to move there, and the expanded leaf's children get bounds from the oracle;
//! bounds are backed up along the path (a node's pessimistic value is the best pessimistic
//! value among its children, negated, and likewise for the optimistic one).
//!
//! When the budget runs out first, the move with the best pessimistic value is played.

use super::reference::Game;

/// Where bounds come from: for the side to move in `game`, `ply` plies below the B* root,
/// `(pessimistic, optimistic)`; equal when the game is over. `None` when the budget is spent.
pub trait Bounds<G: Game> {
    /// The bounds of the current position of `game`.
    fn bounds(&mut self, game: &mut G, ply: usize) -> Option<(i32, i32)>;
}

/// A node of the B* tree: bounds from the side to move's point of view.
#[derive(Debug)]
struct Node<M> {
    mv: M,
    lo: i32,
    hi: i32,
    /// Plies of the subtree below this node (0 for a leaf).
    height: u32,
    children: Vec<Node<M>>,
}

impl<M> Node<M> {
    fn exact(&self) -> bool {
        self.lo >= self.hi
    }

    /// The child to descend into: the best optimistic value for the side to move here
    /// (first on ties) among children still open. A node that is not exact always has one.
    fn descent(&self) -> Option<usize> {
        let mut best: Option<(usize, i32)> = None;
        for (i, c) in self.children.iter().enumerate() {
            if !c.exact() && best.is_none_or(|(_, v)| -c.lo > v) {
                best = Some((i, -c.lo));
            }
        }
        best.map(|(i, _)| i)
    }

    fn back_up(&mut self) {
        if let Some(lo) = self.children.iter().map(|c| -c.hi).max() {
            self.lo = lo;
            self.hi = self.children.iter().map(|c| -c.lo).max().unwrap_or(lo);
            self.height = 1 + self.children.iter().map(|c| c.height).max().unwrap_or(0);
        }
    }
}

/// The state of a B* search, after each step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BStarState<M> {
    /// The root moves with (pessimistic, optimistic) values for the root's side to move.
    pub bounds: Vec<(M, i32, i32)>,
    /// The move B* would play now.
    pub best: Option<M>,
    /// True once `best` is proven best.
    pub proven: bool,
    /// Leaves expanded so far.
    pub expansions: u64,
    /// Plies of the deepest line in the tree.
    pub depth: u32,
}

/// The candidate (best optimistic value, then best pessimistic, then first) and whether it is
/// proven best.
fn candidate<M>(root: &[Node<M>]) -> Option<(usize, bool)> {
    let value = |c: &Node<M>| (-c.lo, -c.hi);
    let best = (0..root.len()).fold(None, |b: Option<usize>, i| match b {
        Some(j) if value(&root[j]) >= value(&root[i]) => Some(j),
        _ => Some(i),
    })?;
    let pess = -root[best].hi;
    let proven = root
        .iter()
        .enumerate()
        .all(|(i, c)| i == best || -c.lo <= pess);
    Some((best, proven))
}

fn state<M: Copy>(root: &[Node<M>], expansions: u64) -> BStarState<M> {
    let (best, proven) = match candidate(root) {
        Some((b, true)) => (Some(root[b].mv), true),
        // Not proven: the safest move, the best pessimistic value (then optimistic).
        _ => (
            (0..root.len())
                .max_by_key(|&i| (-root[i].hi, -root[i].lo, std::cmp::Reverse(i)))
                .map(|i| root[i].mv),
            false,
        ),
    };
    BStarState {
        bounds: root.iter().map(|c| (c.mv, -c.hi, -c.lo)).collect(),
        best,
        proven,
        expansions,
        depth: 1 + root.iter().map(|c| c.height).max().unwrap_or(0),
    }
}

/// Expands the leaf reached from `node` (whose position `game` is in, `ply` below the root)
/// and backs the bounds up. False when the oracle's budget ran out (nothing changed then).
fn expand<G: Game, B: Bounds<G>>(
    game: &mut G,
    oracle: &mut B,
    node: &mut Node<G::Move>,
    ply: usize,
) -> bool {
    if node.children.is_empty() {
        let mut children = Vec::new();
        for m in game.moves() {
            game.make(m);
            let b = oracle.bounds(game, ply + 1);
            game.unmake();
            let Some((lo, hi)) = b else { return false };
            children.push(Node {
                mv: m,
                lo,
                hi,
                height: 0,
                children: Vec::new(),
            });
        }
        node.children = children;
    } else {
        let Some(i) = node.descent() else {
            return false;
        };
        let m = node.children[i].mv;
        game.make(m);
        let done = expand(game, oracle, &mut node.children[i], ply + 1);
        game.unmake();
        if !done {
            return false;
        }
    }
    node.back_up();
    true
}

/// B* over `root_moves` of `game`, expanding at most `max_expansions` leaves; `report` sees
/// the state after the root's bounds are set and after every step.
pub fn bstar<G: Game, B: Bounds<G>>(
    game: &mut G,
    root_moves: &[G::Move],
    oracle: &mut B,
    max_expansions: u64,
    report: &mut dyn FnMut(&BStarState<G::Move>),
) -> BStarState<G::Move> {
    let mut root: Vec<Node<G::Move>> = Vec::new();
    for &m in root_moves {
        game.make(m);
        let b = oracle.bounds(game, 1);
        game.unmake();
        let Some((lo, hi)) = b else { break };
        root.push(Node {
            mv: m,
            lo,
            hi,
            height: 0,
            children: Vec::new(),
        });
    }
    if root.len() < root_moves.len() {
        // Out of budget before every move had bounds: the first move, unproven.
        return BStarState {
            bounds: Vec::new(),
            best: root_moves.first().copied(),
            proven: false,
            expansions: 0,
            depth: 0,
        };
    }
    let mut expansions = 0;
    report(&state(&root, expansions));
    while expansions < max_expansions {
        let Some((best, proven)) = candidate(&root) else {
            break;
        };
        if proven {
            break;
        }
        let pess = -root[best].hi;
        let rivals: Vec<usize> = (0..root.len())
            .filter(|&i| i != best && -root[i].lo > pess)
            .collect();
        let depth = |i: usize| u64::from(root[i].height) + 1;
        let rival_sum: u64 = rivals.iter().map(|&i| depth(i) * depth(i)).sum();
        let top_rival = rivals
            .iter()
            .copied()
            .max_by_key(|&i| (-root[i].lo, std::cmp::Reverse(i)));
        let prove_best = depth(best) * depth(best) <= rival_sum;
        let (first, second) = if prove_best {
            (Some(best), top_rival)
        } else {
            (top_rival, Some(best))
        };
        // An exact node cannot move: work on the other side of the proof.
        let Some(target) = [first, second]
            .into_iter()
            .flatten()
            .find(|&i| !root[i].exact())
        else {
            break;
        };
        let m = root[target].mv;
        game.make(m);
        let done = expand(game, oracle, &mut root[target], 1);
        game.unmake();
        if !done {
            break;
        }
        expansions += 1;
        report(&state(&root, expansions));
    }
    state(&root, expansions)
}
