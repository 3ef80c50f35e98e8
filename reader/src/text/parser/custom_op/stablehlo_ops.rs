//! StableHLO's custom syntax (SPEC.md §11.3): its `custom<…>` directives
//! (`AssemblyFormat.cpp` and `StablehloOps.cpp` of openxla/stablehlo) and
//! its three ops with hand-written parsers (`stablehlo.constant`,
//! `stablehlo.reduce`, `stablehlo.while`), ported. The op formats
//! themselves are data ([`rmlir_dialects`]' `op-formats-stablehlo`), read
//! by the same interpreter as upstream MLIR's.

use super::*;

/// The roles of a convolution's non-spatial dimensions, by letter
/// (`StablehloOps.cpp`'s `NonSpatialDim`): input/output batch and
/// feature, kernel input and output feature.
const CONV_LETTERS: [&[u8]; 3] = [b"bf", b"io", b"bf"];

impl<'a> Parser<'a> {
    /// The StableHLO directive `name`, if it is one.
    pub(super) fn stablehlo_directive(
        &mut self,
        syn: &'static OpSyntax,
        name: &str,
        args: &'static [Element],
        parts: &mut Parts<'a>,
    ) -> Option<Result<()>> {
        Some(match name {
            "SameOperandsAndResultType" | "VariadicSameOperandsAndResultType" => {
                self.same_operands_and_result_type(syn, args, parts)
            }
            "ComplexOpType" => self.complex_op_type(syn, args, parts),
            "SelectOpType" => self.select_op_type(syn, args, parts),
            "TupleOpType" => self.tuple_op_type(syn, args, parts),
            "PairwiseOpType" => self.pairwise_op_type(syn, args, parts),
            "VariadicOperandWithAttribute" => {
                self.variadic_operand_with_attribute(syn, args, parts)
            }
            "ExponentMantissa" => self.exponent_mantissa(syn, args, parts),
            "CustomCallTarget" => self.custom_call_target(syn, args, parts),
            "PrecisionConfig" => self.precision_config(syn, args, parts),
            "PrecisionConfigAndAlgorithm" => self.precision_config_and_algorithm(syn, args, parts),
            "DotDimensionNumbers" => self.dot_dimension_numbers(syn, args, parts),
            "ConvolutionDimensions" => self.convolution_dimensions(syn, args, parts),
            "WindowAttributes" => self.window_attributes(syn, args, parts),
            "SliceRanges" => self.slice_ranges(syn, args, parts),
            _ => return None,
        })
    }

    /// The `type(…)` targets of a directive's arguments (`ref(…)`
    /// arguments, which only say what was parsed before, are skipped).
    fn type_args(&self, syn: &OpSyntax, args: &'static [Element]) -> Result<Vec<TypeTarget>> {
        let mut v = Vec::new();
        for a in args {
            match a {
                Element::Type(inner) => v.push(self.type_target(syn, inner)?),
                Element::Ref(_) => {}
                _ => return self.unsupported(syn, self.tok.start, "a directive argument"),
            }
        }
        Ok(v)
    }

    /// The attribute variables of a directive's arguments, in order.
    fn attr_args(&self, syn: &OpSyntax, args: &'static [Element]) -> Result<Vec<usize>> {
        args.iter()
            .map(|a| match a {
                Element::Var(Var::Attr(i)) => Ok(*i),
                _ => self.unsupported(syn, self.tok.start, "a directive argument"),
            })
            .collect()
    }

    /// How many values a `type(…)` target holds, from the operands read
    /// so far (a result target holds one; a single operand read by the
    /// `operands` directive, as `stablehlo.select`'s, one).
    fn target_count(syn: &OpSyntax, parts: &Parts<'a>, t: TypeTarget) -> usize {
        match t {
            TypeTarget::Operand(i)
                if parts.operands[i].is_empty()
                    && parts.all_operands.is_some()
                    && syn.operands[i].arity == Arity::Single =>
            {
                1
            }
            TypeTarget::Operand(i) => parts.operands[i].len(),
            TypeTarget::AllOperands => parts.all_operands.as_ref().map_or(0, Vec::len),
            TypeTarget::Result(_) | TypeTarget::AllResults => 1,
        }
    }

    /// `assignFromFunctionType`: the function type `(ins) -> out` gives the
    /// operand targets their types in order and the result target its one.
    #[allow(clippy::too_many_arguments)]
    fn assign_from_function_type(
        &mut self,
        syn: &OpSyntax,
        parts: &mut Parts<'a>,
        operands: &[TypeTarget],
        result: TypeTarget,
        inputs: &[TypeId],
        results: &[TypeId],
        at: usize,
    ) -> Result<()> {
        let want: usize = operands
            .iter()
            .map(|&t| Self::target_count(syn, parts, t))
            .sum();
        if inputs.len() != want {
            return self.sem_err_at(
                at,
                format!("{want} operands present, but expected {}", inputs.len()),
            );
        }
        if results.len() != 1 {
            return self.sem_err_at(at, "expected single output");
        }
        let mut next = 0;
        for &t in operands {
            let n = Self::target_count(syn, parts, t);
            self.set_types(parts, t, inputs[next..next + n].to_vec());
            next += n;
        }
        self.set_types(parts, result, vec![results[0]]);
        Ok(())
    }

