//! The IR section (SPEC.md §6.7): operations, regions, blocks and value
//! numbering, with isolated regions (nested IR sections, v2+) left for
//! lazy materialization.

use super::binary_reader::Reader;
use super::sections::read_section;
use super::BytecodeReader;
use crate::error::{ErrorKind, Result};
use rmlir_format::bytecode::{
    op_mask, SectionId, VERSION_ELIDE_UNKNOWN_BLOCK_ARG_LOC, VERSION_LAZY_LOADING,
    VERSION_USE_LIST_ORDERING,
};
use rmlir_format::fasthash::FastMap as HashMap;
use rmlir_format::use_lists;
use rmlir_format::*;

/// The still-encoded regions of one isolated operation.
#[derive(Clone)]
pub struct LazyRegions<'a> {
    pub(super) data: Reader<'a>,
    pub(super) regions: Vec<RegionId>,
    pub(super) depth: usize,
}

/// Value ids of one isolated scope.
#[derive(Default)]
struct Scope {
    /// Defined values by id. A map, not a vector sized by the declared
    /// counts: nested regions number their values after their parent's
    /// whole range, so hostile counts would make a vector of depth × file
    /// size entries before a single value is defined.
    values: HashMap<usize, ValueId>,
    /// Ids below this are valid: the end of every region read so far.
    limit: usize,
    /// Placeholders created for forward references, by value id.
    placeholders: HashMap<usize, ValueId>,
    /// Operands that still point at a placeholder.
    pending: Vec<(OpId, usize)>,
    replacements: HashMap<ValueId, ValueId>,
    /// The first op read in this scope: its ops are `first_op..`.
    first_op: usize,
    /// Use-list orders read in this scope, applied when it closes.
    use_lists: Vec<UseListEntry>,
}

/// One value's use-list order as written (SPEC.md §6.7.4).
struct UseListEntry {
    value: ValueId,
    index_pairs: bool,
    indices: Vec<u64>,
    at: usize,
}

/// Where the values of the region being read go.
struct ValueRange {
    next: usize,
    end: usize,
}

impl<'a> BytecodeReader<'a> {
    pub(super) fn read_top_level(&mut self, mut r: Reader<'a>) -> Result<()> {
        let at = r.offset();
        let (num_ops, has_args) = r.read_varint_flag()?;
        if has_args {
            return r.err_at(
                at,
                "the top-level block of the IR section must not have arguments",
            );
        }
        let num_ops = r.check_count(num_ops, 3, "operation", at)?;
        let top_block = self.module.new_block();
        let top_region = self.module.new_region();
        self.module.push_block(top_region, top_block);
        let mut scope = self.new_scope();
        let mut range = ValueRange {
            next: 0,
            end: usize::MAX,
        };
        let blocks = [top_block];
        for _ in 0..num_ops {
            let op = self.read_op(&mut r, &blocks, &mut scope, &mut range, 0)?;
            self.module.push_op(top_block, op);
        }
        if !r.is_empty() {
            return r.err("unexpected trailing data in the IR section");
        }
        self.close_scope(scope, &r)?;
        let loc = self.module.ctx.intern_attr(AttrData::UnknownLoc);
        self.module.set_top_level(top_region, top_block, loc);
        Ok(())
    }

    pub(super) fn read_lazy_regions(&mut self, _op: OpId, l: LazyRegions<'a>) -> Result<()> {
        let LazyRegions {
            data: mut r,
            regions,
            depth,
        } = l;
        let mut scope = self.new_scope();
        for region in regions {
            self.read_region(&mut r, region, &mut scope, 0, depth + 1)?;
        }
        if !r.is_empty() {
            return r.err("unexpected trailing data after the regions of an isolated operation");
        }
        self.close_scope(scope, &r)
    }

    fn new_scope(&self) -> Scope {
        Scope {
            first_op: self.module.ops.len(),
            ..Scope::default()
        }
    }

