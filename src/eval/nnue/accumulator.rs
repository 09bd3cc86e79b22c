//! Accumulators on the search stack: one level per ply, each holding both perspectives'
//! hidden sums. A move pushes a level that only records what changed (a piece left a square,
//! arrived on one, maybe a captured piece left); the sums are computed lazily, from the
//! nearest computed level below, when the evaluation is asked for. Unmaking pops the level:
//! it costs nothing. With king buckets, a move of a side's own general changes every feature
//! of that side's perspective: that perspective is then computed afresh from the position
//! being evaluated, the other one still incrementally.

use super::features::{FeatureSet, Frame};
use super::file::{Activation, Network};
use super::simd::{self, Path};
use crate::board::{Color, Move, Piece, Position, Square};
use std::sync::Arc;

/// What a move changed, in features per perspective.
#[derive(Copy, Clone, Default)]
struct Change {
    /// (piece, square) that appeared; `None` for a null move.
    added: Option<(Piece, Square)>,
    /// Up to two (piece, square) that disappeared.
    removed: [Option<(Piece, Square)>; 2],
    /// Per perspective: the move put that side's general in another frame, so its sums
    /// cannot be derived from the level below.
    refresh: [bool; 2],
}

/// The stack of accumulators of one search thread.
pub struct AccumulatorStack {
    net: Arc<Network>,
    path: Path,
    /// The output weights allow the 16-bit multiply-add kernels (`simd::madd_fits`).
    madd: bool,
    features: FeatureSet,
    hidden: usize,
    /// `levels x 2 x hidden`: red's perspective then black's.
    values: Vec<i16>,
    /// `levels x 2`: the PSQT sums, red's perspective then black's.
    psqt: Vec<i32>,
    /// `levels`: each perspective's frame (where its general puts its features).
    frames: Vec<[Frame; 2]>,
    changes: Vec<Change>,
    /// `levels`: whether each perspective's sums of the level are computed.
    computed: Vec<[bool; 2]>,
    top: usize,
}

impl AccumulatorStack {
    /// A stack for `net` deep enough for `levels` plies.
    pub fn new(net: Arc<Network>, levels: usize) -> AccumulatorStack {
        AccumulatorStack::with_path(net, levels, simd::best_path())
    }

    /// The same with an explicit loop build (tests compare the two).
    pub fn with_path(net: Arc<Network>, levels: usize, path: Path) -> AccumulatorStack {
        let hidden = net.hidden;
        let madd = simd::madd_fits(&net.out_weights, net.qa);
        let features = net.features;
        AccumulatorStack {
            net,
            path,
            madd,
            features,
            hidden,
            values: vec![0; levels * 2 * hidden],
            psqt: vec![0; levels * 2],
            frames: vec![[Frame::default(); 2]; levels],
            changes: vec![Change::default(); levels],
            computed: vec![[false; 2]; levels],
            top: 0,
        }
    }

    /// The network in use.
    pub fn network(&self) -> &Arc<Network> {
        &self.net
    }

    /// Computes the bottom level from scratch for `pos` and empties the stack above it.
    pub fn refresh(&mut self, pos: &Position) {
        self.top = 0;
        for perspective in Color::BOTH {
            self.refresh_perspective(0, perspective, pos);
        }
    }

    /// Computes `perspective`'s sums of `level` from scratch for `pos`.
    fn refresh_perspective(&mut self, level: usize, perspective: Color, pos: &Position) {
        let (h, p) = (self.hidden, perspective.index());
        let frame = self.features.frame(perspective, pos.general(perspective));
        let net = &self.net;
        let acc = &mut self.values[(level * 2 + p) * h..(level * 2 + p + 1) * h];
        acc.copy_from_slice(&net.ft_bias);
        let mut psqt = 0i32;
        let mut occupied = pos.pieces_of(Color::Red) | pos.pieces_of(Color::Black);
        while occupied != 0 {
            let sq = Square::from_index(occupied.trailing_zeros() as usize);
            occupied &= occupied - 1;
            if let Some(piece) = pos.piece_at(sq) {
                let f = FeatureSet::index(frame, perspective, piece, sq);
                simd::add_assign(self.path, acc, &net.ft_weights[f * h..(f + 1) * h]);
                psqt = psqt.wrapping_add(net.psqt[f]);
            }
        }
        self.psqt[level * 2 + p] = psqt;
        self.frames[level][p] = frame;
        self.computed[level][p] = true;
    }

    /// Records `m`, about to be made in `pos` (call before `make_move`).
    #[inline]
    pub fn push_move(&mut self, pos: &Position, m: Move) {
        let moved = pos.piece_at(m.from());
        let captured = pos.piece_at(m.to());
        let mut refresh = [false; 2];
        if let Some(piece) = moved {
            if piece.kind() == crate::board::PieceKind::General {
                let c = piece.color();
                refresh[c.index()] =
                    self.features.frame(c, m.from()) != self.features.frame(c, m.to());
            }
        }
        self.top += 1;
        self.changes[self.top] = Change {
            added: moved.map(|p| (p, m.to())),
            removed: [moved.map(|p| (p, m.from())), captured.map(|p| (p, m.to()))],
            refresh,
        };
        self.computed[self.top] = [false; 2];
    }

    /// Records a null move (nothing changes).
    #[inline]
    pub fn push_null(&mut self) {
        self.top += 1;
        self.changes[self.top] = Change::default();
        self.computed[self.top] = [false; 2];
    }

