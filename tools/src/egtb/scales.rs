//! `pao-tools egtb scales`: the evaluation's endgame scales (`src/eval/endgame_scales.rs`)
//! from the tables of a directory. For every material of at most `--max-pieces` pieces, in
//! both colour orientations, and every bucket (side to move, each side's soldiers on the last
//! rank), a side that wins at most `--max-win-share` of the bucket's legal positions is
//! marked as one that cannot win there; the evaluation then scales its advantage toward a
//! draw (`src/eval/endgame.rs`).

use super::sample::pieces;
use super::tables::today;
use crate::common::threads::set_threads;
use crate::common::Failure;
use pao::board::Color;
use pao::egtb::table::Table;
use pao::egtb::{file, Material, Outcome};
use pao::eval::endgame::{mask_bit, EndgameKey, BUCKETS};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct ScalesArgs {
    /// Directory of table files
    #[arg(long)]
    dir: PathBuf,
    /// Only tables of at most this many pieces (generals included)
    #[arg(long, default_value_t = 6)]
    max_pieces: u32,
    /// A side that wins at most this share of a bucket's positions cannot win there
    #[arg(long, default_value_t = 0.05)]
    max_win_share: f64,
    /// Buckets with fewer legal positions are left unmarked
    #[arg(long, default_value_t = 1000)]
    min_positions: u64,
    /// The Rust file to write
    #[arg(long, default_value = "src/eval/endgame_scales.rs")]
    out: PathBuf,
    /// Worker threads (default: all cores)
    #[arg(long)]
    threads: Option<usize>,
}

/// Positions per bucket: red wins, draws (rule draws included), black wins.
type Counts = [[u64; 3]; BUCKETS];

/// The counts of one table, in its own orientation (red = the first-named side).
fn count_table(table: &Table) -> Result<(u32, Counts), String> {
    let index = table.index();
    let chunk = 1u64 << 16;
    let chunks: Vec<u64> = (0..index.len().div_ceil(chunk)).collect();
    let parts: Vec<Result<(Option<u32>, Counts), String>> = chunks
        .par_iter()
        .map(|&c| {
            let mut counts: Counts = [[0; 3]; BUCKETS];
            let mut material = None;
            for i in c * chunk..((c + 1) * chunk).min(index.len()) {
                let code = table.code(i).map_err(|e| e.to_string())?;
                let Some(outcome) = pao::egtb::value::outcome(code) else {
                    continue;
                };
                let Some((placement, side)) = index.decode(i) else {
                    continue;
                };
                let Some(key) = EndgameKey::of_pieces(placement.iter().copied(), side) else {
                    continue;
                };
                material = Some(key.material);
                let winner = match outcome {
                    Outcome::Win(_) => side,
                    Outcome::Loss(_) => side.flip(),
                    Outcome::Draw | Outcome::RuleDraw => {
                        counts[key.bucket][1] += 1;
                        continue;
                    }
                };
                counts[key.bucket][if winner == Color::Red { 0 } else { 2 }] += 1;
            }
            Ok((material, counts))
        })
        .collect();
    let mut total: Counts = [[0; 3]; BUCKETS];
    let mut material = None;
    for p in parts {
        let (m, c) = p?;
        material = material.or(m);
        add(&mut total, &c);
    }
    Ok((material.ok_or("a table without a legal position")?, total))
}

/// Adds `from` into `to`.
fn add(to: &mut Counts, from: &Counts) {
    for (t, f) in to.iter_mut().zip(from) {
        for (x, y) in t.iter_mut().zip(f) {
            *x += y;
        }
    }
}

/// The same counts seen with the colours swapped.
fn flipped(material: u32, counts: &Counts) -> (u32, Counts) {
    let mut out: Counts = [[0; 3]; BUCKETS];
    for (b, c) in counts.iter().enumerate() {
        let (side, red, black) = (b / 9, (b / 3) % 3, b % 3);
        let fb = ((1 - side) * 3 + black) * 3 + red;
        out[fb] = [c[2], c[1], c[0]];
    }
    ((material % 729) * 729 + material / 729, out)
}

