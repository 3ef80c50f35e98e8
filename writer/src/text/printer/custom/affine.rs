//! Ports of the affine dialect's hand-written printers (`AffineOps.cpp`).

use super::*;

impl Printer<'_, '_> {
    /// `affine.if #set(%d)[%s] -> (t) { … } else { … } {…}`
    /// (`AffineIfOp::print`): the terminators shown only where the op has
    /// results, the else region only where it has a block.
    pub(super) fn affine_if(&mut self, op: OpId) {
        let m = self.shared.m;
        let o = m.op(op);
        let Some(cond) = inherent(m, op, b"condition") else {
            return;
        };
        let dims = match m.ctx.attr(cond) {
            AttrData::IntegerSet(set) => set.num_dims as usize,
            _ => 0,
        };
        self.out.push(' ');
        self.attr(cond, Elide::Never);
        let ops = m.operands(op).to_vec();
        self.dim_and_symbol_list(&ops, dims);
        self.arrow_result_types(op);
        self.then_else(op, o.num_results > 0);
        self.all_attrs_less(op, &["condition"]);
    }

    /// `(%d, …)[%s, …]`: the first `dims` operands, then the others if
    /// any (`printDimAndSymbolList`).
    pub(super) fn dim_and_symbol_list(&mut self, ops: &[ValueId], dims: usize) {
        let (d, s) = ops.split_at(dims.min(ops.len()));
        self.out.push('(');
        self.value_list(d);
        self.out.push(')');
        if !s.is_empty() {
            self.out.push('[');
            self.value_list(s);
            self.out.push(']');
        }
    }
}

impl Printer<'_, '_> {
    /// Affine expressions with their dimensions and symbols replaced by
    /// the SSA values bound to them, symbols as `symbol(%s)`, separated
    /// by commas (`printAffineMapOfSSAIds`).
    pub(super) fn ssa_exprs(
        &mut self,
        exprs: &[rmlir_format::affine::AffineExpr],
        num_dims: u32,
        operands: &[ValueId],
    ) {
        let m = self.shared.m;
        let names: Vec<String> = operands
            .iter()
            .map(|&v| {
                let mut s = String::new();
                self.shared.names.write_value(m, v, &mut s);
                s
            })
            .collect();
        let leaf = |f: &mut std::fmt::Formatter<'_>, sym: bool, pos: u32| -> std::fmt::Result {
            let i = if sym { num_dims + pos } else { pos } as usize;
            let name = names.get(i).map(String::as_str).unwrap_or("<<invalid>>");
            if sym {
                write!(f, "symbol({name})")
            } else {
                f.write_str(name)
            }
        };
        for (k, e) in exprs.iter().enumerate() {
            if k > 0 {
                self.out.push_str(", ");
            }
            let _ = write!(self.out, "{}", e.display_with(&leaf));
        }
    }

    /// `affine.parallel (%i, %j) = (0, max(…)) to (%n, 10) step (2, 1)
    /// reduce ("addf") -> (f32) { … } {…}` (`AffineParallelOp::print`):
    /// each bound a group of the map's results, one expression alone or
    /// `max(…)`/`min(…)` of several.
    pub(super) fn affine_parallel(&mut self, op: OpId) {
        let m = self.shared.m;
        let o = m.op(op);
        let Some(&body) = o.regions().first() else {
            return;
        };
        let args = entry_args(m, body);
        self.out.push_str(" (");
        self.value_list(&args);
        self.out.push_str(") = (");
        let operands = m.operands(op).to_vec();
        let lb_count = match inherent(m, op, b"lowerBoundsMap").map(|a| m.ctx.attr(a)) {
            Some(AttrData::AffineMap(map)) => (map.num_dims + map.num_symbols) as usize,
            _ => 0,
        };
        let (lbs, ubs) = operands.split_at(lb_count.min(operands.len()));
        self.min_max_bound(op, b"lowerBoundsMap", b"lowerBoundsGroups", lbs, "max");
        self.out.push_str(") to (");
        self.min_max_bound(op, b"upperBoundsMap", b"upperBoundsGroups", ubs, "min");
        self.out.push(')');
        let steps: Vec<i64> = match inherent(m, op, b"steps").map(|a| m.ctx.attr(a)) {
            Some(AttrData::Array(items)) => items
                .iter()
                .filter_map(|&a| match m.ctx.attr(a) {
                    AttrData::Integer { value, .. } => i64::try_from(value).ok(),
                    _ => None,
                })
                .collect(),
            _ => Vec::new(),
        };
        if steps.iter().any(|&s| s != 1) {
            self.out.push_str(" step (");
            for (k, s) in steps.iter().enumerate() {
                if k > 0 {
                    self.out.push_str(", ");
                }
                let _ = write!(self.out, "{s}");
            }
            self.out.push(')');
        }
        if o.num_results > 0 {
            self.out.push_str(" reduce (");
            if let Some(AttrData::Array(kinds)) =
                inherent(m, op, b"reductions").map(|a| m.ctx.attr(a))
            {
                for (k, &a) in kinds.iter().enumerate() {
                    if k > 0 {
                        self.out.push_str(", ");
                    }
                    let kind = match m.ctx.attr(a) {
                        AttrData::Integer { value, .. } => i64::try_from(value).ok(),
                        _ => None,
                    };
                    let name = kind.and_then(atomic_rmw_kind).unwrap_or("<<unknown>>");
                    let _ = write!(self.out, "\"{name}\"");
                }
            }
            self.out.push_str(") -> (");
            let results: Vec<ValueId> = o.results().collect();
            self.type_list(&results);
            self.out.push(')');
        }
        self.out.push(' ');
        self.custom_region(op, body, false, o.num_results > 0);
        self.all_attrs_less(
            op,
            &[
                "reductions",
                "lowerBoundsMap",
                "lowerBoundsGroups",
                "upperBoundsMap",
                "upperBoundsGroups",
                "steps",
            ],
        );
    }

    /// One side of `affine.parallel`'s bounds (`printMinMaxBound`).
    fn min_max_bound(
        &mut self,
        op: OpId,
        map: &[u8],
        groups: &[u8],
        operands: &[ValueId],
        keyword: &str,
    ) {
        let m = self.shared.m;
        let Some(AttrData::AffineMap(map)) = inherent(m, op, map).map(|a| m.ctx.attr(a)) else {
            return;
        };
        let sizes = inherent(m, op, groups)
            .and_then(|a| dense_ints(m, a))
            .unwrap_or_default();
        let mut start = 0usize;
        for (k, &size) in sizes.iter().enumerate() {
            if k > 0 {
                self.out.push_str(", ");
            }
            let size = usize::try_from(size).unwrap_or(0);
            let Some(exprs) = start
                .checked_add(size)
                .and_then(|end| map.results.get(start..end))
            else {
                return;
            };
            if size == 1 {
                self.ssa_exprs(exprs, map.num_dims, operands);
            } else {
                let _ = write!(self.out, "{keyword}(");
                self.ssa_exprs(exprs, map.num_dims, operands);
                self.out.push(')');
            }
            start += size;
        }
    }
}

