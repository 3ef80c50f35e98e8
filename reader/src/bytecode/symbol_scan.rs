//! Listing the operations of the top-level op's body, with their symbol
//! names, without building them (SPEC.md §6.7.5): what `info` shows.
//!
//! Materializing the module body builds every top-level op (its location,
//! result values, attributes); on a file with tens of thousands of
//! functions that is most of the cost of opening it. The scan instead
//! steps over each op's encoding, finds where its symbol name lives (the
//! attribute dictionary, or the properties, stepped through by the op's
//! layout), and steps over nested isolated bodies by their section length,
//! as the lazy reader does. Indices are checked against their tables;
//! value numbering is not (no values are made), so a file the scan lists
//! can still fail to decode.
//!
//! The scan is two steps: [`Skim`] walks the body with the op name table,
//! the properties table and the attribute and type counts only, and leaves
//! each listed op's symbol as a [`Pending`]; the symbols are then read from
//! the attribute table. `info` opens the file with
//! [`BytecodeReader::open_listing`], which skims the body on this thread
//! while another reads the attribute table's offsets (SPEC.md §6.7.5).

use super::binary_reader::Reader;
use super::dialect_section::OpNameEntry;
use super::ir_section::check_region_depth;
use super::properties::PropertiesTable;
use super::sections::read_section;
use super::{BytecodeReader, OpNameCache, ReadOptions};
use crate::error::Result;
use rmlir_format::bytecode::{
    op_mask, SectionId, VERSION_ELIDE_UNKNOWN_BLOCK_ARG_LOC, VERSION_LAZY_LOADING,
    VERSION_USE_LIST_ORDERING,
};
use rmlir_format::op_registry::{FieldKind, OpInfo};
use rmlir_format::*;
use std::borrow::Cow;

/// One op of the top-level op's body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TopLevelOp<'a> {
    /// Its name as the file's op name table spells it (`func.func`).
    pub name: std::sync::Arc<[u8]>,
    /// Its `sym_name` (from the properties or the attribute dictionary),
    /// when it has a string one.
    pub symbol: Option<Cow<'a, [u8]>>,
    /// Whether its regions are an isolated body left undecoded.
    pub lazy_body: bool,
}

/// A listed op's symbol, as the skim leaves it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Pending {
    /// Where the op starts in the body's bytes: its header is read again
    /// only where the symbol is not found by `dict` and `props`.
    op_pos: usize,
    /// Its attribute dictionary's index, or [`NONE`].
    dict: u64,
    /// What its properties payload gave by its layout: the index of its
    /// `sym_name` attribute, [`NONE`], or [`PROPS_DECODE`].
    props: u64,
}

/// [`Pending::dict`], [`Pending::props`]: no dictionary; no properties, or
/// none named `sym_name`.
const NONE: u64 = u64::MAX;
/// [`Pending::props`]: a payload the general decoder must read (a dialect
/// hook's, an unregistered op's, or one that does not follow its layout).
const PROPS_DECODE: u64 = u64::MAX - 1;

/// A skimmed body: the listed ops, their symbols still to be read.
pub(super) struct Skimmed<'a> {
    /// The reader of the body, at its start (`Pending::op_pos` is within
    /// its bytes).
    body: Reader<'a>,
    regions: usize,
    depth: usize,
    ops: Vec<TopLevelOp<'a>>,
    pending: Vec<Pending>,
}

/// The first step of a scan: what it reads of the file besides the IR.
pub(super) struct Skim<'r, 'a> {
    version: u64,
    op_names: &'r [OpNameEntry],
    cache: &'r [OpNameCache<'a>],
    properties: &'r PropertiesTable<'a>,
    num_attrs: usize,
    num_types: usize,
    max_region_depth: usize,
    /// Per op name: the position of `sym_name` among its layout's fields
    /// for this version (their number when it has none), found once
    /// rather than by comparing field names per op.
    sym_field: Vec<usize>,
}

