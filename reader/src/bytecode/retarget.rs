//! Carrying properties decoded with an older MLIR release's layouts over to
//! the registry's (MLIR 22's), as MLIR 22 would hold them had it created the
//! op from the same values (SPEC.md §7.2).
//!
//! Properties payloads are positional and unversioned: MLIR 22 cannot read
//! an op whose layout changed since the release that wrote the file. We
//! decode such a payload with the writer's own layout (names and values),
//! then map it by field name:
//!
//! * a field both releases have is kept when its encoding class agrees
//!   (attribute to attribute of the same C++ class, or of a class the value
//!   provably is; property to property of the same kind);
//! * a field the target lacks (or cannot hold: its encoding changed) is an
//!   error naming the op and the field — never a silent drop — unless its
//!   value is the writing release's default for the op (every op that
//!   release creates has it, so the file cannot tell it from "never set");
//!   such a field is left out and the target field, if any, is missing;
//! * a target field the file lacks is absent when optional, and otherwise
//!   takes the target's default properties (what MLIR 22 gives a new op),
//!   or its value-initialised storage for a non-attribute property; a
//!   required attribute with neither is an error;
//! * segment sizes must describe the same number of operand (result)
//!   groups in both releases: otherwise the op's operand structure changed
//!   and is an error.

use super::binary_reader::Reader;
use super::BytecodeReader;
use crate::error::{ErrorKind, Result};
use rmlir_format::op_registry::{merge_default_properties, Field, FieldKind, OpInfo, OpRegistry};
use rmlir_format::*;

/// Why a field cannot be carried over, or `None` when it can.
fn incompatible(ctx: &Context, from: &Field, to: &Field, value: AttrId) -> Option<String> {
    use FieldKind::*;
    let attr_like = |k: &FieldKind| matches!(k, Attr | OptAttr);
    let seg = |k: &FieldKind| match k {
        SparseSegments { size } => Some(*size),
        LegacySegments => Some(0),
        _ => None,
    };
    if let (Some(_), Some(_)) = (seg(&from.kind), seg(&to.kind)) {
        return None; // sizes are compared op-wide (they need both lists)
    }
    if attr_like(&from.kind) && attr_like(&to.kind) {
        let (a, b) = (norm(from.ctype.as_deref()), norm(to.ctype.as_deref()));
        if a == b || attr_is_class(ctx, value, b) {
            return None;
        }
        return Some(format!(
            "its attribute class changed from {} to {}",
            from.ctype.as_deref().unwrap_or("?"),
            to.ctype.as_deref().unwrap_or("?")
        ));
    }
    if from.kind == to.kind {
        // A property of the same wire kind: same representation. (An enum's
        // numbering is not compared: it lives in C++, not in the layouts.)
        return None;
    }
    Some(format!(
        "its encoding changed from {} to {}",
        kind_name(&from.kind),
        kind_name(&to.kind)
    ))
}

fn norm(ctype: Option<&str>) -> &str {
    ctype.map(|c| c.trim_start_matches("::")).unwrap_or("")
}

/// Whether `a` is an instance of the builtin attribute class `ctype`
/// (only classes whose instances we can tell apart; others: false).
fn attr_is_class(ctx: &Context, a: AttrId, ctype: &str) -> bool {
    let data = ctx.attr(a);
    let elem_width = |elem: TypeId| match ctx.ty(elem) {
        TypeData::Integer { width, .. } => Some(*width),
        _ => None,
    };
    match ctype {
        "mlir::ArrayAttr" => matches!(data, AttrData::Array(_)),
        "mlir::DictionaryAttr" => matches!(data, AttrData::Dictionary(_)),
        "mlir::StringAttr" => matches!(data, AttrData::String { .. }),
        "mlir::UnitAttr" => matches!(data, AttrData::Unit),
        "mlir::TypeAttr" => matches!(data, AttrData::Type(_)),
        "mlir::IntegerAttr" => matches!(data, AttrData::Integer { .. }),
        "mlir::SymbolRefAttr" => matches!(data, AttrData::SymbolRef { .. }),
        "mlir::FlatSymbolRefAttr" => {
            matches!(data, AttrData::SymbolRef { nested, .. } if nested.is_empty())
        }
        "mlir::DenseI64ArrayAttr"
        | "mlir::DenseI32ArrayAttr"
        | "mlir::DenseI16ArrayAttr"
        | "mlir::DenseI8ArrayAttr"
        | "mlir::DenseBoolArrayAttr" => {
            let want = match ctype {
                "mlir::DenseI64ArrayAttr" => 64,
                "mlir::DenseI32ArrayAttr" => 32,
                "mlir::DenseI16ArrayAttr" => 16,
                "mlir::DenseI8ArrayAttr" => 8,
                _ => 1,
            };
            matches!(data, AttrData::DenseArray { elem, .. } if elem_width(*elem) == Some(want))
        }
        _ => false,
    }
}

