//! IR → MLIR bytecode, versions 0–6 (SPEC.md §6), byte-identical to
//! `mlir-opt --emit-bytecode` of MLIR 22 where the IR carries what
//! mlir-opt knows.
//!
//! The writer numbers the IR first (which tables hold what, in which
//! order), then builds each section into its own buffer — dialects, the
//! attribute/type tables, the IR (collecting properties payloads),
//! resources, strings, properties — and frames them in MLIR's order.
//!
//! Unlike MLIR, it never drops data silently: IR that the requested
//! version cannot represent (properties before v5) is an error naming
//! what would be lost.

mod affine_entries;
mod dialect_entries;
mod dialect_hooks;
mod encoder;
mod entries;
mod interner;
mod numbering;
mod properties;
mod sections;
pub(crate) mod text_entry;
pub use text_entry::{attr_text, type_text};
mod use_list_orders;

use encoder::{header, Encoder};
use numbering::Numbering;
use rmlir_format::bytecode::{SectionId, VERSION_CURRENT, VERSION_NATIVE_PROPERTIES};
use rmlir_format::dialect_hooks::DialectRegistry;
use rmlir_format::op_registry::{OpInfo, OpRegistry};
use rmlir_format::*;
use sections::{FrozenStrings, IrWriter, Missed, Strings};
use std::fmt;
use use_list_orders::UseListOrders;

/// Options of [`write_bytecode`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WriteOptions {
    /// The bytecode version to write (0–6).
    pub version: u64,
    /// The producer string stored in the header.
    pub producer: String,
    /// Versions to write for hooked dialects, as `(dialect, version)`
    /// (e.g. `("test", "1.12")`), parsed by each dialect's hook; the others
    /// write their current version (SPEC.md §9).
    pub dialect_versions: Vec<(String, String)>,
    /// Which builtin encodings to use: MLIR 22's (the default, what
    /// mlir-opt 22 reads) or also those MLIR added after 22 (SPEC.md
    /// §6.6.6), which only newer readers (IREE 3.13's `MLIR24.0.0git`)
    /// understand.
    pub builtin_encodings: BuiltinEncodings,
    /// The order of the use-list records of one op's results or one
    /// block's arguments (SPEC.md §6.10.6): MLIR 22's hash order (the
    /// default) or MLIR 23's ascending one.
    pub use_list_records: UseListRecordOrder,
    /// The MLIR release (major) the file is written for: a dialect
    /// encoding that changed after MLIR 22 is written as that release
    /// reads it (llvm's `DICompileUnitAttr`; SPEC.md §6.6.5). Default 22.
    pub mlir_major: u32,
}

/// The order in which a range's use-list records are written (SPEC.md
/// §6.10.6). It shows only where one op's results (or one block's
/// arguments) carry three or more records.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum UseListRecordOrder {
    /// MLIR 22 collects them in an LLVM `DenseMap<unsigned, …>` and writes
    /// them in its bucket order.
    #[default]
    HashOrder,
    /// MLIR 23 on collects them in a `MapVector` (llvm/llvm-project#187819)
    /// and writes them by ascending index, as jaxlib 0.10.2 and IREE 3.13
    /// do.
    Ascending,
}

/// The set of builtin attribute and type encodings a writer uses (SPEC.md
/// §6.6.6). Newer MLIR writes them at every bytecode version, so the
/// bytecode version alone does not say which a reader knows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BuiltinEncodings {
    /// MLIR 22's: affine maps, integer sets, strided layouts and the
    /// small float types (`f8E4M3FN`, `tf32`, …) are textual entries.
    #[default]
    Mlir22,
    /// MLIR 23's, as `MLIR23.0.0git` (jaxlib 0.10.2) writes them: the small
    /// float types in binary (type codes 21–32), affine maps, integer sets
    /// and strided layouts still as text (checked with jaxlib's
    /// `write_bytecode` on 2026-11-27).
    Mlir23,
    /// Also the binary encodings of those, as `MLIR24.0.0git` (IREE 3.13)
    /// writes them: attribute codes 23–25, type codes 21–32.
    Mlir24,
}

