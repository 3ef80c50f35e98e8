//! Byte-level encoders: a growable buffer with MLIR's primitive encodings
//! (SPEC.md §6.1), and the file encoder that frames finished sections with
//! their id, length and alignment (SPEC.md §6.2).

use rmlir_format::bytecode::varint::{write_signed_varint, write_varint};
use rmlir_format::bytecode::{SectionId, ALIGNMENT_PADDING, MAGIC};
use rmlir_format::{BlobData, SharedBytes};
use std::io::{self, Write};
use std::sync::Arc;

/// Blobs at least this large are spliced into the output by reference
/// instead of copied (SPEC.md §6.10): a resource blob read from a memory
/// map is written straight from the map to the output file.
const SPLICE_MIN: usize = 4096;

/// Section bodies at least this large are spliced into the enclosing
/// encoder rather than copied: the module body's section and the file's
/// sections are megabytes each in a large module, and copying them held
/// each one twice at the peak of writing.
const SPLICE_SECTION_MIN: usize = 64 << 10;

/// A buffer of encoded bytes. `alignment` is the largest alignment some
/// data inside needs, relative to the start of the buffer; whoever embeds
/// the buffer must place it at a multiple of it.
///
/// Large resource blobs are not copied into `bytes`: they are kept as
/// shared [`BlobData`] handles in `spliced`, each with the position in
/// `bytes` before which it goes. Positions, lengths and alignment are of
/// the logical byte sequence (owned bytes with the blobs in place).
#[derive(Debug, Default, Clone)]
pub struct Encoder {
    /// The owned bytes; spliced pieces (blobs, large section bodies) go
    /// between them.
    pub bytes: Vec<u8>,
    pub alignment: u64,
    spliced: Vec<(usize, BlobData)>,
    spliced_len: usize,
}

impl Encoder {
    pub fn new() -> Self {
        Encoder {
            bytes: Vec::new(),
            alignment: 1,
            spliced: Vec::new(),
            spliced_len: 0,
        }
    }

    /// An empty encoder that writes into `buf`'s allocation.
    pub fn reusing(mut buf: Vec<u8>) -> Self {
        buf.clear();
        Encoder {
            bytes: buf,
            ..Encoder::new()
        }
    }

    /// The logical length: owned bytes plus spliced blobs.
    pub fn len(&self) -> usize {
        self.bytes.len() + self.spliced_len
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
        while !(self.len() as u64).is_multiple_of(alignment) {
            self.bytes.push(ALIGNMENT_PADDING);
        }
        self.alignment = self.alignment.max(alignment);
    }

    /// An aligned blob (resource entries): alignment, length, padding, data.
    /// A large blob is spliced in by reference, not copied.
    pub fn aligned_blob(&mut self, data: &BlobData, alignment: u64) {
        self.varint(alignment);
        self.varint(data.len() as u64);
        self.align_to(alignment);
        if data.len() >= SPLICE_MIN {
            self.spliced.push((self.bytes.len(), data.clone()));
            self.spliced_len += data.len();
        } else {
            self.raw(data);
        }
    }

    /// Appends a finished section: id, length, then (when its data needs
    /// an alignment this offset does not have) the alignment flag, the
    /// alignment and padding, then the data.
    pub fn section(&mut self, id: SectionId, body: Encoder) {
        let id_at = self.bytes.len();
        self.byte(id as u8);
        self.varint(body.len() as u64);
        if body.alignment > 1 {
            if !(self.len() as u64).is_multiple_of(body.alignment) {
                self.varint(body.alignment);
                self.align_to(body.alignment);
                self.bytes[id_at] |= 0x80;
            } else {
                self.alignment = self.alignment.max(body.alignment);
            }
        }
        let shift = self.bytes.len();
        if body.bytes.len() < SPLICE_SECTION_MIN {
            self.bytes.extend_from_slice(&body.bytes);
            self.spliced_len += body.spliced_len;
            self.spliced
                .extend(body.spliced.into_iter().map(|(at, b)| (at + shift, b)));
            return;
        }
        // A large body is not copied: its owned runs and its blobs go in
        // as spliced pieces, in order, all before the same position.
        let total = body.bytes.len();
        self.spliced_len += total + body.spliced_len;
        let owner: SharedBytes = Arc::new(body.bytes);
        let mut from = 0;
        for (at, blob) in body.spliced {
            if at > from {
                self.spliced
                    .push((shift, BlobData::shared(owner.clone(), from..at)));
            }
            self.spliced.push((shift, blob));
            from = at;
        }
        if total > from {
            self.spliced
                .push((shift, BlobData::shared(owner, from..total)));
        }
    }

