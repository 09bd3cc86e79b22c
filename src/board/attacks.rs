//! Precomputed move and attack tables, built at compile time.
//!
//! Sliding pieces use ElephantEye's idea: each rank and file keeps an occupancy bit mask, and a
//! table indexed by (position on the line, occupancy) gives the empty squares a rook can slide
//! to, the first blockers (rook captures) and the second blockers (cannon captures). Leapers use
//! per-square lists of (target, blocking square).

use super::square::{FILES, RANKS, SQUARES};

/// What one line (rank or file) offers a slider at one position for one occupancy.
#[derive(Copy, Clone, Debug)]
pub struct LineMoves {
    /// Empty squares reachable by sliding (non-captures of rook and cannon).
    pub slide: u16,
    /// The first occupied square in each direction (rook captures, rook/general attacks).
    pub rook_cap: u16,
    /// The second occupied square in each direction (cannon captures over one screen).
    pub cannon_cap: u16,
}

const fn line_moves(pos: usize, occ: u16, len: usize) -> LineMoves {
    let mut slide = 0u16;
    let mut rook_cap = 0u16;
    let mut cannon_cap = 0u16;
    // Upward direction (increasing index), then downward.
    let mut dir = 0;
    while dir < 2 {
        let mut screens = 0;
        let mut i = pos as isize;
        loop {
            i += if dir == 0 { 1 } else { -1 };
            if i < 0 || i >= len as isize {
                break;
            }
            let bit = 1u16 << i;
            if occ & bit == 0 {
                if screens == 0 {
                    slide |= bit;
                }
            } else if screens == 0 {
                rook_cap |= bit;
                screens = 1;
            } else {
                cannon_cap |= bit;
                break;
            }
        }
        dir += 1;
    }
    LineMoves {
        slide,
        rook_cap,
        cannon_cap,
    }
}

const EMPTY_LINE: LineMoves = LineMoves {
    slide: 0,
    rook_cap: 0,
    cannon_cap: 0,
};

const fn rank_table() -> [[LineMoves; 512]; FILES] {
    let mut t = [[EMPTY_LINE; 512]; FILES];
    let mut pos = 0;
    while pos < FILES {
        let mut occ = 0;
        while occ < 512 {
            t[pos][occ] = line_moves(pos, occ as u16, FILES);
            occ += 1;
        }
        pos += 1;
    }
    t
}

const fn file_table() -> [[LineMoves; 1024]; RANKS] {
    let mut t = [[EMPTY_LINE; 1024]; RANKS];
    let mut pos = 0;
    while pos < RANKS {
        let mut occ = 0;
        while occ < 1024 {
            t[pos][occ] = line_moves(pos, occ as u16, RANKS);
            occ += 1;
        }
        pos += 1;
    }
    t
}

/// `RANK_MOVES[file][rank occupancy]`: bits are files on that rank.
pub static RANK_MOVES: [[LineMoves; 512]; FILES] = rank_table();
/// `FILE_MOVES[rank][file occupancy]`: bits are ranks on that file.
pub static FILE_MOVES: [[LineMoves; 1024]; RANKS] = file_table();

/// Up to 8 leaper targets of one square, each with the square that blocks it (a horse's leg or an
/// elephant's eye; the target itself for pieces that cannot be blocked).
#[derive(Copy, Clone, Debug)]
pub struct Leaps {
    /// How many entries are valid.
    pub len: u8,
    /// Target squares.
    pub to: [u8; 8],
    /// Blocking squares, parallel to `to`.
    pub block: [u8; 8],
}

const NO_LEAPS: Leaps = Leaps {
    len: 0,
    to: [0; 8],
    block: [0; 8],
};

impl Leaps {
    const fn push(mut self, to: usize, block: usize) -> Leaps {
        self.to[self.len as usize] = to as u8;
        self.block[self.len as usize] = block as u8;
        self.len += 1;
        self
    }
}

const fn on_board(f: isize, r: isize) -> bool {
    f >= 0 && f < FILES as isize && r >= 0 && r < RANKS as isize
}

const fn sq(f: isize, r: isize) -> usize {
    (r * FILES as isize + f) as usize
}

const fn in_palace(f: isize, r: isize) -> bool {
    f >= 3 && f <= 5 && (r <= 2 || r >= 7)
}

const fn same_half(r1: isize, r2: isize) -> bool {
    (r1 <= 4) == (r2 <= 4)
}

const HORSE_DELTAS: [(isize, isize); 8] = [
    (1, 2),
    (-1, 2),
    (1, -2),
    (-1, -2),
    (2, 1),
    (2, -1),
    (-2, 1),
    (-2, -1),
];

