//! A counting filter over the keys of a position's history: when the current key's bucket is
//! empty, no earlier position can equal the current one, and the repetition scan (a walk back
//! over the plies since the last capture, at every node) is skipped. Kept by make and unmake.

/// Buckets; a power of two. 1 KiB stays in the first-level cache beside the board.
const BUCKETS: usize = 1024;

/// How many history keys fall in each bucket, saturating: a full bucket stays full for good,
/// which only ever means "scan", never a missed repetition.
#[derive(Clone)]
pub struct KeyFilter {
    counts: [u8; BUCKETS],
}

impl KeyFilter {
    /// No keys.
    pub fn new() -> KeyFilter {
        KeyFilter {
            counts: [0; BUCKETS],
        }
    }

    #[inline]
    fn bucket(key: u64) -> usize {
        // The top bits: the table indexes by the low ones, so these stay independent of it.
        (key >> (64 - BUCKETS.trailing_zeros())) as usize
    }

    /// Counts `key` in.
    #[inline]
    pub fn add(&mut self, key: u64) {
        let c = &mut self.counts[Self::bucket(key)];
        *c = c.saturating_add(1);
    }

    /// Counts out a `key` counted in before.
    #[inline]
    pub fn remove(&mut self, key: u64) {
        let c = &mut self.counts[Self::bucket(key)];
        if *c != u8::MAX {
            *c = c.saturating_sub(1);
        }
    }

    /// False when no key counted in can equal `key`.
    #[inline]
    pub fn may_contain(&self, key: u64) -> bool {
        self.counts[Self::bucket(key)] != 0
    }

    /// Forgets every key.
    pub fn clear(&mut self) {
        self.counts = [0; BUCKETS];
    }
}

impl Default for KeyFilter {
    fn default() -> KeyFilter {
        KeyFilter::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_keys_in_and_out() {
        let mut f = KeyFilter::new();
        let (a, b) = (0x1234_5678_9abc_def0u64, 0x0fed_cba9_8765_4321u64);
        assert!(!f.may_contain(a));
        f.add(a);
        f.add(a);
        assert!(f.may_contain(a));
        assert!(!f.may_contain(b));
        f.remove(a);
        assert!(f.may_contain(a));
        f.remove(a);
        assert!(!f.may_contain(a));
    }

    #[test]
    fn the_position_knows_when_it_may_repeat() {
        use crate::board::{Position, RankBase};
        let mut pos = Position::startpos();
        assert!(!pos.may_repeat());
        // Both horses out and back: the fourth move repeats the start.
        for (i, text) in ["h0g2", "h9g7", "g2h0", "g7h9"].iter().enumerate() {
            let m = pos.parse_legal_move(text, RankBase::Zero).expect("legal");
            pos.make_move(m);
            assert_eq!(pos.may_repeat(), i == 3, "after {text}");
        }
        pos.unmake_move();
        assert!(!pos.may_repeat(), "unmake counts the key out again");
        let m = pos.parse_legal_move("g7h9", RankBase::Zero).expect("legal");
        pos.make_move(m);
        assert!(pos.may_repeat());
        pos.clear_history();
        assert!(!pos.may_repeat(), "no history, nothing to repeat");
    }

    #[test]
    fn a_full_bucket_stays_full() {
        let mut f = KeyFilter::new();
        let a = 7u64 << 58;
        for _ in 0..300 {
            f.add(a);
        }
        for _ in 0..300 {
            f.remove(a);
        }
        assert!(
            f.may_contain(a),
            "a saturated count must never fall back to empty"
        );
        f.clear();
        assert!(!f.may_contain(a));
    }
}
