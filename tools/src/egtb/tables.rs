//! What the table subcommands share: opening a directory of tables, naming material
//! signatures, the date of a provenance line.

use crate::common::Failure;
use pao::egtb::{Material, Tablebases};
use std::path::Path;

/// Prints the table errors a directory or a probe gave, one line each.
pub fn report(errors: impl IntoIterator<Item = String>) {
    for e in errors {
        eprintln!("pao-tools egtb: {e}");
    }
}

/// The tables of `dir`; a file that cannot be used is reported and left out.
pub fn open(dir: &Path) -> Tablebases {
    let (set, errors) = Tablebases::open_dir(dir);
    report(errors);
    set
}

/// Material signatures from their names (`KRKAABB`); a bad name is a usage error.
pub fn parse_materials(names: &[String]) -> Result<Vec<Material>, Failure> {
    names
        .iter()
        .map(|n| Material::parse(n).map_err(|e| Failure::Usage(e.to_string())))
        .collect()
}

/// Today's date (UTC) as YYYY-MM-DD, for provenance lines.
pub fn today() -> String {
    crate::common::date::today().replace('.', "-")
}
