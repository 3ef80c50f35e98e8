//! Custom directives of declarative formats (`custom<Name>(…)`): ports
//! of the C++ `print<Name>` functions ODS formats call, registered once
//! by name. A format with a directive not registered here prints in the
//! generic form.

use super::*;

/// Prints a custom directive of `op` with the directive's arguments as
/// the format gives them.
pub(super) type DirectivePrinter = fn(&mut Printer<'_, '_>, OpId, &OpSyntax, &[Element]);

/// The custom directives ported: the dialects whose ops call them (none:
/// any; dialects reuse names for different printers, `SwitchOpCases` of
/// cf and llvm), their name, their printer.
const DIRECTIVES: &[(&[&str], &str, DirectivePrinter)] = &[
    // `printInsertExtractValueElementType` and `printShuffleType` print
    // nothing: the types follow from the others.
    (&["llvm"], "InsertExtractValueElementType", |_, _, _, _| {}),
    (&["llvm"], "ShuffleType", |_, _, _, _| {}),
    (&[], "DynamicIndexList", |p, op, syn, args| {
        p.dynamic_index_list(op, syn, args)
    }),
    (
        &["pdl_interp"],
        "CreateOperationOpAttributes",
        |p, op, syn, args| p.named_attribute_operands(op, syn, args),
    ),
    (&["pdl"], "OperationOpAttributes", |p, op, syn, args| {
        p.named_attribute_operands(op, syn, args)
    }),
    (
        &["pdl_interp"],
        "CreateOperationOpResults",
        |p, op, syn, args| p.create_operation_results(op, syn, args),
    ),
    (&["transform"], "SemiFunctionType", |p, op, syn, args| {
        p.semi_function_type(op, syn, args)
    }),
    (&["gpu"], "AsyncDependencies", |p, op, syn, args| {
        p.async_dependencies(op, syn, args)
    }),
    (&["async"], "AwaitResultType", |p, op, syn, args| {
        if let Some(&t) = p.arg_types(op, syn, args.first()).first() {
            p.ty(t);
        }
    }),
    (
        &["transform"],
        "PackedOrDynamicIndexList",
        |p, op, syn, args| p.packed_or_dynamic_index_list(op, syn, args),
    ),
    (&["gpu"], "AllReduceOperation", |p, op, syn, args| {
        // The enum attribute's own printer: ` add`.
        if let Some(a) = p.arg_attr(op, syn, args.first()) {
            p.out.push(' ');
            p.stripped_enum(a);
        }
    }),
    (&["gpu"], "OffloadingHandler", |p, op, syn, args| {
        // `printOffloadingHandler`: `<handler>` unless it is the default
        // `#gpu.select_object` without a parameter.
        let m = p.shared.m;
        let Some(h) = p.arg_attr(op, syn, args.first()) else {
            return;
        };
        let default = matches!(m.ctx.attr(h), AttrData::Dialect { body, ty: None }
            if &*body.dialect == "gpu" && p.body_string(body) == "select_object");
        if !default {
            p.out.push('<');
            p.attr(h, Elide::Never);
            p.out.push('>');
        }
    }),
    (&["gpu"], "LaunchDimType", |p, op, syn, args| {
        if let Some(&t) = p.arg_types(op, syn, args.first()).first() {
            if !matches!(p.shared.m.ctx.ty(t), TypeData::Index) {
                p.out.push_str(": ");
                p.ty(t);
            }
        }
    }),
    (&["gpu"], "LaunchFuncOperands", |p, op, syn, args| {
        let values = p.arg_operands(op, syn, args.first());
        if values.is_empty() {
            return;
        }
        p.out.push_str("args(");
        for (k, &v) in values.iter().enumerate() {
            if k > 0 {
                p.out.push_str(", ");
            }
            p.value(v);
            p.out.push_str(" : ");
            p.ty(p.shared.m.value(v).ty);
        }
        p.out.push(')');
    }),
    (&["ml_program"], "SymbolVisibility", |p, op, syn, args| {
        let m = p.shared.m;
        match p.arg_attr(op, syn, args.first()).map(|a| m.ctx.attr(a)) {
            Some(AttrData::String { value, .. }) => p.out.push_str(&String::from_utf8_lossy(value)),
            _ => p.out.push_str("public"),
        }
    }),
    (&["ml_program"], "TypedInitialValue", |p, op, syn, args| {
        if let Some(v) = p.arg_attr(op, syn, args.get(1)) {
            p.out.push('(');
            p.attr(v, Elide::Never);
            p.out.push(')');
        }
        p.out.push_str(" : ");
        if let Some(t) = p.arg_attr(op, syn, args.first()) {
            p.type_attr(t);
        }
    }),
    (
        &["memref"],
        "GlobalMemrefOpTypeAndInitialValue",
        |p, op, syn, args| {
            if let Some(t) = p.arg_attr(op, syn, args.first()) {
                p.type_attr(t);
            }
            let m = p.shared.m;
            if let Some(v) = p.arg_attr(op, syn, args.get(1)) {
                p.out.push_str(" = ");
                match m.ctx.attr(v) {
                    AttrData::Unit => p.out.push_str("uninitialized"),
                    _ => p.attr(v, Elide::All),
                }
            }
        },
    ),
    (&["scf"], "SwitchCases", |p, op, syn, args| {
        p.switch_cases(op, syn, args)
    }),
    (&["cf"], "SwitchOpCases", |p, op, syn, args| {
        p.switch_op_cases(op, syn, args)
    }),
    (&["transform"], "ForeachMatchSymbols", |p, op, syn, args| {
        let m = p.shared.m;
        let list = |a: Option<AttrId>| match a.map(|a| m.ctx.attr(a)) {
            Some(AttrData::Array(v)) => v.clone(),
            _ => Vec::new(),
        };
        let matchers = list(p.arg_attr(op, syn, args.first()));
        let actions = list(p.arg_attr(op, syn, args.get(1)));
        // `printForeachMatchSymbols`: a pair a line, indented twice more.
        for (k, (&matcher, &action)) in matchers.iter().zip(&actions).enumerate() {
            p.out.push('\n');
            p.pad();
            p.out.push_str("    ");
            p.attr(matcher, Elide::Never);
            p.out.push_str(" -> ");
            p.attr(action, Elide::Never);
            if k + 1 != matchers.len() {
                p.out.push_str(", ");
            }
        }
    }),
    (&["transform"], "TransformMatchDims", |p, op, syn, args| {
        // `printTransformMatchDims`: `all`, `except(1, 2)` or `1, 2`.
        let m = p.shared.m;
        if p.arg_attr(op, syn, args.get(2)).is_some() {
            p.out.push_str("all");
            return;
        }
        let inverted = p.arg_attr(op, syn, args.get(1)).is_some();
        if inverted {
            p.out.push_str("except(");
        }
        let dims = p
            .arg_attr(op, syn, args.first())
            .and_then(|a| dense_i64s(m, a))
            .unwrap_or_default();
        for (k, d) in dims.iter().enumerate() {
            if k > 0 {
                p.out.push_str(", ");
            }
            let _ = write!(p.out, "{d}");
        }
        if inverted {
            p.out.push(')');
        }
    }),
    // `printBlockArgRegion` of OpenMP's region directives, ported for
    // an op without private or reduction clauses (`FITS`): the region
    // alone, its entry block's arguments not shown.
    (&["omp"], "PrivateReductionRegion", |p, op, syn, args| {
        p.omp_region_alone(op, syn, args)
    }),
    (&["omp"], "InReductionPrivateRegion", |p, op, syn, args| {
        p.omp_region_alone(op, syn, args)
    }),
    (&["pdl_interp"], "RangeType", |p, op, syn, args| {
        p.range_type(op, syn, args)
    }),
    (&["transform"], "SequenceOpOperands", |p, op, syn, args| {
        p.sequence_op_operands(op, syn, args)
    }),
];

