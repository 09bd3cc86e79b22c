//! Which engine a command runs when it is not told (`--engine`): the `pao` beside the running
//! `pao-tools` (the build directory, or the directory `cargo install` put both in), else the
//! first `pao` on PATH.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

/// The engine's file name.
fn name() -> String {
    format!("pao{}", std::env::consts::EXE_SUFFIX)
}

/// The engine to run when `--engine` is not given; `pao` alone when there is none to find,
/// so that starting it fails with that name.
pub fn default_engine() -> String {
    let exe = std::env::current_exe().ok();
    find(exe.as_deref(), std::env::var_os("PATH").as_deref())
        .map_or_else(name, |p| p.to_string_lossy().into_owned())
}

/// The `pao` beside `exe`, else the first in the directories of `path`.
fn find(exe: Option<&Path>, path: Option<&OsStr>) -> Option<PathBuf> {
    let beside = exe.and_then(Path::parent).map(|dir| dir.join(name()));
    let on_path = path
        .into_iter()
        .flat_map(std::env::split_paths)
        .map(|dir| dir.join(name()));
    beside.into_iter().chain(on_path).find(|p| is_program(p))
}

/// A file the system can run.
fn is_program(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    }
    #[cfg(not(unix))]
    {
        path.is_file()
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    /// `dir/pao`, executable or not.
    fn put(dir: &Path, executable: bool) -> PathBuf {
        std::fs::create_dir_all(dir).unwrap();
        let p = dir.join("pao");
        std::fs::write(&p, "#!/bin/sh\n").unwrap();
        let mode = if executable { 0o755 } else { 0o644 };
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(mode)).unwrap();
        p
    }

    #[test]
    fn beside_the_tools_first_then_path_in_order() {
        let root = std::env::temp_dir().join(format!("pao-engine-path-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let (tools, first, second, plain) = (
            root.join("tools"),
            root.join("first"),
            root.join("second"),
            root.join("plain"),
        );
        let exe = tools.join("pao-tools");
        let path = std::env::join_paths([&plain, &first, &second]).unwrap();
        // Nothing anywhere.
        assert_eq!(find(Some(&exe), Some(&path)), None);
        assert_eq!(find(None, None), None);
        // On PATH: the first directory that holds a program (a plain file is not one).
        put(&plain, false);
        let in_second = put(&second, true);
        assert_eq!(find(Some(&exe), Some(&path)), Some(in_second));
        let in_first = put(&first, true);
        assert_eq!(find(Some(&exe), Some(&path)), Some(in_first.clone()));
        assert_eq!(find(None, Some(&path)), Some(in_first));
        // Beside the running tools: before anything on PATH.
        let beside = put(&tools, true);
        assert_eq!(find(Some(&exe), Some(&path)), Some(beside.clone()));
        assert_eq!(find(Some(&exe), None), Some(beside));
        let _ = std::fs::remove_dir_all(&root);
    }
}
