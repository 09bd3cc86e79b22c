//! The float network the trainer optimises: the same function as the quantised `Network`
//! before quantisation. acc_p = b + sum of the W rows of perspective p's active features;
//! out = sum_j act(acc_us_j) w_j + act(acc_them_j) w_{H+j} + (psqt_us - psqt_them) / 2 + c,
//! where psqt_p sums the P weights of p's active features (a linear piece-square path);
//! eval_cp = out * SCALE. Factorised, a feature's row is its own plus its shared row, and its
//! P weight likewise: the training passes add the two once per batch (`fold`) and then read
//! one row per feature, as for plain inputs.
//!
//! Forward runs in parallel over positions; backward in parallel over slices of the hidden
//! columns, each slice walking the whole batch in order. Every gradient element is therefore
//! summed in the same order whatever the thread count: training is bit-for-bit reproducible.
//! Only the W rows of active features are touched (about 32 per perspective per position);
//! a shared row's gradient is the sum of its buckets' rows' gradients.

use super::data::{sigmoid, Batch, Inputs};
use super::simd::multiversion;
use crate::common::rng::SplitMix64 as Rng;
use pao::eval::nnue::features::INPUTS;
use pao::eval::nnue::{Activation, FeatureSet};
use rayon::prelude::*;

/// Centipawns per unit of the float output (the net file's `scale`).
pub const SCALE: f32 = 400.0;
/// Weights are kept within ±CLIP so that quantised values fit i16 (and act * w fits i16).
pub const CLIP: f32 = 1.98;
/// PSQT weights (quantised to i32) only need a sanity bound: ±16 units is ±6400 cp.
pub const PSQT_CLIP: f32 = 16.0;

/// The float parameters, in one vector: W (inputs x H, row-major by feature), b (H),
/// w (2H, side to move's half first), c (1), P (inputs).
#[derive(Clone, PartialEq, Debug)]
pub struct FloatNet {
    /// The inputs (feature set, factorised or not).
    pub inputs: Inputs,
    /// Hidden neurons per perspective.
    pub hidden: usize,
    /// The hidden layer's activation.
    pub activation: Activation,
    /// All parameters.
    pub params: Vec<f32>,
}

/// Where each part of the parameter vector starts.
#[derive(Copy, Clone, Debug)]
pub struct Layout {
    /// Start of b.
    pub ft_bias: usize,
    /// Start of w.
    pub out_weights: usize,
    /// Index of c.
    pub out_bias: usize,
    /// Start of P.
    pub psqt: usize,
    /// Total length.
    pub len: usize,
}

impl Layout {
    /// The layout for `inputs` rows and hidden size `h`.
    pub fn new(inputs: usize, h: usize) -> Layout {
        let ft_bias = inputs * h;
        Layout {
            ft_bias,
            out_weights: ft_bias + h,
            out_bias: ft_bias + 3 * h,
            psqt: ft_bias + 3 * h + 1,
            len: ft_bias + 3 * h + 1 + inputs,
        }
    }
}

/// act(x) and act'(x).
#[inline(always)]
pub(super) fn act(activation: Activation, x: f32) -> (f32, f32) {
    let inside = x > 0.0 && x < 1.0;
    let c = x.clamp(0.0, 1.0);
    match activation {
        Activation::SquaredClippedRelu => (c * c, if inside { 2.0 * x } else { 0.0 }),
        Activation::ClippedRelu => (c, if inside { 1.0 } else { 0.0 }),
    }
}

impl FloatNet {
    /// A freshly initialised net of plain features (see `with_inputs`).
    #[cfg(test)]
    pub fn new(hidden: usize, activation: Activation, seed: u64) -> FloatNet {
        FloatNet::with_inputs(Inputs::PLAIN, hidden, activation, seed)
    }

    /// A freshly initialised net: W uniform in ±1/sqrt(32) (about 32 features are active),
    /// b = 0, w uniform in ±1/sqrt(2H), c = 0, P = 0. Factorised, the shared rows start at
    /// zero, so the net starts as the same function as an unfactorised one.
    pub fn with_inputs(
        inputs: Inputs,
        hidden: usize,
        activation: Activation,
        seed: u64,
    ) -> FloatNet {
        let layout = Layout::new(inputs.count(), hidden);
        let mut rng = Rng::new(seed, 0x494e_4954);
        let mut params = vec![0.0; layout.len];
        let ft = 1.0 / (32f32).sqrt();
        let out = 1.0 / ((2 * hidden) as f32).sqrt();
        for p in &mut params[..inputs.set.inputs() * hidden] {
            *p = rng.symmetric() * ft;
        }
        for p in &mut params[layout.out_weights..layout.out_bias] {
            *p = rng.symmetric() * out;
        }
        FloatNet {
            inputs,
            hidden,
            activation,
            params,
        }
    }

