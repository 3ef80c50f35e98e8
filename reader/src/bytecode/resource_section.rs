//! Resources (SPEC.md §6.8): the offset section names groups and entries
//! (key, size, kind); the resource section holds the payloads back to back.

use super::binary_reader::Reader;
use super::dialect_section::{string_at, Dialects};
use crate::error::Result;
use rmlir_format::bytecode::resource_kind;
use rmlir_format::{BlobData, ResourceGroup, ResourceValue, Resources, SharedBytes};

/// Reads both sections into `out`; returns the key of every dialect
/// resource handle, by handle number.
pub fn read_resources<'a>(
    mut offsets: Reader<'a>,
    mut data: Reader<'a>,
    strings: &[&'a [u8]],
    dialects: &Dialects<'a>,
    owner: Option<&SharedBytes>,
    out: &mut Resources,
) -> Result<Vec<Vec<u8>>> {
    let mut handles = Vec::new();
    let num_external = offsets.read_count(1, "external resource group")?;
    for _ in 0..num_external {
        let at = offsets.offset();
        let idx = offsets.read_varint()?;
        let name = string_at(&offsets, strings, idx, at)?;
        let group = read_group(
            &mut offsets,
            &mut data,
            strings,
            name,
            false,
            owner,
            &mut handles,
        )?;
        out.external.push(group);
    }
    while !offsets.is_empty() {
        let at = offsets.offset();
        let d = offsets.read_varint()?;
        let Some(dialect) = dialects.dialects.get(d as usize) else {
            return offsets.err_at(at, format!("invalid dialect index: {d}"));
        };
        let group = read_group(
            &mut offsets,
            &mut data,
            strings,
            dialect.name,
            true,
            owner,
            &mut handles,
        )?;
        out.dialect.push(group);
    }
    if !data.is_empty() {
        return data.err("unexpected trailing data in the resource section");
    }
    Ok(handles)
}

fn read_group<'a>(
    offsets: &mut Reader<'a>,
    data: &mut Reader<'a>,
    strings: &[&'a [u8]],
    name: &[u8],
    is_dialect: bool,
    owner: Option<&SharedBytes>,
    handles: &mut Vec<Vec<u8>>,
) -> Result<ResourceGroup> {
    let n = offsets.read_count(3, "resource entry")?;
    let mut entries = Vec::with_capacity(n);
    for _ in 0..n {
        let at = offsets.offset();
        let idx = offsets.read_varint()?;
        let key = string_at(offsets, strings, idx, at)?;
        let size = offsets.read_varint()?;
        let kind_at = offsets.offset();
        let kind = offsets.read_u8()?;
        if is_dialect {
            handles.push(key.to_vec());
        }
        let mut e = data.sub_reader(size, "Resource")?;
        if size == 0 && is_dialect {
            // A declaration: the key is referenced but carries no data.
            continue;
        }
        let value = match kind {
            resource_kind::BLOB => {
                let alignment = e.read_varint()?;
                let len = e.read_varint()?;
                e.align_to(alignment)?;
                let start = e.offset();
                let bytes = e.read_bytes(len)?;
                let alignment = u32::try_from(alignment)
                    .or_else(|_| e.err_at(at, "resource alignment too large"))?;
                ResourceValue::Blob {
                    alignment,
                    // Borrowed from the shared input (no copy) when there is
                    // one and its address satisfies the blob's alignment, as
                    // a memory map does; copied otherwise.
                    data: match owner {
                        Some(o)
                            if (bytes.as_ptr() as usize)
                                .is_multiple_of(alignment.max(1) as usize) =>
                        {
                            BlobData::shared(o.clone(), start..start + bytes.len())
                        }
                        _ => bytes.to_vec().into(),
                    },
                }
            }
            resource_kind::BOOL => ResourceValue::Bool(e.read_u8()? != 0),
            resource_kind::STRING => {
                let at = e.offset();
                let idx = e.read_varint()?;
                ResourceValue::String(string_at(&e, strings, idx, at)?.into())
            }
            other => {
                return offsets.err_at(kind_at, format!("unknown resource entry kind: {other}"))
            }
        };
        if !e.is_empty() {
            return e.err(format!(
                "unexpected trailing bytes in resource entry '{}'",
                String::from_utf8_lossy(key)
            ));
        }
        entries.push((key.into(), value));
    }
    Ok(ResourceGroup {
        name: name.into(),
        entries,
    })
}
