//! The table's memory: one block of zeroed buckets, cleared in slices.
//!
//! On Linux a table of 2 MiB or more is an anonymous mapping aligned to 2 MiB and advised
//! `MADV_HUGEPAGE`, so that the kernel backs it with large pages (fewer TLB misses on random
//! probes) where transparent huge pages are enabled. The kernel hands the pages out zeroed as
//! they are first touched, so even a 16 GiB table is allocated at once. A clear writes zeros
//! over the resident pages of a large-page table (they stay resident, so the next search does
//! not fault them in again) and gives the pages of a small-page table back to the kernel (they
//! read as zero again); `clear_range` says why. Elsewhere, and for small tables, the block
//! comes zeroed from the allocator and a clear writes zeros over all of it.

use super::{Bucket, TtError};

/// Whether the table got large pages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LargePages {
    /// Advised; the kernel backs the table with large pages as it touches it.
    Used,
    /// Turned off by the option.
    Off,
    /// The table is smaller than one large page.
    TooSmall,
    /// Asked for but not available here (the reason).
    Unavailable(String),
}

/// The size of a large page, and the granule of a clear's slices.
pub(super) const LARGE_PAGE: usize = 2 << 20;

/// The size of a small page (mincore's and madvise's unit): 4 KiB on x86-64, more on some
/// other processors.
#[cfg(target_os = "linux")]
fn page_size() -> usize {
    // SAFETY: sysconf only reads a system constant.
    let size = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    usize::try_from(size)
        .ok()
        .filter(|s| s.is_power_of_two() && *s >= 4096)
        .unwrap_or(4096)
}

enum Backing {
    Heap(std::alloc::Layout),
    #[cfg(target_os = "linux")]
    Mapped(usize),
}

/// `count` zeroed buckets in one block.
pub(super) struct BucketArray {
    raw: *mut u8,
    backing: Backing,
    buckets: *mut Bucket,
    count: usize,
    large_pages: LargePages,
}

// SAFETY: the array owns its memory exclusively; Buckets hold only atomics.
unsafe impl Send for BucketArray {}
// SAFETY: shared access only hands out `&[Bucket]`, and Bucket is Sync (atomics only).
unsafe impl Sync for BucketArray {}

impl BucketArray {
    /// A zeroed block of `count` buckets, in large pages when `large_pages` and the OS allows.
    pub(super) fn zeroed(count: usize, large_pages: bool) -> Result<BucketArray, TtError> {
        let too_big = || TtError(format!("{count} hash buckets do not fit in memory"));
        let bytes = count
            .checked_mul(std::mem::size_of::<Bucket>())
            .ok_or_else(too_big)?;
        #[cfg(target_os = "linux")]
        if bytes >= LARGE_PAGE {
            return Self::mapped(count, bytes, large_pages);
        }
        let status = if !large_pages {
            LargePages::Off
        } else if bytes < LARGE_PAGE {
            LargePages::TooSmall
        } else {
            LargePages::Unavailable("only on Linux".to_string())
        };
        Self::heap(count, bytes, status)
    }

    /// The system allocator returns fresh (already zero) pages for a large zeroed block, but
    /// only for small alignments: the block is over-allocated with 16-byte alignment and the
    /// buckets start at the first cache-line boundary inside it.
    fn heap(count: usize, bytes: usize, large_pages: LargePages) -> Result<BucketArray, TtError> {
        let too_big = || TtError(format!("{count} hash buckets do not fit in memory"));
        let bytes = bytes.checked_add(64).ok_or_else(too_big)?;
        let layout = std::alloc::Layout::from_size_align(bytes, 16).map_err(|_| too_big())?;
        // SAFETY: the layout has a non-zero size.
        let raw = unsafe { std::alloc::alloc_zeroed(layout) };
        if raw.is_null() {
            return Err(TtError(format!(
                "cannot allocate {} MiB of hash",
                bytes / (1024 * 1024)
            )));
        }
        let offset = raw.align_offset(64);
        // SAFETY: offset < 64 and the block has 64 spare bytes, so `count` Buckets fit after it.
        let buckets = unsafe { raw.add(offset) } as *mut Bucket;
        Ok(BucketArray {
            raw,
            backing: Backing::Heap(layout),
            buckets,
            count,
            large_pages,
        })
    }