    /// Undoes the last push.
    #[inline]
    pub fn pop(&mut self) {
        self.top -= 1;
    }

    /// How many levels can be pushed.
    pub fn capacity(&self) -> usize {
        self.changes.len() - 1
    }

    /// Computes the top level's sums of both perspectives; `pos` is the position of the top
    /// level (read only when a general's move calls for a refresh).
    fn compute_top(&mut self, pos: &Position) {
        for perspective in Color::BOTH {
            self.compute_perspective(perspective, pos);
        }
    }

    fn compute_perspective(&mut self, perspective: Color, pos: &Position) {
        let p = perspective.index();
        let mut base = self.top;
        while !self.computed[base][p] {
            if self.changes[base].refresh[p] {
                // Nothing below can be carried up: compute the top from the position.
                return self.refresh_perspective(self.top, perspective, pos);
            }
            base -= 1;
        }
        let h = self.hidden;
        let frame = self.frames[base][p];
        for level in base + 1..=self.top {
            let change = self.changes[level];
            let (below, above) = self.values.split_at_mut((level * 2 + p) * h);
            let prev = &below[((level - 1) * 2 + p) * h..][..h];
            let out = &mut above[..h];
            let mut psqt = self.psqt[(level - 1) * 2 + p];
            if let Some((piece, sq)) = change.added {
                let (net, psqt_w) = (&self.net.ft_weights, &self.net.psqt);
                let added = FeatureSet::index(frame, perspective, piece, sq);
                psqt = psqt.wrapping_add(psqt_w[added]);
                let mut subs = [prev; 2];
                let mut n = 0;
                for (piece, sq) in change.removed.into_iter().flatten() {
                    let f = FeatureSet::index(frame, perspective, piece, sq);
                    psqt = psqt.wrapping_sub(psqt_w[f]);
                    subs[n] = &net[f * h..(f + 1) * h];
                    n += 1;
                }
                simd::update(
                    self.path,
                    out,
                    prev,
                    &net[added * h..(added + 1) * h],
                    subs,
                    n,
                );
            } else {
                // A null move: nothing changes.
                out.copy_from_slice(prev);
            }
            self.psqt[level * 2 + p] = psqt;
            self.frames[level][p] = frame;
            self.computed[level][p] = true;
        }
    }

    /// The accumulators of `pos`, the current level: (red's, black's).
    pub fn current(&mut self, pos: &Position) -> (&[i16], &[i16]) {
        self.compute_top(pos);
        let h = self.hidden;
        let level = &self.values[self.top * 2 * h..(self.top + 1) * 2 * h];
        level.split_at(h)
    }

    /// The PSQT sums of `pos`, the current level: (red's, black's).
    pub fn current_psqt(&mut self, pos: &Position) -> (i32, i32) {
        self.compute_top(pos);
        (self.psqt[self.top * 2], self.psqt[self.top * 2 + 1])
    }

    /// The network's evaluation of `pos`, the current level, for its side to move, in
    /// centipawns.
    pub fn evaluate(&mut self, pos: &Position) -> i32 {
        self.compute_top(pos);
        let h = self.hidden;
        let level = &self.values[self.top * 2 * h..(self.top + 1) * 2 * h];
        let (red, black) = level.split_at(h);
        let (red_psqt, black_psqt) = (self.psqt[self.top * 2], self.psqt[self.top * 2 + 1]);
        let (us, them, psqt) = match pos.side_to_move() {
            Color::Red => (red, black, red_psqt as i64 - black_psqt as i64),
            Color::Black => (black, red, black_psqt as i64 - red_psqt as i64),
        };
        output(&self.net, self.path, self.madd, us, them, psqt)
    }
}

/// The output layer on a pair of accumulators (the side to move's first) and the difference
/// of the PSQT sums (the side to move's minus the other's); `madd` as `simd::madd_fits` says.
pub fn output(net: &Network, path: Path, madd: bool, us: &[i16], them: &[i16], psqt: i64) -> i32 {
    let squared = net.activation == Activation::SquaredClippedRelu;
    let qa = net.qa as i16;
    let sum = simd::output_sum(path, squared, madd, us, them, &net.out_weights, qa);
    // The trainer's quantisation is passed as literals, so that the divisions compile to a
    // multiply and a shift; any other goes through the same formula with runtime divisors.
    if (net.qa, net.qb, net.scale) == (255, 64, 400) {
        return scale_output(sum, squared, psqt, net.out_bias, 255, 64, 400);
    }
    scale_output(sum, squared, psqt, net.out_bias, net.qa, net.qb, net.scale)
}

/// The hidden sum, the PSQT difference and the bias in centipawns, as docs/net-format.md
/// writes it (integer division toward zero at each step).
#[inline(always)]
fn scale_output(
    sum: i32,
    squared: bool,
    psqt: i64,
    out_bias: i32,
    qa: i32,
    qb: i32,
    scale: i32,
) -> i32 {
    let sum = if squared { sum / qa } else { sum };
    let raw = sum as i64 + psqt / 2 + out_bias as i64;
    (raw * scale as i64 / (qa as i64 * qb as i64)) as i32
}

/// The evaluation of `pos` from scratch (no stack): the reference for tests and for `eval`.
pub fn evaluate_scratch(net: &Arc<Network>, pos: &Position) -> i32 {
    let mut stack = AccumulatorStack::with_path(net.clone(), 1, Path::Portable);
    stack.refresh(pos);
    stack.evaluate(pos)
}
