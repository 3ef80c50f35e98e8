//! Listing the operations of the top-level op's body, with their symbol
//! names, without building them (SPEC.md §6.7.5): what `info` shows.
//!
//! Materializing the module body builds every top-level op (its location,
//! result values, attributes); on a file with tens of thousands of
//! functions that is most of the cost of opening it. The scan instead
//! steps over each op's encoding, decodes only its attribute dictionary
//! and properties (where a symbol name lives), and steps over nested
//! isolated bodies by their section length, as the lazy reader does.
//! Indices are checked against their tables; value numbering is not (no
//! values are made), so a file the scan lists can still fail to decode.

use super::binary_reader::Reader;
use super::sections::read_section;
use super::BytecodeReader;
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
        let (mut r, regions, depth) = (lazy.data.clone(), lazy.regions.len(), lazy.depth);
        let mut out = Vec::new();
        let mut scan = Scan {
            out: &mut out,
            release,
            released_to: r.offset(),
        };
        for i in 0..regions {
            // Only the first region's ops are listed (as from the module).
            let listed = i == 0;
            self.skim_region(&mut r, &mut scan, listed, depth + 1)?;
        }
        if !r.is_empty() {
            return r.err("unexpected trailing data after the regions of an isolated operation");
        }
        Ok(out)
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

    fn skim_region(
        &mut self,
        r: &mut Reader<'a>,
        scan: &mut Scan<'_, 'a>,
        listed: bool,
        depth: usize,
    ) -> Result<()> {
        self.check_region_depth(r, depth)?;
        let num_blocks = r.read_count(1, "block")?;
        if num_blocks == 0 {
            return Ok(());
        }
        let vat = r.offset();
        let num_values = r.read_varint()?;
        r.check_count(num_values, 1, "value", vat)?;
        for _ in 0..num_blocks {
            self.skim_block(r, scan, listed, depth)?;
        }
        Ok(())
    }

    fn skim_block(
        &mut self,
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
            // a doubling at a time.
            scan.out.reserve(num_ops);
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
            self.skim_op(r, scan, listed, depth)?;
            if listed {
                scan.progress(r);
            }
        }
        Ok(())
    }

    fn skim_op(
        &mut self,
        r: &mut Reader<'a>,
        scan: &mut Scan<'_, 'a>,
        listed: bool,
        depth: usize,
    ) -> Result<()> {
        let at = r.offset();
        let name_idx = r.read_varint()?;
        let Some(entry) = self.dialects.op_names.get(name_idx as usize) else {
            return r.err_at(at, format!("invalid operation name index: {name_idx}"));
        };
        let (name, registered) = (entry.name.clone(), entry.registered);
        let cached = self.op_name_cache[name_idx as usize];
        let mask_at = r.offset();
        let mask = r.read_u8()?;
        self.skip_attr_index(r)?;
        let mut symbol = None;
        if mask & op_mask::HAS_ATTRS != 0 {
            if listed {
                let before = r.clone();
                let at = r.offset();
                let idx = r.read_varint()?;
                symbol = match self.quick_dict_lookup(idx, b"sym_name") {
                    Some(v) => v
                        .and_then(|v| self.symbol_at(v, r, at).transpose())
                        .transpose()?,
                    None => {
                        *r = before;
                        let a = self.attr_ref(r)?;
                        self.sym_name_in(a).map(Cow::Owned)
                    }
                };
            } else {
                self.skip_attr_index(r)?;
            }
        }
        if mask & op_mask::HAS_PROPERTIES != 0 {
            let at = r.offset();
            let before = r.clone();
            let idx = r.read_varint()?;
            let payload = self.property_payload(idx, &name, r, at)?;
            if listed {
                // A dialect hook's payload, or a registered op without a
                // layout, goes to the general decoder (`None`).
                let quick = match (registered, cached.info, cached.layout) {
                    (Some(true), Some(_), Some(layout)) => {
                        self.quick_field_lookup(payload, layout, "sym_name")
                    }
                    (Some(false), _, _) => unregistered_props_index(payload)
                        .and_then(|d| self.quick_dict_lookup(d, b"sym_name")),
                    _ => None,
                };
                match quick {
                    Some(Some(v)) => {
                        if let Some(sym) = self.symbol_at(v, r, at)? {
                            symbol = Some(sym);
                        }
                    }
                    Some(None) => {}
                    None => {
                        // The general decoder: a hook's payload, or one the
                        // quick path could not follow (its errors are the
                        // decoder's).
                        *r = before;
                        if let Some(p) =
                            self.read_properties_ref(r, &name, registered, cached, mask_at)?
                        {
                            if let Some(sym) = self.sym_name_in(p) {
                                symbol = Some(Cow::Owned(sym));
                            }
                        }
                    }
                }
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
        let mut lazy_body = false;
        if mask & op_mask::HAS_INLINE_REGIONS != 0 {
            let (n, isolated) = r.read_varint_flag()?;
            let n = r.check_count(n, 1, "region", r.offset())?;
            if n > 0 && isolated && self.version >= VERSION_LAZY_LOADING {
                let at = r.offset();
                if read_section(r)?.id != SectionId::Ir {
                    return r.err_at(at, "expected IR section for region");
                }
                lazy_body = true;
            } else {
                for _ in 0..n {
                    self.skim_region(r, scan, false, depth + 1)?;
                }
            }
        }
        if listed {
            scan.out.push(TopLevelOp {
                name,
                symbol,
                lazy_body,
            });
        }
        Ok(())
    }

    fn check_type_index(&self, r: &Reader<'a>, idx: u64) -> Result<()> {
        if idx as usize >= self.table.types.len() {
            return r.err(format!("invalid Type index: {idx}"));
        }
        Ok(())
    }

    fn skip_attr_index(&self, r: &mut Reader<'a>) -> Result<()> {
        let at = r.offset();
        let idx = r.read_varint()?;
        if idx as usize >= self.table.attrs.len() {
            return r.err_at(at, format!("invalid Attribute index: {idx}"));
        }
        Ok(())
    }
}

/// How far a scan has got, and what it has let go of.
struct Scan<'s, 'a> {
    out: &'s mut Vec<TopLevelOp<'a>>,
    release: &'s mut dyn FnMut(usize, usize),
    /// Input before this offset was handed to `release`.
    released_to: usize,
}

/// Bytes scanned between two calls of the release callback.
const RELEASE_EVERY: usize = 4 << 20;

impl Scan<'_, '_> {
    fn progress(&mut self, r: &Reader<'_>) {
        let at = r.offset();
        if at >= self.released_to + RELEASE_EVERY {
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

    /// The attribute index a registered op's properties payload holds for
    /// field `field`, stepping over the fields before it by their layout
    /// (SPEC.md §6.9); `Some(None)` when the layout has no such field or
    /// an optional one is absent. `None` when the payload does not follow
    /// the layout: the general decoder then reports why.
    fn quick_field_lookup(
        &self,
        payload: &'a [u8],
        info: &OpInfo,
        field: &str,
    ) -> Option<Option<u64>> {
        let fields = if self.version >= rmlir_format::bytecode::VERSION_NATIVE_SEGMENT_SIZES {
            &info.fields_v6
        } else {
            &info.fields_v5
        };
        if fields.is_empty() {
            return None;
        }
        let mut p = Reader::new(payload, 0, "Properties");
        for f in fields {
            let idx = skip_field(&mut p, &f.kind)?;
            if f.name == field {
                return Some(idx);
            }
        }
        Some(None)
    }
}

/// Steps over one field of a properties payload; returns its attribute
/// index for an attribute field.
fn skip_field(p: &mut Reader<'_>, kind: &FieldKind) -> Option<Option<u64>> {
    Some(match kind {
        FieldKind::Attr | FieldKind::LegacySegments => Some(p.read_varint().ok()?),
        FieldKind::OptAttr => {
            let (idx, present) = p.read_varint_flag().ok()?;
            present.then_some(idx)
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
            p.read_varint().ok()?;
            None
        }
        FieldKind::Optional(inner) => {
            if p.read_u8().ok()? != 0 {
                skip_field(p, inner)?;
            }
            None
        }
        FieldKind::Array(inner) => {
            let n = p.read_varint().ok()?;
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
