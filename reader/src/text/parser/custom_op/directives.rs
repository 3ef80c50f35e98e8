//! `custom<Name>(…)` directives: the C++ parsers of those names, ported
//! (SPEC.md §11.2).

use super::*;

/// A clause of an OpenMP op that gives its region entry arguments (MLIR's
/// `parseBlockArgClause`), in the order `parseBlockArgRegion` reads them.
#[derive(Clone, Copy, PartialEq, Eq)]
enum OmpClause {
    /// `in_reduction(byref? @sym %v -> %a, … : types)`.
    InReduction,
    /// `private(@sym %v -> %a, … : types) private_barrier?`.
    Private,
    /// `reduction(byref? @sym %v -> %a, … : types)`; `mod: …` is refused.
    Reduction,
    /// `task_reduction(byref? @sym %v -> %a, … : types)`.
    TaskReduction,
}

impl OmpClause {
    fn keyword(self) -> &'static str {
        match self {
            OmpClause::InReduction => "in_reduction",
            OmpClause::Private => "private",
            OmpClause::Reduction => "reduction",
            OmpClause::TaskReduction => "task_reduction",
        }
    }
}

impl<'a> Parser<'a> {
    /// A `custom<Name>(…)` directive: the C++ parser of that name, ported.
    pub(super) fn custom_directive(
        &mut self,
        syn: &'static OpSyntax,
        name: &str,
        args: &'static [Element],
        parts: &mut Parts<'a>,
    ) -> Result<()> {
        match name {
            "DynamicIndexList" => self.dynamic_index_list(syn, args, parts),
            "AsyncDependencies" => self.async_dependencies(syn, args, parts),
            "AllReduceOperation" => self.all_reduce_operation(syn, args, parts),
            "AwaitResultType" => self.await_result_type(syn, args, parts),
            "LaunchDimType" => self.launch_dim_type(syn, args, parts),
            "LaunchFuncOperands" => self.launch_func_operands(syn, args, parts),
            "PackedOrDynamicIndexList" => self.packed_or_dynamic_index_list(syn, args, parts),
            "SemiFunctionType" => self.semi_function_type(syn, args, parts),
            "SequenceOpOperands" => self.sequence_op_operands(syn, args, parts),
            "ForeachMatchSymbols" => self.foreach_match_symbols(syn, args, parts),
            "SymbolVisibility" => self.symbol_visibility(syn, args, parts),
            "SwitchCases" => self.switch_cases(syn, args, parts),
            "SwitchOpCases" => self.switch_op_cases(syn, args, parts),
            "MapClause" => self.omp_map_clause(syn, args, parts),
            "CaptureType" => self.omp_capture_type(syn, args, parts),
            "UseDeviceAddrUseDevicePtrRegion" => self.omp_use_device_region(syn, args, parts),
            "InsertExtractValueElementType" => {
                self.insert_extract_value_element_type(syn, args, parts)
            }
            "OperationOpAttributes" | "CreateOperationOpAttributes" => {
                self.operation_op_attributes(syn, name, args, parts)
            }
            "CreateOperationOpResults" => self.create_operation_op_results(syn, args, parts),
            "TransformMatchDims" => self.transform_match_dims(syn, args, parts),
            "Var" => self.acc_var(syn, args, parts),
            "VarPtrType" => self.acc_var_ptr_type(syn, args, parts),
            "AccVar" => self.acc_acc_var(syn, args, parts),
            "LevelRange" => self.level_range(syn, args, parts),
            "OffloadingHandler" => self.offloading_handler(syn, args, parts),
            "PrivateRegion" => {
                self.omp_block_arg_region(syn, name, &[OmpClause::Private], args, parts)
            }
            "PrivateReductionRegion" => self.omp_block_arg_region(
                syn,
                name,
                &[OmpClause::Private, OmpClause::Reduction],
                args,
                parts,
            ),
            "InReductionPrivateRegion" => self.omp_block_arg_region(
                syn,
                name,
                &[OmpClause::InReduction, OmpClause::Private],
                args,
                parts,
            ),
            "TaskReductionRegion" => {
                self.omp_block_arg_region(syn, name, &[OmpClause::TaskReduction], args, parts)
            }
            "InReductionPrivateReductionRegion" => self.omp_block_arg_region(
                syn,
                name,
                &[
                    OmpClause::InReduction,
                    OmpClause::Private,
                    OmpClause::Reduction,
                ],
                args,
                parts,
            ),
            "TypedInitialValue" => self.typed_initial_value(syn, args, parts),
            "GlobalMemrefOpTypeAndInitialValue" => {
                self.global_memref_type_and_initial_value(syn, args, parts)
            }
            _ => match self.stablehlo_directive(syn, name, args, parts) {
                Some(r) => r,
                None => {
                    self.unsupported(syn, self.tok.start, &format!("directive `custom<{name}>`"))
                }
            },
        }
    }

    /// `custom<DynamicIndexList>(values, integers [, scalable flags]
    /// [, type(values)] [, delimiter])` (MLIR's `ViewLikeInterface.cpp`):
    /// a list of SSA values and integers, each maybe in `[…]` (scalable);
    /// a value stands for `ShapedType::kDynamic` in the integers.
    pub(super) fn dynamic_index_list(
        &mut self,
        syn: &'static OpSyntax,
        args: &'static [Element],
        parts: &mut Parts<'a>,
    ) -> Result<()> {
        let at = self.tok.start;
        let mut values = None;
        let mut attrs = Vec::new();
        let mut types = None;
        let mut paren = false;
        for a in args {
            match a {
                Element::Var(Var::Operand(i)) => values = Some(*i),
                Element::Var(Var::Attr(i)) => attrs.push(*i),
                Element::Type(inner) => match **inner {
                    Element::Var(Var::Operand(i)) => types = Some(i),
                    _ => return self.unsupported(syn, at, "`custom<DynamicIndexList>` types"),
                },
                Element::StringArg(s) if s.ends_with("Delimiter::Paren") => paren = true,
                Element::StringArg(s) if s == "{}" || s.ends_with("Delimiter::Square") => {}
                _ => return self.unsupported(syn, at, "a `custom<DynamicIndexList>` argument"),
            }
        }
        let (Some(values), Some(&integers)) = (values, attrs.first()) else {
            return self.unsupported(syn, at, "a `custom<DynamicIndexList>` without values");
        };
        let (open, close) = if paren {
            (Tok::LParen, Tok::RParen)
        } else {
            (Tok::LSquare, Tok::RSquare)
        };
        let mut uses = Vec::new();
        let mut value_types = Vec::new();
        let mut ints: Vec<String> = Vec::new();
        let mut scalable = Vec::new();
        self.comma_list(open, close, "'[' to begin a dynamic index list", |p| {
            let operand = p
                .is(Tok::PercentId)
                .then(|| p.parse_value_use())
                .transpose()?;
            let is_scalable = p.eat(Tok::LSquare);
            scalable.push(is_scalable);
            if let Some(u) = operand {
                uses.push(u);
                ints.push(i64::MIN.to_string());
                if types.is_some() {
                    p.expect(Tok::Colon, "':' and the value's type")?;
                    value_types.push(p.parse_type()?);
                }
            } else {
                let neg = p.eat(Tok::Minus);
                let t = p.expect(Tok::Integer, "SSA value or integer")?;
                let digits = lossy(&p.src[t.start..t.end]);
                let v: i64 = match digits.parse::<i64>() {
                    Ok(v) if neg => -v,
                    Ok(v) => v,
                    Err(_) => {
                        return p.err_at(t.start, "integer out of range in dynamic index list")
                    }
                };
                ints.push(v.to_string());
            }
            if is_scalable {
                p.expect(Tok::RSquare, "']' closing a scalable index")?;
            }
            Ok(())
        })?;
        parts.operands[values] = uses;
        if let Some(i) = types {
            parts.operand_types[i] = Some(value_types);
        }
        let text = if ints.is_empty() {
            "array<i64>".to_string()
        } else {
            format!("array<i64: {}>", ints.join(", "))
        };
        parts.attrs[integers] = Some(self.parse_attr_text(&text, at)?);
        if let Some(&flags) = attrs.get(1) {
            let list: Vec<&str> = scalable
                .iter()
                .map(|&s| if s { "true" } else { "false" })
                .collect();
            let text = if list.is_empty() {
                "array<i1>".to_string()
            } else {
                format!("array<i1: {}>", list.join(", "))
            };
            parts.attrs[flags] = Some(self.parse_attr_text(&text, at)?);
        }
        Ok(())
    }

