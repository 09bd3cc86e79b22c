//! Builds a Pao book from game records. A move's weight is its score from the mover's side in
//! half points, 2 x wins + draws (wins + draws / 2, doubled to stay an integer), over the games
//! that played it in that position within the first `max_ply` plies; moves seen in fewer than
//! `min_games` games, and moves that never scored, are left out.

use crate::board::{Color, Move, Position, RankBase, START_FEN};
use std::collections::HashMap;

/// How a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// 1-0
    RedWins,
    /// 0-1
    BlackWins,
    /// 1/2-1/2
    Draw,
}

impl Outcome {
    fn parse(text: &str) -> Option<Outcome> {
        match text {
            "1-0" => Some(Outcome::RedWins),
            "0-1" => Some(Outcome::BlackWins),
            "1/2-1/2" => Some(Outcome::Draw),
            _ => None,
        }
    }

    /// Half points for the side `color`.
    fn half_points(self, color: Color) -> u32 {
        match (self, color) {
            (Outcome::Draw, _) => 1,
            (Outcome::RedWins, Color::Red) | (Outcome::BlackWins, Color::Black) => 2,
            _ => 0,
        }
    }
}

/// One game record: start position, moves and result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// Start FEN.
    pub fen: String,
    /// The moves, as text (checked when the book is built).
    pub moves: Vec<String>,
    /// The result.
    pub outcome: Outcome,
}

/// Builder settings.
#[derive(Copy, Clone, Debug)]
pub struct BuildOptions {
    /// Only positions within this many plies of the start enter the book.
    pub max_ply: usize,
    /// A move needs this many games.
    pub min_games: u32,
}

impl Default for BuildOptions {
    fn default() -> Self {
        BuildOptions {
            max_ply: 20,
            min_games: 2,
        }
    }
}

/// A move token in ICCS, plain (`h2e2`) or PGN style (`H2-E2`).
fn move_token(token: &str) -> Option<String> {
    let t = token.replace('-', "").to_ascii_lowercase();
    crate::board::parse_move(&t, RankBase::Zero).ok().map(|_| t)
}

/// Parses game records: PGN (tags `[Result]`, `[FEN]`, ICCS movetext) when the text has tag
/// lines, else one game per line as `<result> <moves ...>`.
pub fn parse_games(text: &str) -> Result<Vec<Game>, String> {
    if text.lines().any(|l| l.trim_start().starts_with('[')) {
        return parse_pgn(text);
    }
    let mut games = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut words = line.split_whitespace();
        let result = words.next().unwrap_or("");
        let outcome = Outcome::parse(result)
            .ok_or_else(|| format!("line {}: '{result}' is not 1-0, 0-1 or 1/2-1/2", n + 1))?;
        let moves = words
            .map(|w| move_token(w).ok_or_else(|| format!("line {}: bad move '{w}'", n + 1)))
            .collect::<Result<Vec<_>, _>>()?;
        games.push(Game {
            fen: START_FEN.to_string(),
            moves,
            outcome,
        });
    }
    Ok(games)
}

fn parse_pgn(text: &str) -> Result<Vec<Game>, String> {
    let mut games = Vec::new();
    let mut fen = START_FEN.to_string();
    let mut outcome: Option<Outcome> = None;
    let mut moves: Vec<String> = Vec::new();
    let mut in_moves = false;
    let mut flush = |fen: &mut String, outcome: &mut Option<Outcome>, moves: &mut Vec<String>| {
        if let Some(o) = outcome.take() {
            games.push(Game {
                fen: std::mem::replace(fen, START_FEN.to_string()),
                moves: std::mem::take(moves),
                outcome: o,
            });
        }
        moves.clear();
        *fen = START_FEN.to_string();
    };
    for line in text.lines() {
        let line = line.trim();
        if let Some(tag) = line.strip_prefix('[') {
            if in_moves {
                flush(&mut fen, &mut outcome, &mut moves);
                in_moves = false;
            }
            let (name, value) = tag.split_once(' ').unwrap_or((tag, ""));
            let value = value.trim_end_matches(']').trim().trim_matches('"');
            match name {
                "Result" => outcome = Outcome::parse(value),
                "FEN" => fen = value.to_string(),
                _ => {}
            }
            continue;
        }
        // Movetext: drop comments, move numbers and the result token.
        let mut depth = 0;
        let cleaned: String = line
            .chars()
            .filter(|&c| {
                match c {
                    '{' => depth += 1,
                    '}' => {
                        depth -= 1;
                        return false;
                    }
                    _ => {}
                }
                depth == 0
            })
            .collect();
        for token in cleaned.split_whitespace() {
            in_moves = true;
            if let Some(m) = move_token(token.trim_end_matches(['!', '?', '+', '#'])) {
                moves.push(m);
            }
        }
    }
    flush(&mut fen, &mut outcome, &mut moves);
    Ok(games)
}

/// The book entries (key, move, weight) from the games.
pub fn build(games: &[Game], options: &BuildOptions) -> Result<Vec<(u64, Move, u16)>, String> {
    // (key, move) -> (games, half points)
    let mut stats: HashMap<(u64, Move), (u32, u32)> = HashMap::new();
    for (n, game) in games.iter().enumerate() {
        let mut pos =
            Position::from_fen(&game.fen).map_err(|e| format!("game {}: bad FEN: {e}", n + 1))?;
        for (ply, text) in game.moves.iter().enumerate() {
            let mv = pos
                .parse_legal_move(text, RankBase::Zero)
                .map_err(|e| format!("game {}, ply {}: {e}", n + 1, ply + 1))?;
            if ply < options.max_ply {
                let entry = stats.entry((pos.key(), mv)).or_insert((0, 0));
                entry.0 += 1;
                entry.1 += game.outcome.half_points(pos.side_to_move());
            }
            pos.make_move(mv);
        }
    }
    let mut entries: Vec<(u64, Move, u16)> = stats
        .into_iter()
        .filter(|(_, (games, points))| *games >= options.min_games && *points > 0)
        .map(|((key, mv), (_, points))| (key, mv, points.min(u16::MAX as u32) as u16))
        .collect();
    entries.sort_unstable_by_key(|&(k, m, _)| (k, m.raw()));
    Ok(entries)
}
