//! Ops whose custom syntax is a hand-written C++ parser, ported one by one
//! (SPEC.md §11.2): the parsers `HAND_WRITTEN` names.

use super::*;

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

        // Arguments: `%name: type {attrs}? loc(…)?` or `type {attrs}?`.
        let mut args: Vec<(Option<Use<'a>>, TypeId, AttrId, Option<AttrId>)> = Vec::new();
        self.comma_list(
            Tok::LParen,
            Tok::RParen,
            "'(' to begin the arguments",
            |p| {
                let named = if p.is(Tok::PercentId) {
                    let u = p.parse_value_use()?;
                    p.expect(Tok::Colon, "':' and the argument's type")?;
                    Some(u)
                } else {
                    None
                };
                let ty = p.parse_type()?;
                let attrs = if p.is(Tok::LBrace) {
                    p.parse_dictionary()?
                } else {
                    p.empty_dict
                };
                let loc = if p.is_kw("loc") {
                    p.bump();
                    p.expect(Tok::LParen, "'(' in inline location")?;
                    let l = p.parse_location_instance()?;
                    p.expect(Tok::RParen, "')' in inline location")?;
                    Some(l)
                } else {
                    None
                };
                args.push((named, ty, attrs, loc));
                Ok(())
            },
        )?;
        let named = args.iter().filter(|a| a.0.is_some()).count();
        if named != 0 && named != args.len() {
            return self.err("expected SSA identifier for every argument or none");
        }
        // Results: `-> type` or `-> (type {attrs}?, …)`.
        let mut results: Vec<(TypeId, AttrId)> = Vec::new();
        if self.eat(Tok::Arrow) {
            if self.is(Tok::LParen) {
                self.comma_list(Tok::LParen, Tok::RParen, "'('", |p| {
                    let ty = p.parse_type()?;
                    let attrs = if p.is(Tok::LBrace) {
                        p.parse_dictionary()?
                    } else {
                        p.empty_dict
                    };
                    results.push((ty, attrs));
                    Ok(())
                })?;
            } else {
                let ty = self.parse_type()?;
                results.push((ty, self.empty_dict));
            }
        }
        let fty = self.m.ctx.intern_type(TypeData::Function {
            inputs: args.iter().map(|a| a.1).collect(),
            results: results.iter().map(|r| r.0).collect(),
        });
        let a = self.m.ctx.intern_attr(AttrData::Type(fty));
        props.push((b"function_type"[..].into(), a));
        let empty = self.empty_dict;
        if args.iter().any(|a| a.2 != empty) {
            let list = args.iter().map(|a| a.2).collect();
            let a = self.m.ctx.intern_attr(AttrData::Array(list));
            props.push((b"arg_attrs"[..].into(), a));
        }
        if results.iter().any(|r| r.1 != empty) {
            let list = results.iter().map(|r| r.1).collect();
            let a = self.m.ctx.intern_attr(AttrData::Array(list));
            props.push((b"res_attrs"[..].into(), a));
        }
        let attrs = if self.is_kw("attributes") {
            self.bump();
            Some(self.parse_dictionary()?)
        } else {
            None
        };
        let region = self.m.new_region();
        if self.is(Tok::LBrace) {
            // Unnamed arguments: the body names them in its entry block's
            // label, if it has one.
            let entry: Vec<EntryArg<'a>> = args
                .iter()
                .filter_map(|a| {
                    let (name, _, at) = a.0?;
                    Some(EntryArg {
                        name,
                        at,
                        ty: a.1,
                        loc: a.3,
                    })
                })
                .collect();
            self.parse_region_into(region, &entry)?;
        }
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
            operands.push(self.resolve_value_use(u.0, u.1, u.2, ty)?);
        }
        for (u, t) in inits.iter().zip(&result_types) {
            operands.push(self.resolve_value_use(u.0, u.1, u.2, *t)?);
        }
        let attrs = self
            .is(Tok::LBrace)
            .then(|| self.parse_dictionary())
            .transpose()?;
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
        let cond = self.resolve_value_use(cond.0, cond.1, cond.2, i1)?;
        let result_types = if self.eat(Tok::Arrow) {
            self.arrow_type_list_rest()?
        } else {
            Vec::new()
        };
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
        let attrs = self
            .is(Tok::LBrace)
            .then(|| self.parse_dictionary())
            .transpose()?;
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

    /// After `->`: one type, or a parenthesized list of them.
    fn arrow_type_list_rest(&mut self) -> Result<Vec<TypeId>> {
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
    fn finish_hand_written(
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
        let name = self.m.op_names.intern(syn.name.as_bytes());
        let (properties, attributes) =
            self.split_properties(syn.name.as_bytes(), props, attrs, None);
        let properties = self.with_default_properties(name, properties, name_at)?;
        self.finish_custom_op(
            name,
            operands,
            result_types,
            Vec::new(),
            properties,
            attributes,
            regions,
            name_at,
            results_start,
        )
    }
}
