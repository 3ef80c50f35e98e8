//! The linalg dialect's structured ops (MLIR's `LinalgOps.cpp`):
//! `linalg.generic`, whose body is written out, and the named ops, whose
//! body the parser builds from the operands' element types, as each op's
//! `regionBuilder` does (SPEC.md §11.2).

use super::hand_written::FnArg;
use super::*;
use rmlir_format::op_format::opdsl::{self, FnRef, OpDslOp, Stmt, TypeRef, ValueRef};

/// Whether `name` is a named structured op whose body its data describes:
/// an op of linalg's OpDSL, or one of the contractions defined in ODS
/// (`format/data/linalg-opdsl-22.json`, SPEC.md §11.2).
pub(super) fn is_named_structured(name: &str) -> bool {
    // Asked of every op without a hand-written parser: most are not linalg.
    name.starts_with("linalg.") && opdsl::op(name).is_some()
}

/// A scalar type's class, as the region builders tell them apart.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    Float,
    Bool,
    Integer,
    Complex,
}

/// What `parseCommonStructuredOpParts` reads: the operands, resolved
/// inputs first, their types, the attributes and the `<{…}>` dictionary.
struct StructuredParts {
    operands: Vec<ValueId>,
    in_types: Vec<TypeId>,
    out_types: Vec<TypeId>,
    entries: Vec<(Bytes, AttrId)>,
    prop_dict: Option<AttrId>,
    /// Where the attribute dictionary is (or would be): where MLIR reports
    /// an inherent attribute that fails its constraint.
    attrs_at: usize,
}