    /// `custom<AsyncDependencies>(type($asyncToken), $asyncDependencies)`
    /// (MLIR's `GPUDialect.cpp`): `async` makes the op return a
    /// `!gpu.async.token` (its result must be named), then the tokens it
    /// waits on, in optional brackets.
    fn async_dependencies(
        &mut self,
        syn: &'static OpSyntax,
        args: &'static [Element],
        parts: &mut Parts<'a>,
    ) -> Result<()> {
        let at = self.tok.start;
        let (result, operand) = match args {
            [Element::Type(inner), Element::Var(Var::Operand(o))] => match **inner {
                Element::Var(Var::Result(r)) => (r, *o),
                _ => return self.unsupported(syn, at, "a `custom<AsyncDependencies>` argument"),
            },
            _ => return self.unsupported(syn, at, "a `custom<AsyncDependencies>` argument"),
        };
        let token = self.parse_type_text("!gpu.async.token", at)?;
        parts.result_types[result] = Some(Vec::new());
        if self.is_kw("async") {
            if !parts.named_results {
                return self.sem_err_at(at, "needs to be named when marked 'async'");
            }
            self.bump();
            parts.result_types[result] = Some(vec![token]);
        }
        let uses = if self.is(Tok::LSquare) {
            self.bracketed_value_uses()?
        } else {
            Vec::new()
        };
        parts.operand_types[operand] = Some(vec![token; uses.len()]);
        parts.operands[operand] = uses;
        Ok(())
    }

    /// `custom<AllReduceOperation>($op)` (MLIR's `GPUDialect.cpp`): an
    /// optional keyword of `gpu::AllReduceOperation`, kept as
    /// `#gpu<all_reduce_op kind>`.
    fn all_reduce_operation(
        &mut self,
        syn: &'static OpSyntax,
        args: &'static [Element],
        parts: &mut Parts<'a>,
    ) -> Result<()> {
        const KINDS: &[&str] = &[
            "add", "mul", "minui", "minsi", "minnumf", "maxui", "maxsi", "maxnumf", "and", "or",
            "xor", "minimumf", "maximumf",
        ];
        let at = self.tok.start;
        let [Element::Var(Var::Attr(i))] = args else {
            return self.unsupported(syn, at, "a `custom<AllReduceOperation>` argument");
        };
        if !self.is(Tok::BareIdent) {
            return Ok(());
        }
        let word = lossy(self.spelling());
        if !KINDS.contains(&word.as_str()) {
            return self.err("invalid op kind");
        }
        self.bump();
        parts.attrs[*i] = Some(self.parse_attr_text(&format!("#gpu<all_reduce_op {word}>"), at)?);
        Ok(())
    }

    /// `custom<AwaitResultType>(type($operand), type($result))` (MLIR's
    /// `AsyncOps.cpp`): the awaited type; an `!async.value<T>` gives a
    /// result of type `T`, a token none.
    fn await_result_type(
        &mut self,
        syn: &'static OpSyntax,
        args: &'static [Element],
        parts: &mut Parts<'a>,
    ) -> Result<()> {
        let at = self.tok.start;
        let (operand, result) = match args {
            [Element::Type(a), Element::Type(b)] => match (&**a, &**b) {
                (Element::Var(Var::Operand(o)), Element::Var(Var::Result(r))) => (*o, *r),
                _ => return self.unsupported(syn, at, "a `custom<AwaitResultType>` argument"),
            },
            _ => return self.unsupported(syn, at, "a `custom<AwaitResultType>` argument"),
        };
        let ty = self.parse_type()?;
        parts.operand_types[operand] = Some(vec![ty]);
        let payload = self.async_value_payload(ty, at)?;
        parts.result_types[result] = Some(payload.into_iter().collect());
        Ok(())
    }

    /// `custom<GlobalMemrefOpTypeAndInitialValue>($type, $initial_value)`
    /// (MLIR's `MemRefOps.cpp`): a statically shaped memref type, then
    /// optionally `= uninitialized` (a unit attribute) or `= value`, the
    /// value typed as the tensor of the memref's shape and element type.
    fn global_memref_type_and_initial_value(
        &mut self,
        syn: &'static OpSyntax,
        args: &'static [Element],
        parts: &mut Parts<'a>,
    ) -> Result<()> {
        let at = self.tok.start;
        let [Element::Var(Var::Attr(ty_slot)), Element::Var(Var::Attr(value_slot))] = args else {
            return self.unsupported(
                syn,
                at,
                "a `custom<GlobalMemrefOpTypeAndInitialValue>` argument",
            );
        };
        let ty = self.parse_type()?;
        let (shape, elem) = match self.m.ctx.ty(ty) {
            TypeData::MemRef { shape, elem, .. } if shape.iter().all(|&d| d != DYNAMIC) => {
                (shape.clone(), *elem)
            }
            _ => return self.sem_err_at(at, "type should be static shaped memref"),
        };
        parts.attrs[*ty_slot] = Some(self.m.ctx.intern_attr(AttrData::Type(ty)));
        if !self.eat(Tok::Equal) {
            return Ok(());
        }
        if self.is_kw("uninitialized") {
            self.bump();
            parts.attrs[*value_slot] = Some(self.unit_attr);
            return Ok(());
        }
        let tensor = self.m.ctx.intern_type(TypeData::RankedTensor {
            shape,
            elem,
            encoding: None,
        });
        parts.attrs[*value_slot] = Some(self.parse_attr(Some(tensor))?);
        Ok(())
    }

