//! The bitbase blob: one material's win/draw/loss for every index of its table (both sides to
//! move), two bits each, packed four to a byte and compressed as one zstd frame behind a
//! small header.
//!
//! Layout (little-endian): magic `PAOWDLB\0`, version (u32), index scheme (u32), the
//! material's name (16 bytes, zero-padded), positions per side to move (u64), the packed
//! length (u64), an FNV-1a checksum of the packed bytes (u64), then the zstd frame (with its
//! own content checksum). A code is 0 draw (rule draws included), 1 the side to move wins,
//! 2 it loses; an index that names no legal position takes the code before it, which costs
//! the compressor nothing and is never probed.

use crate::egtb::file::{fnv1a, FNV_START};
use crate::egtb::index::{TableIndex, INDEX_SCHEME};
use crate::egtb::value::{self, Outcome};
use crate::egtb::Material;

/// The first bytes of a blob.
pub const MAGIC: &[u8; 8] = b"PAOWDLB\0";
/// The format's version.
pub const VERSION: u32 = 1;
/// Bytes before the compressed payload.
pub const HEADER_LEN: usize = 8 + 4 + 4 + 16 + 8 + 8 + 8;
/// The zstd level the blobs are written with (the data is written once and read once per
/// process: the smallest output is worth a slow compression).
const LEVEL: i32 = 19;

/// A verdict from the side to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Wdl {
    /// The side to move wins.
    Win,
    /// A draw (a draw that hangs on perpetual check included).
    Draw,
    /// The side to move loses.
    Loss,
}

impl Wdl {
    /// The verdict of a table's code; `None` for an invalid index.
    pub fn of_code(code: u16) -> Option<Wdl> {
        Some(match value::outcome(code)? {
            Outcome::Win(_) => Wdl::Win,
            Outcome::Loss(_) => Wdl::Loss,
            Outcome::Draw | Outcome::RuleDraw => Wdl::Draw,
        })
    }

    fn bits(self) -> u8 {
        match self {
            Wdl::Draw => 0,
            Wdl::Win => 1,
            Wdl::Loss => 2,
        }
    }
}

/// One material's verdicts, decompressed: its table's index and two bits per index.
pub struct Bitbase {
    material: Material,
    index: TableIndex,
    packed: Box<[u8]>,
}

impl Bitbase {
    /// The material.
    pub fn material(&self) -> Material {
        self.material
    }

    /// The index (the table's own).
    pub fn index(&self) -> &TableIndex {
        &self.index
    }

    /// The verdict at an index; `None` past the end. An invalid index reads as its
    /// neighbour's verdict.
    #[inline]
    pub fn wdl(&self, i: u64) -> Option<Wdl> {
        let byte = *self.packed.get((i / 4) as usize)?;
        match (byte >> (2 * (i % 4))) & 3 {
            0 => Some(Wdl::Draw),
            1 => Some(Wdl::Win),
            2 => Some(Wdl::Loss),
            _ => None,
        }
    }
}

/// Packed bytes for `len` indices.
fn packed_len(len: u64) -> u64 {
    len.div_ceil(4)
}

/// The blob of a material from its table's codes (one per index, red to move first).
pub fn encode(material: &Material, codes: &[u16]) -> Result<Vec<u8>, String> {
    let index = TableIndex::new(material);
    if codes.len() as u64 != index.len() {
        return Err(format!(
            "{}: {} codes for {} indices",
            material.name(),
            codes.len(),
            index.len()
        ));
    }
    let mut packed = vec![0u8; packed_len(index.len()) as usize];
    let mut last = Wdl::Draw;
    for (i, &code) in codes.iter().enumerate() {
        let wdl = Wdl::of_code(code).unwrap_or(last);
        last = wdl;
        packed[i / 4] |= wdl.bits() << (2 * (i % 4));
    }
    let mut out = Vec::with_capacity(HEADER_LEN + packed.len() / 8);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&INDEX_SCHEME.to_le_bytes());
    let name = material.name();
    if name.len() > 16 {
        return Err(format!("{name}: a name longer than 16 letters"));
    }
    let mut field = [0u8; 16];
    field[..name.len()].copy_from_slice(name.as_bytes());
    out.extend_from_slice(&field);
    out.extend_from_slice(&index.per_side().to_le_bytes());
    out.extend_from_slice(&(packed.len() as u64).to_le_bytes());
    out.extend_from_slice(&fnv1a(&packed, FNV_START).to_le_bytes());
    let mut compressor =
        zstd::bulk::Compressor::new(LEVEL).map_err(|e| format!("{name}: zstd: {e}"))?;
    compressor
        .set_parameter(zstd::zstd_safe::CParameter::ChecksumFlag(true))
        .map_err(|e| format!("{name}: zstd: {e}"))?;
    let frame = compressor
        .compress(&packed)
        .map_err(|e| format!("{name}: zstd: {e}"))?;
    out.extend_from_slice(&frame);
    Ok(out)
}

