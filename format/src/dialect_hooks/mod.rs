//! Dialect bytecode hooks (SPEC.md §9): the Rust side of MLIR's
//! `BytecodeDialectInterface`. A dialect that evolves writes its version
//! into the dialect section; its custom attribute, type and property
//! encodings may depend on the version being read (or, when writing for an
//! older consumer, the version being written); and after a file is read,
//! `upgrade_from_version` rewrites IR of an old version into the current
//! shape.
//!
//! Readers and writers hand hooks a [`DialectReader`] / [`DialectWriter`]
//! over the bytecode primitives, so a hook never sees file offsets or
//! tables. Hooks are registered once in a [`DialectRegistry`] by dialect
//! name.

use crate::context::{AttrId, Context, TypeId};
use crate::dialect_encodings::{BodyInterner, DialectSpec, Entry, Field, FieldError};
use crate::ir::{Module, OpId};
use crate::{AttrData, BodyPiece, DialectBody, TypeData};
use std::any::Any;
use std::fmt;
use std::sync::{Arc, OnceLock};

pub mod canonical;

/// A dialect version as its hook understands it (e.g. `major.minor`).
pub trait DialectVersion: Any + Send + Sync + fmt::Display + fmt::Debug {
    /// The version as `Any`, for its hook to downcast to its own type.
    fn as_any(&self) -> &dyn Any;
}

/// What a hook reports when it cannot go on. Readers wrap it with the
/// section and byte offset of the entry being read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HookError(pub String);

impl fmt::Display for HookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<String> for HookError {
    fn from(s: String) -> Self {
        HookError(s)
    }
}

impl From<&str> for HookError {
    fn from(s: &str) -> Self {
        HookError(s.to_string())
    }
}

/// The result of a hook, with [`HookError`].
pub type HookResult<T> = Result<T, HookError>;

/// The primitives a hook reads with (SPEC.md §6.1).
pub trait DialectReader {
    /// A VarInt.
    fn read_varint(&mut self) -> HookResult<u64>;
    /// A signed (zigzag) VarInt.
    fn read_signed_varint(&mut self) -> HookResult<i64>;
    /// One raw byte.
    fn read_byte(&mut self) -> HookResult<u8>;
    /// A string-table reference.
    fn read_string(&mut self) -> HookResult<Vec<u8>>;
    /// An attribute-table reference.
    fn read_attribute(&mut self) -> HookResult<AttrId>;
    /// `vflag(index, present)`, absent when the flag is clear.
    fn read_optional_attribute(&mut self) -> HookResult<Option<AttrId>>;
    /// A type-table reference.
    fn read_type(&mut self) -> HookResult<TypeId>;
    /// A blob: a varint length and that many bytes (MLIR's `readBlob`).
    /// The length is checked against the bytes that remain.
    fn read_blob(&mut self) -> HookResult<Vec<u8>> {
        Err(HookError("this reader does not read blobs".into()))
    }
    /// The context the read attributes and types are interned in.
    fn ctx(&mut self) -> &mut Context;
    /// The version the file declares for `dialect`, as that dialect's hook
    /// parsed it; `None` when the file has none (readers then assume the
    /// current version, as MLIR's do).
    fn dialect_version(&self, dialect: &str) -> Option<Arc<dyn DialectVersion>>;
}

