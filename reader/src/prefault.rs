//! Faulting in reserved memory ahead of its use, on another thread
//! (SPEC.md §6.6.1).
//!
//! A full read of a large file reserves the context's tables up front,
//! then fills them on one thread; the kernel's first-touch page faults on
//! that memory were a sixth of the reading time. `MADV_POPULATE_WRITE`
//! (Linux 5.14) has the kernel make those pages present without touching
//! their bytes, so a helper thread can do it while the reader works: pages
//! the reader already wrote are left as they are, and a range freed or
//! reused meanwhile is at worst populated in vain (the call never changes
//! memory contents). Elsewhere, or where the call is refused, nothing
//! happens and the pages fault in as they are written.

use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// Below this many bytes in all, a thread costs more than it saves.
const MIN_BYTES: usize = 4 << 20;

/// Populated per call, in address order, so the helper stays ahead of a
/// reader filling the same range from its start.
const STEP: usize = 2 << 20;

/// [`populate_vectors_in_background`]'s threshold and step: the vectors
/// a listing fills are a few hundred KiB, filled in a millisecond or two.
const VECTOR_MIN_BYTES: usize = 256 << 10;
const VECTOR_STEP: usize = 64 << 10;

/// Starts a detached thread that asks the kernel to fault in `ranges`
/// (address ranges from [`rmlir_format::Context::unwritten_reserve`]).
pub(crate) fn populate_in_background(ranges: Vec<Range<usize>>) {
    spawn(ranges, MIN_BYTES, STEP);
}

/// How far ahead of the bytes moved [`populate_following`] may fault in.
const FOLLOW_AHEAD: usize = 4 << 20;

/// [`populate_in_background`] for the room a move fills while freeing its
/// source as it goes ([`rmlir_format::drain`]): the thread faults in
/// `range` from its start, never more than [`FOLLOW_AHEAD`] bytes past the
/// bytes moved so far as `moved` says, so that the room does not become
/// resident long before the source's pages are given back. It stops at the
/// end of the range, or when it is the last holder of `moved` (the move
/// is over).
pub(crate) fn populate_following(range: Range<usize>, moved: Arc<AtomicUsize>) {
    if range.len() < MIN_BYTES {
        return;
    }
    let _ = std::thread::Builder::new()
        .name("rmlir-prefault".into())
        .spawn(move || {
            let mut at = range.start;
            while at < range.end {
                let allowed = range
                    .start
                    .saturating_add(moved.load(Ordering::Relaxed))
                    .saturating_add(FOLLOW_AHEAD);
                if allowed <= at {
                    if Arc::strong_count(&moved) == 1 {
                        return;
                    }
                    std::thread::sleep(std::time::Duration::from_micros(50));
                    continue;
                }
                let upto = allowed.min(range.end).min(at + STEP);
                if !populate(at..upto, STEP) {
                    return;
                }
                at = upto;
            }
        });
}

/// [`populate_in_background`] for vectors just reserved that this thread
/// fills next (a listing's per-op records and the properties index,
/// SPEC.md §6.7.5): each first-touch fault costs ~2 µs here, and the
/// other thread stays ahead of the filling in small steps.
pub(crate) fn populate_vectors_in_background(ranges: Vec<Range<usize>>) {
    spawn(ranges, VECTOR_MIN_BYTES, VECTOR_STEP);
}

/// The reserved, unwritten part of `v`'s buffer.
pub(crate) fn spare<T>(v: &Vec<T>) -> Range<usize> {
    let size = std::mem::size_of::<T>();
    let start = v.as_ptr() as usize + v.len() * size;
    start..start + (v.capacity() - v.len()) * size
}

fn spawn(ranges: Vec<Range<usize>>, min: usize, step: usize) {
    let total: usize = ranges.iter().map(|r| r.len()).sum();
    if total < min {
        return;
    }
    // If no thread can be started the pages fault in as they are used.
    let _ = std::thread::Builder::new()
        .name("rmlir-prefault".into())
        .spawn(move || populate_in_steps(ranges, step));
}

/// Faults in `ranges` on this thread, now: for tables that were
/// allocated zeroed and are about to be read before they are written
/// (a read maps the shared zero page, and the write after it faults again
/// and, once other threads run, flushes their cores' TLBs).
pub(crate) fn populate_now(ranges: impl IntoIterator<Item = Range<usize>>) {
    populate_in_steps(ranges, STEP);
}

fn populate_in_steps(ranges: impl IntoIterator<Item = Range<usize>>, step: usize) {
    for r in ranges {
        if !populate(r, step) {
            return;
        }
    }
}

/// Populates the whole pages inside `r`; false if the kernel refused
/// (an older kernel without the advice, or another platform).
#[cfg(target_os = "linux")]
fn populate(r: Range<usize>, step: usize) -> bool {
    // SAFETY: sysconf has no preconditions.
    let page = match unsafe { libc::sysconf(libc::_SC_PAGESIZE) } {
        p if p > 0 => p as usize,
        _ => return false,
    };
    let mut at = r.start.next_multiple_of(page);
    let end = r.end - r.end % page;
    while at < end {
        let len = step.min(end - at);
        // SAFETY: MADV_POPULATE_WRITE only makes pages present and
        // writable; it never changes what a page holds, so it cannot
        // affect memory this or another thread uses, whatever owns the
        // range by now. An unmapped or read-only range is an error return.
        let rc = unsafe { libc::madvise(at as *mut libc::c_void, len, libc::MADV_POPULATE_WRITE) };
        if rc != 0 {
            let e = std::io::Error::last_os_error().raw_os_error();
            // EINVAL: no such advice (before Linux 5.14). Anything else
            // (a range freed meanwhile) only ends this range.
            return e != Some(libc::EINVAL);
        }
        at += len;
    }
    true
}

#[cfg(not(target_os = "linux"))]
fn populate(_: Range<usize>, _: usize) -> bool {
    false
}
