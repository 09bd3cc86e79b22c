//! Engine hot parts: evaluation, transposition table store+probe with 1 and 2 threads, and a
//! fixed-depth search.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use pao::board::{Move, Position};
use pao::search::{Limits, SearchConfig, Searcher};
use pao::tt::{Bound, TranspositionTable};
use std::sync::Arc;
use std::time::{Duration, Instant};

fn positions() -> Vec<Position> {
    pao::bench::parse_fens(pao::bench::BENCH_FENS)
        .into_iter()
        .map(|f| Position::from_fen(f).expect("bench FEN"))
        .collect()
}

fn eval(c: &mut Criterion) {
    let ps = positions();
    // The search keeps the material and piece-square sums on its stack; they are given here.
    let sums: Vec<_> = ps.iter().map(pao::eval::psqt::sum).collect();
    c.bench_function("evaluate/bench positions", |b| {
        b.iter(|| {
            ps.iter()
                .zip(&sums)
                .map(|(p, &s)| black_box(pao::eval::evaluate_from_sum(p, s, true)))
                .sum::<i32>()
        })
    });
}

fn keys(n: usize, seed: u64) -> Vec<u64> {
    let mut x = seed;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        })
        .collect()
}

/// `threads` threads each doing `per_thread` store+probe pairs, all at once.
fn tt_round(tt: &TranspositionTable, threads: usize, per_thread: u64) -> Duration {
    let start = Instant::now();
    std::thread::scope(|s| {
        for t in 0..threads {
            s.spawn(move || {
                let ks = keys(4096, 0x9E37 + t as u64);
                for i in 0..per_thread as usize {
                    let k = ks[i % ks.len()];
                    tt.store(k, Move::NONE, 1, 2, 3, Bound::Exact);
                    black_box(tt.probe(k ^ 1));
                }
            });
        }
    });
    start.elapsed()
}

fn tt(c: &mut Criterion) {
    let tt = TranspositionTable::new(64).expect("64 MiB");
    for threads in [1, 2] {
        c.bench_function(&format!("tt store+probe/{threads} threads"), |b| {
            b.iter_custom(|iters| tt_round(&tt, threads, iters))
        });
    }
}

fn search(c: &mut Criterion) {
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    let root = Position::startpos();
    group.bench_function("start position depth 8", |b| {
        b.iter(|| {
            let tt = Arc::new(TranspositionTable::new(16).expect("table"));
            let mut s = Searcher::new(tt, SearchConfig::FULL);
            black_box(s.search(&root, &Limits::depth(8), &[], &mut |_| {}).nodes)
        })
    });
    group.finish();
}

criterion_group!(engine, eval, tt, search);
criterion_main!(engine);