fn kind_name(k: &FieldKind) -> String {
    match k {
        FieldKind::Attr => "a required attribute".into(),
        FieldKind::OptAttr => "an optional attribute".into(),
        FieldKind::LegacySegments | FieldKind::SparseSegments { .. } => "segment sizes".into(),
        FieldKind::Int { bits, .. } => format!("a {bits}-bit integer property"),
        FieldKind::Bool => "a bool property".into(),
        FieldKind::Unit => "a unit property".into(),
        FieldKind::String => "a string property".into(),
        FieldKind::Enum { bits } => format!("a {bits}-bit enum property"),
        FieldKind::Array(k) => format!("an array property of {}", kind_name(k)),
        FieldKind::Optional(k) => format!("an optional property of {}", kind_name(k)),
    }
}

fn field<'i>(info: &'i OpInfo, name: &[u8]) -> Option<&'i Field> {
    info.fields_v6
        .iter()
        .chain(&info.fields_v5)
        .find(|f| f.name.as_bytes() == name)
}

fn segment_sizes(info: &OpInfo) -> Vec<(&str, usize)> {
    info.fields_v6
        .iter()
        .filter_map(|f| match f.kind {
            FieldKind::SparseSegments { size } => Some((f.name.as_str(), size)),
            _ => None,
        })
        .collect()
}

