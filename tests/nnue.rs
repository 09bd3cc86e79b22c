//! The network's inference: incremental accumulators equal a full refresh along random games
//! (both perspectives, exactly), the portable and AVX2 loops are bit-identical, and a search
//! that evaluates with a network plays legal moves reproducibly.

use pao::board::Position;
use pao::eval::nnue::simd::{self, Path};
use pao::eval::nnue::{AccumulatorStack, Activation, FeatureSet};
use pao::search::{Limits, SearchConfig, Searcher};
use pao::tt::TranspositionTable;
use proptest::prelude::*;
use std::sync::Arc;

mod common;
use common::{random_net, random_net_of};

fn start_fens() -> Vec<&'static str> {
    pao::bench::parse_fens(pao::bench::BENCH_FENS)
}

/// Walks a random game with make/unmake and null moves, checking after every step that the
/// incremental accumulators equal a refresh from scratch (with king buckets, a general's move
/// makes its side's perspective refresh from the position, the other's stays incremental).
fn walk(
    fen: &str,
    steps: &[(usize, u8)],
    path: Path,
    features: FeatureSet,
) -> Result<(), TestCaseError> {
    let net = Arc::new(random_net_of(
        features,
        32,
        Activation::SquaredClippedRelu,
        7,
    ));
    let mut pos = Position::from_fen(fen).expect("bench FEN");
    let mut stack = AccumulatorStack::with_path(net.clone(), 64, path);
    let mut fresh = AccumulatorStack::with_path(net, 1, Path::Portable);
    stack.refresh(&pos);
    // Per level: was it a null move?
    let mut made: Vec<bool> = Vec::new();
    for &(choice, action) in steps {
        let legal = pos.legal_moves();
        if action == 0 && !made.is_empty() {
            if made.pop() == Some(true) {
                pos.unmake_null();
            } else {
                pos.unmake_move();
            }
            stack.pop();
        } else if action == 1 && !pos.in_check() && made.len() < 60 {
            stack.push_null();
            pos.make_null();
            made.push(true);
        } else if !legal.is_empty() && made.len() < 60 {
            let m = legal[choice % legal.len()];
            stack.push_move(&pos, m);
            pos.make_move(m);
            made.push(false);
        }
        fresh.refresh(&pos);
        let (inc_red, inc_black) = stack.current(&pos);
        let (inc_red, inc_black) = (inc_red.to_vec(), inc_black.to_vec());
        let (new_red, new_black) = fresh.current(&pos);
        prop_assert_eq!(&inc_red[..], new_red, "red accumulator in {}", pos.to_fen());
        prop_assert_eq!(
            &inc_black[..],
            new_black,
            "black accumulator in {}",
            pos.to_fen()
        );
        prop_assert_eq!(
            stack.current_psqt(&pos),
            fresh.current_psqt(&pos),
            "PSQT sums in {}",
            pos.to_fen()
        );
        prop_assert_eq!(stack.evaluate(&pos), fresh.evaluate(&pos));
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn incremental_accumulators_equal_a_refresh(
        start in 0usize..49,
        steps in prop::collection::vec((0usize..200, 0u8..6), 1..120),
    ) {
        let fens = start_fens();
        for features in FeatureSet::ALL {
            walk(fens[start % fens.len()], &steps, simd::best_path(), features)?;
            walk(fens[start % fens.len()], &steps, Path::Portable, features)?;
        }
    }
}

#[test]
fn portable_and_avx2_loops_are_bit_identical() {
    if simd::best_path() != Path::Avx2 {
        eprintln!("skipped: this CPU has no AVX2, only the portable path runs");
        return;
    }
    // The last two nets' output weights exceed what the 16-bit multiply-add kernels take
    // (|w| * QA > 32767): they run the 32-bit kernels, which must agree too.
    for (features, hidden, activation, widen) in [
        (FeatureSet::Plain, 32, Activation::SquaredClippedRelu, 1),
        (FeatureSet::Plain, 256, Activation::SquaredClippedRelu, 1),
        (
            FeatureSet::KingBuckets,
            256,
            Activation::SquaredClippedRelu,
            1,
        ),
        (FeatureSet::Plain, 64, Activation::ClippedRelu, 1),
        (FeatureSet::Plain, 128, Activation::SquaredClippedRelu, 3),
        (FeatureSet::KingBuckets, 48, Activation::ClippedRelu, 3),
    ] {
        let mut net = random_net_of(features, hidden, activation, hidden as u64);
        net.out_weights.iter_mut().for_each(|w| *w *= widen);
        assert_eq!(
            simd::madd_fits(&net.out_weights, net.qa),
            widen == 1,
            "the nets cover both kernels"
        );
        let net = Arc::new(net);
        for fen in start_fens() {
            let pos = Position::from_fen(fen).expect("bench FEN");
            let mut fast = AccumulatorStack::with_path(net.clone(), 3, Path::Avx2);
            let mut slow = AccumulatorStack::with_path(net.clone(), 3, Path::Portable);
            fast.refresh(&pos);
            slow.refresh(&pos);
            let mut p = pos.clone();
            let m = p.legal_moves()[0];
            fast.push_move(&p, m);
            slow.push_move(&p, m);
            p.make_move(m);
            assert_eq!(fast.evaluate(&p), slow.evaluate(&p), "{fen}");
            let (a, b) = fast.current(&p);
            let (a, b) = (a.to_vec(), b.to_vec());
            assert_eq!((&a[..], &b[..]), slow.current(&p));
            // The other side to move: the halves swap places in the output layer.
            if !p.in_check() {
                fast.push_null();
                slow.push_null();
                p.make_null();
                assert_eq!(fast.evaluate(&p), slow.evaluate(&p), "{fen} (null move)");
            }
        }
    }
}

#[test]
fn a_search_with_a_network_is_reproducible_and_legal() {
    let net = Arc::new(random_net(32, Activation::SquaredClippedRelu, 3));
    let run = || {
        let tt = Arc::new(TranspositionTable::new(4).expect("table"));
        let mut s = Searcher::new(tt, SearchConfig::FULL);
        s.set_network(Some(net.clone()));
        assert!(s.uses_network());
        let mut pos = Position::startpos();
        let r = s.search(&pos, &Limits::depth(6), &[], &mut |_| {});
        let best = r.best_move.expect("a move");
        assert!(pos.is_legal(best));
        (best, r.score, r.nodes)
    };
    assert_eq!(run(), run());
}

/// The evaluation as docs/net-format.md writes it, computed plainly from the features.
fn documented_eval(net: &pao::eval::nnue::Network, pos: &Position) -> i64 {
    use pao::board::Square;
    let h = net.hidden;
    let side = pos.side_to_move();
    let mut sum = 0i64;
    let mut psqt = 0i64;
    for (p, perspective) in [side, side.flip()].into_iter().enumerate() {
        let mut acc: Vec<i64> = net.ft_bias.iter().map(|&b| b as i64).collect();
        let frame = net.features.frame(perspective, pos.general(perspective));
        for sq in Square::all() {
            if let Some(piece) = pos.piece_at(sq) {
                let f = FeatureSet::index(frame, perspective, piece, sq);
                for (a, &w) in acc.iter_mut().zip(&net.ft_weights[f * h..(f + 1) * h]) {
                    *a += w as i64;
                }
                let w = net.psqt[f] as i64;
                psqt += if p == 0 { w } else { -w };
            }
        }
        for (a, &w) in acc.iter().zip(&net.out_weights[p * h..(p + 1) * h]) {
            let (v, w) = ((*a).clamp(0, net.qa as i64), w as i64);
            sum += match net.activation {
                Activation::SquaredClippedRelu => v * v * w,
                Activation::ClippedRelu => v * w,
            };
        }
    }
    if net.activation == Activation::SquaredClippedRelu {
        sum /= net.qa as i64;
    }
    (sum + psqt / 2 + net.out_bias as i64) * net.scale as i64 / (net.qa as i64 * net.qb as i64)
}

#[test]
fn inference_equals_the_documented_formula_for_any_quantisation() {
    for (qa, qb, scale, features) in [
        (255, 64, 400, FeatureSet::Plain),
        (127, 32, 300, FeatureSet::Plain),
        (255, 64, 400, FeatureSet::KingBuckets),
    ] {
        for activation in [Activation::SquaredClippedRelu, Activation::ClippedRelu] {
            let mut net = random_net_of(features, 32, activation, 5);
            (net.qa, net.qb, net.scale) = (qa, qb, scale);
            let net = Arc::new(net);
            for fen in start_fens() {
                let pos = Position::from_fen(fen).expect("bench FEN");
                for path in [Path::Portable, simd::best_path()] {
                    let mut stack = AccumulatorStack::with_path(net.clone(), 1, path);
                    stack.refresh(&pos);
                    assert_eq!(
                        stack.evaluate(&pos) as i64,
                        documented_eval(&net, &pos),
                        "{fen} QA {qa} QB {qb} scale {scale} {activation:?} {path:?} {features:?}"
                    );
                }
            }
        }
    }
}

/// The embedded net, parsed here so that a net that does not parse fails with its error (the
/// build always embeds one).
fn embedded_net() -> pao::eval::nnue::Network {
    let bytes = pao::eval::nnue::embedded_bytes().expect("this build embeds a net");
    pao::eval::nnue::Network::from_bytes(bytes).expect("the embedded net parses")
}

/// The embedded net's provenance says how it was made, with the trainer's commit and no path
/// of the machine that made it (placeholders such as `$DATA` and bare file names only).
#[test]
fn the_embedded_net_has_a_clean_provenance() {
    let net = embedded_net();
    let p = &net.provenance;
    assert!(p.starts_with("pao-tools train; commit "), "{p}");
    let commit = p
        .split("; ")
        .find_map(|part| part.strip_prefix("commit "))
        .expect("a commit field");
    let hash = commit.trim_end_matches("+dirty");
    assert!(
        hash.len() == 12 && hash.bytes().all(|b| b.is_ascii_hexdigit()),
        "not a commit: {commit}"
    );
    assert!(
        !p.split([' ', '(', ',', '=']).any(|w| w.starts_with('/')),
        "{p}"
    );
}

/// Generation 7's net keeps its weights bit for bit: the checksum of the file's body is the one
/// it was embedded with, and its provenance names the net it was warm-started from (generation
/// 6's, body checksum 41e4d1af29102e4c), its data, the weight decay of a warm start and the
/// SPRT that accepted it.
#[test]
fn the_embedded_net_keeps_generation_7s_weights() {
    use pao::eval::nnue::file::{fnv1a, HEADER_SIZE};
    let net = embedded_net();
    let bytes = net.to_bytes();
    assert_eq!(net.hidden, 256);
    assert_eq!(
        fnv1a(&bytes[HEADER_SIZE + net.provenance.len()..]),
        0xaed0_f9c5_c76f_2edf
    );
    let p = &net.provenance;
    assert!(
        p.contains("init current.nnue (body checksum 41e4d1af29102e4c)"),
        "{p}"
    );
    assert!(p.contains("data: 10239210 positions"), "{p}");
    assert!(p.contains("self-play 2600218 positions, seed 7101"), "{p}");
    assert!(p.contains("--weight-decay 0.03"), "{p}");
    assert!(p.contains("val loss 0.008899"), "{p}");
}
