//! The file header and the top-level section framing (SPEC.md §6.2–6.3).

use super::binary_reader::Reader;
use crate::error::Result;
use rmlir_format::bytecode::{SectionId, MAGIC, VERSION_CURRENT, VERSION_NATIVE_PROPERTIES};

/// One section's data, with its absolute offset.
#[derive(Clone, Copy, Debug)]
pub struct Section<'a> {
    pub id: SectionId,
    pub data: &'a [u8],
    pub offset: usize,
    /// The alignment the header declared (1 when none).
    pub alignment: u64,
}

impl<'a> Section<'a> {
    pub fn reader(&self) -> Reader<'a> {
        Reader::new(self.data, self.offset, self.id.name())
    }
}

pub struct Header<'a> {
    pub version: u64,
    pub producer: &'a [u8],
    pub sections: [Option<Section<'a>>; SectionId::COUNT],
}

/// Reads a section header and its data: `id|alignFlag, length, [alignment, 0xCB*], data`.
pub fn read_section<'a>(r: &mut Reader<'a>) -> Result<Section<'a>> {
    let at = r.offset();
    let byte = r.read_u8()?;
    let raw_id = byte & 0x7f;
    let Some(id) = SectionId::from_u8(raw_id) else {
        return r.err_at(at, format!("invalid section ID: {raw_id}"));
    };
    let len = r.read_varint()?;
    let mut alignment = 1;
    if byte & 0x80 != 0 {
        alignment = r.read_varint()?;
        if !alignment.is_power_of_two() {
            return r.err(format!(
                "expected alignment to be a power-of-two, but got {alignment} (failed to align section ID: {raw_id})"
            ));
        }
        r.align_to(alignment)?;
    }
    let offset = r.offset();
    let data = r.read_bytes(len)?;
    Ok(Section {
        id,
        data,
        offset,
        alignment,
    })
}

pub fn read_header(data: &[u8]) -> Result<Header<'_>> {
    let mut r = Reader::new(data, 0, "header");
    if !data.starts_with(&MAGIC) {
        return r.err("input buffer is not an MLIR bytecode file");
    }
    r.skip(4)?;
    let version = r.read_varint()?;
    if version > VERSION_CURRENT {
        return r.err_at(
            4,
            format!(
                "bytecode version {version} is newer than the current version {VERSION_CURRENT}"
            ),
        );
    }
    let producer = r.read_cstr()?;
    let mut sections: [Option<Section>; SectionId::COUNT] = Default::default();
    while !r.is_empty() {
        let at = r.offset();
        let s = read_section(&mut r)?;
        let slot = &mut sections[s.id as usize];
        if slot.is_some() {
            return r.err_at(
                at,
                format!(
                    "duplicate top-level section: {} ({})",
                    s.id.name(),
                    s.id as u8
                ),
            );
        }
        *slot = Some(s);
    }
    let mut required = vec![
        SectionId::String,
        SectionId::Dialect,
        SectionId::AttrType,
        SectionId::AttrTypeOffset,
        SectionId::Ir,
    ];
    if version >= VERSION_NATIVE_PROPERTIES {
        required.push(SectionId::Properties);
    }
    required.sort();
    for id in required {
        if sections[id as usize].is_none() {
            return r.err(format!(
                "missing data for top-level section: {} ({})",
                id.name(),
                id as u8
            ));
        }
    }
    match (
        sections[SectionId::Resource as usize].is_some(),
        sections[SectionId::ResourceOffset as usize].is_some(),
    ) {
        (true, false) => {
            return r.err("expected resource offset section when resource section is present")
        }
        (false, true) => {
            return r.err("unexpected resource offset section when resource section is not present")
        }
        _ => {}
    }
    Ok(Header {
        version,
        producer,
        sections,
    })
}
