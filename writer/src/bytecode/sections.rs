//! One encoder per section (SPEC.md §6.3–§6.9), each built into its own
//! buffer from the finished numbering; the file encoder frames them.

use super::dialect_entries;
use super::encoder::Encoder;
use super::entries::{self, Sink};
use super::interner::{AttrRef, Interned};
use super::numbering::{builtin_blob, Numbering};
use super::properties::{self, OpProps};
use super::text_entry;
use super::use_list_orders::UseListOrders;
use super::WriteError;
use rmlir_format::bytecode::op_mask;
use rmlir_format::bytecode::{
    resource_kind, SectionId, VERSION_DIALECT_VERSIONING, VERSION_ELIDE_UNKNOWN_BLOCK_ARG_LOC,
    VERSION_LAZY_LOADING, VERSION_NATIVE_PROPERTIES, VERSION_USE_LIST_ORDERING,
};
use rmlir_format::fasthash::FastMap as HashMap;
use rmlir_format::*;
use std::sync::Arc;

/// The string table: strings get indices in order of first use.
#[derive(Clone, Default)]
pub struct Strings {
    list: Vec<Bytes>,
    index: HashMap<Bytes, u64>,
}

impl Strings {
    pub fn insert(&mut self, s: &[u8]) -> u64 {
        if let Some(&i) = self.index.get(s) {
            return i;
        }
        let i = self.list.len() as u64;
        self.list.push(s.into());
        self.index.insert(s.into(), i);
        i
    }

    /// Count, sizes (with the NUL) last string first, then the strings.
    pub fn encode(&self) -> Encoder {
        let mut e = Encoder::new();
        e.varint(self.list.len() as u64);
        for s in self.list.iter().rev() {
            e.varint(s.len() as u64 + 1);
        }
        for s in &self.list {
            e.cstr(s);
        }
        e
    }
}

/// Where a section's encoder gets string indices: the table itself, or
/// (for the IR section encoded beside the attribute and type tables,
/// SPEC.md §6.10.7) a copy of its first strings, which can only look up.
pub trait StringIndex {
    /// The index of `s`; `None` when it is not there and cannot be added.
    fn index_of(&mut self, s: &[u8]) -> Option<u64>;
}

impl StringIndex for Strings {
    fn index_of(&mut self, s: &[u8]) -> Option<u64> {
        Some(self.insert(s))
    }
}

/// The strings of a table as they were when copied: their indices do not
/// change as the table grows.
pub struct FrozenStrings(pub Strings);

impl StringIndex for FrozenStrings {
    fn index_of(&mut self, s: &[u8]) -> Option<u64> {
        self.0.index.get(s).copied()
    }
}

/// Properties payloads, deduplicated, in first-emission order.
#[derive(Default)]
pub struct PropertiesTable {
    /// The distinct payloads, back to back.
    data: Vec<u8>,
    /// Where each entry ends in `data`.
    ends: Vec<usize>,
    /// Entry numbers by the hash of their payload.
    index: hashbrown::HashTable<u32>,
}

impl PropertiesTable {
    fn entry(&self, i: u32) -> &[u8] {
        entry_of(&self.data, &self.ends, i)
    }

    fn hash(payload: &[u8]) -> u64 {
        use std::hash::BuildHasher;
        rmlir_format::fasthash::FastBuildHasher::default().hash_one(payload)
    }

    /// The number of `payload`'s entry, added if it is new: ops with equal
    /// payloads share one (SPEC.md §6.9). Payloads are kept once, in one
    /// buffer: a large module has tens of thousands.
    fn emit(&mut self, payload: &[u8]) -> u64 {
        let h = Self::hash(payload);
        if let Some(&i) = self.index.find(h, |&i| self.entry(i) == payload) {
            return u64::from(i);
        }
        let i = u32::try_from(self.ends.len()).expect("fewer than 2^32 properties entries");
        self.data.extend_from_slice(payload);
        self.ends.push(self.data.len());
        let (data, ends) = (&self.data, &self.ends);
        self.index
            .insert_unique(h, i, |&j| Self::hash(entry_of(data, ends, j)));
        u64::from(i)
    }

    pub fn encode(&self) -> Encoder {
        let mut e = Encoder::new();
        e.varint(self.ends.len() as u64);
        for i in 0..self.ends.len() as u32 {
            e.blob(self.entry(i));
        }
        e
    }
}

