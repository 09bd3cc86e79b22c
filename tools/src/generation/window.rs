//! The training window: this generation's data first, then whatever data of earlier
//! generations is still on the machine, newest first, until the window holds its positions or
//! its files (by default one earlier file: data played by nets two generations back made a
//! weaker net, docs/network.md).
//! Earlier data is a bonus, never a requirement: a file that is missing or broken is left out
//! with a note, and the window is never empty while this generation has data.

use crate::datagen::record::{read_header, HEADER_SIZE, RECORD_SIZE};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

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

/// The window: `own` (this generation's data) first, then `others` newest first (by the time
/// they were last written), adding whole files while the window holds fewer than `limit`
/// positions and fewer than `files` of them. Notes on files left out go to `note`.
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
    let mut dated: Vec<(SystemTime, &PathBuf)> = Vec::new();
    for path in others.iter().filter(|p| p.as_path() != own) {
        match std::fs::metadata(path).and_then(|m| m.modified()) {
            Ok(t) => dated.push((t, path)),
            Err(e) => note(format!("left out {}: {e}", path.display())),
        }
    }
    dated.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(b.1)));
    let mut total = window[0].positions;
    for (_, path) in dated {
        if total >= limit || window.len() > files {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datagen::record::write_header;

    fn data_file(path: &Path, records: usize) {
        let mut bytes = Vec::new();
        write_header(&mut bytes).expect("header");
        bytes.resize(HEADER_SIZE + records * RECORD_SIZE, 0);
        std::fs::write(path, bytes).expect("written");
    }

    #[test]
    fn own_data_first_then_the_newest_until_full_and_broken_files_left_out() {
        let dir = std::env::temp_dir().join(format!("pao-gen-window-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let (own, old, new, broken) = (
            dir.join("own.bin"),
            dir.join("old.bin"),
            dir.join("new.bin"),
            dir.join("broken.bin"),
        );
        data_file(&old, 30);
        std::thread::sleep(std::time::Duration::from_millis(20));
        data_file(&new, 20);
        std::fs::write(&broken, [b'x'; 64]).expect("written");
        data_file(&own, 10);
        let others = vec![
            old.clone(),
            broken.clone(),
            new.clone(),
            dir.join("gone.bin"),
        ];
        let mut notes = Vec::new();
        let w = choose(&own, &others, 25, 5, &mut |n| notes.push(n)).expect("window");
        let names: Vec<(PathBuf, u64)> = w.iter().map(|e| (e.path.clone(), e.positions)).collect();
        assert_eq!(names, vec![(own.clone(), 10), (new.clone(), 20)]);
        assert_eq!(notes.len(), 3, "{notes:?}");
        assert!(notes.iter().any(|n| n.contains("gone.bin")));
        assert!(notes
            .iter()
            .any(|n| n.contains("old.bin") && n.contains("full")));
        // The broken file, the newest of the others, fails its header check.
        assert!(
            notes
                .iter()
                .any(|n| n.contains("broken.bin") && n.contains("magic")),
            "{notes:?}"
        );
        let all = choose(&own, &others, 1000, 5, &mut |_| {}).expect("window");
        assert_eq!(all.iter().map(|e| e.positions).sum::<u64>(), 60);
        // One earlier file at most: the newest that reads.
        let mut notes = Vec::new();
        let one = choose(&own, &others, 1000, 1, &mut |n| notes.push(n)).expect("window");
        let names: Vec<&Path> = one.iter().map(|e| e.path.as_path()).collect();
        assert_eq!(names, vec![own.as_path(), new.as_path()]);
        assert!(notes
            .iter()
            .any(|n| n.contains("old.bin") && n.contains("full")));
        let none = choose(&own, &others, 1000, 0, &mut |_| {}).expect("window");
        assert_eq!(none.len(), 1);
        std::fs::remove_dir_all(&dir).ok();
    }
}
