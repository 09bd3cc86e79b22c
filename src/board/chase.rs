//! Chase detection: which enemy pieces a move newly threatens to win.
//!
//! A move "chases" an enemy piece when, after it, one of the mover's pieces attacks that piece
//! and could take it for free, and that attack is new. The rulings follow the Asian rules as
//! Fairy-Stockfish implements them (the reference for `tests/data/rules.tsv`):
//! - generals and soldiers may attack freely: their attacks are never chases;
//! - the general and soldiers that have not crossed the river cannot be chased;
//! - a horse or cannon attacking a rook, or an advisor or elephant attacking a rook, horse or
//!   cannon, chases it even if it is protected (the trade wins material);
//! - otherwise the victim must be unprotected, where protection by a pinned piece does not
//!   count, a cannon's protection is judged with the attacker gone from its square (so a
//!   cannon screened only by the attacker protects nothing), and the general's protection is
//!   fake when taking back would leave it facing the other general;
//! - attacking a piece of the same kind that attacks back is a trade offer, not a chase,
//!   unless the victim is pinned and cannot take back;
//! - pinning a protector (so a piece it guarded becomes takeable) chases the guarded piece;
//! - uncovering a discovered-check threat chases every piece the uncovering piece attacks,
//!   except one next to the general that the general may take back safely.
//!
//! "New" is judged per attacker: the moved piece's attacks off its line of travel, and the
//! attacks of rooks, cannons, horses and elephants that the move uncovered (or gave a screen).

use super::attackers::{attack_set, line_through, square_bit, squares_of};
use super::moves::Move;
use super::piece::{Color, PieceKind};
use super::position::Position;
use super::square::Square;

/// The enemy pieces (as a 90-bit square set) newly chased by `mv`, the move just made:
/// `pos` is the position after it and `mv` must be its last history entry (otherwise, or for
/// a null move, the set is empty). Takes `&mut` to look at the position before the move;
/// it is restored before returning.
pub fn chased_pieces(pos: &mut Position, mv: Move) -> u128 {
    let Some(last) = pos.history().last().copied() else {
        return 0;
    };
    if last.mv != mv || mv.is_none() {
        return 0;
    }
    pos.unmake_move();
    let captured = pos.piece_at(mv.to()).is_some();
    let before = pos.king_blockers(pos.side_to_move().flip());
    pos.make_move(mv);
    chase_set(pos, mv, captured, before)
}

