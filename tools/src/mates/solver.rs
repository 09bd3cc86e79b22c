//! An exhaustive mate solver that shares nothing with the engine's search but the rules of
//! the board (legal moves, make and unmake): a plain AND-OR tree search over every legal move,
//! no evaluation, no ordering, no pruning besides stopping at the first proof. A side with no
//! legal move has lost (mate or stalemate, as xiangqi rules). Repetitions are not ruled: no
//! mate of a few moves needs one, and the engine's own proof search (with its rules) is the
//! second opinion the set is checked against.
//!
//! Results are remembered per position and horizon, in both directions: a mate within k plies
//! is one within any k' >= k, and no mate within k is none within any k' <= k.

use pao::board::{Move, Position};
use std::collections::HashMap;

/// What is known of one position (for the side to move there): no result within `none_up_to`
/// plies, a result within `found_within` plies.
#[derive(Copy, Clone)]
struct Known {
    none_up_to: u8,
    found_within: u8,
}

/// The solver: its memory of proven facts, kept for one root position.
#[derive(Default)]
pub struct Solver {
    known: HashMap<u64, Known>,
    /// Positions visited (a cost figure).
    pub nodes: u64,
}

impl Solver {
    /// A solver with an empty memory.
    pub fn new() -> Solver {
        Solver::default()
    }

    /// The shortest forced mate for the side to move, in moves, if one takes at most
    /// `max_moves` moves.
    pub fn shortest_mate(&mut self, pos: &mut Position, max_moves: u32) -> Option<u32> {
        (1..=max_moves).find(|&n| self.mates_within(pos, 2 * n - 1))
    }

    /// The first moves that force mate in at most `moves` moves.
    pub fn mating_moves(&mut self, pos: &mut Position, moves: u32) -> Vec<Move> {
        let plies = 2 * moves - 1;
        let list = pos.legal_moves();
        let mut mating = Vec::new();
        for &m in list.iter() {
            pos.make_move(m);
            if self.loses_within(pos, plies - 1) {
                mating.push(m);
            }
            pos.unmake_move();
        }
        mating
    }

    /// True when the side to move can force mate within `plies` plies.
    pub fn mates_within(&mut self, pos: &mut Position, plies: u32) -> bool {
        if plies == 0 {
            return false;
        }
        if let Some(answer) = self.recall(pos.key(), plies) {
            return answer;
        }
        self.nodes += 1;
        let list = pos.legal_moves();
        let mut found = false;
        for &m in list.iter() {
            pos.make_move(m);
            found = self.loses_within(pos, plies - 1);
            pos.unmake_move();
            if found {
                break;
            }
        }
        self.remember(pos.key(), plies, found);
        found
    }

    /// True when the side to move cannot avoid being mated within `plies` plies (it has no
    /// legal move now, or every move lets the opponent mate within `plies - 1`).
    pub fn loses_within(&mut self, pos: &mut Position, plies: u32) -> bool {
        if plies < 2 {
            // Only a position without a legal move is lost right now.
            self.nodes += 1;
            return pos.has_no_legal_move();
        }
        if let Some(answer) = self.recall(pos.key(), plies) {
            return answer;
        }
        self.nodes += 1;
        let list = pos.legal_moves();
        let mut lost = true;
        for &m in list.iter() {
            pos.make_move(m);
            lost = self.mates_within(pos, plies - 1);
            pos.unmake_move();
            if !lost {
                break;
            }
        }
        self.remember(pos.key(), plies, lost);
        lost
    }

    fn recall(&self, key: u64, plies: u32) -> Option<bool> {
        let k = self.known.get(&key)?;
        if plies >= u32::from(k.found_within) {
            Some(true)
        } else if plies <= u32::from(k.none_up_to) {
            Some(false)
        } else {
            None
        }
    }

    fn remember(&mut self, key: u64, plies: u32, answer: bool) {
        let plies = plies.min(u32::from(u8::MAX) - 1) as u8;
        let k = self.known.entry(key).or_insert(Known {
            none_up_to: 0,
            found_within: u8::MAX,
        });
        if answer {
            k.found_within = k.found_within.min(plies);
        } else {
            k.none_up_to = k.none_up_to.max(plies);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).expect("fen")
    }

    #[test]
    fn mate_in_one_by_two_rooks() {
        let mut s = Solver::new();
        let mut p = pos("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1");
        assert_eq!(s.shortest_mate(&mut p, 3), None, "bare generals");
        // The rook on a8 holds rank 8; the other one closes rank 9 or the f-file.
        let mut p = pos("4k4/R8/8R/9/9/9/9/9/9/3K5 w - - 0 1");
        let mut s = Solver::new();
        assert_eq!(s.shortest_mate(&mut p, 2), Some(1));
        let names: Vec<String> = s
            .mating_moves(&mut p, 1)
            .iter()
            .map(|&m| pao::board::format_move(m, pao::board::RankBase::Zero))
            .collect();
        // i7i9 mates; i7f7 and a8f8 stalemate (d9 faces red's general), which wins too.
        assert_eq!(names, ["i7f7", "i7i9", "a8f8"]);
    }

    #[test]
    fn stalemate_loses() {
        // Black's general on d9: d8 is the rook's, e9 faces red's general. Not in check, lost.
        let mut p = pos("3k5/R8/9/9/9/9/9/9/9/4K4 b - - 0 1");
        let mut s = Solver::new();
        assert!(!p.in_check());
        assert!(s.loses_within(&mut p, 0));
        assert_eq!(s.shortest_mate(&mut p, 2), None);
    }
}