/// Entry `i` of payloads kept back to back in `data`, entry `k` ending at
/// `ends[k]`.
fn entry_of<'d>(data: &'d [u8], ends: &[usize], i: u32) -> &'d [u8] {
    let start = match i {
        0 => 0,
        _ => ends[i as usize - 1],
    };
    &data[start..ends[i as usize]]
}

/// Writes encodings as bytes, resolving references to final indices. The
/// numbering resolved every reference first, so this only looks them up
/// (and can share the numbering with another thread); a reference it
/// cannot find, or a string `strings` cannot index, sets `missed`.
pub struct EncodeSink<'a, 'm, S: StringIndex = Strings> {
    pub out: &'a mut Encoder,
    pub num: &'a Numbering<'m>,
    pub strings: &'a mut S,
    pub missed: Option<Missed>,
}

/// What an [`EncodeSink`] could not write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Missed {
    /// An attribute the numbering did not resolve (a writer bug).
    Attribute,
    /// A string not in a [`FrozenStrings`].
    String,
}

impl<'a, 'm, S: StringIndex> EncodeSink<'a, 'm, S> {
    pub fn new(out: &'a mut Encoder, num: &'a Numbering<'m>, strings: &'a mut S) -> Self {
        EncodeSink {
            out,
            num,
            strings,
            missed: None,
        }
    }

    fn attr_index(&mut self, a: AttrRef<'_>) -> u64 {
        match self.num.space.resolved(a) {
            Some(id) => self.num.attr_idx(id),
            None => {
                self.missed.get_or_insert(Missed::Attribute);
                0
            }
        }
    }

    /// `Ok` when everything was written, else the error to report.
    pub fn finish(self) -> Result<(), Missed> {
        self.missed.map_or(Ok(()), Err)
    }
}

impl Missed {
    pub fn error(self) -> WriteError {
        WriteError::new(match self {
            Missed::Attribute => "internal error: an attribute reference the numbering did not resolve (please report this)",
            Missed::String => "internal error: a string the IR section needed was not in the table",
        })
    }
}

impl<S: StringIndex> Sink for EncodeSink<'_, '_, S> {
    const NUMBERING: bool = false;
    fn attr(&mut self, a: AttrRef<'_>) {
        let i = self.attr_index(a);
        self.out.varint(i);
    }
    fn opt_attr(&mut self, a: Option<AttrRef<'_>>) {
        match a {
            Some(a) => {
                let i = self.attr_index(a);
                self.out.varint_flag(i, true);
            }
            None => self.out.varint(0),
        }
    }
    fn ty(&mut self, t: TypeId) {
        self.out.varint(self.num.type_idx(t));
    }
    fn varint(&mut self, v: u64) {
        self.out.varint(v);
    }
    fn signed_varint(&mut self, v: i64) {
        self.out.signed_varint(v);
    }
    fn byte(&mut self, b: u8) {
        self.out.byte(b);
    }
    fn string(&mut self, s: &[u8]) {
        let i = match self.strings.index_of(s) {
            Some(i) => i,
            None => {
                self.missed.get_or_insert(Missed::String);
                0
            }
        };
        self.out.varint(i);
    }
    fn blob(&mut self, b: &[u8]) {
        self.out.blob(b);
    }
    fn resource(&mut self, key: &[u8]) {
        let h = self.num.resource_ids.get(key).copied().unwrap_or(0);
        self.out.varint(u64::from(h));
    }
    fn type_bits(&self, t: TypeId) -> u32 {
        entries::type_bits(self.num.space.ty(t))
    }
    fn local_type(&self, t: TypeId) -> Option<TypeData> {
        (t.0 as usize >= self.num.space.ctx().num_types()).then(|| self.num.space.ty(t).clone())
    }
}

/// Runs of consecutive entries of the same dialect: `(dialect, range)`.
fn dialect_runs(dialects: impl Iterator<Item = u32>) -> Vec<(u32, std::ops::Range<usize>)> {
    let mut runs: Vec<(u32, std::ops::Range<usize>)> = Vec::new();
    for (i, d) in dialects.enumerate() {
        match runs.last_mut() {
            Some((rd, r)) if *rd == d => r.end = i + 1,
            _ => runs.push((d, i..i + 1)),
        }
    }
    runs
}