impl<'r, 'a> Skim<'r, 'a> {
    #[allow(clippy::too_many_arguments)]
    pub(super) fn new(
        version: u64,
        op_names: &'r [OpNameEntry],
        cache: &'r [OpNameCache<'a>],
        properties: &'r PropertiesTable<'a>,
        num_attrs: usize,
        num_types: usize,
        max_region_depth: usize,
    ) -> Self {
        let sym_field = cache
            .iter()
            .map(|c| {
                c.layout.map_or(0, |l| {
                    let fields = layout_fields(version, l);
                    fields
                        .iter()
                        .position(|f| f.name == "sym_name")
                        .unwrap_or(fields.len())
                })
            })
            .collect();
        Skim {
            version,
            op_names,
            cache,
            properties,
            num_attrs,
            num_types,
            max_region_depth,
            sym_field,
        }
    }
}

/// The fields of a properties payload of `info`'s layout in a file of
/// `version` (segment sizes moved into the properties at v6).
fn layout_fields(version: u64, info: &OpInfo) -> &[rmlir_format::op_registry::Field] {
    if version >= rmlir_format::bytecode::VERSION_NATIVE_SEGMENT_SIZES {
        &info.fields_v6
    } else {
        &info.fields_v5
    }
}

impl<'a> BytecodeReader<'a> {
    /// The ops in the body of the file's top-level op (`builtin.module`),
    /// in order, without materializing it: `is_pending(top)` stays true
    /// and the module is unchanged but for the attributes the symbol names
    /// needed. `release(start, end)` is called with byte ranges of the
    /// input the scan is done with, so a caller holding a file mapping can
    /// drop those pages from memory (SPEC.md §6.7.5).
    pub fn scan_top_level(
        &mut self,
        release: &mut dyn FnMut(usize, usize),
    ) -> Result<Vec<TopLevelOp<'a>>> {
        let Some(top) = self.module.top else {
            return Ok(Vec::new());
        };
        let Some(lazy) = self.lazy.get(&top) else {
            return Ok(self.listed_from_module(top));
        };
        let (r, regions, depth) = (lazy.data.clone(), lazy.regions.len(), lazy.depth);
        let skimmed = self.skim().body(r, regions, depth, release)?;
        self.read_symbols(skimmed)
    }

    /// Opens a shared buffer and lists its top-level ops as
    /// [`BytecodeReader::scan_top_level`] does, skimming the module body on
    /// this thread while another reads the attribute table's offsets (the
    /// longest part of opening a large file); the symbols are then read
    /// from the table. Errors are those of opening, then of the scan.
    pub fn open_listing(
        owner: &'a SharedBytes,
        opts: &ReadOptions,
        release: &mut dyn FnMut(usize, usize),
    ) -> Result<(Self, Vec<TopLevelOp<'a>>)> {
        let (mut r, skimmed) = Self::open_shared_listing(owner, opts, Some(&mut *release))?;
        let listed = match skimmed {
            Some(s) if r.skimmed_top_body(&s) => r.read_symbols(s)?,
            // Not skimmed (an error, which the scan reports as it finds
            // it, or a body that is not a lazily loaded one), or skimmed
            // in vain (a body that is not the top op's).
            _ => r.scan_top_level(release)?,
        };
        Ok((r, listed))
    }

    /// Whether `s` is the lazily loaded body of the top-level op the
    /// ordinary read found.
    fn skimmed_top_body(&self, s: &Skimmed<'a>) -> bool {
        let Some(lazy) = self.module.top.and_then(|top| self.lazy.get(&top)) else {
            return false;
        };
        lazy.data.offset() == s.body.offset()
            && lazy.data.remaining() == s.body.remaining()
            && lazy.regions.len() == s.regions
            && lazy.depth == s.depth
    }

    /// The [`Skim`] of this reader's tables.
    fn skim(&self) -> Skim<'_, 'a> {
        Skim::new(
            self.version,
            &self.dialects.op_names,
            &self.op_name_cache,
            &self.properties,
            self.table.attrs.len(),
            self.table.types.len(),
            self.limits.max_region_depth,
        )
    }

    /// The listing for a top-level op whose body is already decoded (files
    /// before v2, or after `materialize`).
    fn listed_from_module(&self, top: OpId) -> Vec<TopLevelOp<'a>> {
        let m = &self.module;
        let Some(&region) = m.op(top).regions().first() else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for &b in &m.region(region).blocks {
            for &op in &m.block(b).ops {
                let o = m.op(op);
                out.push(TopLevelOp {
                    name: m.op_name(op).into(),
                    symbol: [o.properties, Some(o.attributes)]
                        .into_iter()
                        .flatten()
                        .find_map(|d| self.sym_name_in(d))
                        .map(Cow::Owned),
                    lazy_body: self.lazy.contains_key(&op),
                });
            }
        }
        out
    }

    fn sym_name_in(&self, dict: AttrId) -> Option<Vec<u8>> {
        let AttrData::Dictionary(entries) = self.module.ctx.attr(dict) else {
            return None;
        };
        let (_, v) = entries.iter().find(|(k, _)| &**k == b"sym_name")?;
        match self.module.ctx.attr(*v) {
            AttrData::String { value, .. } => Some(value.to_vec()),
            _ => None,
        }
    }

    /// The second step: each listed op's symbol, from its attribute
    /// dictionary, then (taking precedence) its properties, read from the
    /// attribute table, or decoded where the quick paths cannot.
    pub(super) fn read_symbols(&mut self, s: Skimmed<'a>) -> Result<Vec<TopLevelOp<'a>>> {
        let Skimmed {
            body,
            mut ops,
            pending,
            ..
        } = s;
        for (op, p) in ops.iter_mut().zip(&pending) {
            op.symbol = match self.quick_symbol(*p) {
                Some(symbol) => symbol,
                None => self.symbol_of(&body, *p)?,
            };
        }
        Ok(ops)
    }

    /// A listed op's symbol where its dictionary and properties are
    /// builtin entries whose strings the string table holds (the op's
    /// bytes, released by now, are not read again); `None` otherwise.
    fn quick_symbol(&self, p: Pending) -> Option<Option<Cow<'a, [u8]>>> {
        let mut symbol = None;
        if p.dict != NONE {
            if let Some(v) = self.quick_dict_lookup(p.dict, b"sym_name")? {
                symbol = Some(Cow::Borrowed(self.quick_string(v)?));
            }
        }
        match p.props {
            NONE => {}
            PROPS_DECODE => return None,
            v => symbol = Some(Cow::Borrowed(self.quick_string(v)?)),
        }
        Some(symbol)
    }

    /// A listed op's symbol the long way: its header read again, the
    /// dictionary and the properties looked up as the skim left them.
    fn symbol_of(&mut self, body: &Reader<'a>, p: Pending) -> Result<Option<Cow<'a, [u8]>>> {
        let mut r = body.at_position(p.op_pos);
        let name_idx = r.read_varint()? as usize;
        let entry = &self.dialects.op_names[name_idx];
        let (name, registered) = (entry.name.clone(), entry.registered);
        let cached = self.op_name_cache[name_idx];
        let mask_at = r.offset();
        let mask = r.read_u8()?;
        r.read_varint()?;
        let mut symbol = None;
        if mask & op_mask::HAS_ATTRS != 0 {
            let before = r.clone();
            let at = r.offset();
            let idx = r.read_varint()?;
            symbol = match self.quick_dict_lookup(idx, b"sym_name") {
                Some(v) => v
                    .and_then(|v| self.symbol_at(v, &r, at).transpose())
                    .transpose()?,
                None => {
                    r = before;
                    let a = self.attr_ref(&mut r)?;
                    self.sym_name_in(a).map(Cow::Owned)
                }
            };
        }
        if mask & op_mask::HAS_PROPERTIES != 0 {
            let at = r.offset();
            // The attribute index of `sym_name`: as the skim found it, or
            // in an unregistered op's dictionary; `None` for the general
            // decoder.
            let found = match p.props {
                NONE => Some(None),
                PROPS_DECODE => match registered {
                    Some(false) => {
                        let idx = r.clone().read_varint()?;
                        unregistered_props_index(self.properties.payload(idx, &name, &r, at)?)
                            .and_then(|d| self.quick_dict_lookup(d, b"sym_name"))
                    }
                    _ => None,
                },
                v => Some(Some(v)),
            };
            match found {
                Some(Some(v)) => {
                    if let Some(sym) = self.symbol_at(v, &r, at)? {
                        symbol = Some(sym);
                    }
                }
                Some(None) => {}
                // A hook's payload, or one the quick paths could not
                // follow (its errors are the decoder's).
                None => {
                    if let Some(props) =
                        self.read_properties_ref(&mut r, &name, registered, cached, mask_at)?
                    {
                        if let Some(sym) = self.sym_name_in(props) {
                            symbol = Some(Cow::Owned(sym));
                        }
                    }
                }
            }
        }
        Ok(symbol)
    }
}

