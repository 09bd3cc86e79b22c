//! The games of a data file that kept no position. Such a game writes no record, so the file
//! alone cannot say its index was played: without this list a continued run would number its
//! games one short and play a game already in the file again. The list, `PATH.empty` (one
//! index a line), is written atomically when such a game is handed in; a run killed before
//! that plays the empty game again, which again writes nothing.

use crate::common::atomic;
use std::collections::BTreeSet;
use std::path::Path;

/// The list's file beside data file `path`.
pub fn path_for(path: &str) -> String {
    format!("{path}.empty")
}

/// The indices listed for `path` (none when there is no list).
pub fn read(path: &str) -> Result<BTreeSet<u64>, String> {
    let file = path_for(path);
    let text = match std::fs::read_to_string(&file) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(BTreeSet::new()),
        Err(e) => return Err(format!("{file}: {e}")),
    };
    text.lines()
        .map(|l| {
            l.trim()
                .parse::<u64>()
                .map_err(|_| format!("{file}: not a game index: {l:?}"))
        })
        .collect()
}

/// Writes the list of `path` (removes it when `indices` is empty).
pub fn write(path: &str, indices: &BTreeSet<u64>) -> Result<(), String> {
    let file = path_for(path);
    if indices.is_empty() {
        return match std::fs::remove_file(&file) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(format!("{file}: {e}")),
            _ => Ok(()),
        };
    }
    let text: String = indices.iter().map(|i| format!("{i}\n")).collect();
    atomic::write(Path::new(&file), text.as_bytes())
}

/// The index of the next game to play after the file's `games` games that kept positions:
/// the listed empty games among them and right after them are skipped over.
pub fn next_index(games: u64, empty: &BTreeSet<u64>) -> u64 {
    let (mut index, mut left) = (0, games);
    while left > 0 || empty.contains(&index) {
        if !empty.contains(&index) {
            left -= 1;
        }
        index += 1;
    }
    index
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_next_index_counts_the_empty_games_before_it() {
        let set = |v: &[u64]| v.iter().copied().collect::<BTreeSet<u64>>();
        assert_eq!(next_index(0, &set(&[])), 0);
        assert_eq!(next_index(5, &set(&[])), 5);
        // Game 2 kept nothing: five games in the file are games 0, 1, 3, 4, 5.
        assert_eq!(next_index(5, &set(&[2])), 6);
        // Empty games right after the last game in the file are skipped too; one listed
        // further on (the file's tail cut since) is played again.
        assert_eq!(next_index(3, &set(&[2, 4, 7])), 5);
        assert_eq!(next_index(2, &set(&[0, 1])), 4);
        assert_eq!(next_index(0, &set(&[0, 1, 3])), 2);
    }

    #[test]
    fn the_list_is_written_read_and_removed() {
        let dir = std::env::temp_dir().join(format!("pao-empties-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let data = dir.join("data.bin").display().to_string();
        assert!(read(&data).expect("no list").is_empty());
        let list: BTreeSet<u64> = [3, 17].into_iter().collect();
        write(&data, &list).expect("written");
        assert_eq!(
            std::fs::read_to_string(path_for(&data)).expect("a file"),
            "3\n17\n"
        );
        assert_eq!(read(&data).expect("read"), list);
        std::fs::write(path_for(&data), "3\nx\n").expect("written");
        assert_eq!(
            read(&data).expect_err("refused"),
            format!("{}: not a game index: \"x\"", path_for(&data))
        );
        write(&data, &BTreeSet::new()).expect("removed");
        assert!(!Path::new(&path_for(&data)).exists());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
