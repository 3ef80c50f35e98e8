//! The interpreter of the declarative assembly format (SPEC.md §11.2):
//! one walk of an op's element tree, reading what each element reads, then
//! the op from what was read.

use super::*;

impl<'a> Parser<'a> {
    pub(super) fn parse_declarative(
        &mut self,
        syn: &'static OpSyntax,
        elements: &'static [Element],
        op_start: usize,
        name_at: usize,
        results_start: usize,
    ) -> Result<OpId> {
        // The lists of an op parsed before are reused (an op's regions
        // take others from the pool while this one is out).
        let mut parts = self.parts_pool.pop().unwrap_or_default();
        parts.reset(syn, self.value_refs.len() > results_start);
        self.format_elements(syn, elements, &mut parts, name_at)?;
        self.build_declarative(syn, parts, op_start, name_at, results_start)
    }

    pub(super) fn format_elements(
        &mut self,
        syn: &'static OpSyntax,
        elements: &'static [Element],
        parts: &mut Parts<'a>,
        name_at: usize,
    ) -> Result<()> {
        for el in elements {
            self.format_element(syn, el, parts, name_at, false)?;
        }
        Ok(())
    }

    pub(super) fn format_element(
        &mut self,
        syn: &'static OpSyntax,
        el: &'static Element,
        parts: &mut Parts<'a>,
        name_at: usize,
        qualified: bool,
    ) -> Result<()> {
        match el {
            Element::Literal(l) => self.expect_literal(l),
            Element::Space(_) => Ok(()),
            Element::Var(Var::Operand(i)) => {
                let uses = match syn.operands[*i].arity {
                    Arity::Single => vec![self.parse_value_use()?],
                    Arity::Optional => {
                        if self.is(Tok::PercentId) {
                            vec![self.parse_value_use()?]
                        } else {
                            Vec::new()
                        }
                    }
                    Arity::Variadic => self.value_use_list()?,
                    Arity::VariadicOfVariadic => {
                        return self.unsupported(
                            syn,
                            self.tok.start,
                            "a variadic-of-variadic operand",
                        )
                    }
                };
                parts.operands[*i] = uses;
                Ok(())
            }
            Element::Var(Var::Attr(i)) => {
                let spec = &syn.attrs[*i];
                if spec.kind == AttrKind::Unit {
                    parts.attrs[*i] = Some(self.unit_attr);
                    return Ok(());
                }
                let a = self.parse_attr_var(syn, spec, qualified)?;
                parts.attrs[*i] = Some(a);
                Ok(())
            }
            Element::Var(Var::Region(i)) => {
                let regions = if syn.regions[*i].variadic {
                    let mut v = Vec::new();
                    if self.is(Tok::LBrace) {
                        loop {
                            v.push(self.parse_custom_region(syn, name_at)?);
                            if !self.eat(Tok::Comma) {
                                break;
                            }
                        }
                    }
                    v
                } else {
                    vec![self.parse_custom_region(syn, name_at)?]
                };
                parts.regions[*i] = regions;
                Ok(())
            }
            Element::Var(Var::Successor(i)) => {
                let v = if syn.successors[*i].variadic {
                    let mut v = Vec::new();
                    if self.is(Tok::CaretId) {
                        loop {
                            v.push(self.parse_block_ref()?);
                            if !self.eat(Tok::Comma) {
                                break;
                            }
                        }
                    }
                    v
                } else {
                    vec![self.parse_block_ref()?]
                };
                parts.successors[*i] = v;
                Ok(())
            }
            Element::Var(Var::Prop(i)) => {
                let a = self.parse_named_enum_prop(syn, *i)?;
                parts.props[*i] = Some(a);
                Ok(())
            }
            Element::Var(Var::Result(_)) | Element::Results => {
                self.unsupported(syn, self.tok.start, "a result outside `type(…)`")
            }
            Element::AttrDict { with_keyword } => {
                parts.attr_dict = if *with_keyword {
                    self.optional_attr_dict_with_keyword()?
                } else {
                    self.optional_attr_dict()?
                };
                Ok(())
            }
            Element::PropDict => {
                if self.is(Tok::Less) {
                    self.bump();
                    parts.prop_dict = Some(self.parse_attr(None)?);
                    self.expect(Tok::Greater, "'>' to close the properties")?;
                }
                Ok(())
            }
            Element::Operands => {
                parts.all_operands = Some(self.value_use_list()?);
                Ok(())
            }
            Element::Regions => {
                for i in 0..syn.regions.len() {
                    if i > 0 && !self.eat(Tok::Comma) {
                        break;
                    }
                    if !self.is(Tok::LBrace) {
                        break;
                    }
                    let r = self.parse_custom_region(syn, name_at)?;
                    parts.regions[i].push(r);
                }
                Ok(())
            }
            Element::Successors => {
                let at = self.tok.start;
                let several = syn.successors.len() != 1;
                if several && syn.successors.iter().any(|g| g.variadic) {
                    return self.unsupported(
                        syn,
                        at,
                        "`successors` of several groups, some variadic",
                    );
                }
                let mut v = Vec::new();
                if self.is(Tok::CaretId) {
                    loop {
                        v.push(self.parse_block_ref()?);
                        if !self.eat(Tok::Comma) {
                            break;
                        }
                    }
                }
                if !several {
                    parts.successors[0] = v;
                } else if v.len() != syn.successors.len() {
                    // The generated parser adds them all; the op's
                    // verifier then counts them.
                    return self.sem_err_at(
                        at,
                        format!(
                            "'{}' op requires {} successors but found {}",
                            syn.name,
                            syn.successors.len(),
                            v.len()
                        ),
                    );
                } else {
                    for (slot, b) in parts.successors.iter_mut().zip(v) {
                        *slot = vec![b];
                    }
                }
                Ok(())
            }
            Element::Type(inner) => {
                let target = self.type_target(syn, inner)?;
                let types = self.parse_target_types(syn, target, qualified)?;
                self.set_types(parts, target, types);
                Ok(())
            }
            Element::FunctionalType(ins, outs) => {
                let ti = self.type_target(syn, ins)?;
                let to = self.type_target(syn, outs)?;
                let (mut inputs, mut outputs) = (Vec::new(), Vec::new());
                self.parse_function_type_parts(&mut inputs, &mut outputs)?;
                self.set_types(parts, ti, inputs);
                self.set_types(parts, to, outputs);
                Ok(())
            }
            Element::Qualified(inner) => self.format_element(syn, inner, parts, name_at, true),
            Element::Optional {
                then,
                anchor: _,
                otherwise,
            } => {
                let first = then
                    .iter()
                    .find(|e| !matches!(e, Element::Space(_)))
                    .expect("a group has an element");
                let present = self.group_starts_here(syn, first)?;
                let chosen = if present { then } else { otherwise };
                for e in chosen {
                    self.format_element(syn, e, parts, name_at, false)?;
                }
                Ok(())
            }
            Element::OIList(clauses) => {
                let mut seen = vec![false; clauses.len()];
                while let Some(i) = clauses.iter().enumerate().position(|(i, c)| {
                    !seen[i] && matches!(&c[0], Element::Literal(l) if self.at_literal(l))
                }) {
                    seen[i] = true;
                    for e in &clauses[i] {
                        self.format_element(syn, e, parts, name_at, false)?;
                    }
                }
                Ok(())
            }
            Element::Custom { name, args } => self.custom_directive(syn, name, args, parts),
            Element::Ref(_) | Element::StringArg(_) => {
                self.unsupported(syn, self.tok.start, "a `ref(…)` argument")
            }
        }
    }