    /// `custom<LaunchDimType>(type($gridSizeX), ref($clusterSizeX),
    /// type($clusterSizeX), type($clusterSizeY), type($clusterSizeZ))`
    /// (MLIR's `GPUDialect.cpp`): `: type` of the launch sizes, `index`
    /// when absent; the cluster sizes, when given, have it too.
    fn launch_dim_type(
        &mut self,
        syn: &'static OpSyntax,
        args: &'static [Element],
        parts: &mut Parts<'a>,
    ) -> Result<()> {
        let at = self.tok.start;
        let operand_of = |e: &Element| match e {
            Element::Type(inner) | Element::Ref(inner) => match **inner {
                Element::Var(Var::Operand(i)) => Some(i),
                _ => None,
            },
            _ => None,
        };
        let slots: Vec<Option<usize>> = args.iter().map(operand_of).collect();
        let [Some(dim), Some(cluster_ref), Some(cx), Some(cy), Some(cz)] = slots[..] else {
            return self.unsupported(syn, at, "a `custom<LaunchDimType>` argument");
        };
        let ty = if self.eat(Tok::Colon) {
            self.parse_type()?
        } else {
            self.m.ctx.intern_type(TypeData::Index)
        };
        parts.operand_types[dim] = Some(vec![ty]);
        if !parts.operands[cluster_ref].is_empty() {
            for slot in [cx, cy, cz] {
                parts.operand_types[slot] = Some(vec![ty]);
            }
        }
        Ok(())
    }

    /// `custom<LaunchFuncOperands>($kernelOperands, type($kernelOperands))`
    /// (MLIR's `GPUDialect.cpp`): `args(%v : type, …)`, or nothing.
    fn launch_func_operands(
        &mut self,
        syn: &'static OpSyntax,
        args: &'static [Element],
        parts: &mut Parts<'a>,
    ) -> Result<()> {
        let at = self.tok.start;
        let operand = match args {
            [Element::Var(Var::Operand(o)), Element::Type(inner)] if matches!(**inner, Element::Var(Var::Operand(t)) if t == *o) => {
                *o
            }
            _ => return self.unsupported(syn, at, "a `custom<LaunchFuncOperands>` argument"),
        };
        let mut uses = Vec::new();
        let mut types = Vec::new();
        if self.is_kw("args") {
            self.bump();
            self.comma_list(Tok::LParen, Tok::RParen, "'('", |p| {
                uses.push(p.parse_value_use()?);
                p.expect(Tok::Colon, "':'")?;
                types.push(p.parse_type()?);
                Ok(())
            })?;
        }
        parts.operands[operand] = uses;
        parts.operand_types[operand] = Some(types);
        Ok(())
    }

    /// `custom<PackedOrDynamicIndexList>($packed, $values, $integers)`
    /// (MLIR's `LinalgTransformOps.cpp`): `*(%packed)`, one handle holding
    /// all the sizes (the integers then empty), or a dynamic index list.
    fn packed_or_dynamic_index_list(
        &mut self,
        syn: &'static OpSyntax,
        args: &'static [Element],
        parts: &mut Parts<'a>,
    ) -> Result<()> {
        let at = self.tok.start;
        let (Some(Element::Var(Var::Operand(packed))), Some(Element::Var(Var::Attr(integers)))) =
            (args.first(), args.get(2))
        else {
            return self.unsupported(syn, at, "a `custom<PackedOrDynamicIndexList>` argument");
        };
        if self.eat(Tok::Star) {
            self.expect(Tok::LParen, "'('")?;
            parts.operands[*packed] = vec![self.parse_value_use()?];
            self.expect(Tok::RParen, "')'")?;
            parts.attrs[*integers] = Some(self.parse_attr_text("array<i64>", at)?);
            return Ok(());
        }
        self.dynamic_index_list(syn, &args[1..], parts)
    }

    /// `custom<SemiFunctionType>(type($arg), type($results) [, "false"])`
    /// (MLIR's linalg transform `Syntax.cpp`): the argument type alone, or
    /// `(arg) -> result` (`-> (results)` for a variadic group); with
    /// `"false"` the parenthesized form is required.
    fn semi_function_type(
        &mut self,
        syn: &'static OpSyntax,
        args: &'static [Element],
        parts: &mut Parts<'a>,
    ) -> Result<()> {
        let at = self.tok.start;
        let (Some(Element::Type(arg)), Some(Element::Type(res))) = (args.first(), args.get(1))
        else {
            return self.unsupported(syn, at, "a `custom<SemiFunctionType>` argument");
        };
        let optional = !matches!(args.get(2), Some(Element::StringArg(s)) if s == "false");
        let arg = self.type_target(syn, arg)?;
        let res = self.type_target(syn, res)?;
        let paren = if optional {
            self.eat(Tok::LParen)
        } else {
            self.expect(Tok::LParen, "'('")?;
            true
        };
        let t = self.parse_type()?;
        self.set_types(parts, arg, vec![t]);
        if !paren {
            if let TypeTarget::Result(i) = res {
                if syn.results[i].arity == Arity::Variadic {
                    parts.result_types[i] = Some(Vec::new());
                }
            }
            return Ok(());
        }
        self.expect(Tok::RParen, "')'")?;
        self.expect(Tok::Arrow, "'->'")?;
        let variadic =
            matches!(res, TypeTarget::Result(i) if syn.results[i].arity == Arity::Variadic);
        let types = if variadic && self.is(Tok::LParen) {
            let mut v = Vec::new();
            self.comma_list(Tok::LParen, Tok::RParen, "'('", |p| {
                v.push(p.parse_type()?);
                Ok(())
            })?;
            v
        } else {
            vec![self.parse_type()?]
        };
        self.set_types(parts, res, types);
        Ok(())
    }

