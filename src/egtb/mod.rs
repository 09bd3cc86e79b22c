//! Endgame tablebases: exact distance to mate for endgames of few pieces.
//!
//! Tables are made by retrograde analysis (`generate`), written as compressed blocks behind
//! a checksummed header (`file`), and probed through a memory map (`table`). A `Tablebases`
//! set holds the tables of a directory, keyed by material; the search probes it at nodes
//! whose material a table covers, and the root answers from it at once.

pub mod build;
pub mod file;
pub mod generate;
pub mod index;
pub mod material;
mod retro;
mod rules;
pub mod table;
pub mod value;
pub mod verify;

pub use material::Material;
pub use table::Table;
pub use value::Outcome;

use crate::board::{Move, MoveList, Position};
use parking_lot::Mutex;
use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::Arc;

/// One table with a flag set once it has shown a corrupt block.
struct Entry {
    table: Table,
    broken: AtomicBool,
}

/// The tables in use, by material.
#[derive(Default)]
pub struct Tablebases {
    tables: HashMap<Material, Arc<Entry>>,
    errors: Mutex<Vec<String>>,
    /// Most pieces (generals included) of any table held.
    max_pieces: u32,
    /// Probes the search took since the last reset.
    hits: AtomicU64,
}

/// A root move with its verdict from the side that plays it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RankedMove {
    /// The move.
    pub mv: Move,
    /// The verdict for the side that plays it.
    pub outcome: Outcome,
}

impl Tablebases {
    /// No tables.
    pub fn new() -> Tablebases {
        Tablebases::default()
    }

