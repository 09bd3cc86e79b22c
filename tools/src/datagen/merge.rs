//! `pao-tools datagen merge`: the shards of a run (`--shard I/N`) back into the one file a
//! single run writes, byte for byte: game g is shard (g mod N)'s game g div N, and a single run
//! writes whole games in game order. The games that kept no position are listed beside it as a
//! single run lists them (empties.rs), so that the merged file continues as that run's would.

use super::record::{read_header, HEADER_SIZE, RECORD_SIZE};
use super::shard_log::{self, LogContent};
use crate::common::shard::{check_complete, Shard};
use std::io::Write;

/// One shard: its log and its games' bytes, in its own order.
struct ShardData {
    log: LogContent,
    games: Vec<Vec<u8>>,
}

fn load(path: &str) -> Result<ShardData, String> {
    let log = shard_log::read(path)?;
    let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    read_header(&mut &bytes[..]).map_err(|e| format!("{path}: {e}"))?;
    let wanted = HEADER_SIZE + log.positions() as usize * RECORD_SIZE;
    if bytes.len() < wanted {
        return Err(format!(
            "{path} is shorter than its shard log says ({} positions)",
            log.positions()
        ));
    }
    // Bytes past `wanted` belong to a game that was written but not logged: the shard plays it
    // again when continued, and a merge leaves it out.
    let mut games = Vec::with_capacity(log.games.len());
    let mut at = HEADER_SIZE;
    for (k, &n) in log.games.iter().enumerate() {
        let end = at + n as usize * RECORD_SIZE;
        let game = &bytes[at..end];
        // The first record of a game, and only it, carries the first-of-game flag.
        let flags_ok = game
            .chunks_exact(RECORD_SIZE)
            .enumerate()
            .all(|(i, r)| (r[28] & 2 != 0) == (i == 0));
        if !flags_ok {
            return Err(format!(
                "{path}: game {} does not match its shard log (first-of-game flags)",
                log.shard.unit(k as u64)
            ));
        }
        games.push(game.to_vec());
        at = end;
    }
    Ok(ShardData { log, games })
}

/// Merges the shard files `inputs` (any order) into the new file `out`; returns a summary line.
pub fn merge(out: &str, inputs: &[String]) -> Result<String, String> {
    let shards: Vec<ShardData> = inputs.iter().map(|p| load(p)).collect::<Result<_, _>>()?;
    let ids: Vec<Shard> = shards.iter().map(|s| s.log.shard).collect();
    let n = check_complete(&ids)?;
    let first = &shards[0].log;
    for (s, path) in shards.iter().zip(inputs) {
        if s.log.settings != first.settings {
            return Err(format!(
                "{path}: shard {} was played with other settings ({}) than shard {} ({})",
                s.log.shard, s.log.settings, first.shard, first.settings
            ));
        }
    }
    // The games of one run are 0..total with no gap: the first game some shard lacks must be
    // past the end.
    let total: u64 = shards.iter().map(|s| s.games.len() as u64).sum();
    let (missing, short) = shards
        .iter()
        .map(|s| (s.log.shard.unit(s.games.len() as u64), s))
        .min_by_key(|(g, _)| *g)
        .ok_or("no shard files given")?;
    if missing < total {
        return Err(format!(
            "game {missing} is missing: shard {} has played {} games; run it again with the same \
             arguments to finish it",
            short.log.shard,
            short.games.len()
        ));
    }
    let mut by_shard = vec![None; n as usize];
    for s in &shards {
        by_shard[(s.log.shard.index() - 1) as usize] = Some(s);
    }
    let file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(out)
        .map_err(|e| format!("{out}: {e}"))?;
    let mut w = std::io::BufWriter::new(file);
    let mut positions = 0;
    let mut empty = std::collections::BTreeSet::new();
    let mut write = || -> std::io::Result<()> {
        super::record::write_header(&mut w)?;
        for g in 0..total {
            let Some(s) = by_shard[(g % n) as usize] else {
                continue;
            };
            let game = &s.games[(g / n) as usize];
            positions += (game.len() / RECORD_SIZE) as u64;
            if game.is_empty() {
                empty.insert(g);
            }
            w.write_all(game)?;
        }
        w.flush()
    };
    if let Err(e) = write() {
        let _ = std::fs::remove_file(out);
        return Err(format!("{out}: {e}"));
    }
    super::empties::write(out, &empty)?;
    Ok(format!(
        "datagen merge: {n} shards, {total} games, {positions} positions -> {out}"
    ))
}