impl<'a> BytecodeReader<'a> {
    /// The properties of op `name` (registered flag `registered`) in the
    /// registry's terms; unchanged unless they were decoded with an older
    /// release's layouts (from v5, where payloads exist).
    pub(super) fn retarget(
        &mut self,
        name: &[u8],
        registered: Option<bool>,
        props: Option<AttrId>,
        r: &Reader<'a>,
        (at, mask): (usize, u8),
    ) -> Result<Option<AttrId>> {
        if std::ptr::eq(self.layouts, self.registry)
            || self.version < rmlir_format::bytecode::VERSION_NATIVE_PROPERTIES
            || registered != Some(true)
        {
            return Ok(props);
        }
        let (layouts, registry) = (self.layouts, self.registry);
        let fail = |this: &Self, msg: String| Err(this.cannot_carry_over(name, msg, r, at));
        let given: Vec<(Bytes, AttrId)> = match props.map(|p| self.module.ctx.attr(p)) {
            None => Vec::new(),
            Some(AttrData::Dictionary(d)) => d.clone(),
            Some(_) => return Ok(props),
        };
        let Some(to) = registry.get(name) else {
            // An op neither release knows was decoded with out-of-tree
            // layouts (`ReadOptions::out_of_tree`): its payload is taken as
            // it is, whoever wrote it (SPEC.md §7.3).
            if given.is_empty() || layouts.get(name).is_none() {
                return Ok(props);
            }
            return fail(
                self,
                format!("MLIR {} has no such operation", registry.release()),
            );
        };
        if !to.has_properties {
            if let Some((k, _)) = given.first() {
                return fail(
                    self,
                    format!(
                        "its property '{}' has no place: the operation has no properties in MLIR {}",
                        String::from_utf8_lossy(k),
                        registry.release()
                    ),
                );
            }
            return Ok(None);
        }
        let from = layouts.get(name);
        // Segment sizes the older release did not write, derived.
        let mut derived: Vec<(Bytes, AttrId)> = Vec::new();
        if let Some(from) = from {
            let (a, b) = (segment_sizes(from), segment_sizes(to));
            for (seg, n) in &a {
                match b.iter().find(|(s, _)| s == seg) {
                    Some((_, m)) if m == n => {}
                    Some((_, m)) => {
                        return fail(
                            self,
                            format!(
                                "its {seg} cover {n} groups in MLIR {} but {m} in MLIR {} (the operand structure changed)",
                                layouts.release(),
                                registry.release()
                            ),
                        )
                    }
                    None => {
                        return fail(
                            self,
                            format!("MLIR {} has no {seg}", registry.release()),
                        )
                    }
                }
            }
            match self.segments_not_written(name, from, to, &[], r, mask) {
                Ok(d) => derived = d,
                Err(why) => return fail(self, why),
            }
        }
        // The writer's defaults: a value the writer's release gives every new
        // op says nothing the op itself does not (the file cannot tell it
        // from "never set"), so a field MLIR 22 cannot hold may go when it
        // has that value; any other value is an error.
        // Parsed only when needed; defaults that do not parse (in the old
        // release's syntax) drop nothing.
        let mut src_default_entries: Option<Vec<(Bytes, AttrId)>> = None;
        let mut kept = Vec::with_capacity(given.len());
        for (k, v) in given {
            let problem = match field(to, &k) {
                None => Some(format!(
                    "its property '{}' does not exist in MLIR {}",
                    String::from_utf8_lossy(&k),
                    registry.release()
                )),
                Some(tf) => from
                    .and_then(|f| field(f, &k))
                    .and_then(|ff| incompatible(&self.module.ctx, ff, tf, v))
                    .map(|why| format!("property '{}': {why}", String::from_utf8_lossy(&k))),
            };
            let Some(msg) = problem else {
                kept.push((k, v));
                continue;
            };
            if src_default_entries.is_none() {
                let d = match from {
                    Some(f) => self.parse_defaults(f, name, r, at).ok().flatten(),
                    None => None,
                };
                src_default_entries = Some(match d.map(|d| self.module.ctx.attr(d)) {
                    Some(AttrData::Dictionary(d)) => d.clone(),
                    _ => Vec::new(),
                });
            }
            if !src_default_entries
                .as_ref()
                .is_some_and(|d| d.contains(&(k.clone(), v)))
            {
                return fail(self, msg);
            }
        }
        // What MLIR 22 starts the op's storage from.
        let defaults = self.parse_defaults(to, name, r, at)?;
        let default_names: Vec<Bytes> = match defaults.map(|d| self.module.ctx.attr(d)) {
            Some(AttrData::Dictionary(d)) => d.iter().map(|(k, _)| k.clone()).collect(),
            _ => Vec::new(),
        };
        let mut merged = kept;
        for (k, v) in derived {
            if !merged.iter().any(|(x, _)| *x == k) {
                merged.push((k, v));
            }
        }
        for f in &to.fields_v6 {
            let n = f.name.as_bytes();
            if merged.iter().any(|(k, _)| &k[..] == n) || default_names.iter().any(|k| &k[..] == n)
            {
                continue;
            }
            match f.kind {
                FieldKind::OptAttr | FieldKind::SparseSegments { .. } => {}
                FieldKind::Attr => {
                    return fail(
                        self,
                        format!(
                            "MLIR {} requires the attribute '{}', which the file does not have and which has no default",
                            registry.release(),
                            f.name
                        ),
                    )
                }
                _ => {
                    if let Some(a) = self.default_property(&f.kind) {
                        merged.push((n.into(), a));
                    }
                }
            }
        }
        // linalg's contractions (`linalg.matmul`, …) gained an
        // `indexing_maps` property after MLIR 19; an op written without one
        // computes the default maps, which MLIR 22's parser stores.
        if let Some(maps) = default_indexing_maps(name) {
            if field(to, b"indexing_maps").is_some()
                && !merged.iter().any(|(k, _)| &k[..] == b"indexing_maps")
            {
                let a =
                    crate::text::parse_attr_into(&mut self.module, maps.as_bytes(), self.limits)
                        .map_err(|e| {
                            r.error_at(
                                at,
                                ErrorKind::Semantic,
                                format!(
                                    "default indexing maps of '{}': {e}",
                                    String::from_utf8_lossy(name)
                                ),
                            )
                        })?;
                merged.push((b"indexing_maps"[..].into(), a));
            }
        }
        merged.sort_by(|a, b| a.0.cmp(&b.0));
        let given = self.module.ctx.intern_attr(AttrData::Dictionary(merged));
        let out = match defaults {
            Some(d) => merge_default_properties(&mut self.module.ctx, d, Some(given)),
            None => given,
        };
        match self.module.ctx.attr(out) {
            AttrData::Dictionary(d) if d.is_empty() => Ok(None),
            _ => Ok(Some(out)),
        }
    }
}

