//! A fast, deterministic hasher for the in-memory tables (interning,
//! name lookup, alias maps). SipHash (std's default) showed up at 5–6% of
//! the profiles of decoding and encoding large modules; this is FxHash's
//! multiply-rotate round per word with a final avalanche, so that
//! hashbrown's bucket index (low bits) and tag (top bits) both depend on
//! every input bit. Not DoS-resistant: nothing here hashes keys chosen to
//! collide on purpose except a hostile input file, which costs time, never
//! correctness.

use std::hash::{BuildHasherDefault, Hasher};

const K: u64 = 0xf135_7aea_2e62_a9c5;

/// The hasher described in the module documentation.
#[derive(Clone, Copy, Default)]
pub struct FastHasher(u64);

impl FastHasher {
    #[inline]
    fn add(&mut self, w: u64) {
        self.0 = (self.0.rotate_left(26) ^ w).wrapping_mul(K);
    }
}

impl Hasher for FastHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.add(u64::from_le_bytes(c.try_into().unwrap()));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut b = [0u8; 8];
            b[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(b) ^ ((rest.len() as u64) << 59));
        }
    }
    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(i as u64);
    }
    #[inline]
    fn write_u16(&mut self, i: u16) {
        self.add(i as u64);
    }
    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.add(i as u64);
    }
    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }
    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }
    #[inline]
    fn finish(&self) -> u64 {
        // murmur3's fmix64: every output bit depends on every input bit.
        let mut h = self.0;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        h ^ (h >> 33)
    }
}

/// Builds [`FastHasher`]s, for the hash maps and sets of this crate.
pub type FastBuildHasher = BuildHasherDefault<FastHasher>;
/// `std::collections::HashMap` with [`FastHasher`]; create it with
/// `FastMap::default()`.
pub type FastMap<K, V> = std::collections::HashMap<K, V, FastBuildHasher>;
/// `std::collections::HashSet` with [`FastHasher`]; create it with
/// `FastSet::default()`.
pub type FastSet<K> = std::collections::HashSet<K, FastBuildHasher>;

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::BuildHasher;

    #[test]
    fn distinguishes_lengths_and_spreads_bits() {
        let b = FastBuildHasher::default();
        assert_ne!(b.hash_one(b"a".as_slice()), b.hash_one(b"a\0".as_slice()));
        assert_ne!(b.hash_one(0u32), b.hash_one(1u32));
        // Consecutive small keys land in different low-bit buckets.
        let low: FastSet<u64> = (0..64u32).map(|i| b.hash_one(i) & 63).collect();
        assert!(low.len() > 32, "{}", low.len());
    }
}
