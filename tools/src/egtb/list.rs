//! `pao-tools egtb list`: the signatures `--all` covers, with index sizes and the memory
//! their generation takes.

use crate::common::Failure;
use pao::egtb::{build, index::TableIndex, Material};

#[derive(clap::Args, Debug)]
pub struct ListArgs {
    /// Only tables of at most this many indices
    #[arg(long, default_value_t = u64::MAX)]
    max_positions: u64,
}

/// Bytes per index while a table is generated (codes, counters, pending captures, and the
/// repetition marking's three flag arrays).
pub const GENERATION_BYTES_PER_INDEX: u64 = 8;

/// Runs `egtb list`.
pub fn run(a: ListArgs) -> Result<(), Failure> {
    println!("{:<12} {:>15} {:>14}", "table", "indices", "memory MiB");
    for m in build::with_dependencies(&Material::all_targets()) {
        let n = TableIndex::new(&m).len();
        if n > a.max_positions {
            continue;
        }
        let mib = n * GENERATION_BYTES_PER_INDEX / (1 << 20);
        println!("{:<12} {:>15} {:>14}", m.name(), n, mib);
    }
    Ok(())
}
