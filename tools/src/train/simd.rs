//! The trainer's hot loops, written once as plain float code and compiled twice: portable and
//! with AVX2 (chosen at run time, as the engine's inference does). Both builds perform the
//! same IEEE operations in the same order (no fused multiply-add, no reassociation), so they
//! give bit-identical results; AVX2 only makes the row loops twice as wide.
//!
//! `PAO_TRAIN_SIMD=portable` in the environment keeps the portable build (to compare them).

use std::sync::atomic::{AtomicU8, Ordering};

/// 0: not yet detected, 1: portable, 2: AVX2.
static PATH: AtomicU8 = AtomicU8::new(0);

/// Whether the AVX2 build runs.
#[inline]
pub fn avx2() -> bool {
    match PATH.load(Ordering::Relaxed) {
        0 => {
            let portable = std::env::var("PAO_TRAIN_SIMD").is_ok_and(|v| v == "portable");
            #[cfg(target_arch = "x86_64")]
            let fast = !portable && std::is_x86_feature_detected!("avx2");
            #[cfg(not(target_arch = "x86_64"))]
            let fast = {
                let _ = portable;
                false
            };
            PATH.store(if fast { 2 } else { 1 }, Ordering::Relaxed);
            fast
        }
        p => p == 2,
    }
}

/// Forces the portable build (`true`) or the best one (`false`) from now on: the tests
/// compare the two.
#[cfg(test)]
pub fn force_portable(portable: bool) {
    PATH.store(0, Ordering::Relaxed);
    if portable {
        PATH.store(1, Ordering::Relaxed);
    } else {
        avx2();
    }
}

/// `fn name(args) -> ret` that runs `body(args)` compiled for AVX2 when the CPU has it, else
/// compiled plainly. `body` must be `#[inline(always)]`, so that it is compiled into each.
macro_rules! multiversion {
    ($(#[$m:meta])* $vis:vis fn $name:ident($($arg:ident: $ty:ty),* $(,)?) $(-> $ret:ty)? = $body:path;) => {
        $(#[$m])*
        $vis fn $name($($arg: $ty),*) $(-> $ret)? {
            #[cfg(target_arch = "x86_64")]
            {
                #[target_feature(enable = "avx2")]
                fn wide($($arg: $ty),*) $(-> $ret)? {
                    $body($($arg),*)
                }
                if $crate::train::simd::avx2() {
                    // SAFETY: `avx2()` holds only when the CPU reports AVX2.
                    return unsafe { wide($($arg),*) };
                }
            }
            $body($($arg),*)
        }
    };
}
pub(crate) use multiversion;
