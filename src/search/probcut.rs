//! ProbCut: at a non-PV node of enough depth, a capture that wins enough material by static
//! exchange and whose reduced search still beats beta by a margin shows, with high
//! probability, that the full-depth search would fail high too; the node returns at once.

use super::ordering::MovePicker;
use super::score::to_tt;
use super::see::see_ge;
use super::worker::Searcher;
use crate::tt::Bound;

/// ProbCut applies from this depth.
pub(crate) const PROBCUT_DEPTH: i32 = 5;
/// How far above beta the reduced search must land.
pub(crate) const PROBCUT_MARGIN: i32 = 200;
/// Plies the verifying search is shallower than the node.
const PROBCUT_REDUCTION: i32 = 4;

impl Searcher {
    /// Tries the captures that can reach `pc_beta` (static evaluation plus their SEE): each is
    /// checked by quiescence, then by a search `PROBCUT_REDUCTION` plies shallower. The first
    /// that holds `pc_beta` is stored as a lower bound and its score returned; `None` when no
    /// capture holds or the search was stopped (the caller tests `stopped`).
    pub(crate) fn probcut(
        &mut self,
        depth: i32,
        pc_beta: i32,
        static_eval: i32,
        ply: usize,
        raw_eval: i32,
    ) -> Option<i32> {
        let key = self.pos.key();
        let mut picker = MovePicker::captures(&self.pos);
        while let Some(m) = picker.next_move(&mut self.pos, &self.heur, &self.config) {
            if !see_ge(&self.pos, m, pc_beta - static_eval) {
                continue;
            }
            self.stack[ply].mv = m;
            self.stack[ply].piece = self.pos.piece_at(m.from());
            self.make_move(m);
            // Quiescence first: cheap, and most captures that fail it would fail the search.
            let mut score = -self.qsearch(-pc_beta, -pc_beta + 1, ply + 1);
            if score >= pc_beta && !self.stopped {
                score = -self.pvs(
                    depth - PROBCUT_REDUCTION,
                    -pc_beta,
                    -pc_beta + 1,
                    ply + 1,
                    false,
                    true,
                );
            }
            self.unmake_move();
            if self.stopped {
                return None;
            }
            if score >= pc_beta {
                self.tt.store(
                    key,
                    m,
                    to_tt(score, ply),
                    raw_eval,
                    depth - PROBCUT_REDUCTION + 1,
                    Bound::Lower,
                );
                self.horizon = true;
                return Some(score);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use crate::board::Position;
    use crate::search::{Limits, SearchConfig, Searcher};
    use crate::tt::{Bound, TranspositionTable};
    use std::sync::Arc;

    /// ProbCut at depth 5 with `pc_beta` the static evaluation plus `above`: its result and
    /// what it left in the table for the position.
    fn probcut_at(fen: &str, above: i32) -> (Option<i32>, Option<crate::tt::TtEntry>, i32) {
        let Ok(root) = Position::from_fen(fen) else {
            panic!("test FEN parses: {fen}");
        };
        let Ok(tt) = TranspositionTable::new(1) else {
            panic!("a 1 MiB table");
        };
        let tt = Arc::new(tt);
        let config = SearchConfig {
            probcut: true,
            ..SearchConfig::FULL
        };
        let mut s = Searcher::new(Arc::clone(&tt), config);
        s.start(&root, &Limits::depth(64), &[]);
        let eval = s.evaluate();
        let result = s.probcut(5, eval + above, eval, 0, eval);
        (result, tt.probe(root.key()), eval)
    }

    /// Red's rook takes an undefended cannon (d4d6, SEE +450; ranks count from 0 as moves
    /// name them); the other rook, on h4, stays defended along its rank.
    const WINS_A_CANNON: &str = "5k3/9/9/3c3p1/9/3R3R1/9/9/9/4K4 w - - 0 1";
    /// The same with a black cannon on h7 aiming at h4 over the soldier: taking on d6 leaves
    /// the h4 rook undefended, and quiescence sees the cannon take it.
    const TAKING_LOSES_A_ROOK: &str = "5k3/9/7c1/3c3p1/9/3R3R1/9/9/9/4K4 w - - 0 1";

    #[test]
    fn a_capture_that_holds_at_reduced_depth_cuts_and_is_stored() {
        let (result, entry, eval) = probcut_at(WINS_A_CANNON, 200);
        let Some(score) = result else {
            panic!("ProbCut should cut after winning a cannon");
        };
        assert!(score >= eval + 200, "score {score}, eval {eval}");
        let Some(entry) = entry else {
            panic!("the cut is stored");
        };
        assert_eq!(entry.mv.to_string(), "d4d6");
        assert_eq!(entry.bound, Bound::Lower);
        assert_eq!(entry.depth, 2);
        assert_eq!(entry.score, score);
    }

    #[test]
    fn no_cut_when_no_capture_can_reach_the_margin_or_the_capture_is_refuted() {
        // A cannon (450) cannot lift the evaluation by 600: SEE rules every capture out,
        // and nothing is searched or stored.
        let (result, entry, _) = probcut_at(WINS_A_CANNON, 600);
        assert_eq!(result, None);
        assert!(entry.is_none());
        // SEE passes d4d6, but quiescence finds the lost rook.
        let (result, entry, _) = probcut_at(TAKING_LOSES_A_ROOK, 200);
        assert_eq!(result, None);
        assert!(entry.is_none());
        // The start position has no capture that wins 200.
        let (result, _, _) = probcut_at(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
            200,
        );
        assert_eq!(result, None);
    }
}
