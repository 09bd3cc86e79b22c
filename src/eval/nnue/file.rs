//! The net file: a header (magic, version, architecture, quantisation, checksum, provenance)
//! and the quantised weights, all little-endian. docs/net-format.md describes it byte by byte.

use super::features::FeatureSet;

/// The file's first 8 bytes.
pub const MAGIC: &[u8; 8] = b"PAONNUE1";
/// Format version written: 2 adds the piece-square (PSQT) path, 3 the feature set (header
/// byte 22). Version 1 files (no PSQT path) are still read, with that path zero; versions 1
/// and 2 read the plain features.
pub const VERSION: u32 = 3;
/// Fixed part of the header, before the provenance text.
pub const HEADER_SIZE: usize = 48;
/// Largest hidden layer a file may declare (per perspective).
pub const MAX_HIDDEN: usize = 2048;
/// Hidden sizes must be multiples of this (the SIMD width in i16 lanes).
pub const HIDDEN_STEP: usize = 16;
/// Largest provenance text.
pub const MAX_PROVENANCE: usize = 4096;

/// The hidden layer's activation.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Activation {
    /// clamp(x, 0, QA).
    ClippedRelu = 0,
    /// clamp(x, 0, QA)^2 (divided by QA after the output layer's sum).
    SquaredClippedRelu = 1,
}

/// A quantised network: features -> H per perspective -> 1 output, plus a linear
/// piece-square path straight from the features to the output.
///
/// The accumulator of a perspective is `ft_bias + sum of ft_weights rows of its features`,
/// in units of 1/QA. The output is `(sum_j act(us_j) * out_w[j] + act(them_j) * out_w[H + j])`
/// (divided by QA for the squared activation), plus `out_bias` (units 1/(QA*QB)), times
/// `scale / (QA * QB)`: centipawns from the side to move's point of view. The PSQT path adds
/// `(psqt_us - psqt_them) / 2` to the sum before the bias, where `psqt_p` sums the `psqt`
/// weights (units 1/(QA*QB)) of perspective p's features: material and placement reach the
/// output linearly, and the hidden layer only learns what they miss.
#[derive(Clone, PartialEq, Debug)]
pub struct Network {
    /// The input features.
    pub features: FeatureSet,
    /// Hidden neurons per perspective.
    pub hidden: usize,
    /// Activation of the hidden layer.
    pub activation: Activation,
    /// Quantisation of the first layer.
    pub qa: i32,
    /// Quantisation of the output layer.
    pub qb: i32,
    /// Centipawns per unit of the float output.
    pub scale: i32,
    /// `inputs x hidden`, row-major by feature (`inputs` as the feature set says).
    pub ft_weights: Vec<i16>,
    /// `hidden`.
    pub ft_bias: Vec<i16>,
    /// `2 x hidden`: the side to move's half first.
    pub out_weights: Vec<i16>,
    /// Output bias in units of 1/(QA*QB).
    pub out_bias: i32,
    /// `inputs` piece-square weights in units of 1/(QA*QB) (all zero in a version 1 file).
    pub psqt: Vec<i32>,
    /// Free text: how the net was made (commit, command, data, seed).
    pub provenance: String,
}

/// Why a net file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetError(pub String);

impl std::fmt::Display for NetError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NetError {}

/// 64-bit FNV-1a: a checksum that catches truncation and corruption (not an adversary).
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
    })
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], NetError> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or_else(|| NetError("net file is truncated".into()))?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }
    fn u32(&mut self) -> Result<u32, NetError> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn i32(&mut self) -> Result<i32, NetError> {
        Ok(self.u32()? as i32)
    }
    fn i16s(&mut self, n: usize) -> Result<Vec<i16>, NetError> {
        let b = self.take(n * 2)?;
        Ok(b.chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect())
    }
    fn i32s(&mut self, n: usize) -> Result<Vec<i32>, NetError> {
        let b = self.take(n * 4)?;
        Ok(b.chunks_exact(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect())
    }
}

impl Network {
    /// Size of the weights in bytes for `inputs` features and a hidden layer of `hidden` in
    /// format `version`.
    pub fn body_size(inputs: usize, hidden: usize, version: u32) -> usize {
        let psqt = if version >= 2 { 4 * inputs } else { 0 };
        2 * (inputs * hidden + hidden + 2 * hidden) + 4 + psqt
    }

