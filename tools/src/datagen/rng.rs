//! SplitMix64: a tiny generator whose stream is fixed forever, so that a datagen seed means
//! the same games in every version (a crate's generator may change its stream between
//! releases).

/// The generator.
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// The generator of game `index` of the run seeded with `seed`.
    pub fn for_game(seed: u64, index: u64) -> SplitMix64 {
        let mut mix = SplitMix64(seed ^ index.wrapping_mul(0xd134_2543_de82_ef95));
        SplitMix64(mix.next_u64())
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`), by multiply-shift (no modulo bias worth the name).
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stream_is_fixed() {
        let mut r = SplitMix64(0);
        assert_eq!(r.next_u64(), 0xe220_a839_7b1d_cdaf);
        assert!((0..1000).all(|_| r.below(7) < 7));
    }
}
