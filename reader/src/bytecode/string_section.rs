//! The string table (SPEC.md §6.4): a count, the sizes in reverse order,
//! then the NUL-terminated strings in forward order. Strings borrow from
//! the input.

use super::binary_reader::Reader;
use crate::error::Result;

pub fn read_strings<'a>(mut r: Reader<'a>) -> Result<Vec<&'a [u8]>> {
    let at = r.offset();
    let count = r.read_varint()?;
    r.check_max_count(count, "string", at)?;
    // The sizes are walked twice, once to find where the data starts and
    // once to cut it, rather than kept: a vector of them was a quarter of
    // the memory `info` touched opening a large module (SPEC.md §6.4).
    let mut sizes = r.clone();
    for _ in 0..count {
        r.read_varint()?;
    }
    let data_start = r.offset();
    let data = r.read_bytes(r.remaining() as u64)?;
    let mut end = data.len();
    // Capacity is bounded by the bytes the sizes took, one at least each.
    let mut strings = Vec::with_capacity(count as usize);
    // The first size read belongs to the last string.
    for _ in 0..count {
        let at = sizes.offset();
        let size = sizes.read_varint()?;
        if size > end as u64 {
            return r.err_at(at, "string size exceeds the available data size");
        }
        if size == 0 {
            return r.err_at(
                at,
                "unexpected trailing data between the offsets for strings and their data (a string size of 0; every string includes its NUL)",
            );
        }
        let start = end - size as usize;
        if data[end - 1] != 0 {
            return r.err_at(data_start + end - 1, "string is missing its NUL terminator");
        }
        strings.push(&data[start..end - 1]);
        end = start;
    }
    if end != 0 {
        return r.err_at(
            data_start,
            "unexpected trailing data between the offsets for strings and their data",
        );
    }
    strings.reverse();
    Ok(strings)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Position;

    /// The section at file offset 100.
    fn read(section: &[u8]) -> Result<Vec<&[u8]>> {
        read_strings(Reader::new(section, 100, "String"))
    }

    fn error_at(section: &[u8]) -> (String, u64) {
        let e = read(section).unwrap_err();
        let Position::Bytecode { offset, .. } = *e.position() else {
            panic!("not a bytecode position: {e}");
        };
        (e.message().to_string(), offset)
    }

    /// "ab" and "c": the count 2, the sizes last string first (2, then 3,
    /// one-byte varints `(n << 1) | 1`), then `ab\0c\0`.
    #[test]
    fn strings_are_cut_from_the_end_by_the_sizes() {
        let section = b"\x05\x05\x07ab\0c\0";
        assert_eq!(read(section).unwrap(), [&b"ab"[..], &b"c"[..]]);
        assert_eq!(read(b"\x01").unwrap(), Vec::<&[u8]>::new());
    }

    /// Each error names the byte it is about: the size varint (at 101 and
    /// 102 here), the missing NUL, the start of data left over.
    #[test]
    fn string_table_errors_point_at_their_byte() {
        let (m, at) = error_at(b"\x05\x05\x15ab\0c\0");
        assert!(m.contains("exceeds the available data size"), "{m}");
        assert_eq!(at, 102);
        let (m, at) = error_at(b"\x03\x01a\0");
        assert!(m.contains("a string size of 0"), "{m}");
        assert_eq!(at, 101);
        let (m, at) = error_at(b"\x05\x05\x07abXc\0");
        assert!(m.contains("missing its NUL"), "{m}");
        assert_eq!(at, 105);
        let (m, at) = error_at(b"\x03\x05xa\0");
        assert!(m.contains("unexpected trailing data"), "{m}");
        assert_eq!(at, 102);
        // Fewer sizes than the count: the read of the missing one fails.
        let (_, at) = error_at(b"\x05\x05");
        assert_eq!(at, 102);
    }
}