    /// `custom<SameOperandsAndResultType>(type(operands)…, type($result))`
    /// (also its `Variadic` form, with a `ref` of the operands first): one
    /// type for all, or a function type giving each its own.
    fn same_operands_and_result_type(
        &mut self,
        syn: &'static OpSyntax,
        args: &'static [Element],
        parts: &mut Parts<'a>,
    ) -> Result<()> {
        let at = self.tok.start;
        let targets = self.type_args(syn, args)?;
        let Some((&result, operands)) = targets.split_last() else {
            return self.unsupported(syn, at, "a directive without types");
        };
        let t = self.parse_type()?;
        if let TypeData::Function { inputs, results } = self.m.ctx.ty(t).clone() {
            return self
                .assign_from_function_type(syn, parts, operands, result, &inputs, &results, at);
        }
        for &o in operands {
            let n = Self::target_count(syn, parts, o);
            self.set_types(parts, o, vec![t; n]);
        }
        self.set_types(parts, result, vec![t]);
        Ok(())
    }

    /// `custom<ComplexOpType>(type($lhs), type($rhs), type($result))`: a
    /// function type, or the complex result type alone, whose real
    /// counterpart both operands have.
    fn complex_op_type(
        &mut self,
        syn: &'static OpSyntax,
        args: &'static [Element],
        parts: &mut Parts<'a>,
    ) -> Result<()> {
        let at = self.tok.start;
        let targets = self.type_args(syn, args)?;
        let [lhs, rhs, result] = targets[..] else {
            return self.unsupported(syn, at, "`custom<ComplexOpType>` arguments");
        };
        let t = self.parse_type()?;
        if let TypeData::Function { inputs, results } = self.m.ctx.ty(t).clone() {
            return self.assign_from_function_type(
                syn,
                parts,
                &[lhs, rhs],
                result,
                &inputs,
                &results,
                at,
            );
        }
        let real = match self.m.ctx.ty(t).clone() {
            TypeData::RankedTensor {
                shape,
                elem,
                encoding,
            } => match self.m.ctx.ty(elem) {
                &TypeData::Complex(e) => Some(TypeData::RankedTensor {
                    shape,
                    elem: e,
                    encoding,
                }),
                _ => None,
            },
            TypeData::UnrankedTensor { elem } => match self.m.ctx.ty(elem) {
                &TypeData::Complex(e) => Some(TypeData::UnrankedTensor { elem: e }),
                _ => None,
            },
            _ => None,
        };
        let Some(real) = real else {
            return self.sem_err_at(at, "expected tensor with complex element type");
        };
        let real = self.m.ctx.intern_type(real);
        self.set_types(parts, lhs, vec![real]);
        self.set_types(parts, rhs, vec![real]);
        self.set_types(parts, result, vec![t]);
        Ok(())
    }

    /// `custom<SelectOpType>(type($pred), type($on_true), type($on_false),
    /// type($result))`: `pred_type, type` or one function type.
    fn select_op_type(
        &mut self,
        syn: &'static OpSyntax,
        args: &'static [Element],
        parts: &mut Parts<'a>,
    ) -> Result<()> {
        let at = self.tok.start;
        let targets = self.type_args(syn, args)?;
        let [pred, on_true, on_false, result] = targets[..] else {
            return self.unsupported(syn, at, "`custom<SelectOpType>` arguments");
        };
        let mut types = vec![self.parse_type()?];
        while self.eat(Tok::Comma) {
            types.push(self.parse_type()?);
        }
        match types[..] {
            [p, t] => {
                self.set_types(parts, pred, vec![p]);
                for target in [on_true, on_false, result] {
                    self.set_types(parts, target, vec![t]);
                }
                Ok(())
            }
            [f] => match self.m.ctx.ty(f).clone() {
                TypeData::Function { inputs, results } => self.assign_from_function_type(
                    syn,
                    parts,
                    &[pred, on_true, on_false],
                    result,
                    &inputs,
                    &results,
                    at,
                ),
                _ => self.sem_err_at(at, "expected functional type or list of two types"),
            },
            _ => self.sem_err_at(at, "expected functional type or list of two types"),
        }
    }