/// `arith::stringifyAtomicRMWKind`: the kind's case name, from the ODS
/// data (`memref.atomic_rmw` holds the same enum).
fn atomic_rmw_kind(value: i64) -> Option<&'static str> {
    let syn = Catalog::upstream().get(b"memref.atomic_rmw")?;
    let kind = syn.attrs.iter().find(|a| a.name == "kind")?;
    kind.cases
        .iter()
        .find(|(_, v)| *v == value)
        .map(|(name, _)| name.as_str())
}

impl Printer<'_, '_> {
    /// `%memref[exprs]` of an affine memory op: the memref, then the map
    /// `map_name`'s results over the `n` operands after it; `None` where
    /// the map is missing.
    fn affine_access(&mut self, op: OpId, map_name: &[u8], ops: &[ValueId]) -> Option<usize> {
        let m = self.shared.m;
        let AttrData::AffineMap(map) = m.ctx.attr(inherent(m, op, map_name)?) else {
            return None;
        };
        let n = (map.num_dims + map.num_symbols) as usize;
        let (&memref, rest) = ops.split_first()?;
        let indices = rest.get(..n)?;
        self.value(memref);
        self.out.push('[');
        self.ssa_exprs(&map.results, map.num_dims, indices);
        self.out.push(']');
        Some(1 + n)
    }

    /// `affine.dma_start %src[…], %dst[…], %tag[…], %n[, %stride,
    /// %per_stride] : t, u, v` (`AffineDmaStartOp::print`): no attributes.
    pub(super) fn affine_dma_start(&mut self, op: OpId) {
        let m = self.shared.m;
        let ops = m.operands(op).to_vec();
        let mut at = 0;
        let mut memrefs = Vec::new();
        self.out.push(' ');
        for (k, map) in [&b"src_map"[..], b"dst_map", b"tag_map"]
            .into_iter()
            .enumerate()
        {
            if k > 0 {
                self.out.push_str(", ");
            }
            memrefs.extend(ops.get(at).copied());
            let Some(used) = self.affine_access(op, map, ops.get(at..).unwrap_or_default()) else {
                return;
            };
            at += used;
        }
        for &v in ops.get(at..).unwrap_or_default() {
            self.out.push_str(", ");
            self.value(v);
        }
        self.out.push_str(" : ");
        for (k, &v) in memrefs.iter().enumerate() {
            if k > 0 {
                self.out.push_str(", ");
            }
            self.ty(m.value(v).ty);
        }
    }

    /// `affine.dma_wait %tag[…], %n : t` (`AffineDmaWaitOp::print`).
    pub(super) fn affine_dma_wait(&mut self, op: OpId) {
        let m = self.shared.m;
        let ops = m.operands(op).to_vec();
        self.out.push(' ');
        let Some(used) = self.affine_access(op, b"tag_map", &ops) else {
            return;
        };
        self.out.push_str(", ");
        if let Some(&n) = ops.get(used) {
            self.value(n);
        }
        self.out.push_str(" : ");
        if let Some(&tag) = ops.first() {
            self.ty(m.value(tag).ty);
        }
    }

    /// `affine.prefetch %m[…], read, locality<3>, data {…} : t`
    /// (`AffinePrefetchOp::print`).
    pub(super) fn affine_prefetch(&mut self, op: OpId) {
        let m = self.shared.m;
        let ops = m.operands(op).to_vec();
        self.out.push(' ');
        if self.affine_access(op, b"map", &ops).is_none() {
            return;
        }
        let flag = |name: &[u8]| {
            matches!(inherent(m, op, name).map(|a| m.ctx.attr(a)),
                Some(AttrData::Integer { value, .. }) if value.sign() != Sign::NoSign)
        };
        let hint = match inherent(m, op, b"localityHint").map(|a| m.ctx.attr(a)) {
            Some(AttrData::Integer { value, .. }) => value.to_string(),
            _ => String::new(),
        };
        let _ = write!(
            self.out,
            ", {}, locality<{hint}>, {}",
            if flag(b"isWrite") { "write" } else { "read" },
            if flag(b"isDataCache") {
                "data"
            } else {
                "instr"
            }
        );
        self.all_attrs_less(op, &["map", "localityHint", "isDataCache", "isWrite"]);
        self.out.push_str(" : ");
        if let Some(&memref) = ops.first() {
            self.ty(m.value(memref).ty);
        }
    }
}