/// Leg of a horse jump by (df, dr): the orthogonal neighbour of the start on the long side.
const fn horse_leg(df: isize, dr: isize) -> (isize, isize) {
    if dr == 2 || dr == -2 {
        (0, dr / 2)
    } else {
        (df / 2, 0)
    }
}

const fn horse_table() -> [Leaps; SQUARES] {
    let mut t = [NO_LEAPS; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        let f = (s % FILES) as isize;
        let r = (s / FILES) as isize;
        let mut i = 0;
        while i < 8 {
            let (df, dr) = HORSE_DELTAS[i];
            if on_board(f + df, r + dr) {
                let (lf, lr) = horse_leg(df, dr);
                t[s] = t[s].push(sq(f + df, r + dr), sq(f + lf, r + lr));
            }
            i += 1;
        }
        s += 1;
    }
    t
}

/// Horses that could attack a square: for target `t`, the squares a horse may stand on with the
/// leg it needs (the leg is a diagonal neighbour of the target).
const fn horse_attacker_table() -> [Leaps; SQUARES] {
    let mut t = [NO_LEAPS; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        let f = (s % FILES) as isize;
        let r = (s / FILES) as isize;
        let mut i = 0;
        while i < 8 {
            let (df, dr) = HORSE_DELTAS[i];
            // A horse at h = t - (df, dr) jumps by (df, dr) onto t.
            let hf = f - df;
            let hr = r - dr;
            if on_board(hf, hr) {
                let (lf, lr) = horse_leg(df, dr);
                t[s] = t[s].push(sq(hf, hr), sq(hf + lf, hr + lr));
            }
            i += 1;
        }
        s += 1;
    }
    t
}

const fn elephant_table() -> [Leaps; SQUARES] {
    let mut t = [NO_LEAPS; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        let f = (s % FILES) as isize;
        let r = (s / FILES) as isize;
        let mut i = 0;
        while i < 4 {
            let df = if i & 1 == 0 { 2 } else { -2 };
            let dr = if i & 2 == 0 { 2 } else { -2 };
            if on_board(f + df, r + dr) && same_half(r, r + dr) {
                t[s] = t[s].push(sq(f + df, r + dr), sq(f + df / 2, r + dr / 2));
            }
            i += 1;
        }
        s += 1;
    }
    t
}

const fn advisor_table() -> [Leaps; SQUARES] {
    let mut t = [NO_LEAPS; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        let f = (s % FILES) as isize;
        let r = (s / FILES) as isize;
        let mut i = 0;
        while i < 4 {
            let df = if i & 1 == 0 { 1 } else { -1 };
            let dr = if i & 2 == 0 { 1 } else { -1 };
            if in_palace(f, r) && on_board(f + df, r + dr) && in_palace(f + df, r + dr) {
                let to = sq(f + df, r + dr);
                t[s] = t[s].push(to, to);
            }
            i += 1;
        }
        s += 1;
    }
    t
}

const ORTHOGONAL: [(isize, isize); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];

const fn general_table() -> [Leaps; SQUARES] {
    let mut t = [NO_LEAPS; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        let f = (s % FILES) as isize;
        let r = (s / FILES) as isize;
        let mut i = 0;
        while i < 4 {
            let (df, dr) = ORTHOGONAL[i];
            if in_palace(f, r) && on_board(f + df, r + dr) && in_palace(f + df, r + dr) {
                let to = sq(f + df, r + dr);
                t[s] = t[s].push(to, to);
            }
            i += 1;
        }
        s += 1;
    }
    t
}

/// Soldier moves for `color` (0 red, 1 black): forward, and sideways once across the river.
const fn soldier_table(color: usize) -> [Leaps; SQUARES] {
    let mut t = [NO_LEAPS; SQUARES];
    let forward: isize = if color == 0 { 1 } else { -1 };
    let mut s = 0;
    while s < SQUARES {
        let f = (s % FILES) as isize;
        let r = (s / FILES) as isize;
        if on_board(f, r + forward) {
            let to = sq(f, r + forward);
            t[s] = t[s].push(to, to);
        }
        let crossed = if color == 0 { r >= 5 } else { r <= 4 };
        if crossed {
            if on_board(f - 1, r) {
                t[s] = t[s].push(sq(f - 1, r), sq(f - 1, r));
            }
            if on_board(f + 1, r) {
                t[s] = t[s].push(sq(f + 1, r), sq(f + 1, r));
            }
        }
        s += 1;
    }
    t
}

/// Squares from which a soldier of `color` attacks each square (the inverse of `soldier_table`).
const fn soldier_attacker_table(color: usize) -> [Leaps; SQUARES] {
    let moves = soldier_table(color);
    let mut t = [NO_LEAPS; SQUARES];
    let mut from = 0;
    while from < SQUARES {
        let mut i = 0;
        while i < moves[from].len as usize {
            let to = moves[from].to[i] as usize;
            t[to] = t[to].push(from, from);
            i += 1;
        }
        from += 1;
    }
    t
}

