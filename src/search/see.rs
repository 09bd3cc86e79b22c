//! Static exchange evaluation for xiangqi: does the exchange a move starts on its target square
//! end at least `threshold` up for the mover, both sides recapturing with their least valuable
//! attacker and stopping when that pays?
//!
//! Every recapture is found again from the occupancy left after the previous ones, so the
//! xiangqi geometry comes out right as pieces leave the board: a cannon gains or loses its
//! screen, a rook behind another piece joins in, a horse's leg or an elephant's eye opens.
//! Only the lines through the target square can change a rook's or cannon's reach, so those two
//! line masks are kept beside the occupancy. Pins and the flying general are ignored (as in
//! chess engines); a general recaptures only when nothing can take it back.

use crate::board::attacks::Leaps;
use crate::board::attacks::{
    ADVISOR_MOVES, ADVISOR_MOVE_MASK, ELEPHANT_MOVES, ELEPHANT_MOVE_MASK, FILE_MOVES,
    GENERAL_MOVES, GENERAL_MOVE_MASK, HORSE_ATTACKERS, HORSE_ATTACKER_MASK, LINE_MASK, RANK_MOVES,
    SOLDIER_ATTACKER_MASK,
};
use crate::board::{Color, Move, PieceKind, Position, FILES};

/// Exchange values by kind (general, advisor, elephant, horse, rook, cannon, soldier), on the
/// evaluation's scale. The general's is larger than any exchange.
pub const SEE_VALUE: [i32; 7] = [20_000, 120, 120, 400, 900, 450, 100];

/// Value of the piece on a square (0 when empty).
#[inline]
fn value_on(pos: &Position, sq: usize) -> i32 {
    pos.piece_at(crate::board::Square::from_index(sq))
        .map_or(0, |p| SEE_VALUE[p.kind().index()])
}

/// The board as the exchange sees it: occupancy and the two lines through the target.
struct Exchange<'a> {
    pos: &'a Position,
    to: usize,
    occ: u128,
    /// Occupancy of the target's rank (bit = file) and file (bit = rank).
    rank_bits: u16,
    file_bits: u16,
}

impl Exchange<'_> {
    /// Takes the piece on `sq` off the board (it moved to the target).
    #[inline]
    fn remove(&mut self, sq: usize) {
        self.occ &= !(1u128 << sq);
        if sq / FILES == self.to / FILES {
            self.rank_bits &= !(1 << (sq % FILES));
        }
        if sq % FILES == self.to % FILES {
            self.file_bits &= !(1 << (sq / FILES));
        }
    }

    /// `side`'s pieces of `kind` still on the board.
    #[inline]
    fn mine(&self, side: Color, kind: PieceKind) -> u128 {
        self.pos.pieces_of_kind(side, kind) & self.occ
    }

    /// The first of `set`'s squares among `leaps` whose blocking square is empty.
    #[inline]
    fn leaper(&self, set: u128, leaps: &Leaps, blockable: bool) -> Option<usize> {
        (0..leaps.len as usize).find_map(|i| {
            let from = leaps.to[i] as usize;
            let free = !blockable || self.occ & (1u128 << leaps.block[i]) == 0;
            (set & (1u128 << from) != 0 && free).then_some(from)
        })
    }

    /// The first of `set`'s squares among a line's capture bits (rank or file of the target).
    #[inline]
    fn slider(&self, set: u128, rank_caps: u16, file_caps: u16) -> Option<usize> {
        let (tf, tr) = (self.to % FILES, self.to / FILES);
        let mut bits = rank_caps;
        while bits != 0 {
            let sq = tr * FILES + bits.trailing_zeros() as usize;
            if set & (1u128 << sq) != 0 {
                return Some(sq);
            }
            bits &= bits - 1;
        }
        let mut bits = file_caps;
        while bits != 0 {
            let sq = bits.trailing_zeros() as usize * FILES + tf;
            if set & (1u128 << sq) != 0 {
                return Some(sq);
            }
            bits &= bits - 1;
        }
        None
    }

    /// `side`'s least valuable piece attacking the target, with its kind.
    fn least_attacker(&self, side: Color) -> Option<(usize, PieceKind)> {
        let to = self.to;
        let soldiers =
            self.mine(side, PieceKind::Soldier) & SOLDIER_ATTACKER_MASK[side.index()][to];
        if soldiers != 0 {
            return Some((soldiers.trailing_zeros() as usize, PieceKind::Soldier));
        }
        let advisors = self.mine(side, PieceKind::Advisor) & ADVISOR_MOVE_MASK[to];
        if advisors != 0 {
            if let Some(s) = self.leaper(advisors, &ADVISOR_MOVES[to], false) {
                return Some((s, PieceKind::Advisor));
            }
        }
        let elephants = self.mine(side, PieceKind::Elephant) & ELEPHANT_MOVE_MASK[to];
        if elephants != 0 {
            // The eye is the midpoint either way, and the table keeps to one half.
            if let Some(s) = self.leaper(elephants, &ELEPHANT_MOVES[to], true) {
                return Some((s, PieceKind::Elephant));
            }
        }
        let horses = self.mine(side, PieceKind::Horse) & HORSE_ATTACKER_MASK[to];
        if horses != 0 {
            if let Some(s) = self.leaper(horses, &HORSE_ATTACKERS[to], true) {
                return Some((s, PieceKind::Horse));
            }
        }
        let cannons = self.mine(side, PieceKind::Cannon) & LINE_MASK[to];
        let rooks = self.mine(side, PieceKind::Rook) & LINE_MASK[to];
        if cannons | rooks != 0 {
            let (tf, tr) = (to % FILES, to / FILES);
            let rank = &RANK_MOVES[tf][self.rank_bits as usize];
            let file = &FILE_MOVES[tr][self.file_bits as usize];
            if cannons != 0 {
                if let Some(s) = self.slider(cannons, rank.cannon_cap, file.cannon_cap) {
                    return Some((s, PieceKind::Cannon));
                }
            }
            if rooks != 0 {
                if let Some(s) = self.slider(rooks, rank.rook_cap, file.rook_cap) {
                    return Some((s, PieceKind::Rook));
                }
            }
        }
        let general = self.mine(side, PieceKind::General) & GENERAL_MOVE_MASK[to];
        if general == 0 {
            return None;
        }
        self.leaper(general, &GENERAL_MOVES[to], false)
            .map(|s| (s, PieceKind::General))
    }
}