impl<'r, 'a> Skim<'r, 'a> {
    /// Skims the `regions` of the top-level op from `r`, listing the first
    /// region's ops.
    pub(super) fn body(
        &self,
        mut r: Reader<'a>,
        regions: usize,
        depth: usize,
        release: &mut dyn FnMut(usize, usize),
    ) -> Result<Skimmed<'a>> {
        let body = r.clone();
        let mut scan = Scan {
            ops: Vec::new(),
            pending: Vec::new(),
            release,
            released_to: r.offset(),
            start: body.position(),
        };
        for i in 0..regions {
            // Only the first region's ops are listed (as from the module).
            let listed = i == 0;
            self.region(&mut r, &mut scan, listed, depth + 1)?;
        }
        if !r.is_empty() {
            return r.err("unexpected trailing data after the regions of an isolated operation");
        }
        Ok(Skimmed {
            body,
            regions,
            depth,
            ops: scan.ops,
            pending: scan.pending,
        })
    }

    /// The body of the IR section's one top-level op, when it is a lazily
    /// loaded isolated body (v2+): skimmed with [`Skim::body`]. `None`
    /// for anything else, or a section it cannot step over (the ordinary
    /// read reports why).
    pub(super) fn top_level_body(
        &self,
        mut r: Reader<'a>,
        release: &mut dyn FnMut(usize, usize),
    ) -> Option<Result<Skimmed<'a>>> {
        let (num_ops, has_args) = r.read_varint_flag().ok()?;
        if num_ops != 1 || has_args {
            return None;
        }
        let mut none = Scan {
            ops: Vec::new(),
            pending: Vec::new(),
            release: &mut |_, _| {},
            released_to: usize::MAX,
            start: 0,
        };
        let (body, regions) = self.op(&mut r, &mut none, false, 0).ok()??;
        if !r.is_empty() {
            return None;
        }
        Some(self.body(body, regions, 0, release))
    }

    fn region(
        &self,
        r: &mut Reader<'a>,
        scan: &mut Scan<'_, 'a>,
        listed: bool,
        depth: usize,
    ) -> Result<()> {
        check_region_depth(r, depth, self.max_region_depth)?;
        let num_blocks = r.read_count(1, "block")?;
        if num_blocks == 0 {
            return Ok(());
        }
        let vat = r.offset();
        let num_values = r.read_varint()?;
        r.check_count(num_values, 1, "value", vat)?;
        for _ in 0..num_blocks {
            self.block(r, scan, listed, depth)?;
        }
        Ok(())
    }

    fn block(
        &self,
        r: &mut Reader<'a>,
        scan: &mut Scan<'_, 'a>,
        listed: bool,
        depth: usize,
    ) -> Result<()> {
        let at = r.offset();
        let (num_ops, has_args) = r.read_varint_flag()?;
        let num_ops = r.check_count(num_ops, 3, "operation", at)?;
        if listed {
            // Tens of thousands in a large module: not grown (and copied)
            // a doubling at a time, and faulted in by another thread while
            // this one skims (SPEC.md §6.7.5).
            scan.ops.reserve(num_ops);
            scan.pending.reserve(num_ops);
            crate::prefault::populate_vectors_in_background(vec![
                crate::prefault::spare(&scan.ops),
                crate::prefault::spare(&scan.pending),
            ]);
        }
        if has_args {
            let n = r.read_count(1, "block argument")?;
            for _ in 0..n {
                if self.version >= VERSION_ELIDE_UNKNOWN_BLOCK_ARG_LOC {
                    let (ty, has_loc) = r.read_varint_flag()?;
                    self.check_type_index(r, ty)?;
                    if has_loc {
                        self.skip_attr_index(r)?;
                    }
                } else {
                    let ty = r.read_varint()?;
                    self.check_type_index(r, ty)?;
                    self.skip_attr_index(r)?;
                }
            }
            if self.version >= VERSION_USE_LIST_ORDERING && r.read_u8()? != 0 {
                super::ir_section::read_use_list(r, n)?;
            }
        }
        for _ in 0..num_ops {
            self.op(r, scan, listed, depth)?;
            if listed {
                scan.progress(r);
            }
        }
        Ok(())
    }

    /// Steps over one op; a listed one is added to `scan` with its symbol
    /// pending. Returns the op's lazily loaded body and its region count,
    /// if it has one.
    fn op(
        &self,
        r: &mut Reader<'a>,
        scan: &mut Scan<'_, 'a>,
        listed: bool,
        depth: usize,
    ) -> Result<Option<(Reader<'a>, usize)>> {
        let op_pos = r.position();
        let at = r.offset();
        let name_idx = r.read_varint()?;
        let Some(entry) = self.op_names.get(name_idx as usize) else {
            return r.err_at(at, format!("invalid operation name index: {name_idx}"));
        };
        let cached = self.cache[name_idx as usize];
        let mask = r.read_u8()?;
        self.skip_attr_index(r)?;
        let mut dict = NONE;
        if mask & op_mask::HAS_ATTRS != 0 {
            dict = self.skip_attr_index(r)?;
        }
        let mut payload = None;
        if mask & op_mask::HAS_PROPERTIES != 0 {
            let at = r.offset();
            let idx = r.read_varint()?;
            let p = self.properties.payload(idx, &entry.name, r, at)?;
            if listed {
                // Looked up once the op is stepped over: its bytes are
                // asked for now, to arrive meanwhile.
                prefetch(p);
                payload = Some(p);
            }
        }
        let mut num_results = 0;
        if mask & op_mask::HAS_RESULTS != 0 {
            num_results = r.read_count(1, "result")?;
            for _ in 0..num_results {
                let ty = r.read_varint()?;
                self.check_type_index(r, ty)?;
            }
        }
        if mask & op_mask::HAS_OPERANDS != 0 {
            let n = r.read_count(1, "operand")?;
            for _ in 0..n {
                r.read_varint()?;
            }
        }
        if mask & op_mask::HAS_SUCCESSORS != 0 {
            let n = r.read_count(1, "successor")?;
            for _ in 0..n {
                r.read_varint()?;
            }
        }
        if mask & op_mask::HAS_USE_LIST_ORDERS != 0 && self.version >= VERSION_USE_LIST_ORDERING {
            super::ir_section::read_use_list(r, num_results)?;
        }
        let mut lazy_body = None;
        if mask & op_mask::HAS_INLINE_REGIONS != 0 {
            let (n, isolated) = r.read_varint_flag()?;
            let n = r.check_count(n, 1, "region", r.offset())?;
            if n > 0 && isolated && self.version >= VERSION_LAZY_LOADING {
                let at = r.offset();
                let section = read_section(r)?;
                if section.id != SectionId::Ir {
                    return r.err_at(at, "expected IR section for region");
                }
                lazy_body = Some((section.reader(), n));
            } else {
                for _ in 0..n {
                    self.region(r, scan, false, depth + 1)?;
                }
            }
        }
        if listed {
            // The next op's header is asked for while this op's properties
            // are stepped through: a large module's ops lie a page or more
            // apart, each header a cache miss.
            prefetch(&r.all_bytes()[r.position()..]);
            let props = match payload {
                None => NONE,
                Some(payload) => match (entry.registered, cached.info, cached.layout) {
                    (Some(true), Some(_), Some(layout)) => {
                        let sym = self.sym_field[name_idx as usize];
                        match self.quick_field_lookup(payload, layout, sym) {
                            Some(Some(v)) if v < PROPS_DECODE => v,
                            Some(None) => NONE,
                            _ => PROPS_DECODE,
                        }
                    }
                    _ => PROPS_DECODE,
                },
            };
            scan.ops.push(TopLevelOp {
                name: entry.name.clone(),
                symbol: None,
                lazy_body: lazy_body.is_some(),
            });
            scan.pending.push(Pending {
                op_pos: op_pos - scan.start,
                dict,
                props,
            });
        }
        Ok(lazy_body)
    }

    fn check_type_index(&self, r: &Reader<'a>, idx: u64) -> Result<()> {
        if idx as usize >= self.num_types {
            return r.err(format!("invalid Type index: {idx}"));
        }
        Ok(())
    }

    /// Reads an attribute index, checked against the table's count.
    fn skip_attr_index(&self, r: &mut Reader<'a>) -> Result<u64> {
        let at = r.offset();
        let idx = r.read_varint()?;
        if idx as usize >= self.num_attrs {
            return r.err_at(at, format!("invalid Attribute index: {idx}"));
        }
        Ok(idx)
    }

    /// The attribute index a registered op's properties payload holds in
    /// field `field` (a position in its layout), stepping over the fields
    /// before it by their kinds (SPEC.md §6.9); `Some(None)` when that
    /// field is an absent optional one, or past the last field (all of
    /// them stepped over). `None` when the payload does not follow the
    /// layout: the general decoder then reports why.
    fn quick_field_lookup(
        &self,
        payload: &'a [u8],
        info: &OpInfo,
        field: usize,
    ) -> Option<Option<u64>> {
        let fields = layout_fields(self.version, info);
        if fields.is_empty() {
            return None;
        }
        let mut p = Reader::new(payload, 0, "Properties");
        for (i, f) in fields.iter().enumerate() {
            let idx = skip_field(&mut p, &f.kind)?;
            if i == field {
                return Some(idx);
            }
        }
        Some(None)
    }
}