/// Horse jumps from each square, with legs.
pub static HORSE_MOVES: [Leaps; SQUARES] = horse_table();
/// Horses attacking each square, with the legs they need free.
pub static HORSE_ATTACKERS: [Leaps; SQUARES] = horse_attacker_table();
/// Elephant moves (own half only), with eyes.
pub static ELEPHANT_MOVES: [Leaps; SQUARES] = elephant_table();
/// Advisor moves inside the palace.
pub static ADVISOR_MOVES: [Leaps; SQUARES] = advisor_table();
/// General moves inside the palace.
pub static GENERAL_MOVES: [Leaps; SQUARES] = general_table();
/// Soldier moves, by colour.
pub static SOLDIER_MOVES: [[Leaps; SQUARES]; 2] = [soldier_table(0), soldier_table(1)];
/// Soldiers attacking each square, by the soldier's colour.
pub static SOLDIER_ATTACKERS: [[Leaps; SQUARES]; 2] =
    [soldier_attacker_table(0), soldier_attacker_table(1)];

const fn line_masks() -> [u128; SQUARES] {
    let mut t = [0u128; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        let f = s % FILES;
        let r = s / FILES;
        let mut o = 0;
        while o < SQUARES {
            if (o % FILES == f || o / FILES == r) && o != s {
                t[s] |= 1u128 << o;
            }
            o += 1;
        }
        s += 1;
    }
    t
}

const fn diagonal_masks() -> [u128; SQUARES] {
    let mut t = [0u128; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        let f = (s % FILES) as isize;
        let r = (s / FILES) as isize;
        let mut i = 0;
        while i < 4 {
            let df = if i & 1 == 0 { 1 } else { -1 };
            let dr = if i & 2 == 0 { 1 } else { -1 };
            if on_board(f + df, r + dr) {
                t[s] |= 1u128 << sq(f + df, r + dr);
            }
            i += 1;
        }
        s += 1;
    }
    t
}

/// Squares on the same rank or file (the square itself excluded).
pub static LINE_MASK: [u128; SQUARES] = line_masks();
/// The up-to-four diagonal neighbours (the legs of horses that could attack the square).
pub static DIAGONAL_MASK: [u128; SQUARES] = diagonal_masks();

const fn leap_masks(t: &[Leaps; SQUARES]) -> [u128; SQUARES] {
    let mut m = [0u128; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        let mut i = 0;
        while i < t[s].len as usize {
            m[s] |= 1u128 << t[s].to[i];
            i += 1;
        }
        s += 1;
    }
    m
}

/// Squares from which a horse could attack each square (legs ignored): a quick reject.
pub static HORSE_ATTACKER_MASK: [u128; SQUARES] = leap_masks(&horse_attacker_table());
/// Squares from which a soldier of each colour attacks each square.
pub static SOLDIER_ATTACKER_MASK: [[u128; SQUARES]; 2] = [
    leap_masks(&soldier_attacker_table(0)),
    leap_masks(&soldier_attacker_table(1)),
];

const fn rank_masks() -> [u128; SQUARES] {
    let mut t = [0u128; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        let mut o = 0;
        while o < SQUARES {
            if o / FILES == s / FILES && o != s {
                t[s] |= 1u128 << o;
            }
            o += 1;
        }
        s += 1;
    }
    t
}

/// The other squares of each square's rank (`LINE_MASK` is this and the file's).
pub static RANK_MASK: [u128; SQUARES] = rank_masks();

// Targets of each leaper from each square (blocking squares ignored): quick rejects for
// capture generation and exchange evaluation. The general's, advisor's and elephant's moves
// are symmetric, so their masks are also the squares they attack a square from.

/// Horse targets from each square (legs ignored).
pub static HORSE_MOVE_MASK: [u128; SQUARES] = leap_masks(&horse_table());
/// Elephant targets from (and attackers of) each square (eyes ignored).
pub static ELEPHANT_MOVE_MASK: [u128; SQUARES] = leap_masks(&elephant_table());
/// Advisor targets from (and attackers of) each square.
pub static ADVISOR_MOVE_MASK: [u128; SQUARES] = leap_masks(&advisor_table());
/// General steps from (and attackers of) each square, inside the palace.
pub static GENERAL_MOVE_MASK: [u128; SQUARES] = leap_masks(&general_table());
/// Soldier targets from each square, by the soldier's colour.
pub static SOLDIER_MOVE_MASK: [[u128; SQUARES]; 2] =
    [leap_masks(&soldier_table(0)), leap_masks(&soldier_table(1))];
