//! Ops whose custom syntax is a hand-written C++ parser, ported one by one
//! (SPEC.md §11.2): the parsers `HAND_WRITTEN` names.

use super::*;

/// Inherent attributes an op's syntax gives, by name.
pub(super) type Properties = Vec<(Bytes, AttrId)>;

/// An argument of a function's signature.
pub(super) struct FnArg<'a> {
    pub(super) name: Option<Use<'a>>,
    pub(super) ty: TypeId,
    pub(super) attrs: AttrId,
    pub(super) loc: Option<AttrId>,
}

/// A function's signature: its arguments, its results with their
/// attributes, and whether it ends with `...`.
pub(super) struct Signature<'a> {
    pub(super) args: Vec<FnArg<'a>>,
    pub(super) results: Vec<(TypeId, AttrId)>,
    pub(super) variadic: bool,
}

impl<'a> FnArg<'a> {
    /// The entry block's argument, for a named one.
    pub(super) fn entry(&self) -> Option<EntryArg<'a>> {
        let (name, _, at) = self.name?;
        Some(EntryArg {
            name,
            at,
            ty: self.ty,
            loc: self.loc,
        })
    }
}

impl<'a> Parser<'a> {
    /// MLIR's `function_interface_impl::parseFunctionOp`, the syntax of
    /// `func.func` and other function-like ops: `visibility? @name(args)
    /// -> results attributes {…}? body?`.
    pub(super) fn parse_function_op(
        &mut self,
        syn: &'static OpSyntax,
        name_at: usize,
        results_start: usize,
    ) -> Result<OpId> {
        let mut props: Vec<(Bytes, AttrId)> = Vec::new();
        if self.is(Tok::String) || self.is(Tok::BareIdent) {
            let v = if self.is(Tok::String) {
                self.parse_string("a visibility")?
            } else {
                let w = self.spelling().to_vec();
                self.bump();
                w
            };
            let a = self.m.ctx.intern_attr(AttrData::String {
                value: v.into_boxed_slice(),
                ty: None,
            });
            props.push((b"sym_visibility"[..].into(), a));
        }
        let sym = self.parse_symbol_name()?;
        let a = self.m.ctx.intern_attr(AttrData::String {
            value: sym.into_boxed_slice(),
            ty: None,
        });
        props.push((b"sym_name"[..].into(), a));

        let (args, sig) = self.function_signature()?;
        props.extend(sig);
        let attrs = self.optional_attr_dict_with_keyword()?;
        let region = self.optional_function_body(&args)?;
        self.finish_hand_written(
            syn,
            &[],
            &[],
            props,
            attrs,
            vec![region],
            name_at,
            results_start,
        )
    }