/// How far a skim has got, what it has listed, and what it has let go of.
struct Scan<'s, 'a> {
    ops: Vec<TopLevelOp<'a>>,
    pending: Vec<Pending>,
    release: &'s mut dyn FnMut(usize, usize),
    /// Input before this offset was handed to `release`.
    released_to: usize,
    /// The body reader's position at its start.
    start: usize,
}

/// Bytes scanned between two calls of the release callback.
const RELEASE_EVERY: usize = 4 << 20;

impl Scan<'_, '_> {
    fn progress(&mut self, r: &Reader<'_>) {
        let at = r.offset();
        if at >= self.released_to.saturating_add(RELEASE_EVERY) {
            (self.release)(self.released_to, at);
            self.released_to = at;
        }
    }
}

/// An unregistered op's properties payload: one attribute index.
fn unregistered_props_index(payload: &[u8]) -> Option<u64> {
    match rmlir_format::bytecode::varint::read_varint(payload) {
        Some((v, n)) if n == payload.len() => Some(v),
        _ => None,
    }
}

impl<'a> BytecodeReader<'a> {
    /// The symbol name held by attribute `idx`: its string when it is a
    /// `StringAttr`, else none. Read straight from the string table when
    /// the entry is the builtin encoding, decoded otherwise.
    fn symbol_at(&mut self, idx: u64, r: &Reader<'a>, at: usize) -> Result<Option<Cow<'a, [u8]>>> {
        if let Some(s) = self.quick_string(idx) {
            return Ok(Some(Cow::Borrowed(s)));
        }
        let a = self.attr_at(idx, r, at)?;
        Ok(match self.module.ctx.attr(a) {
            AttrData::String { value, .. } => Some(Cow::Owned(value.to_vec())),
            _ => None,
        })
    }

    /// The string of a builtin `StringAttr` entry (typed or not).
    fn quick_string(&self, idx: u64) -> Option<&'a [u8]> {
        use rmlir_format::bytecode::builtin_codes::attr as code;
        let mut r = self.builtin_entry(idx)?;
        let c = r.read_varint().ok()?;
        if c != code::STRING && c != code::STRING_WITH_TYPE {
            return None;
        }
        let s = r.read_varint().ok()?;
        self.strings.get(usize::try_from(s).ok()?).copied()
    }