    /// `custom<TupleOpType>(type($val), type($result))`: the tuple type,
    /// whose elements the operands have.
    fn tuple_op_type(
        &mut self,
        syn: &'static OpSyntax,
        args: &'static [Element],
        parts: &mut Parts<'a>,
    ) -> Result<()> {
        let at = self.tok.start;
        let targets = self.type_args(syn, args)?;
        let [operands, result] = targets[..] else {
            return self.unsupported(syn, at, "`custom<TupleOpType>` arguments");
        };
        let t = self.parse_type()?;
        let TypeData::Tuple(elems) = self.m.ctx.ty(t).clone() else {
            return self.sem_err_at(at, "expected tuple type");
        };
        self.set_types(parts, operands, elems);
        self.set_types(parts, result, vec![t]);
        Ok(())
    }

    /// `custom<PairwiseOpType>(type($operand), type($result))`: a list of
    /// types, the results' as the operands'.
    fn pairwise_op_type(
        &mut self,
        syn: &'static OpSyntax,
        args: &'static [Element],
        parts: &mut Parts<'a>,
    ) -> Result<()> {
        let at = self.tok.start;
        let targets = self.type_args(syn, args)?;
        let [operands, results] = targets[..] else {
            return self.unsupported(syn, at, "`custom<PairwiseOpType>` arguments");
        };
        let mut types = vec![self.parse_type()?];
        while self.eat(Tok::Comma) {
            types.push(self.parse_type()?);
        }
        self.set_types(parts, operands, types.clone());
        self.set_types(parts, results, types);
        Ok(())
    }

    /// `custom<VariadicOperandWithAttribute>($inputs)`: values, each
    /// followed by a comma, up to the first thing that is not a value.
    fn variadic_operand_with_attribute(
        &mut self,
        syn: &'static OpSyntax,
        args: &'static [Element],
        parts: &mut Parts<'a>,
    ) -> Result<()> {
        let [Element::Var(Var::Operand(i))] = args else {
            return self.unsupported(
                syn,
                self.tok.start,
                "`custom<VariadicOperandWithAttribute>`",
            );
        };
        let mut uses = Vec::new();
        while self.is(Tok::PercentId) {
            uses.push(self.parse_value_use()?);
            self.expect(Tok::Comma, "','")?;
        }
        parts.operands[*i] = uses;
        Ok(())
    }

