//! Moving the items out of a large vector while giving its memory back as
//! they go (SPEC.md §2.5.1).
//!
//! Merging a second thread's context and IR into the first's moves each of
//! its arenas (attributes, ops, values) into a vector of the other. With
//! `Vec::into_iter` the source buffer is freed only once the last item has
//! moved, so for the length of the move both copies are resident: on the
//! 50 MB benchmark module the peak memory of `encode` was that moment
//! (~22 MiB above the memory before and after it). [`Draining`] yields the
//! items in the same order and, every MiB moved, hands the whole pages of
//! the items already moved back to the kernel (`MADV_DONTNEED`), so the
//! source shrinks as the destination grows. The alias walk's merge of its
//! runs moves its entries the same way.
//!
//! A reader that has the destination's pages faulted in ahead on another
//! thread can follow the move with [`Draining::reporting`], so that the
//! destination grows no faster than the source shrinks.
//!
//! The buffer itself is freed by the allocator as usual at the end. Its
//! first and last pages are never released: an allocator keeps its own
//! bookkeeping just before and just after a block (glibc's chunk header and
//! the next chunk's size field), and the pages in between are neither read
//! nor written by it while the block is allocated. A released page reads
//! back as zeros, which only the freed buffer can see.

use std::mem::{size_of, ManuallyDrop};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Pages are released once this many bytes more have been moved out.
const STEP: usize = 1 << 20;

/// Buffers smaller than this are drained as `Vec::into_iter` would.
const MIN_BYTES: usize = 4 << 20;

/// An iterator over a vector's items, by value, in order, that releases
/// the pages of the items it has yielded (see the module's docs).
pub struct Draining<'a, T> {
    ptr: *mut T,
    cap: usize,
    len: usize,
    /// The next item to yield.
    next: usize,
    /// Bytes from the start of the buffer up to which pages were
    /// released, or asked to be.
    released: usize,
    /// Whether pages are released at all (a large enough buffer of sized
    /// items, on Linux).
    releasing: bool,
    /// Where the bytes moved out so far are stored at each release.
    moved: Option<&'a AtomicUsize>,
}

// SAFETY: `Draining<T>` owns its items as `Vec<T>` does, and shares only
// an atomic.
unsafe impl<T: Send> Send for Draining<'_, T> {}

impl<T> Draining<'static, T> {
    /// Takes `v`'s items; they are yielded in order.
    pub fn new(v: Vec<T>) -> Self {
        Draining::reporting(v, None)
    }
}

impl<'a, T> Draining<'a, T> {
    /// [`Draining::new`], which also stores in `moved`, each time it
    /// releases pages, how many bytes of items it has yielded.
    pub fn reporting(v: Vec<T>, moved: Option<&'a AtomicUsize>) -> Self {
        let mut v = ManuallyDrop::new(v);
        let bytes = v.capacity().saturating_mul(size_of::<T>());
        Draining {
            ptr: v.as_mut_ptr(),
            cap: v.capacity(),
            len: v.len(),
            next: 0,
            released: 0,
            releasing: cfg!(target_os = "linux") && size_of::<T>() > 0 && bytes >= MIN_BYTES,
            moved,
        }
    }

    /// Releases the whole pages of the moved items, past the buffer's
    /// first page and before its last one.
    #[cfg(target_os = "linux")]
    fn release(&mut self) {
        // SAFETY: sysconf has no preconditions.
        let page = match unsafe { libc::sysconf(libc::_SC_PAGESIZE) } {
            p if p > 0 => p as usize,
            _ => {
                self.releasing = false;
                return;
            }
        };
        let base = self.ptr as usize;
        let moved = self.next * size_of::<T>();
        if let Some(m) = self.moved {
            m.store(moved, Ordering::Relaxed);
        }
        let first_free = (base - base % page) + page;
        let buffer_end = base + self.cap * size_of::<T>();
        let last_page = buffer_end - buffer_end % page;
        let start = first_free.max(base + self.released);
        let start = start.next_multiple_of(page);
        let end = (base + moved).min(last_page);
        let end = end - end % page;
        self.released = moved;
        if start < end {
            // SAFETY: [start, end) is whole pages inside this iterator's
            // own buffer, holding only items already moved out (they are
            // never read or dropped again) and no allocator bookkeeping
            // (the first and last pages are excluded). MADV_DONTNEED on
            // private anonymous memory only makes those pages read as
            // zeros on their next access. A refusal changes nothing.
            let rc = unsafe {
                libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_DONTNEED)
            };
            if rc != 0 {
                self.releasing = false;
            }
        }
    }

    #[cfg(not(target_os = "linux"))]
    fn release(&mut self) {
        self.releasing = false;
    }
}

