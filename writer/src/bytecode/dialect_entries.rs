//! Custom attribute/type entries of non-builtin dialects (SPEC.md §6.6.5,
//! §9): the fields a dialect's hook gives, written in order.
//!
//! MLIR writes an llvm attribute or quant type in binary exactly when its
//! dialect's generated `writeAttribute`/`writeType` has a case for its C++
//! class; every other one is a textual entry. Our IR keeps such values as
//! the text mlir-opt prints (a [`DialectBody`]), so the dialect's hook
//! (`rmlir-dialects`) reads the fields back out of that text, by the same
//! generated tables the reader decodes with. A body that does not parse as
//! its kind (which mlir-opt would not have printed) stays a textual entry.
//!
//! Values the text holds inline but the encoding refers to as attributes or
//! types (a `StringAttr` name, a `BoolAttr`, `4 : i64`, a stripped nested
//! attribute spliced into its parent, the `f32` of a quant type) are
//! synthesized in the writer's [`AttrSpace`], uniqued with the module's own.

use super::entries::Sink;
use super::interner::{AttrRef, AttrSpace};
pub use rmlir_format::dialect_encodings::Field;
use rmlir_format::dialect_hooks::BytecodeDialect;
use rmlir_format::*;

/// A custom entry: its kind code and fields in write order.
#[derive(Clone, Debug)]
pub struct Custom {
    /// The kind code; `None` for an entry a dialect hook wrote whole.
    pub code: Option<u64>,
    pub fields: Vec<Field>,
}

/// Writes a custom entry (the numbering pass visits its references in
/// field order, as MLIR's numbering writer does).
pub fn write<S: Sink>(s: &mut S, c: &Custom) {
    if let Some(code) = c.code {
        s.varint(code);
    }
    for f in &c.fields {
        match f {
            Field::U(v) => s.varint(*v),
            Field::S(v) => s.signed_varint(*v),
            Field::Bool(b) => s.byte(u8::from(*b)),
            Field::Byte(b) => s.byte(*b),
            Field::Str(b) => s.string(b),
            Field::Attr(a) => s.attr(AttrRef::Id(*a)),
            Field::OptAttr(a) => s.opt_attr(a.map(AttrRef::Id)),
            Field::Type(t) => s.ty(*t),
            Field::OptU(None) => s.varint(0),
            Field::OptU(Some(v)) => s.varint((v << 1) | 1),
            Field::OptAttrs(list) => {
                s.byte(u8::from(!list.is_empty()));
                if !list.is_empty() {
                    s.varint(list.len() as u64);
                    for a in list {
                        s.opt_attr(a.map(AttrRef::Id));
                    }
                }
            }
            Field::OptInts(list) => {
                s.byte(u8::from(!list.is_empty()));
                if !list.is_empty() {
                    s.varint(list.len() as u64);
                    for v in list {
                        s.varint(*v);
                    }
                }
            }
            // `writeAPFloatWithKnownSemantics` of a double: a 64-bit APInt,
            // i.e. a signed varint of the bits.
            Field::F64(b) => s.signed_varint(*b as i64),
            Field::F64s(list) => {
                s.varint(list.len() as u64);
                for b in list {
                    s.signed_varint(*b as i64);
                }
            }
            Field::Ss(list) => {
                s.varint(list.len() as u64);
                for v in list {
                    s.signed_varint(*v);
                }
            }
            Field::Blob(b) => s.blob(b),
        }
    }
}

/// The custom encoding of attribute `d` of a dialect whose `hook`
/// declares its encodings as data, or `None` for a textual entry.
pub fn encode_declared_attr(
    hook: &dyn BytecodeDialect,
    space: &mut AttrSpace<'_>,
    d: &AttrData,
    mlir_major: u32,
) -> Option<Custom> {
    let AttrData::Dialect { body, ty: None } = d else {
        return None;
    };
    let (code, fields) = hook.attr_fields_in(space, body, mlir_major)?;
    Some(Custom {
        code: Some(code),
        fields,
    })
}

/// The custom encoding of type `d` of a dialect whose `hook` declares its
/// encodings as data, or `None` for a textual entry.
pub fn encode_declared_type(
    hook: &dyn BytecodeDialect,
    space: &mut AttrSpace<'_>,
    d: &TypeData,
) -> Option<Custom> {
    let TypeData::Dialect(body) = d else {
        return None;
    };
    let (code, fields) = hook.type_fields(space, body)?;
    Some(Custom {
        code: Some(code),
        fields,
    })
}
