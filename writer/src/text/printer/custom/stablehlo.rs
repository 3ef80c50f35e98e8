//! Ports of StableHLO's and CHLO's printers (SPEC.md §11.4): the
//! `custom<…>` directives their declarative formats call
//! (`AssemblyFormat.cpp` and `StablehloOps.cpp` of openxla/stablehlo)
//! and the three ops with hand-written printers (`stablehlo.constant`,
//! `stablehlo.reduce`, `stablehlo.while`). The inverse of the reader's
//! `custom_op/stablehlo_ops.rs` (SPEC.md §11.3); the op formats are the
//! same data (`rmlir_dialects::hlo::op_syntax`).

use super::directives::DirectivePrinter;
use super::*;

/// The dialects whose formats call the directives of [`DIRECTIVES`].
pub(super) const HLO_DIALECTS: &[&str] = &["stablehlo", "chlo"];

/// StableHLO's directives, by name (`print<Name>`).
pub(super) const DIRECTIVES: &[(&str, DirectivePrinter)] = &[
    ("SameOperandsAndResultType", |p, op, syn, args| {
        p.same_operands_and_result_type(op, syn, args)
    }),
    ("VariadicSameOperandsAndResultType", |p, op, syn, args| {
        p.same_operands_and_result_type(op, syn, args)
    }),
    ("ComplexOpType", |p, op, syn, args| {
        p.complex_op_type(op, syn, args)
    }),
    ("SelectOpType", |p, op, syn, args| {
        p.select_op_type(op, syn, args)
    }),
    // `printTupleOpType`: the result's tuple type alone.
    ("TupleOpType", |p, op, syn, args| {
        if let Some(&t) = p.arg_types(op, syn, args.get(1)).first() {
            p.ty(t);
        }
    }),
    // `printPairwiseOpType`: the operands' types.
    ("PairwiseOpType", |p, op, syn, args| {
        let types = p.arg_types(op, syn, args.first());
        p.types_joined(&types);
    }),
    // `printVariadicOperandWithAttribute`: each value followed by a
    // comma, the last one too.
    ("VariadicOperandWithAttribute", |p, op, syn, args| {
        let values = p.arg_operands(op, syn, args.first());
        p.value_list(&values);
        p.out.push(',');
    }),
    ("ExponentMantissa", |p, op, syn, args| {
        p.exponent_mantissa(op, syn, args)
    }),
    // `printCustomCallTarget`: `@name`.
    ("CustomCallTarget", |p, op, syn, args| {
        let m = p.shared.m;
        if let Some(a) = p.arg_attr(op, syn, args.first()) {
            match m.ctx.attr(a) {
                AttrData::String { value, .. } => symbol_ref(value, &mut p.out),
                _ => p.attr(a, Elide::Never),
            }
        }
    }),
    ("PrecisionConfig", |p, op, syn, args| {
        p.precision_config(op, syn, args.first())
    }),
    ("PrecisionConfigAndAlgorithm", |p, op, syn, args| {
        p.precision_config(op, syn, args.first());
        // `printDotAlgorithm`: the attribute without its mnemonic.
        if let Some(a) = p.arg_attr(op, syn, args.get(1)) {
            p.out.push_str(", algorithm = ");
            p.stripped_attr_var(a);
        }
    }),
    ("DotDimensionNumbers", |p, op, syn, args| {
        p.dot_dimension_numbers(op, syn, args)
    }),
    ("ConvolutionDimensions", |p, op, syn, args| {
        p.convolution_dimensions(op, syn, args)
    }),
    ("WindowAttributes", |p, op, syn, args| {
        p.window_attributes(op, syn, args)
    }),
    ("SliceRanges", |p, op, syn, args| {
        p.slice_ranges(op, syn, args)
    }),
];

/// The printer of StableHLO directive `name` for an op of `dialect`, if
/// it is one.
pub(super) fn directive(dialect: &str, name: &str) -> Option<DirectivePrinter> {
    if !HLO_DIALECTS.contains(&dialect) {
        return None;
    }
    DIRECTIVES.iter().find(|(n, _)| *n == name).map(|(_, p)| *p)
}