/// The primitives a hook writes with. Attributes and types written here
/// are numbered and emitted by the writer like any other reference.
pub trait DialectWriter {
    /// A VarInt.
    fn write_varint(&mut self, v: u64);
    /// A signed (zigzag) VarInt.
    fn write_signed_varint(&mut self, v: i64);
    /// One raw byte.
    fn write_byte(&mut self, b: u8);
    /// A string, as a string-table reference.
    fn write_string(&mut self, s: &[u8]);
    /// An attribute, as an attribute-table reference.
    fn write_attribute(&mut self, a: AttrId);
    /// `vflag(index, present)` of an optional attribute.
    fn write_optional_attribute(&mut self, a: Option<AttrId>);
    /// A type, as a type-table reference.
    fn write_type(&mut self, t: TypeId);
    /// A blob: a varint length and the bytes, in place (MLIR's
    /// `writeOwnedBlob`/`writeUnownedBlob`; the read side is
    /// [`DialectReader::read_blob`]).
    fn write_blob(&mut self, bytes: &[u8]);
    /// The context of the module being written.
    fn ctx(&self) -> &Context;
    /// The data of `a`, which may be an attribute this writer made
    /// ([`DialectWriter::intern_attr`]) and the context does not hold.
    fn attr_data(&self, a: AttrId) -> std::borrow::Cow<'_, AttrData> {
        std::borrow::Cow::Borrowed(self.ctx().attr(a))
    }
    /// The data of `t`, which may be a type this writer made.
    fn type_data(&self, t: TypeId) -> std::borrow::Cow<'_, TypeData> {
        std::borrow::Cow::Borrowed(self.ctx().ty(t))
    }
    /// The id of attribute `d`, made for this write when the module does
    /// not hold it: the value MLIR keeps in memory where our IR keeps text
    /// or a builtin equivalent (VHLO's `!vhlo.i64_v1` beside `1 : i64`,
    /// SPEC.md §10.3). `None` where the writer cannot make attributes
    /// (a properties or version payload).
    fn intern_attr(&mut self, d: AttrData) -> Option<AttrId> {
        let _ = d;
        None
    }
    /// The id of type `d`, made for this write when needed (see
    /// [`DialectWriter::intern_attr`]).
    fn intern_type(&mut self, d: TypeData) -> Option<TypeId> {
        let _ = d;
        None
    }
    /// The version being written for `dialect`: the one the caller asked
    /// for, else the hook's current version.
    fn dialect_version(&self, dialect: &str) -> Option<Arc<dyn DialectVersion>>;
}

/// What [`BytecodeDialect::builtin_at`] says stands at a place in a body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Builtin {
    /// A builtin attribute.
    Attr,
    /// A builtin type.
    Type,
}

/// One dialect's bytecode hooks. Every method has a default meaning "this
/// dialect has nothing special here", so a hook implements only what its
/// dialect uses.
pub trait BytecodeDialect: Send + Sync {
    /// The dialect namespace (`test`, `stablehlo`, …).
    fn name(&self) -> &str;

    /// The version this implementation reads and writes by default, or
    /// `None` for a dialect that writes no version.
    fn current_version(&self) -> Option<Arc<dyn DialectVersion>> {
        None
    }

    /// Parses the version payload of the dialect section.
    fn read_version(&self, r: &mut dyn DialectReader) -> HookResult<Arc<dyn DialectVersion>> {
        let _ = r;
        Err(format!("dialect '{}' does not read versions", self.name()).into())
    }

    /// Writes `version` as the dialect section's payload.
    fn write_version(&self, version: &dyn DialectVersion, w: &mut dyn DialectWriter) {
        let _ = (version, w);
    }

    /// Parses a version given by a user (`--dialect-version test=1.12`).
    fn parse_version(&self, text: &str) -> HookResult<Arc<dyn DialectVersion>> {
        Err(format!(
            "dialect '{}' has no versions (asked for '{text}')",
            self.name()
        )
        .into())
    }

    /// Decodes a custom attribute entry; `Ok(None)` when the encoding is
    /// not one this hook knows.
    fn read_attribute(&self, r: &mut dyn DialectReader) -> HookResult<Option<AttrId>> {
        let _ = r;
        Ok(None)
    }

    /// Encodes `attr` if this hook has a custom encoding for it; `false`
    /// leaves it to the textual fallback. Must not write anything when it
    /// returns `false`.
    fn write_attribute(&self, attr: AttrId, w: &mut dyn DialectWriter) -> bool {
        let _ = (attr, w);
        false
    }

    /// Decodes a custom type entry; `Ok(None)` when the encoding is not
    /// one this hook knows.
    fn read_type(&self, r: &mut dyn DialectReader) -> HookResult<Option<TypeId>> {
        let _ = r;
        Ok(None)
    }

    /// Encodes `ty` if this hook has a custom encoding for it; `false`
    /// leaves it to the textual fallback. Must not write anything when it
    /// returns `false`.
    fn write_type(&self, ty: TypeId, w: &mut dyn DialectWriter) -> bool {
        let _ = (ty, w);
        false
    }

