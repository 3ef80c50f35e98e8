//! Ports of the gpu dialect's hand-written printers (`GPUDialect.cpp`).

use super::*;

/// The entry block arguments of `gpu.launch` before its attributions:
/// block and thread ids, grid and block sizes, and with clusters their
/// ids and sizes too.
const LAUNCH_CONFIG_ARGS: usize = 12;
const LAUNCH_CLUSTER_CONFIG_ARGS: usize = 18;

impl Printer<'_, '_> {
    /// `gpu.func @f(%a: t) workgroup(%w : u) private(%p : v) kernel
    /// attributes {…} { … }` (`GPUFuncOp::print`): the attributions are
    /// the entry block's arguments after the function's inputs.
    pub(super) fn gpu_func(&mut self, op: OpId) {
        let m = self.shared.m;
        let o = m.op(op);
        self.out.push(' ');
        let ins = self.name_and_signature(op);
        let body = o.regions().first().copied();
        let args = body.map(|r| entry_args(m, r)).unwrap_or_default();
        let workgroup = match inherent(m, op, b"workgroup_attributions").map(|a| m.ctx.attr(a)) {
            Some(AttrData::Integer { value, .. }) => usize::try_from(value).unwrap_or(0),
            _ => 0,
        };
        let attributions = args.get(ins.len()..).unwrap_or_default();
        let (wg, private) = attributions.split_at(workgroup.min(attributions.len()));
        let dicts = |name: &[u8]| match inherent(m, op, name).map(|a| m.ctx.attr(a)) {
            Some(AttrData::Array(v)) => v.clone(),
            _ => Vec::new(),
        };
        self.attributions("workgroup", wg, &dicts(b"workgroup_attrib_attrs"));
        self.attributions("private", private, &dicts(b"private_attrib_attrs"));
        if inherent(m, op, b"gpu.kernel").is_some() {
            self.out.push_str(" kernel");
        }
        self.all_attrs_with(
            op,
            &[
                "sym_name",
                "workgroup_attributions",
                "gpu.kernel",
                "function_type",
                "arg_attrs",
                "res_attrs",
                "workgroup_attrib_attrs",
                "private_attrib_attrs",
            ],
            true,
        );
        self.out.push(' ');
        if let Some(r) = body {
            self.custom_region(op, r, false, true);
        }
    }

    /// ` workgroup(%a : t {…}, …)` (`printAttributions`), nothing without
    /// any.
    fn attributions(&mut self, keyword: &str, values: &[ValueId], attrs: &[AttrId]) {
        if values.is_empty() {
            return;
        }
        let m = self.shared.m;
        self.out.push(' ');
        self.out.push_str(keyword);
        self.out.push('(');
        for (k, &v) in values.iter().enumerate() {
            if k > 0 {
                self.out.push_str(", ");
            }
            self.value(v);
            self.out.push_str(" : ");
            self.ty(m.value(v).ty);
            if let Some(AttrData::Dictionary(d)) = attrs.get(k).map(|&a| m.ctx.attr(a)) {
                if !d.is_empty() {
                    self.out.push_str(" {");
                    self.dict_entries(d);
                    self.out.push('}');
                }
            }
        }
        self.out.push(')');
    }

    /// `gpu.launch [async [%d]] [clusters(…) in (…)] blocks(%bx, %by, %bz)
    /// in (%gx = %a, …) threads(…) in (…) [dynamic_shared_memory_size %s]
    /// [module(@m)] [function(@f)] workgroup(…) private(…) { … } {…}`
    /// (`LaunchOp::print`).
    pub(super) fn gpu_launch(&mut self, op: OpId) {
        let m = self.shared.m;
        let o = m.op(op);
        let sizes = operand_segments(m, op).unwrap_or_default();
        let ops = m.operands(op).to_vec();
        let group = |k: usize| segment(&ops, &sizes, k);
        let Some(&body) = o.regions().first() else {
            return;
        };
        let args = entry_args(m, body);
        if o.num_results > 0 {
            self.out.push_str(" async");
            let deps = group(0);
            if !deps.is_empty() {
                self.out.push_str(" [");
                self.value_list(&deps);
                self.out.push(']');
            }
        }
        let cluster = (7..10).all(|k| group(k).len() == 1);
        let config = if cluster {
            LAUNCH_CLUSTER_CONFIG_ARGS
        } else {
            LAUNCH_CONFIG_ARGS
        };
        let arg = |k: usize| args.get(k).copied();
        let operand = |k: usize| group(k).first().copied();
        if cluster {
            self.out.push_str(" clusters");
            self.size_assignment(
                [12, 13, 14].map(arg),
                [15, 16, 17].map(arg),
                [7, 8, 9].map(operand),
            );
        }
        self.out.push_str(" blocks");
        self.size_assignment(
            [0, 1, 2].map(arg),
            [6, 7, 8].map(arg),
            [1, 2, 3].map(operand),
        );
        self.out.push_str(" threads");
        self.size_assignment(
            [3, 4, 5].map(arg),
            [9, 10, 11].map(arg),
            [4, 5, 6].map(operand),
        );
        if let Some(v) = operand(10) {
            self.out.push_str(" dynamic_shared_memory_size ");
            self.value(v);
        }
        for (name, keyword) in [(&b"module"[..], " module("), (b"function", " function(")] {
            if let Some(a) = inherent(m, op, name) {
                self.out.push_str(keyword);
                self.attr(a, Elide::All);
                self.out.push(')');
            }
        }
        let workgroup = match inherent(m, op, b"workgroup_attributions").map(|a| m.ctx.attr(a)) {
            Some(AttrData::Integer { value, .. }) => usize::try_from(value).unwrap_or(0),
            _ => 0,
        };
        let attributions = args.get(config..).unwrap_or_default();
        let (wg, private) = attributions.split_at(workgroup.min(attributions.len()));
        self.attributions("workgroup", wg, &[]);
        self.attributions("private", private, &[]);
        self.out.push(' ');
        self.custom_region(op, body, false, true);
        self.all_attrs_less(
            op,
            &[
                "operandSegmentSizes",
                "workgroup_attributions",
                "module",
                "function",
            ],
        );
    }

    /// `(%x, %y, %z) in (%sx = %a, %sy = %b, %sz = %c)`
    /// (`printSizeAssignment`).
    fn size_assignment(
        &mut self,
        ids: [Option<ValueId>; 3],
        sizes: [Option<ValueId>; 3],
        operands: [Option<ValueId>; 3],
    ) {
        self.out.push('(');
        for (k, id) in ids.iter().enumerate() {
            if k > 0 {
                self.out.push_str(", ");
            }
            if let Some(v) = id {
                self.value(*v);
            }
        }
        self.out.push_str(") in (");
        for k in 0..3 {
            if k > 0 {
                self.out.push_str(", ");
            }
            if let Some(v) = sizes[k] {
                self.value(v);
            }
            self.out.push_str(" = ");
            if let Some(v) = operands[k] {
                self.value(v);
            }
        }
        self.out.push(')');
    }
}