/// Whether a directive can print `op` as it is.
pub(super) type DirectiveFits = fn(&Printer<'_, '_>, OpId, &OpSyntax, &[Element]) -> bool;

/// The directives ported only for some shapes of their arguments, with
/// the check: an op they do not fit prints in the generic form.
const FITS: &[(&[&str], &str, DirectiveFits)] = &[
    (&["omp"], "PrivateReductionRegion", |p, op, syn, args| {
        p.only_region_given(op, syn, args)
    }),
    (&["omp"], "InReductionPrivateRegion", |p, op, syn, args| {
        p.only_region_given(op, syn, args)
    }),
];

/// The check of directive `name` as ops of `dialect` call it, if it has
/// one.
pub(super) fn fits(dialect: &str, name: &str) -> Option<DirectiveFits> {
    FITS.iter()
        .find(|(ds, n, _)| *n == name && (ds.is_empty() || ds.contains(&dialect)))
        .map(|(_, _, f)| *f)
}

/// The printer of directive `name` as ops of `dialect` call it, if it is
/// ported.
pub(super) fn directive(dialect: &str, name: &str) -> Option<DirectivePrinter> {
    if let Some(p) = super::stablehlo::directive(dialect, name) {
        return Some(p);
    }
    DIRECTIVES
        .iter()
        .find(|(ds, n, _)| *n == name && (ds.is_empty() || ds.contains(&dialect)))
        .map(|(_, _, p)| *p)
}

