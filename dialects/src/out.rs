//! The fields of one custom entry, gathered before any is written: a hook
//! that finds a body it cannot encode half-way must write nothing
//! (`BytecodeDialect::write_attribute`'s contract), so fields are written
//! only once the whole body has been read.

use rmlir_format::dialect_encodings::Field;
use rmlir_format::dialect_hooks::DialectWriter;
use rmlir_format::{AttrId, TypeId};

/// Fields in write order.
#[derive(Default)]
pub struct Out(Vec<Field>);

impl Out {
    pub fn u(&mut self, v: u64) -> &mut Self {
        self.0.push(Field::U(v));
        self
    }
    pub fn s(&mut self, v: i64) -> &mut Self {
        self.0.push(Field::S(v));
        self
    }
    pub fn byte(&mut self, v: u8) -> &mut Self {
        self.0.push(Field::Byte(v));
        self
    }
    pub fn str(&mut self, v: Vec<u8>) -> &mut Self {
        self.0.push(Field::Str(v));
        self
    }
    pub fn attr(&mut self, a: AttrId) -> &mut Self {
        self.0.push(Field::Attr(a));
        self
    }
    pub fn opt_attr(&mut self, a: Option<AttrId>) -> &mut Self {
        self.0.push(Field::OptAttr(a));
        self
    }
    pub fn ty(&mut self, t: TypeId) -> &mut Self {
        self.0.push(Field::Type(t));
        self
    }
    pub fn blob(&mut self, b: Vec<u8>) -> &mut Self {
        self.0.push(Field::Blob(b));
        self
    }
    /// `writeSignedVarInts`: a count, then the values.
    pub fn signed_list(&mut self, v: &[i64]) -> &mut Self {
        self.u(v.len() as u64);
        for &x in v {
            self.s(x);
        }
        self
    }
    /// `writeTypes`: a count, then the types.
    pub fn types(&mut self, v: &[TypeId]) -> &mut Self {
        self.u(v.len() as u64);
        for &t in v {
            self.ty(t);
        }
        self
    }
    /// MLIR's `writeAPIntWithKnownWidth` for widths up to 64 (the value's
    /// low `width` bits): one byte up to 8 bits, else a signed varint of
    /// the zero-extended bits (the read side is `vhlo::attrs::read_apint`).
    pub fn apint(&mut self, width: u32, bits: u64) -> &mut Self {
        let bits = if width >= 64 {
            bits
        } else {
            bits & ((1u64 << width) - 1)
        };
        if width <= 8 {
            self.byte(bits as u8)
        } else {
            self.s(bits as i64)
        }
    }

    /// Writes the fields; `true`, for a hook to return.
    pub fn flush(self, w: &mut dyn DialectWriter) -> bool {
        for f in self.0 {
            match f {
                Field::U(v) => w.write_varint(v),
                Field::S(v) => w.write_signed_varint(v),
                Field::Byte(b) => w.write_byte(b),
                Field::Str(s) => w.write_string(&s),
                Field::Attr(a) => w.write_attribute(a),
                Field::OptAttr(a) => w.write_optional_attribute(a),
                Field::Type(t) => w.write_type(t),
                Field::Blob(b) => w.write_blob(&b),
                // `Out` makes none of the others.
                _ => unreachable!("a field kind Out does not make"),
            }
        }
        true
    }
}