    fn close_scope(&mut self, scope: Scope, r: &Reader<'a>) -> Result<()> {
        for (op, i) in scope.pending {
            let v = self.module.operands(op)[i];
            match scope.replacements.get(&v) {
                Some(&real) => self.module.operands_mut(op)[i] = real,
                None => return r.err("not all forward unresolved forward operand references"),
            }
        }
        if !scope.use_lists.is_empty() {
            self.apply_use_lists(scope.first_op, scope.use_lists, r)?;
        }
        Ok(())
    }

    /// Records the scope's use-list orders in the module the way mlir-opt
    /// applies them (SPEC.md §6.7.4): an entry of a value with fewer than
    /// two uses is ignored; the index-pair form `(a, b)` sets position `a`
    /// of an identity permutation to `b` (MLIR 22) or `b` to `a` (MLIR 23
    /// on), as the release whose terms we read in does; the result must
    /// be a permutation of the value's uses.
    fn apply_use_lists(
        &mut self,
        first_op: usize,
        entries: Vec<UseListEntry>,
        r: &Reader<'a>,
    ) -> Result<()> {
        let pairs_as_written = self.host.mlir_major >= 23;
        let mut counts: HashMap<ValueId, usize> =
            entries.iter().map(|e| (e.value, 0usize)).collect();
        for op in first_op..self.module.ops.len() {
            for v in self.module.operands(OpId(op as u32)) {
                if let Some(c) = counts.get_mut(v) {
                    *c += 1;
                }
            }
        }
        for e in entries {
            let n = counts[&e.value];
            if n < 2 {
                continue;
            }
            let invalid = || {
                Err(r.error_at(
                    e.at,
                    ErrorKind::Semantic,
                    format!(
                        "parsed use-list orders were invalid and could not be applied ({} for a value with {n} uses)",
                        if e.index_pairs { "index pairs" } else { "an order" },
                    ),
                ))
            };
            let order: Vec<u32> = if e.index_pairs {
                if e.indices.len() % 2 != 0 {
                    return invalid();
                }
                // The writer emits `(order[k], k)` per moved use. MLIR up
                // to 22 reads `(a, b)` as `order[a] = b`, the inverse
                // permutation (the same for swaps); MLIR 23 on reads it
                // back as written (llvm/llvm-project#191942): what the
                // release whose terms we read in does.
                let mut order: Vec<u32> = (0..n as u32).collect();
                for pair in e.indices.chunks_exact(2) {
                    let (at, to) = if pairs_as_written {
                        (pair[1], pair[0])
                    } else {
                        (pair[0], pair[1])
                    };
                    match (order.get_mut(at as usize), u32::try_from(to)) {
                        (Some(slot), Ok(b)) => *slot = b,
                        _ => return invalid(),
                    }
                }
                order
            } else {
                match e.indices.iter().map(|&i| u32::try_from(i)).collect() {
                    Ok(o) => o,
                    Err(_) => return invalid(),
                }
            };
            if !use_lists::is_permutation(&order, n) {
                return invalid();
            }
            if !use_lists::is_identity(&order) {
                self.module.use_list_orders.insert(e.value, order);
            }
        }
        Ok(())
    }

    fn read_region(
        &mut self,
        r: &mut Reader<'a>,
        region: RegionId,
        scope: &mut Scope,
        base: usize,
        depth: usize,
    ) -> Result<()> {
        self.check_region_depth(r, depth)?;
        let at = r.offset();
        let num_blocks = r.read_count(1, "block")?;
        if num_blocks == 0 {
            return Ok(());
        }
        let vat = r.offset();
        let num_values = r.read_varint()?;
        let num_values = r.check_count(num_values, 1, "value", vat)?;
        let Some(end) = base.checked_add(num_values) else {
            return r.err_at(
                vat,
                format!("value count {num_values} overflows the value numbering of the region"),
            );
        };
        let outer_limit = scope.limit;
        scope.limit = scope.limit.max(end);
        let blocks: Vec<BlockId> = (0..num_blocks)
            .map(|_| {
                let b = self.module.new_block();
                self.module.push_block(region, b);
                b
            })
            .collect();
        let _ = at;
        let mut range = ValueRange { next: base, end };
        for &b in &blocks {
            self.read_block(r, b, &blocks, scope, &mut range, depth)?;
        }
        self.leave_region(scope, base, range.next, outer_limit);
        Ok(())
    }

