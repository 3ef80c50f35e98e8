//! The fields of a custom-encoded dialect entry (SPEC.md §6.6.5), in the
//! two shapes its two sides need: [`Field`], owned, as an encoder builds
//! it from text, and [`Value`], borrowed, as the bytecode reader decodes
//! it. Printers take [`Value`]s, so one printer serves the reader and the
//! text parser's canonicalization.
//!
//! Encoders intern the values a body holds inline but the encoding names
//! as attributes (a `StringAttr`, a `BoolAttr`, a rebuilt nested
//! attribute) through [`BodyInterner`]: the writer keeps those in a space
//! of its own beside the module's, the text parser puts them in the
//! module's context.

use crate::{AttrData, AttrId, BodyPiece, Context, TypeData, TypeId};
use std::borrow::Cow;
use std::fmt;

use super::spec::KindSpec;

/// Why a dialect cannot make a value of decoded fields: about the entry
/// (`field: None`) or one field, by its index among the kind's read steps.
/// The bytecode reader reports `msg` as it is, at the byte offset of the
/// field or entry, so a dialect words it in full.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldError {
    /// The index of the field among the kind's read steps; `None` for the
    /// whole entry.
    pub field: Option<usize>,
    /// The message, worded in full.
    pub msg: String,
}

impl FieldError {
    /// An error about the whole entry.
    pub fn entry(msg: impl Into<String>) -> Self {
        FieldError {
            field: None,
            msg: msg.into(),
        }
    }

    /// An error about field `i`.
    pub fn field(i: usize, msg: impl Into<String>) -> Self {
        FieldError {
            field: Some(i),
            msg: msg.into(),
        }
    }
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.msg)
    }
}

/// A decoded entry as a dialect sees it: its kind and one value per read
/// step, looked up by the steps' names.
#[derive(Clone, Copy)]
pub struct Entry<'v, 'a> {
    /// The entry's kind.
    pub kind: &'static KindSpec,
    /// One value per step of `kind`, in order.
    pub values: &'v [Value<'a>],
}

impl<'v, 'a> Entry<'v, 'a> {
    /// The field named `name` and its index; an entry error naming
    /// `dialect` when the kind has no such step.
    pub fn field(&self, dialect: &str, name: &str) -> Result<(usize, &'v Value<'a>), FieldError> {
        self.kind
            .steps
            .iter()
            .position(|s| s.name == name)
            .and_then(|i| Some((i, self.values.get(i)?)))
            .ok_or_else(|| {
                FieldError::entry(format!(
                    "{dialect} {}: the encoding has no field '{name}'",
                    self.kind.class
                ))
            })
    }

    /// Whether the kind has a step named `name`.
    pub fn has(&self, name: &str) -> bool {
        self.kind.steps.iter().any(|s| s.name == name)
    }
}

/// One field of a custom entry, in the form its read step takes.
#[derive(Clone, Debug)]
pub enum Field {
    /// A VarInt.
    U(u64),
    /// A raw byte.
    Byte(u8),
    /// A signed VarInt.
    S(i64),
    /// A bool, one byte.
    Bool(bool),
    /// A string, written as a string table index.
    Str(Vec<u8>),
    /// An attribute, written as a table index.
    Attr(AttrId),
    /// An optional attribute (`readOptionalAttribute`).
    OptAttr(Option<AttrId>),
    /// A type, written as a table index.
    Type(TypeId),
    /// The llvm dialect's optional integer (`readOptionalInt`).
    OptU(Option<u64>),
    /// `readOptionalArrayRef` of attributes: empty is written as absent.
    OptAttrs(Vec<Option<AttrId>>),
    /// `readOptionalArrayRef` of integers: empty is written as absent.
    OptInts(Vec<u64>),
    /// The bits of an `f64`.
    F64(u64),
    /// A list of `f64` bit patterns.
    F64s(Vec<u64>),
    /// A list of signed VarInts.
    Ss(Vec<i64>),
    /// A blob in place: a varint length and the bytes.
    Blob(Vec<u8>),
}

