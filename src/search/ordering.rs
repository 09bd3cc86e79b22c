//! Move ordering by stages: the transposition-table move, then captures by MVV-LVA, killers,
//! the counter-move, then quiet moves by history, then (with SEE on) the captures that lose
//! material by static exchange, held back from the capture stage. Each stage is generated only when the ones
//! before it did not cut off, and legality is tested only for the moves actually handed out:
//! most nodes cut off early, so most moves are never generated, scored or verified.

use super::config::SearchConfig;
use super::heuristics::{Heuristics, NO_CONT};
use super::see::see_ge;
use crate::board::movegen::{GenKind, LegalityInfo};
use crate::board::{Move, MoveList, Piece, PieceKind, Position, MAX_MOVES};
use arrayvec::ArrayVec;

const KILLER_0: i32 = 1_000_000;
const KILLER_1: i32 = 999_000;
const COUNTER: i32 = 998_000;
const CAPTURE: i32 = 2_000_000;

/// Ordering value of a victim (MVV) by kind; the general never is one in legal play.
const VICTIM: [i32; 7] = [1000, 20, 20, 45, 90, 50, 15];
/// Attacker rank (LVA): cheaper attackers first.
const ATTACKER: [i32; 7] = [6, 2, 2, 3, 5, 4, 1];

/// Quiet moves picked best-first before the rest are sorted once: cut nodes rarely get further.
const SELECTION_PICKS: usize = 4;

/// Where the ordering hints for one node come from.
pub struct OrderingHints {
    /// Best move stored in the transposition table for this node (already pseudo-legal).
    pub tt_move: Move,
    /// Killer moves at this ply.
    pub killers: [Move; 2],
    /// The refutation recorded for the opponent's last move.
    pub counter: Move,
    /// Continuation-history keys of the moves one and two plies back (`NO_CONT`: none).
    pub cont: [usize; 2],
}

/// MVV-LVA value of a capture (higher first).
#[inline]
pub fn mvv_lva(pos: &Position, m: Move) -> i32 {
    let victim = pos.piece_at(m.to()).map_or(0, |p| VICTIM[p.kind().index()]);
    let attacker = pos
        .piece_at(m.from())
        .map_or(0, |p| ATTACKER[p.kind().index()]);
    victim * 8 - attacker
}

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Stage {
    TtMove,
    GenCaptures,
    Captures,
    Killer0,
    Killer1,
    Counter,
    GenQuiets,
    Quiets,
    BadCaptures,
    GenAll,
    All,
    Done,
}

/// Hands out the legal moves of a node, best first.
pub struct MovePicker {
    stage: Stage,
    tt_move: Move,
    killers: [Move; 2],
    counter: Move,
    /// Continuation-history keys of the previous two moves.
    cont: [usize; 2],
    /// Captures only (quiescence): the picker stops after the capture stage.
    captures_only: bool,
    in_check: bool,
    moves: MoveList,
    scores: ArrayVec<i32, MAX_MOVES>,
    next: usize,
    /// Moves of the current stage handed out by selection so far.
    picked: usize,
    legality: Option<LegalityInfo>,
    /// Legal moves handed out so far.
    yielded: usize,
    /// Hold captures that lose material by SEE back until after the quiet moves.
    see: bool,
    /// The captures held back, in the order the capture stage met them.
    bad_captures: ArrayVec<Move, MAX_MOVES>,
}

impl MovePicker {
    /// A picker for a main-search node. With capture ordering off (ablation), every move is
    /// generated at once and scored as one list, which with every switch off is generation
    /// order.
    pub fn new(pos: &Position, hints: &OrderingHints, config: &SearchConfig) -> MovePicker {
        let in_check = pos.in_check();
        let staged = config.capture_ordering && !in_check;
        let mut picker = MovePicker::empty(in_check);
        picker.tt_move = if config.tt_move {
            hints.tt_move
        } else {
            Move::NONE
        };
        if config.killers {
            picker.killers = hints.killers;
        }
        if config.counter_move {
            picker.counter = hints.counter;
        }
        if config.cont_history {
            picker.cont = hints.cont;
        }
        picker.see = config.see;
        picker.stage = match (picker.tt_move.is_none(), staged) {
            (false, _) => Stage::TtMove,
            (true, true) => Stage::GenCaptures,
            (true, false) => Stage::GenAll,
        };
        picker
    }

    /// Captures only, by MVV-LVA (quiescence, not in check).
    pub fn captures(pos: &Position) -> MovePicker {
        debug_assert!(!pos.in_check());
        let mut picker = MovePicker::empty(false);
        picker.captures_only = true;
        picker.stage = Stage::GenCaptures;
        picker
    }