    /// Regions may nest `limits.max_region_depth` deep (SPEC.md §5.1).
    pub(super) fn check_region_depth(&self, r: &Reader<'a>, depth: usize) -> Result<()> {
        check_region_depth(r, depth, self.limits.max_region_depth)
    }

    /// Forgets the ids `base..` of a region being left (SPEC.md §6.7.2):
    /// sibling regions reuse the same ids, so a later sibling's forward
    /// reference must not resolve to this region's value, and ids past the
    /// enclosing region's range become invalid again, as in mlir-opt.
    /// A placeholder still open here can no longer be defined; it stays
    /// pending and fails when the scope closes.
    fn leave_region(
        &mut self,
        scope: &mut Scope,
        base: usize,
        defined_end: usize,
        outer_limit: usize,
    ) {
        for id in base..defined_end {
            scope.values.remove(&id);
        }
        if !scope.placeholders.is_empty() {
            scope.placeholders.retain(|&id, _| id < base);
        }
        scope.limit = outer_limit;
    }

    fn read_block(
        &mut self,
        r: &mut Reader<'a>,
        block: BlockId,
        blocks: &[BlockId],
        scope: &mut Scope,
        range: &mut ValueRange,
        depth: usize,
    ) -> Result<()> {
        let at = r.offset();
        let (num_ops, has_args) = r.read_varint_flag()?;
        let num_ops = r.check_count(num_ops, 3, "operation", at)?;
        if has_args {
            let n = r.read_count(1, "block argument")?;
            if range.next.saturating_add(n) > range.end {
                return r.err(format!(
                    "value index range was outside of the expected range for the parent region, got [{}, {}), but the maximum index was {}",
                    range.next,
                    range.next.saturating_add(n),
                    range.end.saturating_sub(1)
                ));
            }
            for _ in 0..n {
                let (ty, loc) = if self.version >= VERSION_ELIDE_UNKNOWN_BLOCK_ARG_LOC {
                    let at = r.offset();
                    let (idx, has_loc) = r.read_varint_flag()?;
                    let ty = self.type_at(idx, r, at)?;
                    let loc = if has_loc {
                        self.location_ref(r)?
                    } else {
                        self.module.ctx.intern_attr(AttrData::UnknownLoc)
                    };
                    (ty, loc)
                } else {
                    let ty = self.type_ref(r)?;
                    (ty, self.location_ref(r)?)
                };
                let v = self.module.add_block_arg(block, ty, loc);
                self.define_value(r, scope, range, v)?;
            }
            if self.version >= VERSION_USE_LIST_ORDERING {
                let flag = r.read_u8()?;
                if flag != 0 {
                    let args = self.module.block(block).args.clone();
                    for (i, index_pairs, indices, at) in read_use_list(r, n)? {
                        scope.use_lists.push(UseListEntry {
                            value: args[i],
                            index_pairs,
                            indices,
                            at,
                        });
                    }
                }
            }
        }
        for _ in 0..num_ops {
            let op = self.read_op(r, blocks, scope, range, depth)?;
            self.module.push_op(block, op);
        }
        Ok(())
    }

    fn define_value(
        &mut self,
        r: &Reader<'a>,
        scope: &mut Scope,
        range: &mut ValueRange,
        v: ValueId,
    ) -> Result<()> {
        let id = range.next;
        if id >= range.end {
            return r.err(format!(
                "value index range was outside of the expected range for the parent region, got [{id}, {}), but the maximum index was {}",
                id.saturating_add(1),
                range.end.saturating_sub(1)
            ));
        }
        range.next += 1;
        if let Some(ph) = scope.placeholders.remove(&id) {
            scope.replacements.insert(ph, v);
        }
        scope.values.insert(id, v);
        Ok(())
    }

