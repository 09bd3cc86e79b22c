//! The reference searches on a game small enough to solve (tic-tac-toe) and on
//! xiangqi, through one `Game` trait; SSS* equals minimax and (Stockman's theorem) never values
//! a leaf that alpha-beta in the same move order skips.

use pao::board::Position;
use pao::search::reference::{
    alphabeta, alphabeta_tt, minimax, negamax, sss_star, Counter, Table, TicTacToe,
};
use pao::search::score::INFINITE;

mod common;
use common::searching::endgame_positions;

#[test]
fn tic_tac_toe_minimax_visits_every_game_prefix_and_draws() {
    let mut c = Counter::default();
    assert_eq!(minimax(&mut TicTacToe::new(), 9, 0, &mut c), 0);
    // 549,946 nodes: every prefix of every game, the empty board included; the 255,168
    // finished games are the leaves.
    assert_eq!(
        c,
        Counter {
            nodes: 549_946,
            leaves: 255_168
        }
    );
    let mut n = Counter::default();
    assert_eq!(negamax(&mut TicTacToe::new(), 9, 0, &mut n), 0);
    assert_eq!(n, c);
}

#[test]
fn tic_tac_toe_alphabeta_and_sss_star_agree_with_far_fewer_nodes() {
    let mut ab = Counter::default();
    let v = alphabeta(&mut TicTacToe::new(), 9, -INFINITE, INFINITE, 0, &mut ab);
    assert_eq!(v, 0);
    assert_eq!(
        ab,
        Counter {
            nodes: AB_NODES,
            leaves: AB_LEAVES
        }
    );
    let mut tt = Counter::default();
    let v = alphabeta_tt(
        &mut TicTacToe::new(),
        9,
        -INFINITE,
        INFINITE,
        0,
        &mut Table::default(),
        &mut tt,
    );
    assert_eq!(v, 0);
    assert_eq!(
        tt,
        Counter {
            nodes: TT_NODES,
            leaves: TT_LEAVES
        }
    );
    let mut sss = Counter::default();
    assert_eq!(sss_star(&mut TicTacToe::new(), 9, &mut sss), 0);
    assert_eq!(
        sss,
        Counter {
            nodes: SSS_NODES,
            leaves: SSS_LEAVES
        }
    );
    assert!(sss.leaves <= ab.leaves);
}

#[test]
fn tic_tac_toe_values_of_every_position_after_two_moves() {
    // Every opening pair of moves, searched to the end: all four searches agree, and SSS*
    // values no leaf that alpha-beta skips.
    for first in 0..9 {
        for second in (0..9).filter(|&s| s != first) {
            let mut game = TicTacToe::new();
            use pao::search::reference::Game;
            game.make(first);
            game.make(second);
            let mm = minimax(&mut game, 7, 0, &mut Counter::default());
            let nm = negamax(&mut game, 7, 0, &mut Counter::default());
            let mut ab = Counter::default();
            let abv = alphabeta(&mut game, 7, -INFINITE, INFINITE, 0, &mut ab);
            let mut sss = Counter::default();
            let sv = sss_star(&mut game, 7, &mut sss);
            assert_eq!((nm, abv, sv), (mm, mm, mm), "{first} {second}");
            assert!(sss.leaves <= ab.leaves, "{first} {second}: {sss:?} {ab:?}");
        }
    }
}

#[test]
fn sss_star_equals_minimax_on_xiangqi_and_values_no_more_leaves_than_alphabeta() {
    for fen in endgame_positions() {
        for depth in 1..=3 {
            let mut pos = Position::from_fen(fen).expect("valid FEN");
            let mm = minimax(&mut pos, depth, 0, &mut Counter::default());
            let mut ab = Counter::default();
            let abv = alphabeta(&mut pos, depth, -INFINITE, INFINITE, 0, &mut ab);
            let mut sss = Counter::default();
            let sv = sss_star(&mut pos, depth, &mut sss);
            assert_eq!((abv, sv), (mm, mm), "{fen} depth {depth}");
            assert!(
                sss.leaves <= ab.leaves,
                "{fen} depth {depth}: {sss:?} {ab:?}"
            );
        }
    }
}

#[test]
fn sss_star_equals_alphabeta_on_xiangqi_at_depth_4() {
    // Alpha-beta equals minimax at depth 4 (tests/search.rs); minimax itself is slow here.
    for fen in endgame_positions() {
        let mut pos = Position::from_fen(fen).expect("valid FEN");
        let mut ab = Counter::default();
        let abv = alphabeta(&mut pos, 4, -INFINITE, INFINITE, 0, &mut ab);
        let mut sss = Counter::default();
        let sv = sss_star(&mut pos, 4, &mut sss);
        assert_eq!(sv, abv, "{fen}");
        assert!(sss.leaves <= ab.leaves, "{fen}: {sss:?} {ab:?}");
    }
}

/// Alpha-beta in the natural order (cells 0..9), fail-hard, full window.
const AB_NODES: u64 = 18_297;
const AB_LEAVES: u64 = 7_330;
/// The same with a transposition table (positions by their cells).
const TT_NODES: u64 = 4_839;
const TT_LEAVES: u64 = 1_084;
/// SSS*: states generated, leaves valued.
const SSS_NODES: u64 = 20_136;
const SSS_LEAVES: u64 = 7_153;

/// Tic-tac-toe's bounds for B*: exact when the game is over, else the whole range.
struct TrivialBounds;

impl pao::search::bstar::Bounds<TicTacToe> for TrivialBounds {
    fn bounds(&mut self, game: &mut TicTacToe, ply: usize) -> Option<(i32, i32)> {
        use pao::search::reference::Game;
        Some(game.terminal(ply).map_or((-1, 1), |v| (v, v)))
    }
}

#[test]
fn bstar_never_chooses_a_losing_move_in_tic_tac_toe() {
    use pao::search::bstar::bstar;
    use pao::search::reference::Game;
    // Every position after up to three moves where the game goes on.
    let mut layer: Vec<Vec<usize>> = vec![Vec::new()];
    let mut positions = layer.clone();
    for _ in 0..3 {
        layer = layer
            .iter()
            .flat_map(|p| {
                (0..9)
                    .filter(|c| !p.contains(c))
                    .map(|c| [p.as_slice(), &[c]].concat())
                    .collect::<Vec<_>>()
            })
            .collect();
        positions.extend(layer.iter().cloned());
    }
    let mut checked = 0;
    for p in &positions {
        let mut g = TicTacToe::new();
        for &m in p {
            g.make(m);
        }
        if g.terminal(0).is_some() {
            continue;
        }
        let value = negamax(&mut g, 9, 0, &mut Counter::default());
        let moves = g.moves();
        let s = bstar(&mut g, &moves, &mut TrivialBounds, u64::MAX, &mut |_| {});
        assert!(s.proven, "{p:?}");
        let best = s.best.expect("a move");
        g.make(best);
        let after = -negamax(&mut g, 9, 1, &mut Counter::default());
        g.unmake();
        assert_eq!(after, value, "{p:?}: B* played {best}");
        checked += 1;
    }
    assert_eq!(checked, 1 + 9 + 72 + 504);
}
