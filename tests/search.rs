//! Search correctness: reference equalities, exact mate scores, rule scores.

use pao::board::{Move, Position};
use pao::search::reference::{alphabeta, minimax, Counter};
use pao::search::repetition::sixty_move_fade;
use pao::search::score::{mate_in, mated_in, rule_loss_in, INFINITE};
use pao::search::{Driver, Limits, SearchConfig, Searcher};
use pao::tt::TranspositionTable;
use std::sync::Arc;

mod common;
use common::searching::{endgame_positions, exact, searcher, unpruned_pvs};

fn search_value(config: SearchConfig, fen: &str, depth: u32) -> (i32, Option<Move>) {
    let pos = Position::from_fen(fen).expect("valid FEN");
    let mut s = searcher(config);
    let r = s.search(&pos, &Limits::depth(depth), &[], &mut |_| {});
    (r.score, r.best_move)
}

#[test]
fn alphabeta_equals_minimax() {
    for fen in endgame_positions() {
        for depth in 1..=3 {
            let mut pos = Position::from_fen(fen).expect("valid FEN");
            let mm = minimax(&mut pos, depth, 0, &mut Counter::default());
            let ab = alphabeta(
                &mut pos,
                depth,
                -INFINITE,
                INFINITE,
                0,
                &mut Counter::default(),
            );
            assert_eq!(ab, mm, "{fen} depth {depth}");
        }
    }
}

#[test]
fn alphabeta_equals_minimax_depth_4() {
    for fen in endgame_positions() {
        let mut pos = Position::from_fen(fen).expect("valid FEN");
        let mm = minimax(&mut pos, 4, 0, &mut Counter::default());
        let ab = alphabeta(&mut pos, 4, -INFINITE, INFINITE, 0, &mut Counter::default());
        assert_eq!(ab, mm, "{fen} depth 4");
    }
}

#[test]
fn pvs_without_pruning_equals_alphabeta() {
    for fen in endgame_positions() {
        for depth in 1..=4 {
            let ab = exact(fen, depth);
            let (pvs, _) = search_value(unpruned_pvs(), fen, depth);
            assert_eq!(pvs, ab, "{fen} depth {depth}");
        }
    }
}

#[test]
fn plain_driver_equals_alphabeta() {
    for fen in endgame_positions() {
        let mut pos = Position::from_fen(fen).expect("valid FEN");
        let ab = alphabeta(&mut pos, 3, -INFINITE, INFINITE, 0, &mut Counter::default());
        let (plain, _) = search_value(SearchConfig::PLAIN, fen, 3);
        assert_eq!(plain, ab, "{fen}");
    }
}

#[test]
fn mtdf_equals_alphabeta() {
    let config = SearchConfig {
        driver: Driver::Mtdf,
        tt_cutoffs: true,
        tt_move: true,
        ..unpruned_pvs()
    };
    for fen in endgame_positions() {
        for depth in 1..=4 {
            let ab = exact(fen, depth);
            let (mtdf, _) = search_value(config, fen, depth);
            assert_eq!(mtdf, ab, "{fen} depth {depth}");
        }
    }
}

/// (FEN, plies to mate): made from the rules, checked against plain alpha-beta below.
const MATES: [(&str, usize); 4] = [
    // Double cannons on the open central file against a general boxed in by its advisors.
    ("3aka3/9/9/9/4C4/1C7/9/9/9/3K5 w - - 0 1", 1),
    // A lone rook with the general's help on the file.
    ("4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1", 3),
    // Rook and horse against a general with one advisor.
    ("4ka3/9/9/9/9/9/9/9/9/RN1K5 w - - 0 1", 5),
    // Rook and advisors against a bare general off the central file.
    ("5k3/9/9/9/9/9/9/9/4A4/R2AK4 w - - 0 1", 5),
];