/// The traits of which one makes an op commutative for the compact form
/// of `stablehlo.reduce` (`isCommutativeNoRegionMatchingDialect`).
const COMMUTATIVE_TRAITS: &[&str] = &[
    "::mlir::hlo::OpTrait::IsCommutative",
    "::mlir::OpTrait::IsCommutative",
];

/// The name `stablehlo.constant` gives its result
/// (`ConstantOp::getAsmResultNames`): `%c` for integer elements, else
/// `%cst`.
pub(super) fn constant_name(m: &Module, op: OpId) -> Option<String> {
    let v = m.op(op).results().next()?;
    let elem = m.ctx.ty(m.value(v).ty).element_type()?;
    Some(
        match m.ctx.ty(elem) {
            TypeData::Integer { .. } => "c",
            _ => "cst",
        }
        .into(),
    )
}

/// The op `stablehlo.reduce`'s body `r` applies, where the reduce prints
/// in its compact form `applies <op>` (`isReduceEligibleForCompactPrint`):
/// the body holds that op and a `return` of its result; it is an op of
/// the reduce's dialect, commutative, binary, with one result, no region
/// and one type for all, that of the elements of the first input as a
/// 0-d tensor; it takes the block's arguments in order.
pub(super) fn compact_reduce_op(
    host: &rmlir_dialects::hosts::Host,
    m: &Module,
    op: OpId,
) -> Option<OpId> {
    let &r = m.op(op).regions().first()?;
    let &entry = m.region(r).blocks.first()?;
    let block = m.block(entry);
    let [inner, ret] = block.ops[..] else {
        return None;
    };
    let name = m.op_name(inner);
    let dialect = |n: &[u8]| n.split(|&c| c == b'.').next().map(<[u8]>::to_vec);
    if dialect(name) != dialect(m.op_name(op)) {
        return None;
    }
    let syn = op_syntax(host, name)?;
    let commutative = syn
        .traits
        .iter()
        .any(|t| matches!(t, Trait::Native(n) if COMMUTATIVE_TRAITS.contains(&n.as_str())));
    let binary = syn.operands.len() == 2 && syn.operands.iter().all(|o| o.arity == Arity::Single);
    let one_result = syn.results.len() == 1 && syn.results[0].arity == Arity::Single;
    if !commutative || !binary || !one_result || !syn.regions.is_empty() {
        return None;
    }
    let operands = m.operands(inner);
    let results: Vec<ValueId> = m.op(inner).results().collect();
    let &first = operands.first()?;
    let ty = m.value(first).ty;
    if operands
        .iter()
        .chain(&results)
        .any(|&v| m.value(v).ty != ty)
    {
        return None;
    }
    // The inner op works on 0-d tensors of the first input's elements.
    let &input = m.operands(op).first()?;
    let elem = m.ctx.ty(m.value(input).ty).element_type()?;
    match m.ctx.ty(ty) {
        TypeData::RankedTensor {
            shape,
            elem: e,
            encoding: None,
        } if shape.is_empty() && *e == elem => {}
        _ => return None,
    }
    if block.args[..] != operands[..] {
        return None;
    }
    let ret_name = m.op_name(ret);
    let short = ret_name.rsplit(|&c| c == b'.').next().unwrap_or_default();
    if short != b"return" || m.operands(ret) != results.as_slice() {
        return None;
    }
    Some(inner)
}

/// The integers of a `DenseI64ArrayAttr` or `DenseBoolArrayAttr`, as
/// printed (`true`/`false` for booleans).
fn dense_array_texts(m: &Module, a: AttrId) -> Option<Vec<String>> {
    let AttrData::DenseArray { elem, data } = m.ctx.attr(a) else {
        return None;
    };
    match m.ctx.ty(*elem) {
        TypeData::Integer { width: 1, .. } => Some(
            data.iter()
                .map(|&b| if b != 0 { "true" } else { "false" }.to_string())
                .collect(),
        ),
        TypeData::Integer { width: 64, .. } => Some(
            data.chunks_exact(8)
                .map(|c| i64::from_le_bytes(c.try_into().expect("8 bytes")).to_string())
                .collect(),
        ),
        _ => None,
    }
}

