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

#[inline(always)]
fn add_assign_body(acc: &mut [i16], row: &[i16]) {
    for (a, r) in acc.chunks_mut(LANES).zip(row.chunks(LANES)) {
        for (a, r) in a.iter_mut().zip(r) {
            *a = a.wrapping_add(*r);
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
    //! Explicit AVX2 intrinsics: 16 i16 lanes per register. Every sum wraps, as the
    //! portable loops' do, so the results are bit-identical.
    use std::arch::x86_64::*;

    const W: usize = 16;

    #[target_feature(enable = "avx2")]
    pub unsafe fn update(out: &mut [i16], prev: &[i16], add: &[i16], subs: [&[i16]; 2], n: usize) {
        let len = out.len();
        if !len.is_multiple_of(W)
            || prev.len() < len
            || add.len() < len
            || (n > 0 && subs[0].len() < len)
            || (n > 1 && subs[1].len() < len)
        {
            return super::update_body(out, prev, add, subs, n);
        }
        let (o, p, a) = (out.as_mut_ptr(), prev.as_ptr(), add.as_ptr());
        let (x, y) = (subs[0].as_ptr(), subs[1].as_ptr());
        let mut i = 0;
        // One loop per number of removed features, so that none tests it per block.
        match n {
            0 => {
                while i < len {
                    let v = _mm256_add_epi16(load(p, i), load(a, i));
                    store(o, i, v);
                    i += W;
                }
            }
            1 => {
                while i < len {
                    let v = _mm256_sub_epi16(_mm256_add_epi16(load(p, i), load(a, i)), load(x, i));
                    store(o, i, v);
                    i += W;
                }
            }
            _ => {
                while i < len {
                    let v = _mm256_add_epi16(load(p, i), load(a, i));
                    let v = _mm256_sub_epi16(_mm256_sub_epi16(v, load(x, i)), load(y, i));
                    store(o, i, v);
                    i += W;
                }
            }
        }
    }

    #[inline(always)]
    unsafe fn load(p: *const i16, i: usize) -> __m256i {
        _mm256_loadu_si256(p.add(i) as *const __m256i)
    }

    #[inline(always)]
    unsafe fn store(p: *mut i16, i: usize, v: __m256i) {
        _mm256_storeu_si256(p.add(i) as *mut __m256i, v)
    }

    #[inline(always)]
    unsafe fn horizontal_sum(v: __m256i) -> i32 {
        let s = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
        let s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0b01_00_11_10));
        let s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0b10_11_00_01));
        _mm_cvtsi128_si32(s)
    }

    /// Sum of `clamp(a, 0, qa)^2 * w` over both halves, as `madd((v * w) as i16, v)`: one
    /// 16-bit multiply and one multiply-add per 16 lanes. Exact only when every `|w| * qa`
    /// fits an i16, which the caller checked (`super::madd_fits`).
    #[target_feature(enable = "avx2")]
    pub unsafe fn screlu_madd(us: &[i16], them: &[i16], w: &[i16], qa: i16) -> i32 {
        let n = us.len();
        if !n.is_multiple_of(W) || them.len() < n || w.len() < 2 * n {
            return super::screlu_body(us, them, w, qa);
        }
        let (zero, top) = (_mm256_setzero_si256(), _mm256_set1_epi16(qa));
        let mut sum = _mm256_setzero_si256();
        for (acc, w) in [
            (us.as_ptr(), w.as_ptr()),
            (them.as_ptr(), w.as_ptr().add(n)),
        ] {
            let mut i = 0;
            while i < n {
                let v = _mm256_min_epi16(_mm256_max_epi16(load(acc, i), zero), top);
                let t = _mm256_mullo_epi16(v, load(w, i));
                sum = _mm256_add_epi32(sum, _mm256_madd_epi16(t, v));
                i += W;
            }
        }
        horizontal_sum(sum)
    }

    /// Sum of `clamp(a, 0, qa) * w` over both halves with one multiply-add per 16 lanes.
    #[target_feature(enable = "avx2")]
    pub unsafe fn crelu_madd(us: &[i16], them: &[i16], w: &[i16], qa: i16) -> i32 {
        let n = us.len();
        if !n.is_multiple_of(W) || them.len() < n || w.len() < 2 * n {
            return super::crelu_body(us, them, w, qa);
        }
        let (zero, top) = (_mm256_setzero_si256(), _mm256_set1_epi16(qa));
        let mut sum = _mm256_setzero_si256();
        for (acc, w) in [
            (us.as_ptr(), w.as_ptr()),
            (them.as_ptr(), w.as_ptr().add(n)),
        ] {
            let mut i = 0;
            while i < n {
                let v = _mm256_min_epi16(_mm256_max_epi16(load(acc, i), zero), top);
                sum = _mm256_add_epi32(sum, _mm256_madd_epi16(v, load(w, i)));
                i += W;
            }
        }
        horizontal_sum(sum)
    }

    #[target_feature(enable = "avx2")]
    pub unsafe fn add_assign(acc: &mut [i16], row: &[i16]) {
        super::add_assign_body(acc, row)
    }

    /// The i32 loops compiled for AVX2, for nets whose output weights are too large for
    /// the 16-bit product.
    #[target_feature(enable = "avx2")]
    pub unsafe fn screlu_wide(us: &[i16], them: &[i16], w: &[i16], qa: i16) -> i32 {
        super::screlu_body(us, them, w, qa)
    }

    #[target_feature(enable = "avx2")]
    pub unsafe fn crelu_wide(us: &[i16], them: &[i16], w: &[i16], qa: i16) -> i32 {
        super::crelu_body(us, them, w, qa)
    }
}

/// Whether `|w| * qa` fits an i16 for every output weight: then the squared activation's
/// product `v * w` (v <= qa) is exact in 16 bits and the multiply-add kernels apply.
pub fn madd_fits(out_weights: &[i16], qa: i32) -> bool {
    out_weights
        .iter()
        .all(|&w| (w as i32).abs() * qa <= i16::MAX as i32)
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

/// `acc += row`, lane by lane (a refresh adds one row per piece).
#[inline]
pub fn add_assign(path: Path, acc: &mut [i16], row: &[i16]) {
    match path {
        // SAFETY: as in `update`.
        #[cfg(target_arch = "x86_64")]
        Path::Avx2 => unsafe { avx2::add_assign(acc, row) },
        _ => add_assign_body(acc, row),
    }
}

/// Sum over both halves of `act(acc) * w` for the squared (`squared`) or plain clipped ReLU;
/// `madd` says that `madd_fits` holds for `w` (the 16-bit multiply-add kernels are exact).
#[inline]
pub fn output_sum(
    path: Path,
    squared: bool,
    madd: bool,
    us: &[i16],
    them: &[i16],
    w: &[i16],
    qa: i16,
) -> i32 {
    match (path, squared, madd) {
        // SAFETY: as in `update`.
        #[cfg(target_arch = "x86_64")]
        (Path::Avx2, true, true) => unsafe { avx2::screlu_madd(us, them, w, qa) },
        #[cfg(target_arch = "x86_64")]
        (Path::Avx2, false, true) => unsafe { avx2::crelu_madd(us, them, w, qa) },
        #[cfg(target_arch = "x86_64")]
        (Path::Avx2, true, false) => unsafe { avx2::screlu_wide(us, them, w, qa) },
        #[cfg(target_arch = "x86_64")]
        (Path::Avx2, false, false) => unsafe { avx2::crelu_wide(us, them, w, qa) },
        (_, true, _) => screlu_body(us, them, w, qa),
        (_, false, _) => crelu_body(us, them, w, qa),
    }
}