    /// The kind tables of this dialect's custom encodings, where MLIR
    /// declares them as data (BytecodeDialectGen: llvm, quant and tosa in
    /// MLIR 22; SPEC.md §6.6.5). The reader then decodes this dialect's
    /// entries by the tables and hands the fields to
    /// [`BytecodeDialect::attr_from_fields`] or
    /// [`BytecodeDialect::type_from_fields`]; the writer asks
    /// [`BytecodeDialect::attr_fields`] or [`BytecodeDialect::type_fields`]
    /// for them. `read_attribute`, `write_attribute` and their type
    /// counterparts are not called for such a dialect.
    fn declared_encodings(&self) -> Option<&'static DialectSpec> {
        None
    }

    /// [`BytecodeDialect::declared_encodings`] as MLIR release
    /// `mlir_major` writes them, for a dialect whose encodings changed
    /// after MLIR 22 (llvm's `DICompileUnitAttr` in MLIR 23; SPEC.md
    /// §6.6.5). The reader asks with the release of the tool that wrote
    /// the file (`ReadOptions::host`).
    fn declared_encodings_in(&self, mlir_major: u32) -> Option<&'static DialectSpec> {
        let _ = mlir_major;
        self.declared_encodings()
    }

    /// The attribute a decoded entry of a declared encoding stands for, as
    /// the dialect's printer shows it.
    fn attr_from_fields(
        &self,
        ctx: &Context,
        entry: Entry<'_, '_>,
    ) -> Result<AttrData, FieldError> {
        let _ = ctx;
        Err(FieldError::entry(format!(
            "{} attribute {}: no printer for this kind",
            self.name(),
            entry.kind.class
        )))
    }

    /// The type a decoded entry of a declared encoding stands for.
    fn type_from_fields(
        &self,
        ctx: &Context,
        entry: Entry<'_, '_>,
    ) -> Result<TypeData, FieldError> {
        let _ = ctx;
        Err(FieldError::entry(format!(
            "{} type {}: no printer for this kind",
            self.name(),
            entry.kind.class
        )))
    }

    /// The kind code and fields (one per read step) of the declared
    /// encoding of the attribute with `body`, or `None` for a textual
    /// entry. Values the body holds inline but the encoding refers to
    /// (a `StringAttr` name, a nested type) are made through `space`.
    fn attr_fields(
        &self,
        space: &mut dyn BodyInterner,
        body: &DialectBody,
    ) -> Option<(u64, Vec<Field>)> {
        let _ = (space, body);
        None
    }

    /// [`BytecodeDialect::attr_fields`] in the encodings of MLIR release
    /// `mlir_major` ([`BytecodeDialect::declared_encodings_in`]), for the
    /// writer's `WriteOptions::mlir_major`.
    fn attr_fields_in(
        &self,
        space: &mut dyn BodyInterner,
        body: &DialectBody,
        mlir_major: u32,
    ) -> Option<(u64, Vec<Field>)> {
        let _ = mlir_major;
        self.attr_fields(space, body)
    }

    /// [`BytecodeDialect::attr_fields`] of a type.
    fn type_fields(
        &self,
        space: &mut dyn BodyInterner,
        body: &DialectBody,
    ) -> Option<(u64, Vec<Field>)> {
        let _ = (space, body);
        None
    }

    /// The body this dialect's printer gives the attribute (`is_attr`) or
    /// type whose body the text parser read as `pieces` (SPEC.md §2.4):
    /// MLIR builds the value and prints it again, so hand-written
    /// whitespace or number spellings do not survive. `None` keeps the
    /// body as written.
    fn respell_body(
        &self,
        space: &mut dyn BodyInterner,
        is_attr: bool,
        pieces: &[BodyPiece],
    ) -> Option<Vec<BodyPiece>> {
        let _ = (space, is_attr, pieces);
        None
    }

    /// [`BytecodeDialect::respell_body`] as MLIR release `mlir_major`
    /// prints (the text parser's host, `parse_module_in_release`): llvm's
    /// compile units leave out two defaults from MLIR 23 on.
    fn respell_body_in(
        &self,
        space: &mut dyn BodyInterner,
        is_attr: bool,
        pieces: &[BodyPiece],
        mlir_major: u32,
    ) -> Option<Vec<BodyPiece>> {
        let _ = mlir_major;
        self.respell_body(space, is_attr, pieces)
    }

    /// The custom (pretty) syntax of this dialect's ops (SPEC.md §11.3),
    /// for a dialect upstream MLIR does not ship: the text parser reads
    /// `dialect.op …` by this data once the dialect is registered with the
    /// parser. `None` (the default) leaves the dialect's ops to their
    /// generic form; upstream dialects' syntax is
    /// [`Catalog::upstream`](crate::op_format::catalog::Catalog::upstream).
    fn op_syntax(&self) -> Option<&'static crate::op_format::catalog::Catalog> {
        None
    }

    /// Whether the text parser reads this dialect's attributes and types
    /// as it reads a registered dialect's (SPEC.md §10.4): split into text
    /// and nested references, which [`BytecodeDialect::write_attribute`]
    /// and [`BytecodeDialect::write_type`] can then encode. `false` keeps
    /// them opaque, as mlir-opt keeps a dialect it does not know; the
    /// dialects mlir-opt registers are read so whatever this says.
    fn parses_bodies(&self) -> bool {
        false
    }

    /// Where a builtin value stands in the body of this dialect's
    /// attribute (`is_attr`) or type `mnemonic`: asked by the text parser
    /// at each value position that is not a nested `#…` or `!…` (right
    /// after the `<`, after a `,`, or after `param =`, then given as
    /// `param`). A builtin attribute or type there is parsed as one, so
    /// that the body is the one the bytecode reader makes: VHLO's
    /// `integer_v1<1 : i64>`, StableHLO's `future<tensor<2xf32>>` and
    /// `dot_algorithm<lhs_precision_type = f32, …>` (SPEC.md §10.4).
    fn builtin_at(&self, mnemonic: &str, is_attr: bool, param: Option<&str>) -> Option<Builtin> {
        let _ = (mnemonic, is_attr, param);
        None
    }

    /// The inherent attribute names of `op`, for ops the op registry does
    /// not know: before bytecode v5 they sit in the attribute dictionary
    /// and are moved into the properties on read (SPEC.md §6.9).
    fn inherent_attributes(&self, op: &[u8]) -> Option<Vec<String>> {
        let _ = op;
        None
    }

    /// Whether this hook reads and writes the properties of `op` itself
    /// (ops with a hand-written `readProperties`); others use the op
    /// registry's layouts.
    fn handles_properties(&self, op: &[u8]) -> bool {
        let _ = op;
        false
    }

    /// Decodes the properties payload of `op` into the attribute mlir-opt
    /// shows in `<{…}>`.
    fn read_properties(&self, op: &[u8], r: &mut dyn DialectReader) -> HookResult<Option<AttrId>> {
        let _ = r;
        Err(format!(
            "dialect '{}' does not read the properties of '{}'",
            self.name(),
            String::from_utf8_lossy(op)
        )
        .into())
    }

    /// Encodes the properties `props` of `op`, the read side being
    /// [`BytecodeDialect::read_properties`].
    fn write_properties(
        &self,
        op: &[u8],
        props: Option<AttrId>,
        w: &mut dyn DialectWriter,
    ) -> HookResult<()> {
        let _ = (props, w);
        Err(format!(
            "dialect '{}' does not write the properties of '{}'",
            self.name(),
            String::from_utf8_lossy(op)
        )
        .into())
    }

    /// Rewrites the IR under `top` that was read at `version` into the
    /// current shape; an error rejects the file. Called once per read
    /// scope: after the whole file (eager) or after each materialized
    /// isolated op (lazy), for every dialect whose version the file has.
    fn upgrade_from_version(
        &self,
        m: &mut Module,
        top: OpId,
        version: &dyn DialectVersion,
    ) -> HookResult<()> {
        let _ = (m, top, version);
        Ok(())
    }
}

