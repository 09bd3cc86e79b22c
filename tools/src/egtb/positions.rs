//! `pao-tools egtb positions`: endgame start positions for matches, taken from self-play
//! data: positions whose material a table covers, or one capture away from one.

use super::tables::open;
use crate::common::Failure;
use crate::datagen::record::read_file;
use pao::board::{MoveList, Position};
use pao::egtb::{index::position_of, Material, Tablebases};
use std::collections::HashSet;
use std::io::Write;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct PositionsArgs {
    /// Datagen files
    #[arg(required = true)]
    data: Vec<String>,
    /// Directory of table files
    #[arg(long)]
    dir: PathBuf,
    /// How many positions
    #[arg(long, default_value_t = 300)]
    count: usize,
    /// Output file, one FEN a line (for `match --openings`)
    #[arg(long)]
    out: PathBuf,
}

/// Writes up to `count` distinct FENs, at most one per game, in the data's order.
pub fn run(a: PositionsArgs) -> Result<(), Failure> {
    let (data, dir, count, out) = (&a.data, &a.dir, a.count, &a.out);
    let tables = open(dir);
    if tables.is_empty() {
        return Err(format!("no tables in {}", dir.display()).into());
    }
    let mut seen = HashSet::new();
    let mut fens = Vec::new();
    let (mut covered, mut one_capture) = (0, 0);
    for path in data {
        let records = read_file(path).map_err(|e| e.to_string())?;
        let mut game_taken = false;
        for r in records {
            if r.first_of_game {
                game_taken = false;
            }
            if game_taken || fens.len() >= count {
                continue;
            }
            let placement: pao::egtb::index::Placement = r.pieces().take(16).collect();
            let Some(pos) = position_of(&placement, r.side) else {
                continue;
            };
            let reach = if covers(&tables, &pos) {
                Some(true)
            } else if one_capture_away(&tables, &pos) {
                Some(false)
            } else {
                None
            };
            let Some(direct) = reach else { continue };
            if !seen.insert(pos.key()) {
                continue;
            }
            if direct {
                covered += 1;
            } else {
                one_capture += 1;
            }
            fens.push(pos.to_fen());
            game_taken = true;
        }
    }
    let mut f = std::fs::File::create(out).map_err(|e| format!("{}: {e}", out.display()))?;
    for fen in &fens {
        writeln!(f, "{fen}").map_err(|e| format!("{}: {e}", out.display()))?;
    }
    println!(
        "{} positions ({covered} covered by a table, {one_capture} one capture away) -> {}",
        fens.len(),
        out.display()
    );
    Ok(())
}

fn covers(tables: &Tablebases, pos: &Position) -> bool {
    Material::of_position(pos).is_some_and(|(m, _)| tables.has(&m)) && tables.probe(pos).is_some()
}

fn one_capture_away(tables: &Tablebases, pos: &Position) -> bool {
    let mut p = pos.clone();
    let mut list = MoveList::new();
    p.generate_legal(&mut list);
    list.iter().any(|&m| {
        if !p.is_capture(m) {
            return false;
        }
        p.make_move(m);
        let hit = covers(tables, &p);
        p.unmake_move();
        hit
    })
}
