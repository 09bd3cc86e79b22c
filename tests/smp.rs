//! Lazy SMP: reproducibility with one thread, and a stress test with 16 threads on whatever
//! cores the machine has: many short searches stopped at random moments.

use pao::board::{Move, Position, START_FEN};
use pao::search::{Limits, SearchConfig};
use pao::smp::{helper_runs_depth, Job, PoolEvent, WorkerPool};
use pao::tt::TranspositionTable;
use std::sync::Arc;
use std::time::Duration;

fn fens() -> Vec<&'static str> {
    pao::bench::parse_fens(pao::bench::BENCH_FENS)
}

fn job(id: u64, fen: &str, depth: u32, main_only: bool) -> Job {
    Job {
        tablebases: None,
        id,
        root: Position::from_fen(fen).expect("bench FEN"),
        limits: Limits::depth(depth),
        allowed: Vec::new(),
        config: SearchConfig::FULL,
        network: None,
        solo: false,
        main_thread_result: main_only,
    }
}

#[test]
fn one_thread_fixed_depth_is_reproducible() {
    let run = || {
        let tt = Arc::new(TranspositionTable::new(4).expect("table"));
        let (tx, rx) = crossbeam_channel::unbounded();
        let pool = WorkerPool::new(1, false, Arc::clone(&tt), tx);
        let mut out = Vec::new();
        for (i, fen) in fens().into_iter().take(8).enumerate() {
            tt.clear();
            pool.clear_heuristics();
            pool.start(job(i as u64, fen, 6, true));
            loop {
                if let PoolEvent::Finished { result, .. } = rx
                    .recv_timeout(Duration::from_secs(60))
                    .expect("pool answers")
                {
                    out.push((result.best_move, result.score, result.nodes));
                    break;
                }
            }
        }
        out
    };
    let first = run();
    assert_eq!(first, run());
    assert!(first.iter().all(|(m, _, n)| m.is_some() && *n > 0));
}

#[test]
fn helpers_keep_ahead_and_spread_over_depths() {
    let runs = |i: usize, main: u32| {
        (1..=12)
            .filter(|&d| helper_runs_depth(i, d, main))
            .collect::<Vec<_>>()
    };
    // Helper 1 runs every iteration ahead of the main thread's, never one at or below it.
    assert_eq!(runs(1, 0), (1..=12).collect::<Vec<_>>());
    assert_eq!(runs(1, 7), vec![8, 9, 10, 11, 12]);
    // Helpers 2 and 3 alternate; larger pools use wider cycles.
    assert_eq!(runs(2, 0), vec![2, 4, 6, 8, 10, 12]);
    assert_eq!(runs(3, 0), vec![1, 3, 5, 7, 9, 11]);
    assert_eq!(runs(3, 6), vec![7, 9, 11]);
    assert_ne!(runs(4, 0), runs(5, 0));
}

/// Deterministic pseudo-random numbers for the stress schedule.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

#[test]
fn sixteen_threads_stopped_at_random_moments() {
    let tt = Arc::new(TranspositionTable::new(16).expect("table"));
    let (tx, rx) = crossbeam_channel::unbounded();
    let pool = WorkerPool::new(16, false, Arc::clone(&tt), tx);
    let positions = fens();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for id in 0..60u64 {
        let fen = positions[(rng.next() % positions.len() as u64) as usize];
        pool.start(job(id, fen, 64, false));
        std::thread::sleep(Duration::from_millis(rng.next() % 25));
        pool.stop();
        let result = loop {
            match rx.recv_timeout(Duration::from_secs(30)) {
                Ok(PoolEvent::Finished { id: done, result }) => {
                    assert_eq!(done, id, "a result for another search");
                    break result;
                }
                Ok(_) => {}
                Err(e) => panic!("search {id} lost its result (deadlock?): {e}"),
            }
        };
        pool.wait_idle();
        let mut pos = Position::from_fen(fen).expect("FEN");
        let m = result.best_move.expect("every bench position has moves");
        assert!(pos.is_legal(m), "illegal bestmove {m} in {fen}");
    }
}

#[test]
fn workers_clear_the_table_in_parallel_slices() {
    // 5 MiB: two whole large pages and a part, so slices end inside and on page edges.
    let tt = Arc::new(TranspositionTable::new(5).expect("table"));
    let keys: Vec<u64> = (1..=20_000u64)
        .map(|k| k.wrapping_mul(0x9E37_79B9_7F4A_7C15))
        .collect();
    let fill = || {
        for &k in &keys {
            tt.store(k, Move::NONE, 1, 2, 3, pao::tt::Bound::Exact);
        }
        keys.iter().filter(|&&k| tt.probe(k).is_some()).count()
    };
    for threads in [1, 2, 3] {
        assert!(fill() > 19_000);
        let (tx, rx) = crossbeam_channel::unbounded();
        let pool = WorkerPool::new(threads, false, Arc::clone(&tt), tx);
        pool.start_clear(7);
        match rx.recv_timeout(Duration::from_secs(30)) {
            Ok(PoolEvent::Cleared { id }) => assert_eq!(id, 7),
            other => panic!("expected Cleared, got {other:?}"),
        }
        assert_eq!(keys.iter().filter(|&&k| tt.probe(k).is_some()).count(), 0);
        assert_eq!(tt.hashfull(), 0);
        // The pool searches as before after a clear.
        pool.start(job(8, START_FEN, 3, true));
        loop {
            if let PoolEvent::Finished { id, result } = rx
                .recv_timeout(Duration::from_secs(60))
                .expect("pool answers")
            {
                assert_eq!((id, result.depth), (8, 3));
                break;
            }
        }
    }
}