/// Hooks by dialect name.
#[derive(Clone, Default)]
pub struct DialectRegistry {
    /// Looked up for every dialect attribute and type a text parse or a
    /// write meets: a fast hash, not SipHash.
    hooks: crate::fasthash::FastMap<Vec<u8>, Arc<dyn BytecodeDialect>>,
}

impl fmt::Debug for DialectRegistry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut names: Vec<_> = self.names().collect();
        names.sort();
        f.debug_struct("DialectRegistry")
            .field("dialects", &names)
            .finish()
    }
}

impl DialectRegistry {
    /// A registry with no hooks: every version payload is kept as raw
    /// bytes and round-trips unchanged.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds (or replaces) a dialect's hooks.
    pub fn register(&mut self, hook: Arc<dyn BytecodeDialect>) {
        self.hooks.insert(hook.name().as_bytes().to_vec(), hook);
    }

    /// The hooks of `dialect`, if registered.
    pub fn get(&self, dialect: &[u8]) -> Option<&Arc<dyn BytecodeDialect>> {
        self.hooks.get(dialect)
    }

    /// The registered dialects' names, in no particular order.
    pub fn names(&self) -> impl Iterator<Item = String> + '_ {
        self.hooks
            .keys()
            .map(|k| String::from_utf8_lossy(k).into_owned())
    }

    /// Whether no dialect is registered.
    pub fn is_empty(&self) -> bool {
        self.hooks.is_empty()
    }

    /// A registry of the builtin dialect alone, whose encodings the
    /// reader and writer know natively. The dialects mlir-opt 22 gives
    /// hooks (llvm, quant, tosa, test) are `rmlir_dialects::upstream()`,
    /// which the reader and writer use unless given another registry.
    pub fn builtin_only() -> &'static DialectRegistry {
        static BUILTIN: OnceLock<DialectRegistry> = OnceLock::new();
        BUILTIN.get_or_init(|| {
            let mut r = DialectRegistry::new();
            r.register(Arc::new(BuiltinDialect));
            r
        })
    }

    /// The hook that reads and writes the properties of `op`, if any.
    pub fn properties_hook(&self, op: &[u8]) -> Option<&Arc<dyn BytecodeDialect>> {
        let dialect = op.split(|&c| c == b'.').next()?;
        self.get(dialect).filter(|h| h.handles_properties(op))
    }
}

