//! Endgame bitbases: win, draw or loss for every position of a few materials, derived from
//! Pao's own tables by `pao-tools egtb bitbase` and embedded in the engine, so that the
//! evaluation without tables knows the endings where the same pieces win or draw by their
//! placement (a horse against an elephant, a soldier against an advisor).
//!
//! A material's blob (`format.rs`) is decompressed when a position of it is first evaluated;
//! one that fails its checks is reported once (`take_errors`) and not used.

pub mod format;

#[path = "embedded.rs"]
mod embedded;

pub use embedded::MAX_PIECES;
pub use format::{Bitbase, Wdl};

use crate::board::Position;
use crate::egtb::index::placement_of;
use crate::egtb::Material;
use parking_lot::Mutex;
use std::sync::OnceLock;

/// A drawn position scores its evaluation divided by this, within `DRAW_LIMIT` of 0: the
/// search still prefers the draws where the evaluation sees chances, but never by much.
pub const DRAW_DIVISOR: i32 = 32;
/// The most a drawn position scores away from 0.
pub const DRAW_LIMIT: i32 = 10;
/// A won position scores at least this much below `KNOWN_WIN` ...
pub const WIN_MARGIN: i32 = 100;
/// ... and an evaluation below this is pulled up toward it (an eighth of the gap is kept,
/// so that the search still sees which wins the evaluation likes better).
pub const KNOWN_WIN: i32 = 400;

/// One embedded material: its blob, decompressed on first use (`None`: refused).
struct Entry {
    material: Material,
    blob: &'static [u8],
    decoded: OnceLock<Option<Bitbase>>,
}

/// A set of bitbases by material.
pub struct Registry {
    /// Sorted by material.
    entries: Vec<Entry>,
}

/// Lines about blobs that could not be used, not yet taken.
static ERRORS: Mutex<Vec<String>> = Mutex::new(Vec::new());

fn report(line: String) {
    ERRORS.lock().push(line);
}

/// Lines about bitbases refused since the last call (each once): a blob that failed its
/// checks. The engine prints them as errors; the evaluation goes on without that material.
pub fn take_errors() -> Vec<String> {
    std::mem::take(&mut *ERRORS.lock())
}

impl Registry {
    /// A set from (material name, blob) pairs; a name that is no material is reported and
    /// left out. Nothing is decompressed yet.
    pub fn new(list: &[(&str, &'static [u8])]) -> Registry {
        let mut entries = Vec::with_capacity(list.len());
        for &(name, blob) in list {
            match Material::parse(name) {
                Ok(material) => entries.push(Entry {
                    material,
                    blob,
                    decoded: OnceLock::new(),
                }),
                Err(e) => report(format!("endgame bitbase {name}: {e}; not used")),
            }
        }
        entries.sort_by_key(|e| e.material);
        Registry { entries }
    }

    /// The materials held, in their order.
    pub fn materials(&self) -> Vec<Material> {
        self.entries.iter().map(|e| e.material).collect()
    }

    /// The bitbase of a material, decompressed now if it was not yet; `None` when none is
    /// held or its blob was refused (reported once).
    pub fn bitbase(&self, material: &Material) -> Option<&Bitbase> {
        let i = self
            .entries
            .binary_search_by_key(material, |e| e.material)
            .ok()?;
        let entry = &self.entries[i];
        entry
            .decoded
            .get_or_init(|| match format::decode(&entry.material, entry.blob) {
                Ok(b) => Some(b),
                Err(e) => {
                    report(format!(
                        "endgame bitbase {}: {e}; not used",
                        entry.material.name()
                    ));
                    None
                }
            })
            .as_ref()
    }

    /// The verdict on a position from the side to move, when its material is held.
    pub fn probe(&self, pos: &Position) -> Option<Wdl> {
        let (material, flip) = Material::of_position(pos)?;
        let bitbase = self.bitbase(&material)?;
        let (placement, side) = placement_of(pos, flip);
        bitbase.wdl(bitbase.index().encode(&placement, side)?)
    }
}

/// The bitbases embedded in the engine.
pub fn embedded() -> &'static Registry {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    REGISTRY.get_or_init(|| Registry::new(embedded::BLOBS))
}

/// The embedded verdict on a position from the side to move, when its material is held.
#[inline]
pub fn probe(pos: &Position) -> Option<Wdl> {
    embedded().probe(pos)
}

/// The evaluation `score` (side to move) of a position made to agree with its verdict: a
/// draw scores within `DRAW_LIMIT` of 0, a win at least `KNOWN_WIN - WIN_MARGIN` (the
/// evaluation kept when it is already above `KNOWN_WIN`), a loss the same negated.
pub fn adjust(wdl: Wdl, score: i32) -> i32 {
    match wdl {
        Wdl::Draw => (score / DRAW_DIVISOR).clamp(-DRAW_LIMIT, DRAW_LIMIT),
        Wdl::Win => winning(score),
        Wdl::Loss => -winning(score.saturating_neg()),
    }
}

/// A winner's score: unchanged from `KNOWN_WIN` on, below it pulled into
/// [`KNOWN_WIN - WIN_MARGIN`, `KNOWN_WIN`).
fn winning(score: i32) -> i32 {
    if score >= KNOWN_WIN {
        score
    } else {
        (KNOWN_WIN - KNOWN_WIN.saturating_sub(score) / 8).max(KNOWN_WIN - WIN_MARGIN)
    }
}

/// `score` (side to move) adjusted by the embedded bitbases when they hold the position's
/// material; unchanged otherwise.
pub fn apply(pos: &Position, score: i32) -> i32 {
    match probe(pos) {
        Some(wdl) => adjust(wdl, score),
        None => score,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_follow_the_verdict() {
        assert_eq!(adjust(Wdl::Draw, 640), 10);
        assert_eq!(adjust(Wdl::Draw, -200), -6);
        assert_eq!(adjust(Wdl::Draw, 25), 0);
        assert_eq!(adjust(Wdl::Win, 900), 900);
        assert_eq!(adjust(Wdl::Win, 400), 400);
        assert_eq!(adjust(Wdl::Win, 0), 350);
        assert_eq!(adjust(Wdl::Win, -2000), 300);
        assert_eq!(adjust(Wdl::Loss, 0), -350);
        assert_eq!(adjust(Wdl::Loss, -900), -900);
        assert_eq!(adjust(Wdl::Loss, i32::MIN), -i32::MAX);
        assert_eq!(adjust(Wdl::Win, i32::MIN), 300);
    }
}