    #[cfg(target_os = "linux")]
    fn mapped(count: usize, bytes: usize, large_pages: bool) -> Result<BucketArray, TtError> {
        // One large page more than needed, so that the buckets can start on a 2 MiB boundary.
        let len = bytes
            .checked_add(LARGE_PAGE)
            .ok_or_else(|| TtError(format!("{count} hash buckets do not fit in memory")))?;
        // SAFETY: an anonymous private mapping with no address hint; the result is checked.
        // Without MAP_NORESERVE, so that the kernel refuses a size it could never back.
        let raw = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if raw == libc::MAP_FAILED {
            return Err(TtError(format!(
                "cannot allocate {} MiB of hash: {}",
                bytes >> 20,
                std::io::Error::last_os_error()
            )));
        }
        let raw = raw as *mut u8;
        let offset = raw.align_offset(LARGE_PAGE);
        // SAFETY: offset < LARGE_PAGE, so the `bytes` after it lie inside the mapping.
        let start = unsafe { raw.add(offset) };
        let status = if !large_pages {
            LargePages::Off
        } else {
            advise_huge(start, bytes)
        };
        Ok(BucketArray {
            raw,
            backing: Backing::Mapped(len),
            buckets: start as *mut Bucket,
            count,
            large_pages: status,
        })
    }

    /// Whether large pages back the table.
    pub(super) fn large_pages(&self) -> &LargePages {
        &self.large_pages
    }

    /// Zeroes buckets `start..end`. Callers run it only while no search uses the table (the
    /// pool's workers, each on its own slice, between searches).
    ///
    /// Where the cost lands matters: a clear runs at `ucinewgame`/`isready` (off the clock),
    /// the next search on the clock. Giving the pages back (`MADV_DONTNEED`) takes
    /// milliseconds, but then the next search faults in every page it writes, zeroed by the
    /// kernel; with 2 MiB pages a search's stores spread over the table fault in nearly all of
    /// it, and on this machine (a VM) the kernel also compacts memory to find 2 MiB pages:
    /// `pao bench --hash 4096` ran 9.9 times slower with large pages than without (positions
    /// up to 10 s). So a large-page table writes zeros over its resident pages instead: the
    /// clear pays for the memory the last searches used, and the pages stay mapped. A
    /// small-page table still gives its pages back: faulting in only the 4 KiB pages a search
    /// touches is cheap, and a clear of a fully resident table stays fast (docs/results.md,
    /// "The transposition table").
    pub(super) fn clear_range(&self, start: usize, end: usize) {
        let end = end.min(self.count);
        if start >= end {
            return;
        }
        #[cfg(target_os = "linux")]
        if let Backing::Mapped(_) = self.backing {
            if self.large_pages == LargePages::Used {
                self.zero_resident(start, end);
            } else {
                self.give_back(start, end);
            }
            return;
        }
        self.zero_buckets(start, end);
    }

