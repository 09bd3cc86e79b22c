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
pub const DEFAULT_DEPTH: u32 = 9;

/// Default depth of the ablation table (plain alpha-beta must finish).
pub const ABLATION_DEPTH: u32 = 5;

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

/// The line `pao bench` (and the protocol's `bench`) prints for the `index`-th position.
pub fn format_line(index: usize, l: &BenchLine) -> String {
    format!(
        "position {index:>3} bestmove {:<5} score {:>6} nodes {:>10} time_ms {:>6}",
        l.best_move, l.score, l.nodes, l.time_ms
    )
}

/// The last line: total nodes (the signature, with the defaults), time and speed.
pub fn format_total(nodes: u64, ms: u128) -> String {
    let nps = nodes as u128 * 1000 / ms.max(1);
    format!("bench: nodes {nodes} time_ms {ms} nps {nps}")
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
    /// Ask for large pages for the table.
    pub large_pages: bool,
    /// Lazy SMP depth stagger.
    pub stagger: bool,
    /// Search switches.
    pub config: SearchConfig,
    /// The network to evaluate with (`None`: the hand-written evaluation).
    pub network: Option<std::sync::Arc<crate::eval::nnue::Network>>,
}

impl Default for BenchOptions {
    fn default() -> Self {
        BenchOptions {
            depth: DEFAULT_DEPTH,
            threads: 1,
            hash_mib: 16,
            pin: true,
            large_pages: true,
            stagger: crate::smp::DEFAULT_STAGGER,
            config: SearchConfig::FULL,
            network: crate::eval::nnue::embedded().filter(|_| crate::eval::nnue::USE_BY_DEFAULT),
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
        TranspositionTable::with_large_pages(options.hash_mib, options.large_pages)
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
            tablebases: None,
            id: id as u64,
            root: pos,
            limits: Limits::depth(options.depth),
            allowed: Vec::new(),
            config: options.config,
            network: options.network.clone(),
            solo: false,
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

/// One row of the ablation table: a configuration and what it cost over the positions.
#[derive(Clone, Debug)]
pub struct AblationRow {
    /// What this row adds.
    pub name: &'static str,
    /// Total nodes.
    pub nodes: u64,
    /// Total milliseconds.
    pub time_ms: u128,
    /// What else the row measured (B*: proofs and agreement with the full search).
    pub note: String,
}

/// The ablation ladder: from plain alpha-beta, enhancements added one at a time, then MTD(f)
/// with everything on for comparison.
pub fn ablation_ladder() -> Vec<(&'static str, SearchConfig)> {
    use crate::search::Driver;
    let mut c = SearchConfig::PLAIN;
    let mut rows = vec![("alpha-beta", c)];
    let mut add = |name: &'static str, f: &dyn Fn(&mut SearchConfig)| {
        f(&mut c);
        rows.push((name, c));
    };
    add("+ MVV-LVA captures", &|c| c.capture_ordering = true);
    add("+ history", &|c| c.history = true);
    add("+ killers, counter-move", &|c| {
        c.killers = true;
        c.counter_move = true
    });
    add("+ TT move and cutoffs", &|c| {
        c.tt_move = true;
        c.tt_cutoffs = true
    });
    add("+ PVS", &|c| c.pvs = true);
    add("+ aspiration", &|c| c.aspiration = true);
    add("+ null move", &|c| c.null_move = true);
    add("+ LMR", &|c| c.lmr = true);
    add("+ futility", &|c| c.futility = true);
    add("+ quiescence", &|c| c.quiescence = true);
    add("+ check ext., mate distance", &|c| {
        c.check_extension = true;
        c.mate_distance = true;
        // Proofs act only in analyses (no game clock), never at the ladder's fixed depth.
        c.mate_proofs = true
    });
    add("+ SEE (ordering, pruning)", &|c| c.see = true);
    add("+ LMR by history, killers, improving", &|c| {
        c.lmr_adjust = true
    });
    add("+ late move pruning", &|c| c.lmp = true);
    add("+ endgame scales and bitbases", &|c| {
        c.endgame_scale = true;
        c.endgame_bitbase = true
    });
    add("+ correction history", &|c| c.correction_history = true);
    add("+ TT score refines evaluation", &|c| c.tt_eval = true);
    add("+ internal iterative reduction", &|c| c.iir = true);
    add("+ continuation history", &|c| c.cont_history = true);
    add("+ null move R by evaluation", &|c| c.nmp_eval_r = true);
    add("+ razoring", &|c| c.razoring = true);
    add("+ reverse futility by improving", &|c| {
        c.rfp_improving = true
    });
    add("+ check extension only if SEE >= 0", &|c| {
        c.check_ext_see = true
    });
    add("+ singular extension", &|c| c.singular = true);
    add("+ delta pruning in quiescence", &|c| c.qs_futility = true);
    add("+ history pruning", &|c| c.history_pruning = true);
    add("+ capture history", &|c| c.capture_history = true);
    add("+ sixty-move rule: draw, fading evaluation", &|c| {
        c.sixty_move_draw = true;
        c.sixty_move_fade = true
    });
    let mut mtdf = SearchConfig::FULL;
    mtdf.driver = Driver::Mtdf;
    rows.push(("MTD(f), all on", mtdf));
    let mut sss = SearchConfig::FULL;
    sss.driver = Driver::SssStar;
    rows.push(("SSS* (MTD(+inf)), all on", sss));
    rows
}

/// Runs every configuration of the ladder over the positions (one thread).
pub fn run_ablation(
    fens: &[&str],
    depth: u32,
    hash_mib: usize,
    row: &mut dyn FnMut(&AblationRow),
) -> Result<Vec<AblationRow>, String> {
    let mut rows = Vec::new();
    // The full search's move and nodes per position: B*'s yardstick and budget.
    let mut full: Vec<(String, u64)> = Vec::new();
    for (name, config) in ablation_ladder() {
        let options = BenchOptions {
            depth,
            threads: 1,
            hash_mib,
            pin: false,
            large_pages: true,
            stagger: false,
            config,
            network: None,
        };
        let is_full = config == SearchConfig::FULL;
        let (nodes, time_ms) = run(fens, &options, &mut |l| {
            if is_full {
                full.push((l.best_move.clone(), l.nodes));
            }
        })?;
        let r = AblationRow {
            name,
            nodes,
            time_ms,
            note: String::new(),
        };
        row(&r);
        rows.push(r);
    }
    let r = bstar_row(fens, &full, hash_mib)?;
    row(&r);
    rows.push(r);
    Ok(rows)
}

/// B* at the root of every position with the full search's node count there as its budget:
/// how often it proved a move best, and how often its move was the full search's.
fn bstar_row(
    fens: &[&str],
    full: &[(String, u64)],
    hash_mib: usize,
) -> Result<AblationRow, String> {
    use crate::search::{Driver, Searcher};
    let tt = Arc::new(
        TranspositionTable::new(hash_mib)
            .map_err(|e| format!("cannot allocate {hash_mib} MiB of hash: {e:?}"))?,
    );
    let mut searcher = Searcher::new(
        Arc::clone(&tt),
        SearchConfig {
            driver: Driver::BStar,
            ..SearchConfig::FULL
        },
    );
    let (mut nodes, mut time_ms, mut proven, mut agree) = (0, 0, 0, 0);
    for (fen, (full_move, budget)) in fens.iter().zip(full) {
        let pos = Position::from_fen(fen).map_err(|e| format!("bad bench FEN '{fen}': {e}"))?;
        tt.clear();
        searcher.clear_heuristics();
        let moves: Vec<_> = pos.clone().legal_moves().iter().copied().collect();
        let mut limits = Limits::depth(1);
        limits.nodes = (*budget).max(1);
        let start = Instant::now();
        let (r, p) = searcher.bstar_search(&pos, &moves, &limits, &mut |_| {});
        time_ms += start.elapsed().as_millis();
        nodes += r.nodes;
        proven += usize::from(p);
        agree += usize::from(r.best_move.map(|m| m.to_string()).as_deref() == Some(full_move));
    }
    Ok(AblationRow {
        name: "B* (root), full search's nodes",
        nodes,
        time_ms,
        note: format!(
            "proved {proven}/{n}, same move as the full search {agree}/{n}",
            n = fens.len()
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::ablation_ladder;
    use crate::search::SearchConfig;

    /// B*'s yardstick is the ladder's row equal to `FULL`: exactly one row must be the engine
    /// as it plays, whatever switches are added to either.
    #[test]
    fn one_row_of_the_ladder_is_the_full_search() {
        let full: Vec<&str> = ablation_ladder()
            .into_iter()
            .filter(|(_, c)| *c == SearchConfig::FULL)
            .map(|(name, _)| name)
            .collect();
        assert_eq!(full, vec!["+ TT score refines evaluation"]);
    }
}
