//! The game-result rules of xiangqi (Asian/Chinese rules, as Fairy-Stockfish rules them).
//!
//! In the order they are applied by [`game_result`]:
//! 1. A side with no legal move has lost, checkmated or stalemated alike.
//! 2. Sixty moves per side (120 plies) without a capture is a draw. Checks do not stretch
//!    the count until a side has given ten of them in the capture-free stretch; each check
//!    beyond the tenth (of the side that gave the most) adds one move per side (2 plies) to the
//!    limit, so that a long series of checks does not run out the clock on the defender.
//! 3. Repetition: the game ends when the current position (same placement, same side to move)
//!    occurs for the third time since the last capture. The plies between the first of those
//!    occurrences and now are judged: a side that gave check with every one of its moves loses
//!    (both: draw); failing that, a side that chased the same piece with every one of its
//!    moves loses (both: draw, see [`super::chase`]); otherwise the game is drawn.
//! 4. Insufficient material: a draw when neither side has a rook, horse, cannon or soldier
//!    (generals, advisors and elephants can never give mate).

use super::chase::chase_set;
use super::moves::Move;
use super::notation::RankBase;
use super::piece::{Color, PieceKind};
use super::position::Position;

/// Plies without a capture after which the game is drawn (60 moves per side).
pub const SIXTY_MOVE_PLIES: u32 = 120;
/// Checks per side that count toward the sixty-move limit like any other move.
pub const COUNTED_CHECKS: u32 = 10;
/// Occurrences of a position that end the game by repetition.
pub const REPETITION_OCCURRENCES: u32 = 3;

/// Why a game ended.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Reason {
    /// The side to move is in check and has no legal move.
    Checkmate,
    /// The side to move is not in check and has no legal move (it loses).
    Stalemate,
    /// The loser checked with every move of a repetition cycle.
    PerpetualCheck,
    /// The loser chased a piece with every move of a repetition cycle.
    PerpetualChase,
    /// A repetition with no perpetual offender.
    Repetition,
    /// Sixty moves per side without a capture.
    SixtyMoveRule,
    /// Neither side has a piece that can give mate.
    InsufficientMaterial,
}

impl std::fmt::Display for Reason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Reason::Checkmate => "checkmate",
            Reason::Stalemate => "stalemate",
            Reason::PerpetualCheck => "perpetual check",
            Reason::PerpetualChase => "perpetual chase",
            Reason::Repetition => "repetition",
            Reason::SixtyMoveRule => "sixty-move rule",
            Reason::InsufficientMaterial => "insufficient material",
        })
    }
}

/// The state of a game.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum GameResult {
    /// Play goes on.
    Ongoing,
    /// One side has won.
    Win {
        /// The winner.
        winner: Color,
        /// Why.
        reason: Reason,
    },
    /// Drawn.
    Draw {
        /// Why.
        reason: Reason,
    },
}

impl std::fmt::Display for GameResult {
    /// `ongoing`, `red wins (checkmate)`, `black wins (perpetual chase)`, `draw (repetition)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GameResult::Ongoing => f.write_str("ongoing"),
            GameResult::Win { winner, reason } => {
                let side = match winner {
                    Color::Red => "red",
                    Color::Black => "black",
                };
                write!(f, "{side} wins ({reason})")
            }
            GameResult::Draw { reason } => write!(f, "draw ({reason})"),
        }
    }
}

/// How a repetition cycle is ruled, from the side to move's point of view.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum RepetitionVerdict {
    /// Nobody (or both sides) checked or chased perpetually.
    Draw,
    /// The opponent checked or chased perpetually.
    WinForSideToMove,
    /// The side to move checked or chased perpetually.
    LossForSideToMove,
}

/// A repetition found in the history, and its ruling.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Repetition {
    /// The ruling.
    pub verdict: RepetitionVerdict,
    /// The reason behind the ruling: `PerpetualCheck`, `PerpetualChase` or `Repetition`.
    pub reason: Reason,
    /// Plies back to the earliest occurrence counted (the span that was judged).
    pub distance: usize,
}

