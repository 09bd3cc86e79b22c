//! One self-play game: an opening, random plies, then fixed-budget searches to the end.

use super::record::{Outcome, Record};
use crate::common::openings::Opening;
use crate::common::rng::SplitMix64;
use pao::board::rules::{game_result, GameResult};
use pao::board::{Color, Position};
use pao::search::score::is_decisive;
use pao::search::{Limits, SearchConfig, Searcher};
use pao::tt::TranspositionTable;
use std::sync::Arc;

/// A start whose search score is beyond this is thrown away (too one-sided to teach).
pub const MAX_START_SCORE: i32 = 1000;
/// Adjudication: a score beyond this ...
pub const ADJUDICATE_SCORE: i32 = 2500;
/// ... for this many plies in a row, with the same side ahead, ends the game.
pub const ADJUDICATE_PLIES: u32 = 6;
/// Scores beyond this (mates, rule wins) are never kept.
pub const MAX_KEPT_SCORE: i32 = 10_000;
/// Start attempts before a game gives up on its opening's random plies.
const START_ATTEMPTS: u32 = 100;

/// How games are played.
#[derive(Clone, Debug)]
pub struct PlaySettings {
    /// Nodes per move.
    pub nodes: u64,
    /// Depth per move (`u32::MAX`-like values for none).
    pub depth: u32,
    /// Random legal moves after the opening.
    pub random_plies: u32,
    /// Openings to start from (empty: the start position).
    pub openings: Vec<Opening>,
    /// Game length limit in plies (a draw).
    pub max_plies: u32,
    /// The search configuration (evaluation and enhancements).
    pub config: SearchConfig,
    /// The network to evaluate with (`None`: the hand-written evaluation).
    pub network: Option<Arc<pao::eval::nnue::Network>>,
}

/// What a game produced.
pub struct GameRecord {
    /// Kept positions, in order, with the game's result filled in.
    pub records: Vec<Record>,
    /// The result for red.
    pub red: Outcome,
}

/// A searcher with its own table, reused from game to game.
pub struct Player {
    searcher: Searcher,
    tt: Arc<TranspositionTable>,
    settings: PlaySettings,
}

impl Player {
    /// A player with a table of `hash_mib`.
    pub fn new(settings: PlaySettings, hash_mib: usize) -> Result<Player, String> {
        let tt = Arc::new(TranspositionTable::new(hash_mib).map_err(|e| e.0)?);
        let mut searcher = Searcher::new(tt.clone(), settings.config);
        searcher.set_network(settings.network.clone());
        Ok(Player {
            searcher,
            tt,
            settings,
        })
    }

    fn search(&mut self, pos: &Position) -> (Option<pao::board::Move>, i32) {
        let mut limits = Limits::depth(self.settings.depth);
        limits.nodes = self.settings.nodes;
        self.tt.new_search();
        let r = self.searcher.search(pos, &limits, &[], &mut |_| {});
        (r.best_move, r.score)
    }

