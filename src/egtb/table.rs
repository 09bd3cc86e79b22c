//! One table in use: its index, and its codes either memory-mapped and compressed (the
//! engine) or decompressed in memory (the generator reading the tables below the one it
//! makes).

use super::file::{self, FileError, Header, Parsed};
use super::index::{placement_of, TableIndex};
use super::material::Material;
use crate::board::Position;
use parking_lot::Mutex;
use std::path::Path;
use std::sync::Arc;

/// Decompressed blocks kept per table (direct-mapped by block number).
const CACHE_SLOTS: usize = 256;

/// One cache slot: a block number and its codes.
type Slot = Mutex<Option<(usize, Arc<[u16]>)>>;

enum Storage {
    /// Every code, red to move first.
    Memory(Vec<u16>),
    /// The file mapped, its blocks decompressed on demand into a small cache.
    Mapped {
        map: memmap2::Mmap,
        parsed: Parsed,
        cache: Vec<Slot>,
    },
}

/// A table ready to probe.
pub struct Table {
    header: Header,
    index: TableIndex,
    storage: Storage,
}

impl Table {
    /// A table held in memory (made by the generator, or read whole).
    pub fn in_memory(material: Material, codes: Vec<u16>, header: Header) -> Table {
        Table {
            index: TableIndex::new(&material),
            header,
            storage: Storage::Memory(codes),
        }
    }

    /// Maps a file and checks its header; blocks are read when first probed.
    pub fn open(path: &Path) -> Result<Table, FileError> {
        let f = std::fs::File::open(path).map_err(|e| FileError(e.to_string()))?;
        // SAFETY: the map is read-only; a table file is written under a temporary name and
        // renamed into place, so it does not change while mapped (a file replaced by another
        // keeps the mapped inode alive).
        let map = unsafe { memmap2::Mmap::map(&f) }.map_err(|e| FileError(e.to_string()))?;
        let parsed = file::parse(&map)?;
        let cache = (0..CACHE_SLOTS).map(|_| Mutex::new(None)).collect();
        Ok(Table {
            index: TableIndex::new(&parsed.header.material),
            header: parsed.header.clone(),
            storage: Storage::Mapped { map, parsed, cache },
        })
    }

    /// Reads a whole file into memory, checking every block and the payload checksum.
    pub fn load(path: &Path) -> Result<Table, FileError> {
        let bytes = std::fs::read(path).map_err(|e| FileError(e.to_string()))?;
        let parsed = file::parse(&bytes)?;
        file::verify_payload(&bytes, &parsed)?;
        let mut codes = Vec::with_capacity((parsed.header.per_side * 2) as usize);
        for b in 0..parsed.offsets.len() - 1 {
            codes.extend(file::read_block(&bytes, &parsed, b)?);
        }
        Ok(Table::in_memory(
            parsed.header.material,
            codes,
            parsed.header.clone(),
        ))
    }

    /// The header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The index.
    pub fn index(&self) -> &TableIndex {
        &self.index
    }

    /// The code at an index; `Err` when its block is corrupt.
    pub fn code(&self, i: u64) -> Result<u16, FileError> {
        match &self.storage {
            Storage::Memory(codes) => Ok(codes.get(i as usize).copied().unwrap_or(0xffff)),
            Storage::Mapped { map, parsed, cache } => {
                let block = (i / self.header.block_len as u64) as usize;
                let at = (i % self.header.block_len as u64) as usize;
                let slot = &cache[block % CACHE_SLOTS];
                let mut guard = slot.lock();
                if let Some((b, codes)) = guard.as_ref() {
                    if *b == block {
                        return Ok(codes[at]);
                    }
                }
                let codes: Arc<[u16]> = file::read_block(map, parsed, block)?.into();
                let c = codes[at];
                *guard = Some((block, codes));
                Ok(c)
            }
        }
    }

    /// The code of a position of this table's material; `flip` from `Material::of_position`.
    /// `Ok(None)` when a piece stands where the index has no square for it.
    pub fn probe_code(&self, pos: &Position, flip: bool) -> Result<Option<u16>, FileError> {
        let (placement, side) = placement_of(pos, flip);
        match self.index.encode(&placement, side) {
            Some(i) => self.code(i).map(Some),
            None => Ok(None),
        }
    }

    /// Checks the payload's checksum of a mapped file (a whole read); in-memory tables pass.
    pub fn verify(&self) -> Result<(), FileError> {
        match &self.storage {
            Storage::Memory(_) => Ok(()),
            Storage::Mapped { map, parsed, .. } => file::verify_payload(map, parsed),
        }
    }
}