impl<T> Iterator for Draining<'_, T> {
    type Item = T;

    #[inline]
    fn next(&mut self) -> Option<T> {
        if self.next == self.len {
            return None;
        }
        // SAFETY: `next < len`: the item is initialized and was not moved
        // out yet; `next` moves past it, so it is never read or dropped
        // again by this iterator.
        let item = unsafe { self.ptr.add(self.next).read() };
        self.next += 1;
        if self.releasing && self.next * size_of::<T>() - self.released >= STEP {
            self.release();
        }
        Some(item)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.len - self.next;
        (n, Some(n))
    }
}

impl<T> ExactSizeIterator for Draining<'_, T> {}

impl<T> Drop for Draining<'_, T> {
    fn drop(&mut self) {
        // SAFETY: the items `next..len` are initialized and were not moved
        // out; the buffer came from a `Vec<T>` of this capacity, and with
        // a length of 0 the vector frees it without touching any item.
        unsafe {
            let rest =
                std::ptr::slice_from_raw_parts_mut(self.ptr.add(self.next), self.len - self.next);
            std::ptr::drop_in_place(rest);
            drop(Vec::from_raw_parts(self.ptr, 0, self.cap));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Draining;

    #[test]
    fn yields_every_item_in_order_and_drops_the_rest() {
        // Large enough to release pages (16 MiB of 32-byte items).
        let n = (16 << 20) / 32;
        let v: Vec<[u64; 4]> = (0..n as u64).map(|i| [i, i + 1, i * 3, !i]).collect();
        let mut d = Draining::new(v);
        for i in 0..n as u64 / 2 {
            assert_eq!(d.next(), Some([i, i + 1, i * 3, !i]));
        }
        assert_eq!(d.len(), n / 2);
        let rest: Vec<_> = d.collect();
        assert_eq!(rest.len(), n / 2);
        assert!(rest
            .iter()
            .zip(n as u64 / 2..)
            .all(|(x, i)| *x == [i, i + 1, i * 3, !i]));
    }

    #[test]
    fn items_not_taken_are_dropped_once() {
        use std::rc::Rc;
        let counter = Rc::new(());
        // 8 MiB of pointers: pages are released as they are taken.
        let v: Vec<Rc<()>> = (0..1_000_000).map(|_| counter.clone()).collect();
        let mut d = Draining::new(v);
        let taken: Vec<_> = d.by_ref().take(750_000).collect();
        assert_eq!(Rc::strong_count(&counter), 1_000_001);
        drop(d);
        assert_eq!(Rc::strong_count(&counter), 750_001);
        drop(taken);
        assert_eq!(Rc::strong_count(&counter), 1);
    }

    #[test]
    fn reports_the_bytes_moved_at_each_release() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let moved = AtomicUsize::new(0);
        let mut d = Draining::reporting(vec![0u64; 1 << 20], Some(&moved));
        d.by_ref().take((1 << 17) - 1).for_each(drop);
        assert_eq!(moved.load(Ordering::Relaxed), 0, "less than a step moved");
        d.next();
        assert_eq!(
            moved.load(Ordering::Relaxed),
            1 << 20,
            "a step of 1 MiB moved"
        );
    }

    #[test]
    fn small_and_empty_vectors() {
        assert_eq!(Draining::new(Vec::<u8>::new()).count(), 0);
        assert_eq!(Draining::new(vec![1, 2, 3]).collect::<Vec<_>>(), [1, 2, 3]);
        assert_eq!(Draining::new(vec![(); 5]).count(), 5);
    }
}
