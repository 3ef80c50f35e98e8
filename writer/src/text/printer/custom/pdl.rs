//! Ports of the pdl_interp dialect's hand-written printers
//! (`PDLInterp.cpp`).

use super::*;

impl Printer<'_, '_> {
    /// `pdl_interp.foreach %x : t in %values { … } attributes {…} ->
    /// ^bb1` (`ForEachOp::print`): the loop variable is the body's entry
    /// block argument.
    pub(super) fn pdl_interp_foreach(&mut self, op: OpId) {
        let m = self.shared.m;
        let o = m.op(op);
        let Some(&body) = o.regions().first() else {
            return;
        };
        self.out.push(' ');
        if let Some(&arg) = entry_args(m, body).first() {
            self.value(arg);
            self.out.push_str(" : ");
            self.ty(m.value(arg).ty);
        }
        self.out.push_str(" in ");
        let ops = m.operands(op).to_vec();
        self.value_list(&ops);
        self.out.push(' ');
        self.custom_region(op, body, false, true);
        self.all_attrs_with(op, &[], true);
        self.out.push_str(" -> ");
        if let Some(&b) = o.successors().first() {
            self.block_name(b);
        }
    }
}