    /// Zeroes `start..end` by writing zeros over the pages `mincore` reports resident, chunk
    /// by chunk. The others were never touched (they read as zero) or, with swap, were swapped
    /// out: those are given back, which costs nothing for untouched pages.
    #[cfg(target_os = "linux")]
    fn zero_resident(&self, start: usize, end: usize) {
        const CHUNK: usize = 64 << 20;
        let page = page_size();
        let size = std::mem::size_of::<Bucket>();
        let base = self.buckets as usize;
        let (lo, hi) = (base + start * size, base + end * size);
        let mut status = vec![0u8; CHUNK.div_ceil(page)];
        let mut at = lo / page * page;
        while at < hi {
            let len = CHUNK.min(hi - at);
            let pages = len.div_ceil(page);
            // The buckets of `[a, b)`, a range of whole buckets: pages and `lo`/`hi` are
            // multiples of the bucket size.
            let span = |a: usize, b: usize| ((a.max(lo) - base) / size, (b.min(hi) - base) / size);
            // SAFETY: `at` is page-aligned and `[at, at + len)` lies inside this array's own
            // mapping (the buckets end at `hi`); `status` holds one byte for each of its pages.
            let r = unsafe { libc::mincore(at as *mut libc::c_void, len, status.as_mut_ptr()) };
            if r != 0 {
                let (a, b) = span(at, at + len);
                self.zero_buckets(a, b);
                at += len;
                continue;
            }
            let mut i = 0;
            while i < pages {
                let resident = status[i] & 1 != 0;
                let run = status[i..pages]
                    .iter()
                    .take_while(|&&s| (s & 1 != 0) == resident)
                    .count();
                let (a, b) = span(at + i * page, at + (i + run) * page);
                if resident {
                    self.zero_written(a, b, page / size);
                } else {
                    self.give_back(a, b);
                }
                i += run;
            }
            at += len;
        }
    }

    /// Zeroes the pages (`per_page` buckets each) of the resident `start..end` that hold
    /// anything. A page the search only read is mapped to the kernel's shared zero page:
    /// writing to it would make the kernel allocate (and, with large pages, compact memory
    /// for) a page in the clear, so all-zero pages are only read. The scan of a written page
    /// stops at its first non-zero bucket.
    #[cfg(target_os = "linux")]
    fn zero_written(&self, start: usize, end: usize, per_page: usize) {
        let words = std::mem::size_of::<Bucket>() / 8;
        let mut dirty_from = None;
        let mut at = start;
        while at < end {
            let next = (at / per_page + 1) * per_page;
            let page_end = next.min(end);
            // SAFETY: the buckets `at..page_end` lie inside the array, a Bucket is plain
            // 8-byte-aligned u64 words (atomics have the layout of their integers), and no
            // other thread touches the table during a clear (the pool's contract), so plain
            // reads race with nothing. Plain words let the compiler vectorise the scan.
            let page = unsafe {
                std::slice::from_raw_parts(
                    self.buckets.add(at) as *const u64,
                    (page_end - at) * words,
                )
            };
            let written = page
                .chunks(words * 8)
                .any(|c| c.iter().fold(0, |acc, &w| acc | w) != 0);
            match (written, dirty_from) {
                (true, None) => dirty_from = Some(at),
                (false, Some(from)) => {
                    self.zero_buckets(from, at);
                    dirty_from = None;
                }
                _ => {}
            }
            at = page_end;
        }
        if let Some(from) = dirty_from {
            self.zero_buckets(from, end);
        }
    }

    /// Zeroes `start..end` by giving its whole pages back to the kernel (`MADV_DONTNEED`:
    /// they read as zero and are mapped again, zeroed, when the search next writes them) and
    /// writing zeros only at the unaligned edges. On this machine (a VM, 2 cores) writing
    /// zeros over a fully resident 16 GiB table of 4 KiB pages took 30 s; giving the pages
    /// back takes a fraction of that, and leaves the table as a fresh allocation would.
    #[cfg(target_os = "linux")]
    fn give_back(&self, start: usize, end: usize) {
        let page = page_size();
        let size = std::mem::size_of::<Bucket>();
        let base = self.buckets as usize;
        let lo = (base + start * size).next_multiple_of(page);
        let hi = (base + end * size) / page * page;
        if hi > lo {
            // SAFETY: [lo, hi) is page-aligned and inside this array's own private anonymous
            // mapping; its pages read as zero afterwards, which is a valid (empty) Bucket.
            let r = unsafe { libc::madvise(lo as *mut libc::c_void, hi - lo, libc::MADV_DONTNEED) };
            if r == 0 {
                self.zero_buckets(start, (lo - base) / size);
                self.zero_buckets((hi - base).div_ceil(size), end);
                return;
            }
        }
        self.zero_buckets(start, end);
    }

