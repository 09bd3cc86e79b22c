//! Endgame-table probes: a warm probe (its block already decompressed) and a cold one (the
//! first probe of a freshly opened table: one block decompressed), in nanoseconds.

use criterion::{black_box, criterion_group, criterion_main, BatchSize, Criterion};
use pao::board::Position;
use pao::egtb::{build, index::position_of, Material, Table, Tablebases};
use std::path::PathBuf;

/// KRKAA and its dependencies in a temporary directory, and positions of KRKAA.
fn setup() -> (PathBuf, Vec<Position>) {
    let dir = std::env::temp_dir().join(format!("pao-egtb-bench-{}", std::process::id()));
    let m = Material::parse("KRKAA").expect("material");
    let set = build::build(&[m], &dir, "bench", |_| {}).expect("tables");
    let table = set.table(&m).expect("held");
    let index = table.index();
    let mut positions = Vec::new();
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    while positions.len() < 1024 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        if let Some(p) = index
            .decode(x % index.len())
            .and_then(|(pl, side)| position_of(&pl, side))
        {
            positions.push(p);
        }
    }
    (dir, positions)
}

fn probes(c: &mut Criterion) {
    let (dir, positions) = setup();
    let (tables, errors) = Tablebases::open_dir(&dir);
    assert!(errors.is_empty(), "{errors:?}");
    for p in &positions {
        black_box(tables.probe(p));
    }
    let mut i = 0;
    c.bench_function("egtb/probe warm (KRKAA, mapped)", |b| {
        b.iter(|| {
            i = (i + 1) % positions.len();
            black_box(tables.probe(&positions[i]))
        })
    });
    let path = dir.join("KRKAA.ptb");
    let m = Material::parse("KRKAA").expect("material");
    c.bench_function("egtb/probe cold (first probe of an opened table)", |b| {
        b.iter_batched(
            || Table::open(&path).expect("opens"),
            |t| {
                i = (i + 1) % positions.len();
                let (_, flip) = Material::of_position(&positions[i]).expect("material");
                black_box(t.probe_code(&positions[i], flip).ok());
            },
            BatchSize::PerIteration,
        )
    });
    let _ = m;
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, probes);
criterion_main!(benches);
