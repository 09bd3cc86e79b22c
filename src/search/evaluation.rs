//! The searcher's static evaluation: network or hand-written, faded, endgame-scaled or decided.

use super::worker::Searcher;
use crate::eval;

/// Most pieces (generals included) of a position the endgame scales or bitbases can know.
const FEW_PIECES: u32 = if eval::endgame::MAX_PIECES > eval::bitbase::MAX_PIECES {
    eval::endgame::MAX_PIECES
} else {
    eval::bitbase::MAX_PIECES
};

/// What the search reads from a net whose output for the side to move is `raw`: the output
/// plus the side-to-move bonus (`NnueTempo`), scaled as a network's score is.
#[inline]
pub(crate) fn network_value(pos: &crate::board::Position, raw: i32) -> i32 {
    eval::scale_network(pos, raw + super::params::nnue_tempo())
}

impl Searcher {
    /// Static evaluation with this searcher's knowledge switch.
    #[inline]
    pub(crate) fn evaluate(&mut self) -> i32 {
        self.evaluate_lazy(-i32::MAX, i32::MAX)
    }

    /// Static evaluation, lazy outside (alpha, beta), through this thread's knowledge cache.
    #[inline]
    pub(crate) fn evaluate_lazy(&mut self, alpha: i32, beta: i32) -> i32 {
        if self.config.sixty_move_fade {
            // A lazy bound would not survive the scaling: evaluate in full, then fade.
            let v = self.evaluate_unfaded(-i32::MAX, i32::MAX);
            return super::repetition::sixty_move_fade(v, self.pos.plies_since_capture());
        }
        self.evaluate_unfaded(alpha, beta)
    }

    #[inline]
    fn evaluate_unfaded(&mut self, alpha: i32, beta: i32) -> i32 {
        if self.config.endgame_scale || self.config.endgame_bitbase {
            // A lazy bound would not survive the adjustment: few pieces are evaluated in full.
            let occupied = self.pos.pieces_of(crate::board::Color::Red)
                | self.pos.pieces_of(crate::board::Color::Black);
            if occupied.count_ones() <= FEW_PIECES {
                return self.evaluate_few_pieces();
            }
        }
        self.evaluate_unscaled(alpha, beta)
    }

    /// The evaluation of a position of few pieces: the bitbase's verdict where it holds the
    /// material (exact, so it comes first), else the endgame scales.
    #[inline(never)]
    fn evaluate_few_pieces(&mut self) -> i32 {
        let v = self.evaluate_unscaled(-i32::MAX, i32::MAX);
        if self.config.endgame_bitbase {
            if let Some(wdl) = eval::bitbase::probe(&self.pos) {
                return eval::bitbase::adjust(wdl, v);
            }
        }
        if self.config.endgame_scale {
            return eval::endgame::scale(&self.pos, v);
        }
        v
    }

    #[inline]
    fn evaluate_unscaled(&mut self, alpha: i32, beta: i32) -> i32 {
        if let Some(stack) = &mut self.nnue {
            return network_value(&self.pos, stack.evaluate(&self.pos));
        }
        eval::evaluate_cached(
            &self.pos,
            self.psq.current(),
            self.config.knowledge,
            alpha,
            beta,
            &mut self.eval_cache,
        )
    }

    /// Leaf value when quiescence is off: the static evaluation, or the mate/stalemate score.
    pub(crate) fn leaf_eval(&mut self, ply: usize) -> i32 {
        self.nodes += 1;
        if self.pos.has_no_legal_move() {
            return super::score::mated_in(ply);
        }
        self.evaluate()
    }
}