    fn value_ref(&mut self, r: &mut Reader<'a>, scope: &mut Scope) -> Result<(ValueId, bool)> {
        let at = r.offset();
        let id = r.read_varint()?;
        if id >= scope.limit as u64 {
            return r.err_at(at, format!("invalid value index: {id}"));
        }
        let id = id as usize;
        if let Some(&v) = scope.values.get(&id) {
            return Ok((v, false));
        }
        if let Some(&ph) = scope.placeholders.get(&id) {
            return Ok((ph, true));
        }
        let none = self.module.ctx.intern_type(TypeData::None);
        let ph = self.module.new_value(none, ValueDef::Placeholder, None);
        scope.placeholders.insert(id, ph);
        Ok((ph, true))
    }

    fn read_op(
        &mut self,
        r: &mut Reader<'a>,
        blocks: &[BlockId],
        scope: &mut Scope,
        range: &mut ValueRange,
        depth: usize,
    ) -> Result<OpId> {
        let at = r.offset();
        let name_idx = r.read_varint()?;
        let Some(entry) = self.dialects.op_names.get(name_idx as usize) else {
            return r.err_at(at, format!("invalid operation name index: {name_idx}"));
        };
        let name = entry.name.clone();
        let registered = entry.registered;
        let cached = self.op_name_cache[name_idx as usize];
        let mask_at = r.offset();
        let mask = r.read_u8()?;
        let loc = self.location_ref(r)?;
        let mut attributes = None;
        if mask & op_mask::HAS_ATTRS != 0 {
            let at = r.offset();
            let a = self.attr_ref(r)?;
            if !matches!(self.module.ctx.attr(a), AttrData::Dictionary(_)) {
                return r.err_at(
                    at,
                    format!(
                        "expected attribute of type: DictionaryAttr, but got: {}",
                        super::builtin_attrs::attr_kind(self.module.ctx.attr(a))
                    ),
                );
            }
            attributes = Some(a);
        }
        let properties = if mask & op_mask::HAS_PROPERTIES != 0 {
            self.read_properties_ref(r, &name, registered, cached, mask_at)?
        } else {
            None
        };
        // Payloads decoded with an older release's layouts: in MLIR 22's terms.
        let mut properties = self.retarget(&name, registered, properties, r, (mask_at, mask))?;
        // MLIR 19's verifier cached a contraction's maps in a discardable
        // `linalg.memoized_indexing_maps`; MLIR 22 keeps them in the
        // property and caches nothing, so the cache goes where it equals
        // the maps carried over.
        if !std::ptr::eq(self.layouts, self.registry) {
            attributes = self.drop_memoized_maps(&name, properties, attributes);
        }
        // Before v5, inherent attributes sit in the attribute dictionary;
        // a registered op's are moved into its properties, as MLIR does.
        if self.version < rmlir_format::bytecode::VERSION_NATIVE_PROPERTIES && cached.info.is_none()
        {
            let dialect = name.split(|&c| c == b'.').next().unwrap_or(&[]);
            if let Some(inherent) = self
                .hook(dialect)
                .and_then(|h| h.inherent_attributes(&name))
            {
                let info = rmlir_format::op_registry::OpInfo {
                    inherent_attrs: inherent,
                    has_properties: true,
                    ..Default::default()
                };
                let dict = self.dict_or_empty(attributes);
                let (props, rest) = self.split_inherent(dict, &info);
                properties = props;
                attributes = Some(rest);
            }
        }
        if self.version < rmlir_format::bytecode::VERSION_NATIVE_PROPERTIES {
            if let Some(info) = cached.info {
                if info.has_properties {
                    let dict = self.dict_or_empty(attributes);
                    let (props, rest) = self.split_inherent(dict, info);
                    // As MLIR: storage starts from the defaults, then
                    // takes the inherent attributes the file has.
                    properties = match self.parse_defaults(info, &name, r, r.offset())? {
                        Some(d) => Some(rmlir_format::op_registry::merge_default_properties(
                            &mut self.module.ctx,
                            d,
                            props,
                        )),
                        None => props,
                    };
                    attributes = Some(rest);
                    // An older release's file: the segment sizes MLIR 22
                    // added, derived from the operand count.
                    properties =
                        self.retarget_dictionary_segments(&name, properties, r, (mask_at, mask))?;
                }
            }
        }
        let mut result_types = Vec::new();
        if mask & op_mask::HAS_RESULTS != 0 {
            let n = r.read_count(1, "result")?;
            for _ in 0..n {
                result_types.push(self.type_ref(r)?);
            }
        }
        let mut operands = Vec::new();
        let mut placeholder_slots = Vec::new();
        if mask & op_mask::HAS_OPERANDS != 0 {
            let n = r.read_count(1, "operand")?;
            operands.reserve(n);
            for i in 0..n {
                let (v, ph) = self.value_ref(r, scope)?;
                if ph {
                    placeholder_slots.push(i);
                }
                operands.push(v);
            }
        }
        let mut successors = Vec::new();
        if mask & op_mask::HAS_SUCCESSORS != 0 {
            let n = r.read_count(1, "successor")?;
            for _ in 0..n {
                let at = r.offset();
                let idx = r.read_varint()?;
                match blocks.get(idx as usize) {
                    Some(&b) => successors.push(b),
                    _ => return r.err_at(at, format!("invalid successor index: {idx}")),
                }
            }
        }
        let use_lists = if mask & op_mask::HAS_USE_LIST_ORDERS != 0
            && self.version >= VERSION_USE_LIST_ORDERING
        {
            read_use_list(r, result_types.len())?
        } else {
            Vec::new()
        };
        let mut num_regions = 0;
        let mut isolated = false;
        if mask & op_mask::HAS_INLINE_REGIONS != 0 {
            let (n, iso) = r.read_varint_flag()?;
            num_regions = r.check_count(n, 1, "region", r.offset())?;
            isolated = iso;
        }
        let regions: Vec<RegionId> = (0..num_regions).map(|_| self.module.new_region()).collect();
        let name_id = match cached.id {
            Some(id) => id,
            None => {
                let id = self.module.op_names.intern(&name);
                self.op_name_cache[name_idx as usize].id = Some(id);
                id
            }
        };
        let attributes = self.dict_or_empty(attributes);
        let op = self.module.new_op(
            name_id,
            &operands,
            &result_types,
            successors,
            properties,
            attributes,
            regions.clone(),
            loc,
        );
        for i in placeholder_slots {
            scope.pending.push((op, i));
        }
        let first = self.module.op(op).first_result;
        for (i, index_pairs, indices, at) in use_lists {
            scope.use_lists.push(UseListEntry {
                value: ValueId(first + i as u32),
                index_pairs,
                indices,
                at,
            });
        }
        let n = result_types.len();
        if n > 0 && range.next.saturating_add(n) > range.end {
            return r.err(format!(
                "value index range was outside of the expected range for the parent region, got [{}, {}), but the maximum index was {}",
                range.next,
                range.next.saturating_add(n),
                range.end.saturating_sub(1)
            ));
        }
        for i in 0..n as u32 {
            self.define_value(r, scope, range, ValueId(first + i))?;
        }
        if num_regions > 0 {
            if isolated && self.version >= VERSION_LAZY_LOADING {
                let at = r.offset();
                let s = read_section(r)?;
                if s.id != SectionId::Ir {
                    return r.err_at(at, "expected IR section for region");
                }
                self.lazy.insert(
                    op,
                    LazyRegions {
                        data: s.reader(),
                        regions,
                        depth,
                    },
                );
            } else if isolated {
                let mut inner = self.new_scope();
                for region in regions {
                    self.read_region(r, region, &mut inner, 0, depth + 1)?;
                }
                self.close_scope(inner, r)?;
            } else {
                for region in regions {
                    self.read_region(r, region, scope, range.end, depth + 1)?;
                }
            }
        }
        Ok(op)
    }
    /// Reads an op's properties reference (its mask said it has one) and
    /// decodes the payload it names: with the dialect's hook when one reads
    /// it, else with the op's layout (registered) or as an attribute
    /// (unregistered) (SPEC.md §6.9).
    pub(super) fn read_properties_ref(
        &mut self,
        r: &mut Reader<'a>,
        name: &[u8],
        registered: Option<bool>,
        cached: super::OpNameCache<'a>,
        mask_at: usize,
    ) -> Result<Option<AttrId>> {
        let props_hook = match registered {
            Some(true) if cached.info.is_none() => self.hooks.properties_hook(name).cloned(),
            _ => None,
        };
        let at = r.offset();
        let idx = r.read_varint()?;
        if let Some(hook) = props_hook {
            let payload = self.properties.payload(idx, name, r, at)?;
            let mut p = Reader::new(payload, at, "Properties");
            let mut hr = super::dialect_hooks::HookReader {
                br: self,
                r: &mut p,
                error: None,
            };
            let properties = match hook.read_properties(name, &mut hr) {
                Ok(a) => a,
                Err(e) => return Err(hr.into_error(e, at)),
            };
            if !p.is_empty() {
                return r.err_at(at, "unexpected trailing bytes after the properties");
            }
            return Ok(properties);
        }
        let info = match registered {
            None => {
                return r.err_at(
                    mask_at,
                    format!(
                        "Unexpected missing `wasRegistered` opname flag at bytecode version {} with properties.",
                        self.version
                    ),
                )
            }
            Some(false) => None,
            Some(true) => match cached.layout {
                Some(info) => Some(info),
                None if self.skip_unknown => {
                    // The payload must exist; its bytes are not read.
                    self.properties.payload(idx, name, r, at)?;
                    *self.undecoded.properties.entry(name.to_vec()).or_default() += 1;
                    return Ok(None);
                }
                None => return r.err_at(at, self.unknown_layout(name)),
            },
        };
        self.decode_properties(idx, name, info, r, at)
    }
}

