//! Move ordering: the transposition-table move first, then captures by MVV-LVA, killers, the
//! counter-move, then quiet moves by history. Moves are scored once and picked best-first.

use super::config::SearchConfig;
use super::heuristics::Heuristics;
use crate::board::{Move, MoveList, Piece, PieceKind, Position, MAX_MOVES};
use arrayvec::ArrayVec;

const TT_MOVE: i32 = 4_000_000;
const CAPTURE: i32 = 2_000_000;
const KILLER_0: i32 = 1_000_000;
const KILLER_1: i32 = 999_000;
const COUNTER: i32 = 998_000;

/// Ordering value of a victim (MVV) by kind; the general never is one in legal play.
const VICTIM: [i32; 7] = [1000, 20, 20, 45, 90, 50, 15];
/// Attacker rank (LVA): cheaper attackers first.
const ATTACKER: [i32; 7] = [6, 2, 2, 3, 5, 4, 1];

/// Where the ordering hints for one node come from.
pub struct OrderingHints {
    /// Best move stored in the transposition table for this node.
    pub tt_move: Move,
    /// Killer moves at this ply.
    pub killers: [Move; 2],
    /// The refutation recorded for the opponent's last move.
    pub counter: Move,
}

/// Scored moves, handed out best first.
pub struct MovePicker {
    moves: MoveList,
    scores: ArrayVec<i32, MAX_MOVES>,
    next: usize,
}

/// MVV-LVA value of a capture (higher first).
#[inline]
pub fn mvv_lva(pos: &Position, m: Move) -> i32 {
    let victim = pos.piece_at(m.to()).map_or(0, |p| VICTIM[p.kind().index()]);
    let attacker = pos
        .piece_at(m.from())
        .map_or(0, |p| ATTACKER[p.kind().index()]);
    victim * 8 - attacker
}

impl MovePicker {
    /// Scores `moves` for this node.
    pub fn new(
        pos: &Position,
        moves: MoveList,
        hints: &OrderingHints,
        heur: &Heuristics,
        config: &SearchConfig,
    ) -> MovePicker {
        let mut scores = ArrayVec::new();
        for &m in moves.iter() {
            let score = if config.tt_move && m == hints.tt_move {
                TT_MOVE
            } else if pos.is_capture(m) {
                if config.capture_ordering {
                    CAPTURE + mvv_lva(pos, m)
                } else {
                    0
                }
            } else if config.killers && m == hints.killers[0] {
                KILLER_0
            } else if config.killers && m == hints.killers[1] {
                KILLER_1
            } else if config.counter_move && m == hints.counter {
                COUNTER
            } else if config.history {
                let piece = pos
                    .piece_at(m.from())
                    .unwrap_or(Piece::new(pos.side_to_move(), PieceKind::General));
                heur.history(piece, m)
            } else {
                0
            };
            scores.push(score);
        }
        MovePicker {
            moves,
            scores,
            next: 0,
        }
    }

    /// Captures only, by MVV-LVA (quiescence).
    pub fn captures(pos: &Position, moves: MoveList, config: &SearchConfig) -> MovePicker {
        let scores = moves
            .iter()
            .map(|&m| {
                if config.capture_ordering {
                    mvv_lva(pos, m)
                } else {
                    0
                }
            })
            .collect();
        MovePicker {
            moves,
            scores,
            next: 0,
        }
    }

    /// Number of moves in all.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// True when there are no moves.
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The next best move; ties keep generation order.
    #[inline]
    pub fn next_move(&mut self) -> Option<Move> {
        let n = self.moves.len();
        if self.next >= n {
            return None;
        }
        let mut best = self.next;
        for i in self.next + 1..n {
            if self.scores[i] > self.scores[best] {
                best = i;
            }
        }
        let slice = self.moves.as_mut_slice();
        slice.swap(self.next, best);
        self.scores.swap(self.next, best);
        let m = slice[self.next];
        self.next += 1;
        Some(m)
    }
}
