//! A hooked dialect's attribute or type parsed from text, made the value
//! its hooks read from bytecode (SPEC.md §10.4): written through the
//! hook's `write_*` into fields, then read back through its `read_*`. A
//! dialect's parser and printer do the same to text (StableHLO prints
//! `#stablehlo.gather<offset_dims = [1]>` however it was written), so text
//! read this way prints, writes and compares as the dialect's own tools
//! do. A body the hook does not write is kept as the text it was written
//! as (an opaque attribute or type, as without hooks), which is also how
//! it comes back from the textual bytecode entry it is written as.
//!
//! A dialect whose encodings are declared as data (SPEC.md §6.6.5) goes
//! the same way through its tables: `attr_fields`, then
//! `attr_from_fields`.

use super::{BytecodeDialect, DialectReader, DialectVersion, DialectWriter, HookError, HookResult};
use crate::context::{AttrId, Context, TypeId};
use crate::dialect_encodings::{Entry, Field, Value};
use crate::{AttrData, TypeData};
use std::collections::VecDeque;
use std::sync::Arc;

/// Records a hook's fields; what it makes goes into the context.
struct Recorder<'c> {
    ctx: &'c mut Context,
    fields: Vec<Field>,
}

impl DialectWriter for Recorder<'_> {
    fn write_varint(&mut self, v: u64) {
        self.fields.push(Field::U(v));
    }
    fn write_signed_varint(&mut self, v: i64) {
        self.fields.push(Field::S(v));
    }
    fn write_byte(&mut self, b: u8) {
        self.fields.push(Field::Byte(b));
    }
    fn write_string(&mut self, s: &[u8]) {
        self.fields.push(Field::Str(s.to_vec()));
    }
    fn write_attribute(&mut self, a: AttrId) {
        self.fields.push(Field::Attr(a));
    }
    fn write_optional_attribute(&mut self, a: Option<AttrId>) {
        self.fields.push(Field::OptAttr(a));
    }
    fn write_type(&mut self, t: TypeId) {
        self.fields.push(Field::Type(t));
    }
    fn write_blob(&mut self, bytes: &[u8]) {
        self.fields.push(Field::Blob(bytes.to_vec()));
    }
    fn ctx(&self) -> &Context {
        self.ctx
    }
    fn intern_attr(&mut self, d: AttrData) -> Option<AttrId> {
        Some(self.ctx.intern_attr(d))
    }
    fn intern_type(&mut self, d: TypeData) -> Option<TypeId> {
        Some(self.ctx.intern_type(d))
    }
    fn dialect_version(&self, _: &str) -> Option<Arc<dyn DialectVersion>> {
        None
    }
}

/// Serves recorded fields to a hook's read side.
struct Replay<'c> {
    ctx: &'c mut Context,
    fields: VecDeque<Field>,
}

impl Replay<'_> {
    fn next(&mut self) -> HookResult<Field> {
        self.fields
            .pop_front()
            .ok_or_else(|| HookError("the fields ended early".into()))
    }
}

fn mismatch<T>() -> HookResult<T> {
    Err(HookError("a field of another kind".into()))
}

impl DialectReader for Replay<'_> {
    fn read_varint(&mut self) -> HookResult<u64> {
        match self.next()? {
            Field::U(v) => Ok(v),
            _ => mismatch(),
        }
    }
    fn read_signed_varint(&mut self) -> HookResult<i64> {
        match self.next()? {
            Field::S(v) => Ok(v),
            _ => mismatch(),
        }
    }
    fn read_byte(&mut self) -> HookResult<u8> {
        match self.next()? {
            Field::Byte(b) => Ok(b),
            _ => mismatch(),
        }
    }
    fn read_string(&mut self) -> HookResult<Vec<u8>> {
        match self.next()? {
            Field::Str(s) => Ok(s),
            _ => mismatch(),
        }
    }
    fn read_attribute(&mut self) -> HookResult<AttrId> {
        match self.next()? {
            Field::Attr(a) => Ok(a),
            _ => mismatch(),
        }
    }
    fn read_optional_attribute(&mut self) -> HookResult<Option<AttrId>> {
        match self.next()? {
            Field::OptAttr(a) => Ok(a),
            _ => mismatch(),
        }
    }
    fn read_type(&mut self) -> HookResult<TypeId> {
        match self.next()? {
            Field::Type(t) => Ok(t),
            _ => mismatch(),
        }
    }
    fn read_blob(&mut self) -> HookResult<Vec<u8>> {
        match self.next()? {
            Field::Blob(b) => Ok(b),
            _ => mismatch(),
        }
    }
    fn ctx(&mut self) -> &mut Context {
        self.ctx
    }
    fn dialect_version(&self, _: &str) -> Option<Arc<dyn DialectVersion>> {
        None
    }
}

/// `a` as `hook` reads it back after writing it; `None` where the hook
/// does not write it (or what it writes does not read back whole).
pub fn canonical_attr(hook: &dyn BytecodeDialect, ctx: &mut Context, a: AttrId) -> Option<AttrId> {
    if let Some(spec) = hook.declared_encodings() {
        let AttrData::Dialect { body, ty: None } = ctx.attr(a).clone() else {
            return None;
        };
        let (code, fields) = hook.attr_fields(ctx, &body)?;
        let kind = spec.attrs.iter().find(|k| k.code == code)?;
        let values: Vec<Value<'_>> = fields.iter().map(Field::as_value).collect();
        let d = hook
            .attr_from_fields(
                ctx,
                Entry {
                    kind,
                    values: &values,
                },
            )
            .ok()?;
        return Some(ctx.intern_attr(d));
    }
    let mut rec = Recorder {
        ctx: &mut *ctx,
        fields: Vec::new(),
    };
    if !hook.write_attribute(a, &mut rec) {
        return None;
    }
    let fields = rec.fields.into();
    let mut replay = Replay { ctx, fields };
    match hook.read_attribute(&mut replay) {
        Ok(Some(b)) if replay.fields.is_empty() => Some(b),
        _ => None,
    }
}

/// [`canonical_attr`] of a type.
pub fn canonical_type(hook: &dyn BytecodeDialect, ctx: &mut Context, t: TypeId) -> Option<TypeId> {
    if let Some(spec) = hook.declared_encodings() {
        let TypeData::Dialect(body) = ctx.ty(t).clone() else {
            return None;
        };
        let (code, fields) = hook.type_fields(ctx, &body)?;
        let kind = spec.types.iter().find(|k| k.code == code)?;
        let values: Vec<Value<'_>> = fields.iter().map(Field::as_value).collect();
        let d = hook
            .type_from_fields(
                ctx,
                Entry {
                    kind,
                    values: &values,
                },
            )
            .ok()?;
        return Some(ctx.intern_type(d));
    }
    let mut rec = Recorder {
        ctx: &mut *ctx,
        fields: Vec::new(),
    };
    if !hook.write_type(t, &mut rec) {
        return None;
    }
    let fields = rec.fields.into();
    let mut replay = Replay { ctx, fields };
    match hook.read_type(&mut replay) {
        Ok(Some(u)) if replay.fields.is_empty() => Some(u),
        _ => None,
    }
}
