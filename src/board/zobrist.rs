//! Zobrist keys: one random 64-bit word per (piece, square), and one for black to move.
//! Generated at compile time from a fixed seed, so keys are the same on every machine.

use super::piece::Piece;
use super::square::SQUARES;

const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
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
