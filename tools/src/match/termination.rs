//! How a game ended: one of a fixed list, written to the PGN's `[Termination]` tag. The full
//! reason (with the engine at fault and the details) starts with the termination's name, so the
//! results file's reason column is enough to recover it.

use pao::board::rules::Reason;

/// Every way a game of `pao-tools match` can end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Termination {
    /// No legal move, in check: the side to move loses.
    Checkmate,
    /// No legal move, not in check: the side to move loses.
    Stalemate,
    /// A repetition in which one side checked with every move: it loses.
    PerpetualCheck,
    /// A repetition in which one side chased with every move: it loses.
    PerpetualChase,
    /// A repetition with no perpetual offender (or two): draw.
    Repetition,
    /// 60 moves per side without a capture: draw.
    SixtyMoveRule,
    /// Neither side can mate: draw.
    InsufficientMaterial,
    /// The runner's `--maxplies` safety net: draw.
    PlyLimit,
    /// `--resign` adjudication by the engines' scores.
    ResignAdjudication,
    /// `--draw` adjudication by the engines' scores.
    DrawAdjudication,
    /// The engine's clock ran out (or no move came in time).
    TimeForfeit,
    /// A well-formed move that is not legal in the position.
    IllegalMove,
    /// A reply that is not a move at all.
    GarbageMove,
    /// `nobestmove` / `bestmove (none)` while legal moves exist.
    NoMoveGiven,
    /// No move within `--movetimeout` under a depth or node limit.
    Hang,
    /// The engine exited.
    Crash,
    /// Reading from or writing to the engine failed.
    EngineError,
    /// The engine did not start or failed its handshake for the game.
    StartFailure,
}

impl Termination {
    /// Every termination, in the order of the documentation.
    pub const ALL: [Termination; 18] = [
        Termination::Checkmate,
        Termination::Stalemate,
        Termination::PerpetualCheck,
        Termination::PerpetualChase,
        Termination::Repetition,
        Termination::SixtyMoveRule,
        Termination::InsufficientMaterial,
        Termination::PlyLimit,
        Termination::ResignAdjudication,
        Termination::DrawAdjudication,
        Termination::TimeForfeit,
        Termination::IllegalMove,
        Termination::GarbageMove,
        Termination::NoMoveGiven,
        Termination::Hang,
        Termination::Crash,
        Termination::EngineError,
        Termination::StartFailure,
    ];

    /// The name written to `[Termination]`; every reason starts with it.
    pub fn name(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::PerpetualCheck => "perpetual check",
            Termination::PerpetualChase => "perpetual chase",
            Termination::Repetition => "repetition",
            Termination::SixtyMoveRule => "sixty-move rule",
            Termination::InsufficientMaterial => "insufficient material",
            Termination::PlyLimit => "ply limit",
            Termination::ResignAdjudication => "adjudication: resign",
            Termination::DrawAdjudication => "adjudication: draw",
            Termination::TimeForfeit => "time forfeit",
            Termination::IllegalMove => "illegal move",
            Termination::GarbageMove => "garbage move",
            Termination::NoMoveGiven => "no move given",
            Termination::Hang => "hang",
            Termination::Crash => "crash",
            Termination::EngineError => "engine error",
            Termination::StartFailure => "start failure",
        }
    }

    /// The termination a reason text starts with (the longest matching name).
    pub fn from_reason(reason: &str) -> Option<Termination> {
        Termination::ALL
            .into_iter()
            .filter(|t| reason.starts_with(t.name()))
            .max_by_key(|t| t.name().len())
    }

    /// The ruling of Pao's rules.
    pub fn from_rule(reason: Reason) -> Termination {
        match reason {
            Reason::Checkmate => Termination::Checkmate,
            Reason::Stalemate => Termination::Stalemate,
            Reason::PerpetualCheck => Termination::PerpetualCheck,
            Reason::PerpetualChase => Termination::PerpetualChase,
            Reason::Repetition => Termination::Repetition,
            Reason::SixtyMoveRule => Termination::SixtyMoveRule,
            Reason::InsufficientMaterial => Termination::InsufficientMaterial,
        }
    }

    /// The games per termination, as `checkmate 3, repetition 1` in the order of `ALL`.
    pub fn tally<'a>(reasons: impl Iterator<Item = &'a str>) -> String {
        let mut counts = [0usize; Termination::ALL.len()];
        let mut unknown = 0;
        for r in reasons {
            match Termination::from_reason(r) {
                Some(t) => counts[t as usize] += 1,
                None => unknown += 1,
            }
        }
        let mut parts: Vec<String> = Termination::ALL
            .iter()
            .zip(counts)
            .filter(|(_, n)| *n > 0)
            .map(|(t, n)| format!("{} {n}", t.name()))
            .collect();
        if unknown > 0 {
            parts.push(format!("other {unknown}"));
        }
        parts.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_distinct_and_recovered_from_reasons() {
        for (i, t) in Termination::ALL.iter().enumerate() {
            assert_eq!(*t as usize, i);
            assert_eq!(Termination::from_reason(t.name()), Some(*t));
            let long = format!("{} (details) by X", t.name());
            assert_eq!(Termination::from_reason(&long), Some(*t));
        }
        assert_eq!(Termination::from_reason("failed somehow"), None);
        assert_eq!(
            Termination::from_rule(Reason::SixtyMoveRule).name(),
            Reason::SixtyMoveRule.to_string()
        );
    }

    #[test]
    fn tally_in_list_order() {
        let reasons = [
            "repetition",
            "checkmate",
            "time forfeit (12 ms) by B",
            "checkmate",
            "?",
        ];
        assert_eq!(
            Termination::tally(reasons.into_iter()),
            "checkmate 2, repetition 1, time forfeit 1, other 1"
        );
    }
}