/// The version payload `name` writes: its hook's (SPEC.md §9), else
/// the payload the module was read with. mlir-opt 22's test dialect writes
/// its version whenever it is referenced, even by unregistered `test.*`
/// ops, and so do we.
fn dialect_version(num: &Numbering<'_>, name: &[u8]) -> Option<Vec<u8>> {
    if num.hooks.has_hook(name) {
        return num.hooks.version_payload(&num.m.ctx, name);
    }
    num.m
        .dialect_versions
        .iter()
        .find(|(d, _)| &d[..] == name)
        .map(|(_, v)| v.clone())
}

pub fn dialect_section(num: &Numbering<'_>, strings: &mut Strings) -> Encoder {
    let v = num.version;
    let mut e = Encoder::new();
    e.varint(num.dialects.len() as u64);
    for d in &num.dialects {
        let idx = strings.insert(d);
        if v < VERSION_DIALECT_VERSIONING {
            e.varint(idx);
            continue;
        }
        match dialect_version(num, d) {
            Some(payload) => {
                e.varint_flag(idx, true);
                let mut p = Encoder::new();
                p.raw(&payload);
                e.section(SectionId::DialectVersions, p);
            }
            None => e.varint_flag(idx, false),
        }
    }
    if v >= VERSION_ELIDE_UNKNOWN_BLOCK_ARG_LOC {
        e.varint(num.op_names.len() as u64);
    }
    for (d, range) in dialect_runs(num.op_names.iter().map(|it| it.dialect)) {
        e.varint(u64::from(d));
        e.varint(range.len() as u64);
        for it in &num.op_names[range] {
            let info = &num.op_name_info[&it.key];
            let idx = strings.insert(&info.suffix);
            if v < VERSION_NATIVE_PROPERTIES {
                e.varint(idx);
            } else {
                e.varint_flag(idx, info.registered);
            }
        }
    }
    e
}

/// A textual entry ends at its NUL; text holding a NUL byte (a raw NUL in
/// an opaque dialect attribute's string, which the text parser keeps as
/// MLIR's lexer does) cannot be one; nor can text whose body does not scan
/// back (`symbol_body::entry_rescans`). Refused rather than written
/// unreadable.
fn checked_text_entry(what: &str, text: String) -> Result<String, WriteError> {
    let why = if text.contains('\0') {
        "it contains a NUL byte".to_string()
    } else if let Err(e) = rmlir_format::symbol_body::entry_rescans(&text) {
        // Text that does not scan back as one symbol (`!foo<bar->`:
        // mlir-opt prints the data `bar-` so, and writes bytes it cannot
        // read back).
        format!("its text would not read back ({e})")
    } else {
        return Ok(text);
    };
    let shown: String = text.chars().take(80).collect();
    Err(WriteError::new(format!(
        "cannot write the {what} `{}` as a textual bytecode entry: {why}",
        shown.escape_debug()
    )))
}

/// How one entry of the attribute or type table is written.
enum TableEntry<B> {
    /// The builtin dialect's binary encoding of `B`.
    Builtin(B),
    /// Its dialect's custom encoding (SPEC.md §6.6.5).
    Dialect(Arc<dialect_entries::Custom>),
    /// Its text (checked by [`checked_text_entry`]), NUL-terminated.
    Text(String),
}

/// One table of the attribute/type section: per run of entries of one
/// dialect (`runs`), the dialect and the run's length, then per entry its
/// size and whether it has a custom (binary) encoding go to the offsets
/// encoder of `out`; the entries themselves to its data encoder. Entry `i`
/// of the table is written as `entry(num, i)` says, a builtin one by
/// `write_builtin`.
fn encode_table<'m, B>(
    runs: Vec<(u32, std::ops::Range<usize>)>,
    num: &Numbering<'m>,
    strings: &mut Strings,
    (offsets, data): &mut (Encoder, Encoder),
    entry: impl Fn(&Numbering<'m>, usize) -> Result<TableEntry<B>, WriteError>,
    write_builtin: impl Fn(&mut EncodeSink<'_, 'm>, B),
) -> Result<(), WriteError> {
    for (d, range) in runs {
        offsets.varint(u64::from(d));
        offsets.varint(range.len() as u64);
        for i in range {
            let start = data.len();
            let e = entry(num, i)?;
            let mut s = EncodeSink::new(data, num, strings);
            let custom = match e {
                TableEntry::Builtin(b) => {
                    write_builtin(&mut s, b);
                    true
                }
                TableEntry::Dialect(enc) => {
                    dialect_entries::write(&mut s, &enc);
                    true
                }
                TableEntry::Text(text) => {
                    s.out.cstr(text.as_bytes());
                    false
                }
            };
            s.finish().map_err(Missed::error)?;
            offsets.varint_flag((data.len() - start) as u64, custom);
        }
    }
    Ok(())
}