    /// `scf.for %iv = %lb to %ub step %step (unsigned)? (iter_args(%a =
    /// %init, …) -> (types))? (: type)? region attr-dict?` (MLIR's
    /// `ForOp::parse`).
    pub(super) fn parse_scf_for(
        &mut self,
        syn: &'static OpSyntax,
        name_at: usize,
        results_start: usize,
    ) -> Result<OpId> {
        let iv = self.parse_value_use()?;
        self.expect(Tok::Equal, "'='")?;
        let lb = self.parse_value_use()?;
        self.expect_kw("to")?;
        let ub = self.parse_value_use()?;
        self.expect_kw("step")?;
        let step = self.parse_value_use()?;
        let mut props: Vec<(Bytes, AttrId)> = Vec::new();
        if self.is_kw("unsigned") {
            self.bump();
            props.push((b"unsignedCmp"[..].into(), self.unit_attr));
        }
        let mut iter_args = Vec::new();
        let mut inits = Vec::new();
        let mut result_types = Vec::new();
        if self.is_kw("iter_args") {
            self.bump();
            self.comma_list(
                Tok::LParen,
                Tok::RParen,
                "'(' to begin the iteration arguments",
                |p| {
                    iter_args.push(p.parse_value_use()?);
                    p.expect(Tok::Equal, "'='")?;
                    inits.push(p.parse_value_use()?);
                    Ok(())
                },
            )?;
            self.expect(Tok::Arrow, "'->' and the result types")?;
            result_types = self.arrow_type_list_rest()?;
        }
        if iter_args.len() != result_types.len() {
            return self.err("mismatch in number of loop-carried values and defined values");
        }
        let ty = if self.eat(Tok::Colon) {
            self.parse_type()?
        } else {
            self.m.ctx.intern_type(TypeData::Index)
        };
        let arg = |u: Use<'a>, ty| EntryArg {
            name: u.0,
            at: u.2,
            ty,
            loc: None,
        };
        let mut entry = vec![arg(iv, ty)];
        entry.extend(
            iter_args
                .iter()
                .zip(&result_types)
                .map(|(a, t)| arg(*a, *t)),
        );
        let region = self.m.new_region();
        self.parse_region_into(region, &entry)?;
        self.ensure_terminator(region, "scf.yield", name_at)?;
        // MLIR resolves the operands after the body.
        let mut operands = Vec::new();
        for u in [lb, ub, step] {
            operands.push(self.resolve_use(u, ty)?);
        }
        for (u, t) in inits.iter().zip(&result_types) {
            operands.push(self.resolve_use(*u, *t)?);
        }
        let attrs = self.optional_attr_dict()?;
        self.finish_hand_written(
            syn,
            &operands,
            &result_types,
            props,
            attrs,
            vec![region],
            name_at,
            results_start,
        )
    }

    /// `scf.if %cond (-> types)? region (else region)? attr-dict?` (MLIR's
    /// `IfOp::parse`).
    pub(super) fn parse_scf_if(
        &mut self,
        syn: &'static OpSyntax,
        name_at: usize,
        results_start: usize,
    ) -> Result<OpId> {
        let cond = self.parse_value_use()?;
        let i1 = self.m.ctx.intern_type(TypeData::signless(1));
        let cond = self.resolve_use(cond, i1)?;
        let result_types = self.optional_arrow_type_list()?;
        let then = self.parse_region()?;
        self.ensure_terminator(then, "scf.yield", name_at)?;
        let otherwise = if self.is_kw("else") {
            self.bump();
            let r = self.parse_region()?;
            self.ensure_terminator(r, "scf.yield", name_at)?;
            r
        } else {
            self.m.new_region()
        };
        let attrs = self.optional_attr_dict()?;
        self.finish_hand_written(
            syn,
            &[cond],
            &result_types,
            Vec::new(),
            attrs,
            vec![then, otherwise],
            name_at,
            results_start,
        )
    }

    /// `(-> types)?` (MLIR's `parseOptionalArrowTypeList`): the types, or
    /// none without the arrow.
    pub(super) fn optional_arrow_type_list(&mut self) -> Result<Vec<TypeId>> {
        if self.eat(Tok::Arrow) {
            self.arrow_type_list_rest()
        } else {
            Ok(Vec::new())
        }
    }

    /// After `->`: one type, or a parenthesized list of them.
    pub(super) fn arrow_type_list_rest(&mut self) -> Result<Vec<TypeId>> {
        let mut v = Vec::new();
        if self.is(Tok::LParen) {
            self.comma_list(Tok::LParen, Tok::RParen, "'('", |p| {
                v.push(p.parse_type()?);
                Ok(())
            })?;
        } else {
            v.push(self.parse_type()?);
        }
        Ok(v)
    }

    /// A hand-written op from its parts: `props` (inherent attributes the
    /// syntax gave) and the attribute dictionary split as the format's.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn finish_hand_written(
        &mut self,
        syn: &'static OpSyntax,
        operands: &[ValueId],
        result_types: &[TypeId],
        props: Vec<(Bytes, AttrId)>,
        attrs: Option<AttrId>,
        regions: Vec<RegionId>,
        name_at: usize,
        results_start: usize,
    ) -> Result<OpId> {
        self.finish_hand_written_with_successors(
            syn,
            operands,
            result_types,
            Vec::new(),
            props,
            attrs,
            regions,
            name_at,
            results_start,
        )
    }

    /// [`Self::finish_hand_written`] for an op with successors.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn finish_hand_written_with_successors(
        &mut self,
        syn: &'static OpSyntax,
        operands: &[ValueId],
        result_types: &[TypeId],
        successors: Vec<BlockId>,
        props: Vec<(Bytes, AttrId)>,
        attrs: Option<AttrId>,
        regions: Vec<RegionId>,
        name_at: usize,
        results_start: usize,
    ) -> Result<OpId> {
        let name = self.m.op_names.intern(syn.name.as_bytes());
        let (properties, attributes) =
            self.split_properties(syn.name.as_bytes(), props, attrs, None);
        let properties = self.with_default_properties(name, properties, name_at)?;
        self.finish_custom_op(
            name,
            operands,
            result_types,
            successors,
            properties,
            attributes,
            regions,
            name_at,
            results_start,
        )
    }

    /// `vector.transfer_read %base[%i, …], %padding (, %mask)? attr-dict? :
    /// shaped type, vector type` (MLIR's `TransferReadOp::parse`).
    pub(super) fn parse_transfer_read(
        &mut self,
        syn: &'static OpSyntax,
        name_at: usize,
        results_start: usize,
    ) -> Result<OpId> {
        let base = self.parse_value_use()?;
        let indices = self.bracketed_value_uses()?;
        self.expect(Tok::Comma, "','")?;
        let padding = self.parse_value_use()?;
        let mask = if self.eat(Tok::Comma) {
            Some(self.parse_value_use()?)
        } else {
            None
        };
        let attrs = self.optional_attr_dict()?;
        let types_at = self.tok.start;
        self.expect(Tok::Colon, "':' and the types")?;
        let shaped = self.parse_type()?;
        self.expect(Tok::Comma, "',' and the vector type")?;
        let vector = self.parse_type()?;
        let (mut props, mask_type) =
            self.transfer_defaults(syn, attrs, shaped, vector, mask.is_some(), types_at)?;
        let index = self.m.ctx.intern_type(TypeData::Index);
        let mut operands = vec![self.resolve_use(base, shaped)?];
        for u in &indices {
            operands.push(self.resolve_use(*u, index)?);
        }
        // `getElementTypeOrSelf` of the element type.
        let elem = self.m.ctx.ty(shaped).element_type().unwrap_or(shaped);
        let elem = self.m.ctx.ty(elem).element_type().unwrap_or(elem);
        operands.push(self.resolve_use(padding, elem)?);
        if let (Some(u), Some(t)) = (mask, mask_type) {
            operands.push(self.resolve_use(u, t)?);
        }
        let sizes = [1, indices.len(), 1, usize::from(mask.is_some())];
        let a = self.segment_sizes(&sizes, name_at)?;
        props.push((b"operandSegmentSizes"[..].into(), a));
        self.finish_hand_written(
            syn,
            &operands,
            &[vector],
            props,
            attrs,
            Vec::new(),
            name_at,
            results_start,
        )
    }

    /// `vector.transfer_write %vector, %base[%i, …] (, %mask)? attr-dict? :
    /// vector type, shaped type` (MLIR's `TransferWriteOp::parse`); a
    /// tensor's write has the tensor as its result.
    pub(super) fn parse_transfer_write(
        &mut self,
        syn: &'static OpSyntax,
        name_at: usize,
        results_start: usize,
    ) -> Result<OpId> {
        let value = self.parse_value_use()?;
        self.expect(Tok::Comma, "','")?;
        let base = self.parse_value_use()?;
        let indices = self.bracketed_value_uses()?;
        let mask = if self.eat(Tok::Comma) {
            Some(self.parse_value_use()?)
        } else {
            None
        };
        let attrs = self.optional_attr_dict()?;
        let types_at = self.tok.start;
        self.expect(Tok::Colon, "':' and the types")?;
        let vector = self.parse_type()?;
        self.expect(Tok::Comma, "',' and the shaped type")?;
        let shaped = self.parse_type()?;
        let (mut props, mask_type) =
            self.transfer_defaults(syn, attrs, shaped, vector, mask.is_some(), types_at)?;
        let index = self.m.ctx.intern_type(TypeData::Index);
        let mut operands = vec![
            self.resolve_use(value, vector)?,
            self.resolve_use(base, shaped)?,
        ];
        for u in &indices {
            operands.push(self.resolve_use(*u, index)?);
        }
        if let (Some(u), Some(t)) = (mask, mask_type) {
            operands.push(self.resolve_use(u, t)?);
        }
        let sizes = [1, 1, indices.len(), usize::from(mask.is_some())];
        let a = self.segment_sizes(&sizes, name_at)?;
        props.push((b"operandSegmentSizes"[..].into(), a));
        let results: &[TypeId] = match self.m.ctx.ty(shaped) {
            TypeData::RankedTensor { .. } => &[shaped],
            _ => &[],
        };
        self.finish_hand_written(
            syn,
            &operands,
            results,
            props,
            attrs,
            Vec::new(),
            name_at,
            results_start,
        )
    }

    /// `[%a, %b, …]`.
    pub(super) fn bracketed_value_uses(&mut self) -> Result<Vec<Use<'a>>> {
        let mut v = Vec::new();
        self.comma_list(Tok::LSquare, Tok::RSquare, "'['", |p| {
            v.push(p.parse_value_use()?);
            Ok(())
        })?;
        Ok(v)
    }

    /// A transfer op's `permutation_map` (the minor identity) and
    /// `in_bounds` (all false) where its attributes do not give them, and
    /// the type of its mask (`inferTransferOpMaskType`, ported for the
    /// minor identity map only).
    fn transfer_defaults(
        &mut self,
        syn: &OpSyntax,
        attrs: Option<AttrId>,
        shaped: TypeId,
        vector: TypeId,
        has_mask: bool,
        at: usize,
    ) -> Result<(Properties, Option<TypeId>)> {
        let given = |p: &Self, name: &[u8]| match attrs.map(|a| p.m.ctx.attr(a)) {
            Some(AttrData::Dictionary(d)) => d.iter().find(|(k, _)| &k[..] == name).map(|e| e.1),
            _ => None,
        };
        let rank = match self.m.ctx.ty(shaped) {
            TypeData::MemRef { shape, .. } | TypeData::RankedTensor { shape, .. } => shape.len(),
            _ => return self.sem_err_at(at, "requires memref or ranked tensor type"),
        };
        let TypeData::Vector {
            shape: vshape,
            scalable,
            ..
        } = self.m.ctx.ty(vector).clone()
        else {
            return self.sem_err_at(at, "requires vector type");
        };
        let elem = self.m.ctx.ty(shaped).element_type().unwrap_or(shaped);
        let elem_rank = self.m.ctx.ty(elem).shape().map_or(0, <[i64]>::len);
        // The minor identity map, where the ranks allow one.
        let kept = vshape.len().saturating_sub(elem_rank);
        let minor = if rank == 0 && vshape == [1] {
            Some(self.parse_attr_text("affine_map<() -> (0)>", at)?)
        } else if rank >= kept {
            let dims: Vec<String> = (0..rank).map(|i| format!("d{i}")).collect();
            let text = format!(
                "affine_map<({}) -> ({})>",
                dims.join(", "),
                dims[rank - kept..].join(", ")
            );
            Some(self.parse_attr_text(&text, at)?)
        } else {
            None
        };
        let mut props = Vec::new();
        let perm = match (given(self, b"permutation_map"), minor) {
            (Some(p), _) => p,
            (None, Some(m)) => {
                props.push((b"permutation_map"[..].into(), m));
                m
            }
            (None, None) => {
                return self.sem_err_at(
                    at,
                    "expected a custom permutation_map when rank(source) != rank(destination)",
                )
            }
        };
        if given(self, b"in_bounds").is_none() {
            let n = match self.m.ctx.attr(perm) {
                AttrData::AffineMap(m) => m.results.len(),
                _ => return self.sem_err_at(at, "expected an affine map as permutation_map"),
            };
            let list = vec!["false"; n].join(", ");
            let a = self.parse_attr_text(&format!("[{list}]"), at)?;
            props.push((b"in_bounds"[..].into(), a));
        }
        let mask_type = if !has_mask {
            None
        } else if Some(perm) == minor && elem_rank == 0 {
            let i1 = self.m.ctx.intern_type(TypeData::signless(1));
            let shape = if vshape.is_empty() { vec![1] } else { vshape };
            Some(self.m.ctx.intern_type(TypeData::Vector {
                shape,
                scalable,
                elem: i1,
            }))
        } else if elem_rank == 0 {
            let AttrData::AffineMap(map) = self.m.ctx.attr(perm) else {
                return self.sem_err_at(at, "expected an affine map as permutation_map");
            };
            let Some((shape, scalable)) = transfer_mask_shape(map, &vshape, &scalable) else {
                return self.unsupported(syn, at, "the mask type of this permutation map");
            };
            let i1 = self.m.ctx.intern_type(TypeData::signless(1));
            Some(self.m.ctx.intern_type(TypeData::Vector {
                shape,
                scalable,
                elem: i1,
            }))
        } else {
            return self.unsupported(syn, at, "the mask type of a transfer of vectors");
        };
        Ok((props, mask_type))
    }

    /// tosa's ops with an enum attribute written as a bare keyword (MLIR's
    /// `parseWithEnumHandling`: `argmax`, `clamp`, `rescale`, `resize`, …):
    /// operands, `{name = value, …}` where the op's enum attribute (the
    /// one its data gives cases for: `nan_mode`, `rounding_mode`, `mode`)
    /// may be a bare case keyword, then `: (inputs) -> result`.
    pub(super) fn parse_tosa_with_enum(
        &mut self,
        syn: &'static OpSyntax,
        name_at: usize,
        results_start: usize,
    ) -> Result<OpId> {
        let Some(spec) = syn
            .attrs
            .iter()
            .find(|a| a.kind == AttrKind::Def && !a.cases.is_empty())
        else {
            return self.unsupported(syn, name_at, "its enum attribute");
        };
        let mut uses = vec![self.parse_value_use()?];
        while self.eat(Tok::Comma) {
            uses.push(self.parse_value_use()?);
        }
        let mut entries: Vec<(Bytes, AttrId)> = Vec::new();
        if self.eat(Tok::LBrace) && !self.eat(Tok::RBrace) {
            loop {
                if !self.is(Tok::BareIdent) {
                    return self.err("expected attribute name");
                }
                let key = self.spelling().to_vec();
                self.bump();
                self.expect(Tok::Equal, "'='")?;
                let value = if key == spec.name.as_bytes() && self.is(Tok::BareIdent) {
                    let kw_at = self.tok.start;
                    let kw = lossy(self.spelling());
                    self.bump();
                    if !spec.cases.iter().any(|(c, _)| *c == kw) {
                        let what = if spec.name == "mode" {
                            "resize mode".to_string()
                        } else {
                            spec.name.clone()
                        };
                        return self.err_at(self.tok.start, format!("invalid {what} value: {kw}"));
                    }
                    let def = spec.def.as_deref().unwrap_or_default();
                    self.parse_attr_text(&format!("#{def}<{kw}>"), kw_at)?
                } else {
                    self.parse_attr(None)?
                };
                entries.push((key.into(), value));
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
            self.expect(Tok::RBrace, "'}'")?;
        }
        self.expect(Tok::Colon, "':'")?;
        let type_at = self.tok.start;
        let fty = self.parse_type()?;
        let TypeData::Function { inputs, results } = self.m.ctx.ty(fty).clone() else {
            return self.sem_err_at(type_at, "invalid kind of type specified");
        };
        let mut operands = Vec::new();
        let at = self.tok.start;
        self.resolve_operands(&uses, &inputs, at, &mut operands)?;
        let Some(&result) = results.first() else {
            return self.sem_err_at(type_at, "expected a result type");
        };
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        if entries.windows(2).any(|w| w[0].0 == w[1].0) {
            return self.unsupported(syn, name_at, "an attribute given twice");
        }
        let attrs = self.m.ctx.intern_attr(AttrData::Dictionary(entries));
        self.finish_hand_written(
            syn,
            &operands,
            &[result],
            Vec::new(),
            Some(attrs),
            Vec::new(),
            name_at,
            results_start,
        )
    }

    /// `pdl_interp.foreach %arg : type in %range region attr-dict? ->
    /// ^successor` (MLIR's `ForEachOp::parse`): the range is a
    /// `!pdl.range<…>` of the argument's pdl type.
    pub(super) fn parse_pdl_interp_foreach(
        &mut self,
        syn: &'static OpSyntax,
        name_at: usize,
        results_start: usize,
    ) -> Result<OpId> {
        let arg = self.parse_value_use()?;
        self.expect(Tok::Colon, "':'")?;
        let type_at = self.tok.start;
        let ty = self.parse_type()?;
        let loc = self.optional_trailing_loc()?;
        if !self.is_kw("in") {
            return self.err("expected 'in' after loop variable");
        }
        self.bump();
        let range_use = self.parse_value_use()?;
        let inner = match self.m.ctx.ty(ty) {
            TypeData::Dialect(body) if &*body.dialect == "pdl" => match &body.pieces[..] {
                [BodyPiece::Text(t)] => t.to_string(),
                _ => return self.unsupported(syn, type_at, "this loop variable type"),
            },
            _ => return self.unsupported(syn, type_at, "a loop variable of a non-pdl type"),
        };
        let range = self.parse_type_text(&format!("!pdl.range<{inner}>"), type_at)?;
        let mut operands = Vec::new();
        let at = self.tok.start;
        self.resolve_operands(&[range_use], &[range], at, &mut operands)?;
        let region = self.m.new_region();
        let entry = [EntryArg {
            name: arg.0,
            at: arg.2,
            ty,
            loc,
        }];
        self.parse_region_into(region, &entry)?;
        let attrs = self.optional_attr_dict()?;
        self.expect(Tok::Arrow, "'->'")?;
        let successor = self.parse_block_ref()?;
        self.finish_hand_written_with_successors(
            syn,
            &operands,
            &[],
            vec![successor],
            Vec::new(),
            attrs,
            vec![region],
            name_at,
            results_start,
        )
    }

    /// `memref.prefetch %m[%i, …], read|write, locality<N>, data|instr :
    /// type` (MLIR's `PrefetchOp::parse`): the keywords become the booleans
    /// `isWrite` and `isDataCache`, the hint an `i32`; the indices are
    /// `index`.
    pub(super) fn parse_memref_prefetch(
        &mut self,
        syn: &'static OpSyntax,
        name_at: usize,
        results_start: usize,
    ) -> Result<OpId> {
        let memref = self.parse_value_use()?;
        let mut indices = Vec::new();
        self.comma_list(Tok::LSquare, Tok::RSquare, "'['", |p| {
            indices.push(p.parse_value_use()?);
            Ok(())
        })?;
        let clauses = self.prefetch_clauses()?;
        self.expect(Tok::Colon, "':'")?;
        let ty = self.parse_type()?;
        let mut operands = Vec::new();
        let at = self.tok.start;
        self.resolve_operands(&[memref], &[ty], at, &mut operands)?;
        let index = self.m.ctx.intern_type(TypeData::Index);
        let index_types = vec![index; indices.len()];
        self.resolve_operands(&indices, &index_types, at, &mut operands)?;
        let props = self.prefetch_properties(clauses, name_at)?;
        self.finish_hand_written(
            syn,
            &operands,
            &[],
            props,
            None,
            Vec::new(),
            name_at,
            results_start,
        )
    }

    /// `, read|write, locality<N>, data|instr` of `memref.prefetch` and
    /// `affine.prefetch`: the two keywords and the hint (an `i32`).
    pub(super) fn prefetch_clauses(&mut self) -> Result<(Vec<u8>, AttrId, Vec<u8>)> {
        self.expect(Tok::Comma, "','")?;
        let keyword = |p: &mut Self| -> Result<Vec<u8>> {
            if !p.is(Tok::BareIdent) {
                return p.err("expected valid keyword");
            }
            let w = p.spelling().to_vec();
            p.bump();
            Ok(w)
        };
        let rw = keyword(self)?;
        self.expect(Tok::Comma, "','")?;
        self.expect_kw("locality")?;
        self.expect(Tok::Less, "'<'")?;
        let i32t = self.m.ctx.intern_type(TypeData::signless(32));
        let hint = self.parse_attr(Some(i32t))?;
        self.expect(Tok::Greater, "'>'")?;
        self.expect(Tok::Comma, "','")?;
        let cache = keyword(self)?;
        Ok((rw, hint, cache))
    }

    /// The properties `prefetch_clauses` read: `isWrite`, `isDataCache`
    /// and `localityHint`; other keywords are refused at the op's name,
    /// as MLIR refuses them.
    pub(super) fn prefetch_properties(
        &mut self,
        (rw, hint, cache): (Vec<u8>, AttrId, Vec<u8>),
        name_at: usize,
    ) -> Result<Properties> {
        if rw != b"read" && rw != b"write" {
            return self.sem_err_at(name_at, "rw specifier has to be 'read' or 'write'");
        }
        if cache != b"data" && cache != b"instr" {
            return self.sem_err_at(name_at, "cache type has to be 'data' or 'instr'");
        }
        let is_write =
            self.parse_attr_text(if rw == b"write" { "true" } else { "false" }, name_at)?;
        let is_data =
            self.parse_attr_text(if cache == b"data" { "true" } else { "false" }, name_at)?;
        Ok(vec![
            (b"isDataCache"[..].into(), is_data),
            (b"isWrite"[..].into(), is_write),
            (b"localityHint"[..].into(), hint),
        ])
    }

    /// `shape.assuming %witness (-> types)? region attr-dict?` (MLIR's
    /// `AssumingOp::parse`: the witness a `!shape.witness`) and
    /// `memref.alloca_scope (-> types)? region attr-dict?`
    /// (`AllocaScopeOp::parse`): the region ends with the op's implicit
    /// terminator where the text leaves it out.
    pub(super) fn parse_scoped_region_op(
        &mut self,
        syn: &'static OpSyntax,
        witness: bool,
        name_at: usize,
        results_start: usize,
    ) -> Result<OpId> {
        let mut operands = Vec::new();
        if witness {
            let cond = self.parse_value_use()?;
            let ty = self.parse_type_text("!shape.witness", name_at)?;
            let at = self.tok.start;
            self.resolve_operands(&[cond], &[ty], at, &mut operands)?;
        }
        let result_types = self.optional_arrow_type_list()?;
        let region = self.parse_custom_region(syn, name_at)?;
        let attrs = self.optional_attr_dict()?;
        self.finish_hand_written(
            syn,
            &operands,
            &result_types,
            Vec::new(),
            attrs,
            vec![region],
            name_at,
            results_start,
        )
    }

    /// `shape.const_shape attr-dict? [extents] : type` (MLIR's
    /// `ConstShapeOp::parse`): the extents are a `tensor<Nxindex>`.
    pub(super) fn parse_const_shape(
        &mut self,
        syn: &'static OpSyntax,
        name_at: usize,
        results_start: usize,
    ) -> Result<OpId> {
        let attrs = self.optional_attr_dict()?;
        let at = self.tok.start;
        let mut extents = Vec::new();
        self.comma_list(Tok::LSquare, Tok::RSquare, "'[' and the extents", |p| {
            let neg = p.eat(Tok::Minus);
            let t = p.expect(Tok::Integer, "an extent")?;
            let digits = lossy(&p.src[t.start..t.end]);
            let v = digits
                .parse::<i128>()
                .ok()
                .map(|v| if neg { -v } else { v })
                .and_then(|v| i64::try_from(v).ok());
            match v {
                Some(v) => extents.push(v),
                None => return p.err_at(t.start, "extent out of range"),
            }
            Ok(())
        })?;
        let list: Vec<String> = extents.iter().map(i64::to_string).collect();
        let text = if list.is_empty() {
            "dense<> : tensor<0xindex>".to_string()
        } else {
            format!(
                "dense<[{}]> : tensor<{}xindex>",
                list.join(", "),
                list.len()
            )
        };
        let shape = self.parse_attr_text(&text, at)?;
        self.expect(Tok::Colon, "':' and the result type")?;
        let ty = self.parse_type()?;
        self.finish_hand_written(
            syn,
            &[],
            &[ty],
            vec![(b"shape"[..].into(), shape)],
            attrs,
            Vec::new(),
            name_at,
            results_start,
        )
    }

    /// `arith.select %cond, %a, %b attr-dict? : (condition type,)? type`
    /// (MLIR's `SelectOp::parse`): the condition is `i1` unless its type
    /// is given (a mask).
    pub(super) fn parse_arith_select(
        &mut self,
        syn: &'static OpSyntax,
        name_at: usize,
        results_start: usize,
    ) -> Result<OpId> {
        let mut uses = Vec::with_capacity(3);
        for i in 0..3 {
            if i > 0 {
                self.expect(Tok::Comma, "','")?;
            }
            uses.push(self.parse_value_use()?);
        }
        let attrs = self.optional_attr_dict()?;
        self.expect(Tok::Colon, "':' and the type")?;
        let mut ty = self.parse_type()?;
        let cond_ty = if self.eat(Tok::Comma) {
            std::mem::replace(&mut ty, self.parse_type()?)
        } else {
            self.m.ctx.intern_type(TypeData::signless(1))
        };
        let mut operands = Vec::with_capacity(3);
        for (u, t) in uses.iter().zip([cond_ty, ty, ty]) {
            operands.push(self.resolve_use(*u, t)?);
        }
        self.finish_hand_written(
            syn,
            &operands,
            &[ty],
            Vec::new(),
            attrs,
            Vec::new(),
            name_at,
            results_start,
        )
    }

    /// `scf.parallel (%i, …) = (%lb, …) to (%ub, …) step (%s, …) (init
    /// (%x, …))? (-> types)? region attr-dict?` (MLIR's
    /// `ParallelOp::parse`); the body ends with `scf.reduce` where the text
    /// leaves it out.
    pub(super) fn parse_scf_parallel(
        &mut self,
        syn: &'static OpSyntax,
        name_at: usize,
        results_start: usize,
    ) -> Result<OpId> {
        let mut ivs = Vec::new();
        self.comma_list(
            Tok::LParen,
            Tok::RParen,
            "'(' and the induction variables",
            |p| {
                ivs.push(p.parse_value_use()?);
                Ok(())
            },
        )?;
        self.expect(Tok::Equal, "'='")?;
        let index = self.m.ctx.intern_type(TypeData::Index);
        let mut operands = Vec::new();
        let mut groups = Vec::new();
        for (i, kw) in ["", "to", "step"].into_iter().enumerate() {
            if i > 0 {
                self.expect_kw(kw)?;
            }
            let uses = self.paren_value_uses()?;
            if uses.len() != ivs.len() {
                return self.err(format!(
                    "expected {} operands, one per induction variable",
                    ivs.len()
                ));
            }
            for u in &uses {
                operands.push(self.resolve_use(*u, index)?);
            }
            groups.push(uses.len());
        }
        let inits = if self.is_kw("init") {
            self.bump();
            self.paren_value_uses()?
        } else {
            Vec::new()
        };
        let result_types = self.optional_arrow_type_list()?;
        let entry: Vec<EntryArg<'a>> = ivs
            .iter()
            .map(|u| EntryArg {
                name: u.0,
                at: u.2,
                ty: index,
                loc: None,
            })
            .collect();
        let region = self.m.new_region();
        self.parse_region_into(region, &entry)?;
        groups.push(inits.len());
        let sizes = self.segment_sizes(&groups, name_at)?;
        let attrs = self.optional_attr_dict()?;
        self.resolve_operands(&inits, &result_types, name_at, &mut operands)?;
        if let Some(term) = syn.implicit_terminator() {
            self.ensure_terminator(region, term, name_at)?;
        }
        self.finish_hand_written(
            syn,
            &operands,
            &result_types,
            vec![(b"operandSegmentSizes"[..].into(), sizes)],
            attrs,
            vec![region],
            name_at,
            results_start,
        )
    }

    /// `(%a, …)`: values in parentheses.
    pub(super) fn paren_value_uses(&mut self) -> Result<Vec<Use<'a>>> {
        let mut v = Vec::new();
        self.comma_list(Tok::LParen, Tok::RParen, "'('", |p| {
            v.push(p.parse_value_use()?);
            Ok(())
        })?;
        Ok(v)
    }

    /// `scf.while ((%a = %init, …))? : (types) -> (types) region do region
    /// (attributes {…})?` (MLIR's `WhileOp::parse`).
    pub(super) fn parse_scf_while(
        &mut self,
        syn: &'static OpSyntax,
        name_at: usize,
        results_start: usize,
    ) -> Result<OpId> {
        let mut args = Vec::new();
        let mut inits = Vec::new();
        if self.is(Tok::LParen) {
            self.comma_list(Tok::LParen, Tok::RParen, "'('", |p| {
                args.push(p.parse_value_use()?);
                p.expect(Tok::Equal, "'='")?;
                inits.push(p.parse_value_use()?);
                Ok(())
            })?;
        }
        self.expect(Tok::Colon, "':' and the function type")?;
        let type_at = self.tok.start;
        let fty = self.parse_type()?;
        let TypeData::Function { inputs, results } = self.m.ctx.ty(fty).clone() else {
            return self.sem_err_at(type_at, "expected a function type");
        };
        if inputs.len() != inits.len() {
            return self.sem_err_at(
                type_at,
                format!(
                    "expected as many input types as operands (expected {} got {})",
                    inits.len(),
                    inputs.len()
                ),
            );
        }
        let mut operands = Vec::new();
        self.resolve_operands(&inits, &inputs, type_at, &mut operands)?;
        let entry = Self::entry_args(&args, &inputs);
        let before = self.m.new_region();
        self.parse_region_into(before, &entry)?;
        self.expect_kw("do")?;
        let after = self.parse_region()?;
        let attrs = self.optional_attr_dict_with_keyword()?;
        self.finish_hand_written(
            syn,
            &operands,
            &results,
            Vec::new(),
            attrs,
            vec![before, after],
            name_at,
            results_start,
        )
    }

    /// The `iterator_types` of an op's dictionary written as strings, as
    /// tests still write them (MLIR's `ContractionOp::parse` and
    /// `GenericOp::parse`), replaced by `#dialect.iterator_type<…>`. With
    /// `strings_only` an element that is not an untyped string is refused
    /// (linalg); otherwise it is kept as it is (vector).
    pub(super) fn iterator_types_from_strings(
        &mut self,
        entries: &mut [(Bytes, AttrId)],
        dialect: &str,
        strings_only: bool,
        at: usize,
    ) -> Result<()> {
        let Some(iters) = entries
            .iter()
            .position(|(k, _)| &k[..] == b"iterator_types")
        else {
            return self.sem_err_at(at, "expected iterator_types array attribute");
        };
        let AttrData::Array(list) = self.m.ctx.attr(entries[iters].1).clone() else {
            return self.sem_err_at(at, "expected iterator_types array attribute");
        };
        let mut converted = Vec::with_capacity(list.len());
        for a in list {
            let word = match self.m.ctx.attr(a) {
                AttrData::String { value, ty } if !strings_only || ty.is_none() => lossy(value),
                _ if strings_only => {
                    return self.sem_err_at(at, "expected iterator types written as strings")
                }
                _ => {
                    converted.push(a);
                    continue;
                }
            };
            if word != "parallel" && word != "reduction" {
                return self.sem_err_at(at, format!("unexpected iterator_type ({word})"));
            }
            converted.push(self.parse_attr_text(&format!("#{dialect}.iterator_type<{word}>"), at)?);
        }
        entries[iters].1 = self.m.ctx.intern_attr(AttrData::Array(converted));
        Ok(())
    }

    /// `vector.contract {indexing_maps, iterator_types, …} %lhs, %rhs, %acc
    /// (, %lhs_mask, %rhs_mask)? attr-dict? : lhs type, rhs type into type`
    /// (MLIR's `ContractionOp::parse`): iterator types written as strings
    /// become `#vector.iterator_type<…>`, and `kind` defaults to `add`.
    pub(super) fn parse_vector_contract(
        &mut self,
        syn: &'static OpSyntax,
        name_at: usize,
        results_start: usize,
    ) -> Result<OpId> {
        let at = self.tok.start;
        let dict = self.parse_attr(None)?;
        let AttrData::Dictionary(mut entries) = self.m.ctx.attr(dict).clone() else {
            return self.sem_err_at(at, "expected a dictionary of the contraction's attributes");
        };
        let mut uses = Vec::new();
        for i in 0..3 {
            if i > 0 {
                self.expect(Tok::Comma, "','")?;
            }
            uses.push(self.parse_value_use()?);
        }
        let mut masks = Vec::new();
        while self.eat(Tok::Comma) {
            masks.push(self.parse_value_use()?);
        }
        let attrs = self.optional_attr_dict()?;
        self.expect(Tok::Colon, "':' and the types")?;
        let mut types = vec![self.parse_type()?];
        while self.eat(Tok::Comma) {
            types.push(self.parse_type()?);
        }
        self.expect_kw("into")?;
        let result = self.parse_type()?;
        if types.len() < 2 {
            return self.sem_err_at(at, "expected the types of both operands");
        }
        let mut operands = vec![
            self.resolve_use(uses[0], types[0])?,
            self.resolve_use(uses[1], types[1])?,
            self.resolve_use(uses[2], result)?,
        ];
        self.iterator_types_from_strings(&mut entries, "vector", false, at)?;
        if !entries.iter().any(|(k, _)| &k[..] == b"kind") {
            let kind = self.parse_attr_text("#vector.kind<add>", at)?;
            entries.push((b"kind"[..].into(), kind));
        }
        if !masks.is_empty() {
            if masks.len() != 2 {
                return self.sem_err_at(at, "expected zero or exactly 2 vector mask operands");
            }
            let i1 = self.m.ctx.intern_type(TypeData::signless(1));
            for (u, t) in masks.iter().zip(&types[..2]) {
                let TypeData::Vector {
                    shape, scalable, ..
                } = self.m.ctx.ty(*t).clone()
                else {
                    return self.sem_err_at(at, "expected vector operands with masks");
                };
                let mt = self.m.ctx.intern_type(TypeData::Vector {
                    shape,
                    scalable,
                    elem: i1,
                });
                operands.push(self.resolve_use(*u, mt)?);
            }
        }
        // The dictionary's entries are attributes like those of the
        // `attr-dict` (MLIR appends them): split by the same rule.
        if let Some(AttrData::Dictionary(more)) = attrs.map(|a| self.m.ctx.attr(a).clone()) {
            entries.extend(more);
        }
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        let all = self.m.ctx.intern_attr(AttrData::Dictionary(entries));
        self.finish_hand_written(
            syn,
            &operands,
            &[result],
            Vec::new(),
            Some(all),
            Vec::new(),
            name_at,
            results_start,
        )
    }

    /// `affine.apply #map(%dims…)[%symbols…] attr-dict?` and
    /// `affine.min`/`affine.max` of the same syntax (MLIR's
    /// `AffineApplyOp::parse`, `parseAffineMinMaxOp`): every operand and
    /// result is an `index`; `affine.apply` has a result per map result.
    pub(super) fn parse_affine_map_op(
        &mut self,
        syn: &'static OpSyntax,
        name_at: usize,
        results_start: usize,
    ) -> Result<OpId> {
        let at = self.tok.start;
        let map = self.parse_attr(None)?;
        let (dims, symbols, results) = match self.m.ctx.attr(map) {
            AttrData::AffineMap(m) => {
                (m.num_dims as usize, m.num_symbols as usize, m.results.len())
            }
            _ => return self.sem_err_at(at, "expected an affine map"),
        };
        let d = self.paren_value_uses()?;
        let sy = if self.is(Tok::LSquare) {
            self.bracketed_value_uses()?
        } else {
            Vec::new()
        };
        let attrs = self.optional_attr_dict()?;
        let is_apply = syn.name == "affine.apply";
        if is_apply && (d.len() != dims || sy.len() != symbols) {
            return self.sem_err_at(name_at, "dimension or symbol index mismatch");
        }
        let index = self.m.ctx.intern_type(TypeData::Index);
        let mut operands = Vec::with_capacity(d.len() + sy.len());
        for u in d.iter().chain(&sy) {
            operands.push(self.resolve_use(*u, index)?);
        }
        let result_types = vec![index; if is_apply { results } else { 1 }];
        self.finish_hand_written(
            syn,
            &operands,
            &result_types,
            vec![(b"map"[..].into(), map)],
            attrs,
            Vec::new(),
            name_at,
            results_start,
        )
    }

    /// `vector.mask %mask (, %passthru)? region attr-dict? : mask type
    /// (-> types)?` (MLIR's `MaskOp::parse`). Its `ensureTerminator` ends
    /// a block of one masked op with a `vector.yield` of that op's results,
    /// at the mask's location, in place of the block's yield.
    pub(super) fn parse_vector_mask(
        &mut self,
        syn: &'static OpSyntax,
        name_at: usize,
        results_start: usize,
    ) -> Result<OpId> {
        let mask = self.parse_value_use()?;
        let passthru = if self.eat(Tok::Comma) {
            Some(self.parse_value_use()?)
        } else {
            None
        };
        let region = self.parse_region()?;
        let term = syn.implicit_terminator().unwrap_or("vector.yield");
        let ops = self
            .m
            .region(region)
            .blocks
            .first()
            .map(|&b| (b, self.m.block(b).ops.clone()));
        match ops.as_ref().map(|(b, ops)| (*b, &ops[..])) {
            // One masked op: the yield of its results.
            Some((block, &[masked]))
                if !self
                    .registry
                    .get(self.m.op_name(masked))
                    .is_some_and(|i| i.terminator) =>
            {
                let results: Vec<ValueId> = self.m.op(masked).results().collect();
                let name = self.m.op_names.intern(term.as_bytes());
                let props = self.with_default_properties(name, None, name_at)?;
                let loc = self.loc_at(name_at);
                let empty = self.empty_dict;
                let op = self.m.new_op(
                    name,
                    &results,
                    &[],
                    Vec::new(),
                    props,
                    empty,
                    Vec::new(),
                    loc,
                );
                self.m.push_op(block, op);
            }
            // A masked op and its yield: MLIR makes the yield anew, at the
            // mask's location; the same where it yields the op's results.
            Some((_, &[masked, yield_op])) if self.m.op_name(yield_op) == term.as_bytes() => {
                let results: Vec<ValueId> = self.m.op(masked).results().collect();
                if self.m.operands(yield_op) != &results[..] {
                    return self.unsupported(
                        syn,
                        name_at,
                        "a yield of other values than the masked op's results",
                    );
                }
                let loc = self.loc_at(name_at);
                self.m.ops[yield_op.index()].loc = loc;
            }
            _ => self.ensure_terminator(region, term, name_at)?,
        }
        let attrs = self.optional_attr_dict()?;
        self.expect(Tok::Colon, "':' and the mask type")?;
        let mask_ty = self.parse_type()?;
        let result_types = self.optional_arrow_type_list()?;
        let mut operands = vec![self.resolve_use(mask, mask_ty)?];
        if let Some(u) = passthru {
            let Some(&t) = result_types.first() else {
                return self
                    .sem_err_at(name_at, "expects a result if passthru operand is provided");
            };
            operands.push(self.resolve_use(u, t)?);
        }
        self.finish_hand_written(
            syn,
            &operands,
            &result_types,
            Vec::new(),
            attrs,
            vec![region],
            name_at,
            results_start,
        )
    }

    /// `bufferization.alloc_tensor(%sizes…) (copy(%t))? (size_hint = %n)?
    /// attr-dict? : tensor type` (MLIR's `AllocTensorOp::parse`).
    pub(super) fn parse_alloc_tensor(
        &mut self,
        syn: &'static OpSyntax,
        name_at: usize,
        results_start: usize,
    ) -> Result<OpId> {
        let sizes = self.paren_value_uses()?;
        let copy = if self.is_kw("copy") {
            self.bump();
            self.expect(Tok::LParen, "'('")?;
            let u = self.parse_value_use()?;
            self.expect(Tok::RParen, "')'")?;
            Some(u)
        } else {
            None
        };
        let hint = if self.is_kw("size_hint") {
            self.bump();
            self.expect(Tok::Equal, "'='")?;
            Some(self.parse_value_use()?)
        } else {
            None
        };
        let attrs = self.optional_attr_dict()?;
        self.expect(Tok::Colon, "':' and the tensor type")?;
        let ty = self.parse_type()?;
        let index = self.m.ctx.intern_type(TypeData::Index);
        let mut operands = Vec::new();
        for u in &sizes {
            operands.push(self.resolve_use(*u, index)?);
        }
        if let Some(u) = copy {
            operands.push(self.resolve_use(u, ty)?);
        }
        if let Some(u) = hint {
            operands.push(self.resolve_use(u, index)?);
        }
        let groups = [
            sizes.len(),
            usize::from(copy.is_some()),
            usize::from(hint.is_some()),
        ];
        let a = self.segment_sizes(&groups, name_at)?;
        self.finish_hand_written(
            syn,
            &operands,
            &[ty],
            vec![(b"operandSegmentSizes"[..].into(), a)],
            attrs,
            Vec::new(),
            name_at,
            results_start,
        )
    }

    /// A function's `(args) -> results` (MLIR's
    /// `parseFunctionSignatureWithArguments`): its arguments, and the
    /// properties `function_type`, `arg_attrs` and `res_attrs` they give.
    pub(super) fn function_signature(&mut self) -> Result<(Vec<FnArg<'a>>, Properties)> {
        let Signature { args, results, .. } = self.function_signature_parts(false)?;
        let fty = self.m.ctx.intern_type(TypeData::Function {
            inputs: args.iter().map(|a| a.ty).collect(),
            results: results.iter().map(|r| r.0).collect(),
        });
        let props = self.signature_properties(&args, &results, fty);
        Ok((args, props))
    }

    /// A function's body, if `{` follows (an empty region otherwise), its
    /// entry block's arguments the signature's named ones. Unnamed
    /// arguments are named by the body's entry block label, if it has one.
    pub(super) fn optional_function_body(&mut self, args: &[FnArg<'a>]) -> Result<RegionId> {
        let region = self.m.new_region();
        if self.is(Tok::LBrace) {
            let entry: Vec<EntryArg<'a>> = args.iter().filter_map(FnArg::entry).collect();
            self.parse_region_into(region, &entry)?;
        }
        Ok(region)
    }

    /// MLIR's `parseFunctionSignatureWithArguments`: the arguments
    /// (`%name: type {attrs}? loc(…)?` or `type {attrs}?`, and `...` last
    /// where `allow_variadic`), the results (`-> type` or `-> (type
    /// {attrs}?, …)`) and whether the signature is variadic.
    pub(super) fn function_signature_parts(
        &mut self,
        allow_variadic: bool,
    ) -> Result<Signature<'a>> {
        let mut args = Vec::new();
        let mut variadic = false;
        self.comma_list(
            Tok::LParen,
            Tok::RParen,
            "'(' to begin the arguments",
            |p| {
                if variadic {
                    return p.err("variadic arguments must be in the end of the argument list");
                }
                if allow_variadic && p.src[p.tok.start..].starts_with(b"...") {
                    p.reset_to(p.tok.start + 3);
                    variadic = true;
                    return Ok(());
                }
                args.push(p.function_arg(false)?);
                Ok(())
            },
        )?;
        let named = args.iter().filter(|a| a.name.is_some()).count();
        if named != 0 && named != args.len() {
            return self.err("expected SSA identifier for every argument or none");
        }
        let mut results: Vec<(TypeId, AttrId)> = Vec::new();
        if self.eat(Tok::Arrow) {
            if self.is(Tok::LParen) {
                self.comma_list(Tok::LParen, Tok::RParen, "'('", |p| {
                    let ty = p.parse_type()?;
                    let attrs = p.optional_attr_dict()?.unwrap_or(p.empty_dict);
                    results.push((ty, attrs));
                    Ok(())
                })?;
            } else {
                let ty = self.parse_type()?;
                results.push((ty, self.empty_dict));
            }
        }
        Ok(Signature {
            args,
            results,
            variadic,
        })
    }

    /// `function_type` of type `fty`, and `arg_attrs`/`res_attrs` where an
    /// argument or result has attributes.
    pub(super) fn signature_properties(
        &mut self,
        args: &[FnArg<'a>],
        results: &[(TypeId, AttrId)],
        fty: TypeId,
    ) -> Properties {
        let mut props: Properties = Vec::new();
        let a = self.m.ctx.intern_attr(AttrData::Type(fty));
        props.push((b"function_type"[..].into(), a));
        let empty = self.empty_dict;
        if args.iter().any(|a| a.attrs != empty) {
            let list = args.iter().map(|a| a.attrs).collect();
            let a = self.m.ctx.intern_attr(AttrData::Array(list));
            props.push((b"arg_attrs"[..].into(), a));
        }
        if results.iter().any(|r| r.1 != empty) {
            let list = results.iter().map(|r| r.1).collect();
            let a = self.m.ctx.intern_attr(AttrData::Array(list));
            props.push((b"res_attrs"[..].into(), a));
        }
        props
    }

    /// One argument: `%name: type {attrs}? loc(…)?`, or without the name
    /// unless `named` requires it.
    pub(super) fn function_arg(&mut self, named: bool) -> Result<FnArg<'a>> {
        let name = if self.is(Tok::PercentId) || named {
            let u = self.parse_value_use()?;
            self.expect(Tok::Colon, "':' and the argument's type")?;
            Some(u)
        } else {
            None
        };
        let ty = self.parse_type()?;
        let attrs = self.optional_attr_dict()?.unwrap_or(self.empty_dict);
        let loc = self.optional_trailing_loc()?;
        Ok(FnArg {
            name,
            ty,
            attrs,
            loc,
        })
    }

    /// `gpu.func @name(args) -> results (workgroup(args))? (private(args))?
    /// kernel? (attributes {…})? body` (MLIR's `GPUFuncOp::parse`): the
    /// attributions are more arguments of the entry block, counted by
    /// `workgroup_attributions`; `kernel` is the `gpu.kernel` attribute.
    pub(super) fn parse_gpu_func(
        &mut self,
        syn: &'static OpSyntax,
        name_at: usize,
        results_start: usize,
    ) -> Result<OpId> {
        let sym = self.parse_symbol_name()?;
        let sym = self.m.ctx.intern_attr(AttrData::String {
            value: sym.into_boxed_slice(),
            ty: None,
        });
        let sig_at = self.tok.start;
        let (mut args, sig) = self.function_signature()?;
        if args.first().is_some_and(|a| a.name.is_none()) {
            return self.sem_err_at(sig_at, "gpu.func requires named arguments");
        }
        let mut entries: Properties = vec![(b"sym_name"[..].into(), sym)];
        entries.extend(sig);
        let inputs = args.len();
        for (keyword, count_name, attrs_name) in [
            (
                "workgroup",
                Some(&b"workgroup_attributions"[..]),
                &b"workgroup_attrib_attrs"[..],
            ),
            ("private", None, &b"private_attrib_attrs"[..]),
        ] {
            let before = args.len();
            if self.is_kw(keyword) {
                self.bump();
                self.comma_list(Tok::LParen, Tok::RParen, "'('", |p| {
                    args.push(p.function_arg(true)?);
                    Ok(())
                })?;
            }
            let added = &args[before..];
            if let Some(count_name) = count_name {
                let i64t = self.m.ctx.intern_type(TypeData::signless(64));
                let n = self.m.ctx.intern_attr(AttrData::Integer {
                    ty: i64t,
                    value: BigInt::from(args.len() - inputs),
                });
                entries.push((count_name.into(), n));
            }
            let empty = self.empty_dict;
            if added.iter().any(|a| a.attrs != empty) {
                let list = added.iter().map(|a| a.attrs).collect();
                let a = self.m.ctx.intern_attr(AttrData::Array(list));
                entries.push((attrs_name.into(), a));
            }
        }
        if self.is_kw("kernel") {
            self.bump();
            entries.push((b"gpu.kernel"[..].into(), self.unit_attr));
        }
        if let Some(d) = self.optional_attr_dict_with_keyword()? {
            if let AttrData::Dictionary(more) = self.m.ctx.attr(d).clone() {
                entries.extend(more);
            }
        }
        let entry: Vec<EntryArg<'a>> = args.iter().filter_map(FnArg::entry).collect();
        let region = self.m.new_region();
        self.parse_region_into(region, &entry)?;
        // All of them are attributes as MLIR adds them: split as the
        // `attr-dict`'s.
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        let all = self.m.ctx.intern_attr(AttrData::Dictionary(entries));
        self.finish_hand_written(
            syn,
            &[],
            &[],
            Vec::new(),
            Some(all),
            vec![region],
            name_at,
            results_start,
        )
    }
}

