//! The proof that a mate the search found is the shortest (or, for the side being mated, the
//! longest resistance).
//!
//! The iterations prune: null move, LMR, futility, SEE pruning and the others can hide a
//! shorter mate that a deeper iteration would find, so a mate score repeated over a few
//! iterations proves nothing about its length. This search prunes nothing but by alpha-beta
//! and mate distance (both exact): every legal move at every node, no reductions, no
//! extensions, and a table of its own. For a mate in N plies it searches N - 2 plies with the
//! window beyond the found score. Failing low proves that no shorter mate exists; a value
//! inside the window is the exact shortest mate, with its line.
//!
//! Its table entries live in the shared table under keys salted with `PROOF_SALT`: the main
//! search's entries come from pruned searches and are never trusted here, and the main search
//! never meets these. The main search's move for a position still orders the moves.

use super::ordering::MovePicker;
use super::repetition::{repetition_score, sixty_move_draw};
use super::report::{Iteration, RootLine, SearchResult};
use super::score::{from_tt, mate_in, mate_plies, mated_in, to_tt, DRAW, INFINITE};
use super::worker::Searcher;
use crate::board::Move;
use crate::tt::Bound;

/// XORed into a position's key for the proof's own table entries.
const PROOF_SALT: u64 = 0x6d61_7465_5f70_726f;

/// What a proof of the root's mate score established.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MateProof {
    /// No shorter mate (no longer resistance when the root is mated): the score is exact.
    Exact,
    /// The exact score is this one, with its line.
    Better {
        /// The exact score, from the root side to move's view.
        score: i32,
        /// Its principal variation.
        pv: Vec<Move>,
    },
    /// The proof stopped before its end (the node budget, the clock or `stop`).
    Unfinished,
}

impl Searcher {
    /// Proves the root's mate score `score` exact, or finds the exact one, within `budget`
    /// nodes (and the search's limits). The root is the last searched position; `root_moves`
    /// (when not empty) restricts the root as in the iterations.
    pub(crate) fn prove_mate(&mut self, score: i32, budget: u64) -> MateProof {
        let Some(plies) = mate_plies(score) else {
            return MateProof::Unfinished;
        };
        // A mate in one is the shortest; being mated in two plies is the longest resistance
        // (the root has a move, or it would not be searched).
        let depth = plies.abs() - 2;
        if depth <= 0 {
            return MateProof::Exact;
        }
        let (alpha, beta) = if plies > 0 {
            (score, INFINITE)
        } else {
            (-INFINITE, score)
        };
        self.proof_limit = self.nodes.saturating_add(budget);
        self.proof_aborted = false;
        // Shallow first: a shorter mate shows at the first depth that holds it, and every
        // depth orders the next one's moves through the table.
        let mut proof = MateProof::Exact;
        for d in (2 - depth % 2..=depth).step_by(2) {
            let value = self.mate_search(d, alpha, beta, 0);
            if self.proof_aborted || self.stopped {
                proof = MateProof::Unfinished;
                break;
            }
            if value > alpha && value < beta {
                if self.pv_len[0] == 0 {
                    // No line, no move to play: claim nothing (cannot happen without a cut
                    // at the root, which the search does not take).
                    proof = MateProof::Unfinished;
                    break;
                }
                proof = MateProof::Better {
                    score: value,
                    pv: self.pv[0][..self.pv_len[0]].to_vec(),
                };
                break;
            }
        }
        self.proof_limit = u64::MAX;
        proof
    }

