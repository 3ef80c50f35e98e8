//! The string table (SPEC.md §6.4): a count, the sizes in reverse order,
//! then the NUL-terminated strings in forward order. Strings borrow from
//! the input.

use super::binary_reader::Reader;
use crate::error::Result;

pub fn read_strings<'a>(mut r: Reader<'a>) -> Result<Vec<&'a [u8]>> {
    let at = r.offset();
    let count = r.read_varint()?;
    r.check_max_count(count, "string", at)?;
    // Capacity is bounded by the bytes left: each size takes at least one
    // (running out is reported by the read, with upstream's message).
    let mut sizes = Vec::with_capacity((count as usize).min(r.remaining()));
    for _ in 0..count {
        let at = r.offset();
        sizes.push((r.read_varint()?, at));
    }
    let data_start = r.offset();
    let data = r.read_bytes(r.remaining() as u64)?;
    let mut end = data.len();
    let mut strings = Vec::with_capacity(sizes.len());
    // The first size read belongs to the last string.
    for &(size, at) in &sizes {
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
