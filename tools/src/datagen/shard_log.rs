//! The log beside a shard's data file (`OUT.shard`): which shard it is, the settings that
//! decide its games, and one line per game written (game index, positions). A game can keep no
//! position at all, so the data file alone cannot tell which games it holds; the log can, and
//! it is what lets `datagen merge` interleave the shards exactly and a shard continue (`<TAB>`
//! stands for a tab):
//!
//! ```text
//! # pao-tools datagen shard log: game index, positions
//! shard 2/3
//! settings seed=1 nodes=5000 depth=none random-plies=8 max-plies=400 hash=16 openings=start evalfile=none
//! 1 <TAB> 43
//! 4 <TAB> 0
//! ```

use crate::common::shard::Shard;
use std::fs::{File, OpenOptions};
use std::io::Write;

const TITLE: &str = "# pao-tools datagen shard log: game index, positions";

/// The log's path for a shard data file.
pub fn path_for(data: &str) -> String {
    format!("{data}.shard")
}

/// What a log says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogContent {
    /// Which shard.
    pub shard: Shard,
    /// The settings line (everything that decides the games).
    pub settings: String,
    /// Positions of each game written, in the shard's order (game index `shard.unit(k)`).
    pub games: Vec<u64>,
}

impl LogContent {
    /// Positions in all the games.
    pub fn positions(&self) -> u64 {
        self.games.iter().sum()
    }
}

/// Parses a log; a torn last line (no newline: a run killed while writing) is left out, and
/// the length of the text that was read is returned with it.
pub fn parse(text: &str) -> Result<(LogContent, usize), String> {
    let complete = match text.rfind('\n') {
        Some(i) => &text[..i + 1],
        None => "",
    };
    let mut lines = complete.lines();
    if lines.next() != Some(TITLE) {
        return Err("not a datagen shard log (bad first line)".into());
    }
    let shard = lines
        .next()
        .and_then(|l| l.strip_prefix("shard "))
        .ok_or("no shard line")?
        .parse::<Shard>()?;
    let settings = lines
        .next()
        .and_then(|l| l.strip_prefix("settings "))
        .ok_or("no settings line")?
        .to_string();
    let mut games = Vec::new();
    for (k, line) in lines.enumerate() {
        let bad = || format!("bad game line '{line}'");
        let (index, positions) = line.split_once('\t').ok_or_else(bad)?;
        let index: u64 = index.parse().map_err(|_| bad())?;
        let positions: u64 = positions.parse().map_err(|_| bad())?;
        let expected = shard.unit(k as u64);
        if index != expected {
            return Err(format!(
                "game line {} is game {index}, but shard {shard} plays game {expected} there",
                k + 1
            ));
        }
        games.push(positions);
    }
    Ok((
        LogContent {
            shard,
            settings,
            games,
        },
        complete.len(),
    ))
}

/// Reads the log of shard data file `data`.
pub fn read(data: &str) -> Result<LogContent, String> {
    let path = path_for(data);
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))?;
    parse(&text)
        .map(|(c, _)| c)
        .map_err(|e| format!("{path}: {e}"))
}

/// A log open for appending.
pub struct ShardLog {
    file: File,
    path: String,
    shard: Shard,
    written: u64,
}

impl ShardLog {
    /// Opens the log of `data` for `shard` with `settings`: a new one, or an existing one that
    /// must be of the same shard and settings (its torn last line cut). Returns the log and
    /// what it held.
    pub fn open(data: &str, shard: Shard, settings: &str) -> Result<(ShardLog, Vec<u64>), String> {
        let path = path_for(data);
        let games = match std::fs::read_to_string(&path) {
            Ok(text) => {
                let (content, keep) = parse(&text).map_err(|e| format!("{path}: {e}"))?;
                if content.shard != shard {
                    return Err(format!(
                        "{path}: this file is shard {}, not {shard}",
                        content.shard
                    ));
                }
                if content.settings != settings {
                    return Err(format!(
                        "{path}: the shard was started with other settings ({}) than these ({settings})",
                        content.settings
                    ));
                }
                if keep < text.len() {
                    std::fs::write(&path, &text[..keep]).map_err(|e| format!("{path}: {e}"))?;
                }
                content.games
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let head = format!("{TITLE}\nshard {shard}\nsettings {settings}\n");
                std::fs::write(&path, head).map_err(|e| format!("{path}: {e}"))?;
                Vec::new()
            }
            Err(e) => return Err(format!("{path}: {e}")),
        };
        let file = OpenOptions::new()
            .append(true)
            .open(&path)
            .map_err(|e| format!("{path}: {e}"))?;
        let log = ShardLog {
            file,
            path,
            shard,
            written: games.len() as u64,
        };
        Ok((log, games))
    }

    /// Records the next game (written to the data file already) with its positions.
    pub fn append(&mut self, positions: u64) -> Result<(), String> {
        let line = format!("{}\t{positions}\n", self.shard.unit(self.written));
        self.file
            .write_all(line.as_bytes())
            .and_then(|_| self.file.flush())
            .map_err(|e| format!("{}: {e}", self.path))?;
        self.written += 1;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_its_own_lines_and_drops_a_torn_one() {
        let text = format!("{TITLE}\nshard 2/3\nsettings seed=1\n1\t43\n4\t0\n7\t1");
        let (c, keep) = parse(&text).expect("parses");
        assert_eq!(c.shard.to_string(), "2/3");
        assert_eq!(c.settings, "seed=1");
        assert_eq!(c.games, vec![43, 0]);
        assert_eq!(c.positions(), 43);
        assert_eq!(&text[keep..], "7\t1");
        let wrong = format!("{TITLE}\nshard 2/3\nsettings s\n1\t43\n5\t2\n");
        assert_eq!(
            parse(&wrong).map(|_| ()),
            Err("game line 2 is game 5, but shard 2/3 plays game 4 there".into())
        );
        assert!(parse("shard 1/1\n").is_err());
        assert!(parse(&format!("{TITLE}\nshard 1/1\nsettings s\n0 1\n")).is_err());
    }
}
