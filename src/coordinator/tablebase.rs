//! Endgame tables at the coordinator: opening them (`EGTBPath`), answering a covered root at
//! once, and reporting a table that turned out corrupt.

use super::Coordinator;
use crate::board::{format_move, Move, MoveList};
use crate::egtb::{Outcome, Tablebases};
use crate::protocol::Dialect;
use crate::search::score::MATE;
use std::io::Write;
use std::path::Path;
use std::sync::Arc;

/// The longest line printed as a principal variation.
const MAX_LINE: usize = 400;

impl<W: Write> Coordinator<W> {
    /// The tables the next search probes.
    pub(super) fn tablebases_in_use(&self) -> Option<Arc<Tablebases>> {
        self.tablebases.clone().filter(|_| self.options.use_egtb)
    }

    /// Opens the tables of `egtb_path` (empty: none). Each file that cannot be used gets one
    /// error line; the rest are used.
    pub(super) fn open_tablebases(&mut self) {
        self.tablebases = None;
        if self.options.egtb_path.is_empty() {
            return;
        }
        let path = self.options.egtb_path.clone();
        let (set, errors) = Tablebases::open_dir(Path::new(&path));
        for e in errors {
            self.error(&e);
        }
        if self.dialect != Some(Dialect::Cecp) {
            self.line(&format!(
                "info string {} endgame tables in {path}",
                set.len()
            ));
        }
        if !set.is_empty() {
            self.tablebases = Some(Arc::new(set));
        }
    }

    /// Error lines for tables found corrupt while probing (each table once, then unused), and
    /// for embedded bitbases the evaluation refused.
    pub(super) fn report_tablebase_errors(&mut self) {
        let mut errors = crate::eval::bitbase::take_errors();
        if let Some(t) = &self.tablebases {
            errors.extend(t.take_errors());
        }
        for e in errors {
            self.error(&e);
        }
    }

    /// Answers at once when a table covers the root: the best move (the shortest win, the
    /// longest resistance, or a move that holds the draw) with its distance to mate and the
    /// line to mate. Returns false when no table covers it, when the draw may hang on
    /// perpetual check (a move into a rule draw), or when the best moves return to a position
    /// of this game (the search then judges them under the full rules).
    pub(super) fn play_from_tablebases(&mut self, legal: &MoveList) -> bool {
        let Some(tables) = self.tablebases_in_use() else {
            return false;
        };
        let mut pos = self.position.clone();
        let Some(mut ranked) = tables.rank_moves(&mut pos) else {
            return false;
        };
        ranked.retain(|r| legal.contains(r.mv));
        // The tables know nothing of the game's history: a move back into a position of
        // this game could complete a repetition, which the referee may rule against the
        // mover. Such moves are left out; if none is left, the search decides.
        let seen: Vec<u64> = pos.history().iter().map(|u| u.key).collect();
        let best_before = ranked.first().map(|r| r.outcome.wdl());
        ranked.retain(|r| !seen.contains(&pos.key_after(r.mv)));
        if ranked.first().map(|r| r.outcome.wdl()) != best_before {
            return false;
        }
        // A draw is answered only when no move leads into a draw that hangs on perpetual
        // check: such a move may win by the rule, which the search judges.
        let Some(best) = ranked.first() else {
            return false;
        };
        if best.outcome.wdl() == 0 && ranked.iter().any(|r| r.outcome == Outcome::RuleDraw) {
            return false;
        }
        let dialect = self.dialect.unwrap_or(Dialect::Ucci);
        let base = self.rank_base();
        let shown = if dialect == Dialect::Cecp {
            1
        } else {
            self.options.multipv.min(ranked.len())
        };
        let mut best_line = Vec::new();
        for (i, r) in ranked.iter().take(shown).enumerate() {
            let mut line = vec![r.mv];
            if !matches!(r.outcome, Outcome::Draw | Outcome::RuleDraw) {
                let mut child = pos.clone();
                child.make_move(r.mv);
                line.extend(tables.line(&child, MAX_LINE));
            }
            let depth = line.len().max(1);
            let text = info_line(
                dialect,
                r.outcome,
                depth,
                &line,
                base,
                (shown > 1).then_some(i + 1),
            );
            self.line(&text);
            if i == 0 {
                best_line = line;
            }
        }
        let best: Option<Move> = best_line.first().copied();
        self.print_final(best, best_line.get(1).copied(), false);
        true
    }
}

/// The `info` line (or CECP thinking line) of a table verdict.
fn info_line(
    dialect: Dialect,
    outcome: Outcome,
    depth: usize,
    line: &[Move],
    base: crate::board::RankBase,
    multipv: Option<usize>,
) -> String {
    let (plies, sign) = match outcome {
        Outcome::Win(n) => (n as i32, 1),
        Outcome::Loss(n) => (n as i32, -1),
        Outcome::Draw | Outcome::RuleDraw => (0, 0),
    };
    let moves = (plies + 1) / 2;
    let pv: Vec<String> = line.iter().map(|&m| format_move(m, base)).collect();
    let pv = pv.join(" ");
    match dialect {
        Dialect::Cecp => {
            let score = match sign {
                1 => 100_000 + moves,
                -1 => -100_000 - moves,
                _ => 0,
            };
            format!("{depth} {score} 0 0 {pv}")
        }
        Dialect::Ucci | Dialect::Uci => {
            let score = match (dialect, sign) {
                (Dialect::Ucci, 0) | (Dialect::Uci, 0) => {
                    if dialect == Dialect::Uci {
                        "score cp 0".to_string()
                    } else {
                        "score 0".to_string()
                    }
                }
                (Dialect::Ucci, s) => format!("score {}", s * (MATE - plies)),
                (_, s) => format!("score mate {}", s * moves),
            };
            let multipv = multipv.map_or(String::new(), |i| format!(" multipv {i}"));
            format!("info depth {depth} seldepth {depth}{multipv} {score} time 0 nodes 0 tbhits 1 pv {pv}")
        }
    }
}
