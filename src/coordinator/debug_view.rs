//! `d` and `eval`: the position and its static evaluation as text, printed only when asked.

use super::Coordinator;
use crate::eval::breakdown::{breakdown, format_breakdown};
use std::io::Write;

impl<W: Write> Coordinator<W> {
    /// `d`: the board, FEN, key, side to move and the counters, one item per line.
    pub(super) fn display(&mut self) {
        for line in self.position.diagram() {
            self.line(&line);
        }
    }

    /// `eval`: each term of the hand-written evaluation for each side, then the total.
    pub(super) fn print_eval(&mut self) {
        let knowledge = self.search_config().knowledge;
        let b = breakdown(&self.position, knowledge);
        for line in format_breakdown(&b, self.position.side_to_move()) {
            self.line(&line);
        }
    }
}