/// The result of the game in `pos` (see the module comment for the rules and their order).
/// `&mut` only to generate moves and replay the history; `pos` is left as it was.
pub fn game_result(pos: &mut Position) -> GameResult {
    let side = pos.side_to_move();
    if pos.has_no_legal_move() {
        let reason = if pos.in_check() {
            Reason::Checkmate
        } else {
            Reason::Stalemate
        };
        return GameResult::Win {
            winner: side.flip(),
            reason,
        };
    }
    if sixty_move_rule_reached(pos.plies_since_capture(), most_checks_since_capture(pos)) {
        return GameResult::Draw {
            reason: Reason::SixtyMoveRule,
        };
    }
    if let Some(rep) = find_repetition(pos, REPETITION_OCCURRENCES) {
        return match rep.verdict {
            RepetitionVerdict::Draw => GameResult::Draw { reason: rep.reason },
            RepetitionVerdict::WinForSideToMove => GameResult::Win {
                winner: side,
                reason: rep.reason,
            },
            RepetitionVerdict::LossForSideToMove => GameResult::Win {
                winner: side.flip(),
                reason: rep.reason,
            },
        };
    }
    if insufficient_material(pos) {
        return GameResult::Draw {
            reason: Reason::InsufficientMaterial,
        };
    }
    GameResult::Ongoing
}

/// True when `plies` without capture reach the limit, given the number of checks given by the
/// side that gave the most of them in that stretch (checks beyond the tenth add 2 plies each).
pub fn sixty_move_rule_reached(plies: u32, most_checks: u32) -> bool {
    let extension = 2 * most_checks.saturating_sub(COUNTED_CHECKS);
    plies >= SIXTY_MOVE_PLIES + extension
}

/// The most checks one side gave in the capture-free stretch the history still holds.
pub fn most_checks_since_capture(pos: &Position) -> u32 {
    let history = pos.history();
    let n = history.len();
    let span = (pos.plies_since_capture() as usize).min(n);
    // checks[0]: by the side that made the last move; checks[1]: by the other side.
    let mut checks = [0u32; 2];
    for back in 0..span {
        // Move number n - back gave check when the position after it had the mover's
        // opponent in check: the next entry's `was_in_check`, or the current state.
        let gave_check = if back == 0 {
            pos.in_check()
        } else {
            history[n - back].was_in_check
        };
        checks[back % 2] += gave_check as u32;
    }
    checks[0].max(checks[1])
}

/// True when neither side has a rook, horse, cannon or soldier left.
pub fn insufficient_material(pos: &Position) -> bool {
    Color::BOTH.iter().all(|&c| {
        [
            PieceKind::Rook,
            PieceKind::Horse,
            PieceKind::Cannon,
            PieceKind::Soldier,
        ]
        .iter()
        .all(|&k| pos.count(c, k) == 0)
    })
}

/// The ruling of the first (most recent) repetition of the current position since the last
/// capture or null move, if any: what the search uses at a node whose key repeats. Cheap when
/// there is none (a key scan); a found cycle is replayed to look for chases.
pub fn repetition_verdict(pos: &mut Position) -> Option<RepetitionVerdict> {
    find_repetition(pos, 2).map(|r| r.verdict)
}

/// Looks for the `occurrences`-th occurrence of the current position (counting itself) in
/// the span since the last capture or null move, and rules the plies back to the earliest
/// occurrence counted. `occurrences` = 2 finds the most recent repetition (values below 2 act
/// as 2), 3 is the game rule. The returned `distance` tells the search whether the earlier
/// occurrence lies inside its tree.
pub fn find_repetition(pos: &mut Position, occurrences: u32) -> Option<Repetition> {
    let (distance, since_null) = repetition_distance(pos, occurrences)?;
    Some(rule_repetition(pos, distance, since_null))
}

/// Rules the `distance` plies back to an earlier occurrence of the current position, as
/// found by [`repetition_distance`] (which also gives `since_null`).
pub fn rule_repetition(pos: &mut Position, distance: usize, since_null: usize) -> Repetition {
    let (verdict, reason) = rule_cycle(pos, distance, since_null);
    Repetition {
        verdict,
        reason,
        distance,
    }
}

/// The key scan of [`find_repetition`] without the ruling: the plies back to the
/// `occurrences`-th occurrence of the current position, and the plies since the last null
/// move (or the whole capture-free span).
pub fn repetition_distance(pos: &Position, occurrences: u32) -> Option<(usize, usize)> {
    let history = pos.history();
    let n = history.len();
    let clock = (pos.plies_since_capture() as usize).min(n);
    if clock < 4 || !pos.may_repeat() {
        return None;
    }
    // Only the plies since the last capture matter: scanning further would cost every node.
    let since_null = history[n - clock..]
        .iter()
        .rev()
        .position(|u| u.mv.is_none())
        .unwrap_or(n);
    let end = clock.min(since_null);
    let key = pos.key();
    let mut count = 1;
    let mut distance = None;
    let mut i = 4;
    while i <= end {
        if history[n - i].key == key {
            count += 1;
            if count >= occurrences {
                distance = Some(i);
                break;
            }
        }
        i += 2;
    }
    distance.map(|d| (d, since_null))
}