impl<'a> BytecodeReader<'a> {
    /// The error for op `name`, at `at`, whose properties cannot be
    /// carried over to the registry's release, and why.
    fn cannot_carry_over(
        &self,
        name: &[u8],
        why: String,
        r: &Reader<'a>,
        at: usize,
    ) -> crate::error::Error {
        r.error_at(
            at,
            ErrorKind::Semantic,
            format!(
                "operation '{}' written by {} (read with the op layouts of MLIR {}): {why}; cannot carry it over to MLIR {} (known releases: {})",
                String::from_utf8_lossy(name),
                producer_text(self.producer),
                self.layouts.release(),
                self.registry.release(),
                OpRegistry::known_releases().join(", ")
            ),
        )
    }

    /// The segment sizes op `name` needs in the registry's release (`to`)
    /// that the layouts' release (`from`) does not write and `present` does
    /// not hold, derived; why not, where they cannot be (only
    /// `operandSegmentSizes` can, [`Self::derive_operand_segments`]).
    fn segments_not_written(
        &mut self,
        name: &[u8],
        from: &OpInfo,
        to: &OpInfo,
        present: &[(Bytes, AttrId)],
        r: &Reader<'a>,
        mask: u8,
    ) -> std::result::Result<Vec<(Bytes, AttrId)>, String> {
        let (a, b) = (segment_sizes(from), segment_sizes(to));
        let mut derived = Vec::new();
        for (seg, _) in b.iter().filter(|(s, _)| !a.iter().any(|(x, _)| x == s)) {
            if present.iter().any(|(k, _)| &k[..] == seg.as_bytes()) {
                continue;
            }
            let not_written = format!(
                "MLIR {} needs {seg}, which MLIR {} does not write",
                self.registry.release(),
                self.layouts.release()
            );
            if *seg != "operandSegmentSizes" {
                return Err(not_written);
            }
            match self.derive_operand_segments(name, r, mask) {
                Ok(d) => derived.extend(d),
                Err(why) => return Err(format!("{not_written}: {why}")),
            }
        }
        Ok(derived)
    }

    /// The properties of op `name` of a file before v5 (split from its
    /// attribute dictionary into the registry's properties) with the
    /// segment sizes the registry's release needs and the layouts' release
    /// did not write, derived as [`Self::retarget`] derives them from a
    /// v5+ payload: MLIR 19's `llvm.call`, written at v4, holds no
    /// `operandSegmentSizes`, and without them MLIR 22 reads its operands
    /// as none (SPEC.md §7.2).
    pub(super) fn retarget_dictionary_segments(
        &mut self,
        name: &[u8],
        props: Option<AttrId>,
        r: &Reader<'a>,
        (at, mask): (usize, u8),
    ) -> Result<Option<AttrId>> {
        let (layouts, registry) = (self.layouts, self.registry);
        if std::ptr::eq(layouts, registry) {
            return Ok(props);
        }
        let (Some(from), Some(to)) = (layouts.get(name), registry.get(name)) else {
            return Ok(props);
        };
        let mut entries = match props.map(|p| self.module.ctx.attr(p)) {
            None => Vec::new(),
            Some(AttrData::Dictionary(d)) => d.clone(),
            Some(_) => return Ok(props),
        };
        let derived = self
            .segments_not_written(name, from, to, &entries, r, mask)
            .map_err(|why| self.cannot_carry_over(name, why, r, at))?;
        if derived.is_empty() {
            return Ok(props);
        }
        for (k, v) in derived {
            // A derived list replaces the storage's value-initialised one.
            match entries.iter_mut().find(|(x, _)| *x == k) {
                Some(e) => e.1 = v,
                None => entries.push((k, v)),
            }
        }
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        Ok(Some(
            self.module.ctx.intern_attr(AttrData::Dictionary(entries)),
        ))
    }