    /// Whether the optional group whose first element is `first` is
    /// present, as the generated parser decides it from the next token.
    pub(super) fn group_starts_here(&mut self, syn: &OpSyntax, first: &Element) -> Result<bool> {
        Ok(match first {
            Element::Literal(l) => self.at_literal(l),
            Element::Var(Var::Operand(_)) | Element::Operands => self.is(Tok::PercentId),
            // A named enum property's `optionalParser`: its mnemonic.
            Element::Var(Var::Prop(i)) => match syn.props[*i].mnemonic.as_deref() {
                Some(m) => self.is_kw(m),
                None => {
                    return self.unsupported(
                        syn,
                        self.tok.start,
                        "a property that is not an attribute",
                    )
                }
            },
            Element::Var(Var::Attr(i)) => {
                let spec = &syn.attrs[*i];
                match spec.kind {
                    AttrKind::Symbol => self.is(Tok::AtId),
                    AttrKind::Enum => {
                        self.is(Tok::String)
                            || (self.is(Tok::BareIdent)
                                && spec
                                    .cases
                                    .iter()
                                    .any(|(k, _)| k.as_bytes() == self.spelling()))
                    }
                    AttrKind::Array => self.is(Tok::LSquare),
                    AttrKind::Def => self.is(Tok::Less) || self.is(Tok::HashId),
                    AttrKind::Type => self.can_start_type(),
                    AttrKind::Unit => false,
                    AttrKind::Attr => match spec.storage.as_deref().map(str::trim) {
                        // `parseOptionalAttribute` of these classes.
                        Some("::mlir::ArrayAttr") => self.is(Tok::LSquare),
                        Some("::mlir::StringAttr") => self.is(Tok::String),
                        Some("::mlir::SymbolRefAttr" | "::mlir::FlatSymbolRefAttr") => {
                            self.is(Tok::AtId)
                        }
                        _ => self.can_start_attr(),
                    },
                }
            }
            Element::Var(Var::Region(_)) | Element::Regions => self.is(Tok::LBrace),
            Element::Var(Var::Successor(_)) | Element::Successors => self.is(Tok::CaretId),
            Element::Type(_) => self.can_start_type(),
            Element::FunctionalType(..) => self.is(Tok::LParen),
            Element::AttrDict { with_keyword } => {
                if *with_keyword {
                    self.is_kw("attributes")
                } else {
                    self.is(Tok::LBrace)
                }
            }
            Element::PropDict => self.is(Tok::Less),
            Element::Qualified(inner) => return self.group_starts_here(syn, inner),
            _ => return self.unsupported(syn, self.tok.start, "an optional group of this kind"),
        })
    }

