//! Custom attribute/type encodings of non-builtin dialects (SPEC.md §6.6.5).
//!
//! MLIR 22 ships declarative encodings (BytecodeDialectGen) for the llvm,
//! quant and tosa dialects. What each kind code reads is data generated from
//! those `.cpp.inc` files (`rmlir_format::dialect_encodings`, by
//! tools/dialect-encodings/gen.py, shared with the writer);
//! a small interpreter reads the fields, and per dialect the printed form
//! mlir-opt gives the value is rebuilt as a [`DialectBody`]: llvm attributes
//! from their ODS parameters and assembly formats (also generated), quant
//! types by the quant dialect's own printer rules (`quant.rs`). tosa declares
//! the interface but no kinds, so any custom tosa entry is an error, as in
//! MLIR.

mod llvm;
mod quant;

use super::binary_reader::Reader;
use super::BytecodeReader;
use crate::error::{Error, Position, Result};
use rmlir_format::dialect_encodings::{DialectSpec, KindSpec, Read};
use rmlir_format::{AttrId, TypeId};

/// Decodes a custom attribute entry of `dialect`, or `None` when the
/// dialect's encoding is not known.
pub(super) fn read_dialect_attr<'a>(
    reader: &mut BytecodeReader<'a>,
    dialect: &[u8],
    r: &mut Reader<'a>,
) -> Result<Option<AttrId>> {
    let Some(spec) = dialect_spec(dialect) else {
        return Ok(None);
    };
    let entry = read_kind(reader, spec, spec.attrs, "attribute", r)?;
    let a = match spec.name {
        "llvm" => llvm::build_attr(reader, &entry, r)?,
        other => {
            return r.err_at(
                entry.at,
                format!(
                    "{other} attribute {}: no printer for this kind",
                    entry.kind.class
                ),
            )
        }
    };
    Ok(Some(a))
}

/// Decodes a custom type entry of `dialect`, or `None` when unknown.
pub(super) fn read_dialect_type<'a>(
    reader: &mut BytecodeReader<'a>,
    dialect: &[u8],
    r: &mut Reader<'a>,
) -> Result<Option<TypeId>> {
    let Some(spec) = dialect_spec(dialect) else {
        return Ok(None);
    };
    let entry = read_kind(reader, spec, spec.types, "type", r)?;
    let t = match spec.name {
        "quant" => quant::build_type(reader, &entry, r)?,
        other => {
            return r.err_at(
                entry.at,
                format!(
                    "{other} type {}: no printer for this kind",
                    entry.kind.class
                ),
            )
        }
    };
    Ok(Some(t))
}

fn dialect_spec(name: &[u8]) -> Option<&'static DialectSpec> {
    rmlir_format::dialect_encodings::dialect_spec(name)
}

pub(super) use rmlir_format::dialect_encodings::{BodyBuilder as Body, Value};

/// A decoded entry: its kind and fields, with the offsets for errors.
pub(super) struct Entry<'a> {
    pub dialect: &'static str,
    pub kind: &'static KindSpec,
    pub values: Vec<Value<'a>>,
    /// Offset of each field.
    pub offsets: Vec<usize>,
    /// Offset of the entry.
    pub at: usize,
}

impl<'a> Entry<'a> {
    /// The field named `name` (a step of the generated tables).
    pub fn field(&self, name: &str, r: &Reader<'_>) -> Result<(&Value<'a>, usize)> {
        match self.kind.steps.iter().position(|s| s.name == name) {
            Some(i) => Ok((&self.values[i], self.offsets[i])),
            None => r.err_at(
                self.at,
                format!(
                    "{} {}: the encoding has no field '{name}'",
                    self.dialect, self.kind.class
                ),
            ),
        }
    }

    /// An error about field `i`.
    pub fn err_field<T>(&self, r: &Reader<'_>, i: usize, msg: impl std::fmt::Display) -> Result<T> {
        let (name, at) = match (self.kind.steps.get(i), self.offsets.get(i)) {
            (Some(s), Some(&at)) => (s.name, at),
            _ => ("?", self.at),
        };
        r.err_at(
            at,
            format!(
                "{} {}, field '{name}': {msg}",
                self.dialect, self.kind.class
            ),
        )
    }
}

