//! The C allocator's one setting we change, for `decode` and `encode`
//! (SPEC.md §8.5).
//!
//! glibc serves a request above its mmap threshold with a mapping of its
//! own, returned to the system when freed; and it raises that threshold
//! to the size of each such block freed, up to 32 MiB. A reader grows
//! vectors of megabytes by doubling and frees the smaller copies, so after
//! a few frees the later large buffers come from the heap instead, and
//! their pages stay with the process after they are freed: at the peak
//! of `decode` (the printer's alias list, built while the walk's tables
//! are still held) that was ~8 MB of 116. A fixed threshold keeps every
//! large buffer a mapping of its own. `encode` fixes it too since its text
//! parse splits between two threads (SPEC.md §3.5): the second thread's
//! buffers, freed here after the merge, are returned rather than kept in
//! its arena. The other commands keep glibc's default.

/// Large blocks are mapped from this size on, as glibc's default before
/// it adjusts the threshold.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const MMAP_THRESHOLD: libc::c_int = 256 << 10;

/// Fixes glibc's mmap threshold; does nothing with other C libraries.
/// Called before the command starts any thread.
pub fn tune() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only changes the allocator's parameters; no other
    // thread exists yet.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, MMAP_THRESHOLD);
    }
}
