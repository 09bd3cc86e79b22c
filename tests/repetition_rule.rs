//! A win by the repetition rule is scored as a rule win, just below the mate band and
//! never as a mate; `RepetitionRule = draw` scores every repetition as a draw; a search whose
//! result is decided ends at a normal depth instead of running on to depth 120.

use pao::board::{Move, Position, RankBase};
use pao::protocol::{format_score, Dialect};
use pao::search::repetition::repetition_score;
use pao::search::score::{
    is_mate_score, is_rule_score, rule_loss_in, rule_win_in, RULE_WIN, WIN_BOUND,
};
use pao::search::{Iteration, Limits, RepetitionRule, SearchConfig, SearchResult, Searcher};
use pao::tt::TranspositionTable;
use std::sync::Arc;

/// Red: general f1, rook e0, advisor f0, cannons e5 and b4, a soldier on d8. Black: general e9
/// between its advisors, soldiers d2 and f2, a horse on h3. Black's soldier checks the general
/// on f1 and on e1 in turn, and the general has no other square (e0 and f0 hold its own pieces,
/// d1 is covered by d2, and the checker is protected: by d2 on e2, by the horse on f2).
/// Whenever black stops checking, red mates at once (b4e4, double cannons, e8 being covered by
/// the soldier on d8; or b4b9 if the horse guards e4): black's only play that is not mated is
/// the perpetual check, which the Asian rules make a loss.
const FEN: &str = "3aka3/3P5/9/9/4C4/1C7/7n1/3p1p3/5K3/4RA3 w - - 0 1";
/// One turn of the cycle, back to the start position.
const CYCLE: &str = "f1e1 f2e2 e1f1 e2f2";

fn play(moves: &str) -> Position {
    let mut pos = Position::from_fen(FEN).expect("valid FEN");
    for text in moves.split_whitespace() {
        let m = pos
            .parse_legal_move(text, RankBase::Zero)
            .expect("legal move");
        pos.make_move(m);
    }
    pos
}

fn mv(text: &str) -> Move {
    pao::board::parse_move(text, RankBase::Zero).expect("move")
}

fn config(rule: RepetitionRule) -> SearchConfig {
    SearchConfig {
        repetition: rule,
        ..SearchConfig::FULL
    }
}

/// Searches the start position after `history`.
fn search(history: &str, rule: RepetitionRule, limits: &Limits) -> (SearchResult, Vec<Iteration>) {
    let tt = Arc::new(TranspositionTable::new(8).expect("8 MiB table"));
    let mut s = Searcher::new(tt, config(rule));
    let mut iterations = Vec::new();
    let r = s.search(&play(history), limits, &[], &mut |it| {
        iterations.push(it.clone())
    });
    (r, iterations)
}

/// Two cycles of history: red's evasion makes the third occurrence.
fn twice() -> String {
    format!("{CYCLE} {CYCLE}")
}

#[test]
fn the_position_is_what_the_comment_says() {
    let mut pos = play(CYCLE);
    assert!(pos.in_check());
    assert_eq!(pos.legal_moves().as_slice(), &[mv("f1e1")]);
    let mut pos = play("f1e1 f2e2");
    assert!(pos.in_check());
    assert_eq!(pos.legal_moves().as_slice(), &[mv("e1f1")]);
    // Every black move but a check is answered by a mate in one (b4e4, or b4b9 when the
    // horse covers e4).
    let mut pos = play("f1e1");
    let mut checks = 0;
    for m in pos.legal_moves().iter().copied() {
        pos.make_move(m);
        if pos.in_check() {
            checks += 1;
        } else {
            let mates = pos.legal_moves().iter().any(|&reply| {
                pos.make_move(reply);
                let mate = pos.has_no_legal_move();
                pos.unmake_move();
                mate
            });
            assert!(mates, "no mate in one after {m}");
        }
        pos.unmake_move();
    }
    assert!(checks > 0);
}

#[test]
fn a_repetition_is_ruled_inside_the_tree_or_at_the_third_occurrence() {
    // After one cycle of history, red's forced evasion repeats the game's position once: the
    // game goes on (black may still deviate), so nothing is scored, under either rule.
    let mut second = play(&format!("{CYCLE} f1e1"));
    for rule in [RepetitionRule::Asian, RepetitionRule::Draw] {
        assert_eq!(repetition_score(&mut second, 1, rule), None);
    }
    // The same position seen first inside the tree (4 plies back, 5 plies below the root):
    // black, the perpetual checker, is to move and has lost by rule.
    let mut in_tree = play(&format!("{CYCLE} f1e1"));
    assert_eq!(
        repetition_score(&mut in_tree, 5, RepetitionRule::Asian),
        Some(rule_loss_in(5))
    );
    assert_eq!(
        repetition_score(&mut in_tree, 5, RepetitionRule::Draw),
        Some(0)
    );
    // After two cycles the evasion makes the third occurrence: the game rule ends the game.
    let mut third = play(&format!("{} f1e1", twice()));
    assert_eq!(
        repetition_score(&mut third, 1, RepetitionRule::Asian),
        Some(rule_loss_in(1))
    );
    assert_eq!(
        repetition_score(&mut third, 1, RepetitionRule::Draw),
        Some(0)
    );
}

