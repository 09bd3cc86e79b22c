//! Endgame tables inside the search: a node whose material a table covers takes the table's
//! exact value instead of being searched.

use super::score::{mate_in, mated_in, DRAW, MAX_PLY, WIN_BOUND};
use super::worker::Searcher;
use crate::egtb::Outcome;

/// The depth a table's value is stored at: deeper than any search, since it is exact.
pub(crate) const TB_DEPTH: i32 = 120;

/// A table win whose mate lies beyond the search's ply range scores in this band, just below
/// the decided band: still above every evaluation, never reported as a mate.
const TB_LONG_WIN: i32 = WIN_BOUND - MAX_PLY as i32 - 1;

/// The score of a table verdict at `ply`; `None` for a draw the repetition rules may
/// overturn, which the search must judge itself.
pub(crate) fn tb_score(outcome: Outcome, ply: usize) -> Option<i32> {
    match outcome {
        Outcome::Win(n) if ply + (n as usize) < MAX_PLY => Some(mate_in(ply + n as usize)),
        Outcome::Win(_) => Some(TB_LONG_WIN - ply as i32),
        Outcome::Loss(n) if ply + (n as usize) < MAX_PLY => Some(mated_in(ply + n as usize)),
        Outcome::Loss(_) => Some(-TB_LONG_WIN + ply as i32),
        Outcome::Draw => Some(DRAW),
        Outcome::RuleDraw => None,
    }
}

impl Searcher {
    /// The table's score of the current position, when a table covers it.
    #[inline]
    pub(crate) fn probe_tablebases(&mut self, ply: usize) -> Option<i32> {
        let tables = self.tablebases.as_ref()?;
        let pieces = (self.pos.pieces_of(crate::board::Color::Red)
            | self.pos.pieces_of(crate::board::Color::Black))
        .count_ones();
        if pieces > tables.max_pieces() {
            return None;
        }
        let score = tb_score(tables.probe(&self.pos)?, ply)?;
        tables.count_hit();
        Some(score)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_keep_mates_in_the_mate_band() {
        assert_eq!(tb_score(Outcome::Win(5), 3), Some(mate_in(8)));
        assert_eq!(tb_score(Outcome::Loss(0), 4), Some(mated_in(4)));
        assert_eq!(tb_score(Outcome::Draw, 9), Some(0));
        assert_eq!(tb_score(Outcome::RuleDraw, 9), None);
        let long = tb_score(Outcome::Win(201), 2).unwrap_or(0);
        assert!(long < WIN_BOUND && long > 20_000);
        assert_eq!(tb_score(Outcome::Loss(200), 2), Some(-long));
    }
}
