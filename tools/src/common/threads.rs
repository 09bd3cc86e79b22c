//! The size of rayon's global pool, for the commands that work through it.

/// Sets rayon's global pool size once (default: all cores).
pub fn set_threads(threads: Option<usize>) {
    if let Some(t) = threads {
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads(t.max(1))
            .build_global();
    }
}