    pub(super) fn at_literal(&self, l: &str) -> bool {
        if l.bytes().next().is_some_and(lexer::is_ident_start) {
            return self.is_kw(l);
        }
        self.src[self.tok.start..].starts_with(l.as_bytes())
            && !(l == "-" && self.is(Tok::Arrow))
            && !(l == "<" && self.src[self.tok.start..].starts_with(b"<{"))
    }

    pub(super) fn expect_literal(&mut self, l: &str) -> Result<()> {
        if !self.at_literal(l) {
            return self.err(format!("expected '{l}'"));
        }
        if l.bytes().next().is_some_and(lexer::is_ident_start)
            || self.src[self.tok.start..self.tok.end] == *l.as_bytes()
        {
            self.bump();
        } else {
            let next = self.tok.start + l.len();
            self.reset_to(next);
        }
        Ok(())
    }

    pub(super) fn can_start_type(&self) -> bool {
        match self.tok.kind {
            Tok::BangId | Tok::LParen => true,
            Tok::BareIdent => is_builtin_type_word(self.spelling()),
            _ => false,
        }
    }

    pub(super) fn can_start_attr(&self) -> bool {
        match self.tok.kind {
            Tok::LSquare
            | Tok::LBrace
            | Tok::AtId
            | Tok::String
            | Tok::Integer
            | Tok::Float
            | Tok::Minus
            | Tok::HashId
            | Tok::BangId => true,
            Tok::BareIdent => {
                matches!(
                    self.spelling(),
                    b"true"
                        | b"false"
                        | b"unit"
                        | b"affine_map"
                        | b"affine_set"
                        | b"array"
                        | b"dense"
                        | b"dense_resource"
                        | b"sparse"
                        | b"strided"
                        | b"distinct"
                ) || is_builtin_type_word(self.spelling())
            }
            _ => false,
        }
    }

    pub(super) fn value_use_list(&mut self) -> Result<Vec<Use<'a>>> {
        let mut v = Vec::new();
        if self.is(Tok::PercentId) {
            loop {
                v.push(self.parse_value_use()?);
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
        }
        Ok(v)
    }