/// The full search with the switches still off by default (awaiting their SPRT) turned on.
fn every_switch_on() -> SearchConfig {
    SearchConfig {
        see: true,
        iir: true,
        lmr_adjust: true,
        cont_history: true,
        nmp_eval_r: true,
        tt_eval: true,
        razoring: true,
        rfp_improving: true,
        check_ext_see: true,
        singular: true,
        qs_futility: true,
        lmp: true,
        history_pruning: true,
        capture_history: true,
        probcut: true,
        correction_history: true,
        sixty_move_draw: true,
        sixty_move_fade: true,
        endgame_bitbase: true,
        ..SearchConfig::FULL
    }
}

#[test]
fn mates_are_found_with_exact_scores() {
    for (fen, plies) in MATES {
        for (config, depth) in [
            (SearchConfig::FULL, plies as u32 + 3),
            (SearchConfig::FULL, plies as u32 + 6),
            (every_switch_on(), plies as u32 + 3),
            (every_switch_on(), plies as u32 + 6),
            // Reverse futility with the improving margin keeps a positive margin at depth 1:
            // with none it cut the mating move of the lone rook (mate in 5 plies, not 3).
            (
                SearchConfig {
                    rfp_improving: true,
                    ..SearchConfig::FULL
                },
                plies as u32 + 6,
            ),
        ] {
            let (score, best) = search_value(config, fen, depth);
            assert_eq!(score, mate_in(plies), "{fen} depth {depth}");
            let mut pos = Position::from_fen(fen).expect("valid FEN");
            let m = best.expect("a move");
            assert!(pos.is_legal(m));
        }
    }
}

#[test]
fn mate_scores_agree_with_alphabeta_and_are_shortest() {
    for (fen, plies) in MATES {
        let mut pos = Position::from_fen(fen).expect("valid FEN");
        let exact = alphabeta(
            &mut pos,
            plies as u32,
            -INFINITE,
            INFINITE,
            0,
            &mut Counter::default(),
        );
        assert_eq!(exact, mate_in(plies), "{fen}");
        // One ply less sees no mate: the mate found is the shortest.
        let shallower = alphabeta(
            &mut pos,
            plies as u32 - 1,
            -INFINITE,
            INFINITE,
            0,
            &mut Counter::default(),
        );
        assert!(shallower < mate_in(plies), "{fen}");
    }
}

#[test]
fn stalemate_loses() {
    // Black's general has no move and is not in check.
    let fen = "4k4/3R5/9/9/9/9/9/9/9/5K3 b - - 0 1";
    let mut pos = Position::from_fen(fen).expect("valid FEN");
    assert!(!pos.in_check());
    assert!(pos.has_no_legal_move());
    for config in [SearchConfig::FULL, every_switch_on()] {
        let (score, best) = search_value(config, fen, 3);
        assert_eq!((score, best), (mated_in(0), None));
        // Red to move one step earlier: stalemating is a win like a mate.
        let (score, _) = search_value(config, "4k4/9/3R5/9/9/9/9/9/9/5K3 w - - 0 1", 3);
        assert_eq!(score, mate_in(1));
    }
}

fn play(fen: &str, moves: &str) -> Position {
    let mut pos = Position::from_fen(fen).expect("valid FEN");
    for text in moves.split_whitespace() {
        let m = pos
            .parse_legal_move(text, pao::board::RankBase::Zero)
            .expect("legal move");
        pos.make_move(m);
    }
    pos
}

#[test]
fn perpetual_check_loses_for_the_checker() {
    // Black's soldier has checked on every move; repeating the cycle once more loses.
    let fen = "3k5/9/9/9/9/5p3/9/5p3/5K3/5C3 w - - 0 1";
    let pos = play(fen, "f1e1 f2e2 e1f1 e2f2 f1e1 f2e2 e1f1");
    let repeat = pao::board::parse_move("e2f2", pao::board::RankBase::Zero).expect("move");
    let tt = Arc::new(TranspositionTable::new(1).expect("table"));
    let mut s = Searcher::new(tt, SearchConfig::FULL);
    let r = s.search(&pos, &Limits::depth(3), &[repeat], &mut |_| {});
    assert_eq!(r.best_move, Some(repeat));
    assert_eq!(r.score, rule_loss_in(1));
    // Without the restriction black finds something better than losing by rule.
    let tt = Arc::new(TranspositionTable::new(1).expect("table"));
    let mut s = Searcher::new(tt, SearchConfig::FULL);
    let r = s.search(&pos, &Limits::depth(3), &[], &mut |_| {});
    assert_ne!(r.best_move, Some(repeat));
    assert!(r.score > rule_loss_in(1));
}

