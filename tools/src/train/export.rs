//! Export: the float net quantised into a `Network` (the engine's net file), its provenance
//! line, and a plain scalar forward pass of the quantised net to check the export against.

use super::data::{features, MAX_ACTIVE};
use super::network::{FloatNet, CLIP, SCALE};
use crate::datagen::record::Record;
use pao::eval::nnue::features::INPUTS;
use pao::eval::nnue::{Activation, FeatureSet, Network};

/// First-layer quantisation: W and b times QA.
pub const QA: i32 = 255;
/// Output-layer quantisation: w times QB, c times QA * QB.
pub const QB: i32 = 64;

fn quantise_all(values: &[f32], factor: f32) -> Vec<i16> {
    values
        .iter()
        .map(|&v| (v * factor).round().clamp(i16::MIN as f32, i16::MAX as f32) as i16)
        .collect()
}

/// The first layer and the PSQT weights as the engine reads them: factorised, each bucket's
/// row plus its shared plain row; otherwise as trained. The optimiser keeps each such sum
/// within ±CLIP; the clamp here only catches the last bit of its rounding.
fn folded(net: &FloatNet) -> (Vec<f32>, Vec<f32>) {
    let (l, h, p) = (net.layout(), net.hidden, &net.params);
    let rows = net.inputs.set.inputs();
    let mut ft = p[..rows * h].to_vec();
    let mut psqt = p[l.psqt..l.psqt + rows].to_vec();
    if net.inputs.factorised {
        for f in 0..rows {
            let shared = rows + FeatureSet::factor(f);
            for j in 0..h {
                ft[f * h + j] = (ft[f * h + j] + p[shared * h + j]).clamp(-CLIP, CLIP);
            }
            psqt[f] += p[l.psqt + shared];
        }
        debug_assert_eq!(l.psqt - rows * h - 3 * h - 1, INPUTS * h);
    }
    (ft, psqt)
}

/// The quantised net of `net`, with `provenance`.
pub fn quantise(net: &FloatNet, provenance: String) -> Network {
    let l = net.layout();
    let p = &net.params;
    let (ft, psqt) = folded(net);
    Network {
        features: net.inputs.set,
        hidden: net.hidden,
        activation: net.activation,
        qa: QA,
        qb: QB,
        scale: SCALE as i32,
        ft_weights: quantise_all(&ft, QA as f32),
        ft_bias: quantise_all(&p[l.ft_bias..l.out_weights], QA as f32),
        out_weights: quantise_all(&p[l.out_weights..l.out_bias], QB as f32),
        out_bias: (p[l.out_bias] * (QA * QB) as f32).round() as i32,
        psqt: psqt
            .iter()
            .map(|&w| (w * (QA * QB) as f32).round() as i32)
            .collect(),
        provenance,
    }
}

/// Most training positions the output bias is corrected on (a stride through the set).
pub const BIAS_SAMPLE: usize = 20_000;

/// Every `len / BIAS_SAMPLE`-th position (rounded up) of `records`: the correction's sample.
pub fn bias_sample(records: &[Record]) -> impl Iterator<Item = &Record> {
    records
        .iter()
        .step_by(records.len().div_ceil(BIAS_SAMPLE).max(1))
}

/// Post-training bias correction. Rounding each output weight to 1/QB moves every evaluation
/// by nearly the same amount (the weights' rounding errors times their neurons' mean
/// activations, summed over the layer): 7 to 24 cp in the nets of generations 5 and 6, most
/// of their quantisation error, and a different side-to-move offset in each net. The mean of
/// that shift over `sample` (the float net with its output weights rounded, minus the float
/// net, in centipawns) is taken off `net`'s output bias; returns it. Zero when the weights lie
/// on the grid already (a net exported again unchanged keeps its bias).
pub fn correct_bias<'a>(
    net: &mut Network,
    float: &FloatNet,
    sample: impl Iterator<Item = &'a Record>,
) -> f64 {
    // The float net with the output weights `net` holds (as `quantise` rounded them).
    let l = float.layout();
    let mut rounded = float.clone();
    let step = net.qb as f32;
    for (w, &q) in rounded.params[l.out_weights..l.out_bias]
        .iter_mut()
        .zip(&net.out_weights)
    {
        *w = q as f32 / step;
    }
    let (mut us, mut them) = ([0u16; MAX_ACTIVE], [0u16; MAX_ACTIVE]);
    let (mut sum, mut n) = (0.0, 0usize);
    for r in sample {
        let count = features(r, false, float.inputs, &mut us, &mut them);
        let (us, them) = (&us[..count], &them[..count]);
        sum += (rounded.evaluate(us, them) - float.evaluate(us, them)) as f64 * SCALE as f64;
        n += 1;
    }
    if n == 0 {
        return 0.0;
    }
    let shift = sum / n as f64;
    let units = shift * (net.qa * net.qb) as f64 / net.scale as f64;
    net.out_bias = net.out_bias.saturating_sub(units.round() as i32);
    shift
}

/// The quantised net's evaluation in centipawns (side to move), computed the plain way in
/// integers, as the net file's documentation states it.
pub fn quantised_eval(net: &Network, us: &[u16], them: &[u16]) -> i64 {
    let h = net.hidden;
    let mut sum: i64 = 0;
    for (p, features) in [us, them].into_iter().enumerate() {
        for j in 0..h {
            let acc = net.ft_bias[j] as i64
                + features
                    .iter()
                    .map(|&f| net.ft_weights[f as usize * h + j] as i64)
                    .sum::<i64>();
            let v = acc.clamp(0, net.qa as i64);
            let w = net.out_weights[p * h + j] as i64;
            sum += match net.activation {
                Activation::ClippedRelu => v * w,
                Activation::SquaredClippedRelu => v * v * w,
            };
        }
    }
    if net.activation == Activation::SquaredClippedRelu {
        sum /= net.qa as i64;
    }
    let psqt = |features: &[u16]| {
        features
            .iter()
            .map(|&f| net.psqt[f as usize] as i64)
            .sum::<i64>()
    };
    sum += (psqt(us) - psqt(them)) / 2;
    (sum + net.out_bias as i64) * net.scale as i64 / (net.qa as i64 * net.qb as i64)
}
