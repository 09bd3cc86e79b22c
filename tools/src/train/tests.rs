//! The trainer end to end on small synthetic data: the loss falls, the net learns material,
//! a resumed run equals an uninterrupted one, and the thread count does not change the result.

use super::args::{parse, Options};
use super::checkpoint::Checkpoint;
use super::data::Inputs;
use super::data::{features, Split, MAX_ACTIVE};
use super::export::{bias_sample, correct_bias, quantise, quantised_eval, QA, QB};
use super::network::{FloatNet, SCALE};
use super::{init, kfit, synth, trainer};
use crate::datagen::record::{Outcome, Record};
use pao::board::{Color, Piece, PieceKind, Position};
use pao::eval::nnue::{Activation, FeatureSet};

fn temp_dir(name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("pao-train-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir.to_string_lossy().into_owned()
}

fn options(extra: &str, dir: &str) -> Options {
    let mut args: Vec<String> =
        "--data unused --hidden 32 --batch 512 --lr 0.005 --val-fraction 0.1 --wdl 0.5 \
         --weight-decay 0.01"
            .split_whitespace()
            .chain(extra.split_whitespace())
            .map(String::from)
            .collect();
    args.extend(["--checkpoint-dir".to_string(), dir.to_string()]);
    parse(&args).expect("valid options")
}

fn split(positions: usize, seed: u64) -> Split {
    let mut train = synth::generate(positions, seed);
    let val = train.split_off(positions * 9 / 10);
    Split {
        train,
        val,
        files: vec![("synthetic".into(), positions)],
    }
}

fn run(o: &Options, split: &Split) -> trainer::Trained {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(o.threads)
        .build()
        .expect("pool");
    let resume = o
        .resume
        .as_deref()
        .map(|p| Checkpoint::load(p).expect("checkpoint"));
    pool.install(|| trainer::train(o, split, 200.0, resume, &mut |_| {}))
        .expect("training runs")
}

/// The quantised net's evaluation of `pos`: the scalar forward pass here, checked against the
/// engine's own inference.
fn eval_cp(net: &pao::eval::nnue::Network, pos: &Position) -> i64 {
    let record = Record::new(pos, 0, Outcome::Draw, false).expect("fits");
    let (mut us, mut them) = ([0u16; MAX_ACTIVE], [0u16; MAX_ACTIVE]);
    let inputs = Inputs::of(net.features, false);
    let n = features(&record, false, inputs, &mut us, &mut them);
    let here = quantised_eval(net, &us[..n], &them[..n]);
    let engine = pao::eval::nnue::evaluate_scratch(&std::sync::Arc::new(net.clone()), pos);
    assert_eq!(here, engine as i64, "{}", record.fen());
    here
}

#[test]
fn loss_falls_and_the_net_learns_that_a_rook_is_worth_having() {
    learns_material("--epochs 6 --threads 2", "material");
}

/// The same with king buckets and the factoriser: the exported net, read by the engine,
/// values rooks too.
#[test]
fn king_bucket_nets_learn_material_too() {
    learns_material(
        "--epochs 6 --threads 2 --features king-buckets",
        "material-kb",
    );
}

fn learns_material(extra: &str, name: &str) {
    let dir = temp_dir(name);
    let o = options(extra, &dir);
    let data = split(40_000, 3);
    let trained = run(&o, &data);
    let e = &trained.epochs;
    assert_eq!(e.len(), 6);
    let val = |i: usize| e[i].val_loss.expect("a validation slice");
    assert!(e[5].train_loss < 0.8 * e[0].train_loss, "{e:?}");
    assert!(val(5) < val(0), "{e:?}");
    // The plain net generalises from the first epoch on; the king buckets' six-fold first
    // layer overfits 36,000 synthetic positions at first, and recovers.
    assert!(o.inputs.factorised || val(0) < e[0].train_loss, "{e:?}");

    let net = quantise(&trained.net, "test".into());
    let fens = [
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1",
        "r1bakab2/9/2n1c1n2/p1p1p1p1p/9/2P6/P3P1P1P/1C2C1N2/9/RNBAKAB1R w - - 0 1",
        "2bak4/4a4/4b4/4r4/2p3p2/9/4R4/4B4/4A4/3AK4 w - - 0 1",
    ];
    for fen in fens {
        let pos = Position::from_fen(fen).expect("fen");
        let us = pos.side_to_move();
        let base = eval_cp(&net, &pos);
        // Without one of its rooks, the side to move scores lower; without one of the
        // opponent's, higher.
        for (color, sign) in [(us, -1), (us.flip(), 1)] {
            let rook = Piece::new(color, PieceKind::Rook);
            let sq = pao::board::Square::all()
                .find(|&s| pos.piece_at(s) == Some(rook))
                .expect("a rook of each side");
            let fewer = eval_cp(&net, &Position::from_fen(&without(&pos, sq)).expect("fen"));
            assert!(
                sign * (fewer - base) > 100,
                "{fen}: without the {color:?} rook on {sq:?} the eval goes from {base} to {fewer}"
            );
        }
    }
}

/// The FEN of `pos` without the piece on `sq`.
fn without(pos: &Position, sq: pao::board::Square) -> String {
    let record = Record::new(pos, 0, Outcome::Draw, false).expect("fits");
    let fen = record.fen();
    let mut rows: Vec<Vec<char>> = fen
        .split(' ')
        .next()
        .expect("board")
        .split('/')
        .map(|row| {
            row.chars()
                .flat_map(|c| match c.to_digit(10) {
                    Some(n) => vec!['1'; n as usize],
                    None => vec![c],
                })
                .collect()
        })
        .collect();
    rows[9 - sq.rank()][sq.file()] = '1';
    let board: Vec<String> = rows.iter().map(|r| r.iter().collect()).collect();
    let side = if pos.side_to_move() == Color::Red {
        'w'
    } else {
        'b'
    };
    format!("{} {side} - - 0 1", board.join("/"))
}

#[test]
fn resuming_from_a_checkpoint_equals_an_uninterrupted_run() {
    let data = split(6_000, 5);
    let whole_dir = temp_dir("whole");
    let whole = run(&options("--epochs 4 --threads 2", &whole_dir), &data);
    let resumed_dir = temp_dir("resumed");
    let resume = format!("--epochs 4 --threads 2 --resume {whole_dir}/epoch-2.ckpt");
    let resumed = run(&options(&resume, &resumed_dir), &data);
    assert_eq!(resumed.epochs.len(), 2);
    assert_eq!(resumed.net, whole.net);
    let losses = |e: &[trainer::EpochStats]| -> Vec<(f64, Option<f64>)> {
        e.iter().map(|e| (e.train_loss, e.val_loss)).collect()
    };
    assert_eq!(losses(&resumed.epochs), losses(&whole.epochs[2..]));
    let last = |d: &str| std::fs::read(format!("{d}/epoch-4.ckpt")).expect("checkpoint");
    assert_eq!(last(&whole_dir), last(&resumed_dir));

    // A checkpoint of another run is refused with one line.
    let other = options(
        &format!("--epochs 4 --seed 9 --resume {whole_dir}/epoch-2.ckpt"),
        &resumed_dir,
    );
    let err = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("pool")
        .install(|| {
            let resume = Checkpoint::load(&format!("{whole_dir}/epoch-2.ckpt")).ok();
            trainer::train(&other, &data, 200.0, resume, &mut |_| {})
        })
        .err()
        .expect("refused");
    assert_eq!(
        err,
        format!("{whole_dir}/epoch-2.ckpt: the checkpoint was made with --seed 1, this run has 9")
    );
    for d in [whole_dir, resumed_dir] {
        let _ = std::fs::remove_dir_all(d);
    }
}

#[test]
fn the_thread_count_does_not_change_the_net() {
    let data = split(3_000, 8);
    let (d1, d2) = (temp_dir("t1"), temp_dir("t2"));
    let one = run(&options("--epochs 2 --threads 1", &d1), &data);
    let two = run(&options("--epochs 2 --threads 2", &d2), &data);
    assert_eq!(one.net, two.net);
    let again = run(&options("--epochs 2 --threads 2 --seed 2", &d2), &data);
    assert_ne!(one.net, again.net);
    for d in [d1, d2] {
        let _ = std::fs::remove_dir_all(d);
    }
}

#[test]
fn checkpoints_round_trip_and_bad_ones_are_refused() {
    let factorised = Inputs::of(FeatureSet::KingBuckets, true);
    let king = FloatNet::with_inputs(factorised, 16, Activation::SquaredClippedRelu, 4);
    let c = Checkpoint {
        adam: super::optimiser::AdamW::new(king.params.len()),
        net: king,
        epochs_done: 1,
        steps: 0,
        k: 200.0,
        seed: 1,
        batch: 64,
        train_len: 500,
    };
    assert_eq!(Checkpoint::from_bytes(&c.to_bytes()), Ok(c));
    let net = FloatNet::new(16, Activation::ClippedRelu, 4);
    let len = net.params.len();
    let c = Checkpoint {
        adam: super::optimiser::AdamW {
            m: vec![0.5; len],
            v: vec![0.25; len],
            t: 7,
        },
        net,
        epochs_done: 3,
        steps: 7,
        k: 187.5,
        seed: 11,
        batch: 99,
        train_len: 1234,
    };
    let bytes = c.to_bytes();
    assert_eq!(Checkpoint::from_bytes(&bytes), Ok(c));
    let mut corrupt = bytes.clone();
    corrupt[1000] ^= 4;
    assert_eq!(
        Checkpoint::from_bytes(&corrupt).err().as_deref(),
        Some("checkpoint checksum mismatch (corrupt file)")
    );
    assert_eq!(
        Checkpoint::from_bytes(&bytes[..bytes.len() - 4])
            .err()
            .as_deref(),
        Some("checkpoint is truncated")
    );
    assert_eq!(
        Checkpoint::from_bytes(
            b"PAONNUE1 and more bytes than a header needs, really, many more ..."
        )
        .err()
        .as_deref(),
        Some("not a Pao training checkpoint")
    );
}

#[test]
fn the_quantised_net_computes_the_float_function() {
    // On weights that lie exactly on the quantisation grid, the integer forward pass equals
    // the float one up to the final truncation, and the engine's inference equals it exactly.
    // Factorised king buckets: the float net reads each bucket's row and the shared one, the
    // export their sum.
    let king = Inputs::of(FeatureSet::KingBuckets, true);
    for (inputs, activation) in [
        (Inputs::PLAIN, Activation::SquaredClippedRelu),
        (Inputs::PLAIN, Activation::ClippedRelu),
        (king, Activation::SquaredClippedRelu),
    ] {
        let mut net = FloatNet::with_inputs(inputs, 32, activation, 12);
        let l = net.layout();
        if inputs.factorised {
            // Shared rows start at zero: give them values so that the fold matters.
            let shared = inputs.set.inputs() * 32;
            for (i, p) in net.params[shared..l.ft_bias].iter_mut().enumerate() {
                *p = ((i % 7) as f32 - 3.0) * 0.01;
            }
        }
        for (i, p) in net.params.iter_mut().enumerate() {
            let q = if (l.out_weights..l.out_bias).contains(&i) {
                QB as f32
            } else if i == l.out_bias {
                (QA * QB) as f32
            } else {
                QA as f32
            };
            *p = (*p * q).round() / q;
        }
        let quantised = quantise(&net, String::new());
        for record in synth::generate(300, 21) {
            let (mut us, mut them) = ([0u16; MAX_ACTIVE], [0u16; MAX_ACTIVE]);
            let n = features(&record, false, inputs, &mut us, &mut them);
            let float = net.evaluate(&us[..n], &them[..n]) as f64 * SCALE as f64;
            let int = quantised_eval(&quantised, &us[..n], &them[..n]) as f64;
            // The truncation costs up to 1 cp; the f32 sums' rounding a little more when
            // factorised (twice the features).
            let tolerance = if inputs.factorised { 1.05 } else { 1.01 };
            assert!(
                (float - int).abs() <= tolerance,
                "{activation:?} {inputs:?}: float {float}, int {int}"
            );
            let pos = Position::from_fen(&record.fen()).expect("a legal position");
            let engine =
                pao::eval::nnue::evaluate_scratch(&std::sync::Arc::new(quantised.clone()), &pos);
            assert_eq!(engine as f64, int, "{}", record.fen());
        }
    }
}

#[test]
fn the_fitted_k_recovers_the_scale_that_made_the_results() {
    // Results drawn with P(win) = sigmoid(score / 300): the fit finds K near 300.
    let mut rng = crate::common::rng::SplitMix64::new(5, 6);
    let pos = Position::startpos();
    let records: Vec<Record> = (0..200_000)
        .map(|_| {
            let score = (rng.symmetric() * 1500.0) as i16;
            let p = super::data::sigmoid(score as f32 / 300.0);
            let u = (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
            let outcome = if u < p { Outcome::Win } else { Outcome::Loss };
            Record::new(&pos, score, outcome, false).expect("fits")
        })
        .collect();
    let k = kfit::fit(&records);
    assert!((k - 300.0).abs() < 15.0, "K = {k}");
    assert!(kfit::error(&records, k) < kfit::error(&records, 2.0 * k));
}

#[test]
fn a_warm_start_continues_the_training_state_of_its_net_and_only_of_its_net() {
    let data = split(3_000, 11);
    let dir = temp_dir("state");
    let trained = run(&options("--epochs 2 --threads 1", &dir), &data);
    let net_file = format!("{dir}/net.nnue");
    std::fs::write(&net_file, quantise(&trained.net, String::new()).to_bytes()).expect("net");
    let from = |extra: &str| {
        let out = temp_dir("state-out");
        let o = options(
            &format!("--epochs 0 --threads 1 --init {net_file} {extra}"),
            &out,
        );
        run(&o, &data).net
    };
    // The checkpoint the net was exported from: its float weights, not the rounded ones.
    let continued = from(&format!("--init-state {dir}/epoch-2.ckpt"));
    assert_eq!(continued, trained.net);
    let rounded = from("");
    assert_ne!(rounded, trained.net);
    // The exported net's output bias is corrected after rounding: the checkpoint still is its
    // training state.
    let mut corrected = quantise(&trained.net, String::new());
    corrected.out_bias += 37;
    std::fs::write(&net_file, corrected.to_bytes()).expect("net");
    assert_eq!(
        from(&format!("--init-state {dir}/epoch-2.ckpt")),
        trained.net
    );
    std::fs::write(&net_file, quantise(&trained.net, String::new()).to_bytes()).expect("net");
    // Another checkpoint (an epoch before the net): the net's quantised weights instead.
    assert_eq!(from(&format!("--init-state {dir}/epoch-1.ckpt")), rounded);
    assert_eq!(
        parse(&[
            "--data".into(),
            "a".into(),
            "--init-state".into(),
            "c".into()
        ])
        .err(),
        Some("--init-state needs --init NET (the net the checkpoint belongs to)".into())
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn the_warm_up_climbs_to_the_full_rate() {
    let shares: Vec<f32> = (0..5).map(|s| trainer::warmup(s, 4)).collect();
    assert_eq!(shares, [0.25, 0.5, 0.75, 1.0, 1.0]);
    assert_eq!(trainer::warmup(0, 0), 1.0);
    let o = options("--warmup 100", "x");
    assert_eq!(o.warmup, 100);
}

/// The mean shift (quantised minus float, cp) of `net`'s export over `records`.
fn mean_shift(float: &FloatNet, net: &pao::eval::nnue::Network, records: &[Record]) -> f64 {
    let (mut us, mut them) = ([0u16; MAX_ACTIVE], [0u16; MAX_ACTIVE]);
    let mut sum = 0.0;
    for r in records {
        let n = features(r, false, float.inputs, &mut us, &mut them);
        let exact = float.evaluate(&us[..n], &them[..n]) as f64 * SCALE as f64;
        sum += quantised_eval(net, &us[..n], &them[..n]) as f64 - exact;
    }
    sum / records.len() as f64
}

#[test]
fn the_export_takes_the_rounding_shift_off_the_output_bias() {
    let data = split(3_000, 12);
    let dir = temp_dir("bias");
    let mut float = run(&options("--epochs 1 --threads 1", &dir), &data).net;
    // Every output weight 0.3 of a step above its grid point: each rounds down, and every
    // evaluation drops by 0.3 / QB times its activations.
    let l = float.layout();
    for w in &mut float.params[l.out_weights..l.out_bias] {
        *w = ((*w * QB as f32).round() + 0.3) / QB as f32;
    }
    let mut net = quantise(&float, String::new());
    let before = mean_shift(&float, &net, &data.train);
    assert!(
        before < -2.0,
        "the rounding shifts evaluations by {before} cp"
    );
    let bias = net.out_bias;
    let shift = correct_bias(&mut net, &float, data.train.iter());
    // The shift is the float net's own (its rounded output weights against the exact ones):
    // the quantised net's measured shift within the truncation and the first layer's rounding.
    assert!((shift - before).abs() < 0.6, "{shift} against {before}");
    let units = (-shift * (QA * QB) as f64 / SCALE as f64).round() as i32;
    assert_eq!(net.out_bias, bias + units);
    // A net on the grid already (exported again, unchanged) keeps its bias.
    let on_grid = init::float_net(&net, float.inputs, float.hidden, float.activation, 1)
        .expect("the same shape");
    let mut again = quantise(&on_grid, String::new());
    assert_eq!(again.out_bias, net.out_bias);
    assert_eq!(correct_bias(&mut again, &on_grid, data.train.iter()), 0.0);
    assert_eq!(again, net);
    // What is left is the final division's truncation and the first layer's rounding.
    let after = mean_shift(&float, &net, &data.train);
    assert!(after.abs() < 0.6, "{after} cp left after the correction");
    // The sample: every record of a small set, a stride through a large one.
    assert_eq!(bias_sample(&data.train).count(), data.train.len());
    let many = vec![data.train[0].clone(); 45_000];
    assert_eq!(bias_sample(&many).count(), 15_000);
    let _ = std::fs::remove_dir_all(dir);
}
