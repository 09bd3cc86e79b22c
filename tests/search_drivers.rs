//! The SSS* driver (MTD(+inf)) returns the alpha-beta value; B* at the root proves a
//! forced mate best and always answers with a legal move within a node budget.

use pao::board::{Move, Position, RankBase};
use pao::search::score::mate_in;
use pao::search::{Driver, Limits, SearchConfig};

mod common;
use common::searching::{endgame_positions, exact, searcher};

fn mv(text: &str) -> Move {
    pao::board::parse_move(text, RankBase::Zero).expect("move")
}

#[test]
fn sssstar_driver_equals_alphabeta() {
    // No pruning, reductions, extensions or quiescence: the value must be exactly alpha-beta's.
    let config = SearchConfig {
        driver: Driver::SssStar,
        tt_cutoffs: true,
        tt_move: true,
        killers: true,
        history: true,
        counter_move: true,
        capture_ordering: true,
        ..SearchConfig::PLAIN
    };
    for fen in endgame_positions() {
        for depth in 1..=4 {
            let pos = Position::from_fen(fen).expect("valid FEN");
            let ab = exact(fen, depth);
            let r = searcher(config).search(&pos, &Limits::depth(depth), &[], &mut |_| {});
            assert_eq!(r.score, ab, "{fen} depth {depth}");
        }
    }
}

fn bstar(fen: &str, nodes: u64) -> (Position, pao::search::SearchResult, bool, usize) {
    let pos = Position::from_fen(fen).expect("valid FEN");
    let mut s = searcher(SearchConfig {
        driver: Driver::BStar,
        ..SearchConfig::FULL
    });
    let mut limits = Limits::depth(1);
    limits.nodes = nodes;
    let moves: Vec<Move> = pos.clone().legal_moves().iter().copied().collect();
    let mut reports = 0;
    let (r, proven) = s.bstar_search(&pos, &moves, &limits, &mut |it| {
        // Empty only when the budget ran out before every root move had bounds.
        assert!(it.bounds.is_empty() || it.bounds.len() == moves.len());
        assert!(it.bounds.iter().all(|&(_, lo, hi)| lo <= hi));
        reports += 1;
    });
    (pos, r, proven, reports)
}

#[test]
fn bstar_proves_the_winning_move_best() {
    // Mate in one (double cannons) and mate in two moves (a rook with the general's help),
    // from tests/search.rs: the mating move is proven best, with the mate as its bound.
    for (fen, best, plies) in [
        ("3aka3/9/9/9/4C4/1C7/9/9/9/3K5 w - - 0 1", "b4e4", 1),
        ("4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1", "a0a8", 3),
    ] {
        let (_, r, proven, reports) = bstar(fen, u64::MAX);
        assert!(proven, "{fen}");
        assert_eq!(
            (r.best_move, r.score),
            (Some(mv(best)), mate_in(plies)),
            "{fen}"
        );
        assert!(reports >= 1);
    }
}

#[test]
fn bstar_with_a_node_limit_returns_a_legal_move() {
    for fen in pao::bench::parse_fens(pao::bench::BENCH_FENS)
        .into_iter()
        .take(12)
    {
        for nodes in [1, 500, 5000] {
            let (mut pos, r, _, _) = bstar(fen, nodes);
            let m = r.best_move.expect("a move");
            assert!(pos.is_legal(m), "{fen} nodes {nodes}");
        }
    }
}
