//! The table file: a checksummed header, a block offset table, and zstd-compressed blocks of
//! codes, read through a memory map.
//!
//! Layout (little-endian), version 1:
//! ```text
//! magic "PAOEGTB\0" | version u32 | index scheme u32 | material name [u8; 16] (NUL-padded)
//! entry width u8 (1 or 2) | 3 bytes zero | positions per side u64 | block length u32
//! block count u32 | longest mate in plies u32 | counts [u64; 10] (per side to move: wins,
//! draws, rule draws, losses, invalid) | provenance length u32 | provenance (UTF-8)
//! block offsets [u64; blocks + 1] (from the start of the payload) | payload checksum u64
//! header checksum u64 (FNV-1a 64 of every byte before it)
//! payload: one zstd frame (with its content checksum) per block
//! ```
//! With width 1 a code c > 0xfd is stored as c - 0xff00 (0xfe rule draw, 0xff invalid);
//! a block holds `block length` codes (the last fewer), red to move first.

use super::index::INDEX_SCHEME;
use super::material::Material;
use super::value::{INVALID, RULE_DRAW};
use std::io::Write;
use std::path::Path;

/// The file's magic bytes.
pub const MAGIC: &[u8; 8] = b"PAOEGTB\0";
/// The format version this build reads and writes.
pub const VERSION: u32 = 1;
/// Codes per block.
pub const BLOCK_LEN: u32 = 16384;
/// File name extension.
pub const EXTENSION: &str = "ptb";

/// Counts of one side to move: wins, draws, rule draws, losses, invalid indices.
pub type SideCounts = [u64; 5];

/// What a table file says about itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The material it covers.
    pub material: Material,
    /// Bytes per code: 1 or 2.
    pub width: u8,
    /// Positions per side to move.
    pub per_side: u64,
    /// Codes per block.
    pub block_len: u32,
    /// The longest distance to mate, in plies.
    pub longest: u32,
    /// Per side to move (red, black): wins, draws, rule draws, losses, invalid.
    pub counts: [SideCounts; 2],
    /// How the table was made: the command, the program's version and commit, the date.
    pub provenance: String,
}

/// A table file's failure, as one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileError(pub String);

impl std::fmt::Display for FileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for FileError {}