/// True when the exchange `m` starts ends at least `threshold` up for the side to move.
/// `m` must be pseudo-legal; quiet moves are judged too (can the piece stand there?).
pub fn see_ge(pos: &Position, m: Move, threshold: i32) -> bool {
    let (from, to) = (m.from().index(), m.to().index());
    let Some(mover) = pos.piece_at(m.from()) else {
        return false;
    };
    let mut swap = value_on(pos, to) - threshold;
    if swap < 0 {
        return false;
    }
    swap = SEE_VALUE[mover.kind().index()] - swap;
    if swap <= 0 {
        return true;
    }
    let mut ex = Exchange {
        pos,
        to,
        occ: pos.occupancy() | (1u128 << to),
        rank_bits: pos.rank_occ[to / FILES] | (1 << (to % FILES)),
        file_bits: pos.file_occ[to % FILES] | (1 << (to / FILES)),
    };
    ex.remove(from);
    let mut side = mover.color();
    // `res` is the answer if the side to recapture next stops: true = the mover is ahead.
    let mut res = true;
    loop {
        side = side.flip();
        let Some((sq, kind)) = ex.least_attacker(side) else {
            break;
        };
        res = !res;
        if kind == PieceKind::General {
            // The general takes only when nothing can take it back.
            return if ex.least_attacker(side.flip()).is_some() {
                !res
            } else {
                res
            };
        }
        swap = SEE_VALUE[kind.index()] - swap;
        if swap < i32::from(res) {
            break;
        }
        ex.remove(sq);
    }
    res
}