impl Printer<'_, '_> {
    /// The operands an argument of a directive refers to.
    pub(super) fn arg_operands(
        &self,
        op: OpId,
        syn: &OpSyntax,
        e: Option<&Element>,
    ) -> Vec<ValueId> {
        match e {
            Some(Element::Var(Var::Operand(i))) => operand_group(self.shared.m, op, syn, *i),
            _ => Vec::new(),
        }
    }

    /// The attribute an argument of a directive refers to, if the op
    /// has it.
    pub(super) fn arg_attr(&self, op: OpId, syn: &OpSyntax, e: Option<&Element>) -> Option<AttrId> {
        match e {
            Some(Element::Var(Var::Attr(i))) => {
                inherent(self.shared.m, op, syn.attrs[*i].name.as_bytes())
            }
            _ => None,
        }
    }

    /// The types an argument of a directive refers to (`type($x)`, also
    /// under `ref(…)`).
    pub(super) fn arg_types(&self, op: OpId, syn: &OpSyntax, e: Option<&Element>) -> Vec<TypeId> {
        match e {
            Some(Element::Ref(inner)) => self.arg_types(op, syn, Some(inner)),
            Some(e) => self.types_of(op, syn, e),
            None => Vec::new(),
        }
    }

    /// `custom<RangeType>(ref(type($arguments)), type($result))` of
    /// `pdl_interp.create_range`: `: type` only where there are no
    /// arguments to infer it from (`printRangeType`).
    fn range_type(&mut self, op: OpId, syn: &OpSyntax, args: &[Element]) {
        if !self.arg_types(op, syn, args.first()).is_empty() {
            return;
        }
        if let Some(&t) = self.arg_types(op, syn, args.get(1)).first() {
            self.out.push_str(": ");
            self.ty(t);
        }
    }

    /// `custom<SequenceOpOperands>($root, type($root), $extra,
    /// type($extra))` of `transform.sequence`: `%root[, %extra…] : t` or
    /// `: (t, u…)`, nothing without a root (`printSequenceOpOperands`).
    fn sequence_op_operands(&mut self, op: OpId, syn: &OpSyntax, args: &[Element]) {
        let root = self.arg_operands(op, syn, args.first());
        let Some(&root) = root.first() else {
            return;
        };
        let extra = self.arg_operands(op, syn, args.get(2));
        self.value(root);
        if !extra.is_empty() {
            self.out.push_str(", ");
            self.value_list(&extra);
        }
        self.out.push_str(" : ");
        if !extra.is_empty() {
            self.out.push('(');
        }
        self.ty(self.shared.m.value(root).ty);
        if !extra.is_empty() {
            self.out.push_str(", ");
            self.type_list(&extra);
            self.out.push(')');
        }
    }

