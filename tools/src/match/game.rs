//! Plays one game between two engines under the referee's eye.

use super::adjudication::{DrawRule, ResignRule, ScoreHistory};
use super::client::player::Player;
use super::client::protocol::{go_line, BestMove, GoLimit, Protocol};
use super::client::spec::EngineSpec;
use super::clock::{Charge, Clock, Limit};
use super::referee::{self, Outcome};
use super::termination::Termination;
use crate::common::openings::Opening;
use crate::common::process::EngineError;
use pao::board::{format_move, parse_move, Color, Move, MoveTextError, Position, RankBase};
use std::time::{Duration, Instant};

/// Settings shared by every game of a match.
#[derive(Clone, Debug)]
pub struct GameConfig {
    /// The search limit or clock of every engine without one of its own.
    pub limit: Limit,
    /// Grace beyond the clock before a move counts as a time forfeit, ms.
    pub margin_ms: u64,
    /// For depth/node limits: how long a move may take before the engine counts as hung, ms.
    pub move_timeout_ms: u64,
    /// Startup/handshake/isready timeout, ms.
    pub handshake_timeout_ms: u64,
    /// Plies after which the game is drawn (a safety net).
    pub max_plies: usize,
    /// Optional resign adjudication.
    pub resign: Option<ResignRule>,
    /// Optional draw adjudication.
    pub draw: Option<DrawRule>,
}

/// A finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// Red's name.
    pub red: String,
    /// Black's name.
    pub black: String,
    /// The limits Red and Black played by (they differ with time odds).
    pub limits: [Limit; 2],
    /// How the game started.
    pub opening: Opening,
    /// The engines' moves after the opening.
    pub moves: Vec<Move>,
    /// One comment per engine move (`+0.25/12 0.512s`).
    pub comments: Vec<String>,
    /// Result.
    pub outcome: Outcome,
    /// How the game ended, from the fixed list.
    pub termination: Termination,
    /// Why the game ended, in full: the termination's name, then details (the engine at
    /// fault, the move, the time).
    pub reason: String,
}

/// The `position` line: UCCI gets the FEN after the last capture plus the moves since (as the
/// spec asks); UCI gets the whole game from its start.
fn position_line(
    proto: Protocol,
    base: RankBase,
    start_fen: &str,
    irreversible: &(String, usize),
    all_moves: &[Move],
) -> String {
    let (fen, from) = match proto {
        Protocol::Ucci => (irreversible.0.as_str(), irreversible.1),
        Protocol::Uci => (start_fen, 0),
    };
    let mut s = if fen == pao::board::START_FEN {
        "position startpos".to_string()
    } else {
        format!("position fen {fen}")
    };
    if from < all_moves.len() {
        s.push_str(" moves");
        for &m in &all_moves[from..] {
            s.push(' ');
            s.push_str(&format_move(m, base));
        }
    }
    s
}

fn comment(info: &super::client::protocol::Info, used_ms: u64) -> String {
    let secs = format!("{}.{:03}s", used_ms / 1000, used_ms % 1000);
    match (info.score, info.depth) {
        (Some(s), Some(d)) => format!("{}/{d} {secs}", s.pgn()),
        (Some(s), None) => format!("{} {secs}", s.pgn()),
        _ => secs,
    }
}

/// Plays `opening` with `red` and `black` (each with its detected protocol).
pub fn play_game(
    red: (&EngineSpec, Protocol),
    black: (&EngineSpec, Protocol),
    opening: &Opening,
    cfg: &GameConfig,
) -> Result<GameRecord, String> {
    let own_limit = |spec: &EngineSpec| spec.limit.clone().unwrap_or_else(|| cfg.limit.clone());
    let mut record = GameRecord {
        red: red.0.name.clone(),
        black: black.0.name.clone(),
        limits: [own_limit(red.0), own_limit(black.0)],
        opening: opening.clone(),
        moves: Vec::new(),
        comments: Vec::new(),
        outcome: Outcome::Draw,
        termination: Termination::StartFailure,
        reason: String::new(),
    };
    let hs = Duration::from_millis(cfg.handshake_timeout_ms);
    let mut players: Vec<Player> = Vec::with_capacity(2);
    for (color, (spec, proto)) in [(Color::Red, red), (Color::Black, black)] {
        match Player::start(spec, proto, hs).and_then(|mut p| {
            p.new_game(hs)
                .map_err(|e| format!("{} newgame: {e}", spec.name))?;
            Ok(p)
        }) {
            Ok(p) => players.push(p),
            Err(e) => {
                record.outcome = Outcome::loss_for(color);
                record.reason = format!("start failure ({e}) by {}", spec.name);
                return Ok(record);
            }
        }
    }
    let (outcome, termination, reason) = run(&mut players, &mut record, cfg)?;
    record.outcome = outcome;
    record.termination = termination;
    record.reason = reason;
    for p in players {
        p.quit();
    }
    Ok(record)
}