/// The exchange's value exactly (binary search over `see_ge`; for tests and tools).
pub fn see_value(pos: &Position, m: Move) -> i32 {
    let (mut lo, mut hi) = (-SEE_VALUE[0], SEE_VALUE[0]);
    // Invariant: see_ge(lo) holds and see_ge(hi + 1) does not.
    while lo < hi {
        let mid = lo + (hi - lo + 1) / 2;
        if see_ge(pos, m, mid) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    lo
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::RankBase;

    fn value(fen: &str, mv: &str) -> i32 {
        let mut pos = Position::from_fen(fen).expect("FEN");
        let m = pos
            .parse_legal_move(mv, RankBase::Zero)
            .expect("legal move");
        see_value(&pos, m)
    }

    #[test]
    fn undefended_and_defended_victims() {
        // Rook takes an undefended horse.
        assert_eq!(value("3k5/9/9/9/9/2n1R4/9/9/9/5K3 w", "e4c4"), 400);
        // The black soldier on c5 defends it: a rook for a horse.
        assert_eq!(value("3k5/9/9/9/2p6/2n1R4/9/9/9/5K3 w", "e4c4"), 400 - 900);
        // Soldier takes a soldier defended by a rook: an even trade.
        assert_eq!(value("4k4/9/9/4r4/4p4/4P4/9/9/9/5K3 w", "e4e5"), 0);
        // A quiet rook move onto a square a soldier attacks loses the rook.
        assert_eq!(value("4k4/9/9/9/p8/9/9/9/9/R4K3 w", "a0a4"), -900);
    }

    #[test]
    fn cannon_screens() {
        // The red cannon takes the horse over the soldier on e4; the black rook retakes.
        assert_eq!(value("3kr4/9/9/4n4/9/4P4/9/4C4/9/5K3 w", "e2e6"), 400 - 450);
        // The black cannon on e9 defends e6 over the advisor on e8 ...
        assert_eq!(value("3kc4/4a4/9/4n4/9/9/9/9/4R4/5K3 w", "e1e6"), 400 - 900);
        // ... but not without a screen.
        assert_eq!(value("3kc4/9/9/4n4/9/9/9/9/4R4/5K3 w", "e1e6"), 400);
    }

    #[test]
    fn lines_open_as_the_exchange_goes() {
        // Doubled red rooks: the second retakes once the first has left e1.
        assert_eq!(value("3kr4/9/9/4n4/9/9/9/9/4R4/4RK3 w", "e1e6"), 400);
        // A red cannon behind the rook has no screen once the rook has gone.
        assert_eq!(value("3kr4/9/9/4n4/9/9/9/9/4R4/4CK3 w", "e1e6"), 400 - 900);
    }

    #[test]
    fn horse_legs_and_elephant_eyes() {
        // The black horse on g7 defends e6 (its leg f7 is empty) ...
        assert_eq!(value("4k4/9/6n2/4p4/9/9/9/9/4R4/5K3 w", "e1e6"), 100 - 900);
        // ... not with an advisor on f7.
        assert_eq!(value("4k4/9/5an2/4p4/9/9/9/9/4R4/5K3 w", "e1e6"), 100);
        // The elephant on c9 defends e7 over its eye d8 ...
        assert_eq!(value("2b1k4/9/4n4/9/9/9/9/9/4R4/5K3 w", "e1e7"), 400 - 900);
        // ... not with a horse on d8.
        assert_eq!(value("2b1k4/3n5/4n4/9/9/9/9/9/4R4/5K3 w", "e1e7"), 400);
    }

    /// The exchange on the real board: each side recaptures on `to` with its least valuable
    /// piece (the best of several of that value) or stops. Pseudo-legal, as SEE is.
    fn reference_after(pos: &mut Position, to: crate::board::Square) -> i32 {
        let mut list = crate::board::MoveList::new();
        pos.generate_pseudo(crate::board::GenKind::Captures, &mut list);
        let value =
            |pos: &Position, m: Move| SEE_VALUE[pos.piece_at(m.from()).unwrap().kind().index()];
        let onto: Vec<(Move, i32)> = list
            .iter()
            .filter(|m| m.to() == to)
            .map(|&m| (m, value(pos, m)))
            .collect();
        let Some(least) = onto.iter().map(|&(_, v)| v).min() else {
            return 0;
        };
        let victim = SEE_VALUE[pos.piece_at(to).unwrap().kind().index()];
        let mut best = 0;
        for &(m, _) in onto.iter().filter(|&&(_, v)| v == least) {
            pos.make_move(m);
            best = best.max(victim - reference_after(pos, to));
            pos.unmake_move();
        }
        best
    }

    #[test]
    fn agrees_with_the_exchange_played_out_on_the_board() {
        let fens = crate::bench::parse_fens(crate::bench::BENCH_FENS);
        let mut seed = 12345u64;
        let mut checked = 0;
        for fen in fens {
            let mut pos = Position::from_fen(fen).expect("bench FEN");
            for _ in 0..12 {
                let mut list = crate::board::MoveList::new();
                pos.generate_pseudo(crate::board::GenKind::Captures, &mut list);
                for &m in list.iter() {
                    if pos
                        .piece_at(m.to())
                        .is_some_and(|p| p.kind() == PieceKind::General)
                    {
                        continue;
                    }
                    let gain = value_on(&pos, m.to().index());
                    pos.make_move(m);
                    let expected = gain - reference_after(&mut pos, m.to());
                    pos.unmake_move();
                    assert_eq!(see_value(&pos, m), expected, "{} {m}", pos.to_fen());
                    checked += 1;
                }
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                pos.make_move(legal[(seed >> 33) as usize % legal.len()]);
            }
        }
        assert!(checked > 1000, "{checked}");
    }

    #[test]
    fn general_recaptures_only_when_safe() {
        // The general retakes on e8 when no red piece can take it back ...
        assert_eq!(value("4k4/4a4/9/9/9/9/9/9/4R4/5K3 w", "e1e8"), 120 - 900);
        // ... and not with a second red rook behind the first.
        assert_eq!(value("4k4/4a4/9/9/9/9/9/9/4R4/4RK3 w", "e1e8"), 120);
    }
}