/// One field as read.
#[derive(Clone, Debug, PartialEq)]
pub enum Value<'a> {
    /// A VarInt, or a raw byte.
    U(u64),
    /// A signed VarInt.
    S(i64),
    /// A bool.
    Bool(bool),
    /// A string.
    Str(&'a [u8]),
    /// `None`: an absent optional attribute.
    Attr(Option<AttrId>),
    /// A type.
    Type(TypeId),
    /// The llvm dialect's optional integer.
    OptU(Option<u64>),
    /// Absent optional arrays read as empty, as MLIR stores them.
    Attrs(Vec<Option<AttrId>>),
    /// An optional array of integers; absent reads as empty.
    Ints(Vec<u64>),
    /// The bit pattern of an `f64`.
    F64(u64),
    /// A list of `f64` bit patterns.
    F64s(Vec<u64>),
    /// A list of signed VarInts.
    Ss(Vec<i64>),
    /// A blob's bytes.
    Blob(&'a [u8]),
}

impl Field {
    /// The field as a reader would have decoded it.
    pub fn as_value(&self) -> Value<'_> {
        match self {
            Field::U(v) => Value::U(*v),
            Field::Byte(b) => Value::U(u64::from(*b)),
            Field::S(v) => Value::S(*v),
            Field::Bool(b) => Value::Bool(*b),
            Field::Str(s) => Value::Str(s),
            Field::Attr(a) => Value::Attr(Some(*a)),
            Field::OptAttr(a) => Value::Attr(*a),
            Field::Type(t) => Value::Type(*t),
            Field::OptU(v) => Value::OptU(*v),
            Field::OptAttrs(l) => Value::Attrs(l.clone()),
            Field::OptInts(l) => Value::Ints(l.clone()),
            Field::F64(b) => Value::F64(*b),
            Field::F64s(l) => Value::F64s(l.clone()),
            Field::Ss(l) => Value::Ss(l.clone()),
            Field::Blob(b) => Value::Blob(b),
        }
    }
}

/// Read access to the attributes and types a body refers to.
pub trait AttrLookup {
    /// The data of attribute `a`.
    fn attr_data(&self, a: AttrId) -> Cow<'_, AttrData>;
    /// The data of type `t`.
    fn type_data(&self, t: TypeId) -> &TypeData;
}

/// Where an encoder puts the attributes and types it synthesizes.
pub trait BodyInterner: AttrLookup {
    /// The id of attribute `d`, interned if new.
    fn intern_attr(&mut self, d: AttrData) -> AttrId;
    /// The id of type `d`, interned if new.
    fn intern_type(&mut self, d: TypeData) -> TypeId;
    /// Whether type `d` may be synthesized (the writer can only add types
    /// that have a builtin binary encoding or that the module already has).
    fn may_synthesize_type(&self, _d: &TypeData) -> bool {
        true
    }
    /// Marks dense attribute `a` (made by [`BodyInterner::intern_attr`])
    /// as holding its elements as MLIR stores them, sign-extended to whole
    /// bytes, so that the writer emits the bytes as they are (a quant
    /// sub-channel type's zero points). Nothing to do where no bytes are
    /// written.
    fn mark_raw_dense(&mut self, _a: AttrId) {}
}

impl AttrLookup for Context {
    fn attr_data(&self, a: AttrId) -> Cow<'_, AttrData> {
        Cow::Borrowed(self.attr(a))
    }
    fn type_data(&self, t: TypeId) -> &TypeData {
        self.ty(t)
    }
}

impl BodyInterner for Context {
    fn intern_attr(&mut self, d: AttrData) -> AttrId {
        Context::intern_attr(self, d)
    }
    fn intern_type(&mut self, d: TypeData) -> TypeId {
        Context::intern_type(self, d)
    }
}

/// Builds a dialect body: adjacent text is merged into one piece, as the
/// text parser splits bodies, so equal values intern equal.
#[derive(Default)]
pub struct BodyBuilder {
    /// The body so far.
    pub pieces: Vec<BodyPiece>,
}

impl BodyBuilder {
    /// Appends text.
    pub fn text(&mut self, s: &str) {
        if s.is_empty() {
            return;
        }
        if let Some(BodyPiece::Text(t)) = self.pieces.last_mut() {
            let mut joined = String::with_capacity(t.len() + s.len());
            joined.push_str(t);
            joined.push_str(s);
            *t = joined.into();
        } else {
            self.pieces.push(BodyPiece::Text(s.into()));
        }
    }

    /// Appends a nested attribute, printed in full.
    pub fn attr(&mut self, a: AttrId) {
        self.pieces.push(BodyPiece::Attr(a));
    }

    /// Appends a nested type.
    pub fn ty(&mut self, t: TypeId) {
        self.pieces.push(BodyPiece::Type(t));
    }
}