/// The `name = [a, b]` fields of a dialect attribute's text
/// (`printStruct`: empty lists left out), by name.
fn struct_fields(text: &str) -> Vec<(&str, Vec<&str>)> {
    let inner = text
        .split_once('<')
        .map(|(_, r)| r.strip_suffix('>').unwrap_or(r))
        .unwrap_or_default();
    let mut out = Vec::new();
    let mut rest = inner;
    while let Some((name, after)) = rest.split_once('=') {
        let name = name.trim().trim_start_matches(',').trim();
        let after = after.trim_start();
        let Some(list) = after.strip_prefix('[') else {
            break;
        };
        let Some((items, tail)) = list.split_once(']') else {
            break;
        };
        let items = items
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .collect();
        out.push((name, items));
        rest = tail;
    }
    out
}

impl Printer<'_, '_> {
    /// `types` separated by commas.
    fn types_joined(&mut self, types: &[TypeId]) {
        for (k, &t) in types.iter().enumerate() {
            if k > 0 {
                self.out.push_str(", ");
            }
            self.ty(t);
        }
    }

    /// `printFunctionalType(op)`: the op's operand types, `->`, its
    /// result types.
    fn op_functional_type(&mut self, op: OpId) {
        let m = self.shared.m;
        let ins: Vec<TypeId> = m.operands(op).iter().map(|&v| m.value(v).ty).collect();
        let outs: Vec<TypeId> = m.op(op).results().map(|v| m.value(v).ty).collect();
        self.functional_type(&ins, &outs);
    }

    /// `custom<SameOperandsAndResultType>(type(…)…, type($result))` and
    /// its `Variadic` form: the one type where every operand has the
    /// result's (or there is none), else the op's functional type
    /// (`printSameOperandsAndResultTypeImpl`).
    fn same_operands_and_result_type(&mut self, op: OpId, syn: &OpSyntax, args: &[Element]) {
        let typed: Vec<&Element> = args
            .iter()
            .filter(|a| !matches!(a, Element::Ref(_)))
            .collect();
        let Some((last, operands)) = typed.split_last() else {
            return;
        };
        let Some(&result) = self.arg_types(op, syn, Some(last)).first() else {
            return;
        };
        let same = operands.iter().all(|a| {
            self.arg_types(op, syn, Some(a))
                .iter()
                .all(|&t| t == result)
        });
        if same {
            self.ty(result);
        } else {
            self.op_functional_type(op);
        }
    }

    /// `custom<ComplexOpType>(type($lhs), type($rhs), type($result))`: the
    /// complex result type where both operands have its real counterpart
    /// (`createRealType`: the same shape and encoding), else the op's
    /// functional type.
    fn complex_op_type(&mut self, op: OpId, syn: &OpSyntax, args: &[Element]) {
        let m = self.shared.m;
        let one = |p: &Self, k: usize| p.arg_types(op, syn, args.get(k)).first().copied();
        let (Some(lhs), Some(rhs), Some(result)) = (one(self, 0), one(self, 1), one(self, 2))
        else {
            return;
        };
        let real = |t: TypeId| -> bool {
            let complex_of = |e: &TypeId, re: &TypeId| matches!(m.ctx.ty(*re), TypeData::Complex(inner) if inner == e);
            match (m.ctx.ty(t), m.ctx.ty(result)) {
                (
                    TypeData::RankedTensor {
                        shape,
                        elem,
                        encoding,
                    },
                    TypeData::RankedTensor {
                        shape: rs,
                        elem: re,
                        encoding: renc,
                    },
                ) => shape == rs && encoding == renc && complex_of(elem, re),
                (TypeData::UnrankedTensor { elem }, TypeData::UnrankedTensor { elem: re }) => {
                    complex_of(elem, re)
                }
                _ => false,
            }
        };
        if real(lhs) && real(rhs) {
            self.ty(result);
        } else {
            self.op_functional_type(op);
        }
    }

