//! `pao bench`: a fixed list of positions searched to a fixed depth. With one thread the total
//! node count is the search's signature: the same on every run and every machine.

use crate::board::Position;
use crate::search::{Limits, SearchConfig};
use crate::smp::{Job, PoolEvent, WorkerPool};
use crate::tt::TranspositionTable;
use std::sync::Arc;
use std::time::Instant;

/// The built-in bench positions (`tests/data/bench.fens`).
pub const BENCH_FENS: &str = include_str!("../tests/data/bench.fens");

/// Default bench depth.
pub const DEFAULT_DEPTH: u32 = 10;

/// The FENs of a bench file: one per line, `#` comments and blank lines skipped.
pub fn parse_fens(text: &str) -> Vec<&str> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect()
}

/// One position's outcome.
#[derive(Clone, Debug)]
pub struct BenchLine {
    /// The FEN searched.
    pub fen: String,
    /// Best move found (ICCS), or `none`.
    pub best_move: String,
    /// Its score.
    pub score: i32,
    /// Nodes searched.
    pub nodes: u64,
    /// Milliseconds spent.
    pub time_ms: u128,
}

/// Bench settings.
#[derive(Clone, Debug)]
pub struct BenchOptions {
    /// Fixed depth of every search.
    pub depth: u32,
    /// Worker threads.
    pub threads: usize,
    /// Hash size in MiB (the table is cleared between positions).
    pub hash_mib: usize,
    /// Pin worker threads to cores.
    pub pin: bool,
    /// Lazy SMP depth stagger.
    pub stagger: bool,
    /// Search switches.
    pub config: SearchConfig,
}

impl Default for BenchOptions {
    fn default() -> Self {
        BenchOptions {
            depth: DEFAULT_DEPTH,
            threads: 1,
            hash_mib: 16,
            pin: true,
            stagger: true,
            config: SearchConfig::FULL,
        }
    }
}

/// Searches every position to the depth with the worker pool, a cleared table and fresh
/// heuristics each, calling `line` after each position; returns (total nodes, total ms).
/// The time of a position is the time until the main thread completes the depth.
pub fn run(
    fens: &[&str],
    options: &BenchOptions,
    line: &mut dyn FnMut(&BenchLine),
) -> Result<(u64, u128), String> {
    let positions = fens
        .iter()
        .map(|fen| Position::from_fen(fen).map_err(|e| format!("bad bench FEN '{fen}': {e}")))
        .collect::<Result<Vec<_>, _>>()?;
    let tt = Arc::new(
        TranspositionTable::new(options.hash_mib)
            .map_err(|e| format!("cannot allocate {} MiB of hash: {e:?}", options.hash_mib))?,
    );
    let (tx, rx) = crossbeam_channel::unbounded();
    let pool = WorkerPool::new(options.threads, options.pin, Arc::clone(&tt), tx);
    pool.set_stagger(options.stagger);
    let mut total_nodes = 0;
    let mut total_ms = 0;
    for (id, (pos, fen)) in positions.into_iter().zip(fens).enumerate() {
        tt.clear();
        pool.clear_heuristics();
        let start = Instant::now();
        pool.start(Job {
            id: id as u64,
            root: pos,
            limits: Limits::depth(options.depth),
            allowed: Vec::new(),
            config: options.config,
            main_thread_result: true,
        });
        let result = loop {
            match rx.recv() {
                Ok(PoolEvent::Finished { id: done, result }) if done == id as u64 => break result,
                Ok(_) => continue,
                Err(_) => return Err("worker pool stopped unexpectedly".to_string()),
            }
        };
        let ms = start.elapsed().as_millis();
        total_nodes += result.nodes;
        total_ms += ms;
        line(&BenchLine {
            fen: fen.to_string(),
            best_move: result
                .best_move
                .map_or("none".to_string(), |m| m.to_string()),
            score: result.score,
            nodes: result.nodes,
            time_ms: ms,
        });
    }
    Ok((total_nodes, total_ms))
}