    /// The parameter layout.
    pub fn layout(&self) -> Layout {
        Layout::new(self.inputs.count(), self.hidden)
    }

    /// The output of one position (in units; times SCALE for centipawns), straight from the
    /// parameters: factorised, each feature reads its own row and then its shared row.
    pub fn evaluate(&self, us: &[u16], them: &[u16]) -> f32 {
        let (h, l) = (self.hidden, self.layout());
        let rows = self.inputs.set.inputs();
        let shared = |f: u16| rows + FeatureSet::factor(f as usize);
        let mut acc = vec![0.0; 2 * h];
        let (acc_us, acc_them) = acc.split_at_mut(h);
        for (a, features) in [(acc_us, us), (acc_them, them)] {
            a.copy_from_slice(&self.params[l.ft_bias..l.out_weights]);
            for &f in features {
                let mut add = |r: usize| {
                    let row = &self.params[r * h..(r + 1) * h];
                    a.iter_mut().zip(row).for_each(|(a, w)| *a += w);
                };
                add(f as usize);
                if self.inputs.factorised {
                    add(shared(f));
                }
            }
        }
        let psqt = &self.params[l.psqt..];
        let side = |features: &[u16]| {
            let mut sum = 0.0;
            for &f in features {
                sum += psqt[f as usize];
                if self.inputs.factorised {
                    sum += psqt[shared(f)];
                }
            }
            sum
        };
        let dot = output(
            self.activation,
            &acc,
            &self.params[l.out_weights..l.out_bias],
        );
        dot + 0.5 * (side(us) - side(them)) + self.params[l.out_bias]
    }
}

/// sum_j act(acc_j) w_j over both perspectives, in eight partial sums, so that the dot
/// product vectorises and stays deterministic.
#[inline(always)]
fn output(activation: Activation, acc: &[f32], w: &[f32]) -> f32 {
    let mut lanes = [0f32; 8];
    for (a, w) in acc.chunks_exact(8).zip(w.chunks_exact(8)) {
        for k in 0..8 {
            lanes[k] += act(activation, a[k]).0 * w[k];
        }
    }
    lanes.iter().sum::<f32>()
}

/// The parameters as the training passes read them: one first-layer row and one P weight per
/// feature of the set (factorised, the fold of its own and its shared one).
#[derive(Copy, Clone)]
struct View<'a> {
    hidden: usize,
    activation: Activation,
    ft: &'a [f32],
    psqt: &'a [f32],
    bias: &'a [f32],
    out_w: &'a [f32],
    out_bias: f32,
}

impl<'a> View<'a> {
    /// The view of `net`; `fold` holds its folded rows when it is factorised.
    fn new(net: &'a FloatNet, fold: &'a Fold) -> View<'a> {
        let (h, l, p) = (net.hidden, net.layout(), &net.params);
        let rows = net.inputs.set.inputs();
        let (ft, psqt) = if net.inputs.factorised {
            (&fold.ft[..], &fold.psqt[..])
        } else {
            (&p[..rows * h], &p[l.psqt..l.psqt + rows])
        };
        View {
            hidden: h,
            activation: net.activation,
            ft,
            psqt,
            bias: &p[l.ft_bias..l.out_weights],
            out_w: &p[l.out_weights..l.out_bias],
            out_bias: p[l.out_bias],
        }
    }
}

/// A factorised net's rows and P weights with the shared ones added.
#[derive(Default)]
pub struct Fold {
    ft: Vec<f32>,
    psqt: Vec<f32>,
}

#[inline(always)]
fn add_rows_body(out: &mut [f32], own: &[f32], shared: &[f32]) {
    out.iter_mut()
        .zip(own.iter().zip(shared))
        .for_each(|(o, (a, b))| *o = a + b);
}

multiversion! {
    fn add_rows(out: &mut [f32], own: &[f32], shared: &[f32]) = add_rows_body;
}

