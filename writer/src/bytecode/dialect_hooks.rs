//! The writer's side of dialect hooks (SPEC.md §9): which version each
//! hooked dialect writes, and custom attributes, types and properties
//! recorded through a [`DialectWriter`] into the same field lists the
//! declarative encodings use, so that numbering and emission treat them
//! alike.

use super::dialect_entries::{Custom, Field};
use super::interner::AttrSpace;
use super::WriteError;
use rmlir_format::dialect_hooks::{DialectRegistry, DialectVersion, DialectWriter};
use rmlir_format::{AttrData, AttrId, Bytes, Context, TypeData, TypeId};
use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;

/// The hooks of one write and the dialect versions it writes.
pub struct WriteHooks<'h> {
    pub registry: &'h DialectRegistry,
    versions: HashMap<Bytes, Arc<dyn DialectVersion>>,
    /// `WriteOptions::mlir_major`: the release whose declared encodings
    /// are written.
    pub mlir_major: u32,
}

impl<'h> WriteHooks<'h> {
    /// `requested`: `(dialect, version text)` pairs; every other hooked
    /// dialect writes its current version.
    pub fn new(
        registry: &'h DialectRegistry,
        requested: &[(String, String)],
    ) -> Result<Self, WriteError> {
        let mut versions = HashMap::new();
        for name in registry.names() {
            let hook = registry.get(name.as_bytes()).expect("listed");
            if let Some(v) = hook.current_version() {
                versions.insert(name.as_bytes().into(), v);
            }
        }
        for (dialect, text) in requested {
            let Some(hook) = registry.get(dialect.as_bytes()) else {
                return Err(WriteError::new(format!(
                    "cannot write dialect '{dialect}' at version {text}: no bytecode hooks are registered for it"
                )));
            };
            let v = hook.parse_version(text).map_err(|e| {
                WriteError::new(format!("dialect '{dialect}' version '{text}': {e}"))
            })?;
            versions.insert(dialect.as_bytes().into(), v);
        }
        Ok(WriteHooks {
            registry,
            versions,
            mlir_major: 22,
        })
    }

    /// The version payload `dialect` writes, if it writes one.
    pub fn version_payload(&self, ctx: &Context, dialect: &[u8]) -> Option<Vec<u8>> {
        let hook = self.registry.get(dialect)?;
        let v = self.versions.get(dialect)?;
        let mut rec = Recorder {
            fields: Vec::new(),
            ctx,
            space: None,
            hooks: self,
        };
        hook.write_version(v.as_ref(), &mut rec);
        let mut out = Vec::new();
        for f in rec.fields {
            match f {
                Field::U(v) => rmlir_format::bytecode::varint::write_varint(&mut out, v),
                Field::S(v) => rmlir_format::bytecode::varint::write_signed_varint(&mut out, v),
                Field::Byte(b) => out.push(b),
                // References have no place in a version payload.
                _ => return None,
            }
        }
        Some(out)
    }

    pub fn has_hook(&self, dialect: &[u8]) -> bool {
        self.registry.get(dialect).is_some()
    }

    /// What `write` records through a [`DialectWriter`], when it writes;
    /// the attributes and types the hook makes go into `space`.
    fn record(
        &self,
        space: &mut AttrSpace<'_>,
        write: impl FnOnce(&mut dyn DialectWriter) -> bool,
    ) -> Option<Custom> {
        let ctx = space.ctx();
        let mut rec = Recorder {
            fields: Vec::new(),
            ctx,
            space: Some(space),
            hooks: self,
        };
        write(&mut rec).then_some(Custom {
            code: None,
            fields: rec.fields,
        })
    }

    /// The custom encoding a hook gives `attr` (of `dialect`), if any.
    /// `attr` may be one the writer made (a hook's, or an implicit one).
    /// A dialect whose hook declares its encodings as data
    /// ([`BytecodeDialect::declared_encodings`]) is encoded from `data` by
    /// those tables, whoever made the attribute.
    pub fn encode_attr(
        &self,
        space: &mut AttrSpace<'_>,
        dialect: &[u8],
        attr: AttrId,
        data: &AttrData,
    ) -> Option<Custom> {
        if dialect == b"builtin" {
            return None;
        }
        let hook = self.registry.get(dialect)?;
        if hook.declared_encodings().is_some() {
            return super::dialect_entries::encode_declared_attr(
                hook.as_ref(),
                space,
                data,
                self.mlir_major,
            );
        }
        if (attr.0 as usize) >= space.len() {
            return None;
        }
        self.record(space, |w| hook.write_attribute(attr, w))
    }

    /// [`WriteHooks::encode_attr`] of a type.
    pub fn encode_type(
        &self,
        space: &mut AttrSpace<'_>,
        dialect: &[u8],
        ty: TypeId,
        data: &TypeData,
    ) -> Option<Custom> {
        if dialect == b"builtin" {
            return None;
        }
        let hook = self.registry.get(dialect)?;
        if hook.declared_encodings().is_some() {
            return super::dialect_entries::encode_declared_type(hook.as_ref(), space, data);
        }
        if (ty.0 as usize) >= space.num_types() {
            return None;
        }
        self.record(space, |w| hook.write_type(ty, w))
    }

    /// Whether a hook writes the properties of `op`.
    pub fn handles_properties(&self, op: &[u8]) -> bool {
        self.registry.properties_hook(op).is_some()
    }

    /// The properties payload a hook writes for `op`.
    pub fn encode_properties(
        &self,
        ctx: &Context,
        op: &[u8],
        props: Option<AttrId>,
    ) -> Option<Result<Custom, String>> {
        let hook = self.registry.properties_hook(op)?;
        let mut rec = Recorder {
            fields: Vec::new(),
            ctx,
            space: None,
            hooks: self,
        };
        Some(
            hook.write_properties(op, props, &mut rec)
                .map(|()| Custom {
                    code: None,
                    fields: rec.fields,
                })
                .map_err(|e| e.0),
        )
    }

    /// The inherent attribute names a hook gives `op` (for pre-v5 files).
    pub fn inherent_attributes(&self, op: &[u8]) -> Option<Vec<String>> {
        let dialect = op.split(|&c| c == b'.').next()?;
        self.registry.get(dialect)?.inherent_attributes(op)
    }
}

/// Records what a hook writes as [`Field`]s.
struct Recorder<'x, 'h, 'm> {
    fields: Vec<Field>,
    ctx: &'m Context,
    /// Where the hook's attributes and types go; `None` for payloads that
    /// cannot refer to new ones (versions, properties).
    space: Option<&'x mut AttrSpace<'m>>,
    hooks: &'x WriteHooks<'h>,
}

impl DialectWriter for Recorder<'_, '_, '_> {
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
    fn attr_data(&self, a: AttrId) -> Cow<'_, AttrData> {
        match &self.space {
            Some(space) => space.get(a),
            None => Cow::Borrowed(self.ctx.attr(a)),
        }
    }
    fn type_data(&self, t: TypeId) -> Cow<'_, TypeData> {
        match &self.space {
            Some(space) => Cow::Borrowed(space.ty(t)),
            None => Cow::Borrowed(self.ctx.ty(t)),
        }
    }
    fn intern_attr(&mut self, d: AttrData) -> Option<AttrId> {
        self.space.as_mut().map(|s| s.intern(d))
    }
    fn intern_type(&mut self, d: TypeData) -> Option<TypeId> {
        self.space.as_mut().map(|s| s.intern_type(d))
    }
    fn dialect_version(&self, dialect: &str) -> Option<Arc<dyn DialectVersion>> {
        self.hooks.versions.get(dialect.as_bytes()).cloned()
    }
}