    /// Input features per perspective.
    pub fn inputs(&self) -> usize {
        self.features.inputs()
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut body = Vec::with_capacity(Self::body_size(self.inputs(), self.hidden, VERSION));
        for w in self
            .ft_weights
            .iter()
            .chain(&self.ft_bias)
            .chain(&self.out_weights)
        {
            body.extend_from_slice(&w.to_le_bytes());
        }
        body.extend_from_slice(&self.out_bias.to_le_bytes());
        for w in &self.psqt {
            body.extend_from_slice(&w.to_le_bytes());
        }
        let provenance = self.provenance.as_bytes();
        let provenance = &provenance[..provenance.len().min(MAX_PROVENANCE)];
        let mut out = Vec::with_capacity(HEADER_SIZE + provenance.len() + body.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(self.inputs() as u32).to_le_bytes());
        out.extend_from_slice(&(self.hidden as u32).to_le_bytes());
        out.push(self.activation as u8);
        out.push(1); // output buckets
        out.extend_from_slice(&[self.features.id(), 0]);
        out.extend_from_slice(&self.qa.to_le_bytes());
        out.extend_from_slice(&self.qb.to_le_bytes());
        out.extend_from_slice(&self.scale.to_le_bytes());
        out.extend_from_slice(&(provenance.len() as u32).to_le_bytes());
        out.extend_from_slice(&fnv1a(&body).to_le_bytes());
        out.extend_from_slice(provenance);
        out.extend_from_slice(&body);
        out
    }

