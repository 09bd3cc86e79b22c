//! The factoriser in weight space against the factoriser as extra active features: the same
//! loss and gradient, and after an AdamW step the same loss; the exported sums stay in range;
//! the AVX2 and portable builds train the same net bit for bit.

use super::data::{sigmoid, Batch, Inputs};
use super::export::{quantise, QA};
use super::network::{act, batch_loss, train_step, FloatNet, Workspace, CLIP, PSQT_CLIP, SCALE};
use super::optimiser::AdamW;
use super::synth;
use pao::eval::nnue::{Activation, FeatureSet};

const K: f32 = 200.0;

/// A factorised king-bucket net whose shared rows and P weights are not zero.
fn factorised_net(hidden: usize) -> FloatNet {
    let inputs = Inputs::of(FeatureSet::KingBuckets, true);
    let mut net = FloatNet::with_inputs(inputs, hidden, Activation::SquaredClippedRelu, 3);
    let l = net.layout();
    let rows = inputs.set.inputs();
    for (i, p) in net.params[rows * hidden..l.ft_bias].iter_mut().enumerate() {
        *p = ((i * 7919 % 13) as f32 - 6.0) * 0.01;
    }
    for (i, p) in net.params[l.psqt..].iter_mut().enumerate() {
        *p = ((i * 31 % 11) as f32 - 5.0) * 0.02;
    }
    net
}

fn batch(net: &FloatNet, positions: usize, seed: u64) -> Batch {
    let records = synth::generate(positions, seed);
    let picks: Vec<u32> = (0..positions as u32).collect();
    let mut b = Batch::with_capacity(positions);
    b.fill(&records, &picks, |i| i % 3 == 0, net.inputs, 0.5, K);
    b
}

/// The features a position read before: each bucket feature and, as one more active
/// feature, its shared row.
fn as_features(net: &FloatNet, batch: &Batch, i: usize, p: usize) -> Vec<usize> {
    let rows = net.inputs.set.inputs();
    batch
        .active(i, p)
        .iter()
        .flat_map(|&f| [f as usize, rows + FeatureSet::factor(f as usize)])
        .collect()
}

/// The mean loss and its gradient with the shared rows as active features, computed plainly,
/// position by position.
fn feature_space(net: &FloatNet, batch: &Batch) -> (f64, Vec<f32>) {
    let (h, l, p) = (net.hidden, net.layout(), &net.params);
    let (n, slope) = (batch.len, SCALE / K);
    let mut grad = vec![0f32; l.len];
    let mut loss = 0.0;
    for i in 0..n {
        let lists = [as_features(net, batch, i, 0), as_features(net, batch, i, 1)];
        let mut acc = vec![0f32; 2 * h];
        for (q, list) in lists.iter().enumerate() {
            for j in 0..h {
                acc[q * h + j] = p[l.ft_bias + j] + list.iter().map(|&f| p[f * h + j]).sum::<f32>();
            }
        }
        let side = |q: usize| lists[q].iter().map(|&f| p[l.psqt + f]).sum::<f32>();
        let mut out = p[l.out_bias] + 0.5 * (side(0) - side(1));
        for (j, &a) in acc.iter().enumerate() {
            out += act(net.activation, a).0 * p[l.out_weights + j];
        }
        let s = sigmoid(out * slope);
        let e = s - batch.targets[i];
        loss += (e * e) as f64;
        let d = 2.0 * e * s * (1.0 - s) * slope / n as f32;
        grad[l.out_bias] += d;
        for (q, list) in lists.iter().enumerate() {
            for j in 0..h {
                let (a, da) = act(net.activation, acc[q * h + j]);
                grad[l.out_weights + q * h + j] += d * a;
                let g = d * p[l.out_weights + q * h + j] * da;
                grad[l.ft_bias + j] += g;
                for &f in list {
                    grad[f * h + j] += g;
                }
            }
            let sign = if q == 0 { 0.5 } else { -0.5 };
            for &f in list {
                grad[l.psqt + f] += sign * d;
            }
        }
    }
    (loss / n as f64, grad)
}