    pub(super) fn type_target(&self, syn: &OpSyntax, el: &Element) -> Result<TypeTarget> {
        Ok(match el {
            Element::Var(Var::Operand(i)) => TypeTarget::Operand(*i),
            Element::Var(Var::Result(i)) => TypeTarget::Result(*i),
            Element::Operands => TypeTarget::AllOperands,
            Element::Results => TypeTarget::AllResults,
            _ => return self.unsupported(syn, self.tok.start, "`type(…)` of this argument"),
        })
    }

    pub(super) fn parse_target_types(
        &mut self,
        syn: &OpSyntax,
        target: TypeTarget,
        qualified: bool,
    ) -> Result<Vec<TypeId>> {
        let (spec, arity): (Option<&ValueSpec>, Arity) = match target {
            TypeTarget::Operand(i) => (Some(&syn.operands[i]), syn.operands[i].arity),
            TypeTarget::Result(i) => (Some(&syn.results[i]), syn.results[i].arity),
            TypeTarget::AllOperands | TypeTarget::AllResults => (None, Arity::Variadic),
        };
        let def = if qualified {
            None
        } else {
            spec.and_then(|s| s.def.as_deref())
        };
        let starts = |p: &Self| p.can_start_type() || (def.is_some() && p.is(Tok::Less));
        match arity {
            Arity::Single => Ok(vec![self.parse_type_var(def)?]),
            Arity::Optional => Ok(if starts(self) {
                vec![self.parse_type_var(def)?]
            } else {
                Vec::new()
            }),
            Arity::Variadic => {
                let mut v = Vec::new();
                if starts(self) {
                    loop {
                        v.push(self.parse_type_var(def)?);
                        if !self.eat(Tok::Comma) {
                            break;
                        }
                    }
                }
                Ok(v)
            }
            Arity::VariadicOfVariadic => self.unsupported(
                syn,
                self.tok.start,
                "types of a variadic-of-variadic operand",
            ),
        }
    }

    pub(super) fn set_types(&self, parts: &mut Parts<'a>, target: TypeTarget, types: Vec<TypeId>) {
        match target {
            TypeTarget::Operand(i) => parts.operand_types[i] = Some(types),
            TypeTarget::Result(i) => parts.result_types[i] = Some(types),
            TypeTarget::AllOperands => parts.all_operand_types = Some(types),
            TypeTarget::AllResults => parts.all_result_types = Some(types),
        }
    }

    /// A type, or the parameters of dialect type `def` without its
    /// `!dialect.mnemonic` (mlir-tblgen's `parseCustomTypeWithFallback`).
    pub(super) fn parse_type_var(&mut self, def: Option<&str>) -> Result<TypeId> {
        match def {
            Some(def) if self.is(Tok::Less) => {
                let at = self.tok.start;
                let end = self.scan_balanced_body(at)?;
                let text = format!("!{def}{}", lossy(&self.src[at..end]));
                let t = self.parse_type_text(&text, at)?;
                self.reset_to(end);
                Ok(t)
            }
            _ => self.parse_type(),
        }
    }