    /// `custom<SemiFunctionType>(type($arg), type($results)[, "false"])`
    /// of transform ops: `t` without results, else `(t) -> u` or
    /// `(t) -> (u, v)` (`printSemiFunctionType`).
    fn semi_function_type(&mut self, op: OpId, syn: &OpSyntax, args: &[Element]) {
        let arg = self.arg_types(op, syn, args.first());
        let results = self.arg_types(op, syn, args.get(1));
        if !results.is_empty() {
            self.out.push('(');
        }
        if let Some(&t) = arg.first() {
            self.ty(t);
        }
        if results.is_empty() {
            return;
        }
        self.out.push_str(") -> ");
        if results.len() > 1 {
            self.out.push('(');
        }
        for (k, &t) in results.iter().enumerate() {
            if k > 0 {
                self.out.push_str(", ");
            }
            self.ty(t);
        }
        if results.len() > 1 {
            self.out.push(')');
        }
    }

    /// `custom<AsyncDependencies>(type($token), $dependencies)` of gpu
    /// ops: `async` where the op has a token result, then `[%d, …]` where
    /// it has dependencies (`printAsyncDependencies`).
    fn async_dependencies(&mut self, op: OpId, syn: &OpSyntax, args: &[Element]) {
        let token = !self.arg_types(op, syn, args.first()).is_empty();
        let deps = self.arg_operands(op, syn, args.get(1));
        if token {
            self.out.push_str("async");
        }
        if deps.is_empty() {
            return;
        }
        if token {
            self.out.push(' ');
        }
        self.out.push('[');
        self.value_list(&deps);
        self.out.push(']');
    }

    /// `custom<PackedOrDynamicIndexList>($packed, $values, $integers)` of
    /// transform ops: `*(%packed)` where there is a packed handle, else
    /// the dynamic index list (`printPackedOrDynamicIndexList`).
    fn packed_or_dynamic_index_list(&mut self, op: OpId, syn: &OpSyntax, args: &[Element]) {
        if let Some(&packed) = self.arg_operands(op, syn, args.first()).first() {
            self.out.push_str("*(");
            self.value(packed);
            self.out.push(')');
            return;
        }
        if let Some(rest) = args.get(1..) {
            self.dynamic_index_list(op, syn, rest);
        }
    }

    /// Whether of a directive's arguments only its region is there: no
    /// operand and no attribute (OpenMP's clauses empty).
    fn only_region_given(&self, op: OpId, syn: &OpSyntax, args: &[Element]) -> bool {
        args.iter().all(|a| match a {
            Element::Var(Var::Operand(_)) => self.arg_operands(op, syn, Some(a)).is_empty(),
            Element::Var(Var::Attr(_)) => self.arg_attr(op, syn, Some(a)).is_none(),
            _ => true,
        })
    }

    /// The region of an OpenMP region directive whose clauses are empty
    /// (`printBlockArgRegion`).
    fn omp_region_alone(&mut self, op: OpId, syn: &OpSyntax, args: &[Element]) {
        if let Some(Element::Var(Var::Region(i))) = args.first() {
            if let Some(&r) = region_group(self.shared.m, op, syn, *i).first() {
                self.custom_region(op, r, false, true);
            }
        }
    }

    /// A `TypeAttr` as its type.
    pub(super) fn type_attr(&mut self, a: AttrId) {
        match self.shared.m.ctx.attr(a) {
            AttrData::Type(t) => self.ty(*t),
            _ => self.attr(a, Elide::Never),
        }
    }

    /// `custom<SwitchCases>($cases, $caseRegions)` of `scf.index_switch`:
    /// each case on a new line, `case 2 { … }` (`printSwitchCases`).
    fn switch_cases(&mut self, op: OpId, syn: &OpSyntax, args: &[Element]) {
        let m = self.shared.m;
        let cases = self
            .arg_attr(op, syn, args.first())
            .and_then(|a| dense_i64s(m, a))
            .unwrap_or_default();
        let regions = match args.get(1) {
            Some(Element::Var(Var::Region(i))) => region_group(m, op, syn, *i),
            _ => Vec::new(),
        };
        for (value, r) in cases.iter().zip(regions) {
            self.out.push('\n');
            self.pad();
            let _ = write!(self.out, "case {value} ");
            self.custom_region(op, r, false, true);
        }
    }

