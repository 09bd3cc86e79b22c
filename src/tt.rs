//! The shared lockless transposition table (Hyatt and Mann's XOR trick).
//!
//! One allocation of 64-byte buckets (a cache line each), four 16-byte entries per bucket. An
//! entry is two `AtomicU64`: `data` (move 16 bits, score 16, static eval 16, depth 8, bound 2,
//! generation 6) and `check = key ^ data`. A probe loads both with `Relaxed` ordering and accepts
//! the entry only when `check ^ data == key`. Two threads writing one entry at once can leave a
//! `data` from one and a `check` from the other: that pair fails the test and reads as a miss,
//! never as wrong data. That is the whole race contract: no locks, and no unsafe beyond the
//! memory block (`memory.rs`: allocation, large pages, clearing) and a prefetch hint.

mod memory;

use crate::board::Move;
use memory::BucketArray;
pub use memory::LargePages;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

/// What a stored score means.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// Nothing known (an entry holding only a move or eval).
    None,
    /// The true score is at most this (fail-low).
    Upper,
    /// The true score is at least this (fail-high).
    Lower,
    /// The exact score.
    Exact,
}

impl Bound {
    /// Whether a stored `score` with this bound decides a search within (alpha, beta).
    #[inline]
    pub fn cuts(self, score: i32, alpha: i32, beta: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
            Bound::None => false,
        }
    }

    fn bits(self) -> u64 {
        match self {
            Bound::None => 0,
            Bound::Upper => 1,
            Bound::Lower => 2,
            Bound::Exact => 3,
        }
    }

    fn from_bits(bits: u64) -> Bound {
        match bits & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            3 => Bound::Exact,
            _ => Bound::None,
        }
    }
}

/// A decoded entry.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TtEntry {
    /// Best move found (may be `Move::NONE`); check it for legality before use.
    pub mv: Move,
    /// Score, node-relative for mates.
    pub score: i32,
    /// Static evaluation.
    pub eval: i32,
    /// Remaining depth of the search that stored it.
    pub depth: i32,
    /// Meaning of the score.
    pub bound: Bound,
}

/// Allocation failure.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TtError(pub String);

impl std::fmt::Display for TtError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TtError {}

struct Entry {
    data: AtomicU64,
    check: AtomicU64,
}

/// Four entries on one cache line.
#[repr(C, align(64))]
struct Bucket {
    entries: [Entry; 4],
}

const MOVE_SHIFT: u32 = 0;
const SCORE_SHIFT: u32 = 16;
const EVAL_SHIFT: u32 = 32;
const DEPTH_SHIFT: u32 = 48;
const BOUND_SHIFT: u32 = 56;
const GEN_SHIFT: u32 = 58;
const GEN_MASK: u8 = 0x3f;

fn pack(mv: Move, score: i32, eval: i32, depth: i32, bound: Bound, generation: u8) -> u64 {
    let clamp16 = |v: i32| v.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16 as u64;
    (mv.raw() as u64) << MOVE_SHIFT
        | clamp16(score) << SCORE_SHIFT
        | clamp16(eval) << EVAL_SHIFT
        | (depth.clamp(0, 255) as u64) << DEPTH_SHIFT
        | bound.bits() << BOUND_SHIFT
        | ((generation & GEN_MASK) as u64) << GEN_SHIFT
}

fn unpack(data: u64) -> TtEntry {
    TtEntry {
        mv: Move::from_raw((data >> MOVE_SHIFT) as u16).unwrap_or(Move::NONE),
        score: (data >> SCORE_SHIFT) as u16 as i16 as i32,
        eval: (data >> EVAL_SHIFT) as u16 as i16 as i32,
        depth: ((data >> DEPTH_SHIFT) & 0xff) as i32,
        bound: Bound::from_bits(data >> BOUND_SHIFT),
    }
}

fn generation_of(data: u64) -> u8 {
    ((data >> GEN_SHIFT) as u8) & GEN_MASK
}

fn depth_of(data: u64) -> i32 {
    ((data >> DEPTH_SHIFT) & 0xff) as i32
}

/// The transposition table, shared by every search thread.
pub struct TranspositionTable {
    buckets: BucketArray,
    generation: AtomicU8,
}

