//! Ports of the async dialect's hand-written printers (`Async.cpp`).

use super::*;

impl Printer<'_, '_> {
    /// `async.execute [%deps] (%v as %a: !async.value<t>, …) -> (…)
    /// attributes {…} { … }` (`ExecuteOp::print`): the body's arguments
    /// shown beside the operands they unwrap, the results after the
    /// token as an arrow list.
    pub(super) fn async_execute(&mut self, op: OpId) {
        let m = self.shared.m;
        let o = m.op(op);
        let sizes = operand_segments(m, op).unwrap_or_default();
        let ops = m.operands(op).to_vec();
        let (deps, operands) = (segment(&ops, &sizes, 0), segment(&ops, &sizes, 1));
        if !deps.is_empty() {
            self.out.push_str(" [");
            self.value_list(&deps);
            self.out.push(']');
        }
        let body = o.regions().first().copied();
        if !operands.is_empty() {
            let args = body.map(|r| entry_args(m, r)).unwrap_or_default();
            self.out.push_str(" (");
            for (k, &v) in operands.iter().enumerate() {
                if k > 0 {
                    self.out.push_str(", ");
                }
                self.value(v);
                self.out.push_str(" as ");
                if let Some(&a) = args.get(k) {
                    self.value(a);
                }
                self.out.push_str(": ");
                self.ty(m.value(v).ty);
            }
            self.out.push(')');
        }
        let results: Vec<ValueId> = o.results().skip(1).collect();
        if !results.is_empty() {
            self.out.push_str(" -> ");
            let types: Vec<TypeId> = results.iter().map(|&v| m.value(v).ty).collect();
            self.result_types(&types);
        }
        self.all_attrs_with(op, &["operandSegmentSizes"], true);
        self.out.push(' ');
        if let Some(r) = body {
            self.custom_region(op, r, false, true);
        }
    }
}