/// The step as it was: dense AdamW over every parameter, then every part clipped on its own.
fn dense_adamw(net: &mut FloatNet, grad: &[f32], lr: f32, wd: f32) {
    let l = net.layout();
    let (c1, c2) = (1.0 - 0.9f32, 1.0 - 0.999f32);
    for (i, p) in net.params.iter_mut().enumerate() {
        let (m, v) = (0.1 * grad[i], 0.001 * grad[i] * grad[i]);
        let update = (m / c1) / ((v / c2).sqrt() + 1e-8);
        let decays = i < l.ft_bias || (l.out_weights..l.out_bias).contains(&i);
        *p -= lr * (update + if decays { wd * *p } else { 0.0 });
        let bound = if i < l.psqt { CLIP } else { PSQT_CLIP };
        *p = p.clamp(-bound, bound);
    }
}

#[test]
fn weight_space_gives_the_loss_and_gradient_of_feature_space() {
    let net = factorised_net(32);
    let b = batch(&net, 200, 17);
    let mut ws = Workspace::new(&net, 2);
    let loss = train_step(&net, &b, &mut ws, K);
    let (reference, grad) = feature_space(&net, &b);
    assert!(
        (loss - reference).abs() <= 1e-6 * reference,
        "{loss} against {reference}"
    );
    let largest = grad.iter().fold(0f32, |m, g| m.max(g.abs()));
    assert!(largest > 0.0);
    let l = net.layout();
    let rows = net.inputs.set.inputs();
    let mut shared_touched = 0;
    for (i, (&new, &old)) in ws.grad.iter().zip(&grad).enumerate() {
        assert!(
            (new - old).abs() <= 1e-5 * largest,
            "parameter {i} of {}: {new} against {old}",
            l.len
        );
        shared_touched += usize::from(i >= rows * 32 && i < l.ft_bias && old != 0.0);
    }
    assert!(shared_touched > 1000, "{shared_touched}");

    // One AdamW step each way: the same loss after it.
    let (lr, wd) = (0.001, 0.01);
    let mut fast = net.clone();
    AdamW::new(l.len).step(&mut fast, &ws.grad, lr, wd);
    let mut slow = net.clone();
    dense_adamw(&mut slow, &grad, lr, wd);
    let after = batch_loss(&fast, &b, &mut ws, K) / b.len as f64;
    let (before, _) = feature_space(&slow, &b);
    assert!(after < loss, "{after} after, {loss} before");
    assert!(
        (after - before).abs() <= 1e-5 * before,
        "{after} against {before}"
    );
}

#[test]
fn clipped_parts_keep_every_exported_sum_in_range() {
    // A learning rate far too high drives weights to the clip; every bucket row plus its
    // shared row must stay within ±CLIP, so that export needs no clamp.
    let mut net = factorised_net(16);
    let b = batch(&net, 300, 5);
    let mut ws = Workspace::new(&net, 1);
    let mut adam = AdamW::new(net.params.len());
    for _ in 0..20 {
        train_step(&net, &b, &mut ws, K);
        adam.step(&mut net, &ws.grad, 0.5, 0.0);
    }
    let (h, l) = (net.hidden, net.layout());
    let rows = net.inputs.set.inputs();
    let q = quantise(&net, String::new());
    let mut widest = 0f32;
    for f in 0..rows {
        let shared = rows + FeatureSet::factor(f);
        for j in 0..h {
            let (own, common) = (net.params[f * h + j], net.params[shared * h + j]);
            let sum = own + common;
            assert!(
                sum.abs() <= CLIP * (1.0 + 1e-6),
                "row {f}, column {j}: {sum}"
            );
            assert!(common.abs() <= CLIP);
            assert_eq!(q.ft_weights[f * h + j], (sum * QA as f32).round() as i16);
            widest = widest.max(sum.abs());
        }
    }
    assert!(widest > CLIP - 1e-3, "the clip never bound: {widest}");
    assert!(net.params[l.psqt..].iter().all(|p| p.abs() <= PSQT_CLIP));
}

#[test]
fn avx2_and_portable_builds_train_the_same_net() {
    for inputs in [Inputs::PLAIN, Inputs::of(FeatureSet::KingBuckets, true)] {
        let train = |portable: bool| {
            super::simd::force_portable(portable);
            let mut net = FloatNet::with_inputs(inputs, 32, Activation::SquaredClippedRelu, 9);
            let b = batch(&net, 256, 2);
            let mut ws = Workspace::new(&net, 2);
            let mut adam = AdamW::new(net.params.len());
            for _ in 0..3 {
                train_step(&net, &b, &mut ws, K);
                adam.step(&mut net, &ws.grad, 0.01, 0.1);
            }
            net
        };
        let portable = train(true);
        let best = train(false);
        assert_eq!(portable, best, "{inputs:?}");
    }
}
