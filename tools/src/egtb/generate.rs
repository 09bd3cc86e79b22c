//! `pao-tools egtb generate`: tables (and the smaller tables they need) into a directory,
//! one line of figures per table.

use super::tables::{parse_materials, today};
use crate::common::threads::set_threads;
use crate::common::Failure;
use pao::egtb::{build, index::TableIndex, Material};
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct GenerateArgs {
    /// Material signatures, e.g. KRKAABB KNPKAA
    materials: Vec<String>,
    /// Every signature with at most one attacking piece a side, or two against none
    #[arg(long)]
    all: bool,
    /// With --all: only tables of at most this many indices (both sides to move)
    #[arg(long, default_value_t = 400_000_000)]
    max_positions: u64,
    /// With --all: only tables of at most this many pieces (generals included)
    #[arg(long, default_value_t = 32)]
    max_pieces: u32,
    /// Output directory (tables already there are kept and read)
    #[arg(long)]
    dir: PathBuf,
    /// Worker threads (default: all cores)
    #[arg(long)]
    threads: Option<usize>,
}

/// Runs `egtb generate`.
pub fn run(a: GenerateArgs) -> Result<(), Failure> {
    set_threads(a.threads);
    let mut targets = parse_materials(&a.materials)?;
    if a.all {
        for m in Material::all_targets() {
            if TableIndex::new(&m).len() <= a.max_positions
                && super::sample::pieces(&m) <= a.max_pieces
                && !targets.contains(&m)
            {
                targets.push(m);
            }
        }
    }
    if targets.is_empty() {
        return Err(Failure::Usage(
            "name material signatures or give --all".into(),
        ));
    }
    let mut words: Vec<String> = vec!["pao-tools egtb generate".into()];
    words.extend(a.materials.iter().cloned());
    if a.all {
        words.push(format!("--all --max-positions {}", a.max_positions));
        if a.max_pieces < 32 {
            words.push(format!("--max-pieces {}", a.max_pieces));
        }
    }
    let provenance = format!(
        "{}; pao-tools {}; {}",
        words.join(" "),
        env!("CARGO_PKG_VERSION"),
        today()
    );
    println!(
        "{:<12} {:>13} {:>11} {:>9} {:>9} {:>9} {:>7} {:>8} {:>12}",
        "table",
        "indices",
        "positions",
        "rule dr.",
        "longest",
        "levels",
        "sec",
        "pos/s/c",
        "file bytes"
    );
    let cores = rayon::current_num_threads() as f64;
    build::build(&targets, &a.dir, &provenance, |b| {
        let total: u64 = b
            .header
            .counts
            .iter()
            .map(|c| c[0] + c[1] + c[2] + c[3])
            .sum();
        let rule: u64 = b.header.counts.iter().map(|c| c[2]).sum();
        match &b.stats {
            Some(s) => println!(
                "{:<12} {:>13} {:>11} {:>9} {:>9} {:>9} {:>7.1} {:>8.0} {:>12}",
                b.material.name(),
                s.indices,
                total,
                rule,
                b.header.longest,
                s.levels,
                b.seconds,
                total as f64 / b.seconds.max(1e-9) / cores,
                b.file_bytes
            ),
            None => println!(
                "{:<12} {:>13} {:>11} {:>9} {:>9} {:>9} {:>7} {:>8} {:>12}",
                b.material.name(),
                b.header.per_side * 2,
                total,
                rule,
                b.header.longest,
                "-",
                "kept",
                "-",
                b.file_bytes
            ),
        }
    })?;
    Ok(())
}
