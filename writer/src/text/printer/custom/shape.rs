//! Ports of the shape dialect's hand-written printers (`Shape.cpp`).

use super::*;

impl Printer<'_, '_> {
    /// `shape.assuming %w -> (t, …) { … } {…}` (`AssumingOp::print`): the
    /// terminator shown only where the op has results.
    pub(super) fn shape_assuming(&mut self, op: OpId) {
        let m = self.shared.m;
        let o = m.op(op);
        self.out.push(' ');
        if let Some(&w) = m.operands(op).first() {
            self.value(w);
        }
        let results: Vec<ValueId> = o.results().collect();
        if !results.is_empty() {
            self.out.push_str(" -> (");
            self.type_list(&results);
            self.out.push(')');
        }
        self.out.push(' ');
        if let Some(&r) = o.regions().first() {
            self.custom_region(op, r, false, !results.is_empty());
        }
        self.all_attrs_less(op, &[]);
    }
}

impl Printer<'_, '_> {
    /// `shape.reduce(%shape, %init…) : t -> u { … } {…}`
    /// (`ReduceOp::print`).
    pub(super) fn shape_reduce(&mut self, op: OpId) {
        let m = self.shared.m;
        let o = m.op(op);
        let ops = m.operands(op).to_vec();
        let Some((&shape, inits)) = ops.split_first() else {
            return;
        };
        self.out.push('(');
        self.value(shape);
        if !inits.is_empty() {
            self.out.push_str(", ");
            self.value_list(inits);
        }
        self.out.push_str(") : ");
        self.ty(m.value(shape).ty);
        self.arrow_result_types(op);
        self.out.push(' ');
        if let Some(&r) = o.regions().first() {
            self.custom_region(op, r, true, true);
        }
        self.all_attrs_less(op, &[]);
    }
}