/// `(offsets, entries)`.
pub fn attr_type_sections(
    num: &Numbering<'_>,
    strings: &mut Strings,
) -> Result<(Encoder, Encoder), WriteError> {
    let mut out = (Encoder::new(), Encoder::new());
    out.0.varint(num.attrs.len() as u64);
    out.0.varint(num.types.len() as u64);
    let m: &Module = num.m;
    let ctx = &m.ctx;
    encode_table(
        dialect_runs(num.attrs.iter().map(|it| it.dialect)),
        num,
        strings,
        &mut out,
        |num, i| {
            let a = num.attrs[i].key;
            let d = num.space.get(a);
            if entries::attr_has_encoding(&d, num.space.builtins()) {
                Ok(TableEntry::Builtin((d, num.space.is_raw_dense(a))))
            } else if let Some(enc) = num.custom_attrs.get(&a) {
                Ok(TableEntry::Dialect(enc.clone()))
            } else {
                Ok(TableEntry::Text(checked_text_entry(
                    "attribute",
                    text_entry::attr_text(ctx, &d),
                )?))
            }
        },
        |s, (d, raw)| entries::write_attr(s, ctx, &d, raw),
    )?;
    encode_table(
        dialect_runs(num.types.iter().map(|it| it.dialect)),
        num,
        strings,
        &mut out,
        |num, i| {
            let t = num.types[i].key;
            let d = num.space.ty(t);
            if entries::type_has_encoding(d, num.space.builtins()) {
                Ok(TableEntry::Builtin(d.clone()))
            } else if let Some(enc) = num.custom_types.get(&t) {
                Ok(TableEntry::Dialect(enc.clone()))
            } else {
                Ok(TableEntry::Text(checked_text_entry(
                    "type",
                    text_entry::type_text(ctx, t),
                )?))
            }
        },
        |s, d| entries::write_type(s, &d),
    )?;
    Ok(out)
}

/// The IR section and its properties table.
pub struct IrWriter<'a, 'm, S: StringIndex = Strings> {
    pub num: &'a Numbering<'m>,
    pub strings: &'a mut S,
    pub props: PropertiesTable,
    pub use_lists: UseListOrders<'m>,
    /// The buffer each op's properties payload is written in before
    /// [`PropertiesTable::emit`] keeps it or finds it kept.
    payload: Vec<u8>,
}

impl<'a, 'm, S: StringIndex> IrWriter<'a, 'm, S> {
    pub fn new(num: &'a Numbering<'m>, strings: &'a mut S, use_lists: UseListOrders<'m>) -> Self {
        IrWriter {
            num,
            strings,
            props: PropertiesTable::default(),
            use_lists,
            payload: Vec::new(),
        }
    }

    pub fn section(&mut self) -> Result<Encoder, WriteError> {
        let mut e = Encoder::new();
        e.varint_flag(1, false);
        let top = self.num.m.top.expect("checked by the numbering");
        self.op(&mut e, top)?;
        Ok(e)
    }

