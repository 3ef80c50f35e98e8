//! Byte-level encoders: a growable buffer with MLIR's primitive encodings
//! (SPEC.md §6.1), and the file encoder that frames finished sections with
//! their id, length and alignment (SPEC.md §6.2).

use rmlir_format::bytecode::varint::{write_signed_varint, write_varint};
use rmlir_format::bytecode::{SectionId, ALIGNMENT_PADDING, MAGIC};

/// A buffer of encoded bytes. `alignment` is the largest alignment some
/// data inside needs, relative to the start of the buffer; whoever embeds
/// the buffer must place it at a multiple of it.
#[derive(Debug, Default, Clone)]
pub struct Encoder {
    pub bytes: Vec<u8>,
    pub alignment: u64,
}

impl Encoder {
    pub fn new() -> Self {
        Encoder {
            bytes: Vec::new(),
            alignment: 1,
        }
    }

    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    pub fn byte(&mut self, b: u8) {
        self.bytes.push(b);
    }

    pub fn varint(&mut self, v: u64) {
        write_varint(&mut self.bytes, v);
    }

    /// `(value << 1) | flag`.
    pub fn varint_flag(&mut self, v: u64, flag: bool) {
        write_varint(&mut self.bytes, (v << 1) | flag as u64);
    }

    pub fn signed_varint(&mut self, v: i64) {
        write_signed_varint(&mut self.bytes, v);
    }

    pub fn raw(&mut self, data: &[u8]) {
        self.bytes.extend_from_slice(data);
    }

    /// A plain blob: its length, then the bytes.
    pub fn blob(&mut self, data: &[u8]) {
        self.varint(data.len() as u64);
        self.raw(data);
    }

    /// NUL-terminated bytes (the producer, textual attribute/type entries).
    pub fn cstr(&mut self, s: &[u8]) {
        self.raw(s);
        self.byte(0);
    }

    /// Pads with `0xCB` up to a multiple of `alignment` (from the start of
    /// this buffer) and records the requirement.
    pub fn align_to(&mut self, alignment: u64) {
        if alignment < 2 {
            return;
        }
        while !(self.bytes.len() as u64).is_multiple_of(alignment) {
            self.bytes.push(ALIGNMENT_PADDING);
        }
        self.alignment = self.alignment.max(alignment);
    }

    /// An aligned blob (resource entries): alignment, length, padding, data.
    pub fn aligned_blob(&mut self, data: &[u8], alignment: u64) {
        self.varint(alignment);
        self.varint(data.len() as u64);
        self.align_to(alignment);
        self.raw(data);
    }

    /// Appends a finished section: id, length, then (when its data needs
    /// an alignment this offset does not have) the alignment flag, the
    /// alignment and padding, then the data.
    pub fn section(&mut self, id: SectionId, body: Encoder) {
        let id_at = self.bytes.len();
        self.byte(id as u8);
        self.varint(body.bytes.len() as u64);
        if body.alignment > 1 {
            if !(self.bytes.len() as u64).is_multiple_of(body.alignment) {
                self.varint(body.alignment);
                self.align_to(body.alignment);
                self.bytes[id_at] |= 0x80;
            } else {
                self.alignment = self.alignment.max(body.alignment);
            }
        }
        self.bytes.extend_from_slice(&body.bytes);
    }
}

/// The file header: magic, version, producer.
pub fn header(version: u64, producer: &str) -> Encoder {
    let mut e = Encoder::new();
    e.raw(&MAGIC);
    e.varint(version);
    e.cstr(producer.as_bytes());
    e
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn section_alignment_only_when_needed() {
        let mut f = Encoder::new();
        f.raw(&[0; 3]);
        let mut body = Encoder::new();
        body.aligned_blob(&[1, 2], 8);
        // Blob: 08 -> 0x11, 2 -> 0x05, 6 pad bytes, data.
        assert_eq!(
            body.bytes,
            [0x11, 0x05, 0xcb, 0xcb, 0xcb, 0xcb, 0xcb, 0xcb, 1, 2]
        );
        f.section(SectionId::Resource, body.clone());
        // id|0x80, len 10, align 8, pad to 8; the data starts at offset 8.
        assert_eq!(&f.bytes[3..8], &[0x85, 0x15, 0x11, 0xcb, 0xcb]);
        assert_eq!(&f.bytes[8..], &body.bytes[..]);
        let mut g = Encoder::new();
        g.raw(&[0; 6]);
        g.section(SectionId::Resource, body);
        assert_eq!(&g.bytes[6..9], &[0x05, 0x15, 0x11]);
        assert_eq!(g.alignment, 8);
    }
}
