//! Properties along random games: make/unmake restores everything exactly, the incremental
//! key and evaluation sums equal the ones computed from scratch, and the fast legality
//! shortcut agrees with trying every move.

use pao::board::Position;
use proptest::prelude::*;

fn start_fens() -> Vec<&'static str> {
    pao::bench::parse_fens(pao::bench::BENCH_FENS)
}

/// Plays up to `choices.len()` plies choosing by index; checks the properties at every node.
fn walk(fen: &str, choices: &[usize]) -> Result<(), TestCaseError> {
    let mut pos = Position::from_fen(fen).expect("bench FEN");
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
        let m = legal[choice % legal.len()];
        let before = pos.clone();
        let before_fen = pos.to_fen();
        pos.make_move(m);
        prop_assert_eq!(pos.key(), pos.compute_key());
        let scratch = Position::from_fen(&pos.to_fen()).expect("own FEN");
        prop_assert_eq!(pos.key(), scratch.key());
        prop_assert_eq!(pos.psq(), scratch.psq());
        prop_assert_eq!(pos.in_check(), scratch.in_check());
        pos.unmake_move();
        prop_assert_eq!(&pos, &before);
        prop_assert_eq!(pos.to_fen(), before_fen);
        if !pos.in_check() {
            pos.make_null();
            prop_assert_ne!(pos.key(), before.key());
            prop_assert_eq!(pos.key(), pos.compute_key());
            pos.unmake_null();
            prop_assert_eq!(&pos, &before);
        }
        pos.make_move(m);
        trail.push(m);
    }
    // Taking the whole game back returns to the start.
    for _ in &trail {
        pos.unmake_move();
    }
    prop_assert_eq!(pos, Position::from_fen(fen).expect("bench FEN"));
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