/// The chase set of `mv`, made in `pos`: `captured` says whether it took a piece and
/// `blockers_before` is `king_blockers(victim)` in the position before it.
pub(crate) fn chase_set(pos: &Position, mv: Move, captured: bool, blockers_before: u128) -> u128 {
    let victim = pos.side_to_move();
    let chaser = victim.flip();
    let occ = pos.occupancy();
    let theirs = pos.pieces_of(victim);
    let blockers = pos.king_blockers(victim);
    let pinned = (blockers | pos.general_file_blocker()) & theirs;
    let uncrossed = squares_of(pos.pieces_of_kind(victim, PieceKind::Soldier))
        .filter(|s| s.on_own_side(victim))
        .fold(0, |a, s| a | square_bit(s));
    let immune = square_bit(pos.general(victim)) | uncrossed;
    let rooks = pos.pieces_of_kind(victim, PieceKind::Rook);
    let majors = rooks
        | pos.pieces_of_kind(victim, PieceKind::Horse)
        | pos.pieces_of_kind(victim, PieceKind::Cannon);

    let mut chased = 0u128;
    let mut add = |attacker: Square, kind: PieceKind, targets: u128| {
        let mut targets = targets & !immune;
        match kind {
            PieceKind::Horse | PieceKind::Cannon => chased |= targets & rooks,
            PieceKind::Elephant | PieceKind::Advisor => chased |= targets & majors,
            _ => {}
        }
        // Same kind attacking back: an offer to trade, unless the victim is pinned.
        for s in squares_of(targets & pos.pieces_of_kind(victim, kind) & !pinned) {
            if let Some(p) = pos.piece_at(s) {
                if attack_set(p, s, occ) & square_bit(attacker) != 0 {
                    targets &= !square_bit(s);
                }
            }
        }
        let without_attacker = occ & !square_bit(attacker);
        for s in squares_of(targets) {
            let roots = pos.attackers_of(s, victim, without_attacker) & !pinned;
            let general_only = roots == square_bit(pos.general(victim));
            if roots == 0 || (general_only && sees_on_file(pos, chaser, s, without_attacker)) {
                chased |= square_bit(s);
            }
        }
    };

    let (from, to) = (mv.from(), mv.to());
    let Some(mover) = pos.piece_at(to) else {
        return 0;
    };

    // Direct attacks of the moved piece; along its line of travel they are not new.
    if !matches!(mover.kind(), PieceKind::General | PieceKind::Soldier) {
        let mut direct = attack_set(mover, to, occ) & theirs;
        if matches!(mover.kind(), PieceKind::Rook | PieceKind::Cannon) {
            direct &= !line_through(from, to);
        }
        add(to, mover.kind(), direct);
    }

    // Attacks uncovered by the move: a freed horse leg or elephant eye, an opened line, a
    // new cannon screen.
    let occ_before = (if captured { occ } else { occ & !square_bit(to) }) | square_bit(from);
    for s in squares_of(pos.pieces_of(chaser)) {
        let Some(p) = pos.piece_at(s) else { continue };
        let candidate = match p.kind() {
            PieceKind::Horse => orthogonal_neighbours(s, from),
            PieceKind::Elephant => diagonal_neighbours(s, from),
            PieceKind::Rook => on_line(s, from),
            PieceKind::Cannon => on_line(s, from) || on_line(s, to),
            _ => false,
        };
        if candidate {
            let uncovered = attack_set(p, s, occ) & theirs & !attack_set(p, s, occ_before);
            add(s, p.kind(), uncovered);
        }
    }

    let new_blockers = blockers & !blockers_before;
    // A newly pinned protector: what it guarded may now be taken.
    if new_blockers & theirs != 0 {
        let chaser_pinned = pos.king_blockers(chaser);
        for s in squares_of(new_blockers & theirs) {
            let Some(p) = pos.piece_at(s) else { continue };
            for guarded in squares_of(theirs & !immune & attack_set(p, s, occ)) {
                if pos.attackers_of(guarded, chaser, occ) & !chaser_pinned != 0 {
                    chased |= square_bit(guarded);
                }
            }
        }
    }
    // A newly uncovered discovered-check threat: its victims cannot be defended by taking
    // back, except by the general itself when that is safe.
    let general = pos.general(victim);
    let general_reach = pos
        .piece_at(general)
        .map_or(0, |g| attack_set(g, general, occ));
    for s in squares_of(new_blockers & pos.pieces_of(chaser)) {
        let Some(p) = pos.piece_at(s) else { continue };
        let threatened = attack_set(p, s, occ) & theirs & !square_bit(general);
        chased |= threatened & !general_reach;
        let occ_after = occ & !square_bit(s) & !square_bit(general);
        for t in squares_of(threatened & general_reach) {
            if pos.attackers_of(t, chaser, occ_after) & !square_bit(s) != 0 {
                chased |= square_bit(t);
            }
        }
    }
    chased
}

/// True when `color`'s general would see `sq` along its file with occupancy `occ` (a
/// general taking back on `sq` would then face it).
fn sees_on_file(pos: &Position, color: Color, sq: Square, occ: u128) -> bool {
    let g = pos.general(color);
    g.file() == sq.file() && super::attackers::between(g, sq) & occ == 0
}

fn orthogonal_neighbours(a: Square, b: Square) -> bool {
    let df = a.file().abs_diff(b.file());
    let dr = a.rank().abs_diff(b.rank());
    df + dr == 1
}

fn diagonal_neighbours(a: Square, b: Square) -> bool {
    a.file().abs_diff(b.file()) == 1 && a.rank().abs_diff(b.rank()) == 1
}

fn on_line(a: Square, b: Square) -> bool {
    a != b && (a.file() == b.file() || a.rank() == b.rank())
}