    /// An attribute variable, read as mlir-tblgen's generated parser reads
    /// its kind.
    pub(super) fn parse_attr_var(
        &mut self,
        syn: &OpSyntax,
        spec: &AttrSpec,
        qualified: bool,
    ) -> Result<AttrId> {
        let at = self.tok.start;
        match spec.kind {
            AttrKind::Unit => Ok(self.unit_attr),
            AttrKind::Enum => {
                let word: Vec<u8> = if self.is(Tok::String) {
                    self.parse_string("an enum case")?
                } else if self.is(Tok::BareIdent) {
                    let w = self.spelling().to_vec();
                    self.bump();
                    w
                } else {
                    return self.err(format!("expected a keyword of '{}'", spec.name));
                };
                let Some((_, value)) = spec.cases.iter().find(|(k, _)| k.as_bytes() == word) else {
                    return self.sem_err_at(
                        at,
                        format!(
                            "expected one of [{}] for {}, got: {}",
                            spec.cases
                                .iter()
                                .map(|(k, _)| k.as_str())
                                .collect::<Vec<_>>()
                                .join(", "),
                            spec.name,
                            lossy(&word)
                        ),
                    );
                };
                let ty = self
                    .m
                    .ctx
                    .intern_type(TypeData::signless(spec.bits.unwrap_or(64)));
                Ok(self.m.ctx.intern_attr(AttrData::Integer {
                    ty,
                    value: BigInt::from(*value),
                }))
            }
            AttrKind::Symbol => {
                let name = self.parse_symbol_name()?;
                Ok(self.m.ctx.intern_attr(AttrData::String {
                    value: name.into_boxed_slice(),
                    ty: None,
                }))
            }
            AttrKind::Type => {
                let t = self.parse_type()?;
                Ok(self.m.ctx.intern_attr(AttrData::Type(t)))
            }
            AttrKind::Array if !qualified && self.is(Tok::LSquare) => {
                self.bracketed_dense_array(spec.element.as_deref().unwrap_or("i64"))
            }
            AttrKind::Def if !qualified && !self.is(Tok::HashId) => {
                let def = spec
                    .def
                    .as_deref()
                    .expect("a `def` attribute names its kind");
                let text = if self.is(Tok::Less) {
                    let end = self.scan_balanced_body(at)?;
                    let t = format!("#{def}{}", lossy(&self.src[at..end]));
                    self.reset_to(end);
                    t
                } else if self.is(Tok::BareIdent) {
                    // A kind printed as a bare keyword (`$value` formats):
                    // `#dialect<mnemonic keyword>`.
                    let (dialect, mnemonic) = def.split_once('.').unwrap_or((def, ""));
                    let t = format!("#{dialect}<{mnemonic} {}>", lossy(self.spelling()));
                    self.bump();
                    t
                } else {
                    return self.unsupported(syn, at, &format!("attribute '{}'", spec.name));
                };
                self.parse_attr_text(&text, at)
            }
            _ => {
                // With a type to build, the attribute has no `: type`.
                let ty = match spec.build.as_deref() {
                    None => None,
                    Some(b) => Some(self.parse_type_text(b, at)?),
                };
                self.parse_attr(ty)
            }
        }
    }

    /// The offset just past the `]` closing the `[` at `at`.
    pub(super) fn scan_square(&self, at: usize) -> Result<usize> {
        let mut depth = 0usize;
        for (i, &c) in self.src[at..].iter().enumerate() {
            match c {
                b'[' => depth += 1,
                b']' => {
                    depth -= 1;
                    if depth == 0 {
                        return Ok(at + i + 1);
                    }
                }
                b'"' | b'{' | b'}' => return self.err_at(at + i, "expected ']'"),
                _ => {}
            }
        }
        self.err_at(at, "expected ']'")
    }

    /// A region of a custom op: as a generic region, and ended with the
    /// op's implicit terminator when the text leaves it out.
    pub(super) fn parse_custom_region(
        &mut self,
        syn: &OpSyntax,
        name_at: usize,
    ) -> Result<RegionId> {
        let r = self.parse_region()?;
        if let Some(term) = syn.implicit_terminator() {
            self.ensure_terminator(r, term, name_at)?;
        } else if syn.flags().single_block && self.m.region(r).blocks.is_empty() {
            let b = self.m.new_block();
            self.m.push_block(r, b);
        }
        Ok(r)
    }

    /// MLIR's `ensureTerminator`: a block for an empty region, and the
    /// terminator op `term` at the end of its block unless it ends with one.
    pub(super) fn ensure_terminator(
        &mut self,
        r: RegionId,
        term: &str,
        name_at: usize,
    ) -> Result<()> {
        let block = match self.m.region(r).blocks.first() {
            Some(&b) => b,
            None => {
                let b = self.m.new_block();
                self.m.push_block(r, b);
                b
            }
        };
        if let Some(&last) = self.m.block(block).ops.last() {
            if self.m.op_name(last) == term.as_bytes() {
                return Ok(());
            }
            // MLIR adds the terminator only where the block has none: an
            // op of another kind that is a terminator is left as it is.
            let last_name = self.m.op_name(last).to_vec();
            if self.registry.get(&last_name).is_some_and(|i| i.terminator) {
                return Ok(());
            }
        }
        let name = self.m.op_names.intern(term.as_bytes());
        let props = self.with_default_properties(name, None, name_at)?;
        let loc = self.loc_at(name_at);
        let empty = self.empty_dict;
        // A terminator with regions (`scf.forall.in_parallel`) is built
        // with them (variadic groups empty), each holding one empty block
        // where the op is `SingleBlock`, as its ODS builder creates them.
        let mut regions = Vec::new();
        if let Some(syn) = self.op_syntax(term.as_bytes()) {
            for _ in syn.regions.iter().filter(|r| !r.variadic) {
                let r = self.m.new_region();
                if syn.flags().single_block {
                    let b = self.m.new_block();
                    self.m.push_block(r, b);
                }
                regions.push(r);
            }
        }
        let op = self
            .m
            .new_op(name, &[], &[], Vec::new(), props, empty, regions, loc);
        self.m.push_op(block, op);
        Ok(())
    }

