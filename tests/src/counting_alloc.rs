//! A global allocator that counts the heap in use and its peak, for tests
//! and fuzz targets that bound the memory a hostile input may make us use
//! (SPEC.md §5.1). Install it with
//! `#[global_allocator] static A: rmlir_tests::counting_alloc::Counting = Counting;`,
//! then [`start`] before the work and [`peak_growth`] after it.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// The system allocator, counting.
pub struct Counting;

static CURRENT: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is forwarded to the system allocator unchanged; the
// counters are only observed.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        // SAFETY: forwarded to the system allocator with the same layout.
        let p = unsafe { System.alloc(l) };
        if !p.is_null() {
            let now = CURRENT.fetch_add(l.size(), Relaxed) + l.size();
            PEAK.fetch_max(now, Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        // SAFETY: `p` was allocated by `alloc` above with layout `l`.
        unsafe { System.dealloc(p, l) };
        CURRENT.fetch_sub(l.size(), Relaxed);
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, new: usize) -> *mut u8 {
        // SAFETY: as for `alloc`/`dealloc`; `p` came from this allocator.
        let q = unsafe { System.realloc(p, l, new) };
        if !q.is_null() {
            if new >= l.size() {
                let now = CURRENT.fetch_add(new - l.size(), Relaxed) + (new - l.size());
                PEAK.fetch_max(now, Relaxed);
            } else {
                CURRENT.fetch_sub(l.size() - new, Relaxed);
            }
        }
        q
    }
}

/// Starts a measurement: the peak is reset to the heap in use, which is
/// returned (pass it to [`peak_growth`]).
pub fn start() -> usize {
    let before = CURRENT.load(Relaxed);
    PEAK.store(before, Relaxed);
    before
}

/// How far the heap grew above `before` at its peak since [`start`].
pub fn peak_growth(before: usize) -> usize {
    PEAK.load(Relaxed).saturating_sub(before)
}
