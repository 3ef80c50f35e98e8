//! Custom attribute/type encodings declared as data (SPEC.md §6.6.5).
//!
//! MLIR 22 ships declarative encodings (BytecodeDialectGen) for the llvm,
//! quant and tosa dialects; their hooks (`rmlir-dialects`) hand the reader
//! the generated tables of what each kind code reads
//! ([`BytecodeDialect::declared_encodings`]). A small interpreter here
//! reads the fields, whatever the dialect, and the dialect's hook makes
//! the value of them (for llvm and quant, the body mlir-opt prints). A
//! dialect that declares the interface but no kinds (tosa) rejects every
//! custom entry, as in MLIR.

use super::binary_reader::Reader;
use super::BytecodeReader;
use crate::error::{Error, Position, Result};
use rmlir_format::dialect_encodings::{self, DialectSpec, FieldError, KindSpec, Read, Value};
use rmlir_format::dialect_hooks::BytecodeDialect;
use rmlir_format::{AttrId, TypeId};

/// Decodes a custom attribute entry of a dialect whose `hook` declares
/// its encodings as `spec`.
pub(super) fn read_declared_attr<'a>(
    reader: &mut BytecodeReader<'a>,
    hook: &dyn BytecodeDialect,
    spec: &'static DialectSpec,
    r: &mut Reader<'a>,
) -> Result<AttrId> {
    let entry = read_kind(reader, spec, spec.attrs, "attribute", r)?;
    match hook.attr_from_fields(&reader.module.ctx, entry.view()) {
        Ok(d) => Ok(reader.module.ctx.intern_attr(d)),
        Err(e) => entry.report(r, e),
    }
}

/// Decodes a custom type entry of a dialect whose `hook` declares its
/// encodings as `spec`.
pub(super) fn read_declared_type<'a>(
    reader: &mut BytecodeReader<'a>,
    hook: &dyn BytecodeDialect,
    spec: &'static DialectSpec,
    r: &mut Reader<'a>,
) -> Result<TypeId> {
    let entry = read_kind(reader, spec, spec.types, "type", r)?;
    match hook.type_from_fields(&reader.module.ctx, entry.view()) {
        Ok(d) => Ok(reader.module.ctx.intern_type(d)),
        Err(e) => entry.report(r, e),
    }
}

/// A decoded entry: its kind and fields, with the offsets for errors.
struct Entry<'a> {
    kind: &'static KindSpec,
    values: Vec<Value<'a>>,
    /// Offset of each field.
    offsets: Vec<usize>,
    /// Offset of the entry.
    at: usize,
}

impl<'a> Entry<'a> {
    /// The entry as its dialect's hook sees it.
    fn view(&self) -> dialect_encodings::Entry<'_, 'a> {
        dialect_encodings::Entry {
            kind: self.kind,
            values: &self.values,
        }
    }

    /// A hook's complaint, at the offset of the field it names (or of the
    /// entry).
    fn report<T>(&self, r: &Reader<'_>, e: FieldError) -> Result<T> {
        let at = e
            .field
            .and_then(|i| self.offsets.get(i).copied())
            .unwrap_or(self.at);
        r.err_at(at, e.msg)
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