impl TranspositionTable {
    /// A cleared table of `mib` MiB (at least one bucket), in large pages where the OS allows.
    /// Allocation failure is an error.
    pub fn new(mib: usize) -> Result<TranspositionTable, TtError> {
        Self::with_large_pages(mib, true)
    }

    /// A cleared table of `mib` MiB, asking for large pages or not.
    pub fn with_large_pages(mib: usize, large_pages: bool) -> Result<TranspositionTable, TtError> {
        let bytes = mib
            .checked_mul(1024 * 1024)
            .ok_or_else(|| TtError(format!("{mib} MiB does not fit in memory")))?;
        Self::build((bytes / std::mem::size_of::<Bucket>()).max(1), large_pages)
    }

    /// A cleared table of exactly `count` buckets (tests use tiny tables).
    pub fn with_buckets(count: usize) -> Result<TranspositionTable, TtError> {
        Self::build(count, true)
    }

    fn build(count: usize, large_pages: bool) -> Result<TranspositionTable, TtError> {
        Ok(TranspositionTable {
            buckets: BucketArray::zeroed(count.max(1), large_pages)?,
            generation: AtomicU8::new(0),
        })
    }

    /// Whether large pages back the table.
    pub fn large_pages(&self) -> &LargePages {
        self.buckets.large_pages()
    }

    /// Size in MiB (rounded down).
    pub fn size_mib(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>() / (1024 * 1024)
    }

    /// Number of buckets.
    pub fn bucket_count(&self) -> usize {
        self.buckets.len()
    }

    /// Forgets every entry (on the calling thread; the pool clears in parallel slices).
    pub fn clear(&self) {
        self.clear_slice(0, 1);
    }

    /// Forgets the entries of slice `index` of `slices` (nearly equal, in whole large pages
    /// but the last): `slices` threads, one slice each, clear the whole table. Run it only
    /// while no search uses the table.
    pub fn clear_slice(&self, index: usize, slices: usize) {
        let granule = memory::LARGE_PAGE / std::mem::size_of::<Bucket>();
        let count = self.buckets.len();
        let granules = count.div_ceil(granule);
        let slices = slices.max(1);
        let start = (granules * index / slices * granule).min(count);
        let end = (granules * (index + 1) / slices * granule).min(count);
        self.buckets.clear_range(start, end);
        if index == 0 {
            self.generation.store(0, Ordering::Relaxed);
        }
    }

    /// Starts a new search: entries from older searches age.
    pub fn new_search(&self) {
        let g = self.generation.load(Ordering::Relaxed);
        self.generation.store((g + 1) & GEN_MASK, Ordering::Relaxed);
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        // Multiply-shift: any bucket count works, and the high key bits choose.
        let index = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[index]
    }