impl<'a> Parser<'a> {
    /// `scf.execute_region (-> types)? no_inline? region attr-dict?`
    /// (MLIR's `ExecuteRegionOp::parse`).
    pub(super) fn parse_scf_execute_region(
        &mut self,
        syn: &'static OpSyntax,
        name_at: usize,
        results_start: usize,
    ) -> Result<OpId> {
        let result_types = self.optional_arrow_type_list()?;
        let mut props: Properties = Vec::new();
        if self.is_kw("no_inline") {
            self.bump();
            props.push((b"no_inline"[..].into(), self.unit_attr));
        }
        let region = self.parse_region()?;
        let attrs = self.optional_attr_dict()?;
        self.finish_hand_written(
            syn,
            &[],
            &result_types,
            props,
            attrs,
            vec![region],
            name_at,
            results_start,
        )
    }

    /// `vector.outerproduct %lhs, %rhs (, %acc)? attr-dict? : lhs type, rhs
    /// type` (MLIR's `OuterProductOp::parse`): the result is the 2-D vector
    /// of both operands' sizes (1-D when `rhs` is a scalar), scalable where
    /// they are; `kind` defaults to `#vector.kind<add>`.
    pub(super) fn parse_vector_outerproduct(
        &mut self,
        syn: &'static OpSyntax,
        name_at: usize,
        results_start: usize,
    ) -> Result<OpId> {
        let mut uses = vec![self.parse_value_use()?];
        while self.eat(Tok::Comma) {
            uses.push(self.parse_value_use()?);
        }
        let attrs = self.optional_attr_dict()?;
        self.expect(Tok::Colon, "':'")?;
        let lhs_at = self.tok.start;
        let lhs = self.parse_type()?;
        self.expect(Tok::Comma, "','")?;
        let rhs = self.parse_type()?;
        if uses.len() < 2 || uses.len() > 3 {
            return self.sem_err_at(name_at, "expected at least 2 operands");
        }
        let TypeData::Vector {
            shape: l_shape,
            scalable: l_scalable,
            elem,
        } = self.m.ctx.ty(lhs).clone()
        else {
            return self.sem_err_at(lhs_at, "expected vector type for operand #1");
        };
        let first = |shape: &[i64], scalable: &[bool]| {
            (
                shape.first().copied().unwrap_or(0),
                scalable.first().copied().unwrap_or(false),
            )
        };
        let (l_size, l_scal) = first(&l_shape, &l_scalable);
        let (shape, scalable) = match self.m.ctx.ty(rhs) {
            TypeData::Vector {
                shape: r_shape,
                scalable: r_scalable,
                ..
            } => {
                let (r_size, r_scal) = first(r_shape, r_scalable);
                (vec![l_size, r_size], vec![l_scal, r_scal])
            }
            _ => (vec![l_size], vec![l_scal]),
        };
        let scalable = if scalable.iter().any(|&s| s) {
            scalable
        } else {
            Vec::new()
        };
        let result = self.m.ctx.intern_type(TypeData::Vector {
            shape,
            scalable,
            elem,
        });
        let has_kind = attrs.is_some_and(|d| {
            matches!(self.m.ctx.attr(d), AttrData::Dictionary(e) if e.iter().any(|(k, _)| &k[..] == b"kind"))
        });
        let mut props: Properties = Vec::new();
        if !has_kind {
            let kind = self.parse_attr_text("#vector.kind<add>", name_at)?;
            props.push((b"kind"[..].into(), kind));
        }
        let mut operands = vec![
            self.resolve_use(uses[0], lhs)?,
            self.resolve_use(uses[1], rhs)?,
        ];
        if let Some(&acc) = uses.get(2) {
            operands.push(self.resolve_use(acc, result)?);
        }
        self.finish_hand_written(
            syn,
            &operands,
            &[result],
            props,
            attrs,
            Vec::new(),
            name_at,
            results_start,
        )
    }
}