    /// `operandSegmentSizes` (and the empty size lists of the groups of
    /// groups the registry's release added) for op `name`, which the
    /// layouts' release wrote without them, from its operand groups in
    /// both releases and its operand count, read ahead of `r` (positioned
    /// after the properties; `mask` is the op's encoding mask). Why not,
    /// where they do not follow.
    fn derive_operand_segments(
        &mut self,
        name: &[u8],
        r: &Reader<'a>,
        mask: u8,
    ) -> std::result::Result<Vec<(Bytes, AttrId)>, String> {
        use rmlir_format::op_format::operand_groups::{derive_operand_segments, operand_groups};
        let groups = |reg: &OpRegistry| {
            reg.release_major()
                .and_then(|m| operand_groups(m, name))
                .ok_or_else(|| {
                    format!(
                        "we have no operand groups of MLIR {}'s '{}' to derive them from",
                        reg.release(),
                        String::from_utf8_lossy(name)
                    )
                })
        };
        let (old, new) = (groups(self.layouts)?, groups(self.registry)?);
        let n = peek_operand_count(r, mask).map_err(|e| e.to_string())?;
        let d = derive_operand_segments(old, new, n)?;
        let i32_ty = self.module.ctx.intern_type(TypeData::signless(32));
        let array = |ctx: &mut Context, sizes: &[i32]| {
            ctx.intern_attr(AttrData::DenseArray {
                elem: i32_ty,
                data: sizes.iter().flat_map(|s| s.to_le_bytes()).collect(),
            })
        };
        let mut out = vec![(
            b"operandSegmentSizes"[..].into(),
            array(&mut self.module.ctx, &d.sizes),
        )];
        for list in d.empty_lists {
            out.push((list.as_bytes().into(), array(&mut self.module.ctx, &[])));
        }
        Ok(out)
    }

    /// `attributes` without a `linalg.memoized_indexing_maps` equal to the
    /// `indexing_maps` property of `properties`, for the ops
    /// [`default_indexing_maps`] knows.
    pub(super) fn drop_memoized_maps(
        &mut self,
        name: &[u8],
        properties: Option<AttrId>,
        attributes: Option<AttrId>,
    ) -> Option<AttrId> {
        const MEMO: &[u8] = b"linalg.memoized_indexing_maps";
        if default_indexing_maps(name).is_none() {
            return attributes;
        }
        let ctx = &self.module.ctx;
        let maps = match properties.map(|p| ctx.attr(p)) {
            Some(AttrData::Dictionary(d)) => d
                .iter()
                .find(|(k, _)| &k[..] == b"indexing_maps")
                .map(|(_, v)| *v),
            _ => None,
        };
        let Some(AttrData::Dictionary(d)) = attributes.map(|a| ctx.attr(a)) else {
            return attributes;
        };
        if maps.is_none() || !d.iter().any(|(k, v)| &k[..] == MEMO && Some(*v) == maps) {
            return attributes;
        }
        let rest: Vec<(Bytes, AttrId)> =
            d.iter().filter(|(k, _)| &k[..] != MEMO).cloned().collect();
        Some(self.module.ctx.intern_attr(AttrData::Dictionary(rest)))
    }

    /// An op's default properties (SPEC.md §7.1) as a dictionary attribute.
    pub(super) fn parse_defaults(
        &mut self,
        info: &OpInfo,
        name: &[u8],
        r: &Reader<'a>,
        at: usize,
    ) -> Result<Option<AttrId>> {
        let Some(text) = &info.default_properties else {
            return Ok(None);
        };
        crate::text::parse_attr_into(&mut self.module, text.as_bytes(), self.limits)
            .map(Some)
            .map_err(|e| {
                r.error_at(
                    at,
                    ErrorKind::Semantic,
                    format!(
                        "the op registry's default properties of '{}' do not parse: {e}",
                        String::from_utf8_lossy(name)
                    ),
                )
            })
    }
}

/// The `indexing_maps` MLIR 22's parser gives op `name` when the text has
/// none (the contractions of linalg's ODS, from the OpDSL data), as text.
pub(super) fn default_indexing_maps(name: &[u8]) -> Option<&'static str> {
    let name = std::str::from_utf8(name).ok()?;
    rmlir_format::op_format::opdsl::op(name)?
        .default_maps
        .as_deref()
}

/// The operand count of the op whose result types `r` is at (its
/// properties read), without moving `r`.
fn peek_operand_count(r: &Reader<'_>, mask: u8) -> Result<usize> {
    use rmlir_format::bytecode::op_mask;
    let mut ahead = r.clone();
    if mask & op_mask::HAS_RESULTS != 0 {
        let n = ahead.read_count(1, "result")?;
        for _ in 0..n {
            ahead.read_varint()?;
        }
    }
    if mask & op_mask::HAS_OPERANDS == 0 {
        return Ok(0);
    }
    ahead.read_count(1, "operand")
}

fn producer_text(p: &[u8]) -> String {
    if p.is_empty() {
        "an empty producer".into()
    } else {
        format!("'{}'", String::from_utf8_lossy(p))
    }
}