    fn op(&mut self, e: &mut Encoder, op: OpId) -> Result<(), WriteError> {
        let m = self.num.m;
        let v = self.num.version;
        let o = m.op(op);
        let dict = properties::op_dictionary(
            &mut Interned(&self.num.space),
            self.num.registry,
            self.num.hooks,
            m,
            op,
            v,
            self.num.empty_dict,
        )?;
        let props = if v >= VERSION_NATIVE_PROPERTIES {
            self.properties(op)?
        } else {
            None
        };
        let mut mask = 0u8;
        if dict.is_some() {
            mask |= op_mask::HAS_ATTRS;
        }
        if props.is_some() {
            mask |= op_mask::HAS_PROPERTIES;
        }
        if o.num_results > 0 {
            mask |= op_mask::HAS_RESULTS;
        }
        if !o.operands.is_empty() {
            mask |= op_mask::HAS_OPERANDS;
        }
        if !o.successors().is_empty() {
            mask |= op_mask::HAS_SUCCESSORS;
        }
        if !o.regions().is_empty() {
            mask |= op_mask::HAS_INLINE_REGIONS;
        }
        let use_lists = if v >= VERSION_USE_LIST_ORDERING && o.num_results > 0 {
            self.use_lists.encode(o.results())
        } else {
            None
        };
        if use_lists.is_some() {
            mask |= op_mask::HAS_USE_LIST_ORDERS;
        }
        e.varint(u64::from(self.num.op_name_index[o.name.index()]));
        e.byte(mask);
        e.varint(self.num.attr_idx(o.loc));
        if let Some(d) = dict {
            e.varint(self.num.attr_idx(d));
        }
        if let Some(p) = props {
            e.varint(p);
        }
        if o.num_results > 0 {
            e.varint(u64::from(o.num_results));
            for r in o.results() {
                e.varint(self.num.type_idx(m.value(r).ty));
            }
        }
        if !o.operands.is_empty() {
            e.varint(o.operands.len() as u64);
            for &x in m.operands(op) {
                let id = self.num.values.value_ids[x.index()];
                if id == u32::MAX {
                    return Err(WriteError::at(
                        m,
                        op,
                        format!(
                            "an operand of '{}' is not defined in the IR being written",
                            String::from_utf8_lossy(m.op_name(op))
                        ),
                    ));
                }
                e.varint(u64::from(id));
            }
        }
        if !o.successors().is_empty() {
            e.varint(o.successors().len() as u64);
            for &b in o.successors() {
                e.varint(u64::from(self.num.values.block_index[b.index()]));
            }
        }
        if let Some(u) = use_lists {
            e.raw(&u.bytes);
        }
        if !o.regions().is_empty() {
            let isolated = self.num.isolated[op.index()];
            e.varint_flag(o.regions().len() as u64, isolated);
            if isolated && v >= VERSION_LAZY_LOADING {
                let mut inner = Encoder::new();
                for &r in o.regions() {
                    self.region(&mut inner, r)?;
                }
                e.section(SectionId::Ir, inner);
            } else {
                for &r in o.regions() {
                    self.region(e, r)?;
                }
            }
        }
        Ok(())
    }

    /// The op's properties payload, emitted into the table: its index.
    fn properties(&mut self, op: OpId) -> Result<Option<u64>, WriteError> {
        let mut payload = Encoder::reusing(std::mem::take(&mut self.payload));
        let r = self.properties_in(op, &mut payload);
        self.payload = payload.bytes;
        r
    }

    fn properties_in(
        &mut self,
        op: OpId,
        payload: &mut Encoder,
    ) -> Result<Option<u64>, WriteError> {
        let m = self.num.m;
        let info = self.num.op_infos[m.op(op).name.index()];
        if info.is_none() {
            if let Some(c) =
                self.num
                    .hooks
                    .encode_properties(&m.ctx, m.op_name(op), m.op(op).properties)
            {
                let c = c.map_err(|e| WriteError::at(m, op, e))?;
                let mut s = EncodeSink::new(payload, self.num, self.strings);
                dialect_entries::write(&mut s, &c);
                s.finish().map_err(Missed::error)?;
                return Ok(Some(self.props.emit(&payload.bytes)));
            }
        }
        match properties::classify_checked(info, m, op)? {
            OpProps::None => return Ok(None),
            OpProps::Unregistered(a) => payload.varint(self.num.attr_idx(a)),
            OpProps::Ods { info, entries } => {
                let v = self.num.version;
                let mut s = EncodeSink::new(payload, self.num, self.strings);
                properties::write_ods(&mut s, m, op, info, entries, v)?;
                s.finish().map_err(Missed::error)?;
            }
        }
        Ok(Some(self.props.emit(&payload.bytes)))
    }

    fn region(&mut self, e: &mut Encoder, r: RegionId) -> Result<(), WriteError> {
        let m = self.num.m;
        let Some(&(blocks, values)) = self.num.values.region_counts.get(&r) else {
            e.varint(0);
            return Ok(());
        };
        e.varint(u64::from(blocks));
        e.varint(u64::from(values));
        for &b in &m.region(r).blocks {
            self.block(e, b)?;
        }
        Ok(())
    }