impl Fold {
    /// Folds `net`'s shared rows into its bucket rows (nothing when it is not factorised).
    fn update(&mut self, net: &FloatNet) {
        if !net.inputs.factorised {
            return;
        }
        let (h, l, p) = (net.hidden, net.layout(), &net.params);
        let rows = net.inputs.set.inputs();
        self.ft.resize(rows * h, 0.0);
        self.psqt.resize(rows, 0.0);
        // Feature f of a bucket is `bucket * INPUTS + plain feature`: INPUTS rows per bucket,
        // each bucket's block reading the shared block.
        debug_assert!(rows.is_multiple_of(INPUTS) && FeatureSet::factor(INPUTS + 5) == 5);
        let shared = &p[rows * h..(rows + INPUTS) * h];
        self.ft
            .par_chunks_mut(INPUTS * h)
            .zip(p[..rows * h].par_chunks(INPUTS * h))
            .for_each(|(out, own)| add_rows(out, own, shared));
        let shared = &p[l.psqt + rows..l.psqt + rows + INPUTS];
        for (out, own) in self
            .psqt
            .chunks_mut(INPUTS)
            .zip(p[l.psqt..l.psqt + rows].chunks(INPUTS))
        {
            add_rows(out, own, shared);
        }
    }
}

/// Scratch space of a training step, reused from batch to batch.
pub struct Workspace {
    accs: Vec<f32>,
    dout: Vec<f32>,
    losses: Vec<f32>,
    width: usize,
    fold: Fold,
    /// One gradient slice per group of `width` hidden columns: W columns of the set's rows
    /// (rows x width), b (width), w for both perspectives (2 x width).
    slices: Vec<Vec<f32>>,
    /// The gradient in the parameter layout.
    pub grad: Vec<f32>,
}

impl Workspace {
    /// Scratch for `net` with `threads` workers.
    pub fn new(net: &FloatNet, threads: usize) -> Workspace {
        let h = net.hidden;
        // Enough column slices to keep every thread busy; any width gives the same sums.
        let width = [64, 32, 16]
            .into_iter()
            .find(|&w| h.is_multiple_of(w) && h / w >= 4 * threads)
            .unwrap_or(16);
        Workspace {
            accs: Vec::new(),
            dout: Vec::new(),
            losses: Vec::new(),
            width,
            fold: Fold::default(),
            slices: vec![vec![0.0; (net.inputs.set.inputs() + 3) * width]; h / width],
            grad: vec![0.0; net.layout().len],
        }
    }
}

/// The accumulators of one position (`acc` has 2H floats) and the output.
#[inline(always)]
fn forward_body(v: &View<'_>, us: &[u16], them: &[u16], acc: &mut [f32]) -> f32 {
    let h = v.hidden;
    let (acc_us, acc_them) = acc.split_at_mut(h);
    for (a, features) in [(acc_us, us), (acc_them, them)] {
        a.copy_from_slice(v.bias);
        for &f in features {
            let row = &v.ft[f as usize * h..(f as usize + 1) * h];
            a.iter_mut().zip(row).for_each(|(a, w)| *a += w);
        }
    }
    let side = |features: &[u16]| features.iter().map(|&f| v.psqt[f as usize]).sum::<f32>();
    output(v.activation, acc, v.out_w) + 0.5 * (side(us) - side(them)) + v.out_bias
}

multiversion! {
    fn forward(v: &View<'_>, us: &[u16], them: &[u16], acc: &mut [f32]) -> f32 = forward_body;
}

/// The forward pass over a batch: per position, the accumulators, the loss and dL/dout for a
/// mean loss. Returns the summed loss.
fn forward_batch(net: &FloatNet, batch: &Batch, ws: &mut Workspace, k: f32) -> f64 {
    let (n, h2) = (batch.len, 2 * net.hidden);
    ws.fold.update(net);
    let view = View::new(net, &ws.fold);
    ws.accs.resize(n * h2, 0.0);
    ws.dout.resize(n, 0.0);
    ws.losses.resize(n, 0.0);
    let slope = SCALE / k;
    ws.accs[..n * h2]
        .par_chunks_mut(h2)
        .zip(ws.dout[..n].par_iter_mut())
        .zip(ws.losses[..n].par_iter_mut())
        .enumerate()
        .for_each(|(i, ((acc, dout), loss))| {
            let out = forward(&view, batch.active(i, 0), batch.active(i, 1), acc);
            let s = sigmoid(out * slope);
            let e = s - batch.targets[i];
            *loss = e * e;
            *dout = 2.0 * e * s * (1.0 - s) * slope / n as f32;
        });
    ws.losses[..n].iter().map(|&l| l as f64).sum()
}

/// What the backward pass of one column slice reads.
struct Backward<'a> {
    activation: Activation,
    hidden: usize,
    width: usize,
    rows: usize,
    accs: &'a [f32],
    dout: &'a [f32],
    out_w: &'a [f32],
    batch: &'a Batch,
}