impl<'a> Parser<'a> {
    /// `(%v | integer, …)`: MLIR's `parseDynamicIndexList` in parentheses,
    /// without types or scalable flags: the values, resolved as `index`,
    /// and the integers, `ShapedType::kDynamic` where a value stands.
    fn paren_dynamic_index_list(&mut self) -> Result<(Vec<ValueId>, Vec<i64>)> {
        let mut uses = Vec::new();
        let mut ints = Vec::new();
        self.comma_list(Tok::LParen, Tok::RParen, "'('", |p| {
            if p.is(Tok::PercentId) {
                uses.push(p.parse_value_use()?);
                ints.push(i64::MIN);
                return Ok(());
            }
            let neg = p.eat(Tok::Minus);
            let t = p.expect(Tok::Integer, "SSA value or integer")?;
            match lossy(&p.src[t.start..t.end]).parse::<i64>() {
                Ok(v) => ints.push(if neg { -v } else { v }),
                Err(_) => return p.err_at(t.start, "integer out of range in dynamic index list"),
            }
            Ok(())
        })?;
        let index = self.m.ctx.intern_type(TypeData::Index);
        let mut values = Vec::with_capacity(uses.len());
        for u in uses {
            values.push(self.resolve_use(u, index)?);
        }
        Ok((values, ints))
    }

