//! Appends finished games to the data file in game-index order, so the file's content does
//! not depend on the thread count and a continued run knows which game comes next.

use super::play::GameRecord;
use super::record::{read_header, write_header, Outcome, HEADER_SIZE, RECORD_SIZE};
use super::shard_log::ShardLog;
use crate::common::shard::Shard;
use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
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
}

/// The data file being written.
pub struct OrderedWriter {
    state: Mutex<State>,
}

impl OrderedWriter {
    /// Opens `path` for appending (creating it with a header), after checking an existing
    /// header and cutting a trailing partial record left by an interrupted write.
    pub fn open(path: &str) -> Result<OrderedWriter, String> {
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
            read_header(&mut file).map_err(|e| format!("{path}: {e}"))?;
            let records = (len.saturating_sub(HEADER_SIZE as u64)) / RECORD_SIZE as u64;
            file.set_len(HEADER_SIZE as u64 + records * RECORD_SIZE as u64)
                .map_err(|e| format!("{path}: {e}"))?;
            let mut buf = vec![0u8; RECORD_SIZE * 4096];
            loop {
                let n = read_full(&mut file, &mut buf).map_err(|e| format!("{path}: {e}"))?;
                for rec in buf[..n].chunks_exact(RECORD_SIZE) {
                    positions += 1;
                    games += (rec[28] & 2 != 0) as u64;
                }
                if n < buf.len() {
                    break;
                }
            }
        }
        file.seek(SeekFrom::End(0))
            .map_err(|e| format!("{path}: {e}"))?;
        Ok(OrderedWriter {
            state: Mutex::new(State {
                file,
                next: games,
                waiting: BTreeMap::new(),
                positions,
                results: [0; 3],
                log: None,
            }),
        })
    }

    /// Opens shard `shard`'s data file `path` and its log (see shard_log.rs): the log says
    /// which games the file holds, and the file is cut to them (a game written but not yet
    /// logged when a run was killed is played again). Games are then numbered within the shard.
    pub fn open_shard(path: &str, shard: Shard, settings: &str) -> Result<OrderedWriter, String> {
        let at = |e: std::io::Error| format!("{path}: {e}");
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
            // A game with no kept position has no first record: it is not counted, and
            // index continuity is kept by writing nothing for it.
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

fn read_full(file: &mut File, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match file.read(&mut buf[n..])? {
            0 => break,
            k => n += k,
        }
    }
    Ok(n)
}
