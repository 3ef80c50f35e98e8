//! Ports of the scf dialect's hand-written printers (`SCF.cpp`).

use super::*;

impl Printer<'_, '_> {
    /// `scf.while (%a = %x, …) : (t, …) -> (u, …) { before } do { after }
    /// attributes {…}` (`WhileOp::print`): the before region's arguments
    /// shown as the initialization list, the after region's as its entry
    /// block's header.
    pub(super) fn scf_while(&mut self, op: OpId) {
        let m = self.shared.m;
        let o = m.op(op);
        let inits = m.operands(op).to_vec();
        let (Some(&before), Some(&after)) = (o.regions().first(), o.regions().get(1)) else {
            return;
        };
        let args = entry_args(m, before);
        if !inits.is_empty() {
            self.out.push_str(" (");
            for (k, &init) in inits.iter().enumerate() {
                if k > 0 {
                    self.out.push_str(", ");
                }
                if let Some(&a) = args.get(k) {
                    self.value(a);
                }
                self.out.push_str(" = ");
                self.value(init);
            }
            self.out.push(')');
        }
        self.out.push_str(" : ");
        let ins: Vec<TypeId> = inits.iter().map(|&v| m.value(v).ty).collect();
        let outs: Vec<TypeId> = o.results().map(|v| m.value(v).ty).collect();
        self.functional_type(&ins, &outs);
        self.out.push(' ');
        self.custom_region(op, before, false, true);
        self.out.push_str(" do ");
        self.custom_region(op, after, true, true);
        self.all_attrs_with(op, &[], true);
    }

    /// `(t, …) -> u` or `-> (u, …)` (`printFunctionalType`).
    pub(super) fn functional_type(&mut self, ins: &[TypeId], outs: &[TypeId]) {
        self.out.push('(');
        for (k, &t) in ins.iter().enumerate() {
            if k > 0 {
                self.out.push_str(", ");
            }
            self.ty(t);
        }
        self.out.push_str(") -> ");
        self.result_types(outs);
    }
}

impl Printer<'_, '_> {
    /// `scf.forall (%i, …) in (%n, 8) shared_outs(%o = %t) -> (t) { … }`,
    /// or `= (lb) to (ub) step (s)` where the lower bounds are not all 0
    /// or the steps not all 1 (`ForallOp::print`); the terminator shown
    /// only where the op has results.
    pub(super) fn scf_forall(&mut self, op: OpId) {
        let m = self.shared.m;
        let o = m.op(op);
        let Some(&body) = o.regions().first() else {
            return;
        };
        let sizes = operand_segments(m, op).unwrap_or_default();
        let ops = m.operands(op).to_vec();
        let group = |k: usize| segment(&ops, &sizes, k);
        let (lbs, ubs, steps, outs) = (group(0), group(1), group(2), group(3));
        let ints = |name: &[u8]| {
            inherent(m, op, name)
                .and_then(|a| dense_i64s(m, a))
                .unwrap_or_default()
        };
        let (static_lbs, static_ubs, static_steps) = (
            ints(b"staticLowerBound"),
            ints(b"staticUpperBound"),
            ints(b"staticStep"),
        );
        let args = entry_args(m, body);
        let rank = args.len().saturating_sub(outs.len());
        self.out.push_str(" (");
        self.value_list(&args[..rank]);
        let parens = ('(', ')');
        if all_equal(m, &static_lbs, &lbs, 0) && all_equal(m, &static_steps, &steps, 1) {
            self.out.push_str(") in ");
            self.index_list(&ubs, &static_ubs, &[], parens);
        } else {
            self.out.push_str(") = ");
            self.index_list(&lbs, &static_lbs, &[], parens);
            self.out.push_str(" to ");
            self.index_list(&ubs, &static_ubs, &[], parens);
            self.out.push_str(" step ");
            self.index_list(&steps, &static_steps, &[], parens);
        }
        if !outs.is_empty() {
            self.out.push_str(" shared_outs(");
            for (k, &init) in outs.iter().enumerate() {
                if k > 0 {
                    self.out.push_str(", ");
                }
                if let Some(&a) = args.get(rank + k) {
                    self.value(a);
                }
                self.out.push_str(" = ");
                self.value(init);
            }
            self.out.push(')');
        }
        self.out.push(' ');
        if rank < args.len() {
            self.out.push_str("-> (");
            let results: Vec<ValueId> = o.results().collect();
            for (k, &r) in results.iter().enumerate() {
                if k > 0 {
                    self.out.push_str(", ");
                }
                self.ty(m.value(r).ty);
            }
            self.out.push_str(") ");
        }
        self.custom_region(op, body, false, o.num_results > 0);
        self.all_attrs_less(
            op,
            &[
                "operandSegmentSizes",
                "staticLowerBound",
                "staticUpperBound",
                "staticStep",
            ],
        );
    }

    /// `scf.forall.in_parallel { … } {…}` (`InParallelOp::print`).
    pub(super) fn scf_in_parallel(&mut self, op: OpId) {
        let m = self.shared.m;
        self.out.push(' ');
        if let Some(&r) = m.op(op).regions().first() {
            self.custom_region(op, r, false, false);
        }
        self.all_attrs_less(op, &[]);
    }

    /// `scf.execute_region -> t [no_inline] { … } {…}`
    /// (`ExecuteRegionOp::print`).
    pub(super) fn scf_execute_region(&mut self, op: OpId) {
        let m = self.shared.m;
        let o = m.op(op);
        self.arrow_result_types(op);
        self.out.push(' ');
        if inherent(m, op, b"no_inline").is_some() {
            self.out.push_str("no_inline ");
        }
        if let Some(&r) = o.regions().first() {
            self.custom_region(op, r, false, true);
        }
        self.all_attrs_less(op, &["no_inline"]);
    }
}

/// Whether each of a mixed static/dynamic list is the constant `want`:
/// a static integer, or a value an `arith.constant` defines
/// (`getConstantIntValue`).
fn all_equal(m: &Module, statics: &[i64], values: &[ValueId], want: i64) -> bool {
    let mut next = 0;
    statics.iter().all(|&n| {
        if n != i64::MIN {
            return n == want;
        }
        let v = values.get(next).copied();
        next += 1;
        v.and_then(|v| constant_int(m, v)) == Some(want.into())
    })
}
