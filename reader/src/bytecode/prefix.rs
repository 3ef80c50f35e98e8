//! Checking the start of a bytecode file before the rest exists
//! (SPEC.md §5.1, §8.2).
//!
//! A zstd frame of a few kilobytes can hold gigabytes. Decompressing it
//! whole before reading the header let a frame of the magic and 30 GB of
//! zeros exhaust memory over a header its first 24 bytes already showed to
//! be malformed. [`check_prefix`] reads the header and the section framing
//! of the bytes decompressed so far, so a caller can refuse as soon as
//! they are wrong, and learns from the sections' declared lengths how many
//! bytes the file claims before they arrive.

use super::binary_reader::Reader;
use crate::error::Result;
use rmlir_format::bytecode::varint::read_varint;
use rmlir_format::bytecode::{SectionId, ALIGNMENT_PADDING, MAGIC, VERSION_CURRENT};

/// The longest producer string a prefix may hold before its NUL. Real
/// producers are short (`MLIR22.1.8`, `StableHLO_v1.15.0`); without a bound
/// a frame of the magic and endless non-zero bytes would decompress whole.
pub const MAX_PRODUCER_LEN: usize = 1 << 16;

/// Checks `prefix`, the first bytes of a bytecode file, as far as they go.
///
/// Returns the number of bytes the file needs at least: the end of the
/// last section whose framing is in `prefix` (or of the header). An error
/// is one that no continuation could repair (a wrong magic, a version we
/// do not know, an invalid or duplicate section id, a misaligned
/// alignment, or a producer longer than [`MAX_PRODUCER_LEN`]), positioned
/// as [`super::BytecodeReader::open`] would report it. A prefix that ends
/// mid-item is not an error: more bytes may complete it.
pub fn check_prefix(prefix: &[u8]) -> Result<u64> {
    let r = Reader::new(prefix, 0, "header");
    let n = prefix.len().min(MAGIC.len());
    if prefix[..n] != MAGIC[..n] {
        return r.err("input buffer is not an MLIR bytecode file");
    }
    let mut pos = MAGIC.len();
    let Some((version, len)) = prefix.get(pos..).and_then(read_varint) else {
        return Ok(pos as u64 + 1);
    };
    if version > VERSION_CURRENT {
        return r.err_at(
            pos,
            format!(
                "bytecode version {version} is newer than the current version {VERSION_CURRENT}"
            ),
        );
    }
    pos += len;
    let rest = &prefix[pos..];
    let searched = &rest[..rest.len().min(MAX_PRODUCER_LEN + 1)];
    match searched.iter().position(|&b| b == 0) {
        Some(nul) => pos += nul + 1,
        None if searched.len() > MAX_PRODUCER_LEN => {
            return r.err_at(
                pos,
                format!("the producer string does not end within {MAX_PRODUCER_LEN} bytes"),
            )
        }
        None => return Ok(prefix.len() as u64 + 1),
    }
    let mut seen = [false; SectionId::COUNT];
    loop {
        let at = pos;
        let Some(&byte) = prefix.get(pos) else {
            return Ok(pos as u64);
        };
        let raw_id = byte & 0x7f;
        let Some(id) = SectionId::from_u8(raw_id) else {
            return r.err_at(at, format!("invalid section ID: {raw_id}"));
        };
        if std::mem::replace(&mut seen[id as usize], true) {
            return r.err_at(
                at,
                format!("duplicate top-level section: {} ({})", id.name(), id as u8),
            );
        }
        pos += 1;
        let Some((len, n)) = prefix.get(pos..).and_then(read_varint) else {
            return Ok(pos as u64 + 1);
        };
        pos += n;
        if byte & 0x80 != 0 {
            let Some((alignment, n)) = prefix.get(pos..).and_then(read_varint) else {
                return Ok(pos as u64 + 1);
            };
            pos += n;
            if !alignment.is_power_of_two() {
                return r.err_at(
                    pos,
                    format!(
                        "expected alignment to be a power-of-two, but got {alignment} (failed to align section ID: {raw_id})"
                    ),
                );
            }
            // Padding up to the alignment, counted from the file's start.
            let padded = (pos as u64).checked_next_multiple_of(alignment);
            let Some(padded) = padded else {
                return r.err_at(pos, format!("cannot align to {alignment} bytes"));
            };
            let available = (prefix.len() as u64).min(padded) as usize;
            if let Some(bad) = prefix[pos..available]
                .iter()
                .position(|&b| b != ALIGNMENT_PADDING)
            {
                let b = prefix[pos + bad];
                return r.err_at(
                    pos + bad,
                    format!("expected alignment byte (0xCB), but got: '0x{b:02x}'"),
                );
            }
            if padded > prefix.len() as u64 {
                return Ok(padded.saturating_add(len));
            }
            pos = padded as usize;
        }
        let end = (pos as u64).saturating_add(len);
        if end > prefix.len() as u64 {
            return Ok(end);
        }
        pos = end as usize;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(version: u8) -> Vec<u8> {
        let mut v = MAGIC.to_vec();
        v.push(version << 1 | 1);
        v.extend_from_slice(b"MLIR22.1.8\0");
        v
    }

    #[test]
    fn every_prefix_of_a_real_header_is_fine() {
        let mut f = header(6);
        // String section of 3 bytes, then an aligned section (id 0x85 =
        // resource, alignment 8) of 2 bytes.
        f.extend_from_slice(&[0x00, 3 << 1 | 1, 1, 2, 3]);
        f.extend_from_slice(&[0x85, 2 << 1 | 1, 8 << 1 | 1]);
        while !f.len().is_multiple_of(8) {
            f.push(0xCB);
        }
        f.extend_from_slice(&[7, 7]);
        for n in 0..=f.len() {
            let need = check_prefix(&f[..n]).unwrap_or_else(|e| panic!("prefix {n}: {e}"));
            assert!(need as usize >= n.min(f.len()), "prefix {n} needs {need}");
        }
        assert_eq!(check_prefix(&f).unwrap(), f.len() as u64);
    }

    #[test]
    fn declared_lengths_are_reported_before_the_data() {
        let mut f = header(6);
        // A string section declaring 2^40 bytes (a 6-byte varint).
        let len: u64 = 1 << 40;
        let enc = (len << 6) | 0b100000;
        f.push(0x00);
        f.extend_from_slice(&enc.to_le_bytes()[..6]);
        assert_eq!(check_prefix(&f).unwrap(), f.len() as u64 + len);
    }

    #[test]
    fn the_magic_and_zeros_is_refused_within_its_first_bytes() {
        let mut f = MAGIC.to_vec();
        f.resize(64, 0);
        let e = check_prefix(&f).unwrap_err().to_string();
        assert!(e.contains("duplicate top-level section: String (0)"), "{e}");
    }

    #[test]
    fn wrong_magic_version_and_long_producer_are_refused() {
        assert!(check_prefix(b"ML\xEFX").is_err());
        assert!(check_prefix(b"ML").is_ok());
        let e = check_prefix(&header(7)).unwrap_err().to_string();
        assert!(e.contains("bytecode version 7 is newer"), "{e}");
        let mut f = MAGIC.to_vec();
        f.push(13);
        f.resize(MAX_PRODUCER_LEN + 16, b'x');
        let e = check_prefix(&f).unwrap_err().to_string();
        assert!(e.contains("producer string does not end"), "{e}");
        f.truncate(MAX_PRODUCER_LEN);
        assert!(check_prefix(&f).is_ok());
    }

    #[test]
    fn bad_section_ids_and_padding_are_refused() {
        let mut f = header(6);
        f.push(0x7f);
        assert!(check_prefix(&f)
            .unwrap_err()
            .to_string()
            .contains("invalid section ID"));
        let mut f = header(6);
        f.extend_from_slice(&[0x85, 1, 8 << 1 | 1, 0x00]);
        let e = check_prefix(&f).unwrap_err().to_string();
        assert!(e.contains("alignment byte"), "{e}");
    }
}
