//! Training data: the inputs the trainer sees, loading the files, the held-out validation
//! slice, the shuffled order of an epoch, and mini-batches of sparse features with their
//! targets.

use crate::common::rng::{coin, SplitMix64 as Rng};
use crate::datagen::record::{read_file, Record};
use pao::board::{Color, PieceKind, Square};
use pao::eval::nnue::features::INPUTS;
use pao::eval::nnue::FeatureSet;
use rayon::prelude::*;

/// The inputs the trainer sees: the net's feature set and, when `factorised`, INPUTS more
/// rows of W (and entries of P) after the set's own, one per plain feature, shared by every
/// bucket of that piece and square. The factoriser works in weight space: a position reads
/// only its bucket features, each through its row plus its shared row (the training passes
/// add the two once per batch), so the buckets learn what they have in common from every
/// position at no cost per position. Export folds the shared rows into each bucket's, so the
/// engine never sees them.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Inputs {
    /// The net's feature set.
    pub set: FeatureSet,
    /// Whether the shared plain rows are trained (king buckets only).
    pub factorised: bool,
}

impl Inputs {
    /// The plain features, unfactorised: the nets before feature sets.
    pub const PLAIN: Inputs = Inputs {
        set: FeatureSet::Plain,
        factorised: false,
    };

    /// The set's inputs, factorised when it has buckets.
    pub fn of(set: FeatureSet, factorise: bool) -> Inputs {
        Inputs {
            set,
            factorised: factorise && set != FeatureSet::Plain,
        }
    }

    /// Rows of W (and entries of P) in training.
    pub fn count(self) -> usize {
        self.set.inputs() + if self.factorised { INPUTS } else { 0 }
    }
}

/// Most pieces on a board.
pub const MAX_PIECES: usize = 32;
/// Most active features per perspective: one per piece.
pub const MAX_ACTIVE: usize = MAX_PIECES;

/// The positions to learn from and those to check against.
pub struct Split {
    /// Training positions, in file order.
    pub train: Vec<Record>,
    /// Validation positions: the last games of each file.
    pub val: Vec<Record>,
    /// Each file and its number of positions.
    pub files: Vec<(String, usize)>,
}

/// Loads every file and holds out the last `val_fraction` of each, moved forward to the start
/// of a game so that no game is split between the two sets.
pub fn load(paths: &[String], val_fraction: f64) -> Result<Split, String> {
    let mut split = Split {
        train: Vec::new(),
        val: Vec::new(),
        files: Vec::new(),
    };
    for path in paths {
        let mut records = read_positions(path)?;
        let n = records.len();
        let mut cut = n - (n as f64 * val_fraction).ceil() as usize;
        if cut < n {
            cut = (cut..n).find(|&i| records[i].first_of_game).unwrap_or(cut);
        }
        split.val.extend(records.drain(cut..));
        split.train.append(&mut records);
        split.files.push((path.clone(), n));
    }
    if split.train.is_empty() {
        return Err("no training positions left after the validation slice".into());
    }
    Ok(split)
}

/// Loads the training files whole and validates on every position of `val_paths` instead.
pub fn load_with_validation(paths: &[String], val_paths: &[String]) -> Result<Split, String> {
    let mut split = load(paths, 0.0)?;
    for path in val_paths {
        split.val.extend(read_positions(path)?);
    }
    Ok(split)
}

/// Every position of a data file; an empty file is an error naming it.
fn read_positions(path: &str) -> Result<Vec<Record>, String> {
    let records = read_file(path).map_err(|e| e.0)?;
    if records.is_empty() {
        return Err(format!("{path}: no positions in the file"));
    }
    Ok(records)
}

/// The logistic function.
#[inline]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The training target of a record: λ·result + (1 − λ)·sigmoid(score / K).
#[inline]
pub fn target(record: &Record, wdl: f32, k: f32) -> f32 {
    wdl * record.outcome.value() + (1.0 - wdl) * sigmoid(record.score as f32 / k)
}

