//! Move generation benchmarks: legal generation, make/unmake, perft 4.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use pao::board::perft::perft;
use pao::board::{Position, START_FEN};

const MIDDLEGAME: &str = "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1";

fn benches(c: &mut Criterion) {
    for (name, fen) in [("start", START_FEN), ("middlegame", MIDDLEGAME)] {
        let mut pos = Position::from_fen(fen).expect("FEN");
        c.bench_function(&format!("legal_moves/{name}"), |b| {
            b.iter(|| black_box(pos.legal_moves().len()))
        });
        let moves = pos.legal_moves();
        c.bench_function(&format!("make_unmake_all/{name}"), |b| {
            b.iter(|| {
                for &m in moves.iter() {
                    pos.make_move(m);
                    black_box(pos.key());
                    pos.unmake_move();
                }
            })
        });
    }
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    for (name, fen) in [("start/4", START_FEN), ("middlegame/4", MIDDLEGAME)] {
        let mut pos = Position::from_fen(fen).expect("FEN");
        group.bench_function(name, |b| b.iter(|| black_box(perft(&mut pos, 4))));
    }
    group.finish();
}

criterion_group!(movegen, benches);
criterion_main!(movegen);
