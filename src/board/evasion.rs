//! Check evasions: in check, only moves that capture a checker, block it (for a horse, occupy
//! its leg), move a cannon's own screen away, or move the general can be legal. Filtering by
//! that before the full legality test keeps evasion generation cheap.

use super::attacks::{HORSE_ATTACKERS, SOLDIER_ATTACKERS};
use super::moves::MoveList;
use super::piece::{Piece, PieceKind};
use super::position::{Position, EMPTY};
use super::square::FILES;

/// One checker's resolution: the move lands on `to_any`, or starts from `from_any`.
#[derive(Copy, Clone, Default)]
struct Resolution {
    to_any: u128,
    from_any: u128,
}

/// Squares strictly between two squares on one line, and the pieces on them.
fn between(a: usize, b: usize) -> u128 {
    let (lo, hi) = (a.min(b), a.max(b));
    let step = if lo / FILES == hi / FILES { 1 } else { FILES };
    let mut mask = 0u128;
    let mut s = lo + step;
    while s < hi {
        mask |= 1u128 << s;
        s += step;
    }
    mask
}

impl Position {
    /// The ways to answer each piece giving check (at most a handful).
    fn check_resolutions(&self, out: &mut [Resolution; 6]) -> usize {
        let us = self.side;
        let them = us.flip();
        let g = self.generals[us.index()] as usize;
        let mut n = 0;
        let mut push = |r: Resolution| {
            if n < out.len() {
                out[n] = r;
                n += 1;
            }
        };
        let rook = Piece::new(them, PieceKind::Rook).code() as u8;
        let cannon = Piece::new(them, PieceKind::Cannon).code() as u8;
        let general = Piece::new(them, PieceKind::General).code() as u8;
        // Walk the four lines from the general: first and second pieces decide.
        let (gf, gr) = (g % FILES, g / FILES);
        let lines: [(isize, usize); 4] = [
            (1, FILES - 1 - gf),
            (-1, gf),
            (FILES as isize, 9 - gr),
            (-(FILES as isize), gr),
        ];
        for (step, len) in lines {
            let mut first: Option<usize> = None;
            let mut s = g as isize;
            for _ in 0..len {
                s += step;
                let sq = s as usize;
                let p = self.board[sq];
                if p == EMPTY {
                    continue;
                }
                match first {
                    None => {
                        let on_file = step.unsigned_abs() == FILES;
                        if p == rook || (on_file && p == general) {
                            push(Resolution {
                                to_any: between(g, sq) | (1u128 << sq),
                                from_any: 0,
                            });
                        }
                        first = Some(sq);
                    }
                    Some(screen) => {
                        if p == cannon {
                            let own_screen = (self.color_bb[us.index()] >> screen) & 1 == 1;
                            push(Resolution {
                                to_any: (between(g, sq) & !(1u128 << screen)) | (1u128 << sq),
                                from_any: if own_screen { 1u128 << screen } else { 0 },
                            });
                        }
                        break;
                    }
                }
            }
        }
        let horse = Piece::new(them, PieceKind::Horse).code() as u8;
        let a = &HORSE_ATTACKERS[g];
        for i in 0..a.len as usize {
            let h = a.to[i] as usize;
            let leg = a.block[i] as usize;
            if self.board[h] == horse && self.board[leg] == EMPTY {
                push(Resolution {
                    to_any: (1u128 << h) | (1u128 << leg),
                    from_any: 0,
                });
            }
        }
        let soldier = Piece::new(them, PieceKind::Soldier).code() as u8;
        let a = &SOLDIER_ATTACKERS[them.index()][g];
        for i in 0..a.len as usize {
            let s = a.to[i] as usize;
            if self.board[s] == soldier {
                push(Resolution {
                    to_any: 1u128 << s,
                    from_any: 0,
                });
            }
        }
        n
    }

    /// Keeps the legal evasions among pseudo-legal moves (the side to move is in check).
    pub(crate) fn filter_evasions(&mut self, pseudo: &MoveList, list: &mut MoveList) {
        let mut res = [Resolution::default(); 6];
        let n = self.check_resolutions(&mut res);
        let g = self.generals[self.side.index()] as usize;
        for &m in pseudo.iter() {
            let from = m.from().index();
            let to = m.to().index();
            let candidate = from == g
                || res[..n]
                    .iter()
                    .all(|r| (r.to_any >> to) & 1 == 1 || (r.from_any >> from) & 1 == 1);
            if candidate && self.leaves_general_safe(m) {
                list.push(m);
            }
        }
    }
}
