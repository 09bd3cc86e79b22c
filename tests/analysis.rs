//! Analysis features in the search: MultiPV lines against searches with moves banned, and
//! `go mate N` stopping once the mate is proven.

use pao::board::{Move, Position};
use pao::search::score::mate_in;
use pao::search::{Iteration, Limits, SearchConfig, SearchResult};

mod common;
use common::searching::{endgame_positions, searcher, unpruned_pvs};

fn search(
    config: SearchConfig,
    fen: &str,
    limits: &Limits,
    allowed: &[Move],
) -> (SearchResult, Option<Iteration>) {
    let mut s = searcher(config);
    let pos = Position::from_fen(fen).expect("valid FEN");
    let mut last = None;
    let r = s.search(&pos, limits, allowed, &mut |it| last = Some(it.clone()));
    (r, last)
}

#[test]
fn multipv_lines_equal_searches_with_the_earlier_moves_banned() {
    let depth = 3;
    for fen in endgame_positions() {
        let legal: Vec<Move> = Position::from_fen(fen)
            .expect("FEN")
            .legal_moves()
            .iter()
            .copied()
            .collect();
        for k in 1..=4usize {
            let mut limits = Limits::depth(depth);
            limits.multipv = k;
            let (result, it) = search(unpruned_pvs(), fen, &limits, &[]);
            let lines = it.expect("an iteration").lines;
            assert_eq!(lines.len(), k.min(legal.len()), "{fen} k {k}");
            assert_eq!(result.best_move, lines[0].pv.first().copied());
            for (i, line) in lines.iter().enumerate() {
                let earlier: Vec<Move> = lines[..i].iter().map(|l| l.pv[0]).collect();
                let allowed: Vec<Move> = legal
                    .iter()
                    .copied()
                    .filter(|m| !earlier.contains(m))
                    .collect();
                let (banned, _) = search(unpruned_pvs(), fen, &Limits::depth(depth), &allowed);
                assert_eq!(
                    (line.pv.first().copied(), line.score),
                    (banned.best_move, banned.score),
                    "{fen} k {k} line {}",
                    i + 1
                );
                if i > 0 {
                    assert!(lines[i - 1].score >= line.score, "{fen} k {k}: {lines:?}");
                    assert!(!earlier.contains(&line.pv[0]), "{fen}: a move twice");
                }
            }
        }
    }
}

#[test]
fn multipv_with_full_search_gives_distinct_ordered_lines_and_keeps_line_one() {
    for fen in endgame_positions() {
        let (single, _) = search(SearchConfig::FULL, fen, &Limits::depth(6), &[]);
        let mut limits = Limits::depth(6);
        limits.multipv = 3;
        let (multi, it) = search(SearchConfig::FULL, fen, &limits, &[]);
        let lines = it.expect("an iteration").lines;
        // Three lines, unless the position has fewer legal moves.
        let legal = Position::from_fen(fen).expect("FEN").legal_moves().len();
        assert_eq!(lines.len(), legal.min(3), "{fen}: {lines:?}");
        for pair in lines.windows(2) {
            assert!(pair[0].score >= pair[1].score, "{fen}: {lines:?}");
            assert_ne!(pair[0].pv[0], pair[1].pv[0]);
        }
        assert_eq!(multi.best_move, Some(lines[0].pv[0]));
        // Extra lines cost nodes but the best line is a real depth-6 result.
        assert_eq!(multi.depth, single.depth);
    }
}

/// (FEN, plies to mate), as in the search tests.
const MATES: [(&str, usize); 4] = [
    ("3aka3/9/9/9/4C4/1C7/9/9/9/3K5 w - - 0 1", 1),
    ("4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1", 3),
    ("4ka3/9/9/9/9/9/9/9/9/RN1K5 w - - 0 1", 5),
    ("5k3/9/9/9/9/9/9/9/4A4/R2AK4 w - - 0 1", 5),
];

#[test]
fn go_mate_stops_at_the_proven_mate() {
    for (fen, plies) in MATES {
        let moves = plies.div_ceil(2) as u32;
        let mut limits = Limits::depth(u32::MAX);
        limits.mate = Some(moves);
        let (r, _) = search(SearchConfig::FULL, fen, &limits, &[]);
        assert_eq!(r.score, mate_in(plies), "{fen}");
        // It stops soon after the mate appears instead of iterating on to the depth cap.
        assert!(r.depth <= plies as u32 + 4, "{fen}: depth {}", r.depth);
        let mut pos = Position::from_fen(fen).expect("FEN");
        assert!(pos.is_legal(r.best_move.expect("a move")));
    }
}

#[test]
fn go_mate_with_too_small_a_bound_keeps_searching() {
    // A mate in 3 moves is not a mate in 2: the search goes on until its node budget.
    let (fen, plies) = MATES[2];
    let mut limits = Limits::depth(u32::MAX);
    limits.mate = Some(2);
    limits.nodes = 200_000;
    let (r, _) = search(SearchConfig::FULL, fen, &limits, &[]);
    assert_eq!(r.score, mate_in(plies));
    assert!(r.depth > plies as u32 + 4, "depth {}", r.depth);
}
