//! One writer per file: a writer holds an exclusive lock on `FILE.lock` (flock, released by
//! the system when the process ends, however it ends) that names it (its process id and
//! command), so that a second writer is refused with one line naming the holder.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// A held lock; dropping it releases it.
#[derive(Debug)]
pub struct Lock {
    _file: File,
}

/// The lock file of `target`: `TARGET.lock` beside it.
pub fn path_for(target: &Path) -> PathBuf {
    let mut name = target.as_os_str().to_os_string();
    name.push(".lock");
    PathBuf::from(name)
}

/// Takes the lock of `target` for this process (`what` says what it writes, for the holder's
/// line), or says who holds it.
pub fn acquire(target: &Path, what: &str) -> Result<Lock, String> {
    let (path, mut file) = open(target)?;
    match file.try_lock() {
        Ok(()) => {}
        Err(TryLockError::WouldBlock) => {
            let mut holder = String::new();
            let _ = file.read_to_string(&mut holder);
            let holder = holder.trim();
            return Err(format!(
                "{} is being written by another process ({}); wait for it to end or stop it",
                target.display(),
                if holder.is_empty() {
                    "its lock file names no process".to_string()
                } else {
                    holder.to_string()
                }
            ));
        }
        Err(TryLockError::Error(e)) => return Err(format!("{}: {e}", path.display())),
    }
    claim(&path, file, what)
}

/// Takes the lock of `target` like `acquire`, but waits while another process holds it: for
/// writers that take turns (each holds it only for a read-modify-write of the file).
pub fn wait(target: &Path, what: &str) -> Result<Lock, String> {
    let (path, file) = open(target)?;
    file.lock()
        .map_err(|e| format!("{}: {e}", path.display()))?;
    claim(&path, file, what)
}

/// Opens (creating it) the lock file of `target`, not yet locked.
fn open(target: &Path) -> Result<(PathBuf, File), String> {
    let path = path_for(target);
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&path)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    Ok((path, file))
}

/// Writes this process's name into the locked `file` (at `path`), for a refused writer's line.
fn claim(path: &Path, mut file: File, what: &str) -> Result<Lock, String> {
    let me = format!("pid {}: {what}\n", std::process::id());
    file.set_len(0)
        .and_then(|()| file.seek(SeekFrom::Start(0)))
        .and_then(|_| file.write_all(me.as_bytes()))
        .map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(Lock { _file: file })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_writer_is_refused_naming_the_first_until_it_lets_go() {
        let dir = std::env::temp_dir().join(format!("pao-lock-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let target = dir.join("data.bin");
        let first = acquire(&target, "datagen").expect("free");
        assert!(dir.join("data.bin.lock").is_file());
        let err = acquire(&target, "datagen").expect_err("held");
        assert_eq!(
            err,
            format!(
                "{} is being written by another process (pid {}: datagen); wait for it to end \
                 or stop it",
                target.display(),
                std::process::id()
            )
        );
        drop(first);
        acquire(&target, "datagen").expect("free again");
        // A waiting writer gets the lock once the holder lets go.
        let held = acquire(&target, "tune").expect("free");
        let waiter = std::thread::spawn({
            let target = target.clone();
            move || wait(&target, "tune").map(|_| ())
        });
        std::thread::sleep(std::time::Duration::from_millis(50));
        assert!(!waiter.is_finished());
        drop(held);
        assert_eq!(waiter.join().expect("joined"), Ok(()));
        std::fs::remove_dir_all(&dir).ok();
    }
}