    /// Asks the CPU to start loading `key`'s bucket, so that a probe a little later finds it
    /// in cache (the search calls it before making the move that leads there).
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let p = self.bucket(key) as *const Bucket as *const i8;
            // SAFETY: a prefetch is only a hint; it never faults nor reads into Rust values,
            // and the pointer is to a live bucket of this table.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(p) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry stored under `key`, if one verifies.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        for e in &self.bucket(key).entries {
            let data = e.data.load(Ordering::Relaxed);
            let check = e.check.load(Ordering::Relaxed);
            if data != 0 && data ^ check == key {
                return Some(unpack(data));
            }
        }
        None
    }

    /// Stores a search result. Replaces the same key first, then an empty entry, then the
    /// entry with the lowest `depth - 8 * age`. An entry stored without a move keeps the
    /// move already stored for the same key.
    #[inline]
    pub fn store(&self, key: u64, mv: Move, score: i32, eval: i32, depth: i32, bound: Bound) {
        let generation = self.generation.load(Ordering::Relaxed) & GEN_MASK;
        let bucket = self.bucket(key);
        let mut victim = &bucket.entries[0];
        let mut victim_value = i32::MAX;
        let mut old_move = Move::NONE;
        for e in &bucket.entries {
            let data = e.data.load(Ordering::Relaxed);
            let check = e.check.load(Ordering::Relaxed);
            if data != 0 && data ^ check == key {
                victim = e;
                old_move = unpack(data).mv;
                break;
            }
            if data == 0 {
                victim = e;
                victim_value = i32::MIN;
                continue;
            }
            let age = (generation.wrapping_sub(generation_of(data)) & GEN_MASK) as i32;
            let value = depth_of(data) - 8 * age;
            if value < victim_value {
                victim = e;
                victim_value = value;
            }
        }
        let mv = if mv.is_none() { old_move } else { mv };
        let data = pack(mv, score, eval, depth, bound, generation);
        victim.data.store(data, Ordering::Relaxed);
        victim.check.store(data ^ key, Ordering::Relaxed);
    }

    /// Per-mille use: entries of the current search among the first 1000 buckets' entries.
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed) & GEN_MASK;
        let sample = self.buckets.len().min(1000);
        let mut used = 0u32;
        for b in &self.buckets[..sample] {
            for e in &b.entries {
                let data = e.data.load(Ordering::Relaxed);
                if data != 0 && generation_of(data) == generation {
                    used += 1;
                }
            }
        }
        (used as usize * 1000 / (sample * 4).max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Square;

    fn mv(a: usize, b: usize) -> Move {
        Move::new(Square::from_index(a), Square::from_index(b))
    }

    #[test]
    fn round_trip_of_every_field() {
        let tt = TranspositionTable::new(1).expect("1 MiB");
        assert_eq!(tt.bucket_count(), 16384);
        tt.store(42, mv(1, 10), -29990, 123, 17, Bound::Lower);
        let e = tt.probe(42).expect("stored");
        assert_eq!(
            e,
            TtEntry {
                mv: mv(1, 10),
                score: -29990,
                eval: 123,
                depth: 17,
                bound: Bound::Lower
            }
        );
        assert_eq!(tt.probe(43), None);
        // Same key: replaced; a move-less store keeps the old move.
        tt.store(42, Move::NONE, 5, 6, 3, Bound::Upper);
        let e = tt.probe(42).expect("stored");
        assert_eq!(
            (e.mv, e.score, e.depth, e.bound),
            (mv(1, 10), 5, 3, Bound::Upper)
        );
    }

    #[test]
    fn replacement_prefers_shallow_and_old_entries() {
        let tt = TranspositionTable::with_buckets(1).expect("one bucket");
        for (k, d) in [(1u64, 10), (2, 3), (3, 8), (4, 12)] {
            tt.store(k, mv(1, 2), 0, 0, d, Bound::Exact);
        }
        // The shallowest (key 2) goes.
        tt.store(5, mv(1, 2), 0, 0, 1, Bound::Exact);
        assert_eq!(tt.probe(2), None);
        assert!(tt.probe(1).is_some() && tt.probe(5).is_some());
        // Two searches later, an old deep entry loses to the age penalty.
        tt.new_search();
        tt.new_search();
        tt.store(6, mv(1, 2), 0, 0, 1, Bound::Exact);
        tt.store(7, mv(1, 2), 0, 0, 1, Bound::Exact);
        let alive = [1u64, 3, 4, 5, 6, 7]
            .iter()
            .filter(|&&k| tt.probe(k).is_some())
            .count();
        assert_eq!(alive, 4);
        assert!(tt.probe(6).is_some() && tt.probe(7).is_some());
    }

    #[test]
    fn hashfull_counts_the_current_search() {
        let tt = TranspositionTable::with_buckets(1000).expect("table");
        assert_eq!(tt.hashfull(), 0);
        for k in 0..4000u64 {
            tt.store(
                k.wrapping_mul(0x9E37_79B9_7F4A_7C15),
                mv(1, 2),
                0,
                0,
                1,
                Bound::Exact,
            );
        }
        assert!(tt.hashfull() > 500);
        tt.new_search();
        assert_eq!(tt.hashfull(), 0);
        tt.clear();
        assert_eq!(tt.probe(0x9E37_79B9_7F4A_7C15), None);
    }

    /// A key that lands in bucket `i` of `tt` (multiply-shift indexing).
    fn key_for(tt: &TranspositionTable, i: usize) -> u64 {
        ((i as u128) << 64).div_ceil(tt.bucket_count() as u128) as u64
    }

    /// Stores one entry in every `step`-th bucket of `tt`; returns the keys.
    fn fill(tt: &TranspositionTable, step: usize) -> Vec<u64> {
        let keys: Vec<u64> = (0..tt.bucket_count())
            .step_by(step)
            .map(|i| key_for(tt, i))
            .collect();
        for &k in &keys {
            tt.store(k, mv(1, 2), 7, 8, 9, Bound::Exact);
            assert!(tt.probe(k).is_some());
        }
        keys
    }

    /// Every stored key misses, and every bucket of the table is all zero.
    fn assert_empty(tt: &TranspositionTable, keys: &[u64], what: &str) {
        for &k in keys {
            assert_eq!(tt.probe(k), None, "{what}: key {k:#x} survived the clear");
        }
        let dirty = tt
            .buckets
            .iter()
            .flat_map(|b| &b.entries)
            .filter(|e| e.data.load(Ordering::Relaxed) | e.check.load(Ordering::Relaxed) != 0)
            .count();
        assert_eq!(dirty, 0, "{what}: entries left after the clear");
    }

    #[test]
    fn a_clear_empties_every_entry_with_and_without_large_pages() {
        for large in [true, false] {
            // 9 MiB: four and a half large pages, so the last slice ends inside one.
            let tt = TranspositionTable::with_large_pages(9, large).expect("9 MiB");
            let what = format!("large pages {large} ({:?})", tt.large_pages());
            // The whole table written, then cleared on one thread.
            let keys = fill(&tt, 1);
            tt.clear();
            assert_empty(&tt, &keys, &what);
            // Every 5000th bucket (some pages resident, most not), cleared in 3 slices.
            let keys = fill(&tt, 5000);
            for i in 0..3 {
                tt.clear_slice(i, 3);
            }
            assert_empty(&tt, &keys, &what);
            // A range that starts and ends inside pages clears exactly itself.
            let keys = fill(&tt, 1);
            let (lo, hi) = (1000, 70_001);
            tt.buckets.clear_range(lo, hi);
            for (i, &k) in keys.iter().enumerate() {
                assert_eq!(tt.probe(k).is_none(), (lo..hi).contains(&i), "{what}: {i}");
            }
            tt.clear();
            assert_empty(&tt, &keys, &what);
        }
        // A table smaller than a large page lives on the heap and is zeroed by writes.
        let tt = TranspositionTable::with_buckets(1000).expect("1000 buckets");
        let keys = fill(&tt, 1);
        tt.clear();
        assert_empty(&tt, &keys, "heap");
    }

    /// A large-page table keeps its pages through a clear (the next search faults nothing
    /// in); a small-page table gives them back.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_clear_keeps_large_pages_resident_and_gives_small_pages_back() {
        for large in [true, false] {
            let tt = TranspositionTable::with_large_pages(8, large).expect("8 MiB");
            let count = tt.bucket_count();
            let all = tt.buckets.resident_pages(0, count);
            let keys = fill(&tt, 1);
            let touched = tt.buckets.resident_pages(0, count).expect("mincore");
            assert!(touched > 0 && Some(touched) > all, "filling maps pages in");
            for i in 0..2 {
                tt.clear_slice(i, 2);
            }
            // Before reading the table: a read maps the shared zero page, which counts.
            let after = tt.buckets.resident_pages(0, count).expect("mincore");
            assert_empty(&tt, &keys, "8 MiB");
            if *tt.large_pages() == LargePages::Used {
                assert_eq!(after, touched, "large pages: the pages stay resident");
            } else {
                assert_eq!(after, 0, "{:?}: the pages are given back", tt.large_pages());
            }
        }
    }

    #[test]
    fn sizes_and_failures() {
        assert_eq!(TranspositionTable::new(3).expect("3 MiB").size_mib(), 3);
        assert!(TranspositionTable::new(usize::MAX / 2).is_err());
        assert!(TranspositionTable::with_buckets(usize::MAX / 64).is_err());
    }

    #[test]
    fn table_is_shareable() {
        fn assert_sync<T: Send + Sync>() {}
        assert_sync::<TranspositionTable>();
    }
}
