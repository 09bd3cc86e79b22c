//! Checkpoints: the float weights, AdamW's state and where the run stands, written after each
//! epoch so that `--resume` continues exactly where the run stopped.
//!
//! Layout (little-endian): magic `PAOTRCK1`, version u32, hidden u32, activation u32,
//! epochs done u32, steps u64, K f32, seed u64, batch u64, training positions u64, parameter
//! count u64, FNV-1a of the body u64, feature set u32, factorised u32 (version 3); then the
//! body: parameters, first moments, second moments, each as f32. Version 2 (plain features,
//! no factorisation, a 76-byte header) is still read.

use super::data::Inputs;
use super::network::{FloatNet, Layout};
use super::optimiser::AdamW;
use pao::eval::nnue::file::fnv1a;
use pao::eval::nnue::{Activation, FeatureSet};

const MAGIC: &[u8; 8] = b"PAOTRCK1";
/// Version 2: the parameters end with the PSQT weights; 3: the inputs in the header.
const VERSION: u32 = 3;
/// Header sizes of versions 2 and 3.
const HEADER_V2: usize = 76;
const HEADER: usize = 84;

/// A training run's full state after an epoch.
#[derive(Clone, PartialEq, Debug)]
pub struct Checkpoint {
    /// The float net.
    pub net: FloatNet,
    /// The optimiser.
    pub adam: AdamW,
    /// Epochs finished.
    pub epochs_done: usize,
    /// Batches taken.
    pub steps: u64,
    /// The sigmoid scale in use.
    pub k: f32,
    /// The run's seed.
    pub seed: u64,
    /// The run's batch size.
    pub batch: usize,
    /// The number of training positions.
    pub train_len: usize,
}

impl Checkpoint {
    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut body = Vec::with_capacity(12 * self.net.params.len());
        for x in self
            .net
            .params
            .iter()
            .chain(&self.adam.m)
            .chain(&self.adam.v)
        {
            body.extend_from_slice(&x.to_le_bytes());
        }
        let mut out = Vec::with_capacity(HEADER + body.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(self.net.hidden as u32).to_le_bytes());
        out.extend_from_slice(&(self.net.activation as u32).to_le_bytes());
        out.extend_from_slice(&(self.epochs_done as u32).to_le_bytes());
        out.extend_from_slice(&self.steps.to_le_bytes());
        out.extend_from_slice(&self.k.to_le_bytes());
        out.extend_from_slice(&self.seed.to_le_bytes());
        out.extend_from_slice(&(self.batch as u64).to_le_bytes());
        out.extend_from_slice(&(self.train_len as u64).to_le_bytes());
        out.extend_from_slice(&(self.net.params.len() as u64).to_le_bytes());
        out.extend_from_slice(&fnv1a(&body).to_le_bytes());
        out.extend_from_slice(&(self.net.inputs.set.id() as u32).to_le_bytes());
        out.extend_from_slice(&(self.net.inputs.factorised as u32).to_le_bytes());
        out.extend_from_slice(&body);
        out
    }

    /// Parses and checks a checkpoint.
    pub fn from_bytes(bytes: &[u8]) -> Result<Checkpoint, String> {
        if bytes.len() < HEADER_V2 || &bytes[..8] != MAGIC {
            return Err("not a Pao training checkpoint".into());
        }
        let u32_at =
            |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
        let u64_at = |i: usize| u32_at(i) as u64 | (u32_at(i + 4) as u64) << 32;
        let (header, inputs) = match u32_at(8) {
            2 => (HEADER_V2, Inputs::PLAIN),
            VERSION if bytes.len() >= HEADER => {
                let set = FeatureSet::from_id(u32_at(76).min(255) as u8)
                    .ok_or_else(|| format!("unknown feature set {} in checkpoint", u32_at(76)))?;
                (HEADER, Inputs::of(set, u32_at(80) != 0))
            }
            v => return Err(format!("checkpoint version {v} is not supported")),
        };
        let hidden = u32_at(12) as usize;
        let activation = match u32_at(16) {
            0 => Activation::ClippedRelu,
            1 => Activation::SquaredClippedRelu,
            a => return Err(format!("unknown activation {a} in checkpoint")),
        };
        let len = u64_at(60) as usize;
        if hidden == 0
            || hidden > pao::eval::nnue::file::MAX_HIDDEN
            || Layout::new(inputs.count(), hidden).len != len
        {
            return Err("checkpoint header is inconsistent".into());
        }
        if bytes.len() != header + 12 * len {
            return Err("checkpoint is truncated".into());
        }
        if fnv1a(&bytes[header..]) != u64_at(68) {
            return Err("checkpoint checksum mismatch (corrupt file)".into());
        }
        let floats = |part: usize| -> Vec<f32> {
            bytes[header + 4 * len * part..header + 4 * len * (part + 1)]
                .chunks_exact(4)
                .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect()
        };
        Ok(Checkpoint {
            net: FloatNet {
                inputs,
                hidden,
                activation,
                params: floats(0),
            },
            adam: AdamW {
                m: floats(1),
                v: floats(2),
                t: u64_at(24),
            },
            epochs_done: u32_at(20) as usize,
            steps: u64_at(24),
            k: f32::from_bits(u32_at(32)),
            seed: u64_at(36),
            batch: u64_at(44) as usize,
            train_len: u64_at(52) as usize,
        })
    }

    /// Writes the checkpoint atomically (a crash or a full disk never leaves half a file).
    pub fn save(&self, path: &str) -> Result<(), String> {
        crate::common::atomic::write(std::path::Path::new(path), &self.to_bytes())
    }

    /// Reads a checkpoint file.
    pub fn load(path: &str) -> Result<Checkpoint, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
        Checkpoint::from_bytes(&bytes).map_err(|e| format!("{path}: {e}"))
    }
}