    fn block(&mut self, e: &mut Encoder, b: BlockId) -> Result<(), WriteError> {
        let m = self.num.m;
        let v = self.num.version;
        let blk = m.block(b);
        e.varint_flag(blk.ops.len() as u64, !blk.args.is_empty());
        if !blk.args.is_empty() {
            e.varint(blk.args.len() as u64);
            for &a in &blk.args {
                let val = m.value(a);
                let Some(loc) = self.num.known_arg_loc(val) else {
                    return Err(Missed::Attribute.error());
                };
                let ty = self.num.type_idx(val.ty);
                if v >= VERSION_ELIDE_UNKNOWN_BLOCK_ARG_LOC {
                    let unknown = self.num.space.is_unknown_loc(loc);
                    e.varint_flag(ty, !unknown);
                    if !unknown {
                        e.varint(self.num.attr_idx(loc));
                    }
                } else {
                    e.varint(ty);
                    e.varint(self.num.attr_idx(loc));
                }
            }
            if v >= VERSION_USE_LIST_ORDERING {
                match self.use_lists.encode(blk.args.iter().copied()) {
                    Some(u) => {
                        e.byte(op_mask::HAS_USE_LIST_ORDERS);
                        e.raw(&u.bytes);
                    }
                    None => e.byte(0),
                }
            }
        }
        for &op in &blk.ops {
            self.op(e, op)?;
        }
        Ok(())
    }
}

/// `(offsets, payloads)`: external groups as the module lists them, then
/// the builtin dialect's referenced blobs and declarations.
pub fn resource_sections(num: &Numbering<'_>, strings: &mut Strings) -> (Encoder, Encoder) {
    let m = num.m;
    let mut offsets = Encoder::new();
    let mut data = Encoder::new();
    offsets.varint(m.resources.external.len() as u64);
    for g in &m.resources.external {
        let mut rows = Vec::with_capacity(g.entries.len());
        for (k, val) in &g.entries {
            let start = data.len();
            let kind = match val {
                ResourceValue::Blob { alignment, data: d } => {
                    data.aligned_blob(d, blob_alignment(*alignment));
                    resource_kind::BLOB
                }
                ResourceValue::Bool(b) => {
                    data.byte(*b as u8);
                    resource_kind::BOOL
                }
                ResourceValue::String(s) => {
                    data.varint(strings.insert(s));
                    resource_kind::STRING
                }
            };
            rows.push((k, data.len() - start, kind));
        }
        offsets.varint(strings.insert(&g.name));
        group_rows(&mut offsets, &rows, strings);
    }
    if !num.resource_refs.is_empty() {
        let mut keys: Vec<(&Bytes, u32)> = num
            .resource_refs
            .iter()
            .map(|k| (k, num.resource_ids[k]))
            .collect();
        keys.sort_by_key(|&(_, i)| i);
        let mut rows = Vec::with_capacity(keys.len());
        for (k, _) in keys {
            let start = data.len();
            if let Some((blob, alignment)) = builtin_blob(m, k) {
                data.aligned_blob(blob, blob_alignment(alignment));
            }
            rows.push((k, data.len() - start, resource_kind::BLOB));
        }
        let builtin = num
            .dialects
            .iter()
            .position(|d| &d[..] == b"builtin")
            .unwrap_or(0);
        offsets.varint(builtin as u64);
        group_rows(&mut offsets, &rows, strings);
    }
    (offsets, data)
}

/// The alignment written for a blob. mlir-opt prints an empty blob with
/// alignment 0 and writes that 0 too, but no reader (mlir-opt's included)
/// accepts an alignment that is not a power of two; we write 1 instead.
fn blob_alignment(alignment: u32) -> u64 {
    u64::from(alignment.max(1))
}

fn group_rows(offsets: &mut Encoder, rows: &[(&Bytes, usize, u8)], strings: &mut Strings) {
    offsets.varint(rows.len() as u64);
    for (k, size, kind) in rows {
        offsets.varint(strings.insert(k));
        offsets.varint(*size as u64);
        offsets.byte(*kind);
    }
}
