//! `pao-tools mates find`: forced mates from Pao's own games. Pao plays itself at a fixed node
//! count from a start set (balanced openings, endgame starts or the bench positions, each after
//! a few random plies); every position where its search sees a mate for the side to move
//! within a few moves more than asked is handed to the exhaustive solver, and those with a
//! forced mate of at most `--max-moves` moves become rows (shortest length and every mating
//! first move, proven by the solver). Deterministic for a seed.

use super::set::MateRow;
use super::solver::Solver;
use crate::common::openings;
use crate::common::rng::SplitMix64;
use pao::board::rules::{game_result, GameResult};
use pao::board::Position;
use pao::search::score::mate_plies;
use pao::search::{Limits, SearchConfig, Searcher};
use pao::tt::TranspositionTable;
use std::sync::Arc;

/// Where the games start.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum StartSet {
    /// The balanced openings of `tools/data/balanced-openings.txt`.
    Openings,
    /// The endgame starts of `tools/data/endgame-positions.txt`.
    Endgames,
    /// The bench positions of `tests/data/bench.fens`.
    Bench,
}

/// `pao-tools mates find`: prints one row per mate found.
#[derive(clap::Args, Debug)]
pub struct FindArgs {
    /// The start set
    #[arg(long, value_enum, default_value = "openings")]
    from: StartSet,
    /// The start file (default: the set's file in the repository)
    #[arg(long, value_name = "FILE")]
    file: Option<String>,
    /// Games to play
    #[arg(long, default_value_t = 50)]
    games: u64,
    /// Seed of the start choice and the random plies
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Random plies after the start position
    #[arg(long, default_value_t = 2)]
    random_plies: u32,
    /// Nodes per move of the self-play search
    #[arg(long, default_value_t = 20_000)]
    nodes: u64,
    /// Longest mate kept, in moves
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=6))]
    max_moves: u32,
    /// Rows kept per game: the longest mates, one per length
    #[arg(long, default_value_t = 2)]
    per_game: usize,
    /// Longest game, in plies
    #[arg(long, default_value_t = 300)]
    max_plies: u32,
}

/// `pao-tools mates solve`: the rows of positions given on the command line.
#[derive(clap::Args, Debug)]
pub struct SolveArgs {
    /// The positions (FEN)
    #[arg(required = true)]
    fens: Vec<String>,
    /// Longest mate looked for, in moves
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=6))]
    max_moves: u32,
    /// The source column of the rows
    #[arg(long, default_value = "composed")]
    source: String,
}

/// Runs `mates solve`: one row per position with a short enough mate; an error for the others.
pub fn solve(args: &SolveArgs) -> Result<(), String> {
    let mut missing = 0;
    for fen in &args.fens {
        let pos = Position::from_fen(fen).map_err(|e| format!("'{fen}': {e}"))?;
        match prove_row(&pos, args.max_moves) {
            Some(mut row) => {
                row.source = args.source.clone();
                println!("{}", row.line());
            }
            None => {
                missing += 1;
                eprintln!("no mate in {} moves: {fen}", args.max_moves);
            }
        }
    }
    if missing > 0 {
        return Err(format!("{missing} positions without a short mate"));
    }
    Ok(())
}

/// Runs `mates find`.
pub fn run(args: &FindArgs) -> Result<(), String> {
    let starts = load_starts(args)?;
    if starts.is_empty() {
        return Err("the start file has no position".to_string());
    }
    let tt = Arc::new(TranspositionTable::new(16).map_err(|e| e.0)?);
    let mut searcher = Searcher::new(Arc::clone(&tt), SearchConfig::FULL);
    searcher.set_network(pao::eval::nnue::embedded());
    let name = format!("{:?}", args.from).to_lowercase();
    let file = args
        .file
        .as_ref()
        .map_or(String::new(), |f| format!(" --file {f}"));
    println!(
        "# pao-tools mates find --from {name}{file} --games {} --seed {} --random-plies {} \
         --nodes {} --max-moves {} --per-game {}",
        args.games, args.seed, args.random_plies, args.nodes, args.max_moves, args.per_game
    );
    for game in 0..args.games {
        let mut rng = SplitMix64::for_game(args.seed, game);
        let start = &starts[rng.below(starts.len())];
        let Some(pos) = random_walk(start, args.random_plies, &mut rng) else {
            continue;
        };
        tt.clear();
        searcher.clear_heuristics();
        let found = play(&mut searcher, &tt, pos, args);
        for (ply, row) in pick(found, args.per_game) {
            let mut row = row;
            row.source = format!("self-play {name} seed {} game {game} ply {ply}", args.seed);
            println!("{}", row.line());
        }
    }
    Ok(())
}

