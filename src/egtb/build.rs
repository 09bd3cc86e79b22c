//! Making a set of tables in a directory: each after the tables its captures reach, skipping
//! those already there (so an interrupted run continues), each file written whole.

use super::file::{self, Header};
use super::generate::{generate, GenStats};
use super::material::Material;
use super::table::Table;
use super::Tablebases;
use std::path::Path;
use std::time::Instant;

/// What became of one table.
#[derive(Clone, Debug)]
pub struct Built {
    /// Its material.
    pub material: Material,
    /// Its header as written (or as found).
    pub header: Header,
    /// Generation figures; `None` when the file was already there.
    pub stats: Option<GenStats>,
    /// Wall seconds for generation and writing.
    pub seconds: f64,
    /// Bytes on disk.
    pub file_bytes: u64,
}

/// `targets` and every table they depend on, each after its dependencies.
pub fn with_dependencies(targets: &[Material]) -> Vec<Material> {
    let mut out: Vec<Material> = Vec::new();
    fn visit(m: Material, out: &mut Vec<Material>) {
        if out.contains(&m) {
            return;
        }
        for c in m.captures() {
            visit(c, out);
        }
        out.push(m);
    }
    for &t in targets {
        visit(t, &mut out);
    }
    out
}

/// Generates `targets` and their dependencies into `dir`. A table already in `dir` is read
/// (and checked) instead. `provenance` is written into every header; `report` is called after
/// each table.
pub fn build(
    targets: &[Material],
    dir: &Path,
    provenance: &str,
    mut report: impl FnMut(&Built),
) -> Result<Tablebases, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut set = Tablebases::new();
    for m in with_dependencies(targets) {
        let path = dir.join(file::file_name(&m));
        let start = Instant::now();
        let (table, stats) = if path.exists() {
            let t = Table::load(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            (t, None)
        } else {
            let g = generate(&m, &set)?;
            let header =
                file::write_table(&path, &m, &g.codes, provenance).map_err(|e| e.to_string())?;
            (Table::in_memory(m, g.codes, header), Some(g.stats))
        };
        let built = Built {
            material: m,
            header: table.header().clone(),
            stats,
            seconds: start.elapsed().as_secs_f64(),
            file_bytes: std::fs::metadata(&path).map(|md| md.len()).unwrap_or(0),
        };
        report(&built);
        set.insert(table);
    }
    Ok(set)
}

/// Generates one table in memory (its dependencies too), for tests and tools.
pub fn in_memory(targets: &[Material]) -> Result<Tablebases, String> {
    let mut set = Tablebases::new();
    for m in with_dependencies(targets) {
        let g = generate(&m, &set)?;
        let header = file::header_for(&m, &g.codes, "in memory");
        set.insert(Table::in_memory(m, g.codes, header));
    }
    Ok(set)
}
