//! The two hot loops of inference, written once as plain integer code and compiled twice: a
//! portable build and, on x86-64 CPUs that have it, an AVX2 build of the same source (the
//! compiler vectorises it with 256-bit registers). Integer arithmetic with wrapping sums is
//! associative, so both give bit-identical results whatever the lane order.

use std::sync::OnceLock;

#[inline(always)]
fn update_body(out: &mut [i16], prev: &[i16], add: &[i16], subs: [&[i16]; 2], n_subs: usize) {
    let n = out.len();
    let (prev, add) = (&prev[..n], &add[..n]);
    match n_subs {
        0 => {
            for j in 0..n {
                out[j] = prev[j].wrapping_add(add[j]);
            }
        }
        1 => {
            let s0 = &subs[0][..n];
            for j in 0..n {
                out[j] = prev[j].wrapping_add(add[j]).wrapping_sub(s0[j]);
            }
        }
        _ => {
            let (s0, s1) = (&subs[0][..n], &subs[1][..n]);
            for j in 0..n {
                out[j] = prev[j]
                    .wrapping_add(add[j])
                    .wrapping_sub(s0[j])
                    .wrapping_sub(s1[j]);
            }
        }
    }
}

#[inline(always)]
fn screlu_body(us: &[i16], them: &[i16], weights: &[i16], qa: i16) -> i32 {
    let n = us.len();
    let (w_us, w_them) = weights.split_at(n);
    let mut sum = 0i32;
    for (acc, w) in [(us, w_us), (&them[..n], &w_them[..n])] {
        for j in 0..n {
            let v = acc[j].clamp(0, qa) as i32;
            sum = sum.wrapping_add((v * w[j] as i32).wrapping_mul(v));
        }
    }
    sum
}

#[inline(always)]
fn crelu_body(us: &[i16], them: &[i16], weights: &[i16], qa: i16) -> i32 {
    let n = us.len();
    let (w_us, w_them) = weights.split_at(n);
    let mut sum = 0i32;
    for (acc, w) in [(us, w_us), (&them[..n], &w_them[..n])] {
        for j in 0..n {
            let v = acc[j].clamp(0, qa) as i32;
            sum = sum.wrapping_add(v * w[j] as i32);
        }
    }
    sum
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    #[target_feature(enable = "avx2")]
    pub unsafe fn update(out: &mut [i16], prev: &[i16], add: &[i16], subs: [&[i16]; 2], n: usize) {
        super::update_body(out, prev, add, subs, n)
    }
    #[target_feature(enable = "avx2")]
    pub unsafe fn screlu(us: &[i16], them: &[i16], w: &[i16], qa: i16) -> i32 {
        super::screlu_body(us, them, w, qa)
    }
    #[target_feature(enable = "avx2")]
    pub unsafe fn crelu(us: &[i16], them: &[i16], w: &[i16], qa: i16) -> i32 {
        super::crelu_body(us, them, w, qa)
    }
}

/// Which build of the loops runs.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Path {
    /// The portable build.
    Portable,
    /// The AVX2 build (x86-64 with AVX2 only).
    Avx2,
}

/// The fastest path this CPU supports (detected once).
pub fn best_path() -> Path {
    static PATH: OnceLock<Path> = OnceLock::new();
    *PATH.get_or_init(|| {
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx2") {
            return Path::Avx2;
        }
        Path::Portable
    })
}

/// `out = prev + add - subs[0] - subs[1]` (the first `n_subs` of `subs`), lane by lane.
#[inline]
pub fn update(
    path: Path,
    out: &mut [i16],
    prev: &[i16],
    add: &[i16],
    subs: [&[i16]; 2],
    n_subs: usize,
) {
    match path {
        // SAFETY: `Avx2` is only ever chosen when the CPU reports AVX2 (`best_path`), or by a
        // caller that checked it (the equality test).
        #[cfg(target_arch = "x86_64")]
        Path::Avx2 => unsafe { avx2::update(out, prev, add, subs, n_subs) },
        _ => update_body(out, prev, add, subs, n_subs),
    }
}

/// Sum over both halves of `act(acc) * w` for the squared (`squared`) or plain clipped ReLU.
#[inline]
pub fn output_sum(path: Path, squared: bool, us: &[i16], them: &[i16], w: &[i16], qa: i16) -> i32 {
    match (path, squared) {
        // SAFETY: as in `update`.
        #[cfg(target_arch = "x86_64")]
        (Path::Avx2, true) => unsafe { avx2::screlu(us, them, w, qa) },
        #[cfg(target_arch = "x86_64")]
        (Path::Avx2, false) => unsafe { avx2::crelu(us, them, w, qa) },
        (_, true) => screlu_body(us, them, w, qa),
        (_, false) => crelu_body(us, them, w, qa),
    }
}
