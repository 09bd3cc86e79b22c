//! The static evaluation term by term (the `eval` command): each side's material and
//! piece-square sum and knowledge terms, the phase that blends middlegame and endgame, the
//! tempo and the draw scaling, adding up to exactly what `evaluate` returns.

use super::knowledge::{side_term_parts, TERM_NAMES};
use super::psqt::{Pair, MAX_PHASE, PSQ};
use super::{cannot_mate, phase, TEMPO};
use crate::board::{Color, Position, Square};

/// One term for both sides, each from its own point of view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Term {
    /// Short name (`material+pst`, `rook`, ...).
    pub name: &'static str,
    /// Red's value.
    pub red: Pair,
    /// Black's value.
    pub black: Pair,
}

/// The hand-written evaluation of a position, term by term.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Breakdown {
    /// Material+PST, then the knowledge terms (empty of knowledge when it is off).
    pub terms: Vec<Term>,
    /// Phase, 0 (bare endgame) ..= `MAX_PHASE` (every rook, horse and cannon on the board).
    pub phase: i32,
    /// The tapered sum before scaling, red's view.
    pub tapered: i32,
    /// Divisor of the draw scaling (1, or 16 when the leading side cannot mate).
    pub scale_divisor: i32,
    /// Bonus for the side to move.
    pub tempo: i32,
    /// The final score from the side to move's view (equals `evaluate_with`).
    pub score: i32,
}

impl Breakdown {
    /// The middlegame/endgame blend of a (red-relative) pair at this phase.
    pub fn taper(&self, p: Pair) -> i32 {
        (p.mg * self.phase + p.eg * (MAX_PHASE - self.phase)) / MAX_PHASE
    }
}

/// The terms of `pos`'s evaluation, with or without knowledge.
pub fn breakdown(pos: &Position, knowledge: bool) -> Breakdown {
    let mut psq = [Pair::default(); 2];
    for sq in Square::all() {
        if let Some(p) = pos.piece_at(sq) {
            // The table is red-relative: black's entries are negated.
            let v = PSQ[p.code()][sq.index()];
            let (side, sign) = match p.color() {
                Color::Red => (0, 1),
                Color::Black => (1, -1),
            };
            psq[side].mg += sign * v.mg;
            psq[side].eg += sign * v.eg;
        }
    }
    let mut terms = vec![Term {
        name: "material+pst",
        red: psq[0],
        black: psq[1],
    }];
    if knowledge {
        let red = side_term_parts(pos, Color::Red);
        let black = side_term_parts(pos, Color::Black);
        for (i, name) in TERM_NAMES.iter().enumerate() {
            terms.push(Term {
                name,
                red: red[i],
                black: black[i],
            });
        }
    }
    let mut sum = Pair::default();
    for t in &terms {
        sum.mg += t.red.mg - t.black.mg;
        sum.eg += t.red.eg - t.black.eg;
    }
    let phase = phase(pos);
    let tapered = (sum.mg * phase + sum.eg * (MAX_PHASE - phase)) / MAX_PHASE;
    let leader = if tapered > 0 {
        Color::Red
    } else {
        Color::Black
    };
    let scale_divisor = if tapered != 0 && cannot_mate(pos, leader) {
        16
    } else {
        1
    };
    let sign = if pos.side_to_move() == Color::Red {
        1
    } else {
        -1
    };
    Breakdown {
        terms,
        phase,
        tapered,
        scale_divisor,
        tempo: TEMPO,
        score: sign * (tapered / scale_divisor) + TEMPO,
    }
}

/// The `eval` command's lines, one item each.
pub fn format_breakdown(b: &Breakdown, side_to_move: Color) -> Vec<String> {
    let mut lines = vec![format!(
        "eval phase {} of {MAX_PHASE} (middlegame weight)",
        b.phase
    )];
    for t in &b.terms {
        let diff = Pair {
            mg: t.red.mg - t.black.mg,
            eg: t.red.eg - t.black.eg,
        };
        lines.push(format!(
            "eval term {} red mg {} eg {} black mg {} eg {} tapered {}",
            t.name,
            t.red.mg,
            t.red.eg,
            t.black.mg,
            t.black.eg,
            b.taper(diff)
        ));
    }
    lines.push(format!("eval tapered {} (red's view)", b.tapered));
    lines.push(format!(
        "eval scaling 1/{}{}",
        b.scale_divisor,
        if b.scale_divisor > 1 {
            " (the leading side cannot mate)"
        } else {
            ""
        }
    ));
    let side = match side_to_move {
        Color::Red => "red",
        Color::Black => "black",
    };
    lines.push(format!("eval tempo {} for {side}", b.tempo));
    lines.push(format!("eval static {} ({side} to move)", b.score));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terms_add_up_to_the_evaluation() {
        let fens = [
            crate::board::START_FEN,
            "r1bakab1r/9/1cn4cn/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R b - - 0 1",
            "3k5/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1",
            "3ak4/4a4/9/9/9/9/9/4C4/9/3K5 b - - 0 1",
            "2bak4/4a4/4b4/9/2R6/9/9/9/4A4/3AK4 w - - 0 1",
        ];
        for fen in fens {
            let pos = Position::from_fen(fen).expect("fen");
            for knowledge in [false, true] {
                let b = breakdown(&pos, knowledge);
                assert_eq!(
                    b.score,
                    super::super::evaluate_with(&pos, knowledge),
                    "{fen}"
                );
                assert_eq!(b.terms.len(), if knowledge { 5 } else { 1 });
            }
        }
        let b = breakdown(&Position::startpos(), true);
        // The start position is symmetric: every term is equal for both sides.
        assert!(b.terms.iter().all(|t| t.red == t.black), "{b:?}");
        assert_eq!((b.phase, b.tapered, b.score), (MAX_PHASE, 0, TEMPO));
    }
}