/// The gradient of slice `s` (hidden columns s * width ..) over the whole batch, in order.
#[inline(always)]
fn backward_body(b: &Backward<'_>, s: usize, grad: &mut [f32]) {
    let (h, width) = (b.hidden, b.width);
    grad.iter_mut().for_each(|g| *g = 0.0);
    let (ft, rest) = grad.split_at_mut(b.rows * width);
    let (bias, out) = rest.split_at_mut(width);
    let mut g = vec![0f32; width];
    for i in 0..b.batch.len {
        let d = b.dout[i];
        for p in 0..2 {
            let col = p * h + s * width;
            let acc = &b.accs[i * 2 * h + col..][..width];
            let w = &b.out_w[col..col + width];
            let out = &mut out[p * width..(p + 1) * width];
            for j in 0..width {
                let (a, da) = act(b.activation, acc[j]);
                out[j] += d * a;
                g[j] = d * w[j] * da;
                bias[j] += g[j];
            }
            for &f in b.batch.active(i, p) {
                let row = &mut ft[f as usize * width..(f as usize + 1) * width];
                row.iter_mut().zip(&g).for_each(|(r, g)| *r += g);
            }
        }
    }
}

multiversion! {
    fn backward(b: &Backward<'_>, s: usize, grad: &mut [f32]) = backward_body;
}

/// Mean loss of `batch` and its gradient in `ws.grad`.
pub fn train_step(net: &FloatNet, batch: &Batch, ws: &mut Workspace, k: f32) -> f64 {
    let loss = forward_batch(net, batch, ws, k);
    let (h, width, n) = (net.hidden, ws.width, batch.len);
    let l = net.layout();
    let rows = net.inputs.set.inputs();
    let args = Backward {
        activation: net.activation,
        hidden: h,
        width,
        rows,
        accs: &ws.accs,
        dout: &ws.dout,
        out_w: &net.params[l.out_weights..l.out_bias],
        batch,
    };
    ws.slices
        .par_iter_mut()
        .enumerate()
        .for_each(|(s, grad)| backward(&args, s, grad));
    // Gather the slices into the parameter layout.
    let slices = &ws.slices;
    let (ft, rest) = ws.grad.split_at_mut(l.ft_bias);
    let (own, shared) = ft.split_at_mut(rows * h);
    own.par_chunks_mut(h).enumerate().for_each(|(f, row)| {
        for (s, part) in row.chunks_exact_mut(width).enumerate() {
            part.copy_from_slice(&slices[s][f * width..(f + 1) * width]);
        }
    });
    // A shared row's gradient: its buckets' rows' gradients, summed in bucket order.
    let own = &*own;
    shared.par_chunks_mut(h).enumerate().for_each(|(r, row)| {
        row.iter_mut().for_each(|g| *g = 0.0);
        for f in (r..rows).step_by(INPUTS) {
            let from = &own[f * h..(f + 1) * h];
            row.iter_mut().zip(from).for_each(|(g, x)| *g += x);
        }
    });
    let (bias, rest) = rest.split_at_mut(h);
    let (out, c) = rest.split_at_mut(2 * h);
    for (s, slice) in slices.iter().enumerate() {
        let base = rows * width;
        bias[s * width..(s + 1) * width].copy_from_slice(&slice[base..base + width]);
        for p in 0..2 {
            let from = base + (1 + p) * width;
            out[p * h + s * width..p * h + (s + 1) * width]
                .copy_from_slice(&slice[from..from + width]);
        }
    }
    let (c, psqt) = c.split_at_mut(1);
    c[0] = ws.dout[..n].iter().sum();
    // P: d out / d P_f = +1/2 for the side to move's features, -1/2 for the other's; summed
    // serially in batch order (about 64 features per position), so it stays deterministic.
    psqt.iter_mut().for_each(|g| *g = 0.0);
    let (own, shared) = psqt.split_at_mut(rows);
    for (i, &d) in ws.dout[..n].iter().enumerate() {
        for (p, sign) in [(0, 0.5), (1, -0.5)] {
            for &f in batch.active(i, p) {
                own[f as usize] += sign * d;
            }
        }
    }
    for (r, g) in shared.iter_mut().enumerate() {
        *g = (r..rows).step_by(INPUTS).map(|f| own[f]).sum();
    }
    loss / n as f64
}

/// Summed loss of `batch` (no gradient): validation.
pub fn batch_loss(net: &FloatNet, batch: &Batch, ws: &mut Workspace, k: f32) -> f64 {
    forward_batch(net, batch, ws, k)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::data::MAX_ACTIVE;

    /// A batch of two hand-made positions.
    fn tiny_batch() -> Batch {
        let mut b = Batch::with_capacity(2);
        b.len = 2;
        let sets: [&[u16]; 4] = [&[3, 700, 95], &[40, 1000], &[5], &[9, 1259, 600, 2]];
        for (slot, set) in sets.iter().enumerate() {
            b.features[slot * MAX_ACTIVE..slot * MAX_ACTIVE + set.len()].copy_from_slice(set);
        }
        // Both perspectives of a position share one count in real data; here the sets are
        // padded with distinct features so that the counts agree.
        b.counts = vec![3, 4];
        b.features[MAX_ACTIVE + 2] = 17;
        b.features[2 * MAX_ACTIVE + 1] = 33;
        b.features[2 * MAX_ACTIVE + 2] = 66;
        b.features[2 * MAX_ACTIVE + 3] = 99;
        b.targets = vec![0.8, 0.1];
        b
    }

    /// The analytic gradient equals a finite difference, for both activations, and for
    /// factorised king buckets (a bucket row, its shared row and the shared P weight).
    #[test]
    fn gradient_matches_finite_differences() {
        let king = Inputs::of(FeatureSet::KingBuckets, true);
        for (inputs, activation) in [
            (Inputs::PLAIN, Activation::SquaredClippedRelu),
            (Inputs::PLAIN, Activation::ClippedRelu),
            (king, Activation::SquaredClippedRelu),
        ] {
            let mut net = FloatNet::with_inputs(inputs, 16, activation, 7);
            let l = net.layout();
            for j in 0..16 {
                net.params[l.ft_bias + j] = 0.3;
            }
            net.params[l.psqt + 700] = 0.4;
            net.params[l.psqt + 9] = -0.2;
            let mut batch = tiny_batch();
            let mut probes = vec![
                3 * 16 + 1,
                700 * 16 + 5,
                9 * 16 + 15,
                l.ft_bias + 2,
                l.out_weights + 3,
                l.out_weights + 20,
                l.out_bias,
                l.psqt + 700,
                l.psqt + 9,
                l.psqt + 5,
            ];
            if inputs.factorised {
                // Feature 700 in bucket 3 beside feature 700 in bucket 0: both read shared
                // row 700, which starts at zero; give the shared rows values.
                let rows = inputs.set.inputs();
                batch.features[0] = (3 * INPUTS + 700) as u16;
                for (i, p) in net.params[rows * 16..l.ft_bias].iter_mut().enumerate() {
                    *p = ((i % 7) as f32 - 3.0) * 0.02;
                }
                net.params[l.psqt + rows + 700] = 0.1;
                probes.extend([
                    (3 * INPUTS + 700) * 16 + 4,
                    (rows + 700) * 16 + 4,
                    (rows + 9) * 16 + 11,
                    l.psqt + rows + 700,
                    l.psqt + 3 * INPUTS + 700,
                ]);
            }
            let mut ws = Workspace::new(&net, 1);
            let k = 200.0;
            train_step(&net, &batch, &mut ws, k);
            let grad = ws.grad.clone();
            for &p in &probes {
                // The loss is summed from f32 terms: a smaller step drowns in their rounding.
                let eps = 5e-3;
                let mut loss = |delta: f32| {
                    let mut m = net.clone();
                    m.params[p] += delta;
                    batch_loss(&m, &batch, &mut ws, k) / 2.0
                };
                let numeric = (loss(eps) - loss(-eps)) / (2.0 * eps as f64);
                let analytic = grad[p] as f64;
                assert!(
                    (numeric - analytic).abs() <= 1e-3 * analytic.abs().max(1e-2),
                    "{activation:?} {inputs:?} parameter {p}: numeric {numeric}, analytic {analytic}"
                );
            }
        }
    }
}
