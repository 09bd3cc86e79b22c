//! `pao-tools egtb stats`: a table file's header: wins, draws, losses per side to move, the
//! longest mate.

use crate::common::Failure;
use pao::egtb::{file, Table};
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct StatsArgs {
    /// A table file
    file: PathBuf,
}

/// Runs `egtb stats`.
pub fn run(a: StatsArgs) -> Result<(), Failure> {
    let table = Table::open(&a.file).map_err(|e| format!("{}: {e}", a.file.display()))?;
    table
        .verify()
        .map_err(|e| format!("{}: {e}", a.file.display()))?;
    let h = table.header();
    println!("table: {}", h.material.name());
    println!(
        "format: version {}, index scheme {}, {} byte(s) per position, {} positions per block",
        file::VERSION,
        pao::egtb::index::INDEX_SCHEME,
        h.width,
        h.block_len
    );
    println!("indices: {} per side to move", h.per_side);
    println!("provenance: {}", h.provenance);
    println!(
        "{:<14} {:>12} {:>12} {:>12} {:>12} {:>12}",
        "side to move", "wins", "draws", "rule draws", "losses", "invalid"
    );
    for (side, c) in ["red", "black"].iter().zip(&h.counts) {
        println!(
            "{:<14} {:>12} {:>12} {:>12} {:>12} {:>12}",
            side, c[0], c[1], c[2], c[3], c[4]
        );
    }
    let (longest, fen) = longest_mate(&table)?;
    println!("longest mate: {longest} plies: {fen}");
    Ok(())
}

/// The first position with the longest distance to mate, as a FEN.
fn longest_mate(table: &Table) -> Result<(u32, String), Failure> {
    let want = table.header().longest;
    let index = table.index();
    for i in 0..index.len() {
        let code = table.code(i).map_err(|e| e.to_string())?;
        if pao::egtb::value::plies(code) == Some(want as u16) {
            if let Some((pl, side)) = index.decode(i) {
                if let Some(pos) = pao::egtb::index::position_of(&pl, side) {
                    return Ok((want, pos.to_fen()));
                }
            }
        }
    }
    Ok((want, "-".into()))
}
