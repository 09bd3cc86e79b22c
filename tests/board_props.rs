//! Properties along random games: make/unmake restores everything exactly, the incremental
//! keys and the evaluation's material and piece-square stack equal the ones computed from
//! scratch, the fast legality shortcut agrees with trying every move, and the repetition
//! filter never misses a position of the history.

use pao::board::{Color, Position};
use pao::eval::{psqt, PsqStack};
use proptest::prelude::*;

fn start_fens() -> Vec<&'static str> {
    pao::bench::parse_fens(pao::bench::BENCH_FENS)
}

/// Plays up to `choices.len()` plies choosing by index; checks the properties at every node.
fn walk(fen: &str, choices: &[usize]) -> Result<(), TestCaseError> {
    let mut pos = Position::from_fen(fen).expect("bench FEN");
    let mut psq = PsqStack::new(choices.len() + 1);
    psq.refresh(&pos);
    let mut trail = Vec::new();
    for &choice in choices {
        let legal = pos.legal_moves();
        let mut fast: Vec<String> = legal.iter().map(|m| m.to_string()).collect();
        let mut slow: Vec<String> = pos
            .legal_moves_reference()
            .iter()
            .map(|m| m.to_string())
            .collect();
        fast.sort();
        slow.sort();
        prop_assert_eq!(&fast, &slow, "legal moves differ in {}", pos.to_fen());
        if legal.is_empty() {
            break;
        }
        // The repetition filter never says "cannot repeat" of a position the history holds.
        let repeats = pos.history().iter().any(|u| u.key == pos.key());
        prop_assert!(
            pos.may_repeat() || !repeats,
            "missed repetition in {}",
            pos.to_fen()
        );
        let m = legal[choice % legal.len()];
        let before = pos.clone();
        let before_fen = pos.to_fen();
        let sum_before = psq.current();
        psq.push_move(&pos, m);
        pos.make_move(m);
        prop_assert_eq!(pos.key(), pos.compute_key());
        for c in [Color::Red, Color::Black] {
            prop_assert_eq!(pos.nonsoldier_hash(c), pos.compute_nonsoldier_hash(c));
        }
        let scratch = Position::from_fen(&pos.to_fen()).expect("own FEN");
        prop_assert_eq!(pos.key(), scratch.key());
        prop_assert_eq!(psq.current(), psqt::sum(&scratch));
        prop_assert_eq!(pos.in_check(), scratch.in_check());
        psq.pop();
        pos.unmake_move();
        prop_assert_eq!(&pos, &before);
        prop_assert_eq!(pos.to_fen(), before_fen);
        prop_assert_eq!(psq.current(), sum_before);
        if !pos.in_check() {
            psq.push_null();
            pos.make_null();
            prop_assert_ne!(pos.key(), before.key());
            prop_assert_eq!(pos.key(), pos.compute_key());
            prop_assert_eq!(psq.current(), sum_before);
            psq.pop();
            pos.unmake_null();
            prop_assert_eq!(&pos, &before);
        }
        psq.push_move(&pos, m);
        pos.make_move(m);
        trail.push(m);
    }
    // Taking the whole game back returns to the start.
    for _ in &trail {
        psq.pop();
        pos.unmake_move();
    }
    let start = Position::from_fen(fen).expect("bench FEN");
    prop_assert_eq!(psq.current(), psqt::sum(&start));
    prop_assert_eq!(pos, start);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn random_games_from_the_start(choices in proptest::collection::vec(0usize..1000, 1..100)) {
        walk(pao::board::START_FEN, &choices)?;
    }

    #[test]
    fn random_games_from_bench_positions(index in 0usize..50,
                                         choices in proptest::collection::vec(0usize..1000, 1..60)) {
        let fens = start_fens();
        walk(fens[index % fens.len()], &choices)?;
    }
}