impl BytecodeReader<'_> {
    /// Why the properties of registered op `name` cannot be decoded: which
    /// op, which producer wrote it, and what layouts we have for its
    /// dialect (SPEC.md §7.3).
    fn unknown_layout(&self, name: &[u8]) -> String {
        let op = String::from_utf8_lossy(name);
        let dialect = op.split('.').next().unwrap_or("");
        let producer = String::from_utf8_lossy(self.producer);
        let prefix = format!("{dialect}.");
        let upstream = self
            .layouts
            .ops()
            .filter(|o| o.name.starts_with(&prefix))
            .count();
        let out_of_tree = self.out_of_tree.map(|x| x());
        let extra = out_of_tree.map_or(0, |x| {
            x.ops().filter(|o| o.name.starts_with(&prefix)).count()
        });
        let known = if upstream > 0 {
            format!(
                "the op layouts of MLIR {} know {upstream} ops of dialect '{dialect}' and not this one",
                self.layouts.release()
            )
        } else if let (true, Some(x)) = (extra > 0, out_of_tree) {
            format!(
                "the layouts of {} know {extra} ops of dialect '{dialect}' and not this one: the file may come from a newer release of the dialect",
                x.release()
            )
        } else {
            format!(
                "no op layouts we have know dialect '{dialect}' (MLIR {}'s upstream dialects{}); a layout file made from its ODS by tools/ods-json, given with `--op-layouts FILE` (README, \"Bring your own dialect\"), or `--layouts` for another MLIR release, would fit; `info` and `verify` read the rest of the file",
                self.layouts.release(),
                out_of_tree
                    .map(|x| format!(", and {}", x.release()))
                    .unwrap_or_default()
            )
        };
        format!(
            "cannot decode the properties of registered operation '{op}' (producer '{producer}'): {known}"
        )
    }

    /// `attributes`, or the empty dictionary (interned once: it is the
    /// attribute dictionary of most ops).
    pub(super) fn dict_or_empty(&mut self, attributes: Option<AttrId>) -> AttrId {
        match (attributes, self.empty_dict) {
            (Some(d), _) => d,
            (None, Some(empty)) => empty,
            (None, None) => {
                let empty = self
                    .module
                    .ctx
                    .intern_attr(AttrData::Dictionary(Vec::new()));
                self.empty_dict = Some(empty);
                empty
            }
        }
    }

    /// Splits a dictionary into (inherent attributes as properties, the rest).
    fn split_inherent(
        &mut self,
        dict: AttrId,
        info: &rmlir_format::op_registry::OpInfo,
    ) -> (Option<AttrId>, AttrId) {
        let AttrData::Dictionary(entries) = self.module.ctx.attr(dict) else {
            return (None, dict);
        };
        let (inherent, rest): (Vec<_>, Vec<_>) = entries
            .iter()
            .cloned()
            .partition(|(n, _)| info.inherent_attrs.iter().any(|i| i.as_bytes() == &n[..]));
        let mut inherent = inherent;
        // Non-attribute properties have no place before v5; the op's storage
        // starts value-initialised and shows as such (enum 0, unit false).
        for f in &info.fields_v6 {
            if let Some(a) = self.default_property(&f.kind) {
                inherent.push((f.name.as_bytes().into(), a));
            }
        }
        inherent.sort_by(|a, b| a.0.cmp(&b.0));
        let props = (!inherent.is_empty())
            .then(|| self.module.ctx.intern_attr(AttrData::Dictionary(inherent)));
        (
            props,
            self.module.ctx.intern_attr(AttrData::Dictionary(rest)),
        )
    }
}

