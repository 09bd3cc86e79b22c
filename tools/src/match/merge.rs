//! `pao-tools match merge`: the results files of a match's shards (`match --shard I/N`) into
//! the report one run of the match prints over the same games (standings, Elo, pentanomial,
//! SPRT state), and optionally into the results file one run writes.
//!
//! The SPRT: shards play fixed shares and never stop early; the merge computes the test over
//! every game the shards have finished. Merging while the shards still run gives the state so
//! far (the report then counts the games still missing), which is how a sharded test is
//! stopped: merge now and then, cancel the jobs once it is decided.

use super::report::{self, Summary};
use super::schedule::schedule;
use super::shard_file::ShardHeader;
use super::state::{self, GameResult};
use super::stats::Sprt;
use crate::common::shard::check_complete;
use std::collections::BTreeMap;

/// `pao-tools match merge`.
#[derive(clap::Args, Debug)]
pub struct MergeArgs {
    /// The shards' results files (`--resume` of each `match --shard I/N`), any order
    #[arg(required = true, value_name = "FILE")]
    files: Vec<String>,
    /// Also write the merged results file, as one run at concurrency 1 writes it (must not exist)
    #[arg(long, value_name = "FILE")]
    out: Option<String>,
    /// The SPRT to compute over the merged games (as `match --sprt`; after the files)
    #[arg(long, value_name = "KEY=VALUE", num_args = 0..)]
    sprt: Option<Vec<String>>,
}

/// Parses the SPRT settings (a usage error when bad).
pub fn sprt_of(args: &MergeArgs) -> Result<Option<Sprt>, String> {
    args.sprt.as_deref().map(Sprt::parse).transpose()
}

/// Merges and returns the report.
pub fn merge(args: &MergeArgs, sprt: Option<&Sprt>) -> Result<String, String> {
    let mut headers: Vec<ShardHeader> = Vec::new();
    let mut texts = Vec::new();
    for path in &args.files {
        let text =
            std::fs::read_to_string(path).map_err(|e| format!("cannot read '{path}': {e}"))?;
        let header = ShardHeader::from_text(&text).map_err(|e| format!("{path}: {e}"))?;
        if let Some(first) = headers.first() {
            if !first.same_match(&header) {
                return Err(format!(
                    "{path}: shard {} is of another match than shard {} (engines, games, \
                     openings, limits or rules differ)",
                    header.shard, first.shard
                ));
            }
        }
        headers.push(header);
        texts.push(text);
    }
    check_complete(&headers.iter().map(|h| h.shard).collect::<Vec<_>>())?;
    let first = &headers[0];
    let names = first.names.clone();
    let jobs = schedule(names.len(), first.gauntlet, first.games, 1);
    let mut results: BTreeMap<usize, GameResult> = BTreeMap::new();
    for ((path, text), header) in args.files.iter().zip(&texts).zip(&headers) {
        let theirs = state::parse(text, &jobs, &names).map_err(|e| format!("{path}: {e}"))?;
        if let Some(index) = theirs.keys().find(|&&i| !header.owns(&jobs[i])) {
            return Err(format!(
                "{path}: game {index} is not one of shard {}'s",
                header.shard
            ));
        }
        results.extend(theirs);
    }
    if let Some(out) = &args.out {
        write_results(out, &first.settings, &results)?;
    }
    let summary: Summary = report::summarize(names.len(), &jobs, &results);
    let more = report::continuation(
        names.len(),
        0,
        &Default::default(),
        &jobs,
        &results,
        &summary,
    );
    Ok(report::final_report(
        &names,
        &summary,
        &results,
        sprt,
        jobs.len(),
        &more,
    ))
}

/// The results file of one run that played the games one at a time: the header and the
/// match's settings, then the games in schedule order.
fn write_results(
    out: &str,
    settings: &str,
    results: &BTreeMap<usize, GameResult>,
) -> Result<(), String> {
    let mut text = state::head(settings);
    for r in results.values() {
        text.push_str(&state::format_line(r));
        text.push('\n');
    }
    use std::io::Write;
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(out)
        .map_err(|e| format!("cannot create '{out}': {e}"))?;
    file.write_all(text.as_bytes())
        .map_err(|e| format!("cannot write '{out}': {e}"))
}
