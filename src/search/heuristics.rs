//! Per-thread move-ordering memory: history (quiet and continuation), killers and
//! counter-moves.

use super::correction::CorrectionHistory;
use super::score::MAX_PLY;
use crate::board::{Move, Piece, Position, SQUARES};

/// History values stay within this bound (gravity keeps them there).
const HISTORY_MAX: i32 = 16384;
/// (piece, to-square) pairs: the index space of continuation histories.
const PAIRS: usize = Piece::CODES * SQUARES;
/// A continuation-history key for "no previous move" (root, null move): never read or written.
pub const NO_CONT: usize = usize::MAX;

/// The continuation-history key of a move: the moving piece and its destination.
#[inline]
pub fn cont_key(piece: Piece, m: Move) -> usize {
    piece.code() * SQUARES + m.to().index()
}

/// Gravity update of one history-like entry toward `bonus`'s sign, within ±HISTORY_MAX.
#[inline]
fn gravity(entry: i32, bonus: i32) -> i32 {
    let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    entry + bonus - entry * bonus.abs() / HISTORY_MAX
}

/// Ordering tables owned by one search thread.
pub struct Heuristics {
    history: Box<[[i32; SQUARES]; Piece::CODES]>,
    killers: [[Move; 2]; MAX_PLY + 4],
    counter: Box<[[Move; SQUARES]; Piece::CODES]>,
    /// Continuation history: how well a quiet move (piece, to) did after an earlier move
    /// (piece, to) one or two plies before it; one table serves both distances.
    cont: Box<[i16]>,
    /// Capture history: how well capturing a kind of victim with a piece on a square did.
    capture: Box<[i16]>,
    /// What searches found about the static evaluation, by soldier structure, each side's
    /// other pieces and the previous move.
    pub correction: CorrectionHistory,
}

/// Victim kinds in the capture-history index.
const VICTIMS: usize = 7;

/// The capture-history index of the capture `m` in `pos` (the piece moving, its destination
/// and the victim's kind), or None when `m` captures nothing.
#[inline]
fn capture_index(pos: &Position, m: Move) -> Option<usize> {
    match (pos.piece_at(m.from()), pos.piece_at(m.to())) {
        (Some(piece), Some(victim)) => {
            Some((piece.code() * SQUARES + m.to().index()) * VICTIMS + victim.kind().index())
        }
        _ => None,
    }
}

impl Default for Heuristics {
    fn default() -> Self {
        Self::new()
    }
}

impl Heuristics {
    /// Empty tables.
    pub fn new() -> Heuristics {
        Heuristics {
            history: Box::new([[0; SQUARES]; Piece::CODES]),
            killers: [[Move::NONE; 2]; MAX_PLY + 4],
            counter: Box::new([[Move::NONE; SQUARES]; Piece::CODES]),
            cont: vec![0; PAIRS * PAIRS].into_boxed_slice(),
            capture: vec![0; PAIRS * VICTIMS].into_boxed_slice(),
            correction: CorrectionHistory::new(),
        }
    }

    /// Forgets everything (new game, or bench reproducibility).
    pub fn clear(&mut self) {
        *self = Heuristics::new();
    }

    /// Ages the tables between searches: history halves, killers go.
    pub fn age(&mut self) {
        for row in self.history.iter_mut() {
            for v in row.iter_mut() {
                *v /= 2;
            }
        }
        self.killers = [[Move::NONE; 2]; MAX_PLY + 4];
    }

    /// History score of moving `piece` to the move's to-square.
    #[inline]
    pub fn history(&self, piece: Piece, m: Move) -> i32 {
        self.history[piece.code()][m.to().index()]
    }

    /// Rewards (`bonus > 0`) or punishes a quiet move, with gravity toward zero.
    #[inline]
    pub fn update_history(&mut self, piece: Piece, m: Move, bonus: i32) {
        let entry = &mut self.history[piece.code()][m.to().index()];
        *entry = gravity(*entry, bonus);
    }

    /// What the histories say of the quiet move `m` by `piece`: its history plus its
    /// continuation histories after the moves keyed `cont` (`NO_CONT` adds nothing).
    #[inline]
    pub fn quiet(&self, piece: Piece, m: Move, cont: [usize; 2]) -> i32 {
        self.history(piece, m)
            + self.cont_history(cont[0], piece, m)
            + self.cont_history(cont[1], piece, m)
    }

    /// Continuation-history score of `piece` making `m` after the move keyed `prev`.
    #[inline]
    pub fn cont_history(&self, prev: usize, piece: Piece, m: Move) -> i32 {
        if prev == NO_CONT {
            return 0;
        }
        i32::from(self.cont[prev * PAIRS + cont_key(piece, m)])
    }

    /// Rewards or punishes `piece` making `m` after the move keyed `prev`.
    #[inline]
    pub fn update_cont_history(&mut self, prev: usize, piece: Piece, m: Move, bonus: i32) {
        if prev == NO_CONT {
            return;
        }
        let entry = &mut self.cont[prev * PAIRS + cont_key(piece, m)];
        // |gravity| stays within HISTORY_MAX, which fits i16.
        *entry = gravity(i32::from(*entry), bonus) as i16;
    }

    /// Capture-history score of the capture `m` in `pos` (0 when it captures nothing).
    #[inline]
    pub fn capture_history(&self, pos: &Position, m: Move) -> i32 {
        capture_index(pos, m).map_or(0, |i| i32::from(self.capture[i]))
    }

    /// Rewards or punishes the capture `m` in `pos` (nothing when it captures nothing).
    #[inline]
    pub fn update_capture_history(&mut self, pos: &Position, m: Move, bonus: i32) {
        if let Some(i) = capture_index(pos, m) {
            let entry = &mut self.capture[i];
            *entry = gravity(i32::from(*entry), bonus) as i16;
        }
    }

    /// The two killers at `ply`.
    #[inline]
    pub fn killers(&self, ply: usize) -> [Move; 2] {
        self.killers[ply]
    }

    /// Records a quiet move that caused a cutoff at `ply`.
    #[inline]
    pub fn add_killer(&mut self, ply: usize, m: Move) {
        let k = &mut self.killers[ply];
        if k[0] != m {
            k[1] = k[0];
            k[0] = m;
        }
    }

    /// The counter-move to the previous move (`piece` moved to `to`).
    #[inline]
    pub fn counter(&self, prev_piece: Piece, prev: Move) -> Move {
        self.counter[prev_piece.code()][prev.to().index()]
    }

    /// Records `m` as the refutation of the previous move.
    #[inline]
    pub fn set_counter(&mut self, prev_piece: Piece, prev: Move, m: Move) {
        self.counter[prev_piece.code()][prev.to().index()] = m;
    }
}