    /// `array<i64: …>` of `ints`.
    pub(super) fn i64_array(&mut self, ints: &[i64], at: usize) -> Result<AttrId> {
        let list: Vec<String> = ints.iter().map(i64::to_string).collect();
        let text = if list.is_empty() {
            "array<i64>".to_string()
        } else {
            format!("array<i64: {}>", list.join(", "))
        };
        self.parse_attr_text(&text, at)
    }

    /// `scf.forall (%i, …) in (ubs)` or `= (lbs) to (ubs) step (steps)`,
    /// then `shared_outs(%o = %init, …) -> types`, the region and the
    /// attribute dictionary (MLIR's `ForallOp::parse`): bounds are
    /// dynamic index lists; `in` means lower bounds 0 and steps 1.
    pub(super) fn parse_scf_forall(
        &mut self,
        syn: &'static OpSyntax,
        name_at: usize,
        results_start: usize,
    ) -> Result<OpId> {
        let mut ivs = Vec::new();
        self.comma_list(Tok::LParen, Tok::RParen, "'('", |p| {
            ivs.push((p.parse_value_use()?, p.optional_trailing_loc()?));
            Ok(())
        })?;
        let mut operands = Vec::new();
        let mut counts = [0usize; 4];
        let (lbs, ubs, steps);
        if self.is_kw("in") {
            self.bump();
            let (values, ints) = self.paren_dynamic_index_list()?;
            counts[1] = values.len();
            operands.extend(values);
            lbs = vec![0; ivs.len()];
            ubs = ints;
            steps = vec![1; ivs.len()];
        } else {
            self.expect(Tok::Equal, "'='")?;
            let (values, l) = self.paren_dynamic_index_list()?;
            counts[0] = values.len();
            operands.extend(values);
            self.expect_kw("to")?;
            let (values, u) = self.paren_dynamic_index_list()?;
            counts[1] = values.len();
            operands.extend(values);
            self.expect_kw("step")?;
            let (values, s) = self.paren_dynamic_index_list()?;
            counts[2] = values.len();
            operands.extend(values);
            (lbs, ubs, steps) = (l, u, s);
        }
        let mut outs = Vec::new();
        let mut result_types = Vec::new();
        if self.is_kw("shared_outs") {
            self.bump();
            let mut inits = Vec::new();
            let outs_at = self.tok.start;
            self.comma_list(Tok::LParen, Tok::RParen, "'('", |p| {
                outs.push((p.parse_value_use()?, p.optional_trailing_loc()?));
                p.expect(Tok::Equal, "'='")?;
                inits.push(p.parse_value_use()?);
                Ok(())
            })?;
            if self.eat(Tok::Arrow) {
                result_types = self.arrow_type_list_rest()?;
            }
            self.resolve_operands(&inits, &result_types, outs_at, &mut operands)?;
            counts[3] = inits.len();
        }
        let index = self.m.ctx.intern_type(TypeData::Index);
        let arg = |(u, loc): &(Use<'a>, Option<AttrId>), ty| EntryArg {
            name: u.0,
            at: u.2,
            ty,
            loc: *loc,
        };
        let mut entry: Vec<EntryArg<'a>> = ivs.iter().map(|v| arg(v, index)).collect();
        entry.extend(outs.iter().zip(&result_types).map(|(o, t)| arg(o, *t)));
        let region = self.m.new_region();
        self.parse_region_into(region, &entry)?;
        if let Some(term) = syn.implicit_terminator() {
            self.ensure_terminator(region, term, name_at)?;
        }
        let attrs = self.optional_attr_dict()?;
        let props = vec![
            (
                b"staticLowerBound"[..].into(),
                self.i64_array(&lbs, name_at)?,
            ),
            (
                b"staticUpperBound"[..].into(),
                self.i64_array(&ubs, name_at)?,
            ),
            (b"staticStep"[..].into(), self.i64_array(&steps, name_at)?),
            (
                b"operandSegmentSizes"[..].into(),
                self.segment_sizes(&counts, name_at)?,
            ),
        ];
        self.finish_hand_written(
            syn,
            &operands,
            &result_types,
            props,
            attrs,
            vec![region],
            name_at,
            results_start,
        )
    }
}