/// Reads a little-endian u32 or u64 field; `None` past the end.
fn field<const N: usize>(bytes: &[u8], at: usize) -> Option<[u8; N]> {
    bytes.get(at..at + N)?.try_into().ok()
}

/// The bitbase of a blob that should hold `material`; every field and both checksums are
/// checked, so a damaged blob is refused with the reason, never half-used.
pub fn decode(material: &Material, blob: &[u8]) -> Result<Bitbase, String> {
    let short = || "shorter than its header".to_string();
    if blob.get(..8) != Some(&MAGIC[..]) {
        return Err("not a bitbase (bad magic)".into());
    }
    let version = u32::from_le_bytes(field(blob, 8).ok_or_else(short)?);
    if version != VERSION {
        return Err(format!("format version {version}, expected {VERSION}"));
    }
    let scheme = u32::from_le_bytes(field(blob, 12).ok_or_else(short)?);
    if scheme != INDEX_SCHEME {
        return Err(format!("index scheme {scheme}, expected {INDEX_SCHEME}"));
    }
    let name_field: [u8; 16] = field(blob, 16).ok_or_else(short)?;
    let name_len = name_field.iter().position(|&b| b == 0).unwrap_or(16);
    let name = String::from_utf8_lossy(&name_field[..name_len]).into_owned();
    if name != material.name() {
        return Err(format!("holds {name}, expected {}", material.name()));
    }
    let per_side = u64::from_le_bytes(field(blob, 32).ok_or_else(short)?);
    let index = TableIndex::new(material);
    if per_side != index.per_side() {
        return Err(format!(
            "{per_side} positions per side, the index has {}",
            index.per_side()
        ));
    }
    let len = u64::from_le_bytes(field(blob, 40).ok_or_else(short)?);
    if len != packed_len(index.len()) {
        return Err(format!(
            "packed length {len}, expected {}",
            packed_len(index.len())
        ));
    }
    let checksum = u64::from_le_bytes(field(blob, 48).ok_or_else(short)?);
    let frame = blob.get(HEADER_LEN..).ok_or_else(short)?;
    let packed = zstd::bulk::decompress(frame, len as usize)
        .map_err(|e| format!("payload: {e} (corrupt)"))?;
    if packed.len() as u64 != len {
        return Err(format!(
            "payload of {} bytes, expected {len} (corrupt)",
            packed.len()
        ));
    }
    if fnv1a(&packed, FNV_START) != checksum {
        return Err("payload checksum mismatch (corrupt)".into());
    }
    if packed
        .iter()
        .any(|&b| (0..4).any(|k| (b >> (2 * k)) & 3 == 3))
    {
        return Err("a code outside win, draw and loss (corrupt)".into());
    }
    Ok(Bitbase {
        material: *material,
        index,
        packed: packed.into_boxed_slice(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_pack_and_read_back_with_invalid_indices_filled() {
        let m = Material::parse("KCK").expect("valid");
        let n = TableIndex::new(&m).len() as usize;
        let pattern = |i: usize| match i % 5 {
            0 => value::DRAW,
            1 => value::decided(3),
            2 => value::decided(4),
            3 => value::RULE_DRAW,
            _ => value::INVALID,
        };
        let codes: Vec<u16> = (0..n).map(pattern).collect();
        let blob = encode(&m, &codes).expect("encodes");
        let bb = decode(&m, &blob).expect("decodes");
        for (i, &c) in codes.iter().enumerate() {
            let expected = Wdl::of_code(c).unwrap_or(Wdl::Draw);
            assert_eq!(bb.wdl(i as u64), Some(expected), "index {i}");
        }
        assert_eq!(bb.wdl(n as u64 + 4), None);
    }
}