    /// `custom<ExponentMantissa>($exponent_bits, $mantissa_bits)`: `e5m10`.
    fn exponent_mantissa(
        &mut self,
        syn: &'static OpSyntax,
        args: &'static [Element],
        parts: &mut Parts<'a>,
    ) -> Result<()> {
        let at = self.tok.start;
        let attrs = self.attr_args(syn, args)?;
        let [exp, man] = attrs[..] else {
            return self.unsupported(syn, at, "`custom<ExponentMantissa>` arguments");
        };
        if !self.is(Tok::BareIdent) {
            return self.err("expected valid keyword");
        }
        let word = lossy(self.spelling());
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit());
        let split = word
            .strip_prefix('e')
            .and_then(|r| r.split_once('m'))
            .filter(|(e, m)| digits(e) && digits(m));
        let Some((e, m)) = split else {
            return self.sem_err_at(
                at,
                format!("expected exponent mantissa in format e#m#, saw {word}"),
            );
        };
        let (Ok(e), Ok(m)) = (e.parse::<i32>(), m.parse::<i32>()) else {
            return self.sem_err_at(
                at,
                format!("unable to parse exponent or mantissa of '{word}'"),
            );
        };
        self.bump();
        parts.attrs[exp] = Some(self.parse_attr_text(&format!("{e} : i32"), at)?);
        parts.attrs[man] = Some(self.parse_attr_text(&format!("{m} : i32"), at)?);
        Ok(())
    }

    /// `custom<CustomCallTarget>($call_target_name)`: `@name`, kept as a
    /// string.
    fn custom_call_target(
        &mut self,
        syn: &'static OpSyntax,
        args: &'static [Element],
        parts: &mut Parts<'a>,
    ) -> Result<()> {
        let attrs = self.attr_args(syn, args)?;
        let [target] = attrs[..] else {
            return self.unsupported(syn, self.tok.start, "`custom<CustomCallTarget>` arguments");
        };
        let name = self.parse_symbol_name()?;
        parts.attrs[target] = Some(self.m.ctx.intern_attr(AttrData::String {
            value: name.into_boxed_slice(),
            ty: None,
        }));
        Ok(())
    }

    /// `precision = [DEFAULT, HIGH]`: an array of `#stablehlo<precision …>`.
    fn precision_list(&mut self) -> Result<AttrId> {
        let at = self.tok.start;
        self.expect_kw("precision")?;
        self.expect(Tok::Equal, "'='")?;
        let mut cases = Vec::new();
        self.comma_list(Tok::LSquare, Tok::RSquare, "'['", |p| {
            if !p.is(Tok::BareIdent) {
                return p.err("expected a precision keyword");
            }
            cases.push(format!("#stablehlo<precision {}>", lossy(p.spelling())));
            p.bump();
            Ok(())
        })?;
        self.parse_attr_text(&format!("[{}]", cases.join(", ")), at)
    }

    /// `custom<PrecisionConfig>($precision_config)`: nothing, or `,
    /// precision = […]`.
    fn precision_config(
        &mut self,
        syn: &'static OpSyntax,
        args: &'static [Element],
        parts: &mut Parts<'a>,
    ) -> Result<()> {
        let attrs = self.attr_args(syn, args)?;
        let [precision] = attrs[..] else {
            return self.unsupported(syn, self.tok.start, "`custom<PrecisionConfig>` arguments");
        };
        if self.eat(Tok::Comma) {
            parts.attrs[precision] = Some(self.precision_list()?);
        }
        Ok(())
    }

    /// `custom<PrecisionConfigAndAlgorithm>($precision_config,
    /// $algorithm)`: nothing, or `, precision = […]`, `, algorithm = <…>`
    /// or both in that order.
    fn precision_config_and_algorithm(
        &mut self,
        syn: &'static OpSyntax,
        args: &'static [Element],
        parts: &mut Parts<'a>,
    ) -> Result<()> {
        let attrs = self.attr_args(syn, args)?;
        let [precision, algorithm] = attrs[..] else {
            return self.unsupported(syn, self.tok.start, "`custom<PrecisionConfigAndAlgorithm>`");
        };
        if !self.eat(Tok::Comma) {
            return Ok(());
        }
        if !self.is_kw("algorithm") {
            parts.attrs[precision] = Some(self.precision_list()?);
            if !self.eat(Tok::Comma) {
                return Ok(());
            }
        }
        self.expect_kw("algorithm")?;
        self.expect(Tok::Equal, "'='")?;
        let at = self.tok.start;
        if !self.is(Tok::Less) {
            return self.err("expected '<'");
        }
        let end = self.scan_balanced_body(at)?;
        let text = format!("#stablehlo.dot_algorithm{}", lossy(&self.src[at..end]));
        self.reset_to(end);
        parts.attrs[algorithm] = Some(self.parse_attr_text(&text, at)?);
        Ok(())
    }

    /// An integer, maybe negative, as `parseInteger` reads one into an
    /// `int64_t` (`true` and `false` are 1 and 0 to it).
    fn hlo_integer(&mut self) -> Result<i64> {
        for (kw, v) in [("true", 1), ("false", 0)] {
            if self.is_kw(kw) {
                self.bump();
                return Ok(v);
            }
        }
        let neg = self.eat(Tok::Minus);
        let t = self.expect(Tok::Integer, "integer value")?;
        let text = lossy(&self.src[t.start..t.end]);
        let v = if let Some(hex) = text.strip_prefix("0x") {
            i64::from_str_radix(hex, 16).ok()
        } else {
            text.parse::<i64>().ok()
        };
        match v {
            Some(v) if neg => Ok(-v),
            Some(v) => Ok(v),
            None => self.err_at(t.start, "integer value too large"),
        }
    }

    /// `[1, 2]`: a list of integers.
    fn hlo_int_list(&mut self) -> Result<Vec<i64>> {
        let mut v = Vec::new();
        self.comma_list(Tok::LSquare, Tok::RSquare, "'['", |p| {
            v.push(p.hlo_integer()?);
            Ok(())
        })?;
        Ok(v)
    }

    /// `[…] x […]`: the lhs and rhs lists of a dot's dimension numbers.
    fn lhs_rhs_dims(&mut self) -> Result<(Vec<i64>, Vec<i64>)> {
        let lhs = self.hlo_int_list()?;
        self.expect_kw("x")?;
        let rhs = self.hlo_int_list()?;
        Ok((lhs, rhs))
    }

    /// `custom<DotDimensionNumbers>($dot_dimension_numbers)`:
    /// `(batching_dims = […] x […], )? contracting_dims = […] x […]`, the
    /// attribute `#stablehlo.dot<…>` spelled as its printer spells it
    /// (empty lists left out).
    fn dot_dimension_numbers(
        &mut self,
        syn: &'static OpSyntax,
        args: &'static [Element],
        parts: &mut Parts<'a>,
    ) -> Result<()> {
        let at = self.tok.start;
        let attrs = self.attr_args(syn, args)?;
        let [target] = attrs[..] else {
            return self.unsupported(syn, at, "`custom<DotDimensionNumbers>` arguments");
        };
        let mut batching = (Vec::new(), Vec::new());
        if self.is_kw("batching_dims") {
            self.bump();
            self.expect(Tok::Equal, "'='")?;
            batching = self.lhs_rhs_dims()?;
            self.expect(Tok::Comma, "','")?;
        }
        self.expect_kw("contracting_dims")?;
        self.expect(Tok::Equal, "'='")?;
        let contracting = self.lhs_rhs_dims()?;
        let fields = [
            ("lhs_batching_dimensions", &batching.0),
            ("rhs_batching_dimensions", &batching.1),
            ("lhs_contracting_dimensions", &contracting.0),
            ("rhs_contracting_dimensions", &contracting.1),
        ];
        let body: Vec<String> = fields
            .iter()
            .filter(|(_, v)| !v.is_empty())
            .map(|(n, v)| format!("{n} = [{}]", join_ints(v)))
            .collect();
        let text = format!("#stablehlo.dot<{}>", body.join(", "));
        parts.attrs[target] = Some(self.parse_attr_text(&text, at)?);
        Ok(())
    }

    /// One list of `custom<ConvolutionDimensions>`: integers (spatial
    /// dimensions) and the letters `letters`, each once; its items as
    /// printed, checked as `parseConvolutionDimensions` checks them.
    fn conv_dim_list(&mut self, letters: &[u8]) -> Result<Vec<String>> {
        self.expect(Tok::LSquare, "'['")?;
        let mut items = Vec::new();
        let mut spatial: Vec<i64> = Vec::new();
        let mut seen = Vec::new();
        loop {
            let at = self.tok.start;
            if self.is(Tok::Integer) || self.is(Tok::Minus) {
                let d = self.hlo_integer()?;
                if d < 0 {
                    return self.sem_err_at(at, format!("Unexpected dimension {d}"));
                }
                if spatial.contains(&d) {
                    return self
                        .sem_err_at(at, format!("Duplicate entries for spatial dimension {d}"));
                }
                spatial.push(d);
                items.push(d.to_string());
            } else {
                if !self.is(Tok::BareIdent) {
                    return self.err("expected valid keyword");
                }
                let word = self.spelling();
                if word.len() != 1 || !letters.contains(&word[0]) || seen.contains(&word[0]) {
                    let left: Vec<String> = letters
                        .iter()
                        .filter(|c| !seen.contains(*c))
                        .map(|&c| (c as char).to_string())
                        .collect();
                    return self.sem_err_at(
                        at,
                        format!(
                            "Unexpected dimension {}, expecting {}",
                            lossy(word),
                            left.join(", ")
                        ),
                    );
                }
                seen.push(word[0]);
                items.push(lossy(word));
                self.bump();
            }
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        if seen.len() != letters.len() {
            let left: Vec<String> = letters
                .iter()
                .filter(|c| !seen.contains(*c))
                .map(|&c| (c as char).to_string())
                .collect();
            return self.sem_err_at(
                self.tok.start,
                format!("Expected dimensions {} not specified", left.join(", ")),
            );
        }
        self.expect(Tok::RSquare, "']'")?;
        let max = spatial.iter().copied().max().unwrap_or(-1);
        let missing: Vec<String> = (0..=max)
            .filter(|d| !spatial.contains(d))
            .take(10)
            .map(|d| d.to_string())
            .collect();
        if !missing.is_empty() {
            return self.sem_err_at(
                self.tok.start,
                format!(
                    "Expected spatial dimensions {} not specified",
                    missing.join(", ")
                ),
            );
        }
        Ok(items)
    }

    /// `custom<ConvolutionDimensions>($dimension_numbers)`: `[b, 0, 1,
    /// f]x[0, 1, i, o]->[b, 0, 1, f]`, the attribute `#stablehlo.conv<…>`.
    fn convolution_dimensions(
        &mut self,
        syn: &'static OpSyntax,
        args: &'static [Element],
        parts: &mut Parts<'a>,
    ) -> Result<()> {
        let at = self.tok.start;
        let attrs = self.attr_args(syn, args)?;
        let [target] = attrs[..] else {
            return self.unsupported(syn, at, "`custom<ConvolutionDimensions>` arguments");
        };
        let input = self.conv_dim_list(CONV_LETTERS[0])?;
        self.expect_kw("x")?;
        let kernel = self.conv_dim_list(CONV_LETTERS[1])?;
        self.expect(Tok::Arrow, "'->'")?;
        let output = self.conv_dim_list(CONV_LETTERS[2])?;
        let text = format!(
            "#stablehlo.conv<[{}]x[{}]->[{}]>",
            input.join(", "),
            kernel.join(", "),
            output.join(", ")
        );
        parts.attrs[target] = Some(self.parse_attr_text(&text, at)?);
        Ok(())
    }

    /// `custom<WindowAttributes>($window_strides, $padding, $lhs_dilation,
    /// $rhs_dilation, $window_reversal)`: `stride = […]`, `pad = [[lo,
    /// hi], …]`, `lhs_dilate = […]`, `rhs_dilate = […]`, `reverse = […]`,
    /// each at most once, in any order.
    fn window_attributes(
        &mut self,
        syn: &'static OpSyntax,
        args: &'static [Element],
        parts: &mut Parts<'a>,
    ) -> Result<()> {
        let attrs = self.attr_args(syn, args)?;
        let [strides, padding, lhs, rhs, reverse] = attrs[..] else {
            return self.unsupported(syn, self.tok.start, "`custom<WindowAttributes>` arguments");
        };
        let mut left = vec!["stride", "pad", "lhs_dilate", "rhs_dilate", "reverse"];
        while self.is(Tok::BareIdent) {
            let at = self.tok.start;
            let word = lossy(self.spelling());
            let Some(k) = left.iter().position(|w| *w == word) else {
                self.bump();
                return self.sem_err_at(self.tok.start, format!("Unexpected keyword {word}"));
            };
            left.remove(k);
            self.bump();
            self.expect(Tok::Equal, "'='")?;
            let (slot, attr) = if word == "pad" {
                let mut pairs = Vec::new();
                self.comma_list(Tok::LSquare, Tok::RSquare, "'['", |p| {
                    let pair = p.hlo_int_list()?;
                    if pair.len() != 2 {
                        return p.sem_err_at(
                            p.prev_end,
                            format!(
                                "Expected array with 2 elements, got {} elements instead",
                                pair.len()
                            ),
                        );
                    }
                    pairs.push(format!("[{}]", join_ints(&pair)));
                    Ok(())
                })?;
                let text = format!(
                    "dense<[{}]> : tensor<{}x2xi64>",
                    pairs.join(", "),
                    pairs.len()
                );
                let text = if pairs.is_empty() {
                    "dense<> : tensor<0x2xi64>".to_string()
                } else {
                    text
                };
                (padding, self.parse_attr_text(&text, at)?)
            } else {
                let values = self.hlo_int_list()?;
                if word == "reverse" {
                    let flags: Vec<&str> = values
                        .iter()
                        .map(|&v| if v != 0 { "true" } else { "false" })
                        .collect();
                    let text = if flags.is_empty() {
                        "array<i1>".to_string()
                    } else {
                        format!("array<i1: {}>", flags.join(", "))
                    };
                    (reverse, self.parse_attr_text(&text, at)?)
                } else {
                    let slot = match word.as_str() {
                        "stride" => strides,
                        "lhs_dilate" => lhs,
                        _ => rhs,
                    };
                    (slot, self.i64_array(&values, at)?)
                }
            };
            parts.attrs[slot] = Some(attr);
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        Ok(())
    }

    /// `custom<SliceRanges>($start_indices, $limit_indices, $strides)`:
    /// `[start:limit(:stride)?, …]`, a stride of 1 when left out.
    fn slice_ranges(
        &mut self,
        syn: &'static OpSyntax,
        args: &'static [Element],
        parts: &mut Parts<'a>,
    ) -> Result<()> {
        let at = self.tok.start;
        let attrs = self.attr_args(syn, args)?;
        let [starts, limits, strides] = attrs[..] else {
            return self.unsupported(syn, at, "`custom<SliceRanges>` arguments");
        };
        let (mut s, mut l, mut st) = (Vec::new(), Vec::new(), Vec::new());
        self.comma_list(Tok::LSquare, Tok::RSquare, "'['", |p| {
            s.push(p.hlo_integer()?);
            p.expect(Tok::Colon, "':'")?;
            l.push(p.hlo_integer()?);
            st.push(if p.eat(Tok::Colon) {
                p.hlo_integer()?
            } else {
                1
            });
            Ok(())
        })?;
        parts.attrs[starts] = Some(self.i64_array(&s, at)?);
        parts.attrs[limits] = Some(self.i64_array(&l, at)?);
        parts.attrs[strides] = Some(self.i64_array(&st, at)?);
        Ok(())
    }

    /// `stablehlo.constant attr-dict? value` (`parseConstantOp`): the
    /// value with its type, which is the result's; or the generic form's
    /// signature without the op name: `() <{…}>? {…}? : () -> type`.
    pub(super) fn parse_hlo_constant(
        &mut self,
        syn: &'static OpSyntax,
        name_at: usize,
        results_start: usize,
    ) -> Result<OpId> {
        if self.eat(Tok::LParen) {
            self.expect(Tok::RParen, "')'")?;
            let mut props = Vec::new();
            if self.eat(Tok::Less) {
                let p = self.parse_attr(None)?;
                self.expect(Tok::Greater, "'>' to close the properties")?;
                if let AttrData::Dictionary(d) = self.m.ctx.attr(p) {
                    props = d.clone();
                }
            }
            let attrs = self.optional_attr_dict()?;
            self.expect(Tok::Colon, "':'")?;
            self.expect(Tok::LParen, "'('")?;
            self.expect(Tok::RParen, "')'")?;
            self.expect(Tok::Arrow, "'->'")?;
            let ty = self.parse_type()?;
            return self.finish_hand_written(
                syn,
                &[],
                &[ty],
                props,
                attrs,
                Vec::new(),
                name_at,
                results_start,
            );
        }
        let attrs = self.optional_attr_dict()?;
        let at = self.tok.start;
        let value = self.parse_attr(None)?;
        let Some(ty) = self.attr_type(value) else {
            return self.sem_err_at(at, "expected an elements attribute with a type");
        };
        self.finish_hand_written(
            syn,
            &[],
            &[ty],
            vec![(b"value"[..].into(), value)],
            attrs,
            Vec::new(),
            name_at,
            results_start,
        )
    }

    /// `stablehlo.reduce (%in init: %init), … applies op across dimensions
    /// = […] attr-dict? : type loc(…)?` or `… across dimensions = […]
    /// attr-dict? : type reducer (%a: t, %b: t) … region`
    /// (`parseReduceOp`). The short form builds the region: one block of
    /// two `tensor<elem>` arguments, the op applied to them and
    /// `dialect.return` of its result, all at the op's location.
    pub(super) fn parse_hlo_reduce(
        &mut self,
        syn: &'static OpSyntax,
        name_at: usize,
        results_start: usize,
    ) -> Result<OpId> {
        let start = self.tok.start;
        let (mut inputs, mut inits) = (Vec::new(), Vec::new());
        loop {
            if !self.eat(Tok::LParen) {
                break;
            }
            inputs.push(self.parse_value_use()?);
            self.expect_kw("init")?;
            self.expect(Tok::Colon, "':'")?;
            inits.push(self.parse_value_use()?);
            self.expect(Tok::RParen, "')'")?;
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        inputs.extend(inits);
        let compact = if self.is_kw("applies") {
            self.bump();
            if !self.is(Tok::BareIdent) && !self.is(Tok::String) {
                return self.err("expected operation name");
            }
            let spelled = if self.is(Tok::String) {
                self.parse_string("an operation name")?
            } else {
                let w = self.spelling().to_vec();
                self.bump();
                w
            };
            let dialect = syn.name.split('.').next().unwrap_or("");
            let inner = self.custom_op_name(&spelled).map(|(_, s)| s).filter(|s| {
                s.name.split('.').next() == Some(dialect)
                    && s.operands.len() == 2
                    && s.results.len() == 1
                    && s.regions.is_empty()
                    && s.has_trait("IsCommutative")
            });
            let Some(inner) = inner else {
                return self.sem_err_at(
                    start,
                    format!(
                        "expected the inner-op to be a commutative binary-op from the {dialect} dialect, with zero region, producing single result"
                    ),
                );
            };
            Some(inner)
        } else {
            None
        };
        self.expect_kw("across")?;
        self.expect_kw("dimensions")?;
        self.expect(Tok::Equal, "'='")?;
        let dims_at = self.tok.start;
        let dims = self.hlo_int_list()?;
        let dims = self.i64_array(&dims, dims_at)?;
        let attrs = self.optional_attr_dict()?;
        self.expect(Tok::Colon, "':'")?;
        let type_at = self.tok.start;
        let fty = self.parse_type()?;
        let TypeData::Function {
            inputs: in_types,
            results,
        } = self.m.ctx.ty(fty).clone()
        else {
            return self.sem_err_at(type_at, "expected function type");
        };
        let mut operands = Vec::new();
        self.resolve_operands(&inputs, &in_types, start, &mut operands)?;
        let props = vec![(b"dimensions"[..].into(), dims)];
        let Some(inner) = compact else {
            return self.parse_hlo_reducer(
                syn,
                operands,
                results,
                props,
                attrs,
                start,
                name_at,
                results_start,
            );
        };
        if in_types.is_empty() {
            return self.sem_err_at(start, "input types missing in reduce-op function type");
        }
        let loc = if self.is_kw("loc") {
            Some(self.parse_loc_spec()?)
        } else {
            None
        };
        let elem = self
            .m
            .ctx
            .ty(in_types[0])
            .element_type()
            .unwrap_or(in_types[0]);
        let scalar = self.m.ctx.intern_type(TypeData::RankedTensor {
            shape: Vec::new(),
            elem,
            encoding: None,
        });
        let here = self.loc_at(start);
        let region = self.m.new_region();
        let block = self.m.new_block();
        self.m.push_block(region, block);
        let lhs = self.m.add_block_arg(block, scalar, here);
        let rhs = self.m.add_block_arg(block, scalar, here);
        let empty = self.empty_dict;
        let inner_name = self.m.op_names.intern(inner.name.as_bytes());
        let inner_op = self.m.new_op(
            inner_name,
            &[lhs, rhs],
            &[scalar],
            Vec::new(),
            None,
            empty,
            Vec::new(),
            here,
        );
        self.m.push_op(block, inner_op);
        let result = ValueId(self.m.op(inner_op).first_result);
        let ret_name = format!(
            "{dialect}.return",
            dialect = syn.name.split('.').next().unwrap_or("")
        );
        let ret_name = self.m.op_names.intern(ret_name.as_bytes());
        let ret = self.m.new_op(
            ret_name,
            &[result],
            &[],
            Vec::new(),
            None,
            empty,
            Vec::new(),
            here,
        );
        self.m.push_op(block, ret);
        let op = self.finish_hand_written(
            syn,
            &operands,
            &results,
            props,
            attrs,
            vec![region],
            name_at,
            results_start,
        )?;
        match loc {
            Some(spec) => {
                for target in [
                    LocTarget::Op(op),
                    LocTarget::Op(inner_op),
                    LocTarget::Op(ret),
                    LocTarget::Arg(lhs),
                    LocTarget::Arg(rhs),
                ] {
                    self.bind_loc(spec, target);
                }
                self.custom_loc = Some(CustomLoc::Bound);
            }
            None => self.custom_loc = Some(CustomLoc::At(start)),
        }
        Ok(op)
    }

    /// The long form's rest: `reducer (%a: t loc(…)?, %b: t loc(…)?) …`
    /// (each pair an input's element and its accumulator; the block's
    /// arguments are all elements, then all accumulators) and the region.
    #[allow(clippy::too_many_arguments)]
    fn parse_hlo_reducer(
        &mut self,
        syn: &'static OpSyntax,
        operands: Vec<ValueId>,
        results: Vec<TypeId>,
        props: Vec<(Bytes, AttrId)>,
        attrs: Option<AttrId>,
        start: usize,
        name_at: usize,
        results_start: usize,
    ) -> Result<OpId> {
        self.expect_kw("reducer")?;
        let (mut elems, mut accs) = (Vec::new(), Vec::new());
        while self.eat(Tok::LParen) {
            elems.push(self.reducer_arg()?);
            self.expect(Tok::Comma, "','")?;
            accs.push(self.reducer_arg()?);
            self.expect(Tok::RParen, "')'")?;
        }
        elems.extend(accs);
        let entry: Vec<EntryArg<'a>> = elems
            .iter()
            .map(|(u, ty, loc)| EntryArg {
                name: u.0,
                at: u.2,
                ty: *ty,
                loc: match loc {
                    Some(LocSpec::Known(l)) => Some(*l),
                    _ => None,
                },
            })
            .collect();
        let region = self.m.new_region();
        self.parse_region_into(region, &entry)?;
        if let Some(&block) = self.m.region(region).blocks.first() {
            let args = self.m.block(block).args.clone();
            for (v, (_, _, loc)) in args.into_iter().zip(&elems) {
                if let Some(spec @ LocSpec::Alias { .. }) = loc {
                    self.bind_loc(*spec, LocTarget::Arg(v));
                }
            }
        }
        let op = self.finish_hand_written(
            syn,
            &operands,
            &results,
            props,
            attrs,
            vec![region],
            name_at,
            results_start,
        )?;
        self.custom_loc = Some(CustomLoc::At(start));
        Ok(op)
    }

    /// `%name: type loc(…)?`, an argument of a reducer block.
    fn reducer_arg(&mut self) -> Result<(Use<'a>, TypeId, Option<LocSpec<'a>>)> {
        let u = self.parse_value_use()?;
        if u.1 != 0 {
            return self.err_at(u.2, "expected an SSA value without a result number");
        }
        self.expect(Tok::Colon, "':'")?;
        let ty = self.parse_type()?;
        let loc = if self.is_kw("loc") {
            Some(self.parse_loc_spec()?)
        } else {
            None
        };
        Ok((u, ty, loc))
    }

    /// `stablehlo.while(%iter = %init, …) : types attributes {…}? cond
    /// region do region` (`parseWhileOp`): the results have the operands'
    /// types, and both regions take the iteration values as arguments.
    pub(super) fn parse_hlo_while(
        &mut self,
        syn: &'static OpSyntax,
        name_at: usize,
        results_start: usize,
    ) -> Result<OpId> {
        let at = self.tok.start;
        let (mut args, mut inits) = (Vec::new(), Vec::new());
        self.comma_list(Tok::LParen, Tok::RParen, "'('", |p| {
            args.push(p.parse_value_use()?);
            p.expect(Tok::Equal, "'='")?;
            inits.push(p.parse_value_use()?);
            Ok(())
        })?;
        let mut types = Vec::new();
        if !inits.is_empty() {
            self.expect(Tok::Colon, "':'")?;
            types.push(self.parse_type()?);
            while self.eat(Tok::Comma) {
                types.push(self.parse_type()?);
            }
        }
        let mut operands = Vec::new();
        self.resolve_operands(&inits, &types, at, &mut operands)?;
        let attrs = self.optional_attr_dict_with_keyword()?;
        let entry = Self::entry_args(&args, &types);
        self.expect_kw("cond")?;
        let cond = self.m.new_region();
        self.parse_region_into(cond, &entry)?;
        self.expect_kw("do")?;
        let body = self.m.new_region();
        self.parse_region_into(body, &entry)?;
        self.finish_hand_written(
            syn,
            &operands,
            &types,
            Vec::new(),
            attrs,
            vec![cond, body],
            name_at,
            results_start,
        )
    }
}

/// `1, 2, 3`.
fn join_ints(v: &[i64]) -> String {
    v.iter().map(i64::to_string).collect::<Vec<_>>().join(", ")
}
