//! Eight threads hammer one tiny table with stores and probes. Every stored entry is a pure
//! function of its key, so any probe that verifies must return exactly that function's value:
//! a torn or mixed write that slipped through the XOR check would be caught here.

use pao::board::{Move, Square};
use pao::tt::{Bound, TranspositionTable, TtEntry};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The only entry ever stored under `key`.
fn expected(key: u64) -> TtEntry {
    let h = splitmix(key ^ 0x5555);
    let from = (h % 90) as usize;
    let to = ((h >> 8) % 89) as usize;
    let to = if to >= from { to + 1 } else { to };
    TtEntry {
        mv: Move::new(Square::from_index(from), Square::from_index(to)),
        score: ((h >> 16) % 20000) as i32 - 10000,
        eval: ((h >> 32) % 2000) as i32 - 1000,
        depth: ((h >> 48) % 60) as i32 + 1,
        bound: [Bound::Upper, Bound::Lower, Bound::Exact][((h >> 56) % 3) as usize],
    }
}

#[test]
fn concurrent_probes_never_see_foreign_data() {
    // 64 buckets = 256 entries for 4096 keys: constant replacement and collisions.
    let tt = Arc::new(TranspositionTable::with_buckets(64).expect("table"));
    let hits = Arc::new(AtomicU64::new(0));
    let probes = Arc::new(AtomicU64::new(0));
    let threads: Vec<_> = (0..8u64)
        .map(|t| {
            let tt = Arc::clone(&tt);
            let hits = Arc::clone(&hits);
            let probes = Arc::clone(&probes);
            std::thread::spawn(move || {
                let mut state = t + 1;
                for i in 0..200_000u64 {
                    state = splitmix(state);
                    let key = splitmix(state % 4096);
                    if i % 3 == 0 {
                        let e = expected(key);
                        tt.store(key, e.mv, e.score, e.eval, e.depth, e.bound);
                    } else {
                        probes.fetch_add(1, Ordering::Relaxed);
                        if let Some(got) = tt.probe(key) {
                            assert_eq!(got, expected(key), "foreign data under key {key:#x}");
                            hits.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                    if i % 50_000 == 0 {
                        tt.new_search();
                    }
                }
            })
        })
        .collect();
    for t in threads {
        t.join().expect("no thread saw foreign data");
    }
    let hits = hits.load(Ordering::Relaxed);
    assert!(
        hits > 10_000,
        "only {hits} hits of {} probes",
        probes.load(Ordering::Relaxed)
    );
}
