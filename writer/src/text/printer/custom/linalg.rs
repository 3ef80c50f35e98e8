//! Ports of linalg's hand-written printers (`LinalgOps.cpp`) beyond
//! `linalg.generic` and the named ops of its OpDSL.

use super::*;

impl Printer<'_, '_> {
    /// `linalg.transpose ins(…) outs(…) permutation = [1, 0] {…}` and
    /// `linalg.broadcast … dimensions = [0]` (`TransposeOp::print`,
    /// `BroadcastOp::print`): the body is implied and not printed, nor
    /// are the result types (those of the outputs).
    pub(super) fn linalg_with_array(&mut self, op: OpId, name: &str) {
        let m = self.shared.m;
        let ops = m.operands(op).to_vec();
        let (ins, outs) = ops.split_at(1.min(ops.len()));
        self.ins_outs_split(ins, outs);
        let values = inherent(m, op, name.as_bytes())
            .and_then(|a| dense_i64s(m, a))
            .unwrap_or_default();
        // `printDenseI64ArrayAttr`, with its trailing space.
        let _ = write!(self.out, " {name} = [");
        for (k, v) in values.iter().enumerate() {
            if k > 0 {
                self.out.push_str(", ");
            }
            let _ = write!(self.out, "{v}");
        }
        self.out.push_str("] ");
        self.all_attrs_less(op, &[name]);
    }
}

impl Printer<'_, '_> {
    /// `linalg.map { arith.addf } ins(…) outs(…) {…}` and `linalg.reduce
    /// { arith.addf } ins(…) outs(…) dimensions = [1] {…}` where the body
    /// is one op on the block's arguments in order (for reduce: the init
    /// last among its operands but first among the arguments), else the
    /// arguments and the body on a new line (`MapOp::print`,
    /// `ReduceOp::print`, `findPayloadOp`, `printShortForm`).
    pub(super) fn linalg_map_or_reduce(&mut self, op: OpId, reduce: bool) {
        let m = self.shared.m;
        let o = m.op(op);
        let Some(&body) = o.regions().first() else {
            return;
        };
        let Some(&entry) = m.region(body).blocks.first() else {
            return;
        };
        let ops = m.operands(op).to_vec();
        let inputs = operand_segments(m, op)
            .and_then(|s| s.first().copied())
            .unwrap_or(ops.len().saturating_sub(1))
            .min(ops.len());
        let payload = payload_op(m, entry, if reduce { None } else { Some(inputs) }, reduce);
        if let Some(p) = payload {
            let name = String::from_utf8_lossy(m.op_name(p)).into_owned();
            let _ = write!(self.out, " {{ {name}");
            // The first fastmath attribute holding `none` is left out.
            let mut entries = op_attrs(m, p);
            if let Some(i) = entries.iter().position(|(_, v)| self.is_fastmath_none(*v)) {
                entries.remove(i);
            }
            self.attr_dict_of(&entries, false);
            self.out.push_str(" }");
        }
        let (ins, outs) = ops.split_at(inputs);
        self.ins_outs_split(ins, outs);
        if reduce {
            let dims = inherent(m, op, b"dimensions")
                .and_then(|a| dense_i64s(m, a))
                .unwrap_or_default();
            self.out.push_str(" dimensions = [");
            for (k, v) in dims.iter().enumerate() {
                if k > 0 {
                    self.out.push_str(", ");
                }
                let _ = write!(self.out, "{v}");
            }
            self.out.push_str("] ");
            self.all_attrs_less(op, &["dimensions"]);
        } else {
            self.all_attrs_less(op, &[]);
        }
        if payload.is_none() {
            self.indent += 2;
            self.out.push('\n');
            self.pad();
            self.out.push('(');
            let args = m.block(entry).args.clone();
            for (k, &a) in args.iter().enumerate() {
                if k > 0 {
                    self.out.push_str(", ");
                }
                self.region_argument(a, None);
            }
            self.out.push_str(") ");
            self.custom_region(op, body, false, true);
            self.indent -= 2;
        }
    }

    /// Whether `a` is `#arith.fastmath<none>`.
    fn is_fastmath_none(&mut self, a: AttrId) -> bool {
        let m = self.shared.m;
        match m.ctx.attr(a) {
            AttrData::Dialect { body, ty: None } if &*body.dialect == "arith" => {
                self.body_string(body) == "fastmath<none>"
            }
            _ => false,
        }
    }
}

/// The one op of a map or reduce body besides its yield, where it takes
/// the block's arguments in order (`findPayloadOp`): for map the inputs'
/// arguments (`inputs` of them), for reduce all of them with the first
/// (the init) last.
pub(super) fn payload_op(
    m: &Module,
    block: BlockId,
    inputs: Option<usize>,
    init_first: bool,
) -> Option<OpId> {
    let ops = &m.block(block).ops;
    let [payload, _yield] = ops.as_slice() else {
        return None;
    };
    let operands = m.operands(*payload);
    let args = &m.block(block).args;
    let expected: Vec<ValueId> = match inputs {
        Some(n) => args.get(..n)?.to_vec(),
        None if init_first => {
            let (first, rest) = args.split_first()?;
            rest.iter().copied().chain([*first]).collect()
        }
        None => args.clone(),
    };
    (!operands.is_empty() && operands == expected.as_slice()).then_some(*payload)
}