#[test]
fn a_rule_win_scores_just_below_mate_and_is_printed_as_centipawns() {
    // At the third occurrence the rule win is immediate, at every depth.
    for depth in 1..=8 {
        let (r, iterations) = search(&twice(), RepetitionRule::Asian, &Limits::depth(depth));
        assert_eq!((r.best_move, r.score), (Some(mv("f1e1")), rule_win_in(1)));
        assert_eq!(r.score, RULE_WIN - 1);
        assert!(iterations.iter().all(|it| it.score == rule_win_in(1)));
    }
    // After one cycle the search must see that black's deviations are mated; then the
    // shortest rule win is black's check into the third occurrence of the start position,
    // 4 plies ahead.
    let (r, iterations) = search(CYCLE, RepetitionRule::Asian, &Limits::depth(12));
    assert_eq!(r.best_move, Some(mv("f1e1")));
    assert_eq!(r.score, rule_win_in(4));
    assert!(iterations.iter().all(|it| !is_mate_score(it.score)));
    assert_eq!(format_score(Dialect::Uci, r.score), "score cp 28996");
    assert_eq!(format_score(Dialect::Ucci, r.score), "score 28996");
}

#[test]
fn with_the_draw_rule_the_perpetual_is_a_draw() {
    for depth in 1..=8 {
        let (r, iterations) = search(&twice(), RepetitionRule::Draw, &Limits::depth(depth));
        assert_eq!(
            (r.best_move, r.score),
            (Some(mv("f1e1")), 0),
            "depth {depth}"
        );
        assert!(iterations.iter().all(|it| it.score == 0));
    }
    for depth in 3..=10 {
        let (r, _) = search(CYCLE, RepetitionRule::Draw, &Limits::depth(depth));
        assert_eq!(
            (r.best_move, r.score),
            (Some(mv("f1e1")), 0),
            "depth {depth}"
        );
    }
}

#[test]
fn a_decided_search_stops_at_a_normal_depth() {
    let mut limits = Limits::depth(120);
    limits.stop_when_decided = true;
    // One cycle of history: the rule win, once found, holds for four iterations and the
    // search ends there instead of running on to depth 120.
    let (r, iterations) = search(CYCLE, RepetitionRule::Asian, &limits);
    let first = iterations
        .iter()
        .position(|it| is_rule_score(it.score))
        .expect("the rule win is found");
    assert!(iterations[first..].iter().all(|it| it.score == r.score));
    assert_eq!(iterations.len(), first + 4);
    assert_eq!(r.depth as usize, first + 4);
    assert!(r.score > WIN_BOUND && r.depth < 20, "{r:?}");
    // Two cycles: the only move makes the third occurrence, so depth 1 solved the tree
    // without a horizon, under either rule.
    for (rule, score) in [
        (RepetitionRule::Asian, rule_win_in(1)),
        (RepetitionRule::Draw, 0),
    ] {
        let (r, iterations) = search(&twice(), rule, &limits);
        assert_eq!((r.depth, r.score, iterations.len()), (1, score, 1));
    }
    // A fixed depth still runs every iteration.
    let (r, iterations) = search(&twice(), RepetitionRule::Draw, &Limits::depth(120));
    assert_eq!((r.depth, iterations.len()), (120, 120));
}

/// A self-play game (game 91 of the issue-15 match): red's rook chases black's horse around
/// the f- and h-files. The position has occurred twice; after f1h1 black can force its third
/// occurrence (h3f2, h1f1 forced, f2h3), and the chaser loses.
const CHASE_GAME: &str = "c3c4 b9c7 b0c2 a9a8 a0a1 a8d8 h0g2 h9g7 i0i1 i9i8 g3g4 i8f8 i1f1 \
    e6e5 h2h6 c7e6 f1f8 e6f8 h6c6 g7e6 a1h1 h7e7 b2b4 g6g5 c0e2 g5g4 b4g4 e5e4 e3e4 e7e4 d0e1 \
    f8d7 c6i6 d7e5 g2f4 e5g4 f4e6 b7e7 c4c5 e4e5 h1g1 g4f2 g1f1 f2h3 i6i9 d9e8 f1f3 h3g1 f3f1 \
    g1h3";

#[test]
fn the_chaser_sees_the_third_occurrence_coming_and_deviates() {
    let mut pos = Position::startpos();
    for text in CHASE_GAME.split_whitespace() {
        let m = pos
            .parse_legal_move(text, RankBase::Zero)
            .expect("legal move");
        pos.make_move(m);
    }
    let tt = Arc::new(TranspositionTable::new(8).expect("8 MiB table"));
    let mut s = Searcher::new(tt, SearchConfig::FULL);
    let chase = mv("f1h1");
    let r = s.search(&pos, &Limits::depth(5), &[chase], &mut |_| {});
    assert_eq!((r.best_move, r.score), (Some(chase), rule_loss_in(4)));
    let r = s.search(&pos, &Limits::depth(5), &[], &mut |_| {});
    assert_ne!(r.best_move, Some(chase));
    assert!(r.score.abs() < WIN_BOUND, "{r:?}");
}