    /// `custom<SequenceOpOperands>($root, type($root), $extra_bindings,
    /// type($extra_bindings))` (MLIR's `TransformOps.cpp`): nothing, or
    /// `%root (, %extra…)? : (? root_type (, extra_types)? )?`.
    fn sequence_op_operands(
        &mut self,
        syn: &'static OpSyntax,
        args: &'static [Element],
        parts: &mut Parts<'a>,
    ) -> Result<()> {
        let at = self.tok.start;
        let [Element::Var(Var::Operand(root)), Element::Type(_), Element::Var(Var::Operand(extra)), Element::Type(_)] =
            args
        else {
            return self.unsupported(syn, at, "a `custom<SequenceOpOperands>` argument");
        };
        if !self.is(Tok::PercentId) {
            parts.operand_types[*root] = Some(Vec::new());
            parts.operand_types[*extra] = Some(Vec::new());
            return Ok(());
        }
        parts.operands[*root] = vec![self.parse_value_use()?];
        let mut extras = Vec::new();
        if self.eat(Tok::Comma) {
            extras.push(self.parse_value_use()?);
            while self.eat(Tok::Comma) {
                extras.push(self.parse_value_use()?);
            }
        }
        self.expect(Tok::Colon, "':'")?;
        // Both parentheses are optional, each on its own, as MLIR reads them.
        self.eat(Tok::LParen);
        let root_type = self.parse_type()?;
        let mut extra_types = Vec::new();
        if !extras.is_empty() {
            self.expect(Tok::Comma, "','")?;
            extra_types.push(self.parse_type()?);
            while self.eat(Tok::Comma) {
                extra_types.push(self.parse_type()?);
            }
        }
        if extra_types.len() != extras.len() {
            return self.sem_err_at(at, "expected types to be provided for all operands");
        }
        self.eat(Tok::RParen);
        parts.operand_types[*root] = Some(vec![root_type]);
        parts.operands[*extra] = extras;
        parts.operand_types[*extra] = Some(extra_types);
        Ok(())
    }