#[test]
fn repetition_without_checks_is_a_draw() {
    use pao::search::repetition::repetition_score;
    use pao::search::RepetitionRule::Asian;
    let fen = "4k4/9/9/9/9/9/9/9/4A4/R2AK2R1 w - - 0 1";
    let mut pos = play(fen, "a0a1 e9e8 a1a0 e8e9");
    // Seen inside the tree (the earlier occurrence 4 plies back, 5 below the root): a draw.
    assert_eq!(repetition_score(&mut pos, 5, Asian), Some(0));
    // A second occurrence against the game history (or of the root) leaves the game going.
    assert_eq!(repetition_score(&mut pos, 1, Asian), None);
    assert_eq!(repetition_score(&mut pos, 4, Asian), None);
    // The third occurrence ends it.
    let mut pos = play(fen, "a0a1 e9e8 a1a0 e8e9 a0a1 e9e8 a1a0 e8e9");
    assert_eq!(repetition_score(&mut pos, 1, Asian), Some(0));
}

#[test]
fn perpetual_chase_loses_for_the_chaser() {
    // Red's cannon keeps chasing black's unprotected rook; repeating once more loses.
    let fen = "2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R w - - 0 1";
    let pos = play(fen, "c2a2 a7b7 a2b2 b7a7 b2a2 a7b7 a2b2 b7a7");
    let repeat = pao::board::parse_move("b2a2", pao::board::RankBase::Zero).expect("move");
    let tt = Arc::new(TranspositionTable::new(1).expect("table"));
    let mut s = Searcher::new(tt, SearchConfig::FULL);
    let r = s.search(&pos, &Limits::depth(3), &[repeat], &mut |_| {});
    assert_eq!((r.best_move, r.score), (Some(repeat), rule_loss_in(1)));
    let tt = Arc::new(TranspositionTable::new(1).expect("table"));
    let mut s = Searcher::new(tt, SearchConfig::FULL);
    let r = s.search(&pos, &Limits::depth(3), &[], &mut |_| {});
    assert_ne!(r.best_move, Some(repeat));
}

/// With `sixty_move_draw` the search knows the sixty-move rule: a rook up with one ply left
/// before the limit and no mate in one, every move draws; with the count at 0 the rook wins.
/// With `sixty_move_fade` the same position's score shrinks as the count grows.
#[test]
fn the_sixty_move_rule_in_the_search() {
    let value = |config: SearchConfig, clock: u32, depth: u32| {
        let fen = format!("4k4/9/9/9/9/9/9/9/9/R2K5 w - - {clock} 80");
        search_value(config, &fen, depth).0
    };
    let draw = SearchConfig {
        sixty_move_draw: true,
        ..SearchConfig::FULL
    };
    assert!(value(SearchConfig::FULL, 119, 4) > 500);
    assert_eq!(value(draw, 119, 4), 0);
    assert!(value(draw, 0, 4) > 500);
    // The leaves lie a ply or two past the root's count: the score is about the unfaded one
    // times (240 - count - 1) / 240.
    let fade = SearchConfig {
        sixty_move_fade: true,
        ..SearchConfig::FULL
    };
    let whole = value(SearchConfig::FULL, 0, 1);
    assert!(whole > 500, "{whole}");
    for clock in [0, 60, 110] {
        let expected = whole * (240 - clock as i32 - 1) / 240;
        let faded = value(fade, clock, 1);
        assert!(
            (faded - expected).abs() <= expected / 100,
            "count {clock}: {faded}"
        );
    }
    assert_eq!(sixty_move_fade(1000, 0), 1000);
    assert_eq!(sixty_move_fade(-1000, 60), -750);
    assert_eq!(sixty_move_fade(1000, 120), 500);
    assert_eq!(sixty_move_fade(1000, 500), 500);
}