    /// Types the format left out, from the op's traits; then the op.
    pub(super) fn build_declarative(
        &mut self,
        syn: &'static OpSyntax,
        mut parts: Parts<'a>,
        op_start: usize,
        name_at: usize,
        results_start: usize,
    ) -> Result<OpId> {
        // `operands` and `type(operands)`: spread over the groups.
        if let Some(all) = parts.all_operands.take() {
            let groups = self.spread(syn, &syn.operands, all.len(), name_at)?;
            let mut it = all.into_iter();
            for (i, n) in groups.into_iter().enumerate() {
                parts.operands[i] = it.by_ref().take(n).collect();
            }
        }
        if let Some(all) = parts.all_operand_types.take() {
            let counts: Vec<usize> = parts.operands.iter().map(Vec::len).collect();
            if counts.iter().sum::<usize>() != all.len() {
                return self.sem_err_at(
                    name_at,
                    format!(
                        "{} operands present, but expected {}",
                        counts.iter().sum::<usize>(),
                        all.len()
                    ),
                );
            }
            let mut it = all.into_iter();
            for (i, n) in counts.into_iter().enumerate() {
                parts.operand_types[i] = Some(it.by_ref().take(n).collect());
            }
        }
        if let Some(all) = parts.all_result_types.take() {
            let groups = self.spread(syn, &syn.results, all.len(), name_at)?;
            let mut it = all.into_iter();
            for (i, n) in groups.into_iter().enumerate() {
                parts.result_types[i] = Some(it.by_ref().take(n).collect());
            }
        }
        self.infer_types(syn, &mut parts, name_at)?;

        // Operands.
        let mut operands = std::mem::take(&mut parts.scratch_operands);
        let mut operand_counts = std::mem::take(&mut parts.scratch_operand_counts);
        for (i, uses) in parts.operands.iter().enumerate() {
            let types = parts.operand_types[i].as_deref().unwrap_or(&[]);
            self.resolve_operands(uses, types, name_at, &mut operands)?;
            operand_counts.push(uses.len());
        }
        let mut result_types = std::mem::take(&mut parts.scratch_result_types);
        let mut result_counts = std::mem::take(&mut parts.scratch_result_counts);
        for t in &parts.result_types {
            let t = t.as_deref().unwrap_or(&[]);
            result_types.extend_from_slice(t);
            result_counts.push(t.len());
        }

        // Attributes: inherent ones are properties where the op has them.
        let mut entries: Vec<(Bytes, AttrId)> = Vec::new();
        for (i, a) in parts.attrs.iter().enumerate() {
            if let Some(a) = a {
                entries.push((syn.attrs[i].name.as_bytes().into(), *a));
            }
        }
        for (i, a) in parts.props.iter().enumerate() {
            if let Some(a) = a {
                entries.push((syn.props[i].name.as_bytes().into(), *a));
            }
        }
        if syn.flags().attr_sized_operand_segments {
            let a = self.segment_sizes(&operand_counts, name_at)?;
            entries.push((b"operandSegmentSizes"[..].into(), a));
        }
        if syn.flags().attr_sized_result_segments {
            let a = self.segment_sizes(&result_counts, name_at)?;
            entries.push((b"resultSegmentSizes"[..].into(), a));
        }
        let name_id = self.m.op_names.intern(syn.name.as_bytes());
        let (properties, attributes) = self.split_properties(
            syn.name.as_bytes(),
            entries,
            parts.attr_dict,
            parts.prop_dict,
        );
        let properties = self.with_default_properties(name_id, properties, op_start)?;

        // A region the text left out (the other branch of an optional
        // group) is there, empty.
        for (i, spec) in syn.regions.iter().enumerate() {
            if !spec.variadic && parts.regions[i].is_empty() {
                let r = self.m.new_region();
                parts.regions[i].push(r);
            }
        }
        let regions: Vec<RegionId> = parts.regions.drain(..).flatten().collect();
        let successors: Vec<BlockId> = parts.successors.drain(..).flatten().collect();
        let op = self.finish_custom_op(
            name_id,
            &operands,
            &result_types,
            successors,
            properties,
            attributes,
            regions,
            op_start,
            results_start,
        );
        parts.scratch_operands = operands;
        parts.scratch_operand_counts = operand_counts;
        parts.scratch_result_types = result_types;
        parts.scratch_result_counts = result_counts;
        self.parts_pool.push(parts);
        op
    }

