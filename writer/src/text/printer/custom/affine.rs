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
        let terminators = o.num_results > 0;
        let regions = o.regions().to_vec();
        self.out.push(' ');
        if let Some(&then) = regions.first() {
            self.custom_region(op, then, false, terminators);
        }
        if let Some(&other) = regions.get(1).filter(|&&r| !m.region(r).blocks.is_empty()) {
            self.out.push_str(" else ");
            self.custom_region(op, other, false, terminators);
        }
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