/// The ops under `top` (itself included), in pre-order.
pub fn walk_ops(m: &Module, top: OpId) -> Vec<OpId> {
    let mut out = Vec::new();
    let mut stack = vec![top];
    while let Some(op) = stack.pop() {
        out.push(op);
        for &r in m.op(op).regions().iter().rev() {
            for &b in m.region(r).blocks.iter().rev() {
                stack.extend(m.block(b).ops.iter().rev().copied());
            }
        }
    }
    out
}

/// The builtin dialect's entry: registered so that it is found by name
/// like any other; it has no version, and its attribute and type encodings
/// are the reader's and writer's native fast paths (SPEC.md §6.6), not
/// routed through this trait.
pub struct BuiltinDialect;

impl BytecodeDialect for BuiltinDialect {
    fn name(&self) -> &str {
        "builtin"
    }
}

/// A `major.minor` version, the shape MLIR's test dialect (and many
/// others) use: two VarInts in the dialect section.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct MajorMinor {
    /// The major version.
    pub major: u64,
    /// The minor version.
    pub minor: u64,
}

impl fmt::Display for MajorMinor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

impl DialectVersion for MajorMinor {
    fn as_any(&self) -> &dyn Any {
        self
    }
}

impl MajorMinor {
    /// Reads the two VarInts of a version payload.
    pub fn read(r: &mut dyn DialectReader) -> HookResult<Arc<dyn DialectVersion>> {
        let major = r.read_varint()?;
        let minor = r.read_varint()?;
        Ok(Arc::new(MajorMinor { major, minor }))
    }

    /// Writes `v` as two VarInts; writes nothing if `v` is not a
    /// `MajorMinor`.
    pub fn write(v: &dyn DialectVersion, w: &mut dyn DialectWriter) {
        if let Some(v) = v.as_any().downcast_ref::<MajorMinor>() {
            w.write_varint(v.major);
            w.write_varint(v.minor);
        }
    }

    /// `"1.12"` → 1.12.
    pub fn parse(text: &str) -> HookResult<Arc<dyn DialectVersion>> {
        let (a, b) = text
            .split_once('.')
            .ok_or_else(|| HookError(format!("expected MAJOR.MINOR, got '{text}'")))?;
        let n = |s: &str| {
            s.parse::<u64>()
                .map_err(|_| HookError(format!("expected MAJOR.MINOR, got '{text}'")))
        };
        Ok(Arc::new(MajorMinor {
            major: n(a)?,
            minor: n(b)?,
        }))
    }

    /// The version a hook call sees: `v` when it is a `MajorMinor`, else
    /// `current` (MLIR's readers assume the current version when a file
    /// declares none).
    pub fn or_current(v: Option<Arc<dyn DialectVersion>>, current: MajorMinor) -> MajorMinor {
        v.and_then(|v| MajorMinor::of(v.as_ref()))
            .unwrap_or(current)
    }

    /// The `MajorMinor` inside a version, if that is what it is.
    pub fn of(v: &dyn DialectVersion) -> Option<MajorMinor> {
        v.as_any().downcast_ref::<MajorMinor>().copied()
    }
}