impl<'a> Parser<'a> {
    /// `scf.forall.in_parallel region attr-dict?` (MLIR's
    /// `InParallelOp::parse`): an empty region gets its block.
    pub(super) fn parse_scf_in_parallel(
        &mut self,
        syn: &'static OpSyntax,
        name_at: usize,
        results_start: usize,
    ) -> Result<OpId> {
        let region = self.parse_region()?;
        if self.m.region(region).blocks.is_empty() {
            let b = self.m.new_block();
            self.m.push_block(region, b);
        }
        let attrs = self.optional_attr_dict()?;
        self.finish_hand_written(
            syn,
            &[],
            &[],
            Vec::new(),
            attrs,
            vec![region],
            name_at,
            results_start,
        )
    }
}

impl<'a> Parser<'a> {
    /// `(%x, %y, %z) in (%sx = %a, %sy = %b, %sz = %c)` (MLIR's
    /// `parseSizeAssignment`): the ids, the size names and the sizes.
    fn size_assignment(&mut self) -> Result<[Vec<Use<'a>>; 3]> {
        let ids = self.paren_value_uses()?;
        if ids.len() != 3 {
            return self.err("expected three identifiers");
        }
        self.expect_kw("in")?;
        self.expect(Tok::LParen, "'('")?;
        let (mut names, mut sizes) = (Vec::new(), Vec::new());
        for i in 0..3 {
            if i > 0 {
                self.expect(Tok::Comma, "','")?;
            }
            names.push(self.parse_value_use()?);
            self.expect(Tok::Equal, "'='")?;
            sizes.push(self.parse_value_use()?);
        }
        self.expect(Tok::RParen, "')'")?;
        Ok([ids, names, sizes])
    }