fn run(
    players: &mut [Player],
    record: &mut GameRecord,
    cfg: &GameConfig,
) -> Result<(Outcome, Termination, String), String> {
    let mut pos = record.opening.position()?;
    let start_fen = record.opening.fen.clone();
    let mut all_moves: Vec<Move> = record.opening.moves.clone();
    // The last irreversible position: recomputed over the opening moves.
    let mut irreversible = (start_fen.clone(), 0usize);
    {
        let mut replay = Position::from_fen(&start_fen).map_err(|e| e.to_string())?;
        for (i, &m) in all_moves.iter().enumerate() {
            let capture = replay.is_capture(m);
            replay.make_move(m);
            if capture {
                irreversible = (replay.to_fen(), i + 1);
            }
        }
    }
    // Each side's clock runs by its own control; a side searching by depth, nodes or a fixed
    // time per move has none.
    let mut clocks = record.limits.clone().map(|limit| match limit {
        Limit::Clock {
            moves,
            base_ms,
            inc_ms,
        } => Some(Clock::new(moves, base_ms, inc_ms)),
        _ => None,
    });
    let mut scores = ScoreHistory::default();
    loop {
        if let Some((outcome, termination)) = referee::game_over(&mut pos) {
            return Ok((outcome, termination, termination.name().to_string()));
        }
        if record.moves.len() >= cfg.max_plies {
            let why = format!("ply limit ({} plies played)", cfg.max_plies);
            return Ok((Outcome::Draw, Termination::PlyLimit, why));
        }
        let side = pos.side_to_move();
        let name = if side == Color::Red {
            &record.red
        } else {
            &record.black
        };
        // A fault of the engine to move: it loses; the reason names it.
        let loss = |termination: Termination, detail: String| {
            let why = format!("{}{detail} by {name}", termination.name());
            Ok((Outcome::loss_for(side), termination, why))
        };
        let player = &mut players[side.index()];
        let limit = match (&clocks[side.index()], &record.limits[side.index()]) {
            (Some(own), _) => GoLimit::Clocks {
                own,
                opp: clocks[side.flip().index()].as_ref(),
                red_to_move: side == Color::Red,
            },
            (None, Limit::MoveTime(ms)) => GoLimit::MoveTime(*ms),
            (None, Limit::Depth(d)) => GoLimit::Depth(*d),
            (None, Limit::Nodes(n)) => GoLimit::Nodes(*n),
            (None, Limit::Clock { .. }) => return Err("clock limit without clocks".to_string()),
        };
        // How long to wait for the move, and whether going over it is a time forfeit.
        let (budget_ms, timed) = match limit {
            GoLimit::Clocks { own, .. } => (own.deadline_ms(cfg.margin_ms), true),
            GoLimit::MoveTime(ms) => (ms + cfg.margin_ms, true),
            GoLimit::Depth(_) | GoLimit::Nodes(_) => (cfg.move_timeout_ms, false),
        };
        let go = go_line(player.proto, limit, player.millisec());
        let position = position_line(
            player.proto,
            player.rank_base,
            &start_fen,
            &irreversible,
            &all_moves,
        );
        let started = Instant::now();
        let reply = player.think(&position, &go, started + Duration::from_millis(budget_ms));
        let used_ms = started.elapsed().as_millis() as u64;
        let (best, info) = match reply {
            Ok(r) => r,
            Err(EngineError::Timeout) if timed => {
                return loss(Termination::TimeForfeit, " (no move)".into())
            }
            Err(EngineError::Timeout) => {
                return loss(
                    Termination::Hang,
                    format!(" (no move within {budget_ms} ms)"),
                )
            }
            Err(EngineError::Eof) => return loss(Termination::Crash, " (engine exited)".into()),
            Err(EngineError::Io(e)) => return loss(Termination::EngineError, format!(" ({e})")),
        };
        let text = match best {
            BestMove::None => {
                return loss(Termination::NoMoveGiven, " while legal moves exist".into())
            }
            BestMove::Move(t) => t,
        };
        let m = match parse_move(&text, player.rank_base) {
            Err(MoveTextError::Malformed(_)) | Err(MoveTextError::Illegal(_)) => {
                return loss(Termination::GarbageMove, format!(" '{text}'"))
            }
            Ok(m) if !pos.is_legal(m) => {
                return loss(Termination::IllegalMove, format!(" '{text}'"))
            }
            Ok(m) => m,
        };
        match &mut clocks[side.index()] {
            Some(clock) => {
                if clock.charge(used_ms, cfg.margin_ms) == Charge::Forfeit {
                    return loss(Termination::TimeForfeit, format!(" ({used_ms} ms)"));
                }
            }
            None => {
                if timed && used_ms > budget_ms {
                    return loss(Termination::TimeForfeit, format!(" ({used_ms} ms)"));
                }
            }
        }
        let capture = pos.is_capture(m);
        pos.make_move(m);
        all_moves.push(m);
        if capture {
            irreversible = (pos.to_fen(), all_moves.len());
        }
        record.moves.push(m);
        record.comments.push(comment(&info, used_ms));
        scores.push(side, info.score);
        if let Some(rule) = &cfg.resign {
            if let Some(loser) = scores.resign(rule) {
                let why = "adjudication: resign by scores".to_string();
                return Ok((
                    Outcome::loss_for(loser),
                    Termination::ResignAdjudication,
                    why,
                ));
            }
        }
        if let Some(rule) = &cfg.draw {
            if scores.draw(rule, (record.moves.len() / 2) as u32) {
                let why = "adjudication: draw by scores".to_string();
                return Ok((Outcome::Draw, Termination::DrawAdjudication, why));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn position_lines() {
        let start = pao::board::START_FEN;
        let mut pos = Position::startpos();
        let mut moves = Vec::new();
        for t in ["h2e2", "h9g7", "e2e6"] {
            let m = pos.parse_legal_move(t, RankBase::Zero).unwrap();
            pos.make_move(m);
            moves.push(m);
        }
        let irr = (pos.to_fen(), 3);
        assert_eq!(
            position_line(Protocol::Uci, RankBase::One, start, &irr, &moves),
            "position startpos moves h3e3 h10g8 e3e7"
        );
        assert_eq!(
            position_line(Protocol::Ucci, RankBase::Zero, start, &irr, &moves),
            format!("position fen {}", pos.to_fen())
        );
        let none = (start.to_string(), 0);
        assert_eq!(
            position_line(Protocol::Ucci, RankBase::Zero, start, &none, &moves[..1]),
            "position startpos moves h2e2"
        );
    }
}