impl Default for WriteOptions {
    fn default() -> Self {
        WriteOptions {
            version: VERSION_CURRENT,
            producer: "MLIR22.1.8".to_string(),
            dialect_versions: Vec::new(),
            builtin_encodings: BuiltinEncodings::Mlir22,
            use_list_records: UseListRecordOrder::HashOrder,
            mlir_major: 22,
        }
    }
}

/// IR that cannot be written as requested.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WriteError {
    /// `file:line:col` of the operation concerned, when known.
    location: Option<String>,
    message: String,
}

impl WriteError {
    /// An error with `message` and no location.
    pub fn new(message: impl Into<String>) -> Self {
        WriteError {
            location: None,
            message: message.into(),
        }
    }

    /// An error about operation `op`, located at its location.
    fn at(m: &Module, op: OpId, message: String) -> Self {
        WriteError {
            location: loc_string(m, m.op(op).loc, 0),
            message,
        }
    }

    /// What could not be written, without the location.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// `file:line:col` of the operation concerned, when known.
    pub fn location(&self) -> Option<&str> {
        self.location.as_deref()
    }
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.location {
            Some(l) => write!(f, "{l}: error: {}", self.message),
            None => write!(f, "error: {}", self.message),
        }
    }
}

impl std::error::Error for WriteError {}

/// The first `file:line:col` inside a location.
fn loc_string(m: &Module, l: AttrId, depth: usize) -> Option<String> {
    if depth > 64 {
        return None;
    }
    match m.ctx.attr(l) {
        AttrData::FileLineCol { file, line, col } => {
            Some(format!("{}:{line}:{col}", String::from_utf8_lossy(file)))
        }
        AttrData::FileLineColRange(r) => Some(format!(
            "{}:{}:{}",
            String::from_utf8_lossy(&r.file),
            r.start_line,
            r.start_col.unwrap_or(0)
        )),
        AttrData::NameLoc { child, .. } => loc_string(m, *child, depth + 1),
        AttrData::CallSiteLoc { callee, .. } => loc_string(m, *callee, depth + 1),
        AttrData::FusedLoc { locations, .. } => {
            locations.iter().find_map(|&x| loc_string(m, x, depth + 1))
        }
        _ => None,
    }
}

/// Dialect resources the writer can represent: builtin blobs. (Builtin
/// entries no `dense_resource` refers to are not written, as MLIR drops
/// them; the text printer drops them too.)
fn check_resources(m: &Module) -> Result<(), WriteError> {
    for g in &m.resources.dialect {
        let name = String::from_utf8_lossy(&g.name);
        if &g.name[..] != b"builtin" {
            if let Some((k, _)) = g.entries.first() {
                return Err(WriteError::new(format!(
                    "cannot write resource '{}' of dialect '{name}': only builtin dialect resources are supported; it would be lost",
                    String::from_utf8_lossy(k)
                )));
            }
            continue;
        }
        for (k, v) in &g.entries {
            if !matches!(v, ResourceValue::Blob { .. }) {
                return Err(WriteError::new(format!(
                    "builtin resource '{}' is not a blob; builtin resources are blobs",
                    String::from_utf8_lossy(k)
                )));
            }
        }
    }
    for g in m.resources.dialect.iter().chain(&m.resources.external) {
        for (k, v) in &g.entries {
            if let ResourceValue::Blob { alignment, data } = v {
                // An empty blob of alignment 0 (as mlir-opt prints empty
                // blobs) is written with alignment 1 (see sections.rs).
                if !(alignment.is_power_of_two() || (*alignment == 0 && data.is_empty())) {
                    return Err(WriteError::new(format!(
                        "resource '{}' has alignment {alignment}, which bytecode readers reject (it must be a power of two)",
                        String::from_utf8_lossy(k)
                    )));
                }
            }
        }
    }
    Ok(())
}

/// The deepest region nesting the writer accepts: it writes operations,
/// regions and blocks recursively, and 1,024 levels fit a 2 MiB thread
/// stack with room to spare (`tests/tests/deep_nesting.rs`). Our reader's
/// default limit is lower (`rmlir_reader::Limits`).
pub const MAX_REGION_DEPTH: usize = 1024;

