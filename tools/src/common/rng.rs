//! SplitMix64, the one generator of the tools: datagen's games, the trainer's initialisation,
//! shuffling, mirroring and synthetic data, and the openings generator's walks. Its stream is
//! fixed forever (a crate's generator may change its stream between releases), so a seed means
//! the same games, nets and openings in every version. Each caller keeps the seeding it was
//! published with: the constructors below differ only in how they turn a seed into a state.

/// The generator.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator whose state is `state` itself (`pao-tools openings` seeds with `--seed`).
    pub fn from_state(state: u64) -> SplitMix64 {
        SplitMix64(state)
    }

    /// The generator of game `index` of a datagen run seeded with `seed`: its state is the
    /// first output of a generator at `seed ^ index * K`.
    pub fn for_game(seed: u64, index: u64) -> SplitMix64 {
        let mut mix = SplitMix64(seed ^ index.wrapping_mul(0xd134_2543_de82_ef95));
        SplitMix64(mix.next_u64())
    }

    /// The trainer's generator for one purpose (`stream`) of a run with `seed`: the state
    /// `seed ^ stream * K`, advanced once.
    pub fn new(seed: u64, stream: u64) -> SplitMix64 {
        let mut r = SplitMix64(seed ^ stream.wrapping_mul(0xa076_1d64_78bd_642f));
        r.next_u64();
        r
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

    /// A number in `0..n` (`n > 0`) by the remainder: the openings generator's choice, kept so
    /// that its committed files come out of its documented command again.
    pub fn below_by_modulo(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// Uniform in `[-1, 1)`, from the top 24 bits.
    pub fn symmetric(&mut self) -> f32 {
        ((self.next_u64() >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
    }
}

/// One random bit per (seed, epoch, index), without a generator's state: the trainer's mirror
/// flag.
pub fn coin(seed: u64, epoch: u64, index: u64) -> bool {
    SplitMix64::new(seed ^ index.wrapping_mul(0x9e37_79b9_7f4a_7c15), epoch).next_u64() & 1 == 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stream_is_fixed() {
        let mut r = SplitMix64::from_state(0);
        assert_eq!(r.next_u64(), 0xe220_a839_7b1d_cdaf);
        assert!((0..1000).all(|_| r.below(7) < 7));
    }

    /// Each caller's seeding, pinned to the outputs of the three generators this one replaced.
    #[test]
    fn every_seeding_gives_its_old_stream() {
        let mut game = SplitMix64::for_game(7, 3);
        assert_eq!(
            [game.next_u64(), game.next_u64()],
            [0x5920_b40a_371f_e84d, 0xb872_8983_4ed2_2991]
        );
        assert_eq!([0; 5].map(|_| game.below(10)), [4, 2, 2, 5, 7]);

        let mut trainer = SplitMix64::new(5, 6);
        assert_eq!(
            [trainer.next_u64(), trainer.next_u64()],
            [0x5bce_548a_0a3c_5ef2, 0xe2cf_556c_c3a2_a86f]
        );
        assert_eq!([0; 5].map(|_| trainer.below(10)), [5, 6, 2, 5, 4]);
        let mut trainer = SplitMix64::new(5, 6);
        assert_eq!(
            [0; 3].map(|_| trainer.symmetric()),
            [-0.282_765_87, 0.771_952_3, 0.050_973_773]
        );
        let coins: Vec<bool> = (0..2)
            .flat_map(|e| (0..8).map(move |i| coin(1, e, i)))
            .collect();
        let expected = [1, 1, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 0, 1, 0];
        assert_eq!(coins, expected.map(|b| b == 1));

        let mut openings = SplitMix64::from_state(1);
        assert_eq!(
            [0; 8].map(|_| openings.below_by_modulo(7)),
            [2, 0, 1, 0, 5, 2, 0, 3]
        );
    }
}
