//! A per-thread cache of the knowledge terms by position key. The terms depend on the board
//! alone, so a hit returns exactly what `knowledge::terms` would: results do not change, only
//! time. Small enough to live in the core's own cache.

use super::psqt::Pair;

/// Entries (a power of two): 16 Ki x 8 bytes = 128 KiB.
const ENTRIES: usize = 1 << 14;

/// Knowledge terms by key: the key's upper 32 bits beside the two 16-bit terms.
pub struct KnowledgeCache {
    slots: Box<[u64; ENTRIES]>,
}

impl Default for KnowledgeCache {
    fn default() -> Self {
        Self::new()
    }
}

impl KnowledgeCache {
    /// An empty cache.
    pub fn new() -> KnowledgeCache {
        KnowledgeCache {
            slots: Box::new([0; ENTRIES]),
        }
    }

    /// The terms stored for `key`, if any.
    #[inline]
    pub fn get(&self, key: u64) -> Option<Pair> {
        let slot = self.slots[key as usize & (ENTRIES - 1)];
        if slot != 0 && (slot >> 32) as u32 == (key >> 32) as u32 {
            Some(Pair {
                mg: (slot >> 16) as u16 as i16 as i32,
                eg: slot as u16 as i16 as i32,
            })
        } else {
            None
        }
    }

    /// Remembers the terms for `key` (terms outside 16 bits are not cached).
    #[inline]
    pub fn put(&mut self, key: u64, terms: Pair) {
        let fits = |v: i32| i16::try_from(v).is_ok();
        if fits(terms.mg) && fits(terms.eg) {
            self.slots[key as usize & (ENTRIES - 1)] = (key >> 32 << 32)
                | (u64::from(terms.mg as i16 as u16) << 16)
                | u64::from(terms.eg as i16 as u16);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_verifies_by_key() {
        let mut c = KnowledgeCache::new();
        let key = 0xdead_beef_0000_1234;
        assert_eq!(c.get(key), None);
        c.put(key, Pair { mg: -300, eg: 41 });
        assert_eq!(c.get(key), Some(Pair { mg: -300, eg: 41 }));
        // Same slot, other key: a miss, not the other key's terms.
        assert_eq!(c.get(key ^ (1 << 40)), None);
        c.put(key, Pair { mg: 40_000, eg: 0 });
        assert_eq!(c.get(key), Some(Pair { mg: -300, eg: 41 }));
    }
}
