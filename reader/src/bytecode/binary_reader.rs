//! A cursor over bytecode bytes that remembers absolute file offsets, so
//! every error names its section and byte offset (SPEC.md §5). Reads borrow
//! from the input; nothing is copied.

use crate::error::{Error, ErrorKind, Position, Result};
use rmlir_format::bytecode::varint;

#[derive(Clone, Debug)]
pub struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
    /// Absolute file offset of `data[0]`.
    base: usize,
    section: &'static str,
    /// The largest count [`Reader::check_count`] accepts (`Limits::max_count`).
    max_count: usize,
}

impl<'a> Reader<'a> {
    pub fn new(data: &'a [u8], base: usize, section: &'static str) -> Self {
        Reader {
            data,
            pos: 0,
            base,
            section,
            max_count: usize::MAX,
        }
    }

    /// This reader with counts capped at `max_count` (readers made from it
    /// by [`Reader::sub_reader`] inherit the cap).
    pub fn limited(mut self, max_count: usize) -> Self {
        self.max_count = max_count;
        self
    }

    /// All the bytes this reader reads, from its start.
    pub fn all_bytes(&self) -> &'a [u8] {
        self.data
    }

    /// Position of the next byte within [`Reader::all_bytes`].
    pub fn position(&self) -> usize {
        self.pos
    }

    /// This reader moved to `pos`, a position within
    /// [`Reader::all_bytes`] (one it has been at).
    pub fn at_position(&self, pos: usize) -> Self {
        Reader {
            pos: pos.min(self.data.len()),
            ..self.clone()
        }
    }

    /// Absolute offset of the next byte.
    pub fn offset(&self) -> usize {
        self.base + self.pos
    }

    pub fn remaining(&self) -> usize {
        self.data.len() - self.pos
    }

    pub fn is_empty(&self) -> bool {
        self.pos >= self.data.len()
    }

    #[cold]
    pub fn error_at(&self, offset: usize, kind: ErrorKind, msg: impl Into<String>) -> Error {
        Error::new(
            kind,
            msg,
            Position::Bytecode {
                section: self.section,
                offset: offset as u64,
            },
        )
    }

    #[cold]
    pub fn err<T>(&self, msg: impl Into<String>) -> Result<T> {
        Err(self.error_at(self.offset(), ErrorKind::Syntax, msg))
    }

    #[cold]
    pub fn err_at<T>(&self, offset: usize, msg: impl Into<String>) -> Result<T> {
        Err(self.error_at(offset, ErrorKind::Syntax, msg))
    }

    pub fn read_u8(&mut self) -> Result<u8> {
        match self.data.get(self.pos) {
            Some(&b) => {
                self.pos += 1;
                Ok(b)
            }
            None => self.err("attempting to parse a byte at the end of the bytecode"),
        }
    }

    pub fn read_varint(&mut self) -> Result<u64> {
        match varint::read_varint(&self.data[self.pos..]) {
            Some((v, n)) => {
                self.pos += n;
                Ok(v)
            }
            None if self.is_empty() => {
                self.err("attempting to parse a byte at the end of the bytecode")
            }
            None => self.err("attempting to parse a varint that runs past the end of the bytecode"),
        }
    }

    /// A varint, or `None` where [`Reader::read_varint`] would fail, with
    /// no error built: for quick paths that fall back to a full read.
    #[inline]
    pub fn try_varint(&mut self) -> Option<u64> {
        let (v, n) = varint::read_varint(self.data.get(self.pos..)?)?;
        self.pos += n;
        Some(v)
    }

    /// `(value >> 1, value & 1 != 0)`.
    pub fn read_varint_flag(&mut self) -> Result<(u64, bool)> {
        let v = self.read_varint()?;
        Ok((v >> 1, v & 1 != 0))
    }

    pub fn read_signed_varint(&mut self) -> Result<i64> {
        Ok(varint::unzigzag(self.read_varint()?))
    }

    pub fn read_bytes(&mut self, n: u64) -> Result<&'a [u8]> {
        if n > self.remaining() as u64 {
            return self.err(format!(
                "attempting to parse {n} bytes when only {} remain",
                self.remaining()
            ));
        }
        let n = n as usize;
        let s = &self.data[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    pub fn skip(&mut self, n: u64) -> Result<()> {
        if n > self.remaining() as u64 {
            return self.err(format!(
                "attempting to skip {n} bytes when only {} remain",
                self.remaining()
            ));
        }
        self.pos += n as usize;
        Ok(())
    }

    /// A NUL-terminated string (without the NUL).
    pub fn read_cstr(&mut self) -> Result<&'a [u8]> {
        let rest = &self.data[self.pos..];
        match rest.iter().position(|&b| b == 0) {
            Some(n) => {
                self.pos += n + 1;
                Ok(&rest[..n])
            }
            None => self.err("malformed null-terminated string, no null character found"),
        }
    }

    /// A varint length followed by that many bytes.
    pub fn read_blob(&mut self) -> Result<&'a [u8]> {
        let n = self.read_varint()?;
        self.read_bytes(n)
    }

    /// A count of items that each take at least `min_item_bytes` bytes,
    /// checked against the bytes that remain before anything is allocated.
    pub fn read_count(&mut self, min_item_bytes: usize, what: &str) -> Result<usize> {
        let at = self.offset();
        let n = self.read_varint()?;
        self.check_count(n, min_item_bytes, what, at)
    }

    /// Checks `n` against `Limits::max_count` only.
    pub fn check_max_count(&self, n: u64, what: &str, at: usize) -> Result<()> {
        if n > self.max_count as u64 {
            return Err(self.error_at(
                at,
                ErrorKind::Limit,
                format!("{what} count {n} exceeds the limit of {}", self.max_count),
            ));
        }
        Ok(())
    }

    pub fn check_count(
        &self,
        n: u64,
        min_item_bytes: usize,
        what: &str,
        at: usize,
    ) -> Result<usize> {
        self.check_max_count(n, what, at)?;
        let max = (self.remaining() / min_item_bytes.max(1)) as u64;
        if n > max {
            return self.err_at(
                at,
                format!(
                    "{what} count {n} exceeds what the remaining {} bytes can hold",
                    self.remaining()
                ),
            );
        }
        Ok(n as usize)
    }

    /// Skips `0xCB` padding until the absolute offset is a multiple of
    /// `alignment` (a power of two).
    pub fn align_to(&mut self, alignment: u64) -> Result<()> {
        if !alignment.is_power_of_two() {
            return self.err(format!(
                "expected alignment to be a power-of-two, but got {alignment}"
            ));
        }
        while !(self.offset() as u64).is_multiple_of(alignment) {
            let at = self.offset();
            let b = self.read_u8()?;
            if b != rmlir_format::bytecode::ALIGNMENT_PADDING {
                return self.err_at(
                    at,
                    format!("expected alignment byte (0xCB), but got: '0x{b:02x}'"),
                );
            }
        }
        Ok(())
    }

    /// A reader over the next `n` bytes, for a nested section or entry.
    pub fn sub_reader(&mut self, n: u64, section: &'static str) -> Result<Reader<'a>> {
        let base = self.offset();
        let data = self.read_bytes(n)?;
        Ok(Reader::new(data, base, section).limited(self.max_count))
    }
}
