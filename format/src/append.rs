//! Appending a short run of bytes whose length is known only at run time.
//!
//! `extend_from_slice` of such a run is a `memcpy` call; varints and decimal
//! numbers are written millions of times in a large module, and a few
//! bytes each. Storing a whole fixed-size array in the vector's spare
//! capacity is a couple of plain stores, after which the length keeps only
//! the wanted prefix.

/// Appends `bytes[..len]` to `out`. Panics if `len > N`.
#[inline]
pub fn append_prefix<const N: usize>(out: &mut Vec<u8>, bytes: [u8; N], len: usize) {
    assert!(len <= N, "a prefix of {len} bytes of {N}");
    out.reserve(N);
    let start = out.len();
    let spare = &mut out.spare_capacity_mut()[..N];
    // SAFETY: `spare` is N bytes of the vector's own capacity (a byte has
    // no alignment to keep); one store of the whole array, where a loop
    // over its bytes was not merged into one. Then the N bytes after
    // `start` are initialized and `len` is at most N.
    unsafe {
        spare.as_mut_ptr().cast::<[u8; N]>().write_unaligned(bytes);
        out.set_len(start + len);
    }
}

#[cfg(test)]
mod tests {
    use super::append_prefix;

    #[test]
    fn appends_the_prefix_after_what_is_there() {
        for len in 0..=4 {
            let mut out = vec![9u8; 3];
            append_prefix(&mut out, [1, 2, 3, 4], len);
            assert_eq!(out[..3], [9, 9, 9]);
            assert_eq!(out[3..], [1, 2, 3, 4][..len]);
        }
    }

    #[test]
    #[should_panic(expected = "a prefix of 5 bytes of 4")]
    fn a_prefix_longer_than_the_array_is_refused() {
        append_prefix(&mut Vec::new(), [0u8; 4], 5);
    }
}
