//! Atomic file writes: the bytes go to a temporary file beside the target, are synced, and the
//! temporary file is renamed over the target (then the directory is synced), so a reader sees
//! the old file or the whole new one, never a short one, even after a crash or a full disk.

use std::io::Write;
use std::path::{Path, PathBuf};

/// Writes `bytes` to `path` atomically. The error names the file.
pub fn write(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let name = path
        .file_name()
        .ok_or_else(|| format!("{}: not a file name", path.display()))?;
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(name);
    tmp_name.push(format!(".tmp-{}", std::process::id()));
    let tmp: PathBuf = path.with_file_name(tmp_name);
    let result = (|| -> std::io::Result<()> {
        let mut file = std::fs::File::create(&tmp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        drop(file);
        std::fs::rename(&tmp, path)?;
        sync_dir(path);
        Ok(())
    })();
    result.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        format!("{}: {e}", path.display())
    })
}

/// Syncs the directory that holds `path`, so that a rename survives a crash. Best effort: some
/// file systems cannot open a directory for syncing, and the rename itself has happened.
fn sync_dir(path: &Path) {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_write_replaces_the_file_whole_and_leaves_no_temporary_file() {
        let dir = std::env::temp_dir().join(format!("pao-atomic-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join("row.md");
        write(&path, b"first").expect("written");
        write(&path, b"second, longer").expect("written");
        assert_eq!(std::fs::read(&path).expect("read"), b"second, longer");
        let names: Vec<_> = std::fs::read_dir(&dir)
            .expect("dir")
            .filter_map(|e| e.ok().map(|e| e.file_name()))
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("row.md")]);
        let err = write(&dir.join("missing/row.md"), b"x").expect_err("no such directory");
        assert!(err.contains("missing/row.md"), "{err}");
        std::fs::remove_dir_all(&dir).ok();
    }
}