    /// `custom<SwitchOpCases>(…)` of `cf.switch`: `default: ^bb(…)` and
    /// `value: ^bb(%a : t)` for each case, one a line
    /// (`printSwitchOpCases`).
    fn switch_op_cases(&mut self, op: OpId, syn: &OpSyntax, args: &[Element]) {
        let m = self.shared.m;
        let (
            Some(Element::Var(Var::Successor(default))),
            Some(Element::Var(Var::Successor(cases))),
        ) = (args.get(1), args.get(5))
        else {
            return;
        };
        self.out.push_str("  default: ");
        let default_dest = successor_group(m, op, syn, *default);
        let default_operands = self.arg_operands(op, syn, args.get(2));
        if let Some(&b) = default_dest.first() {
            self.successor_and_uses(b, &default_operands);
        }
        let Some(values) = self
            .arg_attr(op, syn, args.get(4))
            .and_then(|a| dense_ints(m, a))
        else {
            return;
        };
        let dests = successor_group(m, op, syn, *cases);
        let operands = self.arg_operands(op, syn, args.get(6));
        let sizes = segment_sizes(m, op, b"case_operand_segments").unwrap_or_default();
        for (k, value) in values.iter().enumerate() {
            self.out.push_str(",\n");
            self.pad();
            let _ = write!(self.out, "  {value}: ");
            if let Some(&b) = dests.get(k) {
                self.successor_and_uses(b, &segment(&operands, &sizes, k));
            }
        }
        self.out.push('\n');
        self.pad();
    }

    /// `^bb1` or `^bb1(%a, %b : t, u)` (`printSuccessorAndUseList`).
    pub(super) fn successor_and_uses(&mut self, b: BlockId, operands: &[ValueId]) {
        self.block_name(b);
        if operands.is_empty() {
            return;
        }
        self.out.push('(');
        self.value_list(operands);
        self.out.push_str(" : ");
        self.type_list(operands);
        self.out.push(')');
    }

    /// A dialect enum attribute `#dialect<mnemonic value>` as its value
    /// alone, as its `$value` format prints it.
    pub(super) fn stripped_enum(&mut self, a: AttrId) {
        let m = self.shared.m;
        if let AttrData::Dialect { body, ty: None } = m.ctx.attr(a) {
            let text = self.body_string(body);
            if let Some((_, value)) = text.split_once(' ') {
                if !value.is_empty() && !value.contains([' ', '<', '>']) {
                    self.out.push_str(value);
                    return;
                }
            }
        }
        self.attr(a, Elide::Never);
    }

    /// `custom<OperationOpAttributes>($values, $names)` of `pdl.operation`
    /// and `custom<CreateOperationOpAttributes>` of
    /// `pdl_interp.create_operation`: ` {"name" = %value, …}`, nothing
    /// without any.
    fn named_attribute_operands(&mut self, op: OpId, syn: &OpSyntax, args: &[Element]) {
        let m = self.shared.m;
        let values = self.arg_operands(op, syn, args.first());
        let names = match self.arg_attr(op, syn, args.get(1)).map(|a| m.ctx.attr(a)) {
            Some(AttrData::Array(names)) => names.clone(),
            _ => Vec::new(),
        };
        if names.is_empty() {
            return;
        }
        self.out.push_str(" {");
        for (k, &name) in names.iter().enumerate() {
            if k > 0 {
                self.out.push_str(", ");
            }
            self.attr(name, Elide::Never);
            self.out.push_str(" = ");
            if let Some(&v) = values.get(k) {
                self.value(v);
            }
        }
        self.out.push('}');
    }

    /// `custom<CreateOperationOpResults>($types, type($types), $inferred)`
    /// of `pdl_interp.create_operation`: ` -> <inferred>`, or
    /// ` -> (%t, … : !pdl.type, …)` where there are result types.
    fn create_operation_results(&mut self, op: OpId, syn: &OpSyntax, args: &[Element]) {
        if self.arg_attr(op, syn, args.get(2)).is_some() {
            self.out.push_str(" -> <inferred>");
            return;
        }
        let values = self.arg_operands(op, syn, args.first());
        if values.is_empty() {
            return;
        }
        self.out.push_str(" -> (");
        self.value_list(&values);
        self.out.push_str(" : ");
        self.type_list(&values);
        self.out.push(')');
    }
}
