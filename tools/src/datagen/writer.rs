//! Appends finished games to the data file in game-index order, so the file's content does
//! not depend on the thread count and a continued run knows which game comes next.

use super::empties;
use super::play::GameRecord;
use super::record::{read_bytes, read_header, write_header, Outcome, HEADER_SIZE, RECORD_SIZE};
use super::shard_log::ShardLog;
use crate::common::lock;
use crate::common::shard::Shard;
use std::collections::{BTreeMap, BTreeSet};
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::Path;
use std::sync::Mutex;
use std::time::Instant;

struct State {
    file: File,
    /// The next game index to write.
    next: u64,
    /// Finished games waiting for an earlier one.
    waiting: BTreeMap<u64, GameRecord>,
    positions: u64,
    /// Results for red (win, draw, loss) of the games written by this run.
    results: [u64; 3],
    /// A shard's log, told of each game written.
    log: Option<ShardLog>,
    /// Not a shard's file: its path and the games that kept no position (empties.rs; a
    /// shard's log counts them itself).
    empty: Option<(String, BTreeSet<u64>)>,
    /// The file's lock: one writer.
    _lock: lock::Lock,
}

/// The data file being written.
pub struct OrderedWriter {
    state: Mutex<State>,
}

impl OrderedWriter {
    /// Opens `path` for appending (creating it with a header) as its only writer (a lock),
    /// after checking an existing header, that the file was played with `settings` (kept in
    /// `PATH.settings`), and every record: a trailing partial record left by an interrupted
    /// write is cut, and so is a tail of broken records (with a warning), so that nothing is
    /// appended after them; a file mostly broken is refused.
    pub fn open(path: &str, settings: &str) -> Result<OrderedWriter, String> {
        let lock = lock::acquire(Path::new(path), "pao-tools datagen")?;
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(|e| format!("{path}: {e}"))?;
        let len = file.metadata().map_err(|e| format!("{path}: {e}"))?.len();
        let (mut games, mut positions) = (0, 0);
        if len == 0 {
            write_header(&mut file).map_err(|e| format!("{path}: {e}"))?;
        } else {
            let mut bytes = Vec::with_capacity(len as usize);
            file.read_to_end(&mut bytes)
                .map_err(|e| format!("{path}: {e}"))?;
            let (records, broken) = read_bytes(&bytes).map_err(|e| format!("{path}: {e}"))?;
            let total = records.len() as u64 + broken.count;
            if broken.most_of(total) {
                return Err(format!(
                    "{}; most of the file is broken: not appended to",
                    broken.warning(path, total)
                ));
            }
            if broken.count > 0 {
                eprintln!("warning: {}", broken.warning(path, total));
            }
            let kept = total - broken.tail;
            if broken.tail > 0 {
                eprintln!(
                    "warning: {path}: the last {} records are broken: cut at byte {} before \
                     appending",
                    broken.tail,
                    HEADER_SIZE as u64 + kept * RECORD_SIZE as u64
                );
            }
            file.set_len(HEADER_SIZE as u64 + kept * RECORD_SIZE as u64)
                .map_err(|e| format!("{path}: {e}"))?;
            positions = records.len() as u64;
            games = records.iter().filter(|r| r.first_of_game).count() as u64;
        }
        check_settings(path, settings, positions > 0)?;
        // Without a position the list is of no use (and may be of other settings): the games
        // it names are played again, and write nothing again.
        let empty = if positions > 0 {
            empties::read(path)?
        } else {
            empties::write(path, &BTreeSet::new())?;
            BTreeSet::new()
        };
        file.seek(SeekFrom::End(0))
            .map_err(|e| format!("{path}: {e}"))?;
        Ok(OrderedWriter {
            state: Mutex::new(State {
                file,
                next: empties::next_index(games, &empty),
                waiting: BTreeMap::new(),
                positions,
                results: [0; 3],
                log: None,
                empty: Some((path.to_string(), empty)),
                _lock: lock,
            }),
        })
    }