    /// Every evasion (quiescence in check), ordered as in the main search without a TT move.
    pub fn evasions(pos: &Position, killers: [Move; 2], config: &SearchConfig) -> MovePicker {
        debug_assert!(pos.in_check());
        let mut picker = MovePicker::empty(true);
        if config.killers {
            picker.killers = killers;
        }
        picker.stage = Stage::GenAll;
        picker
    }

    fn empty(in_check: bool) -> MovePicker {
        MovePicker {
            stage: Stage::Done,
            tt_move: Move::NONE,
            killers: [Move::NONE; 2],
            counter: Move::NONE,
            cont: [NO_CONT; 2],
            captures_only: false,
            in_check,
            moves: MoveList::new(),
            scores: ArrayVec::new(),
            next: 0,
            picked: 0,
            legality: None,
            yielded: 0,
            see: false,
            bad_captures: ArrayVec::new(),
        }
    }

    /// Legal moves handed out so far (0 after exhaustion means mate or stalemate).
    pub fn yielded(&self) -> usize {
        self.yielded
    }

    /// The next legal move, or `None` when the node has no more.
    pub fn next_move(
        &mut self,
        pos: &mut Position,
        heur: &Heuristics,
        config: &SearchConfig,
    ) -> Option<Move> {
        loop {
            let candidate = match self.stage {
                Stage::TtMove => {
                    self.stage = if config.capture_ordering && !self.in_check {
                        Stage::GenCaptures
                    } else {
                        Stage::GenAll
                    };
                    self.tt_move
                }
                Stage::GenCaptures => {
                    pos.generate_pseudo(GenKind::Captures, &mut self.moves);
                    for &m in self.moves.iter() {
                        let s = if !config.capture_ordering {
                            0
                        } else if config.capture_history {
                            mvv_lva(pos, m) * 16 + heur.capture_history(pos, m) / 4
                        } else {
                            mvv_lva(pos, m)
                        };
                        self.scores.push(s);
                    }
                    self.start_stage(Stage::Captures);
                    continue;
                }
                Stage::Captures => match self.select() {
                    Some(m) if m != self.tt_move => {
                        if self.see && !see_ge(pos, m, 0) {
                            self.bad_captures.push(m);
                            continue;
                        }
                        m
                    }
                    Some(_) => continue,
                    None => {
                        self.stage = if self.captures_only {
                            Stage::Done
                        } else {
                            Stage::Killer0
                        };
                        continue;
                    }
                },
                Stage::Killer0 => {
                    self.stage = Stage::Killer1;
                    self.quiet_hint(pos, self.killers[0], true)
                }
                Stage::Killer1 => {
                    self.stage = Stage::Counter;
                    let m = self.killers[1];
                    self.quiet_hint(pos, m, m != self.killers[0])
                }
                Stage::Counter => {
                    self.stage = Stage::GenQuiets;
                    let m = self.counter;
                    let fresh = m != self.killers[0] && m != self.killers[1];
                    self.quiet_hint(pos, m, fresh)
                }
                Stage::GenQuiets => {
                    self.moves.clear();
                    self.scores.clear();
                    pos.generate_pseudo(GenKind::Quiets, &mut self.moves);
                    for &m in self.moves.iter() {
                        self.scores
                            .push(quiet_score(pos, m, heur, config, self.cont));
                    }
                    self.start_stage(Stage::Quiets);
                    continue;
                }
                Stage::Quiets => match self.select_sorted() {
                    Some(m) => {
                        if m == self.tt_move || self.killers.contains(&m) || m == self.counter {
                            continue;
                        }
                        m
                    }
                    None => {
                        self.start_stage(Stage::BadCaptures);
                        continue;
                    }
                },
                Stage::BadCaptures => match self.bad_captures.get(self.next) {
                    Some(&m) => {
                        self.next += 1;
                        m
                    }
                    None => {
                        self.stage = Stage::Done;
                        continue;
                    }
                },
                Stage::GenAll => {
                    if self.in_check {
                        pos.generate_evasions(&mut self.moves);
                    } else {
                        pos.generate_pseudo(GenKind::All, &mut self.moves);
                    }
                    for &m in self.moves.iter() {
                        let s = self.scored_all(pos, m, heur, config);
                        self.scores.push(s);
                    }
                    self.start_stage(Stage::All);
                    continue;
                }
                Stage::All => match self.select() {
                    Some(m) if m != self.tt_move => {
                        if self.in_check {
                            // Evasions come out of the generator already legal.
                            self.yielded += 1;
                            return Some(m);
                        }
                        m
                    }
                    Some(_) => continue,
                    None => {
                        self.stage = Stage::Done;
                        continue;
                    }
                },
                Stage::Done => return None,
            };
            if !candidate.is_none() && self.is_legal(pos, candidate) {
                self.yielded += 1;
                return Some(candidate);
            }
        }
    }