/// Refuses modules nested deeper than [`MAX_REGION_DEPTH`], walking them
/// without recursion.
fn check_region_depth(m: &Module) -> Result<(), WriteError> {
    let Some(top) = m.top else {
        return Ok(());
    };
    let mut stack: Vec<(OpId, usize)> = vec![(top, 0)];
    while let Some((op, depth)) = stack.pop() {
        for &r in m.op(op).regions() {
            if depth + 1 > MAX_REGION_DEPTH {
                return Err(WriteError::new(format!(
                    "regions nested deeper than the writer's limit of {MAX_REGION_DEPTH}"
                )));
            }
            for &b in &m.region(r).blocks {
                for &inner in &m.block(b).ops {
                    stack.push((inner, depth + 1));
                }
            }
        }
    }
    Ok(())
}

/// Refuses operands whose value is not visible where it is used: defined
/// in a region that does not enclose the use, or outside an isolated op
/// the use is inside. Bytecode numbers values per region range (sibling
/// regions reuse ids, isolated regions restart at 0), so such a reference
/// would silently read back as another value. The text parser accepts
/// them (MLIR's verifier, which we do not have, rejects them); found by
/// fuzzing `text_roundtrip`.
fn check_value_scopes(m: &Module, isolated: &[bool]) -> Result<(), WriteError> {
    let Some(top) = m.top else {
        return Ok(());
    };
    let def_region = |v: ValueId| match m.value(v).def {
        ValueDef::Result { op, .. } => m.op(op).parent.and_then(|b| m.block(b).parent),
        ValueDef::BlockArg { block, .. } => m.block(block).parent,
        ValueDef::Placeholder => None,
    };
    let mut stack = vec![top];
    while let Some(op) = stack.pop() {
        let o = m.op(op);
        for &r in o.regions() {
            for &b in &m.region(r).blocks {
                stack.extend(m.block(b).ops.iter().copied());
            }
        }
        let Some(use_region) = o.parent.and_then(|b| m.block(b).parent) else {
            continue;
        };
        for &v in m.operands(op) {
            let Some(want) = def_region(v) else {
                return Err(WriteError::at(
                    m,
                    op,
                    "operand is an unresolved value".into(),
                ));
            };
            // Walk out from the use until the defining region, stopping at
            // an isolated op.
            let mut r = use_region;
            let visible = loop {
                if r == want {
                    break true;
                }
                let Some(parent_op) = m.region(r).parent else {
                    break false;
                };
                if isolated.get(parent_op.index()).copied().unwrap_or(false) {
                    break false;
                }
                match m.op(parent_op).parent.and_then(|b| m.block(b).parent) {
                    Some(outer) => r = outer,
                    None => break false,
                }
            };
            if !visible {
                return Err(WriteError::at(
                    m,
                    op,
                    "operand uses a value that is not visible here (defined in a region that does not enclose this use, or outside an isolated operation); bytecode would read it back as another value".into(),
                ));
            }
        }
    }
    Ok(())
}

/// The layout the writer writes op `name` of `m` with: the registry's,
/// unless the file `m` was read from marked the op unregistered (SPEC.md
/// §10.3), which it then stays.
pub(crate) fn op_info<'r>(m: &Module, registry: &'r OpRegistry, name: &[u8]) -> Option<&'r OpInfo> {
    let info = registry.get(name)?;
    if !m.unregistered_names.is_empty() && m.unregistered_names.iter().any(|n| &n[..] == name) {
        return None;
    }
    Some(info)
}

/// `registry` without the ops of `m` that the tool of release `mlir_major`
/// reads and writes unregistered (`Host::leaves_unregistered`: ops of an
/// upstream dialect it does not register, such as mlir-opt 22's `vcix`),
/// so that they are written unregistered, as that tool writes them
/// (SPEC.md §7.4). `registry` itself when `m` has none.
fn as_target_registers(
    m: &Module,
    registry: &'static OpRegistry,
    mlir_major: u32,
) -> &'static OpRegistry {
    let Some(host) = rmlir_dialects::hosts::Host::for_release(mlir_major) else {
        return registry;
    };
    let mut names = (0..m.op_names.len() as u32).map(|i| m.op_names.get(rmlir_format::OpNameId(i)));
    if !names.any(|n| host.leaves_unregistered(n) && registry.get(n).is_some()) {
        return registry;
    }
    host.without_unregistered(registry)
}

