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

    /// `eval`: each term of the hand-written evaluation for each side, then the total, then the
    /// network's output when a net is loaded.
    pub(super) fn print_eval(&mut self) {
        let knowledge = self.search_config().knowledge;
        let b = breakdown(&self.position, knowledge);
        for line in format_breakdown(&b, self.position.side_to_move()) {
            self.line(&line);
        }
        // The network's output, whenever a net is loaded (in use or not), as the search uses it:
        // with the side-to-move bonus, then scaled.
        if let Some(net) = self.network.clone() {
            let raw = crate::eval::nnue::evaluate_scratch(&net, &self.position);
            let tempo = crate::search::params::nnue_tempo();
            let scaled = crate::search::network_value(&self.position, raw);
            let state = if self.options.use_nnue {
                "in use"
            } else {
                "loaded, not in use"
            };
            self.line(&format!(
                "eval network {scaled} (side to move; raw {raw}; tempo {tempo}; hidden {}; {state})",
                net.hidden
            ));
        }
    }
}
