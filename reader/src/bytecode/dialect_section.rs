//! The dialect section (SPEC.md §6.5): dialect names with optional version
//! payloads, then op names grouped by dialect.

use super::binary_reader::Reader;
use super::sections::read_section;
use crate::error::Result;
use rmlir_format::bytecode::{
    SectionId, VERSION_DIALECT_VERSIONING, VERSION_ELIDE_UNKNOWN_BLOCK_ARG_LOC,
    VERSION_NATIVE_PROPERTIES,
};

#[derive(Clone)]
pub struct DialectEntry<'a> {
    pub name: &'a [u8],
    /// The dialect's version payload, kept as bytes (SPEC.md §6.5).
    pub version: Option<&'a [u8]>,
    /// Where the payload starts in the file.
    pub version_offset: usize,
}

#[derive(Clone)]
pub struct OpNameEntry {
    /// The full name, `dialect.suffix` (shared: every op read clones it).
    pub name: std::sync::Arc<[u8]>,
    /// `wasRegistered` (v5+); `None` before v5.
    pub registered: Option<bool>,
}

#[derive(Clone)]
pub struct Dialects<'a> {
    pub dialects: Vec<DialectEntry<'a>>,
    pub op_names: Vec<OpNameEntry>,
}

pub fn string_at<'a>(
    r: &Reader<'a>,
    strings: &[&'a [u8]],
    idx: u64,
    at: usize,
) -> Result<&'a [u8]> {
    match strings.get(idx as usize) {
        Some(s) => Ok(s),
        None => r.err_at(at, format!("invalid string index: {idx}")),
    }
}

pub fn read_dialects<'a>(
    mut r: Reader<'a>,
    version: u64,
    strings: &[&'a [u8]],
) -> Result<Dialects<'a>> {
    let n = r.read_count(1, "dialect")?;
    let mut dialects = Vec::with_capacity(n);
    for _ in 0..n {
        let at = r.offset();
        let (idx, has_version) = if version >= VERSION_DIALECT_VERSIONING {
            r.read_varint_flag()?
        } else {
            (r.read_varint()?, false)
        };
        let name = string_at(&r, strings, idx, at)?;
        let mut dv = None;
        let mut version_offset = 0;
        if has_version {
            let at = r.offset();
            let s = read_section(&mut r)?;
            if s.id != SectionId::DialectVersions {
                return r.err_at(at, "expected dialect version section");
            }
            version_offset = s.offset;
            dv = Some(s.data);
        }
        dialects.push(DialectEntry {
            name,
            version: dv,
            version_offset,
        });
    }
    if version >= VERSION_ELIDE_UNKNOWN_BLOCK_ARG_LOC {
        // A capacity hint only; upstream does not check it either.
        r.read_varint()?;
    }
    let mut op_names = Vec::new();
    while !r.is_empty() {
        let at = r.offset();
        let d = r.read_varint()?;
        let Some(dialect) = dialects.get(d as usize) else {
            return r.err_at(at, format!("invalid dialect index: {d}"));
        };
        let count = r.read_count(1, "operation name")?;
        for _ in 0..count {
            let at = r.offset();
            let (idx, registered) = if version >= VERSION_NATIVE_PROPERTIES {
                let (i, f) = r.read_varint_flag()?;
                (i, Some(f))
            } else {
                (r.read_varint()?, None)
            };
            let suffix = string_at(&r, strings, idx, at)?;
            let mut name = dialect.name.to_vec();
            if !suffix.is_empty() {
                name.push(b'.');
                name.extend_from_slice(suffix);
            }
            op_names.push(OpNameEntry {
                name: name.into(),
                registered,
            });
        }
    }
    Ok(Dialects { dialects, op_names })
}
