//! The training window: this generation's data first, then the files given by `--window`,
//! then the data of the current net's lineage (the data its parent played, then its
//! grandparent's, ...), until the window holds its positions or its files (by default one
//! earlier file: data played by nets two generations back made a weaker net,
//! docs/network.md). Lineage, not the files' dates, says which data is the parent's: each
//! generation's directory is named by the checksum of the net that played its data, and
//! holds the net it accepted.
//! Earlier data is a bonus, never a requirement: a file that is missing or broken is left out
//! with a note, and the window is never empty while this generation has data. Once the window
//! is full, the files that are there are named as left out for that, and the missing ones are
//! passed over without a word: the lineage names the directory of every ancestor, including
//! those that never were in this data directory.

use crate::datagen::record::{read_header, HEADER_SIZE, RECORD_SIZE};
use std::path::{Path, PathBuf};

/// One data file of the window.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// The file.
    pub path: PathBuf,
    /// Its positions.
    pub positions: u64,
}

/// Positions in a data file, after checking its header.
pub fn positions(path: &Path) -> Result<u64, String> {
    let mut file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    read_header(&mut file).map_err(|e| format!("{}: {e}", path.display()))?;
    let len = file
        .metadata()
        .map_err(|e| format!("{}: {e}", path.display()))?
        .len();
    Ok(len.saturating_sub(HEADER_SIZE as u64) / RECORD_SIZE as u64)
}

/// The body checksum in a net file's header (bytes 40-48), without reading the whole file.
fn net_checksum(path: &Path) -> Option<u64> {
    use std::io::Read;
    let mut header = [0u8; 48];
    std::fs::File::open(path)
        .ok()?
        .read_exact(&mut header)
        .ok()?;
    Some(u64::from_le_bytes(header[40..48].try_into().ok()?))
}

/// The checksum a generation directory's name (`gen-CHECKSUM`) gives.
fn dir_checksum(dir: &Path) -> Option<u64> {
    let name = dir.file_name()?.to_str()?;
    u64::from_str_radix(name.strip_prefix("gen-")?, 16).ok()
}

/// The attempts of a generation directory: the directory itself, then `attempt-N`.
pub fn attempts(dir: &Path) -> Vec<PathBuf> {
    let mut numbered: Vec<(u64, PathBuf)> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok())
                .filter_map(|e| {
                    let n = e
                        .file_name()
                        .to_str()?
                        .strip_prefix("attempt-")?
                        .parse()
                        .ok()?;
                    Some((n, e.path()))
                })
                .collect()
        })
        .unwrap_or_default();
    numbered.sort();
    std::iter::once(dir.to_path_buf())
        .chain(numbered.into_iter().map(|(_, p)| p))
        .collect()
}

/// Where the net with body checksum `net` was accepted in `root`: the attempt directory that
/// holds it as `accepted.nnue`.
pub fn accepted_in(root: &Path, net: u64) -> Option<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| dir_checksum(p).is_some())
        .collect();
    dirs.sort();
    dirs.iter()
        .flat_map(|d| attempts(d))
        .find(|a| net_checksum(&a.join("accepted.nnue")) == Some(net))
}

/// The parent of the net with checksum `net` (the net whose generation accepted it): from the
/// directory that accepted it, else from `provenance` (an accepted net's own provenance names
/// the net it came from, `generation from NAME (body checksum HEX)`).
fn parent(root: &Path, net: u64, provenance: Option<&str>) -> Option<u64> {
    if let Some(attempt) = accepted_in(root, net) {
        let generation = attempt
            .ancestors()
            .find(|a| dir_checksum(a).is_some())?
            .to_path_buf();
        return dir_checksum(&generation);
    }
    let text = provenance?;
    let rest = &text[text.rfind("; generation from ")?..];
    let hex = rest.split("(body checksum ").nth(1)?.get(..16)?;
    u64::from_str_radix(hex, 16).ok()
}

/// The data files of the lineage of the current net (checksum `current`, provenance
/// `provenance`): its parent's data first, then the grandparent's, as far as the directories
/// of `root` go.
pub fn lineage(root: &Path, current: u64, provenance: &str) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut seen = vec![current];
    let mut net = current;
    let mut text = Some(provenance);
    while let Some(p) = parent(root, net, text) {
        if seen.contains(&p) {
            break;
        }
        seen.push(p);
        files.push(root.join(format!("gen-{p:016x}")).join("data.bin"));
        net = p;
        text = None;
    }
    files
}

/// Whether nothing is at `path` (not a file that cannot be read: that one is named with its
/// error).
fn missing(path: &Path) -> bool {
    matches!(std::fs::metadata(path), Err(e) if e.kind() == std::io::ErrorKind::NotFound)
}

/// The window: `own` (this generation's data) first, then `others` in their order, adding
/// whole files while the window holds fewer than `limit` positions and fewer than `files` of
/// them. Notes on files left out go to `note`: missing or broken while the window has room,
/// there but beyond a full window.
pub fn choose(
    own: &Path,
    others: &[PathBuf],
    limit: u64,
    files: usize,
    note: &mut dyn FnMut(String),
) -> Result<Vec<Entry>, String> {
    let mut window = vec![Entry {
        path: own.to_path_buf(),
        positions: positions(own)?,
    }];
    let mut total = window[0].positions;
    for path in others.iter().filter(|p| p.as_path() != own) {
        if window.iter().any(|e| &e.path == path) {
            continue;
        }
        let full = total >= limit || window.len() > files;
        if missing(path) {
            if !full {
                note(format!("left out {}: missing", path.display()));
            }
            continue;
        }
        if full {
            note(format!("left out {}: the window is full", path.display()));
            continue;
        }
        match positions(path) {
            Ok(n) => {
                total += n;
                window.push(Entry {
                    path: path.clone(),
                    positions: n,
                });
            }
            Err(e) => note(format!("left out {e}")),
        }
    }
    Ok(window)
}

/// Reads a window recorded as `path=positions,...` and checks that each file is still there
/// with its positions; the error says which is not (the window is never chosen again behind
/// a resumed training's back).
pub fn recorded(text: &str, state: &Path) -> Result<Vec<Entry>, String> {
    let mut entries = Vec::new();
    for item in text.split(',') {
        let bad = || format!("{}: a bad window entry '{item}'", state.display());
        let (path, n) = item.rsplit_once('=').ok_or_else(bad)?;
        let entry = Entry {
            path: PathBuf::from(path),
            positions: n.parse().map_err(|_| bad())?,
        };
        match positions(&entry.path) {
            Ok(n) if n == entry.positions => entries.push(entry),
            found => {
                let now = match found {
                    Ok(n) => format!("it holds {n} positions, not {}", entry.positions),
                    Err(e) => e,
                };
                return Err(format!(
                    "the training window recorded in {} cannot be read: {now}; put the file \
                     back as it was, or give --retry to train a new attempt on a new window",
                    state.display()
                ));
            }
        }
    }
    Ok(entries)
}

#[cfg(test)]
mod tests;