    /// Parses and checks a net file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        let mut r = Reader { bytes, at: 0 };
        if r.take(8)
            .map_err(|_| NetError("not a Pao net file (too short)".into()))?
            != MAGIC
        {
            return Err(NetError("not a Pao net file (bad magic)".into()));
        }
        let version = r.u32()?;
        if !(1..=VERSION).contains(&version) {
            return Err(NetError(format!(
                "net file version {version} is not supported (this build reads versions 1 to {VERSION})"
            )));
        }
        let inputs = r.u32()? as usize;
        let hidden = r.u32()? as usize;
        let head = r.take(4)?;
        let activation = match head[0] {
            0 => Activation::ClippedRelu,
            1 => Activation::SquaredClippedRelu,
            a => return Err(NetError(format!("unknown activation {a} in net file"))),
        };
        let set_id = if version >= 3 { head[2] } else { 0 };
        let features = FeatureSet::from_id(set_id)
            .ok_or_else(|| NetError(format!("unknown feature set {set_id} in net file")))?;
        if inputs != features.inputs() || head[1] != 1 {
            return Err(NetError(format!(
                "net file architecture ({inputs} inputs, {} output buckets) is not supported",
                head[1]
            )));
        }
        if hidden == 0 || hidden > MAX_HIDDEN || !hidden.is_multiple_of(HIDDEN_STEP) {
            return Err(NetError(format!(
                "hidden size {hidden} is not a multiple of {HIDDEN_STEP} up to {MAX_HIDDEN}"
            )));
        }
        let (qa, qb, scale) = (r.i32()?, r.i32()?, r.i32()?);
        if !(1..=32767).contains(&qa) || !(1..=32767).contains(&qb) || scale <= 0 {
            return Err(NetError(format!(
                "bad quantisation in net file (QA {qa}, QB {qb}, scale {scale})"
            )));
        }
        let provenance_len = r.u32()? as usize;
        if provenance_len > MAX_PROVENANCE {
            return Err(NetError("net file provenance too long".into()));
        }
        let b = r.take(8)?;
        let checksum = u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]);
        let provenance = String::from_utf8_lossy(r.take(provenance_len)?).into_owned();
        let body_start = r.at;
        let expected = body_start + Self::body_size(inputs, hidden, version);
        if bytes.len() != expected {
            return Err(NetError(format!(
                "net file is {} bytes, its header says {expected}",
                bytes.len(),
            )));
        }
        if fnv1a(&bytes[body_start..]) != checksum {
            return Err(NetError("net file checksum mismatch (corrupt file)".into()));
        }
        let ft_weights = r.i16s(inputs * hidden)?;
        let ft_bias = r.i16s(hidden)?;
        let out_weights = r.i16s(2 * hidden)?;
        let out_bias = r.i32()?;
        let psqt = if version >= 2 {
            r.i32s(inputs)?
        } else {
            vec![0; inputs]
        };
        Ok(Network {
            features,
            hidden,
            activation,
            qa,
            qb,
            scale,
            ft_weights,
            ft_bias,
            out_weights,
            out_bias,
            psqt,
            provenance,
        })
    }

    /// Reads a net file from disk.
    pub fn load(path: &str) -> Result<Network, NetError> {
        let bytes = std::fs::read(path).map_err(|e| NetError(format!("{path}: {e}")))?;
        Network::from_bytes(&bytes).map_err(|e| NetError(format!("{path}: {e}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::nnue::features::INPUTS;

    pub(crate) fn small_net() -> Network {
        let hidden = 16;
        Network {
            features: FeatureSet::Plain,
            hidden,
            activation: Activation::SquaredClippedRelu,
            qa: 255,
            qb: 64,
            scale: 400,
            ft_weights: (0..INPUTS * hidden).map(|i| (i % 61) as i16 - 30).collect(),
            ft_bias: (0..hidden).map(|i| i as i16).collect(),
            out_weights: (0..2 * hidden).map(|i| (i % 7) as i16 - 3).collect(),
            out_bias: -5,
            psqt: (0..INPUTS)
                .map(|i| (i % 1001) as i32 * 37 - 18_000)
                .collect(),
            provenance: "test net".into(),
        }
    }

    #[test]
    fn round_trip_and_each_bad_file_has_its_error() {
        let net = small_net();
        let bytes = net.to_bytes();
        assert_eq!(Network::from_bytes(&bytes), Ok(net));
        let err = |b: &[u8]| Network::from_bytes(b).err().map(|e| e.0);
        assert_eq!(
            err(&bytes[..bytes.len() - 1]).as_deref(),
            Some(
                format!(
                    "net file is {} bytes, its header says {}",
                    bytes.len() - 1,
                    bytes.len()
                )
                .as_str()
            )
        );
        assert_eq!(
            err(&bytes[..5]).as_deref(),
            Some("not a Pao net file (too short)")
        );
        let mut corrupt = bytes.clone();
        let last = corrupt.len() - 10;
        corrupt[last] ^= 1;
        assert_eq!(
            err(&corrupt).as_deref(),
            Some("net file checksum mismatch (corrupt file)")
        );
        let mut version = bytes.clone();
        version[8] = 7;
        assert_eq!(
            err(&version).as_deref(),
            Some("net file version 7 is not supported (this build reads versions 1 to 3)")
        );
        let mut magic = bytes;
        magic[0] = b'X';
        assert_eq!(
            err(&magic).as_deref(),
            Some("not a Pao net file (bad magic)")
        );
    }

    /// A version 1 file (no PSQT block) still loads, with the PSQT path zero.
    #[test]
    fn version_1_files_load_without_the_psqt_path() {
        let net = small_net();
        let mut bytes = net.to_bytes();
        bytes.truncate(bytes.len() - 4 * INPUTS);
        bytes[8..12].copy_from_slice(&1u32.to_le_bytes());
        let body_start = HEADER_SIZE + net.provenance.len();
        let checksum = fnv1a(&bytes[body_start..]);
        bytes[40..48].copy_from_slice(&checksum.to_le_bytes());
        let expected = Network {
            psqt: vec![0; INPUTS],
            ..net.clone()
        };
        assert_eq!(Network::from_bytes(&bytes), Ok(expected));
        // The same bytes declared as version 2 lack the PSQT block.
        bytes[8..12].copy_from_slice(&2u32.to_le_bytes());
        assert_eq!(
            Network::from_bytes(&bytes).err().map(|e| e.0),
            Some(format!(
                "net file is {} bytes, its header says {}",
                bytes.len(),
                bytes.len() + 4 * INPUTS
            ))
        );
    }

    /// A king-bucket net round-trips with its six-fold first layer; an unknown feature set
    /// is refused by name; a version 2 file reads the plain features.
    #[test]
    fn feature_sets_round_trip_and_bad_ids_are_refused() {
        let plain = small_net();
        let inputs = FeatureSet::KingBuckets.inputs();
        let net = Network {
            features: FeatureSet::KingBuckets,
            ft_weights: (0..inputs * plain.hidden)
                .map(|i| (i % 53) as i16 - 26)
                .collect(),
            psqt: (0..inputs).map(|i| i as i32 - 3000).collect(),
            ..plain.clone()
        };
        let bytes = net.to_bytes();
        assert_eq!(bytes[22], 1);
        assert_eq!(Network::from_bytes(&bytes), Ok(net));
        let mut unknown = bytes.clone();
        unknown[22] = 9;
        assert_eq!(
            Network::from_bytes(&unknown).err().map(|e| e.0).as_deref(),
            Some("unknown feature set 9 in net file")
        );
        // Version 2 had no feature set: its byte 22 was reserved and is not read.
        let mut v2 = plain.to_bytes();
        v2[8..12].copy_from_slice(&2u32.to_le_bytes());
        v2[22] = 1;
        assert_eq!(Network::from_bytes(&v2), Ok(plain));
    }
}
