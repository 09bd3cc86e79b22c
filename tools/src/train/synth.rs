//! `pao-tools synth-data`: synthetic training data for testing and timing the trainer without
//! self-play. Positions come from random legal playouts (so their piece counts and placements
//! are those of real games); the "search score" is the material balance plus noise, and the
//! result is drawn so that it follows material: a draw 15% of the time, otherwise a win with
//! probability sigmoid(balance / 150).

use super::data::sigmoid;
use crate::common::rng::SplitMix64 as Rng;
use crate::datagen::record::{write_header, Outcome, Record};
use pao::board::{PieceKind, Position};
use pao::eval::piece_value;
use rayon::prelude::*;
use std::io::Write;

/// Plies of one playout at most.
const MAX_PLIES: usize = 160;

/// `pao-tools synth-data`: writes N synthetic positions (random playouts, results that follow
/// material) in the datagen format: test and timing data for `pao-tools train`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Random playouts from the start position; each position's score is \
the material balance plus noise and its result follows material. Written in the datagen \
format: test and timing data for `pao-tools train`."
)]
pub struct SynthArgs {
    /// Positions to write
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    positions: u64,
    /// Random seed
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// The data file to write
    #[arg(long, value_name = "FILE")]
    out: String,
}

/// Material of the side to move minus the other side's (midgame values).
pub fn material_balance(pos: &Position) -> i32 {
    let us = pos.side_to_move();
    PieceKind::ALL
        .iter()
        .map(|&k| (pos.count(us, k) as i32 - pos.count(us.flip(), k) as i32) * piece_value(k))
        .sum()
}

/// The records of playout `game` of a run with `seed`.
pub fn playout(seed: u64, game: u64) -> Vec<Record> {
    let mut rng = Rng::new(seed, 0x4741_4d45 ^ game.wrapping_mul(0x1_0000_0001));
    let mut pos = Position::startpos();
    let mut out = Vec::with_capacity(MAX_PLIES);
    for ply in 0..MAX_PLIES {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let balance = material_balance(&pos);
        let noise = (rng.symmetric() * 50.0) as i32;
        let score = (balance + noise).clamp(-3000, 3000) as i16;
        let outcome = if rng.below(100) < 15 {
            Outcome::Draw
        } else if (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32
            <= sigmoid(balance as f32 / 150.0)
        {
            Outcome::Win
        } else {
            Outcome::Loss
        };
        if let Some(r) = Record::new(&pos, score, outcome, ply == 0) {
            out.push(r);
        }
        pos.make_move(moves[rng.below(moves.len())]);
    }
    out
}

/// At least `positions` synthetic records (whole playouts), deterministic for `seed`.
pub fn generate(positions: usize, seed: u64) -> Vec<Record> {
    let mut records = Vec::with_capacity(positions + MAX_PLIES);
    let mut game = 0u64;
    while records.len() < positions {
        let block: Vec<Vec<Record>> = (game..game + 256)
            .into_par_iter()
            .map(|g| playout(seed, g))
            .collect();
        game += 256;
        for r in block {
            if records.len() >= positions {
                break;
            }
            records.extend(r);
        }
    }
    records.truncate(positions);
    records
}

/// Writes `records` as a data file.
pub fn write_file(path: &str, records: &[Record]) -> Result<(), String> {
    let file = std::fs::File::create(path).map_err(|e| format!("{path}: {e}"))?;
    let mut out = std::io::BufWriter::new(file);
    write_header(&mut out).map_err(|e| format!("{path}: {e}"))?;
    for r in records {
        out.write_all(&r.encode())
            .map_err(|e| format!("{path}: {e}"))?;
    }
    out.flush().map_err(|e| format!("{path}: {e}"))
}

/// Runs the command.
pub fn run(args: SynthArgs) -> Result<(), crate::common::Failure> {
    let records = generate(args.positions as usize, args.seed);
    write_file(&args.out, &records)?;
    println!("wrote {} positions to {}", records.len(), args.out);
    Ok(())
}
