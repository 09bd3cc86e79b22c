//! The two hot loops of inference, written once as plain integer code and compiled twice: a
//! portable build and, on x86-64 CPUs that have it, an AVX2 build of the same source (the
//! compiler vectorises it with 256-bit registers). Integer arithmetic with wrapping sums is
//! associative, so both give bit-identical results whatever the lane order.

use std::sync::OnceLock;

/// Lanes per block: a net file's hidden size is a multiple of `HIDDEN_STEP`, so the loops
/// below run on whole blocks of fixed length, which the compiler turns into straight SIMD code
/// at any H (a plain loop over the slice stayed scalar up to 32 lanes, the sizes that matter
/// most).
const LANES: usize = super::file::HIDDEN_STEP;

/// One block of LANES lanes, when both slices are whole blocks.
#[inline(always)]
fn block(s: &[i16]) -> Option<&[i16; LANES]> {
    s.try_into().ok()
}

#[inline(always)]
fn update_body(out: &mut [i16], prev: &[i16], add: &[i16], subs: [&[i16]; 2], n_subs: usize) {
    let n = out.len();
    let (prev, add) = (&prev[..n], &add[..n]);
    let (s0, s1) = (&subs[0][..n], &subs[1][..n]);
    let zero = [0i16; LANES];
    let blocks = out
        .chunks_mut(LANES)
        .zip(prev.chunks(LANES))
        .zip(add.chunks(LANES))
        .zip(s0.chunks(LANES).zip(s1.chunks(LANES)));
    for (((o, p), a), (x, y)) in blocks {
        if let (Some(p), Some(a), Some(x), Some(y)) = (block(p), block(a), block(x), block(y)) {
            if o.len() == LANES {
                let x = if n_subs > 0 { x } else { &zero };
                let y = if n_subs > 1 { y } else { &zero };
                // Computed in a local block and stored at once: straight SIMD code.
                let mut r = [0i16; LANES];
                for k in 0..LANES {
                    r[k] = p[k]
                        .wrapping_add(a[k])
                        .wrapping_sub(x[k])
                        .wrapping_sub(y[k]);
                }
                o.copy_from_slice(&r);
                continue;
            }
        }
        // A partial last block (never for a valid net file).
        for k in 0..o.len() {
            let mut v = p[k].wrapping_add(a[k]);
            if n_subs > 0 {
                v = v.wrapping_sub(x[k]);
            }
            if n_subs > 1 {
                v = v.wrapping_sub(y[k]);
            }
            o[k] = v;
        }
    }
}

/// Sum over both halves of `f(clamp(acc, 0, qa)) * w`, in LANES wrapping partial sums.
#[inline(always)]
fn output_body(
    us: &[i16],
    them: &[i16],
    weights: &[i16],
    qa: i16,
    f: impl Fn(i32, i32) -> i32,
) -> i32 {
    let n = us.len();
    let (w_us, w_them) = weights.split_at(n);
    let mut lanes = [0i32; LANES];
    for (acc, w) in [(us, w_us), (&them[..n], &w_them[..n])] {
        for (a, w) in acc.chunks(LANES).zip(w.chunks(LANES)) {
            if let (Some(a), Some(w)) = (block(a), block(w)) {
                for k in 0..LANES {
                    let v = a[k].clamp(0, qa) as i32;
                    lanes[k] = lanes[k].wrapping_add(f(v, w[k] as i32));
                }
            } else {
                for k in 0..a.len() {
                    let v = a[k].clamp(0, qa) as i32;
                    lanes[k] = lanes[k].wrapping_add(f(v, w[k] as i32));
                }
            }
        }
    }
    lanes.iter().fold(0i32, |s, &x| s.wrapping_add(x))
}

#[inline(always)]
fn screlu_body(us: &[i16], them: &[i16], weights: &[i16], qa: i16) -> i32 {
    output_body(us, them, weights, qa, |v, w| (v * w).wrapping_mul(v))
}

#[inline(always)]
fn crelu_body(us: &[i16], them: &[i16], weights: &[i16], qa: i16) -> i32 {
    output_body(us, them, weights, qa, |v, w| v * w)
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