    /// `gpu.launch (async [deps])? (clusters … in …)? blocks (…) in (…)
    /// threads (…) in (…) (dynamic_shared_memory_size %s)? region
    /// attr-dict?` (MLIR's `LaunchOp::parse`): the entry block's arguments
    /// are the block and thread ids, the grid and block sizes, then the
    /// cluster ids and sizes, all `index`, each at its name. Workgroup and
    /// private attributions and `module(…)`/`function(…)` are not ported.
    pub(super) fn parse_gpu_launch(
        &mut self,
        syn: &'static OpSyntax,
        name_at: usize,
        results_start: usize,
    ) -> Result<OpId> {
        let at = self.tok.start;
        let token = self.parse_type_text("!gpu.async.token", at)?;
        let mut result_types = Vec::new();
        if self.is_kw("async") {
            if self.value_refs.len() <= results_start {
                return self.sem_err_at(at, "needs to be named when marked 'async'");
            }
            self.bump();
            result_types.push(token);
        }
        let deps = if self.is(Tok::LSquare) {
            self.bracketed_value_uses()?
        } else {
            Vec::new()
        };
        let mut operands = Vec::new();
        for u in &deps {
            operands.push(self.resolve_use(*u, token)?);
        }
        let cluster = if self.is_kw("clusters") {
            self.bump();
            Some(self.size_assignment()?)
        } else {
            None
        };
        self.expect_kw("blocks")?;
        let blocks = self.size_assignment()?;
        self.expect_kw("threads")?;
        let threads = self.size_assignment()?;
        let index = self.m.ctx.intern_type(TypeData::Index);
        let mut sizes: Vec<Use<'a>> = blocks[2].iter().chain(&threads[2]).copied().collect();
        if let Some(c) = &cluster {
            sizes.extend(c[2].iter().copied());
        }
        for u in &sizes {
            operands.push(self.resolve_use(*u, index)?);
        }
        let mut dynamic_smem = false;
        if self.is_kw("dynamic_shared_memory_size") {
            self.bump();
            let u = self.parse_value_use()?;
            let i32t = self.m.ctx.intern_type(TypeData::signless(32));
            operands.push(self.resolve_use(u, i32t)?);
            dynamic_smem = true;
        }
        for kw in ["module", "function", "workgroup", "private"] {
            if self.is_kw(kw) {
                return self.unsupported(syn, self.tok.start, &format!("`{kw}(…)` of gpu.launch"));
            }
        }
        let arg = |u: &Use<'a>| EntryArg {
            name: u.0,
            at: u.2,
            ty: index,
            loc: None,
        };
        let mut entry: Vec<EntryArg<'a>> = Vec::new();
        for group in [&blocks[0], &threads[0], &blocks[1], &threads[1]] {
            entry.extend(group.iter().map(arg));
        }
        if let Some(c) = &cluster {
            entry.extend(c[0].iter().map(arg));
            entry.extend(c[1].iter().map(arg));
        }
        let region = self.m.new_region();
        self.parse_region_into(region, &entry)?;
        // `workgroup_attributions` (0: none are ported) is added as a
        // discardable attribute, as MLIR adds it.
        let mut entries = match self.optional_attr_dict()? {
            Some(d) => match self.m.ctx.attr(d) {
                AttrData::Dictionary(e) => e.clone(),
                _ => Vec::new(),
            },
            None => Vec::new(),
        };
        let i64t = self.m.ctx.intern_type(TypeData::signless(64));
        let zero = self.m.ctx.intern_attr(AttrData::Integer {
            ty: i64t,
            value: BigInt::from(0),
        });
        entries.push((b"workgroup_attributions"[..].into(), zero));
        let attrs = Some(self.m.ctx.intern_attr(AttrData::Dictionary(entries)));
        let c = usize::from(cluster.is_some());
        let segments = self.segment_sizes(
            &[
                deps.len(),
                1,
                1,
                1,
                1,
                1,
                1,
                c,
                c,
                c,
                usize::from(dynamic_smem),
            ],
            name_at,
        )?;
        self.finish_hand_written(
            syn,
            &operands,
            &result_types,
            vec![(b"operandSegmentSizes"[..].into(), segments)],
            attrs,
            vec![region],
            name_at,
            results_start,
        )
    }
}