    /// `custom<SelectOpType>(type($pred), type($on_true), type($on_false),
    /// type($result))`: `pred, result` where both branches have the
    /// result's type, else the op's functional type.
    fn select_op_type(&mut self, op: OpId, syn: &OpSyntax, args: &[Element]) {
        let one = |p: &Self, k: usize| p.arg_types(op, syn, args.get(k)).first().copied();
        let (Some(pred), Some(t), Some(f), Some(result)) =
            (one(self, 0), one(self, 1), one(self, 2), one(self, 3))
        else {
            return;
        };
        if t != result || f != result {
            self.op_functional_type(op);
            return;
        }
        self.ty(pred);
        self.out.push_str(", ");
        self.ty(result);
    }

    /// `custom<ExponentMantissa>($exponent_bits, $mantissa_bits)`: `e5m10`.
    fn exponent_mantissa(&mut self, op: OpId, syn: &OpSyntax, args: &[Element]) {
        let m = self.shared.m;
        for (k, letter) in ["e", "m"].iter().enumerate() {
            self.out.push_str(letter);
            if let Some(a) = self.arg_attr(op, syn, args.get(k)) {
                match m.ctx.attr(a) {
                    AttrData::Integer { value, .. } => {
                        let _ = write!(self.out, "{value}");
                    }
                    _ => self.attr(a, Elide::All),
                }
            }
        }
    }

    /// `custom<PrecisionConfig>($precision_config)`: `, precision =
    /// [DEFAULT, HIGH]`, each `#stablehlo<precision …>` by its value;
    /// nothing without the attribute.
    fn precision_config(&mut self, op: OpId, syn: &OpSyntax, arg: Option<&Element>) {
        let m = self.shared.m;
        let Some(a) = self.arg_attr(op, syn, arg) else {
            return;
        };
        let AttrData::Array(items) = m.ctx.attr(a) else {
            return;
        };
        self.out.push_str(", precision = [");
        for (k, &item) in items.iter().enumerate() {
            if k > 0 {
                self.out.push_str(", ");
            }
            match m.ctx.attr(item) {
                AttrData::Dialect { body, ty: None } => {
                    let text = self.body_string(body);
                    let value = text
                        .trim_end_matches('>')
                        .rsplit([' ', '<'])
                        .next()
                        .unwrap_or_default()
                        .to_string();
                    self.out.push_str(&value);
                }
                _ => self.attr(item, Elide::Never),
            }
        }
        self.out.push(']');
    }