impl<'a> Parser<'a> {
    /// `<{props}>? attr-dict? (ins(%a, … : types))? (outs(%b, … : types))?`
    /// (MLIR's `parseCommonStructuredOpParts`): the operands, resolved
    /// inputs first, their types, and the dictionaries read.
    fn structured_parts(&mut self, segment_sizes: bool) -> Result<StructuredParts> {
        let mut props = Vec::new();
        let mut prop_dict = None;
        if self.eat(Tok::Less) {
            let at = self.tok.start;
            let d = self.parse_attr(None)?;
            if !matches!(self.m.ctx.attr(d), AttrData::Dictionary(_)) {
                return self.sem_err_at(at, "expected a dictionary of properties");
            }
            self.expect(Tok::Greater, "'>'")?;
            prop_dict = Some(d);
        }
        let attrs_at = self.tok.start;
        if let Some(d) = self.optional_attr_dict()? {
            if let AttrData::Dictionary(entries) = self.m.ctx.attr(d) {
                props.extend(entries.iter().cloned());
            }
        }
        let mut groups: [(Vec<Use<'a>>, Vec<TypeId>, usize); 2] = Default::default();
        for (i, kw) in ["ins", "outs"].into_iter().enumerate() {
            if !self.is_kw(kw) {
                continue;
            }
            self.bump();
            self.expect(Tok::LParen, "'('")?;
            let at = self.tok.start;
            let (uses, types) = self.uses_colon_types()?;
            self.expect(Tok::RParen, "')'")?;
            groups[i] = (uses, types, at);
        }
        let mut operands = Vec::new();
        for (uses, types, at) in &groups {
            self.resolve_operands(uses, types, *at, &mut operands)?;
        }
        let [(ins, in_types, _), (outs, out_types, _)] = groups;
        if segment_sizes {
            let sizes = self.segment_sizes(&[ins.len(), outs.len()], self.tok.start)?;
            props.push((b"operandSegmentSizes"[..].into(), sizes));
        }
        Ok(StructuredParts {
            operands,
            in_types,
            out_types,
            entries: props,
            prop_dict,
            attrs_at,
        })
    }

    /// `linalg.yield (%v, … attr-dict? : types)?` (MLIR's `YieldOp::parse`:
    /// the dictionary comes between the values and their types).
    pub(super) fn parse_linalg_yield(
        &mut self,
        syn: &'static OpSyntax,
        name_at: usize,
        results_start: usize,
    ) -> Result<OpId> {
        let mut uses = Vec::new();
        if self.is(Tok::PercentId) {
            uses.push(self.parse_value_use()?);
            while self.eat(Tok::Comma) {
                uses.push(self.parse_value_use()?);
            }
        }
        let attrs = self.optional_attr_dict()?;
        let mut types = Vec::new();
        if !uses.is_empty() {
            self.expect(Tok::Colon, "':'")?;
            types.push(self.parse_type()?);
            while self.eat(Tok::Comma) {
                types.push(self.parse_type()?);
            }
        }
        let mut operands = Vec::new();
        self.resolve_operands(&uses, &types, name_at, &mut operands)?;
        self.finish_hand_written(
            syn,
            &operands,
            &[],
            Vec::new(),
            attrs,
            Vec::new(),
            name_at,
            results_start,
        )
    }

    /// `linalg.generic {traits} ins(…)? outs(…)? (attrs = {…})? region
    /// (-> types)?` (MLIR's `GenericOp::parse`): `iterator_types` written
    /// as strings become `#linalg.iterator_type<…>`.
    pub(super) fn parse_linalg_generic(
        &mut self,
        syn: &'static OpSyntax,
        name_at: usize,
        results_start: usize,
    ) -> Result<OpId> {
        let at = self.tok.start;
        let traits = self.parse_attr(None)?;
        let AttrData::Dictionary(mut entries) = self.m.ctx.attr(traits).clone() else {
            return self.sem_err_at(at, "expected a dictionary of the op's traits");
        };
        self.iterator_types_from_strings(&mut entries, "linalg", true, at)?;
        let parts = self.structured_parts(true)?;
        entries.extend(parts.entries);
        if self.is_kw("attrs") {
            self.bump();
            self.eat(Tok::Equal);
            if let Some(d) = self.optional_attr_dict()? {
                if let AttrData::Dictionary(more) = self.m.ctx.attr(d) {
                    entries.extend(more.iter().cloned());
                }
            }
        }
        let region = self.parse_region()?;
        let result_types = self.optional_arrow_type_list()?;
        self.finish_structured(
            syn,
            &parts.operands,
            &result_types,
            entries,
            parts.prop_dict,
            region,
            None,
            name_at,
            results_start,
        )
    }

    /// MLIR's `parseDstStyleOp`: the common parts without segment sizes,
    /// a result per ranked tensor output, the attribute `required = [i64,
    /// …]` where the op has one, then an optional dictionary. The parts,
    /// the result types and all the attributes read.
    #[allow(clippy::type_complexity)]
    fn dst_style_parts(
        &mut self,
        required: Option<&str>,
    ) -> Result<(StructuredParts, Vec<TypeId>, Vec<(Bytes, AttrId)>)> {
        let mut parts = self.structured_parts(false)?;
        let result_types: Vec<TypeId> = parts
            .out_types
            .iter()
            .copied()
            .filter(|&t| matches!(self.m.ctx.ty(t), TypeData::RankedTensor { .. }))
            .collect();
        let mut entries = std::mem::take(&mut parts.entries);
        if let Some(attr) = required {
            if !self.is_kw(attr) {
                return self.err(format!("expected '{attr}'"));
            }
            self.bump();
            self.expect(Tok::Equal, "'='")?;
            if !self.is(Tok::LSquare) {
                return self.err("expected '['");
            }
            let value = self.bracketed_dense_array("i64")?;
            entries.retain(|(k, _)| &k[..] != attr.as_bytes());
            entries.push((attr.as_bytes().into(), value));
        }
        if let Some(d) = self.optional_attr_dict()? {
            if let AttrData::Dictionary(more) = self.m.ctx.attr(d) {
                for (k, v) in more.clone() {
                    entries.retain(|(n, _)| *n != k);
                    entries.push((k, v));
                }
            }
        }
        Ok((parts, result_types, entries))
    }

    /// `linalg.transpose` and `linalg.broadcast` (their `parse`: MLIR's
    /// `parseDstStyleOp` with the required `attr = [i64, …]`, then
    /// `buildIdentityRegion`): `ins(…) outs(…) attr = […] attr-dict?`, a
    /// result per ranked tensor output, and a body yielding its first
    /// argument, one argument per operand at that operand's location.
    pub(super) fn parse_linalg_identity_op(
        &mut self,
        syn: &'static OpSyntax,
        attr: &str,
        name_at: usize,
        results_start: usize,
    ) -> Result<OpId> {
        let (parts, result_types, entries) = self.dst_style_parts(Some(attr))?;
        let region = self.m.new_region();
        let block = self.m.new_block();
        self.m.push_block(region, block);
        let mut first = None;
        for &v in &parts.operands {
            let t = self.m.value(v).ty;
            let elem = match self.m.ctx.ty(t) {
                TypeData::MemRef { elem, .. } | TypeData::RankedTensor { elem, .. } => *elem,
                _ => t,
            };
            let unknown = self.unknown_loc;
            let arg = self.m.add_block_arg(block, elem, unknown);
            if !self.copy_value_loc(v, arg) {
                return self.unsupported(syn, name_at, "an operand not yet defined");
            }
            first.get_or_insert(arg);
        }
        let Some(first) = first else {
            return self.unsupported(syn, name_at, "no operands");
        };
        let term = syn.implicit_terminator().unwrap_or("linalg.yield");
        let id = self.m.op_names.intern(term.as_bytes());
        let empty = self.empty_dict;
        // At the op's location as its parser knows it: the name's.
        let loc = self.loc_at(name_at);
        let yield_op = self
            .m
            .new_op(id, &[first], &[], Vec::new(), None, empty, Vec::new(), loc);
        self.m.push_op(block, yield_op);
        self.finish_structured(
            syn,
            &parts.operands,
            &result_types,
            entries,
            parts.prop_dict,
            region,
            None,
            name_at,
            results_start,
        )
    }

    /// `linalg.map` and `linalg.reduce` (their `parse`): `{ payload-op
    /// attr-dict? }`, or else a region after the common parts, written
    /// with its arguments `(%in: f32, %out: f32) {…}`. The short form's
    /// body (MLIR's `addBodyWithPayloadOp`) has an argument per operand at
    /// an unknown location; the payload op takes the inputs (`map`) or the
    /// init then the inputs (`reduce`), gives the init's element type, and
    /// is yielded, both at the op's location. `reduce` requires
    /// `dimensions = […]`.
    pub(super) fn parse_linalg_payload_op(
        &mut self,
        syn: &'static OpSyntax,
        required: Option<&str>,
        name_at: usize,
        results_start: usize,
    ) -> Result<OpId> {
        let mut payload = None;
        if self.eat(Tok::LBrace) {
            if !self.is(Tok::BareIdent) {
                return self.err("expected operation name");
            }
            let at = self.tok.start;
            let name = self.spelling().to_vec();
            self.bump();
            let attrs = self.optional_attr_dict()?;
            self.expect(Tok::RBrace, "'}'")?;
            payload = Some((name, attrs, at));
        }
        let (parts, result_types, entries) = self.dst_style_parts(required)?;
        let region = self.m.new_region();
        match payload {
            Some((name, attrs, at)) => {
                if !parts.operands.is_empty() {
                    self.payload_body(
                        region,
                        &name,
                        attrs,
                        &parts.operands,
                        required.is_some(),
                        name_at,
                        at,
                    )?;
                }
            }
            None => {
                let mut args = Vec::new();
                self.comma_list(Tok::LParen, Tok::RParen, "'('", |p| {
                    args.push(p.function_arg(true)?);
                    Ok(())
                })?;
                let entry: Vec<EntryArg<'a>> = args.iter().filter_map(FnArg::entry).collect();
                self.parse_region_into(region, &entry)?;
            }
        }
        self.finish_structured(
            syn,
            &parts.operands,
            &result_types,
            entries,
            parts.prop_dict,
            region,
            None,
            name_at,
            results_start,
        )
    }

    /// MLIR's `addBodyWithPayloadOp` into `region`.
    #[allow(clippy::too_many_arguments)]
    fn payload_body(
        &mut self,
        region: RegionId,
        name: &[u8],
        attrs: Option<AttrId>,
        operands: &[ValueId],
        init_first: bool,
        name_at: usize,
        payload_at: usize,
    ) -> Result<()> {
        let block = self.m.new_block();
        self.m.push_block(region, block);
        let unknown = self.m.ctx.intern_attr(AttrData::UnknownLoc);
        let mut args = Vec::with_capacity(operands.len());
        let elem_of = |p: &mut Self, v: ValueId| {
            let t = p.m.value(v).ty;
            match p.m.ctx.ty(t) {
                TypeData::MemRef { elem, .. }
                | TypeData::RankedTensor { elem, .. }
                | TypeData::UnrankedTensor { elem }
                | TypeData::Vector { elem, .. } => Ok(*elem),
                _ => p.sem_err_at(payload_at, "expected shaped operands for the payload op"),
            }
        };
        for &v in operands {
            let elem = elem_of(self, v)?;
            args.push(self.m.add_block_arg(block, elem, unknown));
        }
        let (&init, inputs) = args.split_last().expect("operands");
        let payload_operands: Vec<ValueId> = if init_first {
            std::iter::once(init)
                .chain(inputs.iter().copied())
                .collect()
        } else {
            inputs.to_vec()
        };
        let result = elem_of(self, *operands.last().expect("operands"))?;
        let id = self.m.op_names.intern(name);
        let (props, attributes) = self.split_properties(name, Vec::new(), attrs, None);
        let props = self.with_default_properties(id, props, name_at)?;
        let loc = self.loc_at(name_at);
        let op = self.m.new_op(
            id,
            &payload_operands,
            &[result],
            Vec::new(),
            props,
            attributes,
            Vec::new(),
            loc,
        );
        self.m.push_op(block, op);
        let value = ValueId(self.m.op(op).first_result);
        let term = self.m.op_names.intern(b"linalg.yield");
        let empty = self.empty_dict;
        let y = self.m.new_op(
            term,
            &[value],
            &[],
            Vec::new(),
            None,
            empty,
            Vec::new(),
            loc,
        );
        self.m.push_op(block, y);
        Ok(())
    }

    /// A named structured op (MLIR's `parseNamedStructuredOp`, and
    /// `MatmulOp::parse` and its siblings for `indexing_maps = […]`): the
    /// common parts, `-> types`, and the body its region builder makes,
    /// from the op's data (`format/data/linalg-opdsl-22.json`). The maps
    /// mlir-opt's verifier memoizes are added as it adds them.
    pub(super) fn parse_named_structured(
        &mut self,
        syn: &'static OpSyntax,
        name_at: usize,
        results_start: usize,
    ) -> Result<OpId> {
        let Some(op) = opdsl::op(&syn.name) else {
            return self.unsupported(syn, name_at, "its body builder is not described");
        };
        let mut entries = Vec::new();
        if let Some(default_maps) = &op.default_maps {
            if self.is_kw("indexing_maps") {
                self.bump();
                self.expect(Tok::Equal, "'='")?;
                let at = self.tok.start;
                let maps = self.parse_attr(None)?;
                match self.m.ctx.attr(maps) {
                    AttrData::Array(list)
                        if list
                            .iter()
                            .all(|m| matches!(self.m.ctx.attr(*m), AttrData::AffineMap(_))) => {}
                    _ => return self.sem_err_at(at, "expected an array of affine maps"),
                }
                entries.push((b"indexing_maps"[..].into(), maps));
            } else {
                let maps = self.parse_attr_text(default_maps, name_at)?;
                entries.push((b"indexing_maps"[..].into(), maps));
            }
        }
        let parts = self.structured_parts(true)?;
        entries.extend(parts.entries);
        let result_types = self.optional_arrow_type_list()?;
        let given = parts.in_types.len() + parts.out_types.len();
        if given != op.args {
            return self.sem_err_at(
                self.tok.start,
                format!(
                    "[parseNamedStructuredOpRegion] ods-gen generated region expects {} args, got {given}",
                    op.args
                ),
            );
        }
        let region = self.structured_body(
            syn,
            op,
            &parts.in_types,
            &parts.out_types,
            &entries,
            name_at,
        )?;
        let memoized = match &op.maps {
            Some(maps) => Some(self.memoized_maps(
                syn,
                op,
                maps,
                &entries,
                parts.prop_dict,
                parts.attrs_at,
            )?),
            None => None,
        };
        self.finish_structured(
            syn,
            &parts.operands,
            &result_types,
            entries,
            parts.prop_dict,
            region,
            memoized,
            name_at,
            results_start,
        )
    }

    #[allow(clippy::too_many_arguments)]
    fn finish_structured(
        &mut self,
        syn: &'static OpSyntax,
        operands: &[ValueId],
        result_types: &[TypeId],
        entries: Vec<(Bytes, AttrId)>,
        prop_dict: Option<AttrId>,
        region: RegionId,
        memoized: Option<AttrId>,
        name_at: usize,
        results_start: usize,
    ) -> Result<OpId> {
        let dict = self.m.ctx.intern_attr(AttrData::Dictionary(entries));
        let name = self.m.op_names.intern(syn.name.as_bytes());
        let (properties, mut attributes) =
            self.split_properties(syn.name.as_bytes(), Vec::new(), Some(dict), prop_dict);
        if let Some(maps) = memoized {
            // What the verifier's `getIndexingMaps` sets (`setAttr`).
            let mut rest = match self.m.ctx.attr(attributes) {
                AttrData::Dictionary(d) => d.clone(),
                _ => Vec::new(),
            };
            let key: Bytes = b"linalg.memoized_indexing_maps"[..].into();
            rest.retain(|(k, _)| *k != key);
            rest.push((key, maps));
            rest.sort_by(|a, b| a.0.cmp(&b.0));
            attributes = self.m.ctx.intern_attr(AttrData::Dictionary(rest));
        }
        let properties = self.with_default_properties(name, properties, name_at)?;
        self.finish_custom_op(
            name,
            operands,
            result_types,
            Vec::new(),
            properties,
            attributes,
            vec![region],
            name_at,
            results_start,
        )
    }

    /// The indexing maps the verifier memoizes (the generated
    /// `getIndexingMaps`): OpDSL's maps with each symbol bound to an
    /// element of an index attribute replaced by its value (the default
    /// where the text gives none), and the symbol list dropped. An index
    /// attribute of another type is refused at the attribute dictionary
    /// (`attrs_at`), as MLIR's `verifyInherentAttrs` refuses it.
    fn memoized_maps(
        &mut self,
        syn: &'static OpSyntax,
        op: &OpDslOp,
        maps: &opdsl::Maps,
        entries: &[(Bytes, AttrId)],
        prop_dict: Option<AttrId>,
        attrs_at: usize,
    ) -> Result<AttrId> {
        let mut given: Vec<(Bytes, AttrId)> = entries.to_vec();
        if let Some(AttrData::Dictionary(d)) = prop_dict.map(|p| self.m.ctx.attr(p)) {
            given.extend(d.iter().cloned());
        }
        let mut values: Vec<(&str, Vec<i64>)> = Vec::new();
        for ia in &op.index_attrs {
            let v = match given.iter().find(|(k, _)| &k[..] == ia.name.as_bytes()) {
                None => ia.default.clone(),
                Some(&(_, a)) => match self.index_attr_values(a, &ia.shape) {
                    Some(v) => v,
                    None => {
                        let shape: Vec<String> = ia.shape.iter().map(|d| d.to_string()).collect();
                        return self.sem_err_at(
                            attrs_at,
                            format!(
                                "'{}' op attribute '{}' failed to satisfy constraint: 64-bit signless int elements attribute of shape [{}]",
                                syn.name,
                                ia.name,
                                shape.join(", ")
                            ),
                        );
                    }
                },
            };
            values.push((ia.name.as_str(), v));
        }
        let mut list = Vec::with_capacity(maps.exprs.len());
        for text in &maps.exprs {
            let Some(bound) = bind_map_symbols(text, &maps.symbols, &values) else {
                return self.unsupported(syn, attrs_at, "an indexing map keeps a symbol");
            };
            list.push(self.parse_attr_text(&bound, attrs_at)?);
        }
        Ok(self.m.ctx.intern_attr(AttrData::Array(list)))
    }

    /// The elements of an index attribute, a `dense<…> : tensor<…xi64>` of
    /// `shape` (signless; a vector type is a shape too), or `None` for
    /// anything else.
    fn index_attr_values(&self, a: AttrId, shape: &[i64]) -> Option<Vec<i64>> {
        let AttrData::DenseIntOrFp { ty, splat, data } = self.m.ctx.attr(a) else {
            return None;
        };
        let (dims, elem) = match self.m.ctx.ty(*ty) {
            TypeData::RankedTensor { shape, elem, .. } | TypeData::Vector { shape, elem, .. } => {
                (shape, elem)
            }
            _ => return None,
        };
        let signless = matches!(
            self.m.ctx.ty(*elem),
            TypeData::Integer {
                width: 64,
                signedness: Signedness::Signless
            }
        );
        if !signless || dims[..] != shape[..] {
            return None;
        }
        let count = shape.iter().product::<i64>().max(0) as usize;
        (0..count)
            .map(|i| {
                let i = if *splat { 0 } else { i };
                data.get(i * 8..i * 8 + 8)
                    .map(|b| i64::from_le_bytes(b.try_into().expect("eight bytes")))
            })
            .collect()
    }

    /// The body a named op's region builder makes: a block with an
    /// argument per operand (its element type), then the data's
    /// statements, each built as `RegionBuilderHelper` builds it, all at an
    /// unknown location (MLIR's `fillStructuredOpRegion`).
    fn structured_body(
        &mut self,
        syn: &'static OpSyntax,
        op: &OpDslOp,
        in_types: &[TypeId],
        out_types: &[TypeId],
        attrs: &[(Bytes, AttrId)],
        name_at: usize,
    ) -> Result<RegionId> {
        let unknown = self.m.ctx.intern_attr(AttrData::UnknownLoc);
        let region = self.m.new_region();
        let block = self.m.new_block();
        self.m.push_block(region, block);
        let mut args = Vec::new();
        for &t in in_types.iter().chain(out_types) {
            let elem = match self.m.ctx.ty(t) {
                TypeData::MemRef { elem, .. } | TypeData::RankedTensor { elem, .. } => *elem,
                _ => t,
            };
            args.push(self.m.add_block_arg(block, elem, unknown));
        }
        let mut values: Vec<ValueId> = Vec::with_capacity(op.body.len());
        let pick = |values: &[ValueId], r: ValueRef| match r {
            ValueRef::Arg(i) => args.get(i).copied(),
            ValueRef::Value(i) => values.get(i).copied(),
        };
        for stmt in &op.body {
            let v = match stmt {
                Stmt::TypeFn { type_fn, to, x } => {
                    let f = self.opdsl_fn(op, type_fn, attrs, name_at)?;
                    let to = match to {
                        TypeRef::Arg { arg } => args.get(*arg).map(|&a| self.m.value(a).ty),
                        TypeRef::Text(t) => Some(self.parse_type_text(t, name_at)?),
                    };
                    let (Some(to), Some(x)) = (to, pick(&values, *x)) else {
                        return self.unsupported(syn, name_at, "a body value out of range");
                    };
                    self.body_cast(block, to, x, f == "cast_unsigned", name_at)?
                }
                Stmt::Binary { binary, x, y } => {
                    let f = self.opdsl_fn(op, binary, attrs, name_at)?;
                    let (Some(x), Some(y)) = (pick(&values, *x), pick(&values, *y)) else {
                        return self.unsupported(syn, name_at, "a body value out of range");
                    };
                    self.body_binary(syn, block, &f, x, y, name_at)?
                }
                Stmt::Unary { unary, x } => {
                    let f = self.opdsl_fn(op, unary, attrs, name_at)?;
                    let Some(x) = pick(&values, *x) else {
                        return self.unsupported(syn, name_at, "a body value out of range");
                    };
                    self.body_unary(syn, block, &f, x, name_at)?
                }
                Stmt::Ternary { ternary, x, y, z } => {
                    let f = self.opdsl_fn(op, ternary, attrs, name_at)?;
                    let (Some(x), Some(y), Some(z)) =
                        (pick(&values, *x), pick(&values, *y), pick(&values, *z))
                    else {
                        return self.unsupported(syn, name_at, "a body value out of range");
                    };
                    if f != "select" {
                        return self.unsupported(
                            syn,
                            name_at,
                            &format!("the ternary function {f}"),
                        );
                    }
                    let t = self.m.value(y).ty;
                    self.body_op(block, "arith.select", &[x, y, z], None, Some(t), name_at)?
                        .expect("one result")
                }
                Stmt::Constant { constant } => {
                    let a = self.parse_attr_text(constant, name_at)?;
                    self.body_constant(block, a, name_at)?
                }
                Stmt::Index { index } => {
                    let i64_ty = self.parse_type_text("i64", name_at)?;
                    let dim = self.m.ctx.intern_attr(AttrData::Integer {
                        ty: i64_ty,
                        value: (*index).into(),
                    });
                    let props = self
                        .m
                        .ctx
                        .intern_attr(AttrData::Dictionary(vec![(b"dim"[..].into(), dim)]));
                    let index_ty = self.m.ctx.intern_type(TypeData::Index);
                    self.body_op(
                        block,
                        "linalg.index",
                        &[],
                        Some(props),
                        Some(index_ty),
                        name_at,
                    )?
                    .expect("one result")
                }
            };
            values.push(v);
        }
        let mut yields = Vec::with_capacity(op.yields.len());
        for &r in &op.yields {
            let Some(v) = pick(&values, r) else {
                return self.unsupported(syn, name_at, "a body value out of range");
            };
            yields.push(v);
        }
        let term = syn.implicit_terminator().unwrap_or("linalg.yield");
        self.body_op(block, term, &yields, None, None, name_at)?;
        Ok(region)
    }

    /// The name of the OpDSL function `f`: its own, or the one the op's
    /// attribute holds (`cast = #linalg.type_fn<cast_unsigned>`), else that
    /// attribute's default.
    fn opdsl_fn(
        &mut self,
        op: &OpDslOp,
        f: &FnRef,
        attrs: &[(Bytes, AttrId)],
        at: usize,
    ) -> Result<String> {
        let attr = match f {
            FnRef::Named(n) => return Ok(n.clone()),
            FnRef::Attr { attr } => attr,
        };
        let default = op
            .fn_attrs
            .iter()
            .find(|a| a.name == *attr)
            .map(|a| a.default.clone())
            .unwrap_or_else(|| "cast_signed".to_string());
        let Some(&(_, given)) = attrs.iter().find(|(k, _)| &k[..] == attr.as_bytes()) else {
            return Ok(default);
        };
        for case in ["cast_signed", "cast_unsigned"] {
            if self.parse_attr_text(&format!("#linalg.type_fn<{case}>"), at)? == given {
                return Ok(case.to_string());
            }
        }
        // Not a `TypeFnAttr`: the builder's `dyn_cast` fails, the default stays.
        Ok(default)
    }

    /// The type class the region builders dispatch on.
    fn class(&self, t: TypeId) -> Option<Class> {
        match self.m.ctx.ty(t) {
            TypeData::Float(_) => Some(Class::Float),
            TypeData::Integer { width: 1, .. } => Some(Class::Bool),
            TypeData::Integer { .. } => Some(Class::Integer),
            TypeData::Complex(_) => Some(Class::Complex),
            _ => None,
        }
    }

    /// MLIR's `convertScalarToDtype`: `x` cast to `to`, or `x` itself
    /// where the types are equal or no cast applies (mlir-opt warns then
    /// and the verifier decides).
    fn body_cast(
        &mut self,
        block: BlockId,
        to: TypeId,
        x: ValueId,
        unsigned: bool,
        at: usize,
    ) -> Result<ValueId> {
        let from = self.m.value(x).ty;
        if from == to {
            return Ok(x);
        }
        let pick = |u: &'static str, s: &'static str| if unsigned { u } else { s };
        let op = match (self.m.ctx.ty(to).clone(), self.m.ctx.ty(from).clone()) {
            (TypeData::Integer { .. }, TypeData::Float(_)) => pick("arith.fptoui", "arith.fptosi"),
            (TypeData::Integer { .. }, TypeData::Index) => "arith.index_cast",
            (TypeData::Integer { width: tw, .. }, TypeData::Integer { width: fw, .. }) => {
                if tw > fw {
                    pick("arith.extui", "arith.extsi")
                } else if tw < fw {
                    "arith.trunci"
                } else {
                    return Ok(x);
                }
            }
            (TypeData::Float(_), TypeData::Integer { .. }) => pick("arith.uitofp", "arith.sitofp"),
            (TypeData::Float(tk), TypeData::Float(fk)) => {
                if tk.bit_width() > fk.bit_width() {
                    "arith.extf"
                } else if tk.bit_width() < fk.bit_width() {
                    "arith.truncf"
                } else {
                    return Ok(x);
                }
            }
            (TypeData::Complex(te), _) => {
                return self.body_cast_complex(block, to, te, x, unsigned, at)
            }
            _ => return Ok(x),
        };
        Ok(self
            .body_op(block, op, &[x], None, Some(to), at)?
            .expect("one result"))
    }

    /// `convertScalarToComplexDtype`: a complex of `to` (element `te`) from
    /// a complex, float or integer `x`.
    fn body_cast_complex(
        &mut self,
        block: BlockId,
        to: TypeId,
        te: TypeId,
        x: ValueId,
        unsigned: bool,
        at: usize,
    ) -> Result<ValueId> {
        let from = self.m.value(x).ty;
        let width = |p: &Self, t: TypeId| match p.m.ctx.ty(t) {
            TypeData::Float(k) => Some(k.bit_width()),
            _ => None,
        };
        let Some(tw) = width(self, te) else {
            return Ok(x);
        };
        let (re, im) = match self.m.ctx.ty(from).clone() {
            TypeData::Complex(fe) => {
                let Some(fw) = width(self, fe) else {
                    return Ok(x);
                };
                let re = self.body_op(block, "complex.re", &[x], None, Some(fe), at)?;
                let im = self.body_op(block, "complex.im", &[x], None, Some(fe), at)?;
                let op = if tw < fw {
                    "arith.truncf"
                } else {
                    "arith.extf"
                };
                let re = self.body_op(block, op, &[re.expect("one result")], None, Some(te), at)?;
                let im = self.body_op(block, op, &[im.expect("one result")], None, Some(te), at)?;
                (re.expect("one result"), im.expect("one result"))
            }
            TypeData::Float(fk) => {
                let mut re = x;
                if fk.bit_width() < tw {
                    re = self
                        .body_op(block, "arith.extf", &[re], None, Some(te), at)?
                        .expect("one result");
                }
                if self.class(self.m.value(re).ty).is_some()
                    && width(self, self.m.value(re).ty) > Some(tw)
                {
                    re = self
                        .body_op(block, "arith.truncf", &[re], None, Some(te), at)?
                        .expect("one result");
                }
                (re, self.body_float_zero(block, te, at)?)
            }
            TypeData::Integer { .. } => {
                let op = if unsigned {
                    "arith.uitofp"
                } else {
                    "arith.sitofp"
                };
                let re = self
                    .body_op(block, op, &[x], None, Some(te), at)?
                    .expect("one result");
                (re, self.body_float_zero(block, te, at)?)
            }
            _ => return Ok(x),
        };
        Ok(self
            .body_op(block, "complex.create", &[re, im], None, Some(to), at)?
            .expect("one result"))
    }

    /// `arith.constant 0.0 : t` (MLIR's `ConstantFloatOp` of a zero).
    fn body_float_zero(&mut self, block: BlockId, t: TypeId, at: usize) -> Result<ValueId> {
        let TypeData::Float(k) = *self.m.ctx.ty(t) else {
            return self.sem_err_at(at, "a complex of a non-float element");
        };
        let zero = self.parse_attr_text(&format!("0.0 : {}", k.keyword()), at)?;
        self.body_constant(block, zero, at)
    }

    /// `arith.constant` of the typed attribute `value`.
    fn body_constant(&mut self, block: BlockId, value: AttrId, at: usize) -> Result<ValueId> {
        let ty = match self.m.ctx.attr(value) {
            AttrData::Integer { ty, .. } | AttrData::Float { ty, .. } => *ty,
            _ => return self.sem_err_at(at, "a body constant that is not a number"),
        };
        let props = self
            .m
            .ctx
            .intern_attr(AttrData::Dictionary(vec![(b"value"[..].into(), value)]));
        Ok(self
            .body_op(block, "arith.constant", &[], Some(props), Some(ty), at)?
            .expect("one result"))
    }

    /// MLIR's `RegionBuilderHelper::buildBinaryFn`.
    fn body_binary(
        &mut self,
        syn: &'static OpSyntax,
        block: BlockId,
        f: &str,
        lhs: ValueId,
        rhs: ValueId,
        name_at: usize,
    ) -> Result<ValueId> {
        let (a, b) = (
            self.class(self.m.value(lhs).ty),
            self.class(self.m.value(rhs).ty),
        );
        use Class::*;
        let class = match (a, b) {
            (Some(Complex), Some(Complex)) => Complex,
            (Some(Float), Some(Float)) => Float,
            (Some(Bool), Some(Bool)) => Bool,
            (Some(Integer | Bool), Some(Integer | Bool)) => Integer,
            _ => {
                return self.unsupported(
                    syn,
                    name_at,
                    "a binary function of operands of different type classes",
                )
            }
        };
        let op = match (f, class) {
            ("add", Complex) => "complex.add",
            ("add", Float) => "arith.addf",
            ("add", Bool) => "arith.ori",
            ("add", Integer) => "arith.addi",
            ("sub", Complex) => "complex.sub",
            ("sub", Float) => "arith.subf",
            ("sub", Integer) => "arith.subi",
            ("mul", Complex) => "complex.mul",
            ("mul", Float) => "arith.mulf",
            ("mul", Bool) => "arith.andi",
            ("mul", Integer) => "arith.muli",
            ("div", Complex) => "complex.div",
            ("div", Float) => "arith.divf",
            ("div", Integer) => "arith.divsi",
            ("div_unsigned", Integer) => "arith.divui",
            ("max_signed" | "max_unsigned", Float) => "arith.maximumf",
            ("min_signed" | "min_unsigned", Float) => "arith.minimumf",
            ("max_signed", Integer | Bool) => "arith.maxsi",
            ("min_signed", Integer | Bool) => "arith.minsi",
            ("max_unsigned", Integer | Bool) => "arith.maxui",
            ("min_unsigned", Integer | Bool) => "arith.minui",
            ("powf", Float) => "math.powf",
            _ => {
                return self.unsupported(
                    syn,
                    name_at,
                    &format!("{f} of this element type has no op in the body builder"),
                )
            }
        };
        let t = self.m.value(lhs).ty;
        Ok(self
            .body_op(block, op, &[lhs, rhs], None, Some(t), name_at)?
            .expect("one result"))
    }

    /// MLIR's `RegionBuilderHelper::buildUnaryFn`: floating point only.
    fn body_unary(
        &mut self,
        syn: &'static OpSyntax,
        block: BlockId,
        f: &str,
        x: ValueId,
        name_at: usize,
    ) -> Result<ValueId> {
        let t = self.m.value(x).ty;
        let TypeData::Float(k) = *self.m.ctx.ty(t) else {
            return self.unsupported(syn, name_at, "a unary function of a non-float");
        };
        let op = match f {
            "exp" => "math.exp",
            "log" => "math.log",
            "abs" => "math.absf",
            "ceil" => "math.ceil",
            "floor" => "math.floor",
            "negf" => "arith.negf",
            "round" => "math.round",
            "sqrt" => "math.sqrt",
            "rsqrt" => "math.rsqrt",
            "tanh" => "math.tanh",
            "erf" => "math.erf",
            "square" => {
                return Ok(self
                    .body_op(block, "arith.mulf", &[x, x], None, Some(t), name_at)?
                    .expect("one result"))
            }
            "reciprocal" => {
                let one = self.parse_attr_text(&format!("1.0 : {}", k.keyword()), name_at)?;
                let one = self.body_constant(block, one, name_at)?;
                return Ok(self
                    .body_op(block, "arith.divf", &[one, x], None, Some(t), name_at)?
                    .expect("one result"));
            }
            _ => return self.unsupported(syn, name_at, &format!("the unary function {f}")),
        };
        Ok(self
            .body_op(block, op, &[x], None, Some(t), name_at)?
            .expect("one result"))
    }

    /// Appends `name(operands)` to `block` at an unknown location, with
    /// `props` and the op's default properties; its result, if it has one.
    fn body_op(
        &mut self,
        block: BlockId,
        name: &str,
        operands: &[ValueId],
        props: Option<AttrId>,
        result: Option<TypeId>,
        name_at: usize,
    ) -> Result<Option<ValueId>> {
        let id = self.m.op_names.intern(name.as_bytes());
        let props = self.with_default_properties(id, props, name_at)?;
        let unknown = self.m.ctx.intern_attr(AttrData::UnknownLoc);
        let empty = self.empty_dict;
        let results: Vec<TypeId> = result.into_iter().collect();
        let op = self.m.new_op(
            id,
            operands,
            &results,
            Vec::new(),
            props,
            empty,
            Vec::new(),
            unknown,
        );
        self.m.push_op(block, op);
        Ok(result.map(|_| ValueId(self.m.op(op).first_result)))
    }
}

/// `text`, an OpDSL map `affine_map<(d…)[s…] -> (…)>`, with its symbol
/// list dropped and each symbol bound to an index attribute's element
/// replaced by that value (`replaceDimsAndSymbols` to no symbols); `None`
/// when a symbol left unbound is used.
fn bind_map_symbols(
    text: &str,
    symbols: &[Option<(String, usize)>],
    values: &[(&str, Vec<i64>)],
) -> Option<String> {
    let open = text.find(")[")? + 1;
    let close = open + text[open..].find(']')?;
    let mut out = String::with_capacity(text.len());
    out.push_str(&text[..open]);
    let rest = &text[close + 1..];
    let b = rest.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let starts_word = i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_');
        if starts_word && b[i] == b's' && b.get(i + 1).is_some_and(|c| c.is_ascii_digit()) {
            let mut j = i + 1;
            while j < b.len() && b[j].is_ascii_digit() {
                j += 1;
            }
            let k: usize = rest[i + 1..j].parse().ok()?;
            let (attr, index) = symbols.get(k)?.as_ref()?;
            let v = *values.iter().find(|(n, _)| n == attr)?.1.get(*index)?;
            if v < 0 {
                out.push_str(&format!("({v})"));
            } else {
                out.push_str(&v.to_string());
            }
            i = j;
        } else {
            out.push(b[i] as char);
            i += 1;
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::bind_map_symbols;

    #[test]
    fn symbols_bound_to_strides_and_dilations_become_their_values() {
        let symbols = vec![
            None,
            Some(("strides".to_string(), 0)),
            Some(("dilations".to_string(), 0)),
        ];
        let values = [("strides", vec![2]), ("dilations", vec![3])];
        assert_eq!(
            bind_map_symbols(
                "affine_map<(d0, d1)[s0, s1, s2] -> (d0 * s1 + d1 * s2)>",
                &symbols,
                &values
            )
            .as_deref(),
            Some("affine_map<(d0, d1) -> (d0 * 2 + d1 * 3)>")
        );
        // A symbol that stays one cannot be written without a symbol list.
        assert_eq!(
            bind_map_symbols("affine_map<(d0)[s0, s1] -> (d0 + s0)>", &symbols, &values),
            None
        );
    }
}