/// Runs `egtb scales`.
pub fn run(a: ScalesArgs) -> Result<(), Failure> {
    set_threads(a.threads);
    let mut names: Vec<(Material, PathBuf)> = Vec::new();
    let dir = std::fs::read_dir(&a.dir).map_err(|e| format!("{}: {e}", a.dir.display()))?;
    for entry in dir.flatten() {
        let path = entry.path();
        let Some(stem) = path.file_stem().and_then(|s| s.to_str()) else {
            continue;
        };
        if path.extension().and_then(|e| e.to_str()) != Some("ptb") {
            continue;
        }
        if let Ok(m) = Material::parse(stem) {
            if pieces(&m) <= a.max_pieces && path.file_name() == Some(file::file_name(&m).as_ref())
            {
                names.push((m, path));
            }
        }
    }
    names.sort_by_key(|(m, _)| (pieces(m), m.name()));
    let mut counted: BTreeMap<u32, (Counts, String)> = BTreeMap::new();
    let mut max_pieces = 0;
    for (m, path) in &names {
        let table = Table::load(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let (material, counts) = count_table(&table)?;
        max_pieces = max_pieces.max(pieces(m));
        let name = m.name();
        let (first, second) = name[1..].split_at(name[1..].find('K').unwrap_or(0));
        let (fkey, fcounts) = flipped(material, &counts);
        // A material with the same pieces on both sides is one key: both views add up.
        for (key, c, label) in [
            (material, counts, name.clone()),
            (fkey, fcounts, format!("{second}K{first}")),
        ] {
            let e = counted.entry(key).or_insert(([[0; 3]; BUCKETS], label));
            add(&mut e.0, &c);
        }
        eprintln!("{name}: counted");
    }
    let mut entries: Vec<(u32, u64, &str)> = Vec::new();
    for (key, (counts, label)) in &counted {
        let mut mask = 0u64;
        for (b, c) in counts.iter().enumerate() {
            let total: u64 = c.iter().sum();
            if total < a.min_positions {
                continue;
            }
            for (color, wins) in [(Color::Red, c[0]), (Color::Black, c[2])] {
                if wins as f64 <= a.max_win_share * total as f64 {
                    mask |= mask_bit(b, color);
                }
            }
        }
        if mask != 0 {
            entries.push((*key, mask, label));
        }
    }
    let marked = entries.len();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "//! Generated by `pao-tools egtb scales --max-pieces {} --max-win-share {} --min-positions {}`\n\
         //! from Pao's tables (pao-tools {}, {}): do not edit. {} materials, {} entries with a side\n\
         //! that cannot win somewhere; see `src/eval/endgame.rs` for the key and the mask.",
        a.max_pieces,
        a.max_win_share,
        a.min_positions,
        env!("CARGO_PKG_VERSION"),
        today(),
        names.len(),
        marked
    );
    let _ = writeln!(
        out,
        "\n/// Most pieces (generals included) of a listed material.\npub const MAX_PIECES: u32 = {max_pieces};\n"
    );
    let _ = writeln!(
        out,
        "/// (material key, mask of the buckets where a side cannot win), sorted by key.\n#[rustfmt::skip]\npub const TABLE: &[(u32, u64)] = &["
    );
    for (key, mask, label) in &entries {
        let _ = writeln!(out, "    ({key}, {mask:#011x}), // {label}, red first");
    }
    let _ = writeln!(out, "];");
    std::fs::write(&a.out, out).map_err(|e| format!("{}: {e}", a.out.display()))?;
    println!(
        "{}: {} materials, {} entries",
        a.out.display(),
        names.len(),
        marked
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flipping_swaps_the_sides_and_the_side_to_move() {
        let mut counts: Counts = [[0; 3]; BUCKETS];
        // Red to move, red with one soldier on the last rank: 5 red wins, 2 draws, 1 loss.
        counts[3] = [5, 2, 1];
        let (key, f) = flipped(27 * 729 + 81, &counts);
        assert_eq!(key, 81 * 729 + 27);
        // Black to move, black with the soldier on the last rank: 5 black wins.
        assert_eq!(f[9 + 1], [1, 2, 5]);
        assert_eq!(f.iter().flatten().sum::<u64>(), 8);
        assert_eq!(flipped(key, &f), (27 * 729 + 81, counts));
    }
}