/// Rules the `distance` plies before the current position (which repeats the position that
/// many plies back). "Them" made the last move; "us" is to move.
fn rule_cycle(
    pos: &mut Position,
    distance: usize,
    since_null: usize,
) -> (RepetitionVerdict, Reason) {
    let history = pos.history();
    let n = history.len();
    // Whether the move leading to position k (1..=n) gave check.
    let gave_check = |k: usize| {
        if k == n {
            pos.in_check()
        } else {
            history[k].was_in_check
        }
    };
    // Their moves: n, n-2, ..., n-distance+2; ours: n-1, ..., n-distance+1.
    let check_them = (0..distance / 2).all(|j| gave_check(n - 2 * j));
    let check_us = (0..distance / 2).all(|j| gave_check(n - 1 - 2 * j));
    if check_them || check_us {
        return (verdict(check_them, check_us), Reason::PerpetualCheck);
    }
    let (chase_them, chase_us) = cycle_chases(pos, distance, since_null);
    if chase_them || chase_us {
        return (verdict(chase_them, chase_us), Reason::PerpetualChase);
    }
    (RepetitionVerdict::Draw, Reason::Repetition)
}

fn verdict(them: bool, us: bool) -> RepetitionVerdict {
    match (them, us) {
        (true, false) => RepetitionVerdict::WinForSideToMove,
        (false, true) => RepetitionVerdict::LossForSideToMove,
        _ => RepetitionVerdict::Draw,
    }
}

/// Whether each side chased one same piece with every one of its moves in the cycle:
/// (them, us). Their move into the earlier occurrence counts too when it is in the span, as
/// the reference does. The cycle is unmade and replayed, and `pos` is restored.
fn cycle_chases(pos: &mut Position, distance: usize, since_null: usize) -> (bool, bool) {
    let n = pos.history().len();
    let first = if distance < since_null {
        n - distance
    } else {
        n - distance + 1
    };
    let len = n + 1 - first;
    // A cycle longer than the buffer is rare; only then does this allocate.
    let mut buffer = [Move::NONE; 128];
    let mut heap = Vec::new();
    let moves: &mut [Move] = if len <= buffer.len() {
        &mut buffer[..len]
    } else {
        heap.resize(len, Move::NONE);
        &mut heap[..]
    };
    for (slot, undo) in moves.iter_mut().zip(&pos.history()[first - 1..]) {
        *slot = undo.mv;
    }
    for _ in 0..len {
        pos.unmake_move();
    }
    // chased[c]: pieces chased by colour c at each of its moves so far (None before its first).
    let mut chased: [Option<u128>; 2] = [None, None];
    for &mv in moves.iter() {
        let mover = pos.side_to_move();
        let captured = pos.piece_at(mv.to()).is_some();
        let before = pos.king_blockers(mover.flip());
        pos.make_move(mv);
        let set = chase_set(pos, mv, captured, before);
        // The mover's own pieces that the other side is chasing follow the move.
        let other = mover.flip().index();
        if let Some(s) = chased[other].as_mut() {
            let from = 1u128 << mv.from().index();
            if *s & from != 0 {
                *s = (*s & !from) | (1u128 << mv.to().index());
            }
        }
        let own = &mut chased[mover.index()];
        *own = Some(own.map_or(set, |s| s & set));
    }
    let them = pos.side_to_move().flip();
    let any = |c: Color| chased[c.index()].is_some_and(|s| s != 0);
    (any(them), any(them.flip()))
}

/// Plays `moves` (ICCS, ranks 0-9) from `fen` and rules the game: `ongoing`, or
/// `red wins` / `black wins` / `draw` with the reason in parentheses.
/// Errors name the FEN problem, or the number and text of the first bad or illegal move.
pub fn judge(fen: &str, moves: &[&str]) -> Result<String, String> {
    let mut pos = Position::from_fen(fen).map_err(|e| format!("bad FEN: {e}"))?;
    for (i, text) in moves.iter().enumerate() {
        let m = pos
            .parse_legal_move(text, RankBase::Zero)
            .map_err(|e| format!("move {} ({text}): {e}", i + 1))?;
        pos.make_move(m);
    }
    Ok(game_result(&mut pos).to_string())
}
