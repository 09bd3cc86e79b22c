//! Runs a match: protocol detection, the schedule, worker threads, results as they come,
//! the SPRT stop, the final report.

use super::client::player::detect;
use super::client::protocol::Protocol;
use super::client::spec::EngineSpec;
use super::clock::Limit;
use super::config::MatchConfig;
use super::game::{play_game, GameRecord};
use super::pgn::{format_game, PgnHeader};
use super::progress::Progress;
use super::report;
use super::schedule::{schedule, Job};
use super::shard_file::ShardHeader;
use super::state::{self, GameResult};
use super::stats::SprtDecision;
use crate::common::date::today;
use std::collections::{BTreeMap, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::Duration;

/// Plays the match and prints the report. Returns the final summary text.
pub fn run_match(cfg: &MatchConfig) -> Result<String, String> {
    let names: Vec<String> = cfg.engines.iter().map(|e| e.name.clone()).collect();
    for (i, n) in names.iter().enumerate() {
        if names[..i].contains(n) {
            return Err(format!(
                "two engines are named '{n}': give each a distinct name="
            ));
        }
    }
    if names.len() < 2 {
        return Err("a match needs at least two engines".to_string());
    }
    let jobs = schedule(names.len(), cfg.gauntlet, cfg.games, cfg.openings.len());
    let header = cfg.shard.map(|shard| ShardHeader::of(cfg, shard));
    // One match per results file: a second is refused, naming the first.
    let _lock = match &cfg.resume {
        Some(path) => Some(crate::common::lock::acquire(
            std::path::Path::new(path),
            "pao-tools match",
        )?),
        None => None,
    };
    match (&header, &cfg.resume) {
        (Some(header), Some(path)) => header.prepare(path)?,
        (None, Some(path)) => state::prepare(path, &state::settings_of(cfg))?,
        _ => {}
    }
    let ours = |j: &Job| header.as_ref().is_none_or(|h| h.owns(j));
    let scheduled = jobs.iter().filter(|j| ours(j)).count();
    let mut results: BTreeMap<usize, GameResult> = match &cfg.resume {
        Some(path) => state::load(path, &jobs, &names)?,
        None => BTreeMap::new(),
    };
    if let (Some(h), Some(&index)) = (&header, results.keys().find(|&&i| !ours(&jobs[i]))) {
        return Err(format!(
            "game {index} in the results file is not one of shard {}'s",
            h.shard
        ));
    }
    let hs = Duration::from_millis(cfg.game.handshake_timeout_ms);
    let mut protos: Vec<Protocol> = Vec::new();
    for spec in &cfg.engines {
        protos.push(detect(spec, hs)?);
    }
    // This run's games, and the pairs of earlier runs of the same test (`--prior`).
    let tally = |results: &BTreeMap<usize, GameResult>| {
        let mut s = report::summarize(names.len(), &jobs, results);
        s.pairs.add(&cfg.prior);
        s
    };
    let progress = Progress::new(scheduled as u64, results.len() as u64);
    if !results.is_empty() {
        progress.println(&format!(
            "resuming: {} of {} games already played",
            results.len(),
            scheduled
        ));
    }
    let mut summary = tally(&results);
    let decided = |s: &report::Summary| {
        cfg.sprt
            .as_ref()
            .map(|sp| report::sprt_status(sp, s).1 != SprtDecision::Continue)
            .unwrap_or(false)
    };
    let queue: VecDeque<Job> = if decided(&summary) {
        VecDeque::new()
    } else {
        jobs.iter()
            .filter(|j| ours(j) && !results.contains_key(&j.index))
            .copied()
            .collect()
    };
    let workers = cfg.concurrency.max(1).min(queue.len().max(1));
    let queue = Arc::new(Mutex::new(queue));
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel::<(Job, Result<GameRecord, String>)>();
    let date = today();
    let mut failure = None;
    std::thread::scope(|scope| {
        for _ in 0..workers {
            let (queue, stop, tx) = (queue.clone(), stop.clone(), tx.clone());
            let protos = &protos;
            scope.spawn(move || loop {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                let job = match queue.lock() {
                    Ok(mut q) => q.pop_front(),
                    Err(_) => None,
                };
                let Some(job) = job else { break };
                let red = (&cfg.engines[job.red], protos[job.red]);
                let black = (&cfg.engines[job.black], protos[job.black]);
                let rec = play_game(red, black, &cfg.openings[job.opening], &cfg.game);
                if tx.send((job, rec)).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        for (job, rec) in rx {
            let rec = match rec {
                Ok(r) => r,
                Err(e) => {
                    failure = Some(format!("game {}: {e}", job.index + 1));
                    stop.store(true, Ordering::Relaxed);
                    continue;
                }
            };
            let result = GameResult {
                index: job.index,
                red: rec.red.clone(),
                black: rec.black.clone(),
                outcome: rec.outcome,
                plies: rec.moves.len(),
                reason: rec.reason.clone(),
            };
            let header = PgnHeader {
                event: cfg.event.clone(),
                date: date.clone(),
                round: job.index as u64 + 1,
            };
            let write = cfg
                .pgnout
                .as_ref()
                .map(|p| state::append(p, &format_game(&rec, &header)))
                .unwrap_or(Ok(()))
                .and_then(|_| match &cfg.resume {
                    Some(p) => state::append_result(p, &result),
                    None => Ok(()),
                });
            if let Err(e) = write {
                failure = Some(e);
                stop.store(true, Ordering::Relaxed);
            }
            progress.println(&format!(
                "game {} {} - {}: {} ({}, {} plies)",
                job.index + 1,
                rec.red,
                rec.black,
                rec.outcome.pgn(),
                rec.reason,
                rec.moves.len()
            ));
            results.insert(job.index, result);
            summary = tally(&results);
            progress.update(results.len() as u64, &summary.first);
            progress.println(report::result_line("status", cfg.sprt.as_ref(), &summary).trim_end());
            if decided(&summary) {
                stop.store(true, Ordering::Relaxed);
            }
        }
    });
    progress.finish();
    if let Some(e) = failure {
        return Err(e);
    }
    let more = match cfg.shard {
        Some(_) => String::new(),
        None => report::continuation(
            names.len(),
            cfg.first_pair,
            &cfg.prior,
            &jobs,
            &results,
            &summary,
        ),
    };
    Ok(format!(
        "{}{}",
        limits_line(cfg),
        report::final_report(
            &names,
            &summary,
            &results,
            cfg.sprt.as_ref(),
            scheduled,
            &more
        )
    ))
}

/// The report's first line: the time control, or each engine's with time odds.
fn limits_line(cfg: &MatchConfig) -> String {
    let own = |e: &EngineSpec| e.limit.clone().unwrap_or_else(|| cfg.game.limit.clone());
    let limits: Vec<Limit> = cfg.engines.iter().map(own).collect();
    if limits.iter().all(|l| *l == limits[0]) {
        return format!("time control: {}\n", limits[0]);
    }
    let each: Vec<String> = cfg
        .engines
        .iter()
        .zip(&limits)
        .map(|(e, l)| format!("{} {l}", e.name))
        .collect();
    format!("time controls: {}\n", each.join(", "))
}
