//! The bench signature: `pao bench` with its defaults (1 thread, 16 MiB, depth 9, the built-in
//! positions) must search exactly this many nodes on every run and machine. A change to the
//! search or evaluation that alters it must say `Bench: <N>` in its commit message and update
//! the number here.

use pao::bench::{parse_fens, run, BenchOptions, BENCH_FENS, DEFAULT_DEPTH};

const SIGNATURE: u64 = 1_567_851;

#[test]
fn bench_signature() {
    let options = BenchOptions {
        pin: false,
        ..BenchOptions::default()
    };
    assert_eq!(
        (options.depth, options.threads, options.hash_mib),
        (DEFAULT_DEPTH, 1, 16)
    );
    let (nodes, _) = run(&parse_fens(BENCH_FENS), &options, &mut |_| {}).expect("bench runs");
    assert_eq!(nodes, SIGNATURE);
}