    /// A killer or counter-move worth trying here: new, not the TT move, a quiet move that is
    /// pseudo-legal in this position. `Move::NONE` means skip it.
    #[inline]
    fn quiet_hint(&self, pos: &Position, m: Move, fresh: bool) -> Move {
        if fresh && m != self.tt_move && pos.is_pseudo_legal(m) && !pos.is_capture(m) {
            m
        } else {
            Move::NONE
        }
    }

    fn start_stage(&mut self, stage: Stage) {
        self.stage = stage;
        self.next = 0;
        self.picked = 0;
    }

    /// Legality of a pseudo-legal move, with this node's pin facts computed on first use.
    #[inline]
    fn is_legal(&mut self, pos: &mut Position, m: Move) -> bool {
        if self.in_check {
            return pos.is_legal_pseudo(m);
        }
        let info = match self.legality {
            Some(info) => info,
            None => {
                let info = pos.legality_info();
                self.legality = Some(info);
                info
            }
        };
        pos.is_legal_with(m, &info)
    }

    /// Ordering value in the one-list mode (in check, or capture ordering switched off).
    fn scored_all(&self, pos: &Position, m: Move, heur: &Heuristics, config: &SearchConfig) -> i32 {
        if pos.is_capture(m) {
            if config.capture_ordering {
                CAPTURE + mvv_lva(pos, m)
            } else {
                0
            }
        } else if m == self.killers[0] {
            KILLER_0
        } else if m == self.killers[1] {
            KILLER_1
        } else if m == self.counter {
            COUNTER
        } else {
            quiet_score(pos, m, heur, config, self.cont)
        }
    }

    /// The best remaining move of the stage (first of equals), by selection.
    #[inline]
    fn select(&mut self) -> Option<Move> {
        let n = self.moves.len();
        if self.next >= n {
            return None;
        }
        let mut best = self.next;
        let mut best_score = self.scores[best];
        for (i, &s) in self.scores[..n].iter().enumerate().skip(self.next + 1) {
            if s > best_score {
                best = i;
                best_score = s;
            }
        }
        self.moves.as_mut_slice().swap(self.next, best);
        self.scores.swap(self.next, best);
        let m = self.moves[self.next];
        self.next += 1;
        Some(m)
    }

    /// Selection for the first few picks, then one stable sort of what is left.
    #[inline]
    fn select_sorted(&mut self) -> Option<Move> {
        if self.picked < SELECTION_PICKS {
            self.picked += 1;
            let m = self.select();
            if self.picked == SELECTION_PICKS {
                self.sort_rest();
            }
            return m;
        }
        let m = self.moves.as_slice().get(self.next).copied();
        self.next += 1;
        m
    }

    /// Sorts the moves not handed out yet by score, descending and stable (equal scores keep
    /// their order). Each move's score, position and index pack into one key, so one
    /// branch-light unstable sort of integers gives the stable order.
    fn sort_rest(&mut self) {
        let start = self.next;
        let n = self.moves.len();
        if start + 1 >= n {
            return;
        }
        let moves = &mut self.moves.as_mut_slice()[start..n];
        let scores = &self.scores[start..n];
        // Collected rather than zeroed first: zeroing MAX_MOVES keys at every sort showed in
        // profiles.
        let mut keys: ArrayVec<u64, MAX_MOVES> = scores
            .iter()
            .enumerate()
            .map(|(i, &s)| {
                // Flipping the sign bit orders i32 as u32; a lower index ranks higher among
                // equals.
                let rank = (s as u32 ^ 0x8000_0000) as u64;
                (rank << 32) | ((MAX_MOVES - 1 - i) as u64)
            })
            .collect();
        keys.sort_unstable_by(|a, b| b.cmp(a));
        let old: ArrayVec<Move, MAX_MOVES> = moves.iter().copied().collect();
        let scores = &mut self.scores[start..n];
        for ((m, s), key) in moves.iter_mut().zip(scores.iter_mut()).zip(keys.iter()) {
            *m = old[MAX_MOVES - 1 - (*key as u32 as usize)];
            *s = ((*key >> 32) as u32 ^ 0x8000_0000) as i32;
        }
    }
}

/// History value of a quiet move (0 with history off), plus its continuation histories after
/// the previous two moves (`cont` is `NO_CONT` when those are off).
#[inline]
fn quiet_score(
    pos: &Position,
    m: Move,
    heur: &Heuristics,
    config: &SearchConfig,
    cont: [usize; 2],
) -> i32 {
    if config.history {
        let piece = pos
            .piece_at(m.from())
            .unwrap_or(Piece::new(pos.side_to_move(), PieceKind::General));
        heur.quiet(piece, m, cont)
    } else {
        0
    }
}