/// FNV-1a, 64 bits.
pub fn fnv1a(bytes: &[u8], mut hash: u64) -> u64 {
    for &b in bytes {
        hash ^= b as u64;
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

/// FNV-1a's starting value.
pub const FNV_START: u64 = 0xcbf2_9ce4_8422_2325;

/// The name a table of `material` has in a directory.
pub fn file_name(material: &Material) -> String {
    format!("{}.{EXTENSION}", material.name())
}

/// Writes a table: `codes` holds every position, red to move first. Blocks are compressed in
/// parallel. The file is written to a temporary name and renamed, so a reader never sees a
/// half-written table.
pub fn write_table(
    path: &Path,
    material: &Material,
    codes: &[u16],
    provenance: &str,
) -> Result<Header, FileError> {
    use rayon::prelude::*;
    let err = |what: &str, e: &dyn std::fmt::Display| {
        FileError(format!("{}: {what}: {e}", path.display()))
    };
    let header = header_for(material, codes, provenance);
    let width = header.width;
    let blocks: Vec<Vec<u8>> = codes
        .par_chunks(BLOCK_LEN as usize)
        .map(|chunk| {
            let mut raw = Vec::with_capacity(chunk.len() * width as usize);
            for &c in chunk {
                if width == 1 {
                    raw.push(match c {
                        INVALID => 0xff,
                        RULE_DRAW => 0xfe,
                        c => c as u8,
                    });
                } else {
                    raw.extend_from_slice(&c.to_le_bytes());
                }
            }
            compress(&raw)
        })
        .collect::<Result<_, _>>()
        .map_err(|e| err("compress", &e))?;
    let mut bytes = header_bytes(&header, blocks.len() as u32);
    let mut offset = 0u64;
    let mut payload_hash = FNV_START;
    for b in &blocks {
        bytes.extend_from_slice(&offset.to_le_bytes());
        offset += b.len() as u64;
        payload_hash = fnv1a(b, payload_hash);
    }
    bytes.extend_from_slice(&offset.to_le_bytes());
    bytes.extend_from_slice(&payload_hash.to_le_bytes());
    let check = fnv1a(&bytes, FNV_START);
    bytes.extend_from_slice(&check.to_le_bytes());
    let tmp = path.with_extension("ptb.tmp");
    let mut f = std::fs::File::create(&tmp).map_err(|e| err("create", &e))?;
    f.write_all(&bytes).map_err(|e| err("write", &e))?;
    for b in &blocks {
        f.write_all(b).map_err(|e| err("write", &e))?;
    }
    f.sync_all().map_err(|e| err("sync", &e))?;
    std::fs::rename(&tmp, path).map_err(|e| err("rename", &e))?;
    Ok(header)
}

/// The header of a table's codes: counts, the longest mate and the entry width.
pub fn header_for(material: &Material, codes: &[u16], provenance: &str) -> Header {
    let per_side = codes.len() as u64 / 2;
    let mut counts = [[0u64; 5]; 2];
    let mut longest = 0u32;
    for (i, &c) in codes.iter().enumerate() {
        let side = (i as u64 >= per_side) as usize;
        let slot = match super::value::outcome(c) {
            Some(super::value::Outcome::Win(p)) => {
                longest = longest.max(p as u32);
                0
            }
            Some(super::value::Outcome::Draw) => 1,
            Some(super::value::Outcome::RuleDraw) => 2,
            Some(super::value::Outcome::Loss(p)) => {
                longest = longest.max(p as u32);
                3
            }
            None => 4,
        };
        counts[side][slot] += 1;
    }
    Header {
        material: *material,
        width: if longest + 1 < 0xfe { 1 } else { 2 },
        per_side,
        block_len: BLOCK_LEN,
        longest,
        counts,
        provenance: provenance.to_string(),
    }
}

fn compress(raw: &[u8]) -> std::io::Result<Vec<u8>> {
    let mut enc = zstd::stream::Encoder::new(Vec::new(), 9)?;
    enc.include_checksum(true)?;
    enc.write_all(raw)?;
    enc.finish()
}

fn header_bytes(h: &Header, blocks: u32) -> Vec<u8> {
    let mut b = Vec::new();
    b.extend_from_slice(MAGIC);
    b.extend_from_slice(&VERSION.to_le_bytes());
    b.extend_from_slice(&INDEX_SCHEME.to_le_bytes());
    let mut name = [0u8; 16];
    let n = h.material.name();
    name[..n.len().min(16)].copy_from_slice(&n.as_bytes()[..n.len().min(16)]);
    b.extend_from_slice(&name);
    b.extend_from_slice(&[h.width, 0, 0, 0]);
    b.extend_from_slice(&h.per_side.to_le_bytes());
    b.extend_from_slice(&h.block_len.to_le_bytes());
    b.extend_from_slice(&blocks.to_le_bytes());
    b.extend_from_slice(&h.longest.to_le_bytes());
    for side in &h.counts {
        for c in side {
            b.extend_from_slice(&c.to_le_bytes());
        }
    }
    b.extend_from_slice(&(h.provenance.len() as u32).to_le_bytes());
    b.extend_from_slice(h.provenance.as_bytes());
    b
}

/// A parsed file: its header, the blocks' offsets and where the payload starts.
pub struct Parsed {
    /// The header.
    pub header: Header,
    /// Block offsets from the payload's start, one more than the blocks.
    pub offsets: Vec<u64>,
    /// Byte where the payload starts.
    pub payload_start: usize,
    /// FNV-1a of the payload as written.
    pub payload_hash: u64,
}

/// Reads little-endian fields from a byte slice, failing on a short read.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], FileError> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let Some(end) = end else {
            return Err(FileError("truncated header".into()));
        };
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }
    fn u32(&mut self) -> Result<u32, FileError> {
        let mut a = [0u8; 4];
        a.copy_from_slice(self.take(4)?);
        Ok(u32::from_le_bytes(a))
    }
    fn u64(&mut self) -> Result<u64, FileError> {
        let mut a = [0u8; 8];
        a.copy_from_slice(self.take(8)?);
        Ok(u64::from_le_bytes(a))
    }
}