    /// `array<i32: n, …>` of group sizes.
    pub(super) fn segment_sizes(&mut self, counts: &[usize], at: usize) -> Result<AttrId> {
        let list: Vec<String> = counts.iter().map(|c| c.to_string()).collect();
        let text = if list.is_empty() {
            "array<i32>".to_string()
        } else {
            format!("array<i32: {}>", list.join(", "))
        };
        self.parse_attr_text(&text, at)
    }

    /// How many of `n` values each group of `specs` gets: one per single
    /// group, and the rest to the one variadic or optional group. Several
    /// variadic groups without a segment-size attribute share the rest
    /// equally, as ODS's generated accessors assume
    /// (`getODSResultIndexAndLength`); with one, the split is not in the
    /// list and is refused.
    pub(super) fn spread(
        &self,
        syn: &OpSyntax,
        specs: &[ValueSpec],
        n: usize,
        at: usize,
    ) -> Result<Vec<usize>> {
        let singles = specs.iter().filter(|s| s.arity == Arity::Single).count();
        let others = specs.len() - singles;
        let flags = syn.flags();
        let segmented = if std::ptr::eq(specs, syn.operands.as_slice()) {
            flags.attr_sized_operand_segments
        } else {
            flags.attr_sized_result_segments
        };
        let plain_variadic = specs
            .iter()
            .all(|s| matches!(s.arity, Arity::Single | Arity::Variadic));
        if n < singles
            || (others > 1
                && (segmented || !plain_variadic || !(n - singles).is_multiple_of(others)))
        {
            return self.unsupported(syn, at, "values of several variadic groups in one list");
        }
        let each = (n - singles).checked_div(others).unwrap_or(0);
        Ok(specs
            .iter()
            .map(|s| if s.arity == Arity::Single { 1 } else { each })
            .collect())
    }

    /// A property in its own syntax: an enum property `mnemonic<case, …>`
    /// (ODS's `NamedEnumProp`, whose generated parser reads the cases with
    /// the enum's `FieldParser`), kept as the integer attribute its
    /// generic form holds.
    pub(super) fn parse_named_enum_prop(&mut self, syn: &OpSyntax, i: usize) -> Result<AttrId> {
        let at = self.tok.start;
        let spec = &syn.props[i];
        let (Some("named_enum"), Some(mnemonic), Some(bits)) =
            (spec.kind.as_deref(), spec.mnemonic.as_deref(), spec.bits)
        else {
            return self.unsupported(syn, at, "a property that is not an attribute");
        };
        self.expect_kw(mnemonic)?;
        self.expect(Tok::Less, "'<'")?;
        let mut value = 0i64;
        loop {
            let word_at = self.tok.start;
            if !self.is(Tok::BareIdent) {
                return self.err("expected keyword for an enum case");
            }
            let word = self.spelling();
            let Some((_, v)) = spec.cases.iter().find(|(k, _)| k.as_bytes() == word) else {
                return self.err_at(
                    word_at,
                    format!("expected one of the cases of '{}'", spec.name),
                );
            };
            value = if spec.bit { value | v } else { *v };
            self.bump();
            if !(spec.bit && self.eat(Tok::Comma)) {
                break;
            }
        }
        self.expect(Tok::Greater, "'>'")?;
        self.parse_attr_text(&format!("{value} : i{bits}"), at)
    }
}