/// The active features of `record` for `inputs` from the side to move's view (`us`) and the
/// other side's (`them`), of the board mirrored left-right when `mirror` (the set's features
/// only: shared rows are read through them). Returns how many there are.
pub fn features(
    record: &Record,
    mirror: bool,
    inputs: Inputs,
    us: &mut [u16],
    them: &mut [u16],
) -> usize {
    let side = record.side;
    let mut pieces = [None; MAX_PIECES];
    let mut generals = [Square::from_index(0); 2];
    for (slot, (piece, sq)) in pieces.iter_mut().zip(record.pieces()) {
        let sq = if mirror { sq.mirror_file() } else { sq };
        if piece.kind() == PieceKind::General {
            generals[piece.color().index()] = sq;
        }
        *slot = Some((piece, sq));
    }
    let frame = |c: Color| inputs.set.frame(c, generals[c.index()]);
    let (frame_us, frame_them) = (frame(side), frame(side.flip()));
    let mut n = 0;
    for (piece, sq) in pieces.into_iter().flatten() {
        let a = FeatureSet::index(frame_us, side, piece, sq);
        let b = FeatureSet::index(frame_them, side.flip(), piece, sq);
        us[n] = a as u16;
        them[n] = b as u16;
        n += 1;
    }
    debug_assert!(n <= MAX_ACTIVE && inputs.set.inputs() <= u16::MAX as usize + 1);
    n
}

/// The training positions' order in epoch `epoch`: a shuffle seeded by (seed, epoch).
pub fn epoch_order(len: usize, seed: u64, epoch: usize) -> Vec<u32> {
    let mut order: Vec<u32> = (0..len as u32).collect();
    let mut rng = Rng::new(seed, 0x5348_5546 + epoch as u64);
    for i in (1..len).rev() {
        order.swap(i, rng.below(i + 1));
    }
    order
}

/// A mini-batch: per position, `MAX_ACTIVE` feature slots for each perspective (side to move
/// first), the number in use, and the target.
pub struct Batch {
    /// Positions in the batch.
    pub len: usize,
    /// `len x 2 x MAX_ACTIVE` feature indices.
    pub features: Vec<u16>,
    /// Active features of each position (the same for both perspectives).
    pub counts: Vec<u8>,
    /// Targets in [0, 1].
    pub targets: Vec<f32>,
}

impl Batch {
    /// An empty batch with room for `capacity` positions.
    pub fn with_capacity(capacity: usize) -> Batch {
        Batch {
            len: 0,
            features: vec![0; capacity * 2 * MAX_ACTIVE],
            counts: vec![0; capacity],
            targets: vec![0.0; capacity],
        }
    }

    /// Fills the batch with the features (`inputs`) of `records[picks[i]]`; position `i` is
    /// mirrored when `mirror(i)`.
    pub fn fill(
        &mut self,
        records: &[Record],
        picks: &[u32],
        mirror: impl Fn(usize) -> bool + Sync,
        inputs: Inputs,
        wdl: f32,
        k: f32,
    ) {
        let n = picks.len();
        if self.counts.len() < n {
            *self = Batch::with_capacity(n);
        }
        self.len = n;
        self.features[..n * 2 * MAX_ACTIVE]
            .par_chunks_mut(2 * MAX_ACTIVE)
            .zip(self.counts[..n].par_iter_mut())
            .zip(self.targets[..n].par_iter_mut())
            .enumerate()
            .for_each(|(i, ((slots, count), t))| {
                let record = &records[picks[i] as usize];
                let (us, them) = slots.split_at_mut(MAX_ACTIVE);
                *count = features(record, mirror(i), inputs, us, them) as u8;
                *t = target(record, wdl, k);
            });
    }

    /// Position `i`'s active features from perspective `p` (0 = side to move).
    #[inline]
    pub fn active(&self, i: usize, p: usize) -> &[u16] {
        let start = (2 * i + p) * MAX_ACTIVE;
        &self.features[start..start + self.counts[i] as usize]
    }
}

/// The mirror flag of the `i`-th position of epoch `epoch` (false when mirroring is off).
pub fn mirror_flag(enabled: bool, seed: u64, epoch: usize, i: usize) -> bool {
    enabled && coin(seed, epoch as u64, i as u64)
}