fn read_kind<'a>(
    reader: &mut BytecodeReader<'a>,
    spec: &'static DialectSpec,
    kinds: &'static [KindSpec],
    what: &str,
    r: &mut Reader<'a>,
) -> Result<Entry<'a>> {
    let at = r.offset();
    let end = at + r.remaining();
    let code = r
        .read_varint()
        .map_err(|e| annotate(e, &format!("{} {what} kind code", spec.name)))?;
    let Some(kind) = kinds.iter().find(|k| k.code == code) else {
        return r.err_at(
            at,
            format!("{} {what}: unknown {what} code: {code}", spec.name),
        );
    };
    let mut values = Vec::with_capacity(kind.steps.len());
    let mut offsets = Vec::with_capacity(kind.steps.len());
    for step in kind.steps {
        offsets.push(r.offset());
        let context = format!("{} {}, field '{}'", spec.name, kind.class, step.name);
        let v = read_step(reader, step.read, r).map_err(|e| match e {
            StepError::Own(e) => annotate(e, &context),
            // Errors of nested entries name their own entry; an invalid
            // index is reported inside this one.
            StepError::Nested(e) => match e.position() {
                Position::Bytecode { offset, .. } if (at as u64..end as u64).contains(offset) => {
                    annotate(e, &context)
                }
                _ => e,
            },
        })?;
        values.push(v);
    }
    Ok(Entry {
        dialect: spec.name,
        kind,
        values,
        offsets,
        at,
    })
}

fn annotate(e: Error, context: &str) -> Error {
    Error::new(
        e.kind(),
        format!("{context}: {}", e.message()),
        e.position().clone(),
    )
}

/// A read error raised by this entry's own bytes, or by decoding a nested
/// entry it refers to.
enum StepError {
    Own(Error),
    Nested(Error),
}

impl From<Error> for StepError {
    fn from(e: Error) -> Self {
        StepError::Own(e)
    }
}

type StepResult<T> = std::result::Result<T, StepError>;

fn read_step<'a>(
    reader: &mut BytecodeReader<'a>,
    read: Read,
    r: &mut Reader<'a>,
) -> StepResult<Value<'a>> {
    Ok(match read {
        Read::VarInt => Value::U(r.read_varint()?),
        Read::SignedVarInt => Value::S(r.read_signed_varint()?),
        Read::Str => Value::Str(reader.string_ref(r)?),
        Read::Bool => Value::Bool(r.read_u8()? != 0),
        Read::Attr => {
            let at = r.offset();
            let idx = r.read_varint()?;
            Value::Attr(Some(reader.attr_at(idx, r, at).map_err(StepError::Nested)?))
        }
        Read::OptAttr => Value::Attr(read_opt_attr(reader, r)?),
        Read::Type => {
            let at = r.offset();
            let idx = r.read_varint()?;
            Value::Type(reader.type_at(idx, r, at).map_err(StepError::Nested)?)
        }
        Read::OptInt => {
            let (v, present) = r.read_varint_flag()?;
            Value::OptU(present.then_some(v))
        }
        Read::OptArrayAttr => {
            let mut v = Vec::new();
            if r.read_u8()? != 0 {
                let n = r.read_count(1, "array element")?;
                v.reserve(n);
                for _ in 0..n {
                    v.push(read_opt_attr(reader, r)?);
                }
            }
            Value::Attrs(v)
        }
        Read::OptArrayInt => {
            let mut v = Vec::new();
            if r.read_u8()? != 0 {
                let n = r.read_count(1, "array element")?;
                v.reserve(n);
                for _ in 0..n {
                    v.push(r.read_varint()?);
                }
            }
            Value::Ints(v)
        }
        // An APFloat of IEEE double: a 64-bit APInt, i.e. a signed varint of
        // the zero-extended bits.
        Read::F64 => Value::F64(r.read_signed_varint()? as u64),
        Read::ListF64 => {
            let n = r.read_count(1, "list element")?;
            let mut v = Vec::with_capacity(n);
            for _ in 0..n {
                v.push(r.read_signed_varint()? as u64);
            }
            Value::F64s(v)
        }
        Read::ListSignedVarInt => {
            let n = r.read_count(1, "list element")?;
            let mut v = Vec::with_capacity(n);
            for _ in 0..n {
                v.push(r.read_signed_varint()?);
            }
            Value::Ss(v)
        }
    })
}

fn read_opt_attr<'a>(
    reader: &mut BytecodeReader<'a>,
    r: &mut Reader<'a>,
) -> StepResult<Option<AttrId>> {
    let at = r.offset();
    let (idx, present) = r.read_varint_flag()?;
    if !present {
        return Ok(None);
    }
    Ok(Some(reader.attr_at(idx, r, at).map_err(StepError::Nested)?))
}