/// Writes `m` as MLIR bytecode, with mlir-opt 22's op layouts and the
/// default dialect hooks.
pub fn write_bytecode(m: &Module, opts: &WriteOptions) -> Result<Vec<u8>, WriteError> {
    write_bytecode_with(
        m,
        opts,
        OpRegistry::default_ref(),
        rmlir_dialects::upstream(),
    )
}

/// Writes `m` as MLIR bytecode with the given op layouts and dialect hooks.
pub fn write_bytecode_with(
    m: &Module,
    opts: &WriteOptions,
    registry: &'static OpRegistry,
    dialects: &DialectRegistry,
) -> Result<Vec<u8>, WriteError> {
    encode_bytecode(m, opts, registry, dialects).map(Bytecode::into_vec)
}

/// A finished bytecode file, not yet assembled: its large resource blobs
/// are still references to the module's (possibly memory-mapped) blobs
/// (SPEC.md §6.10). [`Bytecode::write_to`] streams it to a file without
/// ever holding a copy of the blobs, so converting a module with a 64 MiB
/// blob needs about 64 MiB, not three times that.
pub struct Bytecode(Encoder);

impl Bytecode {
    /// The size of the file in bytes.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether the file has no bytes at all.
    pub fn is_empty(&self) -> bool {
        self.0.len() == 0
    }

    /// Writes the file to `w`, blobs straight from where they are.
    pub fn write_to(&self, w: &mut dyn std::io::Write) -> std::io::Result<()> {
        self.0.write_to(w)
    }

    /// The file as one buffer (copies the blobs).
    pub fn into_vec(self) -> Vec<u8> {
        self.0.into_vec()
    }
}

/// From this many ops on, [`encode_bytecode`] runs its read-only checks
/// on a second thread: below it, the thread costs more than it saves.
const PARALLEL_WRITE_MIN_OPS: usize = 4096;

/// A scoped thread's result, its panic passed on.
fn join<T>(h: std::thread::ScopedJoinHandle<'_, T>) -> T {
    h.join()
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}

/// Encodes `m` like [`write_bytecode_with`], without assembling the bytes.
pub fn encode_bytecode(
    m: &Module,
    opts: &WriteOptions,
    registry: &'static OpRegistry,
    dialects: &DialectRegistry,
) -> Result<Bytecode, WriteError> {
    let beside = m.ops.len() >= PARALLEL_WRITE_MIN_OPS;
    encode_on(m, opts, registry, dialects, beside)
}

/// [`write_bytecode`] on two threads (`true`) or one, whatever the size
/// of the module: the bytes and errors must not depend on it, which the
/// corpus test checks case by case (SPEC.md §6.10.7).
#[doc(hidden)]
pub fn write_bytecode_on_threads(
    m: &Module,
    opts: &WriteOptions,
    dialects: &DialectRegistry,
    two: bool,
) -> Result<Vec<u8>, WriteError> {
    encode_on(m, opts, OpRegistry::default_ref(), dialects, two).map(Bytecode::into_vec)
}