    /// Opens every `*.ptb` file of a directory (the headers are checked now, the blocks when
    /// first probed). Returns the set and one line for each file that could not be used.
    pub fn open_dir(dir: &Path) -> (Tablebases, Vec<String>) {
        let mut set = Tablebases::new();
        let mut errors = Vec::new();
        let entries = match std::fs::read_dir(dir) {
            Ok(e) => e,
            Err(e) => {
                errors.push(format!("tablebase directory {}: {e}", dir.display()));
                return (set, errors);
            }
        };
        let mut paths: Vec<_> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == file::EXTENSION))
            .collect();
        paths.sort();
        for path in paths {
            let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
            match Table::open(&path) {
                Ok(t) => {
                    let expected = file::file_name(&t.header().material);
                    if name.as_deref() != Some(expected.as_str()) {
                        errors.push(format!(
                            "tablebase {}: holds {}, expected in {expected}",
                            path.display(),
                            t.header().material.name()
                        ));
                        continue;
                    }
                    set.insert(t);
                }
                Err(e) => errors.push(format!("tablebase {}: {e}", path.display())),
            }
        }
        (set, errors)
    }

    /// Adds a table (replacing one of the same material).
    pub fn insert(&mut self, table: Table) {
        let m = table.header().material;
        let pieces = 2 + (m.sides[0].pieces() + m.sides[1].pieces()) as u32;
        self.max_pieces = self.max_pieces.max(pieces);
        self.tables.insert(
            m,
            Arc::new(Entry {
                table,
                broken: AtomicBool::new(false),
            }),
        );
    }

    /// Most pieces on the board, generals included, that any table holds.
    pub fn max_pieces(&self) -> u32 {
        self.max_pieces
    }

    /// Counts a probe the search took (`tbhits`).
    #[inline]
    pub fn count_hit(&self) {
        self.hits.fetch_add(1, Relaxed);
    }

    /// Probes taken since the last `reset_hits`.
    pub fn hits(&self) -> u64 {
        self.hits.load(Relaxed)
    }

    /// Starts counting probes afresh (at `go`).
    pub fn reset_hits(&self) {
        self.hits.store(0, Relaxed);
    }

    /// Number of tables.
    pub fn len(&self) -> usize {
        self.tables.len()
    }

    /// True when there is no table.
    pub fn is_empty(&self) -> bool {
        self.tables.is_empty()
    }

    /// True when a table of this material is held.
    pub fn has(&self, m: &Material) -> bool {
        self.tables.contains_key(m)
    }

    /// The materials held, sorted by name.
    pub fn materials(&self) -> Vec<Material> {
        let mut v: Vec<Material> = self.tables.keys().copied().collect();
        v.sort_by_key(|m| m.name());
        v
    }

    /// The table of a material.
    pub fn table(&self, m: &Material) -> Option<&Table> {
        self.tables.get(m).map(|e| &e.table)
    }

    /// Error lines found while probing since the last call (a corrupt block), each once.
    pub fn take_errors(&self) -> Vec<String> {
        std::mem::take(&mut *self.errors.lock())
    }

    /// The raw code of a position, when a working table covers it.
    pub fn probe_code(&self, pos: &Position) -> Option<u16> {
        let (material, flip) = Material::of_position(pos)?;
        let entry = self.tables.get(&material)?;
        if entry.broken.load(Relaxed) {
            return None;
        }
        match entry.table.probe_code(pos, flip) {
            Ok(code) => code,
            Err(e) => {
                if !entry.broken.swap(true, Relaxed) {
                    self.errors
                        .lock()
                        .push(format!("tablebase {}: {e}; not used", material.name()));
                }
                None
            }
        }
    }

    /// The verdict of a position reached by a capture, from the side to move there; a capture
    /// that leaves no attacking piece is a draw by the rules. Used where every smaller table
    /// must be present (generation, verification): a missing one is an error.
    pub(crate) fn capture_outcome(&self, child: &Position) -> Result<Outcome, String> {
        let Some((material, _)) = Material::of_position(child) else {
            return Err("a capture leads to material no table holds".into());
        };
        if material.is_dead_draw() {
            return Ok(Outcome::Draw);
        }
        match self.probe(child) {
            Some(o) => Ok(o),
            None => Err(format!("table {} is missing or broken", material.name())),
        }
    }

    /// The verdict on a position, when a table covers it.
    pub fn probe(&self, pos: &Position) -> Option<Outcome> {
        self.probe_code(pos).and_then(value::outcome)
    }

    /// Every legal move with its verdict for the mover, best first: the shortest win, then
    /// draws (plain before rule draws), then the longest loss. `None` when the position or a
    /// move's result is not covered.
    pub fn rank_moves(&self, pos: &mut Position) -> Option<Vec<RankedMove>> {
        let mut list = MoveList::new();
        pos.generate_legal(&mut list);
        let mut out = Vec::with_capacity(list.len());
        for &mv in list.iter() {
            pos.make_move(mv);
            let child = match Material::of_position(pos) {
                Some((m, _)) if m.is_dead_draw() => Some(Outcome::Draw),
                _ => self.probe(pos),
            };
            pos.unmake_move();
            let outcome = match child? {
                Outcome::Loss(n) => Outcome::Win(n + 1),
                Outcome::Win(n) => Outcome::Loss(n + 1),
                o => o,
            };
            out.push(RankedMove { mv, outcome });
        }
        out.sort_by_key(|r| preference(r.outcome));
        Some(out)
    }

    /// The line to mate from a decided position (the shortest win against the longest
    /// resistance), or the best move alone for a draw. Empty when not covered or lost now.
    pub fn line(&self, pos: &Position, max_len: usize) -> Vec<Move> {
        let mut p = pos.clone();
        let mut line = Vec::new();
        while line.len() < max_len {
            let Some(ranked) = self.rank_moves(&mut p) else {
                break;
            };
            let Some(best) = ranked.first() else { break };
            line.push(best.mv);
            if matches!(best.outcome, Outcome::Draw | Outcome::RuleDraw) {
                break;
            }
            p.make_move(best.mv);
        }
        line
    }
}

/// Sort key of a verdict: smaller is better for the mover.
fn preference(o: Outcome) -> (i32, i32) {
    match o {
        Outcome::Win(n) => (0, n as i32),
        Outcome::Draw => (1, 0),
        Outcome::RuleDraw => (2, 0),
        Outcome::Loss(n) => (3, -(n as i32)),
    }
}