    /// `custom<ForeachMatchSymbols>($matchers, $actions)` (MLIR's
    /// `TransformOps.cpp`): `@matcher -> @action`, comma-separated; two
    /// arrays of symbol references.
    fn foreach_match_symbols(
        &mut self,
        syn: &'static OpSyntax,
        args: &'static [Element],
        parts: &mut Parts<'a>,
    ) -> Result<()> {
        let at = self.tok.start;
        let [Element::Var(Var::Attr(matchers)), Element::Var(Var::Attr(actions))] = args else {
            return self.unsupported(syn, at, "a `custom<ForeachMatchSymbols>` argument");
        };
        let (mut m, mut a) = (Vec::new(), Vec::new());
        loop {
            let t = self.expect(Tok::AtId, "a symbol reference (@name)")?;
            m.push(lossy(&self.src[t.start..t.end]));
            self.expect(Tok::Arrow, "'->'")?;
            let t = self.expect(Tok::AtId, "a symbol reference (@name)")?;
            a.push(lossy(&self.src[t.start..t.end]));
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        parts.attrs[*matchers] = Some(self.parse_attr_text(&format!("[{}]", m.join(", ")), at)?);
        parts.attrs[*actions] = Some(self.parse_attr_text(&format!("[{}]", a.join(", ")), at)?);
        Ok(())
    }

    /// `custom<OperationOpAttributes>($values, $names)` of `pdl.operation`
    /// and `custom<CreateOperationOpAttributes>` of
    /// `pdl_interp.create_operation` (MLIR's `PDL.cpp`, `PDLInterp.cpp`):
    /// an optional `{"name" = %value, …}`; the names are an array of
    /// strings, empty when the braces are left out.
    fn operation_op_attributes(
        &mut self,
        syn: &'static OpSyntax,
        name: &str,
        args: &'static [Element],
        parts: &mut Parts<'a>,
    ) -> Result<()> {
        let at = self.tok.start;
        let [Element::Var(Var::Operand(values)), Element::Var(Var::Attr(names))] = args else {
            return self.unsupported(syn, at, &format!("a `custom<{name}>` argument"));
        };
        let mut uses = Vec::new();
        let mut list = Vec::new();
        if self.eat(Tok::LBrace) {
            loop {
                let a_at = self.tok.start;
                let a = self.parse_attr(None)?;
                if !matches!(self.m.ctx.attr(a), AttrData::String { .. }) {
                    return self.err_at(a_at, "expected string attribute");
                }
                list.push(a);
                self.expect(Tok::Equal, "'='")?;
                uses.push(self.parse_value_use()?);
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
            self.expect(Tok::RBrace, "'}'")?;
        }
        parts.operands[*values] = uses;
        parts.attrs[*names] = Some(self.m.ctx.intern_attr(AttrData::Array(list)));
        Ok(())
    }

    /// `custom<CreateOperationOpResults>($values, type($values), $inferred)`
    /// of `pdl_interp.create_operation` (MLIR's `PDLInterp.cpp`): nothing
    /// without `->`; `-> <inferred>` sets the unit attribute; else
    /// `-> (%v, … : types)`.
    fn create_operation_op_results(
        &mut self,
        syn: &'static OpSyntax,
        args: &'static [Element],
        parts: &mut Parts<'a>,
    ) -> Result<()> {
        let at = self.tok.start;
        let [Element::Var(Var::Operand(values)), Element::Type(ty), Element::Var(Var::Attr(inferred))] =
            args
        else {
            return self.unsupported(syn, at, "a `custom<CreateOperationOpResults>` argument");
        };
        if !matches!(**ty, Element::Var(Var::Operand(i)) if i == *values) {
            return self.unsupported(syn, at, "a `custom<CreateOperationOpResults>` argument");
        }
        if !self.eat(Tok::Arrow) {
            return Ok(());
        }
        if self.eat(Tok::Less) {
            if !self.is_kw("inferred") {
                return self.err("expected 'inferred'");
            }
            self.bump();
            self.expect(Tok::Greater, "'>'")?;
            parts.attrs[*inferred] = Some(self.unit_attr);
            return Ok(());
        }
        self.expect(Tok::LParen, "'('")?;
        let (uses, types) = self.uses_colon_types()?;
        self.expect(Tok::RParen, "')'")?;
        parts.operands[*values] = uses;
        parts.operand_types[*values] = Some(types);
        Ok(())
    }

    /// The OpenMP directives whose region's entry arguments come from
    /// clauses (`custom<PrivateReductionRegion>` and its siblings: MLIR's
    /// `parseBlockArgRegion`): each clause of `clauses` that is present, in
    /// that order, then the region with an argument per clause value.
    /// The directive's arguments are the region, then per clause its
    /// variables, their types and attributes in ODS order (`private`:
    /// symbols, barrier; `reduction`: modifier, then variables, types,
    /// `byref` flags and symbols; `in_reduction` and `task_reduction`: the
    /// same without the modifier).
    fn omp_block_arg_region(
        &mut self,
        syn: &'static OpSyntax,
        name: &str,
        clauses: &[OmpClause],
        args: &'static [Element],
        parts: &mut Parts<'a>,
    ) -> Result<()> {
        let at = self.tok.start;
        let bad = |p: &Self| p.unsupported::<()>(syn, at, &format!("a `custom<{name}>` argument"));
        let mut it = args.iter();
        let Some(Element::Var(Var::Region(region_var))) = it.next() else {
            return bad(self);
        };
        let operand = |e: Option<&Element>| match e {
            Some(Element::Var(Var::Operand(i))) => Some(*i),
            _ => None,
        };
        let attr = |e: Option<&Element>| match e {
            Some(Element::Var(Var::Attr(i))) => Some(*i),
            _ => None,
        };
        let mut entry: Vec<EntryArg<'a>> = Vec::new();
        for &clause in clauses {
            // `reduction` starts with its modifier, which is refused below.
            if clause == OmpClause::Reduction && attr(it.next()).is_none() {
                return bad(self);
            }
            let Some(vars) = operand(it.next()) else {
                return bad(self);
            };
            match it.next() {
                Some(Element::Type(t)) if matches!(**t, Element::Var(Var::Operand(i)) if i == vars) =>
                    {}
                _ => return bad(self),
            }
            let (syms, flag) = match clause {
                OmpClause::Private => (attr(it.next()), attr(it.next())),
                _ => {
                    let byref = attr(it.next());
                    (attr(it.next()), byref)
                }
            };
            let (Some(syms), Some(flag)) = (syms, flag) else {
                return bad(self);
            };
            if !self.is_kw(clause.keyword()) {
                continue;
            }
            let kw_at = self.tok.start;
            self.bump();
            let invalid = |p: &Self| p.err::<()>(format!("invalid `{}` format", clause.keyword()));
            if !self.eat(Tok::LParen) {
                return invalid(self);
            }
            if self.is_kw("mod") {
                return self.unsupported(syn, kw_at, "a reduction modifier");
            }
            let mut uses = Vec::new();
            let mut symbols = Vec::new();
            let mut byref = Vec::new();
            let mut names = Vec::new();
            loop {
                if clause != OmpClause::Private {
                    let b = self.is_kw("byref");
                    if b {
                        self.bump();
                    }
                    byref.push(b);
                }
                let s_at = self.tok.start;
                let s = self.parse_attr(None)?;
                if !matches!(self.m.ctx.attr(s), AttrData::SymbolRef { .. }) {
                    return self.err_at(s_at, "invalid kind of attribute specified");
                }
                symbols.push(s);
                uses.push(self.parse_value_use()?);
                self.expect(Tok::Arrow, "'->'")?;
                let arg = self.parse_value_use()?;
                let loc = self.optional_trailing_loc()?;
                names.push((arg, loc));
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
            self.expect(Tok::Colon, "':'")?;
            let mut types = vec![self.parse_type()?];
            while self.eat(Tok::Comma) {
                types.push(self.parse_type()?);
            }
            if types.len() != uses.len() {
                return invalid(self);
            }
            self.expect(Tok::RParen, "')'")?;
            if clause == OmpClause::Private && self.is_kw("private_barrier") {
                self.bump();
                parts.attrs[flag] = Some(self.unit_attr);
            }
            for ((arg, loc), &ty) in names.iter().zip(&types) {
                entry.push(EntryArg {
                    name: arg.0,
                    at: arg.2,
                    ty,
                    loc: *loc,
                });
            }
            parts.operands[vars] = uses;
            parts.operand_types[vars] = Some(types);
            parts.attrs[syms] = Some(self.m.ctx.intern_attr(AttrData::Array(symbols)));
            if clause != OmpClause::Private && !byref.is_empty() {
                let list: Vec<&str> = byref
                    .iter()
                    .map(|&b| if b { "true" } else { "false" })
                    .collect();
                let a = self.parse_attr_text(&format!("array<i1: {}>", list.join(", ")), kw_at)?;
                parts.attrs[flag] = Some(a);
            }
        }
        if it.next().is_some() {
            return bad(self);
        }
        let region = self.m.new_region();
        self.parse_region_into(region, &entry)?;
        parts.regions[*region_var] = vec![region];
        Ok(())
    }

    /// An integer as `parseInteger` reads it: `-`? digits, in `i64`.
    fn directive_integer(&mut self) -> Result<i64> {
        let neg = self.eat(Tok::Minus);
        let t = self.expect(Tok::Integer, "integer value")?;
        let digits = lossy(&self.src[t.start..t.end]);
        match digits.parse::<i64>() {
            Ok(v) if neg => Ok(-v),
            Ok(v) => Ok(v),
            Err(_) => self.err_at(t.start, "integer value too large"),
        }
    }

    /// `custom<TransformMatchDims>($dims, $is_inverted, $is_all)` (MLIR's
    /// `parseTransformMatchDims`): `all`, or `except(` a list `)`, or a
    /// list of integers.
    fn transform_match_dims(
        &mut self,
        syn: &'static OpSyntax,
        args: &'static [Element],
        parts: &mut Parts<'a>,
    ) -> Result<()> {
        let at = self.tok.start;
        let [Element::Var(Var::Attr(dims)), Element::Var(Var::Attr(inverted)), Element::Var(Var::Attr(all))] =
            args
        else {
            return self.unsupported(syn, at, "a `custom<TransformMatchDims>` argument");
        };
        if self.is_kw("all") {
            self.bump();
            parts.attrs[*all] = Some(self.unit_attr);
            // The list property left unset holds its default, empty.
            parts.attrs[*dims] = Some(self.parse_attr_text("array<i64>", at)?);
            return Ok(());
        }
        let except = self.is_kw("except");
        if except {
            self.bump();
            parts.attrs[*inverted] = Some(self.unit_attr);
            self.expect(Tok::LParen, "'('")?;
        }
        let mut values = vec![self.directive_integer()?.to_string()];
        while self.eat(Tok::Comma) {
            values.push(self.directive_integer()?.to_string());
        }
        parts.attrs[*dims] =
            Some(self.parse_attr_text(&format!("array<i64: {}>", values.join(", ")), at)?);
        if except {
            self.expect(Tok::RParen, "')'")?;
        }
        Ok(())
    }

    /// `custom<LevelRange>($lo, $hi)` (sparse_tensor's `parseLevelRange`):
    /// `lo (to hi)?`, `hi` defaulting to `lo + 1`, both `index`
    /// attributes; `hi` must exceed `lo`.
    fn level_range(
        &mut self,
        syn: &'static OpSyntax,
        args: &'static [Element],
        parts: &mut Parts<'a>,
    ) -> Result<()> {
        let at = self.tok.start;
        let [Element::Var(Var::Attr(lo)), Element::Var(Var::Attr(hi))] = args else {
            return self.unsupported(syn, at, "a `custom<LevelRange>` argument");
        };
        let level = |p: &mut Self| -> Result<u64> {
            let t = p.expect(Tok::Integer, "integer value")?;
            match lossy(&p.src[t.start..t.end]).parse::<u64>() {
                Ok(v) => Ok(v),
                Err(_) => p.err_at(t.start, "integer value too large"),
            }
        };
        let l = level(self)?;
        let h = if self.is_kw("to") {
            self.bump();
            level(self)?
        } else {
            l.saturating_add(1)
        };
        if h <= l {
            return self.sem_err_at(at, "expect larger level upper bound than lower bound");
        }
        let index = self.m.ctx.intern_type(TypeData::Index);
        for (slot, v) in [(*lo, l), (*hi, h)] {
            parts.attrs[slot] = Some(self.m.ctx.intern_attr(AttrData::Integer {
                ty: index,
                value: BigInt::from(v),
            }));
        }
        Ok(())
    }

    /// `custom<OffloadingHandler>($handler)` (gpu's
    /// `parseOffloadingHandler`): `<attr>`, or `#gpu.select_object` when
    /// left out.
    fn offloading_handler(
        &mut self,
        syn: &'static OpSyntax,
        args: &'static [Element],
        parts: &mut Parts<'a>,
    ) -> Result<()> {
        let at = self.tok.start;
        let [Element::Var(Var::Attr(handler))] = args else {
            return self.unsupported(syn, at, "a `custom<OffloadingHandler>` argument");
        };
        let a = if self.eat(Tok::Less) {
            let a = self.parse_attr(None)?;
            self.expect(Tok::Greater, "'>'")?;
            a
        } else {
            self.parse_attr_text("#gpu.select_object", at)?
        };
        parts.attrs[*handler] = Some(a);
        Ok(())
    }

    /// `custom<Var>($var)` (OpenACC's `parseVar`): `varPtr(` or `var(`,
    /// then the operand; its type and `)` follow in `custom<VarPtrType>`.
    fn acc_var(
        &mut self,
        syn: &'static OpSyntax,
        args: &'static [Element],
        parts: &mut Parts<'a>,
    ) -> Result<()> {
        let [Element::Var(Var::Operand(var))] = args else {
            return self.unsupported(syn, self.tok.start, "a `custom<Var>` argument");
        };
        if self.is_kw("varPtr") || self.is_kw("var") {
            self.bump();
        } else {
            return self.err("expected 'var'");
        }
        self.expect(Tok::LParen, "'('")?;
        parts.operands[*var] = vec![self.parse_value_use()?];
        Ok(())
    }

    /// `custom<VarPtrType>(type($var), $varType)` (OpenACC's
    /// `parseVarPtrType`): the operand's type, `)`, then `varType(type)`,
    /// else the element type of a memref operand (its `PointerLikeType`
    /// model); other pointer-like types without `varType` are refused.
    fn acc_var_ptr_type(
        &mut self,
        syn: &'static OpSyntax,
        args: &'static [Element],
        parts: &mut Parts<'a>,
    ) -> Result<()> {
        let at = self.tok.start;
        let [Element::Type(t), Element::Var(Var::Attr(var_type))] = args else {
            return self.unsupported(syn, at, "a `custom<VarPtrType>` argument");
        };
        let Element::Var(Var::Operand(var)) = **t else {
            return self.unsupported(syn, at, "a `custom<VarPtrType>` argument");
        };
        let ty = self.parse_type()?;
        self.expect(Tok::RParen, "')'")?;
        let var_ty = if self.is_kw("varType") {
            self.bump();
            self.expect(Tok::LParen, "'('")?;
            let v = self.parse_type()?;
            self.expect(Tok::RParen, "')'")?;
            v
        } else {
            match self.m.ctx.ty(ty) {
                TypeData::MemRef { elem, .. } => *elem,
                TypeData::Integer { .. } | TypeData::Float(_) | TypeData::Index => ty,
                _ => {
                    return self.unsupported(syn, at, "the element type of this pointer-like type")
                }
            }
        };
        parts.operand_types[var] = Some(vec![ty]);
        parts.attrs[*var_type] = Some(self.m.ctx.intern_attr(AttrData::Type(var_ty)));
        Ok(())
    }

    /// `custom<AccVar>($accVar, type($accVar))` (OpenACC's `parseAccVar`):
    /// `accPtr(` or `accVar(`, the operand, `:` its type, `)`.
    fn acc_acc_var(
        &mut self,
        syn: &'static OpSyntax,
        args: &'static [Element],
        parts: &mut Parts<'a>,
    ) -> Result<()> {
        let at = self.tok.start;
        let [Element::Var(Var::Operand(var)), Element::Type(t)] = args else {
            return self.unsupported(syn, at, "a `custom<AccVar>` argument");
        };
        if !matches!(**t, Element::Var(Var::Operand(i)) if i == *var) {
            return self.unsupported(syn, at, "a `custom<AccVar>` argument");
        }
        if self.is_kw("accPtr") || self.is_kw("accVar") {
            self.bump();
        } else {
            return self.err("expected 'accVar'");
        }
        self.expect(Tok::LParen, "'('")?;
        let u = self.parse_value_use()?;
        self.expect(Tok::Colon, "':'")?;
        let ty = self.parse_type()?;
        self.expect(Tok::RParen, "')'")?;
        parts.operands[*var] = vec![u];
        parts.operand_types[*var] = Some(vec![ty]);
        Ok(())
    }

    /// `custom<SymbolVisibility>($sym_visibility)` (MLIR's
    /// `MLProgramOps.cpp`): `public`, `private` or `nested`, kept as a
    /// string.
    fn symbol_visibility(
        &mut self,
        syn: &'static OpSyntax,
        args: &'static [Element],
        parts: &mut Parts<'a>,
    ) -> Result<()> {
        let [Element::Var(Var::Attr(vis))] = args else {
            return self.unsupported(syn, self.tok.start, "a `custom<SymbolVisibility>` argument");
        };
        let word = self.spelling();
        if !(self.is(Tok::BareIdent) && [&b"public"[..], b"private", b"nested"].contains(&word)) {
            return self.err("expected 'public', 'private', or 'nested'");
        }
        parts.attrs[*vis] = Some(self.m.ctx.intern_attr(AttrData::String {
            value: word.into(),
            ty: None,
        }));
        self.bump();
        Ok(())
    }

    /// `custom<TypedInitialValue>($type, $value)` (MLIR's
    /// `MLProgramOps.cpp`): an optional `(value)`, then `: type`, kept as
    /// a type attribute.
    fn typed_initial_value(
        &mut self,
        syn: &'static OpSyntax,
        args: &'static [Element],
        parts: &mut Parts<'a>,
    ) -> Result<()> {
        let [Element::Var(Var::Attr(ty)), Element::Var(Var::Attr(value))] = args else {
            return self.unsupported(
                syn,
                self.tok.start,
                "a `custom<TypedInitialValue>` argument",
            );
        };
        if self.eat(Tok::LParen) {
            parts.attrs[*value] = Some(self.parse_attr(None)?);
            self.expect(Tok::RParen, "')'")?;
        }
        self.expect(Tok::Colon, "':'")?;
        let t = self.parse_type()?;
        parts.attrs[*ty] = Some(self.m.ctx.intern_attr(AttrData::Type(t)));
        Ok(())
    }

    /// `custom<SwitchCases>($cases, $caseRegions)` (MLIR's `SCF.cpp`):
    /// `case N region`, repeated; the values an `i64` dense array.
    fn switch_cases(
        &mut self,
        syn: &'static OpSyntax,
        args: &'static [Element],
        parts: &mut Parts<'a>,
    ) -> Result<()> {
        let at = self.tok.start;
        let [Element::Var(Var::Attr(cases)), Element::Var(Var::Region(regions))] = args else {
            return self.unsupported(syn, at, "a `custom<SwitchCases>` argument");
        };
        let mut values = Vec::new();
        let name_at = at;
        while self.is_kw("case") {
            self.bump();
            let neg = self.eat(Tok::Minus);
            let t = self.expect(Tok::Integer, "integer value")?;
            let Ok(v) = lossy(&self.src[t.start..t.end]).parse::<i64>() else {
                return self.err_at(t.start, "integer value too large");
            };
            values.push(if neg { -v } else { v });
            let r = self.parse_custom_region(syn, name_at)?;
            parts.regions[*regions].push(r);
        }
        parts.attrs[*cases] = Some(self.i64_array(&values, at)?);
        Ok(())
    }

    /// `custom<SwitchOpCases>(…)` of `cf.switch` (`default: ^bb(args)?,
    /// N: ^bb(args)?, …`) and of `llvm.switch` (`[N: ^bb(args)?, …]`, the
    /// default given before it), MLIR's `parseSwitchOpCases` of each: the
    /// case values a `dense<…> : vector<N x flag type>`, the cases'
    /// operands one variadic-of-variadic group with its segments.
    fn switch_op_cases(
        &mut self,
        syn: &'static OpSyntax,
        args: &'static [Element],
        parts: &mut Parts<'a>,
    ) -> Result<()> {
        let at = self.tok.start;
        let bad = |p: &Self| p.unsupported(syn, at, "a `custom<SwitchOpCases>` argument");
        let var = |e: &Element| match e {
            Element::Var(v) => Some(*v),
            Element::Type(inner) | Element::Ref(inner) => match &**inner {
                Element::Var(v) => Some(*v),
                Element::Type(inner) => match &**inner {
                    Element::Var(v) => Some(*v),
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        };
        let vars: Vec<Option<Var>> = args.iter().map(var).collect();
        let (flag, default, cases) = match vars[..] {
            [Some(Var::Operand(flag)), Some(Var::Successor(dest)), Some(Var::Operand(ops)), Some(Var::Operand(_)), Some(Var::Attr(values)), Some(Var::Successor(case_dests)), Some(Var::Operand(case_ops)), Some(Var::Operand(_))] => {
                (flag, Some((dest, ops)), (values, case_dests, case_ops))
            }
            [Some(Var::Operand(flag)), Some(Var::Attr(values)), Some(Var::Successor(case_dests)), Some(Var::Operand(case_ops)), Some(Var::Operand(_))] => {
                (flag, None, (values, case_dests, case_ops))
            }
            _ => return bad(self),
        };
        let Some(segments) = syn
            .attrs
            .iter()
            .position(|a| a.name == "case_operand_segments")
        else {
            return bad(self);
        };
        let Some(flag_ty) = parts.operand_types[flag]
            .as_deref()
            .and_then(|t| t.first().copied())
        else {
            return bad(self);
        };
        // `^bb((%v, … : types))?`.
        fn target<'a>(p: &mut Parser<'a>) -> Result<(BlockId, Vec<Use<'a>>, Vec<TypeId>)> {
            let block = p.parse_block_ref()?;
            let mut uses = Vec::new();
            let mut types = Vec::new();
            if p.eat(Tok::LParen) {
                uses = p.value_use_list()?;
                p.expect(Tok::Colon, "':'")?;
                types.push(p.parse_type()?);
                while p.eat(Tok::Comma) {
                    types.push(p.parse_type()?);
                }
                p.expect(Tok::RParen, "')'")?;
            }
            Ok((block, uses, types))
        }
        let (values_slot, dests_slot, ops_slot) = cases;
        let mut values: Vec<String> = Vec::new();
        let mut counts = Vec::new();
        let (mut uses, mut types) = (Vec::new(), Vec::new());
        let mut case = |p: &mut Parser<'a>, parts: &mut Parts<'a>| -> Result<()> {
            let neg = p.eat(Tok::Minus);
            let t = p.expect(Tok::Integer, "integer value")?;
            let Ok(v) = lossy(&p.src[t.start..t.end]).parse::<i64>() else {
                return p.err_at(t.start, "integer value too large");
            };
            values.push(if neg { -v } else { v }.to_string());
            p.expect(Tok::Colon, "':'")?;
            let (block, u, ty) = target(p)?;
            parts.successors[dests_slot].push(block);
            counts.push(u.len());
            uses.extend(u);
            types.extend(ty);
            Ok(())
        };
        match default {
            Some((dest, ops)) => {
                self.expect_kw("default")?;
                self.expect(Tok::Colon, "':'")?;
                let (block, u, ty) = target(self)?;
                parts.successors[dest] = vec![block];
                parts.operands[ops] = u;
                parts.operand_types[ops] = Some(ty);
                while self.eat(Tok::Comma) {
                    case(self, parts)?;
                }
            }
            None => {
                self.expect(Tok::LSquare, "'['")?;
                if !self.eat(Tok::RSquare) {
                    loop {
                        case(self, parts)?;
                        if !self.eat(Tok::Comma) {
                            break;
                        }
                    }
                    self.expect(Tok::RSquare, "']'")?;
                }
            }
        }
        if !values.is_empty() {
            let Some(elem) = self.builtin_scalar_or_vector_text(flag_ty) else {
                return bad(self);
            };
            let text = format!(
                "dense<[{}]> : vector<{}x{elem}>",
                values.join(", "),
                values.len()
            );
            parts.attrs[values_slot] = Some(self.parse_attr_text(&text, at)?);
        }
        let i32s: Vec<String> = counts.iter().map(usize::to_string).collect();
        let text = if i32s.is_empty() {
            "array<i32>".to_string()
        } else {
            format!("array<i32: {}>", i32s.join(", "))
        };
        parts.attrs[segments] = Some(self.parse_attr_text(&text, at)?);
        parts.operands[ops_slot] = uses;
        parts.operand_types[ops_slot] = Some(types);
        Ok(())
    }

    /// `custom<InsertExtractValueElementType>(type($v), ref(type($c)),
    /// ref($position))` (MLIR's `LLVMDialect.cpp`): the type of the
    /// element of the llvm struct or array `$c` that the position
    /// selects.
    fn insert_extract_value_element_type(
        &mut self,
        syn: &'static OpSyntax,
        args: &'static [Element],
        parts: &mut Parts<'a>,
    ) -> Result<()> {
        let at = self.tok.start;
        let bad = |p: &Self| {
            p.unsupported(
                syn,
                at,
                "a `custom<InsertExtractValueElementType>` argument",
            )
        };
        let [Element::Type(value), Element::Ref(container), Element::Ref(position)] = args else {
            return bad(self);
        };
        let (Element::Var(value), Element::Type(container), Element::Var(Var::Attr(position))) =
            (&**value, &**container, &**position)
        else {
            return bad(self);
        };
        let Element::Var(Var::Operand(container)) = &**container else {
            return bad(self);
        };
        let Some(mut ty) = parts.operand_types[*container]
            .as_deref()
            .and_then(|t| t.first().copied())
        else {
            return bad(self);
        };
        let indices: Vec<i64> = match parts.attrs[*position].map(|a| self.m.ctx.attr(a)) {
            Some(AttrData::DenseArray { data, .. }) => data
                .chunks_exact(8)
                .map(|c| i64::from_le_bytes(c.try_into().unwrap_or_default()))
                .collect(),
            _ => return bad(self),
        };
        for i in indices {
            ty = self.llvm_aggregate_element(ty, i, at)?;
        }
        match value {
            Var::Operand(o) => parts.operand_types[*o] = Some(vec![ty]),
            Var::Result(r) => parts.result_types[*r] = Some(vec![ty]),
            _ => return bad(self),
        }
        Ok(())
    }

    /// `custom<MapClause>($map_type)` (MLIR's `OpenMPDialect.cpp`):
    /// keywords, comma-separated, or-ed into `ClauseMapFlags`. A keyword
    /// names the flag of its name, except `tofrom` (`to|from`), `delete`
    /// (`del`) and `private` (`priv`); any other keyword, `del` and `priv`
    /// included, sets nothing (checked against mlir-opt 22, 2026-11-27).
    fn omp_map_clause(
        &mut self,
        syn: &'static OpSyntax,
        args: &'static [Element],
        parts: &mut Parts<'a>,
    ) -> Result<()> {
        let at = self.tok.start;
        let [Element::Var(Var::Attr(slot))] = args else {
            return self.unsupported(syn, at, "a `custom<MapClause>` argument");
        };
        let spec = &syn.attrs[*slot];
        let (Some(def), true) = (spec.def.as_deref(), spec.bit) else {
            return self.unsupported(syn, at, "a `custom<MapClause>` argument");
        };
        let flag = |name: &str| spec.cases.iter().find(|(c, _)| c == name).map(|(_, v)| *v);
        let mut bits = 0i64;
        loop {
            if !self.is(Tok::BareIdent) {
                return self.err("expected valid keyword");
            }
            let kw = lossy(self.spelling());
            self.bump();
            let names: &[&str] = match kw.as_str() {
                "tofrom" => &["to", "from"],
                "delete" => &["del"],
                "private" => &["priv"],
                "del" | "priv" => &[],
                _ => &[],
            };
            if names.is_empty() && kw != "del" && kw != "priv" {
                bits |= flag(&kw).unwrap_or(0);
            }
            for n in names {
                bits |= flag(n).unwrap_or(0);
            }
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        let text = bit_enum_text(&spec.cases, bits).unwrap_or_default();
        let (dialect, mnemonic) = def.split_once('.').unwrap_or((def, ""));
        let a = self.parse_attr_text(&format!("#{dialect}<{mnemonic} {text}>"), at)?;
        parts.attrs[*slot] = Some(a);
        Ok(())
    }

    /// `custom<CaptureType>($map_capture_type)` (MLIR's
    /// `OpenMPDialect.cpp`): one keyword of `VariableCaptureKind`, kept as
    /// `#omp<variable_capture_kind(Keyword)>`.
    fn omp_capture_type(
        &mut self,
        syn: &'static OpSyntax,
        args: &'static [Element],
        parts: &mut Parts<'a>,
    ) -> Result<()> {
        let at = self.tok.start;
        let [Element::Var(Var::Attr(slot))] = args else {
            return self.unsupported(syn, at, "a `custom<CaptureType>` argument");
        };
        let spec = &syn.attrs[*slot];
        let Some(def) = spec.def.as_deref() else {
            return self.unsupported(syn, at, "a `custom<CaptureType>` argument");
        };
        if !self.is(Tok::BareIdent) {
            return self.err("expected valid keyword");
        }
        let kw = lossy(self.spelling());
        if !spec.cases.iter().any(|(c, _)| *c == kw) {
            return self.sem_err_at(at, format!("invalid capture type '{kw}'"));
        }
        self.bump();
        let (dialect, mnemonic) = def.split_once('.').unwrap_or((def, ""));
        let a = self.parse_attr_text(&format!("#{dialect}<{mnemonic}({kw})>"), at)?;
        parts.attrs[*slot] = Some(a);
        Ok(())
    }

    /// `custom<UseDeviceAddrUseDevicePtrRegion>($region, …)` (MLIR's
    /// `parseBlockArgRegion` for `omp.target_data`): the region, without
    /// `use_device_addr`/`use_device_ptr` clauses (those, which give the
    /// region entry arguments, are refused).
    fn omp_use_device_region(
        &mut self,
        syn: &'static OpSyntax,
        args: &'static [Element],
        parts: &mut Parts<'a>,
    ) -> Result<()> {
        let at = self.tok.start;
        let Some(Element::Var(Var::Region(region))) = args.first() else {
            return self.unsupported(
                syn,
                at,
                "a `custom<UseDeviceAddrUseDevicePtrRegion>` argument",
            );
        };
        if self.is_kw("use_device_addr") || self.is_kw("use_device_ptr") {
            return self.unsupported(syn, at, "a `use_device_addr`/`use_device_ptr` clause");
        }
        for e in &args[1..] {
            match e {
                Element::Var(Var::Operand(o)) => {
                    parts.operands[*o] = Vec::new();
                    parts.operand_types[*o] = Some(Vec::new());
                }
                Element::Type(_) => {}
                _ => {
                    return self.unsupported(
                        syn,
                        at,
                        "a `custom<UseDeviceAddrUseDevicePtrRegion>` argument",
                    )
                }
            }
        }
        let r = self.parse_custom_region(syn, at)?;
        parts.regions[*region].push(r);
        Ok(())
    }
}
