//! `pao-tools egtb sample`: a fixed sample of quiet positions (the side to move not in check,
//! no capture among its moves) of every table in a directory, up to `--per-class` wins,
//! draws and losses (from the side to move) each, with their exact values: the sample that
//! `egtb knowledge` searches without tables.

use super::tables::{open, today};
use crate::common::rng::SplitMix64;
use crate::common::Failure;
use pao::egtb::{index::position_of, Material, Outcome};
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct SampleArgs {
    /// Directory of table files
    #[arg(long)]
    dir: PathBuf,
    /// Positions of each class (win, draw, loss) per table, where the table has them
    #[arg(long, default_value_t = 10)]
    per_class: usize,
    /// Only tables of at most this many pieces (generals included)
    #[arg(long, default_value_t = 6)]
    max_pieces: u32,
    /// Random indices tried per table before giving up on a rare class
    #[arg(long, default_value_t = 2_000_000)]
    tries: u64,
    /// Seed of the sample (each table's stream also depends on its name)
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// Pieces of a material, generals included.
pub fn pieces(m: &Material) -> u32 {
    2 + (m.sides[0].pieces() + m.sides[1].pieces()) as u32
}

/// Runs `egtb sample`: the sample on standard output.
pub fn run(a: SampleArgs) -> Result<(), Failure> {
    let set = open(&a.dir);
    let mut materials: Vec<Material> = set
        .materials()
        .into_iter()
        .filter(|m| pieces(m) <= a.max_pieces)
        .collect();
    materials.sort_by_key(|m| (pieces(m), m.name()));
    println!(
        "# pao-tools egtb sample --per-class {} --max-pieces {} --tries {} --seed {}; pao-tools {}; {}",
        a.per_class,
        a.max_pieces,
        a.tries,
        a.seed,
        env!("CARGO_PKG_VERSION"),
        today()
    );
    println!("# material, FEN, the table's value for the side to move (plies to mate)");
    for m in &materials {
        let table = set
            .table(m)
            .ok_or_else(|| "a listed table is missing".to_string())?;
        let index = table.index();
        let name = m.name();
        let stream = name.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
        });
        let mut rng = SplitMix64::from_state(a.seed ^ stream);
        let mut found: [Vec<String>; 3] = Default::default();
        for _ in 0..a.tries {
            if found.iter().all(|f| f.len() >= a.per_class) {
                break;
            }
            let i = rng.next_u64() % index.len();
            let code = table.code(i).map_err(|e| e.to_string())?;
            let (class, value) = match pao::egtb::value::outcome(code) {
                Some(Outcome::Win(n)) => (0, format!("win {n}")),
                Some(Outcome::Draw) => (1, "draw".to_string()),
                Some(Outcome::Loss(n)) => (2, format!("loss {n}")),
                Some(Outcome::RuleDraw) | None => continue,
            };
            if found[class].len() >= a.per_class {
                continue;
            }
            let Some(mut pos) = index
                .decode(i)
                .and_then(|(pl, side)| position_of(&pl, side))
            else {
                continue;
            };
            if pos.in_check() {
                continue;
            }
            let moves = pos.legal_moves();
            if moves.is_empty() || moves.iter().any(|mv| pos.piece_at(mv.to()).is_some()) {
                continue;
            }
            found[class].push(format!("{name}\t{}\t{value}", pos.to_fen()));
        }
        for line in found.iter().flatten() {
            println!("{line}");
        }
    }
    Ok(())
}