    /// Writes the logical bytes to `w`: owned runs and spliced blobs in
    /// order, without assembling them in memory.
    pub fn write_to(&self, w: &mut dyn Write) -> io::Result<()> {
        let mut from = 0;
        for (at, blob) in &self.spliced {
            w.write_all(&self.bytes[from..*at])?;
            w.write_all(blob)?;
            from = *at;
        }
        w.write_all(&self.bytes[from..])
    }

    /// The logical bytes as one buffer.
    pub fn into_vec(self) -> Vec<u8> {
        if self.spliced.is_empty() {
            return self.bytes;
        }
        let mut out = Vec::with_capacity(self.len());
        self.write_to(&mut out)
            .expect("writing to a Vec cannot fail");
        out
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
        body.aligned_blob(&BlobData::from(vec![1u8, 2]), 8);
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

    /// A large blob is spliced in, not copied; the logical bytes (and
    /// every length and padding computed from them) are those of a copy.
    #[test]
    fn large_blobs_are_spliced_with_the_same_bytes() {
        let big = BlobData::from((0..10_000u32).map(|i| i as u8).collect::<Vec<_>>());
        let mut spliced = Encoder::new();
        spliced.byte(7);
        spliced.aligned_blob(&big, 16);
        spliced.byte(9);
        let mut copied = Encoder::new();
        copied.byte(7);
        copied.varint(16);
        copied.varint(big.len() as u64);
        copied.align_to(16);
        copied.raw(&big);
        copied.byte(9);
        assert!(spliced.bytes.len() < 100, "the blob was copied");
        assert_eq!(spliced.len(), copied.len());
        let mut f = Encoder::new();
        f.raw(&[1, 2, 3]);
        f.section(SectionId::Resource, spliced);
        let mut g = Encoder::new();
        g.raw(&[1, 2, 3]);
        g.section(SectionId::Resource, copied);
        assert_eq!(f.len(), g.len());
        let mut streamed = Vec::new();
        f.write_to(&mut streamed).unwrap();
        assert_eq!(streamed, g.bytes);
        assert_eq!(f.into_vec(), g.bytes);
    }

    /// A section body over `SPLICE_SECTION_MIN` is spliced, not copied,
    /// and so is its own spliced blob; nested twice (a module body's
    /// section inside the IR section inside the file), the bytes are those
    /// the framing rule gives (SPEC.md §6.3, computed here on plain
    /// vectors), and only small framing bytes are owned.
    #[test]
    fn large_section_bodies_are_spliced_with_the_same_bytes() {
        let big = BlobData::from((0..9_000u32).map(|i| (i * 7) as u8).collect::<Vec<_>>());
        let mut body = Encoder::new();
        for i in 0..70_000u32 {
            body.varint(u64::from(i % 300));
        }
        body.aligned_blob(&big, 8);
        body.byte(0x5a);
        assert!(body.bytes.len() > SPLICE_SECTION_MIN);
        let plain_body = body.clone().into_vec();

        let mut ir = Encoder::new();
        ir.varint_flag(1, false);
        ir.section(SectionId::Ir, body);
        let mut file = Encoder::new();
        file.raw(b"ML\xefR");
        file.section(SectionId::Ir, ir);
        file.byte(1);

        // id, length, then (when the offset is not aligned) the flag bit,
        // the alignment and 0xCB padding; then the body.
        fn frame(out: &mut Vec<u8>, id: SectionId, body: &[u8], alignment: u64) {
            let id_at = out.len();
            out.push(id as u8);
            write_varint(out, body.len() as u64);
            if !(out.len() as u64).is_multiple_of(alignment) {
                out[id_at] |= 0x80;
                write_varint(out, alignment);
                while !(out.len() as u64).is_multiple_of(alignment) {
                    out.push(ALIGNMENT_PADDING);
                }
            }
            out.extend_from_slice(body);
        }
        let mut ir_ref = Vec::new();
        write_varint(&mut ir_ref, 2);
        frame(&mut ir_ref, SectionId::Ir, &plain_body, 8);
        let mut want = b"ML\xefR".to_vec();
        frame(&mut want, SectionId::Ir, &ir_ref, 8);
        want.push(1);

        assert!(
            file.bytes.len() < 64,
            "{} owned bytes: a section body was copied",
            file.bytes.len()
        );
        assert_eq!(file.len(), want.len());
        let mut streamed = Vec::new();
        file.write_to(&mut streamed).unwrap();
        assert!(
            streamed == want,
            "the spliced bytes differ from the framing rule's"
        );
        assert!(file.into_vec() == want);
    }
}