    /// `custom<DotDimensionNumbers>($dot_dimension_numbers)`:
    /// `batching_dims = [0] x [0], contracting_dims = [2] x [1]`, the
    /// batching pair left out where both are empty
    /// (`printDotDimensionNumbers`).
    fn dot_dimension_numbers(&mut self, op: OpId, syn: &OpSyntax, args: &[Element]) {
        let m = self.shared.m;
        let Some(a) = self.arg_attr(op, syn, args.first()) else {
            return;
        };
        let AttrData::Dialect { body, ty: None } = m.ctx.attr(a) else {
            self.attr(a, Elide::Never);
            return;
        };
        let text = self.body_string(body);
        let fields = struct_fields(&text);
        let get = |name: &str| -> String {
            let items = fields
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| v.join(", "))
                .unwrap_or_default();
            format!("[{items}]")
        };
        let has = |name: &str| fields.iter().any(|(n, v)| *n == name && !v.is_empty());
        if has("lhs_batching_dimensions") || has("rhs_batching_dimensions") {
            let _ = write!(
                self.out,
                "batching_dims = {} x {}, ",
                get("lhs_batching_dimensions"),
                get("rhs_batching_dimensions")
            );
        }
        let _ = write!(
            self.out,
            "contracting_dims = {} x {}",
            get("lhs_contracting_dimensions"),
            get("rhs_contracting_dimensions")
        );
    }

    /// `custom<ConvolutionDimensions>($dimension_numbers)`: what
    /// `#stablehlo.conv<…>` holds between its brackets
    /// (`printConvolutionDimensions`, `[b, 0, 1, f]x[0, 1, i, o]->[…]`).
    fn convolution_dimensions(&mut self, op: OpId, syn: &OpSyntax, args: &[Element]) {
        let m = self.shared.m;
        let Some(a) = self.arg_attr(op, syn, args.first()) else {
            return;
        };
        if let AttrData::Dialect { body, ty: None } = m.ctx.attr(a) {
            let text = self.body_string(body);
            if let Some(inner) = text.split_once('<').and_then(|(_, r)| r.strip_suffix('>')) {
                self.out.push_str(inner);
                return;
            }
        }
        self.attr(a, Elide::Never);
    }

    /// `custom<WindowAttributes>($window_strides, $padding, $lhs_dilation,
    /// $rhs_dilation, $window_reversal)`: those present as `stride = […]`,
    /// `pad = [[lo, hi], …]`, `lhs_dilate`, `rhs_dilate`, `reverse`
    /// (`printWindowAttributes`).
    fn window_attributes(&mut self, op: OpId, syn: &OpSyntax, args: &[Element]) {
        const NAMES: [&str; 5] = ["stride", "pad", "lhs_dilate", "rhs_dilate", "reverse"];
        let m = self.shared.m;
        let mut first = true;
        for (k, name) in NAMES.iter().enumerate() {
            let Some(a) = self.arg_attr(op, syn, args.get(k)) else {
                continue;
            };
            if !first {
                self.out.push_str(", ");
            }
            first = false;
            let _ = write!(self.out, "{name} = [");
            if *name == "pad" {
                let values = dense_ints(m, a).unwrap_or_default();
                for (i, pair) in values.chunks(2).enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    let hi = pair.get(1).copied().unwrap_or_default();
                    let _ = write!(self.out, "[{}, {hi}]", pair[0]);
                }
            } else {
                let items = dense_array_texts(m, a).unwrap_or_default();
                self.out.push_str(&items.join(", "));
            }
            self.out.push(']');
        }
    }

    /// `custom<SliceRanges>($start_indices, $limit_indices, $strides)`:
    /// `[start:limit:stride, …]`, a stride of 1 left out
    /// (`printSliceRanges`).
    fn slice_ranges(&mut self, op: OpId, syn: &OpSyntax, args: &[Element]) {
        let m = self.shared.m;
        let list = |p: &Self, k: usize| {
            p.arg_attr(op, syn, args.get(k))
                .and_then(|a| dense_i64s(m, a))
                .unwrap_or_default()
        };
        let (start, limit, strides) = (list(self, 0), list(self, 1), list(self, 2));
        self.out.push('[');
        if start.len() != limit.len() || start.len() != strides.len() {
            let join = |v: &[i64]| v.iter().map(i64::to_string).collect::<Vec<_>>().join(", ");
            let _ = write!(
                self.out,
                "start_indices: {}, limit_indices: {}, strides: {}]",
                join(&start),
                join(&limit),
                join(&strides)
            );
            return;
        }
        for (k, ((s, l), st)) in start.iter().zip(&limit).zip(&strides).enumerate() {
            if k > 0 {
                self.out.push_str(", ");
            }
            let _ = write!(self.out, "{s}:{l}");
            if *st != 1 {
                let _ = write!(self.out, ":{st}");
            }
        }
        self.out.push(']');
    }

    /// Whether `stablehlo.constant` prints in its custom form: its one
    /// result has its value's type, which the form reads it back with
    /// (jaxlib prints a constant whose types differ, a quantized one,
    /// otherwise: not ported).
    pub(super) fn stablehlo_constant_fits(m: &Module, op: OpId) -> bool {
        let o = m.op(op);
        let Some(value) = inherent(m, op, b"value") else {
            return false;
        };
        let mut results = o.results();
        match (results.next(), results.next()) {
            (Some(r), None) => {
                m.operands(op).is_empty()
                    && o.regions().is_empty()
                    && m.ctx.attr(value).value_type() == Some(m.value(r).ty)
            }
            _ => false,
        }
    }

    /// `stablehlo.constant {attrs} dense<…> : type` (`printConstantOp`):
    /// the attributes but `value`, then the value with its type.
    pub(super) fn stablehlo_constant(&mut self, op: OpId) {
        self.all_attrs_less(op, &["value"]);
        if let Some(v) = inherent(self.shared.m, op, b"value") {
            self.out.push(' ');
            self.attr(v, Elide::Never);
        }
    }

    /// `stablehlo.reduce(%x init: %i), … applies stablehlo.add across
    /// dimensions = […] {attrs} : (types) -> types`, or without `applies`
    /// the reducer's arguments in pairs and its region on a new line
    /// (`printReduceOp`).
    pub(super) fn stablehlo_reduce(&mut self, op: OpId) {
        let m = self.shared.m;
        let ops = m.operands(op).to_vec();
        let pairs = ops.len() / 2;
        for k in 0..pairs {
            if k > 0 {
                self.out.push_str(", ");
            }
            self.out.push('(');
            self.value(ops[k]);
            self.out.push_str(" init: ");
            self.value(ops[k + pairs]);
            self.out.push(')');
        }
        let compact = compact_reduce_op(self.shared.host, m, op);
        if let Some(inner) = compact {
            self.out.push_str(" applies ");
            keyword_or_string(m.op_name(inner), &mut self.out);
        }
        self.out.push_str(" across dimensions = [");
        let dims = inherent(m, op, b"dimensions")
            .and_then(|a| dense_i64s(m, a))
            .unwrap_or_default();
        for (k, d) in dims.iter().enumerate() {
            if k > 0 {
                self.out.push_str(", ");
            }
            let _ = write!(self.out, "{d}");
        }
        self.out.push(']');
        self.all_attrs_less(op, &["dimensions"]);
        self.out.push_str(" : ");
        self.op_functional_type(op);
        if compact.is_some() {
            return;
        }
        let Some(&body) = m.op(op).regions().first() else {
            return;
        };
        self.out.push('\n');
        self.pad();
        self.out.push_str(" reducer");
        let args = entry_args(m, body);
        for k in 0..pairs {
            self.out.push('(');
            if let Some(&a) = args.get(k) {
                self.region_argument(a, None);
            }
            self.out.push_str(", ");
            if let Some(&a) = args.get(k + pairs) {
                self.region_argument(a, None);
            }
            self.out.push_str(") ");
        }
        self.out.push(' ');
        self.custom_region(op, body, false, true);
    }

    /// `stablehlo.while(%iterArg = %x, …) : types attributes {…}` then on
    /// a new line `cond { … } do { … }`, neither region's arguments shown
    /// (`printWhileOp`).
    pub(super) fn stablehlo_while(&mut self, op: OpId) {
        let m = self.shared.m;
        let o = m.op(op);
        let ops = m.operands(op).to_vec();
        let (Some(&cond), Some(&body)) = (o.regions().first(), o.regions().get(1)) else {
            return;
        };
        let args = entry_args(m, body);
        self.out.push('(');
        for (k, (&a, &v)) in args.iter().zip(&ops).enumerate() {
            if k > 0 {
                self.out.push_str(", ");
            }
            self.value(a);
            self.out.push_str(" = ");
            self.value(v);
        }
        self.out.push(')');
        if !ops.is_empty() {
            self.out.push_str(" : ");
            let types: Vec<TypeId> = ops.iter().map(|&v| m.value(v).ty).collect();
            self.types_joined(&types);
        }
        self.all_attrs_with(op, &[], true);
        self.out.push('\n');
        self.pad();
        self.out.push_str("cond ");
        self.custom_region(op, cond, false, true);
        self.out.push_str(" do ");
        self.custom_region(op, body, false, true);
    }
}