/// Parses and checks a file's header (magic, version, scheme, sizes, header checksum, the
/// payload's length). The payload's blocks are checked when they are decompressed.
pub fn parse(bytes: &[u8]) -> Result<Parsed, FileError> {
    let mut r = Reader { bytes, at: 0 };
    if r.take(8)
        .map_err(|_| FileError("not a table file (too short)".into()))?
        != MAGIC
    {
        return Err(FileError("not a table file (bad magic)".into()));
    }
    let version = r.u32()?;
    if version != VERSION {
        return Err(FileError(format!(
            "format version {version}, this build reads version {VERSION}"
        )));
    }
    let scheme = r.u32()?;
    if scheme != INDEX_SCHEME {
        return Err(FileError(format!(
            "index scheme {scheme}, this build reads scheme {INDEX_SCHEME}"
        )));
    }
    let name_bytes = r.take(16)?;
    let name: String = name_bytes
        .iter()
        .take_while(|&&c| c != 0)
        .map(|&c| c as char)
        .collect();
    let material = Material::parse(&name).map_err(|e| FileError(e.to_string()))?;
    let width = r.take(4)?[0];
    if width != 1 && width != 2 {
        return Err(FileError(format!("entry width {width}")));
    }
    let per_side = r.u64()?;
    let block_len = r.u32()?;
    let blocks = r.u32()?;
    let longest = r.u32()?;
    let mut counts = [[0u64; 5]; 2];
    for side in counts.iter_mut() {
        for c in side.iter_mut() {
            *c = r.u64()?;
        }
    }
    let prov_len = r.u32()? as usize;
    let provenance = String::from_utf8_lossy(r.take(prov_len)?).into_owned();
    let expected = super::index::TableIndex::new(&material).per_side();
    if per_side != expected || block_len == 0 {
        return Err(FileError(format!(
            "{per_side} positions per side, {} has {expected}",
            material.name()
        )));
    }
    if (blocks as u64) != (per_side * 2).div_ceil(block_len as u64) {
        return Err(FileError(format!(
            "{blocks} blocks for {per_side} positions"
        )));
    }
    let mut offsets = Vec::with_capacity(blocks as usize + 1);
    for _ in 0..=blocks {
        offsets.push(r.u64()?);
    }
    let payload_hash = r.u64()?;
    let check_at = r.at;
    let check = r.u64()?;
    if fnv1a(&bytes[..check_at], FNV_START) != check {
        return Err(FileError("header checksum mismatch (corrupt file)".into()));
    }
    let payload_start = r.at;
    let payload_len = bytes.len() - payload_start;
    let last = offsets.last().copied().unwrap_or(0);
    if last != payload_len as u64 || offsets.windows(2).any(|w| w[0] > w[1]) {
        return Err(FileError(format!(
            "payload of {payload_len} bytes, the header says {last} (truncated or corrupt)"
        )));
    }
    Ok(Parsed {
        header: Header {
            material,
            width,
            per_side,
            block_len,
            longest,
            counts,
            provenance,
        },
        offsets,
        payload_start,
        payload_hash,
    })
}

/// Decompresses block `b` of a parsed file into codes.
pub fn read_block(bytes: &[u8], parsed: &Parsed, b: usize) -> Result<Vec<u16>, FileError> {
    let start = parsed.payload_start + parsed.offsets[b] as usize;
    let end = parsed.payload_start + parsed.offsets[b + 1] as usize;
    let total = parsed.header.per_side * 2;
    let first = b as u64 * parsed.header.block_len as u64;
    let n = (total - first).min(parsed.header.block_len as u64) as usize;
    let raw = zstd::bulk::decompress(&bytes[start..end], n * parsed.header.width as usize)
        .map_err(|e| FileError(format!("block {b}: {e} (corrupt file)")))?;
    if raw.len() != n * parsed.header.width as usize {
        return Err(FileError(format!("block {b}: wrong length (corrupt file)")));
    }
    Ok(if parsed.header.width == 1 {
        raw.iter()
            .map(|&c| match c {
                0xff => INVALID,
                0xfe => RULE_DRAW,
                c => c as u16,
            })
            .collect()
    } else {
        raw.chunks_exact(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .collect()
    })
}

/// Checks the payload's checksum (a whole read of the file).
pub fn verify_payload(bytes: &[u8], parsed: &Parsed) -> Result<(), FileError> {
    if fnv1a(&bytes[parsed.payload_start..], FNV_START) != parsed.payload_hash {
        return Err(FileError("payload checksum mismatch (corrupt file)".into()));
    }
    Ok(())
}
