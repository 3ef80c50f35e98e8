//! Ports of the vector dialect's hand-written printers (`VectorOps.cpp`).

use super::*;

impl Printer<'_, '_> {
    /// `vector.mask %m[, %passthru] { masked op } {…} : mask type -> t`
    /// (`MaskOp::print`): the region's first op printed inline, without
    /// its results or location, and nothing else of the region.
    pub(super) fn vector_mask(&mut self, op: OpId) {
        let m = self.shared.m;
        let o = m.op(op);
        let ops = m.operands(op).to_vec();
        self.out.push(' ');
        if let Some(&mask) = ops.first() {
            self.value(mask);
        }
        if let Some(&passthru) = ops.get(1) {
            self.out.push_str(", ");
            self.value(passthru);
        }
        self.out.push_str(" { ");
        let first = o
            .regions()
            .first()
            .and_then(|&r| m.region(r).blocks.first())
            .and_then(|&b| m.block(b).ops.first().copied());
        if let Some(inner) = first {
            self.op_body(inner);
        }
        self.out.push_str(" }");
        self.all_attrs_less(op, &[]);
        self.out.push_str(" : ");
        if let Some(&mask) = ops.first() {
            self.ty(m.value(mask).ty);
        }
        let results: Vec<ValueId> = o.results().collect();
        if !results.is_empty() {
            self.out.push_str(" -> ");
            self.type_list(&results);
        }
    }

    /// `vector.outerproduct %lhs, %rhs[, %acc {…}] : t, u`
    /// (`OuterProductOp::print`): the attributes only with an
    /// accumulator.
    pub(super) fn vector_outerproduct(&mut self, op: OpId) {
        let m = self.shared.m;
        let ops = m.operands(op).to_vec();
        let [lhs, rhs, rest @ ..] = ops.as_slice() else {
            return;
        };
        self.out.push(' ');
        self.value(*lhs);
        self.out.push_str(", ");
        self.value(*rhs);
        if let Some(&acc) = rest.first() {
            self.out.push_str(", ");
            self.value(acc);
            self.all_attrs_less(op, &[]);
        }
        self.out.push_str(" : ");
        self.ty(m.value(*lhs).ty);
        self.out.push_str(", ");
        self.ty(m.value(*rhs).ty);
    }
}