    /// Alpha-beta over every legal move to `depth` plies with static leaves that only tell a
    /// lost position (no legal move) from the rest. Fail-hard within (alpha, beta).
    fn mate_search(&mut self, depth: i32, mut alpha: i32, mut beta: i32, ply: usize) -> i32 {
        self.pv_len[ply] = 0;
        if ply > 0 {
            if let Some(score) = repetition_score(&mut self.pos, ply, self.config.repetition) {
                return score;
            }
            if self.config.sixty_move_draw && sixty_move_draw(&mut self.pos) {
                return DRAW;
            }
            alpha = alpha.max(mated_in(ply));
            beta = beta.min(mate_in(ply + 1));
            if alpha >= beta {
                return alpha;
            }
        }
        if self.nodes >= self.proof_limit {
            self.proof_aborted = true;
        }
        if self.proof_aborted || self.poll_stop() {
            return 0;
        }
        self.nodes += 1;
        if depth <= 0 {
            // Only whether the side to move has lost matters: every other value lies outside
            // the window, which mate distance keeps at mate scores.
            return if self.pos.has_no_legal_move() {
                mated_in(ply)
            } else {
                DRAW
            };
        }
        let key = self.pos.key() ^ PROOF_SALT;
        let mut tt_move = Move::NONE;
        if let Some(entry) = self.tt.probe(key) {
            let score = from_tt(entry.score, ply);
            // Never at the root: a cut there has no line, and the line's first move is the
            // move the engine plays.
            if ply > 0 && entry.depth >= depth && entry.bound.cuts(score, alpha, beta) {
                return score;
            }
            tt_move = entry.mv;
        }
        if tt_move.is_none() {
            // The main search's best move here, for ordering only.
            tt_move = self.tt.probe(self.pos.key()).map_or(Move::NONE, |e| e.mv);
        }
        // Keys can collide: a stored move is played only when it fits the position.
        if !tt_move.is_none() && !self.pos.is_pseudo_legal(tt_move) {
            tt_move = Move::NONE;
        }
        let restricted = ply == 0 && !self.root_moves.is_empty();
        if restricted && !self.root_moves.contains(&tt_move) {
            tt_move = Move::NONE;
        }
        let hints = self.ordering_hints(ply, tt_move);
        let mut picker = MovePicker::new(&self.pos, &hints, &self.config);
        let original_alpha = alpha;
        let mut best_move = Move::NONE;
        let mut legal = 0;
        while let Some(m) = picker.next_move(&mut self.pos, &self.heur, &self.config) {
            if restricted && !self.root_moves.contains(&m) {
                continue;
            }
            legal += 1;
            self.stack[ply].mv = m;
            self.stack[ply].piece = self.pos.piece_at(m.from());
            // The proof never evaluates: the board alone moves, not the accumulators.
            self.pos.make_move(m);
            let score = -self.mate_search(depth - 1, -beta, -alpha, ply + 1);
            self.pos.unmake_move();
            if self.proof_aborted || self.stopped {
                return 0;
            }
            if score > alpha {
                alpha = score;
                best_move = m;
                self.update_pv(ply, m);
                if score >= beta {
                    break;
                }
            }
        }
        if legal == 0 {
            return mated_in(ply);
        }
        let bound = if alpha >= beta {
            Bound::Lower
        } else if alpha > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt
            .store(key, best_move, to_tt(alpha, ply), 0, depth, bound);
        alpha
    }
}

/// The smallest node budget of a proof. Otherwise a proof gets half the nodes the search has
/// spent so far: a third of the time goes to proofs, the rest to the iterations, which find
/// shorter mates faster than a search without pruning does. A proof that runs out is tried
/// again after the next iteration, with the table keeping what it proved.
const MIN_PROOF_BUDGET: u64 = 20_000;