fn load_starts(args: &FindArgs) -> Result<Vec<Position>, String> {
    let default = match args.from {
        StartSet::Openings => "tools/data/balanced-openings.txt",
        StartSet::Endgames => "tools/data/endgame-positions.txt",
        StartSet::Bench => "tests/data/bench.fens",
    };
    let path = args.file.as_deref().unwrap_or(default);
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let mut starts = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let opening =
            openings::parse_line(line).map_err(|e| format!("{path}: line {}: {e}", i + 1))?;
        starts.push(opening.position()?);
    }
    Ok(starts)
}

/// `start` after `plies` random legal moves; `None` when the walk ends the game.
fn random_walk(start: &Position, plies: u32, rng: &mut SplitMix64) -> Option<Position> {
    let mut pos = Position::from_fen(&start.to_fen()).ok()?;
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return None;
        }
        pos.make_move(moves.as_slice()[rng.below(moves.len())]);
    }
    (game_result(&mut pos) == GameResult::Ongoing).then_some(pos)
}

/// Plays the game out; returns (ply, row) for every position with a short forced mate.
fn play(
    searcher: &mut Searcher,
    tt: &TranspositionTable,
    mut pos: Position,
    args: &FindArgs,
) -> Vec<(u32, MateRow)> {
    let mut found = Vec::new();
    for ply in 0..args.max_plies {
        if game_result(&mut pos) != GameResult::Ongoing {
            break;
        }
        let mut limits = Limits::depth(100);
        limits.nodes = args.nodes;
        tt.new_search();
        let r = searcher.search(&pos, &limits, &[], &mut |_| {});
        let Some(best) = r.best_move else { break };
        // The search may see a longer mate than the shortest: ask the solver up to two
        // moves beyond what is kept.
        let seen = mate_plies(r.score).filter(|&p| p > 0 && p <= 2 * args.max_moves as i32 + 3);
        if seen.is_some() {
            if let Some(row) = prove_row(&pos, args.max_moves) {
                found.push((ply, row));
            }
        }
        pos.make_move(best);
    }
    found
}

/// The row of `pos` when its side to move forces mate in at most `max_moves` moves.
pub fn prove_row(pos: &Position, max_moves: u32) -> Option<MateRow> {
    let mut fields: Vec<&str> = Vec::new();
    let fen = pos.to_fen();
    fields.extend(fen.split_whitespace().take(2));
    let fen = format!("{} - - 0 1", fields.join(" "));
    let mut root = Position::from_fen(&fen).ok()?;
    let mut solver = Solver::new();
    let moves = solver.shortest_mate(&mut root, max_moves)?;
    let first_moves = solver.mating_moves(&mut root, moves);
    Some(MateRow {
        fen,
        moves,
        first_moves,
        source: String::new(),
    })
}

/// The rows kept from one game: the longest mates first, one per length, at most `per_game`.
fn pick(mut found: Vec<(u32, MateRow)>, per_game: usize) -> Vec<(u32, MateRow)> {
    found.sort_by_key(|(ply, row)| (std::cmp::Reverse(row.moves), *ply));
    let mut kept: Vec<(u32, MateRow)> = Vec::new();
    for (ply, row) in found {
        if kept.len() < per_game && kept.iter().all(|(_, k)| k.moves != row.moves) {
            kept.push((ply, row));
        }
    }
    kept
}
