//! Placeholder transposition table (replaced by the lockless table).
#![allow(missing_docs)]
use crate::board::Move;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    None,
    Upper,
    Lower,
    Exact,
}

#[derive(Copy, Clone, Debug)]
pub struct TtEntry {
    pub mv: Move,
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
}

#[derive(Debug)]
pub struct TtError;

pub struct TranspositionTable {
    slots: Vec<(AtomicU64, AtomicU64)>,
    gen: AtomicU8,
}

impl TranspositionTable {
    pub fn new(mib: usize) -> Result<Self, TtError> {
        let n = mib * 1024 * 1024 / 16;
        Ok(Self {
            slots: (0..n)
                .map(|_| (AtomicU64::new(0), AtomicU64::new(0)))
                .collect(),
            gen: AtomicU8::new(0),
        })
    }
    pub fn clear(&self) {
        for s in &self.slots {
            s.0.store(0, Ordering::Relaxed);
            s.1.store(0, Ordering::Relaxed);
        }
    }
    pub fn new_search(&self) {
        self.gen.fetch_add(1, Ordering::Relaxed);
    }
    pub fn hashfull(&self) -> u32 {
        0
    }
    fn idx(&self, key: u64) -> usize {
        ((key as u128 * self.slots.len() as u128) >> 64) as usize
    }
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        let s = &self.slots[self.idx(key)];
        let d = s.0.load(Ordering::Relaxed);
        if s.1.load(Ordering::Relaxed) ^ d != key || d == 0 {
            return None;
        }
        let bound = match (d >> 56) & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            3 => Bound::Exact,
            _ => Bound::None,
        };
        Some(TtEntry {
            mv: Move::from_raw(d as u16).unwrap_or(Move::NONE),
            score: (d >> 16) as u16 as i16 as i32,
            eval: (d >> 32) as u16 as i16 as i32,
            depth: ((d >> 48) & 0xff) as i32,
            bound,
        })
    }
    pub fn store(&self, key: u64, mv: Move, score: i32, eval: i32, depth: i32, bound: Bound) {
        let b = match bound {
            Bound::None => 0u64,
            Bound::Upper => 1,
            Bound::Lower => 2,
            Bound::Exact => 3,
        };
        let d = mv.raw() as u64
            | ((score as i16 as u16 as u64) << 16)
            | ((eval as i16 as u16 as u64) << 32)
            | ((depth.clamp(0, 255) as u64) << 48)
            | (b << 56);
        let s = &self.slots[self.idx(key)];
        s.0.store(d, Ordering::Relaxed);
        s.1.store(d ^ key, Ordering::Relaxed);
    }
}