impl Searcher {
    /// After an iteration whose decided score held for a few iterations, or that solved the
    /// tree: true when the iterations may end. A tree solved without meeting the horizon
    /// anywhere is exact. With `prove_mates`, a mate must be proven exact first (a better mate
    /// the proof finds becomes the result and is reported as an iteration of the same depth),
    /// and a win or loss by rule does not end the search. Without it (`go nodes`), the held
    /// score is enough.
    pub(crate) fn decided_stop(
        &mut self,
        iteration: Iteration,
        result: &mut SearchResult,
        report: &mut dyn FnMut(&Iteration),
    ) -> bool {
        if !self.horizon || !self.limits.prove_mates || !self.config.mate_proofs {
            return true;
        }
        if mate_plies(iteration.score).is_none() {
            // A win by rule proves nothing either: a mate may hide behind the same pruning
            // (the defender reaching a repetition it loses by rule rather than the mate).
            // Nothing bounds such a mate's length, so the clock decides.
            return false;
        }
        let proof = self.prove_mate(iteration.score, (self.nodes / 2).max(MIN_PROOF_BUDGET));
        match proof {
            MateProof::Exact => true,
            MateProof::Better { score, pv } => {
                let mut lines = iteration.lines;
                let wanted = lines.len().max(1);
                lines.retain(|l| l.pv.first() != pv.first());
                lines.insert(
                    0,
                    RootLine {
                        score,
                        pv: pv.clone(),
                    },
                );
                lines.truncate(wanted);
                result.best_move = pv.first().copied();
                result.ponder = pv.get(1).copied();
                result.score = score;
                result.pv = pv.clone();
                result.nodes = self.nodes;
                report(&Iteration {
                    seldepth: iteration.seldepth.max(pv.len() as u32),
                    score,
                    pv,
                    nodes: self.nodes,
                    lines,
                    ..iteration
                });
                true
            }
            MateProof::Unfinished => self.stopped,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{format_move, Position, RankBase};
    use crate::search::score::mated_in;
    use crate::search::{Limits, SearchConfig};
    use crate::tt::TranspositionTable;
    use std::sync::Arc;

    /// Black mates in 4 (7 plies): h0h3 or h0h6 (from Pao's self-play; proven by the
    /// exhaustive solver of `pao-tools mates prove`).
    const MATE_IN_4: &str = "3ckab2/1R2a4/4b4/p8/4p4/P5B2/9/4B4/3K2R2/4r2r1 b - - 0 1";

    fn searcher() -> Searcher {
        let tt = Arc::new(TranspositionTable::new(16).expect("table"));
        Searcher::new(tt, SearchConfig::FULL)
    }

    /// A search with no depth asked, as the coordinator starts one for an analysis.
    fn decided_search(fen: &str, prove_mates: bool) -> SearchResult {
        let pos = Position::from_fen(fen).expect("fen");
        let mut limits = Limits::depth(120);
        limits.stop_when_decided = true;
        limits.prove_mates = prove_mates;
        searcher().search(&pos, &limits, &[], &mut |_| {})
    }

    fn names(pv: &[Move]) -> Vec<String> {
        pv.iter().map(|&m| format_move(m, RankBase::Zero)).collect()
    }

    #[test]
    fn a_held_mate_score_is_not_the_shortest_and_the_proof_finds_it() {
        // The plain rule stops once the mate held four iterations: a mate in 5.
        let plain = decided_search(MATE_IN_4, false);
        assert_eq!(plain.score, mate_in(9), "{:?}", names(&plain.pv));
        let proven = decided_search(MATE_IN_4, true);
        assert_eq!(proven.score, mate_in(7), "{:?}", names(&proven.pv));
        let first = names(&proven.pv[..1]);
        assert!(first == ["h0h3"] || first == ["h0h6"], "{first:?}");
    }

    #[test]
    fn with_two_lines_the_better_mate_leads_and_no_move_is_listed_twice() {
        let pos = Position::from_fen(MATE_IN_4).expect("fen");
        let mut limits = Limits::depth(120);
        limits.stop_when_decided = true;
        limits.prove_mates = true;
        limits.multipv = 2;
        let mut last = None;
        let r = searcher().search(&pos, &limits, &[], &mut |it| last = Some(it.clone()));
        let last = last.expect("an iteration");
        assert_eq!((r.score, last.score), (mate_in(7), mate_in(7)));
        assert_eq!(last.lines.len(), 2);
        assert_eq!(last.lines[0].score, mate_in(7));
        assert_ne!(last.lines[0].pv.first(), last.lines[1].pv.first());
        assert!(last.lines[1].score <= last.lines[0].score);
    }

    #[test]
    fn the_proof_confirms_the_shortest_and_the_longest_resistance() {
        let mut s = searcher();
        let pos = Position::from_fen(MATE_IN_4).expect("fen");
        s.start(&pos, &Limits::depth(1), &[]);
        assert_eq!(s.prove_mate(mate_in(7), u64::MAX), MateProof::Exact);
        match s.prove_mate(mate_in(11), u64::MAX) {
            MateProof::Better { score, pv } => {
                assert_eq!(score, mate_in(7));
                assert_eq!(pv.len(), 7, "{:?}", names(&pv));
            }
            other => panic!("{other:?}"),
        }
        // After h0h3 red is mated in 6 plies at best: resisting 8 is not possible.
        let mut after = pos.clone();
        after.make_move(crate::board::parse_move("h0h3", RankBase::Zero).expect("move"));
        let mut s = searcher();
        s.start(&after, &Limits::depth(1), &[]);
        assert_eq!(s.prove_mate(mated_in(6), u64::MAX), MateProof::Exact);
        match s.prove_mate(mated_in(8), u64::MAX) {
            MateProof::Better { score, pv } => {
                assert_eq!(score, mated_in(6));
                assert_eq!(pv.len(), 6, "{:?}", names(&pv));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_second_proof_on_the_same_table_still_gives_the_line() {
        // The first proof leaves an exact root entry under the proof's key; the second (a
        // ponder search that goes on, or the next move's search) must not cut on it with an
        // empty line: its first move is the move the engine plays.
        let mut s = searcher();
        let pos = Position::from_fen(MATE_IN_4).expect("fen");
        s.start(&pos, &Limits::depth(1), &[]);
        for _ in 0..2 {
            match s.prove_mate(mate_in(11), u64::MAX) {
                MateProof::Better { score, pv } => {
                    assert_eq!(score, mate_in(7));
                    // The second line may stop where the table cut below the root.
                    let first = names(&pv[..1]);
                    assert!(first == ["h0h3"] || first == ["h0h6"], "{first:?}");
                }
                other => panic!("{other:?}"),
            }
        }
    }

    #[test]
    fn a_proof_out_of_nodes_is_unfinished_and_claims_nothing() {
        let mut s = searcher();
        let pos = Position::from_fen(MATE_IN_4).expect("fen");
        s.start(&pos, &Limits::depth(1), &[]);
        assert_eq!(s.prove_mate(mate_in(11), 100), MateProof::Unfinished);
        assert!(!s.stopped);
        // A mate in one needs no proof.
        assert_eq!(s.prove_mate(mate_in(1), 0), MateProof::Exact);
    }
}