fn encode_on(
    m: &Module,
    opts: &WriteOptions,
    registry: &'static OpRegistry,
    dialects: &DialectRegistry,
    beside: bool,
) -> Result<Bytecode, WriteError> {
    let version = opts.version;
    if version > VERSION_CURRENT {
        return Err(WriteError::new(format!(
            "unsupported version requested {version}, must be in range [0, {VERSION_CURRENT}]"
        )));
    }
    if opts.producer.as_bytes().contains(&0) {
        return Err(WriteError::new("the producer string must not contain NUL"));
    }
    let registry = as_target_registers(m, registry, opts.mlir_major);
    let checks = || check_resources(m).and_then(|()| check_region_depth(m));
    let hooks = match dialect_hooks::WriteHooks::new(dialects, &opts.dialect_versions) {
        Ok(mut h) => {
            h.mlir_major = opts.mlir_major;
            h
        }
        Err(e) => {
            checks()?;
            return Err(e);
        }
    };
    // Beside the numbering of names, attributes and types, on a large
    // module (SPEC.md §6.10.7): which ops' regions are isolated, the
    // values' numbers (which need it), the checks that only read the
    // module (the value-scope check needs the isolation too) and the
    // use-list orders (derived here for a text parse that left them
    // pending). Errors are reported in the order of a one-thread write.
    let side = || {
        let (isolated, values) = match m.top {
            Some(top) => {
                let isolated = numbering::compute_isolation(m, top, registry);
                let values = numbering::number_values(m, top, &isolated);
                (isolated, Some(values))
            }
            None => (Vec::new(), None),
        };
        (
            checks(),
            UseListOrders::new(m, opts.use_list_records),
            check_value_scopes(m, &isolated),
            isolated,
            values,
        )
    };
    let ((checked, use_lists, scopes, isolated, values), num) = if beside {
        std::thread::scope(|s| {
            let side = s.spawn(side);
            let num = Numbering::run(m, version, opts.builtin_encodings, registry, &hooks);
            (join(side), num)
        })
    } else {
        let side = side();
        (
            side,
            Numbering::run(m, version, opts.builtin_encodings, registry, &hooks),
        )
    };
    checked?;
    let mut num = num?;
    scopes?;
    if let Some(values) = values {
        num.set_values(isolated, values);
    }
    let mut strings = Strings::default();
    let dialect = sections::dialect_section(&num, &mut strings);
    let (at_sections, ir, props) = if beside {
        // The IR section is encoded beside the attribute and type tables
        // (SPEC.md §6.10.7), with the strings the
        // dialect section added: it rarely adds any. Where it would, it
        // is encoded again once the tables are, as on one thread.
        let mut frozen = FrozenStrings(strings.clone());
        let (at, (ir, props, use_lists)) = std::thread::scope(|s| {
            let ir = s.spawn(|| {
                let mut w = IrWriter::new(&num, &mut frozen, use_lists);
                let ir = w.section();
                (ir, w.props, w.use_lists)
            });
            let at = sections::attr_type_sections(&num, &mut strings);
            (at, join(ir))
        });
        let at = at?;
        match ir {
            Err(e) if e == Missed::String.error() => {
                let mut w = IrWriter::new(&num, &mut strings, use_lists);
                let ir = w.section()?;
                (at, ir, w.props)
            }
            ir => (at, ir?, props),
        }
    } else {
        let at = sections::attr_type_sections(&num, &mut strings)?;
        let mut w = IrWriter::new(&num, &mut strings, use_lists);
        let ir = w.section()?;
        (at, ir, w.props)
    };
    let (at_offsets, at_data) = at_sections;
    let (res_offsets, res_data) = sections::resource_sections(&num, &mut strings);

    let mut file: Encoder = header(version, &opts.producer);
    file.section(SectionId::Dialect, dialect);
    file.section(SectionId::AttrTypeOffset, at_offsets);
    file.section(SectionId::AttrType, at_data);
    file.section(SectionId::Ir, ir);
    file.section(SectionId::ResourceOffset, res_offsets);
    file.section(SectionId::Resource, res_data);
    file.section(SectionId::String, strings.encode());
    if version >= VERSION_NATIVE_PROPERTIES {
        file.section(SectionId::Properties, props.encode());
    }
    Ok(Bytecode(file))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `module {}` from a file `e1.mlir` (SPEC.md §6, the facts sheet's
    /// worked example, checked against mlir-opt 22).
    fn empty_module() -> Module {
        let mut m = Module::new();
        let loc = m.ctx.intern_attr(AttrData::FileLineCol {
            file: b"e1.mlir"[..].into(),
            line: 1,
            col: 1,
        });
        let empty = m.ctx.intern_attr(AttrData::Dictionary(Vec::new()));
        let r = m.new_region();
        let b = m.new_block();
        m.push_block(r, b);
        let name = m.op_names.intern(b"builtin.module");
        let op = m.new_op(name, &[], &[], vec![], None, empty, vec![r], loc);
        m.top = Some(op);
        m
    }

    fn hex(s: &str) -> Vec<u8> {
        let s: String = s.split_whitespace().collect();
        (0..s.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
            .collect()
    }

    const PRODUCER: &str = "4d4c495232322e312e3800";
    const STRINGS: &str = "0037 07110f11 6275696c74696e00 6d6f64756c6500 65312e6d6c697200";

    #[test]
    fn empty_module_v6() {
        let expected = hex(&format!(
            "4d4cef52 0d {PRODUCER} 010d 030103010307 030d 050101051 30b 020d 170303030505 \
             0417 05 0150010107 0407030101 060301 0501 {STRINGS} 0809 03050101"
        ));
        let got = write_bytecode(&empty_module(), &WriteOptions::default()).unwrap();
        assert_eq!(got.len(), 93);
        assert_eq!(got, expected);
    }

    #[test]
    fn empty_module_v0() {
        let expected = hex(&format!(
            "4d4cef52 01 {PRODUCER} 010b 0301010303 030d 05010105130b 020d 170303030505 \
             0411 05 01100107 030101 060301 0501 {STRINGS}"
        ));
        let opts = WriteOptions {
            version: 0,
            ..Default::default()
        };
        let got = write_bytecode(&empty_module(), &opts).unwrap();
        assert_eq!(got.len(), 83);
        assert_eq!(got, expected);
    }

    #[test]
    fn versions_above_6_are_rejected() {
        let opts = WriteOptions {
            version: 7,
            ..Default::default()
        };
        let e = write_bytecode(&empty_module(), &opts).unwrap_err();
        assert_eq!(
            e.to_string(),
            "error: unsupported version requested 7, must be in range [0, 6]"
        );
    }

    /// `n` ops `t.a` (one `i32` result each) in `module {}`, then an op
    /// with a region whose op defines a value, and a last op that uses
    /// that value from outside the region: a value-scope error.
    fn scope_error_module(n: usize) -> Module {
        let mut m = empty_module();
        let top = m.top.unwrap();
        let block = m.region(m.op(top).regions()[0]).blocks[0];
        let empty = m.ctx.intern_attr(AttrData::Dictionary(Vec::new()));
        let loc = m.ctx.intern_attr(AttrData::UnknownLoc);
        let i32t = m.ctx.intern_type(TypeData::Integer {
            width: 32,
            signedness: rmlir_format::Signedness::Signless,
        });
        let a = m.op_names.intern(b"t.a");
        for _ in 0..n {
            let op = m.new_op(a, &[], &[i32t], vec![], None, empty, vec![], loc);
            m.push_op(block, op);
        }
        let r = m.new_region();
        let inner_block = m.new_block();
        m.push_block(r, inner_block);
        let inner = m.new_op(a, &[], &[i32t], vec![], None, empty, vec![], loc);
        m.push_op(inner_block, inner);
        let hidden = m.op(inner).results().next().unwrap();
        let holder = m.op_names.intern(b"t.holder");
        let h = m.new_op(holder, &[], &[], vec![], None, empty, vec![r], loc);
        m.push_op(block, h);
        let user = m.op_names.intern(b"t.use");
        let u = m.new_op(user, &[hidden], &[], vec![], None, empty, vec![], loc);
        m.push_op(block, u);
        m
    }

    /// A module large enough for the checks to run beside the numbering
    /// (§6.10.7) reports what a small one reports, and the first check's
    /// error where two checks fail.
    #[test]
    fn checks_beside_the_numbering_report_in_order() {
        let small = scope_error_module(3);
        let large = scope_error_module(PARALLEL_WRITE_MIN_OPS + 10);
        assert!(large.ops.len() >= PARALLEL_WRITE_MIN_OPS);
        let err = |m: &Module| {
            write_bytecode(m, &WriteOptions::default())
                .unwrap_err()
                .to_string()
        };
        assert!(err(&small).contains("not visible here"), "{}", err(&small));
        assert_eq!(err(&small), err(&large));
        // A resource error comes before the scope error (and before the
        // numbering's), on both paths.
        for mut m in [small, large] {
            m.resources.dialect.push(ResourceGroup {
                name: b"foo"[..].into(),
                entries: vec![(b"k"[..].into(), ResourceValue::Bool(true))],
            });
            let bad = m.op_names.intern(b"t.bad.");
            let top = m.top.unwrap();
            let block = m.region(m.op(top).regions()[0]).blocks[0];
            let (empty, loc) = (m.op(top).attributes, m.op(top).loc);
            let op = m.new_op(bad, &[], &[], vec![], None, empty, vec![], loc);
            m.push_op(block, op);
            assert!(
                err(&m).contains("only builtin dialect resources"),
                "{}",
                err(&m)
            );
        }
    }

    /// A dialect whose `tagged.op` writes its properties itself, as a
    /// string: a string only the IR section adds to the table.
    struct Tagged;

    impl rmlir_format::dialect_hooks::BytecodeDialect for Tagged {
        fn name(&self) -> &str {
            "tagged"
        }
        fn handles_properties(&self, op: &[u8]) -> bool {
            op == b"tagged.op"
        }
        fn write_properties(
            &self,
            _: &[u8],
            props: Option<AttrId>,
            w: &mut dyn rmlir_format::dialect_hooks::DialectWriter,
        ) -> rmlir_format::dialect_hooks::HookResult<()> {
            let name = match props.map(|p| w.ctx().attr(p).clone()) {
                Some(AttrData::Dictionary(d)) => match d.first().map(|(_, v)| w.ctx().attr(*v)) {
                    Some(AttrData::String { value, .. }) => value.to_vec(),
                    _ => Vec::new(),
                },
                _ => Vec::new(),
            };
            w.write_string(&name);
            Ok(())
        }
    }

    /// The IR section, encoded beside the tables on a copy of the string
    /// table, meets strings that are not in it yet: it is encoded again
    /// after the tables, and the bytes are those of a one-thread write.
    #[test]
    fn ir_strings_new_to_the_table_are_written_as_on_one_thread() {
        let mut dialects = rmlir_dialects::upstream().clone();
        dialects.register(std::sync::Arc::new(Tagged));
        let mut m = empty_module();
        let top = m.top.unwrap();
        let block = m.region(m.op(top).regions()[0]).blocks[0];
        let empty = m.ctx.intern_attr(AttrData::Dictionary(Vec::new()));
        let loc = m.ctx.intern_attr(AttrData::UnknownLoc);
        let name = m.op_names.intern(b"tagged.op");
        for tag in ["alpha", "beta", "alpha", "gamma"] {
            let s = m.ctx.intern_attr(AttrData::String {
                value: tag.as_bytes().into(),
                ty: None,
            });
            let props = m
                .ctx
                .intern_attr(AttrData::Dictionary(vec![(b"name"[..].into(), s)]));
            let op = m.new_op(name, &[], &[], vec![], Some(props), empty, vec![], loc);
            m.push_op(block, op);
        }
        let opts = WriteOptions::default();
        let one = write_bytecode_on_threads(&m, &opts, &dialects, false).unwrap();
        let two = write_bytecode_on_threads(&m, &opts, &dialects, true).unwrap();
        assert_eq!(one, two);
        let tags = |b: &[u8]| {
            ["alpha", "beta", "gamma"]
                .iter()
                .all(|t| b.windows(t.len()).any(|w| w == t.as_bytes()))
        };
        assert!(tags(&one), "the strings are in the file");
    }

    /// Properties of an unregistered op need v5: older versions refuse
    /// instead of dropping them.
    #[test]
    fn unregistered_properties_below_v5_are_an_error() {
        let mut m = empty_module();
        let top = m.top.unwrap();
        let block = m.region(m.op(top).regions()[0]).blocks[0];
        let unit = m.ctx.intern_attr(AttrData::Unit);
        let props = m
            .ctx
            .intern_attr(AttrData::Dictionary(vec![(b"flag"[..].into(), unit)]));
        let empty = m.ctx.intern_attr(AttrData::Dictionary(Vec::new()));
        let loc = m.ctx.intern_attr(AttrData::FileLineCol {
            file: b"e1.mlir"[..].into(),
            line: 2,
            col: 3,
        });
        let name = m.op_names.intern(b"foo.bar");
        let op = m.new_op(name, &[], &[], vec![], Some(props), empty, vec![], loc);
        m.push_op(block, op);
        for v in 0..5 {
            let opts = WriteOptions {
                version: v,
                ..Default::default()
            };
            let e = write_bytecode(&m, &opts).unwrap_err();
            assert_eq!(
                e.to_string(),
                format!("e1.mlir:2:3: error: bytecode version {v} cannot hold the properties of unregistered operation 'foo.bar' (properties need version 5 or later); they would be lost")
            );
        }
        assert!(write_bytecode(&m, &WriteOptions::default()).is_ok());
    }
}