    /// A start position for game `rng`: opening, random plies, score within bounds.
    fn start(&mut self, rng: &mut SplitMix64) -> Result<Position, String> {
        for _ in 0..START_ATTEMPTS {
            let mut pos = match self.settings.openings.len() {
                0 => Position::startpos(),
                n => self.settings.openings[rng.below(n)].position()?,
            };
            let mut alive = true;
            for _ in 0..self.settings.random_plies {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    alive = false;
                    break;
                }
                pos.make_move(moves.as_slice()[rng.below(moves.len())]);
                if game_result(&mut pos) != GameResult::Ongoing {
                    alive = false;
                    break;
                }
            }
            if !alive {
                continue;
            }
            let (_, score) = self.search(&pos);
            if score.abs() <= MAX_START_SCORE {
                return Ok(pos);
            }
        }
        Err("no balanced start found after 100 attempts".into())
    }

    /// Plays game number `index` of the run seeded with `seed`. The game depends on nothing
    /// else: the table and the heuristics start empty.
    pub fn play(&mut self, seed: u64, index: u64) -> Result<GameRecord, String> {
        self.tt.clear();
        self.searcher.clear_heuristics();
        let mut rng = SplitMix64::for_game(seed, index);
        let mut pos = self.start(&mut rng)?;
        // (position record, side to move) with the result filled in at the end.
        let mut kept: Vec<Record> = Vec::new();
        let mut streak = 0u32;
        let mut streak_leader = Color::Red;
        let mut plies = 0;
        let red = loop {
            match game_result(&mut pos) {
                GameResult::Win { winner, .. } => break win_for(winner),
                GameResult::Draw { .. } => break Outcome::Draw,
                GameResult::Ongoing => {}
            }
            if plies >= self.settings.max_plies {
                break Outcome::Draw;
            }
            let (best, score) = self.search(&pos);
            let Some(best) = best else {
                return Err("search returned no move in an ongoing game".into());
            };
            let side = pos.side_to_move();
            let leader = if score > 0 { side } else { side.flip() };
            // A mate or a win by the repetition rule ends the game at once.
            if is_decisive(score) {
                break win_for(leader);
            }
            if score.abs() > ADJUDICATE_SCORE {
                streak = if streak > 0 && leader == streak_leader {
                    streak + 1
                } else {
                    1
                };
                streak_leader = leader;
                if streak >= ADJUDICATE_PLIES {
                    break win_for(leader);
                }
            } else {
                streak = 0;
            }
            let quiet = pos.piece_at(best.to()).is_none();
            if quiet && !pos.in_check() && score.abs() < MAX_KEPT_SCORE {
                if let Some(r) = Record::new(&pos, score as i16, Outcome::Draw, kept.is_empty()) {
                    kept.push(r);
                }
            }
            pos.make_move(best);
            plies += 1;
        };
        for r in &mut kept {
            r.outcome = if r.side == Color::Red {
                red
            } else {
                red.flip()
            };
        }
        Ok(GameRecord { records: kept, red })
    }
}

fn win_for(winner: Color) -> Outcome {
    if winner == Color::Red {
        Outcome::Win
    } else {
        Outcome::Loss
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> PlaySettings {
        PlaySettings {
            nodes: 400,
            depth: 100,
            random_plies: 8,
            openings: Vec::new(),
            max_plies: 60,
            config: SearchConfig::FULL,
            network: None,
        }
    }

    /// (side-to-move FEN, score) of every record of game `index` of seed 42.
    fn scored(player: &mut Player, index: u64) -> Vec<(String, i16)> {
        let g = player.play(42, index).expect("game");
        g.records
            .iter()
            .map(|r| (Record::decode(&r.encode()).expect("decodes").fen(), r.score))
            .collect()
    }

    #[test]
    fn a_network_plays_the_games_when_given() {
        let net = pao::eval::nnue::embedded().expect("the embedded net");
        let with_net = PlaySettings {
            network: Some(net),
            ..settings()
        };
        let mut a = Player::new(with_net.clone(), 1).expect("table");
        let mut b = Player::new(with_net, 1).expect("table");
        let mut hce = Player::new(settings(), 1).expect("table");
        let game = scored(&mut a, 0);
        assert!(!game.is_empty());
        assert_eq!(game, scored(&mut b, 0), "reproducible with the net");
        assert_ne!(
            game,
            scored(&mut hce, 0),
            "the net, not the hand-written evaluation"
        );
    }

    #[test]
    fn a_seeded_run_is_exact_and_its_records_are_legal_positions() {
        let mut player = Player::new(settings(), 1).expect("table");
        let mut counts = Vec::new();
        let mut games = Vec::new();
        for game in 0..3 {
            let g = player.play(42, game).expect("game");
            counts.push(g.records.len());
            for (i, r) in g.records.iter().enumerate() {
                assert_eq!(r.first_of_game, i == 0);
                let decoded = Record::decode(&r.encode()).expect("decodes");
                let pos = Position::from_fen(&decoded.fen()).expect("a legal position");
                assert!(!pos.in_check(), "positions in check are not kept");
                let red = if r.side == Color::Red {
                    r.outcome
                } else {
                    r.outcome.flip()
                };
                assert_eq!(red, g.red, "one result per game");
            }
            games.push(g);
        }
        assert_eq!(counts, EXPECTED_COUNTS);
        // The same game again, from a player that played others before: identical.
        let again = player.play(42, 1).expect("game");
        assert_eq!(again.records, games[1].records);
        assert_eq!(again.red, games[1].red);
    }

    /// Records kept by games 0, 1, 2 of seed 42 at 400 nodes per move, 60 plies at most.
    const EXPECTED_COUNTS: [usize; 3] = [41, 51, 43];
}
