//! Zobrist keys: one random 64-bit word per (piece, square), and one for black to move.
//! Generated at compile time from a fixed seed, so keys are the same on every machine.

use super::piece::Piece;
use super::square::SQUARES;

/// SplitMix64's increment.
const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64's output for `x`: spreads a seed (or a seed combined with a position key) over
/// 64 bits, so that nearby seeds give unrelated words. The keys below are drawn with it, and so
/// are the search's root noise and the strength limit's choice.
pub const fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(GOLDEN_GAMMA);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// One step of SplitMix64: the next state and its output.
const fn splitmix64(state: u64) -> (u64, u64) {
    (state.wrapping_add(GOLDEN_GAMMA), mix(state))
}

const fn piece_keys() -> [[u64; SQUARES]; Piece::CODES] {
    let mut t = [[0u64; SQUARES]; Piece::CODES];
    let mut state = 0x5041_4f5f_5849_414e; // "PAO_XIAN"
    let mut p = 0;
    while p < Piece::CODES {
        let mut s = 0;
        while s < SQUARES {
            let (next, value) = splitmix64(state);
            state = next;
            t[p][s] = value;
            s += 1;
        }
        p += 1;
    }
    t
}

/// `PIECE_KEYS[piece code][square]`.
pub static PIECE_KEYS: [[u64; SQUARES]; Piece::CODES] = piece_keys();

/// XORed into the key when black is to move.
pub const SIDE_KEY: u64 = splitmix64(0x5349_4445_5f54_4f4d).1;