    /// Looks `key` up in a builtin `DictionaryAttr` entry: `Some(value
    /// index)` or `Some(None)` when it has no such key; `None` when the
    /// entry is not a dictionary in the builtin encoding.
    fn quick_dict_lookup(&self, idx: u64, key: &[u8]) -> Option<Option<u64>> {
        use rmlir_format::bytecode::builtin_codes::attr as code;
        let mut r = self.builtin_entry(idx)?;
        if r.read_varint().ok()? != code::DICTIONARY {
            return None;
        }
        let n = r.read_varint().ok()?;
        for _ in 0..n {
            let name = r.read_varint().ok()?;
            let value = r.read_varint().ok()?;
            if self.quick_string(name)? == key {
                return Some(Some(value));
            }
        }
        Some(None)
    }
}

/// Steps over one field of a properties payload; returns its attribute
/// index for an attribute field.
fn skip_field(p: &mut Reader<'_>, kind: &FieldKind) -> Option<Option<u64>> {
    Some(match kind {
        FieldKind::Attr | FieldKind::LegacySegments => Some(p.try_varint()?),
        FieldKind::OptAttr => {
            let v = p.try_varint()?;
            (v & 1 != 0).then_some(v >> 1)
        }
        FieldKind::SparseSegments { size } => {
            super::properties::read_sparse_array(p, *size).ok()?;
            None
        }
        FieldKind::Unit | FieldKind::Bool => {
            p.read_u8().ok()?;
            None
        }
        FieldKind::Int { .. } | FieldKind::Enum { .. } | FieldKind::String => {
            p.try_varint()?;
            None
        }
        FieldKind::Optional(inner) => {
            if p.read_u8().ok()? != 0 {
                skip_field(p, inner)?;
            }
            None
        }
        FieldKind::Array(inner) => {
            let n = p.try_varint()?;
            if n > p.remaining() as u64 {
                return None;
            }
            for _ in 0..n {
                skip_field(p, inner)?;
            }
            None
        }
    })
}

/// Asks the CPU to load the cache line `bytes` start in (nothing when
/// empty, or on other targets).
fn prefetch(bytes: &[u8]) {
    #[cfg(target_arch = "x86_64")]
    if let Some(first) = bytes.first() {
        // SAFETY: a prefetch only hints the cache; the address is of a
        // byte of the slice.
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(first).cast());
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = bytes;
}
