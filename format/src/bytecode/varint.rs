//! MLIR's PrefixVarInt (SPEC.md §6.1): the number of trailing zero bits of
//! the first byte gives the length (1–8 bytes; a zero first byte means 9),
//! the value sits above the marker bits, little-endian. Not LEB128.

/// Appends `v` in the shortest PrefixVarInt form.
pub fn write_varint(out: &mut Vec<u8>, v: u64) {
    if v < 1 << 7 {
        out.push(((v << 1) | 1) as u8);
        return;
    }
    let bits = 64 - v.leading_zeros() as usize;
    let len = bits.div_ceil(7);
    if len >= 9 {
        out.push(0);
        out.extend_from_slice(&v.to_le_bytes());
        return;
    }
    let enc = ((v << 1) | 1) << (len - 1);
    crate::append::append_prefix(out, enc.to_le_bytes(), len);
}

/// The encoded length of `v`.
pub fn varint_len(v: u64) -> usize {
    if v == 0 {
        return 1;
    }
    let bits = 64 - v.leading_zeros() as usize;
    bits.div_ceil(7).min(9)
}

/// Zigzag encoding used by signed varints.
pub fn zigzag(v: i64) -> u64 {
    ((v << 1) ^ (v >> 63)) as u64
}

/// The inverse of [`zigzag`].
pub fn unzigzag(u: u64) -> i64 {
    ((u >> 1) as i64) ^ -((u & 1) as i64)
}

/// Appends `v` as a signed VarInt: zigzag, then a PrefixVarInt (SPEC.md §6.1).
pub fn write_signed_varint(out: &mut Vec<u8>, v: i64) {
    write_varint(out, zigzag(v));
}

/// Decodes a PrefixVarInt at the start of `data`: `(value, length)`, or
/// `None` when `data` ends first. Non-minimal encodings are accepted, as
/// upstream accepts them.
#[inline]
pub fn read_varint(data: &[u8]) -> Option<(u64, usize)> {
    let &first = data.first()?;
    if first & 1 == 1 {
        return Some(((first >> 1) as u64, 1));
    }
    read_multibyte(data, first)
}

fn read_multibyte(data: &[u8], first: u8) -> Option<(u64, usize)> {
    if first == 0 {
        let bytes: [u8; 8] = data.get(1..9)?.try_into().ok()?;
        return Some((u64::from_le_bytes(bytes), 9));
    }
    let len = first.trailing_zeros() as usize + 1;
    // With 8 bytes at hand, one unaligned load and a mask; near the end
    // of the input, byte by byte.
    let word = match data.get(..8) {
        Some(w) => u64::from_le_bytes(w.try_into().ok()?),
        None => {
            let raw = data.get(..len)?;
            let mut buf = [0u8; 8];
            buf[..len].copy_from_slice(raw);
            u64::from_le_bytes(buf)
        }
    };
    let word = if len == 8 {
        word
    } else {
        word & ((1u64 << (8 * len)) - 1)
    };
    Some((word >> len, len))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Byte examples from the wire facts sheet (checked against mlir-opt 22).
    #[test]
    fn known_encodings() {
        let cases: &[(u64, &[u8])] = &[
            (0, &[0x01]),
            (1, &[0x03]),
            (127, &[0xff]),
            (128, &[0x02, 0x02]),
            (16383, &[0xfe, 0xff]),
            (16384, &[0x04, 0x00, 0x02]),
            (
                (1 << 56) - 1,
                &[0x80, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
            ),
            (1 << 56, &[0, 0, 0, 0, 0, 0, 0, 0, 1]),
            (
                u64::MAX,
                &[0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
            ),
        ];
        for &(v, bytes) in cases {
            let mut out = Vec::new();
            write_varint(&mut out, v);
            assert_eq!(out, bytes, "encoding {v}");
            assert_eq!(varint_len(v), bytes.len());
            assert_eq!(read_varint(bytes), Some((v, bytes.len())), "decoding {v}");
        }
    }

    #[test]
    fn round_trip_and_truncation() {
        let mut x = 0x9E3779B97F4A7C15u64;
        for shift in 0..64 {
            let v = x >> shift;
            let mut out = Vec::new();
            write_varint(&mut out, v);
            assert_eq!(out.len(), varint_len(v), "shortest form of {v}");
            assert_eq!(read_varint(&out), Some((v, out.len())));
            // Appended after what the vector holds, which stays as it was.
            let mut after = vec![0xa5; 3];
            write_varint(&mut after, v);
            assert_eq!((&after[..3], &after[3..]), (&[0xa5; 3][..], &out[..]));
            assert_eq!(read_varint(&out[..out.len() - 1]), None);
            // Followed by more input (the one-load path): set bits after
            // the value must not leak into it.
            let n = out.len();
            out.extend_from_slice(&[0xff; 9]);
            assert_eq!(read_varint(&out), Some((v, n)));
            x = x.rotate_left(7).wrapping_mul(3);
        }
        // A non-minimal two-byte form of 1 is accepted.
        assert_eq!(read_varint(&[0x06, 0x00]), Some((1, 2)));
    }

    #[test]
    fn zigzag_examples() {
        assert_eq!(zigzag(0), 0);
        assert_eq!(zigzag(-1), 1);
        assert_eq!(zigzag(1), 2);
        assert_eq!(zigzag(-2), 3);
        assert_eq!(zigzag(i64::MIN), u64::MAX);
        for v in [0, 1, -1, i64::MAX, i64::MIN, 12345, -98765] {
            assert_eq!(unzigzag(zigzag(v)), v);
        }
    }
}
