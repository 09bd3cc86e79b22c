//! Engine-to-GUI lines, formatted for the dialect in use.

use super::command::Dialect;
use crate::board::{format_move, Move, RankBase};
use crate::search::score::mate_plies;

/// One `info` line about a completed iteration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InfoLine {
    /// Iteration depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Score from the side to move's view (mate = 30000 - plies).
    pub score: i32,
    /// Milliseconds since `go`.
    pub time_ms: u64,
    /// Nodes, all threads.
    pub nodes: u64,
    /// Table use, per mille.
    pub hashfull: u32,
    /// Principal variation.
    pub pv: Vec<Move>,
    /// The line's rank with MultiPV above 1 (`multipv i`), else `None` (no field).
    pub multipv: Option<usize>,
    /// Per-mille win, draw, loss (`wdl W D L`, UCI_ShowWDL), else `None`.
    pub wdl: Option<(u32, u32, u32)>,
    /// Endgame-table probes the search took (`tbhits N`) when tables are in use.
    pub tbhits: Option<u64>,
}

/// The score field: UCCI prints the integer (mate = +-(30000 - plies)); UCI prints `cp` or
/// `mate` in moves (negative when mated); CECP prints centipawns, or 100000 + N for a mate in
/// N moves and -100000 - N for being mated in N.
pub fn format_score(dialect: Dialect, score: i32) -> String {
    match dialect {
        Dialect::Ucci => format!("score {score}"),
        Dialect::Cecp => match mate_plies(score) {
            Some(plies) if plies > 0 => format!("{}", 100_000 + (plies + 1) / 2),
            Some(plies) => format!("{}", -100_000 - (-plies + 1) / 2),
            None => format!("{score}"),
        },
        Dialect::Uci => match mate_plies(score) {
            Some(plies) if plies > 0 => format!("score mate {}", (plies + 1) / 2),
            Some(plies) => format!("score mate -{}", (-plies + 1) / 2),
            None => format!("score cp {score}"),
        },
    }
}

/// `info depth D seldepth S [multipv I] score X [wdl W D L] time T nodes N nps P hashfull H
/// pv ...`; in CECP the thinking line `ply score time nodes pv` (time in centiseconds).
pub fn format_info(dialect: Dialect, info: &InfoLine, rank_base: RankBase) -> String {
    if dialect == Dialect::Cecp {
        let mut line = format!(
            "{} {} {} {}",
            info.depth,
            format_score(dialect, info.score),
            info.time_ms / 10,
            info.nodes
        );
        for &m in &info.pv {
            line.push(' ');
            line.push_str(&format_move(m, rank_base));
        }
        return line;
    }
    let nps = info.nodes.saturating_mul(1000) / info.time_ms.max(1);
    let multipv = info
        .multipv
        .map_or(String::new(), |i| format!(" multipv {i}"));
    let wdl = info
        .wdl
        .map_or(String::new(), |(w, d, l)| format!(" wdl {w} {d} {l}"));
    let mut line = format!(
        "info depth {} seldepth {}{multipv} {}{wdl} time {} nodes {} nps {} hashfull {}",
        info.depth,
        info.seldepth,
        format_score(dialect, info.score),
        info.time_ms,
        info.nodes,
        nps,
        info.hashfull
    );
    if let Some(hits) = info.tbhits {
        line.push_str(&format!(" tbhits {hits}"));
    }
    if !info.pv.is_empty() {
        line.push_str(" pv");
        for &m in &info.pv {
            line.push(' ');
            line.push_str(&format_move(m, rank_base));
        }
    }
    line
}

/// `bestmove m [ponder p] [draw|resign]`, or `nobestmove` (UCCI) / `bestmove (none)` (UCI);
/// in CECP `move m`.
pub fn format_bestmove(
    dialect: Dialect,
    best: Option<Move>,
    ponder: Option<Move>,
    rank_base: RankBase,
    draw: bool,
    resign: bool,
) -> String {
    let Some(best) = best else {
        return match dialect {
            Dialect::Ucci => "nobestmove".to_string(),
            Dialect::Uci => "bestmove (none)".to_string(),
            Dialect::Cecp => "Error (no legal move): go".to_string(),
        };
    };
    if dialect == Dialect::Cecp {
        return format!("move {}", format_move(best, rank_base));
    }
    let mut line = format!("bestmove {}", format_move(best, rank_base));
    if let Some(p) = ponder {
        line.push_str(&format!(" ponder {}", format_move(p, rank_base)));
    }
    if dialect == Dialect::Ucci {
        if draw {
            line.push_str(" draw");
        } else if resign {
            line.push_str(" resign");
        }
    }
    line
}

/// B*'s root bounds: `info string bstar proven|open bounds <move> <pessimistic> <optimistic>
/// ...` (scores as in UCCI, from the side to move's view).
pub fn format_bounds(bounds: &[(Move, i32, i32)], proven: bool, rank_base: RankBase) -> String {
    let mut line = format!(
        "info string bstar {} bounds",
        if proven { "proven" } else { "open" }
    );
    for &(m, lo, hi) in bounds {
        line.push_str(&format!(" {} {lo} {hi}", format_move(m, rank_base)));
    }
    line
}

/// `info string error: <message>`.
pub fn format_error(message: &str) -> String {
    format!("info string error: {message}")
}