impl<'a> Parser<'a> {
    /// The payload type of an `!async.value<T>`.
    pub(super) fn async_value_payload(&mut self, t: TypeId, at: usize) -> Result<Option<TypeId>> {
        let TypeData::Dialect(body) = self.m.ctx.ty(t) else {
            return Ok(None);
        };
        if &*body.dialect != "async" {
            return Ok(None);
        }
        match &body.pieces[..] {
            [BodyPiece::Text(open), BodyPiece::Type(inner), BodyPiece::Text(close)]
                if open.trim() == "value<" && close.trim() == ">" =>
            {
                Ok(Some(*inner))
            }
            [BodyPiece::Text(text)] => match text
                .strip_prefix("value")
                .map(str::trim_start)
                .and_then(|r| r.strip_prefix('<'))
                .and_then(|r| r.strip_suffix('>'))
            {
                Some(inner) => {
                    let inner = inner.to_string();
                    Ok(Some(self.parse_type_text(&inner, at)?))
                }
                None => Ok(None),
            },
            _ => Ok(None),
        }
    }

    /// `async.execute ([deps])? ((%v as %u : !async.value<T>, …))? (->
    /// types)? (attributes {…})? region` (MLIR's `ExecuteOp::parse`): the
    /// first result is an `!async.token`, then one per declared type; each
    /// unwrapped value is an entry-block argument of the payload type.
    pub(super) fn parse_async_execute(
        &mut self,
        syn: &'static OpSyntax,
        name_at: usize,
        results_start: usize,
    ) -> Result<OpId> {
        let at = self.tok.start;
        let token = self.parse_type_text("!async.token", at)?;
        let mut operands = Vec::new();
        let mut deps = 0;
        if self.is(Tok::LSquare) {
            for u in self.bracketed_value_uses()? {
                operands.push(self.resolve_use(u, token)?);
                deps += 1;
            }
        }
        let mut values = Vec::new();
        let mut entry = Vec::new();
        if self.is(Tok::LParen) {
            let mut parsed = Vec::new();
            self.comma_list(Tok::LParen, Tok::RParen, "'('", |p| {
                let v = p.parse_value_use()?;
                p.expect_kw("as")?;
                let u = p.parse_value_use()?;
                let loc = p.optional_trailing_loc()?;
                p.expect(Tok::Colon, "':'")?;
                let ty_at = p.tok.start;
                let ty = p.parse_type()?;
                parsed.push((v, u, loc, ty, ty_at));
                Ok(())
            })?;
            for (v, u, loc, ty, ty_at) in parsed {
                let Some(payload) = self.async_value_payload(ty, ty_at)? else {
                    return self.unsupported(
                        syn,
                        ty_at,
                        "an operand that is not an `!async.value`",
                    );
                };
                values.push(self.resolve_use(v, ty)?);
                entry.push(EntryArg {
                    name: u.0,
                    at: u.2,
                    ty: payload,
                    loc,
                });
            }
        }
        let num_values = values.len();
        operands.extend(values);
        let mut result_types = vec![token];
        if self.eat(Tok::Arrow) {
            result_types.extend(self.arrow_type_list_rest()?);
        }
        let attrs = self.optional_attr_dict_with_keyword()?;
        let region = self.m.new_region();
        self.parse_region_into(region, &entry)?;
        let sizes = self.segment_sizes(&[deps, num_values], name_at)?;
        self.finish_hand_written(
            syn,
            &operands,
            &result_types,
            vec![(b"operandSegmentSizes"[..].into(), sizes)],
            attrs,
            vec![region],
            name_at,
            results_start,
        )
    }
}

/// The shape and scalable flags of a transfer's mask (MLIR's
/// `inferTransferOpMaskType`): the vector's sizes through the inverse of
/// the permutation map with its unused dimensions dropped
/// (`inversePermutation(compressUnusedDims(map))`), a 0-D mask made 1-D.
/// `None` for a map whose results are not dimensions or constants.
fn transfer_mask_shape(
    map: &rmlir_format::affine::AffineMap,
    vshape: &[i64],
    scalable: &[bool],
) -> Option<(Vec<i64>, Vec<bool>)> {
    use rmlir_format::affine::AffineExpr;
    let mut used: Vec<u32> = Vec::new();
    for r in &map.results {
        match r {
            AffineExpr::Dim(d) => used.push(*d),
            AffineExpr::Constant(_) => {}
            _ => return None,
        }
    }
    used.sort_unstable();
    used.dedup();
    // The inverse: for each (compressed) dimension, the first result
    // position that is that dimension.
    let mut inverse: Vec<Option<usize>> = vec![None; used.len()];
    for (i, r) in map.results.iter().enumerate() {
        if let AffineExpr::Dim(d) = r {
            let k = used.binary_search(d).ok()?;
            inverse[k].get_or_insert(i);
        }
    }
    let mut shape = Vec::with_capacity(inverse.len());
    let mut flags = Vec::with_capacity(inverse.len());
    for i in inverse {
        let i = i?;
        shape.push(*vshape.get(i)?);
        flags.push(scalable.get(i).copied().unwrap_or(false));
    }
    if shape.is_empty() {
        shape.push(1);
        flags.push(false);
    }
    if !flags.iter().any(|&f| f) {
        flags.clear();
    }
    Some((shape, flags))
}
