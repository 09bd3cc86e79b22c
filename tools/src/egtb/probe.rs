//! `pao-tools egtb probe`: a position's value, distance, best move and line to mate.

use super::tables::{open, report};
use crate::common::Failure;
use pao::board::{format_move, Position, RankBase};
use pao::egtb::{Material, Outcome};
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct ProbeArgs {
    /// Directory of table files
    #[arg(long)]
    dir: PathBuf,
    /// The position (FEN, may be given as several words)
    #[arg(required = true, num_args = 1..)]
    fen: Vec<String>,
}

/// Runs `egtb probe`.
pub fn run(a: ProbeArgs) -> Result<(), Failure> {
    let fen = a.fen.join(" ");
    let mut pos = Position::from_fen(&fen).map_err(|e| Failure::Usage(format!("bad FEN: {e}")))?;
    let set = open(&a.dir);
    let Some((material, _)) = Material::of_position(&pos) else {
        return Err("no table holds this much material".to_string().into());
    };
    let Some(outcome) = set.probe(&pos) else {
        return Err(format!("no table covers this position ({})", material.name()).into());
    };
    println!("table: {}", material.name());
    println!("value: {outcome}");
    if let Some(ranked) = set.rank_moves(&mut pos) {
        if let Some(best) = ranked.first() {
            println!("best move: {}", format_move(best.mv, RankBase::Zero));
        }
        let moves: Vec<String> = ranked
            .iter()
            .map(|r| format!("{} {}", format_move(r.mv, RankBase::Zero), short(r.outcome)))
            .collect();
        println!("moves: {}", moves.join(", "));
    }
    let line: Vec<String> = set
        .line(&pos, 400)
        .iter()
        .map(|&m| format_move(m, RankBase::Zero))
        .collect();
    println!("line: {}", line.join(" "));
    report(set.take_errors());
    Ok(())
}

/// `W23`, `L12`, `D`, `D*` (a rule draw).
fn short(o: Outcome) -> String {
    match o {
        Outcome::Win(n) => format!("W{n}"),
        Outcome::Loss(n) => format!("L{n}"),
        Outcome::Draw => "D".into(),
        Outcome::RuleDraw => "D*".into(),
    }
}