/// One value's raw use-list entry: `(index in the range, index-pair
/// form, indices, offset)`.
pub(super) type RawUseList = (usize, bool, Vec<u64>, usize);

/// Reads (after checking its shape) a use-list order block for a range of
/// `range_size` values (SPEC.md §6.7.4).
pub(super) fn read_use_list(r: &mut Reader<'_>, range_size: usize) -> Result<Vec<RawUseList>> {
    let entries = if range_size == 1 {
        1
    } else {
        let n = r.read_count(2, "use-list entry")?;
        if n > range_size {
            return r.err(format!(
                "{n} use-list entries for a range of {range_size} values"
            ));
        }
        n
    };
    let mut out = Vec::with_capacity(entries);
    for _ in 0..entries {
        let mut index = 0;
        if range_size != 1 {
            let at = r.offset();
            let idx = r.read_varint()?;
            if idx as usize >= range_size {
                return r.err_at(
                    at,
                    format!("use-list index {idx} outside a range of {range_size} values"),
                );
            }
            index = idx as usize;
        }
        let at = r.offset();
        let (len, pairs) = r.read_varint_flag()?;
        let len = r.check_count(len, 1, "use-list", at)?;
        let mut indices = Vec::with_capacity(len);
        for _ in 0..len {
            indices.push(r.read_varint()?);
        }
        out.push((index, pairs, indices, at));
    }
    Ok(out)
}

/// Refuses regions nested deeper than `max` (`Limits::max_region_depth`).
pub(super) fn check_region_depth(r: &Reader<'_>, depth: usize, max: usize) -> Result<()> {
    if depth > max {
        return Err(r.error_at(
            r.offset(),
            ErrorKind::Limit,
            format!("regions nested deeper than the limit of {max}"),
        ));
    }
    Ok(())
}