    /// How many of the 4 KiB pages of buckets `start..end` are resident (`None` when
    /// `mincore` fails or the table is not a mapping): for tests.
    #[cfg(all(test, target_os = "linux"))]
    pub(super) fn resident_pages(&self, start: usize, end: usize) -> Option<usize> {
        if !matches!(self.backing, Backing::Mapped(_)) || start >= end.min(self.count) {
            return None;
        }
        let (page, size) = (page_size(), std::mem::size_of::<Bucket>());
        let lo = (self.buckets as usize + start * size) / page * page;
        let hi = self.buckets as usize + end.min(self.count) * size;
        let mut status = vec![0u8; (hi - lo).div_ceil(page)];
        // SAFETY: `lo` is page-aligned, `[lo, hi)` lies inside this array's mapping and
        // `status` has one byte per page of it.
        let r = unsafe { libc::mincore(lo as *mut libc::c_void, hi - lo, status.as_mut_ptr()) };
        (r == 0).then(|| status.iter().filter(|&&s| s & 1 != 0).count())
    }

    fn zero_buckets(&self, start: usize, end: usize) {
        let end = end.min(self.count);
        if start >= end {
            return;
        }
        let bytes = (end - start) * std::mem::size_of::<Bucket>();
        // SAFETY: the buckets `start..end` lie inside the array; their atomics allow writes
        // through a shared reference (interior mutability), all-zero bits is a valid Bucket,
        // and no other thread touches them during a clear (the pool's contract), so one plain
        // memset races with nothing.
        unsafe { std::ptr::write_bytes(self.buckets.add(start) as *mut u8, 0, bytes) };
    }
}

/// Advises large pages for `[start, start + bytes)`; says why when they are not available.
#[cfg(target_os = "linux")]
fn advise_huge(start: *mut u8, bytes: usize) -> LargePages {
    let mode = std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/enabled");
    match mode {
        Err(_) => {
            return LargePages::Unavailable("the kernel has no transparent huge pages".into())
        }
        Ok(m) if m.contains("[never]") => {
            return LargePages::Unavailable(
                "transparent huge pages are off (/sys/kernel/mm/transparent_hugepage/enabled)"
                    .into(),
            )
        }
        Ok(_) => {}
    }
    // SAFETY: the range lies inside a mapping this process owns; advice changes no contents.
    let r = unsafe { libc::madvise(start as *mut libc::c_void, bytes, libc::MADV_HUGEPAGE) };
    if r == 0 {
        LargePages::Used
    } else {
        LargePages::Unavailable(format!(
            "madvise(MADV_HUGEPAGE): {}",
            std::io::Error::last_os_error()
        ))
    }
}

impl std::ops::Deref for BucketArray {
    type Target = [Bucket];
    fn deref(&self) -> &[Bucket] {
        // SAFETY: `buckets` is 64-byte aligned and points at `count` zero-initialised Buckets
        // (all-zero bits is a valid Bucket: it holds only atomics) inside the live allocation.
        unsafe { std::slice::from_raw_parts(self.buckets, self.count) }
    }
}

impl Drop for BucketArray {
    fn drop(&mut self) {
        match self.backing {
            // SAFETY: `raw` came from `alloc_zeroed` with exactly this layout.
            Backing::Heap(layout) => unsafe { std::alloc::dealloc(self.raw, layout) },
            // SAFETY: `raw` and `len` are exactly the mapping made in `mapped`.
            #[cfg(target_os = "linux")]
            Backing::Mapped(len) => unsafe {
                libc::munmap(self.raw as *mut libc::c_void, len);
            },
        }
    }
}