    /// Opens shard `shard`'s data file `path` and its log (see shard_log.rs): the log says
    /// which games the file holds, and the file is cut to them (a game written but not yet
    /// logged when a run was killed is played again). Games are then numbered within the shard.
    pub fn open_shard(path: &str, shard: Shard, settings: &str) -> Result<OrderedWriter, String> {
        let at = |e: std::io::Error| format!("{path}: {e}");
        let lock = lock::acquire(Path::new(path), "pao-tools datagen --shard")?;
        let existing = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
        let log_exists = std::path::Path::new(&super::shard_log::path_for(path)).exists();
        if !log_exists && existing > HEADER_SIZE as u64 {
            return Err(format!(
                "{path} holds data but has no shard log beside it: not a shard's file"
            ));
        }
        let (log, games) = ShardLog::open(path, shard, settings)?;
        let positions: u64 = games.iter().sum();
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(at)?;
        if games.is_empty() {
            file.set_len(0).map_err(at)?;
            write_header(&mut file).map_err(at)?;
        } else {
            read_header(&mut file).map_err(|e| format!("{path}: {e}"))?;
            let wanted = HEADER_SIZE as u64 + positions * RECORD_SIZE as u64;
            if file.metadata().map_err(at)?.len() < wanted {
                return Err(format!(
                    "{path} is shorter than its shard log says ({positions} positions)"
                ));
            }
            file.set_len(wanted).map_err(at)?;
        }
        file.seek(SeekFrom::End(0)).map_err(at)?;
        Ok(OrderedWriter {
            state: Mutex::new(State {
                file,
                next: games.len() as u64,
                waiting: BTreeMap::new(),
                positions,
                results: [0; 3],
                log: Some(log),
                empty: None,
                _lock: lock,
            }),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Games in the file.
    pub fn games(&self) -> u64 {
        self.lock().next
    }

    /// Positions in the file.
    pub fn positions(&self) -> u64 {
        self.lock().positions
    }

    /// Hands in game `index`; it is written (and flushed) once every earlier game is.
    pub fn submit(&self, index: u64, game: GameRecord) -> Result<(), String> {
        let mut st = self.lock();
        st.waiting.insert(index, game);
        loop {
            let next = st.next;
            let Some(game) = st.waiting.remove(&next) else {
                return Ok(());
            };
            // A game with no kept position has no first record: nothing is written for it,
            // and its index goes on the list of empty games so that a continued run counts it.
            if game.records.is_empty() {
                if let Some((path, list)) = &mut st.empty {
                    list.insert(next);
                    empties::write(path, list)?;
                }
            }
            let mut bytes = Vec::with_capacity(game.records.len() * RECORD_SIZE);
            for r in &game.records {
                bytes.extend_from_slice(&r.encode());
            }
            st.file
                .write_all(&bytes)
                .and_then(|_| st.file.flush())
                .map_err(|e| format!("writing data: {e}"))?;
            st.positions += game.records.len() as u64;
            st.results[match game.red {
                Outcome::Win => 0,
                Outcome::Draw => 1,
                Outcome::Loss => 2,
            }] += 1;
            if let Some(log) = &mut st.log {
                log.append(game.records.len() as u64)?;
            }
            st.next += 1;
        }
    }

    /// The progress line: games, positions, positions/s of this run, red's W/D/L.
    pub fn progress(&self, start_positions: u64, started: Instant) -> String {
        let st = self.lock();
        let new = st.positions - start_positions;
        let secs = started.elapsed().as_secs_f64().max(1e-3);
        format!(
            "games {} positions {} ({:.0}/s) red W-D-L {}-{}-{}",
            st.next,
            st.positions,
            new as f64 / secs,
            st.results[0],
            st.results[1],
            st.results[2]
        )
    }
}

/// The settings file of a data file: `PATH.settings`, the settings line its games were played
/// with (as a shard's log holds it). A file with data is appended to only with the same
/// settings; one without a settings file (written before they were kept) takes this run's.
fn check_settings(path: &str, settings: &str, has_data: bool) -> Result<(), String> {
    let file = format!("{path}.settings");
    match std::fs::read_to_string(&file) {
        Ok(was) if has_data && was.trim() != settings => Err(format!(
            "{path} was played with other settings ({}); this run has {settings}: give another \
             --out, or the settings of {file}",
            was.trim()
        )),
        Ok(was) if was.trim() == settings => Ok(()),
        Ok(_) | Err(_) => {
            crate::common::atomic::write(Path::new(&file), format!("{settings}\n").as_bytes())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datagen::record::Record;
    use pao::board::Position;

    fn game(positions: usize) -> GameRecord {
        let pos = Position::startpos();
        let records = (0..positions)
            .map(|i| Record::new(&pos, 0, Outcome::Draw, i == 0).expect("a record"))
            .collect();
        GameRecord {
            records,
            red: Outcome::Draw,
        }
    }

    /// A game that kept no position writes nothing, yet a continued run counts it: the next
    /// game is numbered as in one uninterrupted run, whatever the order games come in.
    #[test]
    fn a_continued_file_counts_the_games_that_kept_no_position() {
        let dir = std::env::temp_dir().join(format!("pao-writer-empty-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let path = dir.join("data.bin").display().to_string();
        let settings = "seed=1 nodes=2";
        let w = OrderedWriter::open(&path, settings).expect("opens");
        w.submit(1, game(0)).expect("waits for game 0");
        w.submit(0, game(2)).expect("written");
        w.submit(2, game(1)).expect("written");
        assert_eq!((w.games(), w.positions()), (3, 3));
        drop(w);
        assert_eq!(
            std::fs::read_to_string(empties::path_for(&path)).expect("a list"),
            "1\n"
        );
        let w = OrderedWriter::open(&path, settings).expect("continues");
        assert_eq!((w.games(), w.positions()), (3, 3));
        w.submit(3, game(0)).expect("written");
        drop(w);
        assert_eq!(
            OrderedWriter::open(&path, settings).expect("opens").games(),
            4
        );
        // Other settings on a file without positions: the list goes with the old games.
        let bare = dir.join("bare.bin").display().to_string();
        let w = OrderedWriter::open(&bare, settings).expect("opens");
        w.submit(0, game(0)).expect("nothing written");
        drop(w);
        let w = OrderedWriter::open(&bare, "seed=2 nodes=2").expect("opens");
        assert_eq!(w.games(), 0);
        assert!(!Path::new(&empties::path_for(&bare)).exists());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
