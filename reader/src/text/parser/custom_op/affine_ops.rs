//! The affine dialect's hand-written parsers (MLIR's `AffineOps.cpp`):
//! loops and conditionals whose bounds are affine maps applied to SSA
//! values, and accesses whose subscripts are affine expressions of SSA
//! values written in place (SPEC.md §11.2).

use super::*;
use crate::affine_parser::{parse_affine_expr_of_ssa_ids, parse_affine_map_of_ssa_ids};
use rmlir_format::affine::{AffineExpr, AffineMap};

impl<'a> Parser<'a> {
    /// `[%i + 3, symbol(%n)]` (or in parentheses): the map, and its
    /// operands, dimensions first (MLIR's `parseAffineMapOfSSAIds`).
    fn affine_map_of_ssa_ids(&mut self, square: bool) -> Result<(AttrId, Vec<Use<'a>>)> {
        let base = self.tok.start;
        let parsed = parse_affine_map_of_ssa_ids(&self.src[base..], square).map_err(|e| {
            Error::new(ErrorKind::Syntax, e.message, self.position(base + e.offset))
        })?;
        let mut uses = Vec::with_capacity(parsed.dims.len() + parsed.symbols.len());
        for &at in parsed.dims.iter().chain(&parsed.symbols) {
            self.reset_to(base + at);
            uses.push(self.parse_value_use()?);
        }
        self.reset_to(base + parsed.consumed);
        let map = self.m.ctx.intern_attr(AttrData::AffineMap(parsed.map));
        Ok((map, uses))
    }

    /// `(%d, …)[%s, …]`: dimension operands in parentheses, then optional
    /// symbol operands in brackets (MLIR's `parseDimAndSymbolList`).
    fn dim_and_symbol_list(&mut self) -> Result<(Vec<Use<'a>>, usize)> {
        let mut uses = self.paren_value_uses()?;
        let dims = uses.len();
        if self.is(Tok::LSquare) {
            uses.extend(self.bracketed_value_uses()?);
        }
        Ok((uses, dims))
    }

    /// An `affine.for` bound: `%v` (the map `()[s0] -> (s0)`), an integer
    /// (a constant map), or `max`/`min`, an affine map and its dimension
    /// and symbol operands (MLIR's `parseBound`).
    fn affine_bound(&mut self, lower: bool) -> Result<(AttrId, Vec<ValueId>)> {
        let min_max = self.is_kw(if lower { "max" } else { "min" });
        if min_max {
            self.bump();
        }
        let index = self.m.ctx.intern_type(TypeData::Index);
        if self.is(Tok::PercentId) {
            let u = self.parse_value_use()?;
            if self.is(Tok::Comma) {
                return self.err("expected only one loop bound operand");
            }
            let v = self.resolve_use(u, index)?;
            let map = self.m.ctx.intern_attr(AttrData::AffineMap(AffineMap {
                num_dims: 0,
                num_symbols: 1,
                results: vec![AffineExpr::Symbol(0)],
            }));
            return Ok((map, vec![v]));
        }
        let at = self.tok.start;
        let attr = self.parse_attr(Some(index))?;
        match self.m.ctx.attr(attr) {
            AttrData::AffineMap(m) => {
                let (num_dims, num_inputs, num_results) = (
                    m.num_dims as usize,
                    (m.num_dims + m.num_symbols) as usize,
                    m.results.len(),
                );
                let (uses, dims) = self.dim_and_symbol_list()?;
                if dims != num_dims {
                    return self
                        .sem_err_at(at, "dim operand count and affine map dim count must match");
                }
                if uses.len() != num_inputs {
                    return self.sem_err_at(
                        at,
                        "symbol operand count and affine map symbol count must match",
                    );
                }
                if num_results > 1 && !min_max {
                    return self.sem_err_at(
                        at,
                        if lower {
                            "lower loop bound affine map with multiple results requires 'max' prefix"
                        } else {
                            "upper loop bound affine map with multiple results requires 'min' prefix"
                        },
                    );
                }
                let mut operands = Vec::with_capacity(uses.len());
                for u in uses {
                    operands.push(self.resolve_use(u, index)?);
                }
                Ok((attr, operands))
            }
            AttrData::Integer { value, .. } => {
                let Ok(c) = i64::try_from(value) else {
                    return self.sem_err_at(at, "loop bound out of range");
                };
                let map = self.m.ctx.intern_attr(AttrData::AffineMap(AffineMap {
                    num_dims: 0,
                    num_symbols: 0,
                    results: vec![AffineExpr::Constant(c)],
                }));
                Ok((map, Vec::new()))
            }
            _ => self.sem_err_at(
                at,
                "expected valid affine map representation for loop bounds",
            ),
        }
    }

    /// `affine.for %iv = lower to upper (step N)? (iter_args(%a = %init,
    /// …) -> types)? region attr-dict?` (MLIR's `AffineForOp::parse`).
    pub(super) fn parse_affine_for(
        &mut self,
        syn: &'static OpSyntax,
        name_at: usize,
        results_start: usize,
    ) -> Result<OpId> {
        let iv = self.parse_value_use()?;
        let iv_loc = self.optional_trailing_loc()?;
        self.expect(Tok::Equal, "'='")?;
        let (lower, mut operands) = self.affine_bound(true)?;
        let num_lower = operands.len();
        if !self.is_kw("to") {
            return self.err("expected 'to' between bounds");
        }
        self.bump();
        let (upper, upper_operands) = self.affine_bound(false)?;
        let num_upper = upper_operands.len();
        operands.extend(upper_operands);
        let step_at = self.tok.start;
        let step = if self.is_kw("step") {
            self.bump();
            let at = self.tok.start;
            let index = self.m.ctx.intern_type(TypeData::Index);
            let step = self.parse_attr(Some(index))?;
            match self.m.ctx.attr(step) {
                AttrData::Integer { value, .. } if value.sign() == num_bigint::Sign::Minus => {
                    return self.sem_err_at(
                        at,
                        "expected step to be representable as a positive signed integer",
                    );
                }
                AttrData::Integer { .. } => step,
                _ => return self.sem_err_at(at, "expected an integer step"),
            }
        } else {
            self.parse_attr_text("1 : index", step_at)?
        };
        let index = self.m.ctx.intern_type(TypeData::Index);
        let mut entry = vec![EntryArg {
            name: iv.0,
            at: iv.2,
            ty: index,
            loc: iv_loc,
        }];
        let mut result_types = Vec::new();
        let mut num_inits = 0;
        if self.is_kw("iter_args") {
            self.bump();
            let mut args = Vec::new();
            let mut inits = Vec::new();
            self.comma_list(Tok::LParen, Tok::RParen, "'('", |p| {
                args.push((p.parse_value_use()?, p.optional_trailing_loc()?));
                p.expect(Tok::Equal, "'='")?;
                inits.push(p.parse_value_use()?);
                Ok(())
            })?;
            self.expect(Tok::Arrow, "'->' and the result types")?;
            result_types = self.arrow_type_list_rest()?;
            for (((a, loc), u), t) in args.iter().zip(&inits).zip(&result_types) {
                entry.push(EntryArg {
                    name: a.0,
                    at: a.2,
                    ty: *t,
                    loc: *loc,
                });
                operands.push(self.resolve_use(*u, *t)?);
            }
            num_inits = inits.len();
            if args.len() != result_types.len() {
                return self.sem_err_at(
                    name_at,
                    "mismatch between the number of loop-carried values and results",
                );
            }
        }
        let sizes = self.segment_sizes(&[num_lower, num_upper, num_inits], name_at)?;
        let region = self.m.new_region();
        self.parse_region_into(region, &entry)?;
        if let Some(term) = syn.implicit_terminator() {
            self.ensure_terminator(region, term, name_at)?;
        }
        let attrs = self.optional_attr_dict()?;
        self.finish_hand_written(
            syn,
            &operands,
            &result_types,
            vec![
                (b"lowerBoundMap"[..].into(), lower),
                (b"upperBoundMap"[..].into(), upper),
                (b"step"[..].into(), step),
                (b"operandSegmentSizes"[..].into(), sizes),
            ],
            attrs,
            vec![region],
            name_at,
            results_start,
        )
    }

    /// `affine.if #set(%dims)[%symbols] (-> types)? region (else region)?
    /// attr-dict?` (MLIR's `AffineIfOp::parse`).
    pub(super) fn parse_affine_if(
        &mut self,
        syn: &'static OpSyntax,
        name_at: usize,
        results_start: usize,
    ) -> Result<OpId> {
        let at = self.tok.start;
        let set = self.parse_attr(None)?;
        let (set_dims, set_inputs) = match self.m.ctx.attr(set) {
            AttrData::IntegerSet(s) => (s.num_dims as usize, (s.num_dims + s.num_symbols) as usize),
            _ => return self.sem_err_at(at, "expected an integer set"),
        };
        let (uses, dims) = self.dim_and_symbol_list()?;
        if dims != set_dims {
            return self.sem_err_at(at, "dim operand count and integer set dim count must match");
        }
        if uses.len() != set_inputs {
            return self.sem_err_at(
                at,
                "symbol operand count and integer set symbol count must match",
            );
        }
        let index = self.m.ctx.intern_type(TypeData::Index);
        let mut operands = Vec::with_capacity(uses.len());
        for u in uses {
            operands.push(self.resolve_use(u, index)?);
        }
        let result_types = self.optional_arrow_type_list()?;
        let term = syn.implicit_terminator();
        let then = self.parse_region()?;
        if let Some(term) = term {
            self.ensure_terminator(then, term, name_at)?;
        }
        let otherwise = if self.is_kw("else") {
            self.bump();
            let r = self.parse_region()?;
            if let Some(term) = term {
                self.ensure_terminator(r, term, name_at)?;
            }
            r
        } else {
            self.m.new_region()
        };
        let attrs = self.optional_attr_dict()?;
        self.finish_hand_written(
            syn,
            &operands,
            &result_types,
            vec![(b"condition"[..].into(), set)],
            attrs,
            vec![then, otherwise],
            name_at,
            results_start,
        )
    }

    /// `affine.load %memref[subscripts] attr-dict? : memref type` and
    /// `affine.vector_load` (`…, vector type`), and the stores,
    /// `affine.store %value, %memref[subscripts] attr-dict? : memref type`
    /// and `affine.vector_store` (MLIR's `AffineLoadOp::parse` and its
    /// siblings). A scalar load's result is the memref's element type.
    pub(super) fn parse_affine_access(
        &mut self,
        syn: &'static OpSyntax,
        name_at: usize,
        results_start: usize,
        store: bool,
        vector: bool,
    ) -> Result<OpId> {
        let value = if store {
            let v = self.parse_value_use()?;
            self.expect(Tok::Comma, "','")?;
            Some(v)
        } else {
            None
        };
        let memref = self.parse_value_use()?;
        let (map, subscripts) = self.affine_map_of_ssa_ids(true)?;
        let attrs = self.optional_attr_dict()?;
        self.expect(Tok::Colon, "':'")?;
        let type_at = self.tok.start;
        let memref_ty = self.parse_type()?;
        let vector_ty = if vector {
            self.expect(Tok::Comma, "','")?;
            Some(self.parse_type()?)
        } else {
            None
        };
        let element = match self.m.ctx.ty(memref_ty) {
            TypeData::MemRef { elem, .. } => *elem,
            _ => return self.sem_err_at(type_at, "expected a memref type"),
        };
        let value_ty = vector_ty.unwrap_or(element);
        let mut operands = Vec::with_capacity(subscripts.len() + 2);
        if let Some(v) = value {
            operands.push(self.resolve_use(v, value_ty)?);
        }
        operands.push(self.resolve_use(memref, memref_ty)?);
        let index = self.m.ctx.intern_type(TypeData::Index);
        for u in subscripts {
            operands.push(self.resolve_use(u, index)?);
        }
        let results = if store { Vec::new() } else { vec![value_ty] };
        self.finish_hand_written(
            syn,
            &operands,
            &results,
            vec![(b"map"[..].into(), map)],
            attrs,
            Vec::new(),
            name_at,
            results_start,
        )
    }

    /// `affine.prefetch %memref[subscripts], read|write, locality<N>,
    /// data|instr attr-dict? : memref type` (MLIR's
    /// `AffinePrefetchOp::parse`): the subscripts are a map of SSA ids.
    pub(super) fn parse_affine_prefetch(
        &mut self,
        syn: &'static OpSyntax,
        name_at: usize,
        results_start: usize,
    ) -> Result<OpId> {
        let memref = self.parse_value_use()?;
        let (map, subscripts) = self.affine_map_of_ssa_ids(true)?;
        let clauses = self.prefetch_clauses()?;
        let attrs = self.optional_attr_dict()?;
        self.expect(Tok::Colon, "':'")?;
        let memref_ty = self.parse_type()?;
        let mut operands = Vec::with_capacity(subscripts.len() + 1);
        operands.push(self.resolve_use(memref, memref_ty)?);
        let index = self.m.ctx.intern_type(TypeData::Index);
        for u in subscripts {
            operands.push(self.resolve_use(u, index)?);
        }
        let mut props = self.prefetch_properties(clauses, name_at)?;
        props.push((b"map"[..].into(), map));
        self.finish_hand_written(
            syn,
            &operands,
            &[],
            props,
            attrs,
            Vec::new(),
            name_at,
            results_start,
        )
    }

    /// `affine.parallel`'s bounds: `(e, max(m), …)` for the lower ones,
    /// `min` for the upper (MLIR's `parseAffineMapWithMinMax`): one map of
    /// all the expressions, their operands deduplicated (dimensions, then
    /// symbols, each in order of first use), and how many results each
    /// bound has.
    fn affine_parallel_bounds(
        &mut self,
        lower: bool,
    ) -> Result<(AffineMap, Vec<i32>, Vec<ValueId>)> {
        self.expect(Tok::LParen, "'('")?;
        let mut exprs = Vec::new();
        let mut groups = Vec::new();
        // Each expression's own dimension and symbol operands.
        let mut flat: Vec<(Vec<Use<'a>>, Vec<Use<'a>>)> = Vec::new();
        if !self.eat(Tok::RParen) {
            loop {
                let base;
                let (results, dims, syms, consumed) = if self.is_kw(if lower {
                    "max"
                } else {
                    "min"
                }) {
                    self.bump();
                    base = self.tok.start;
                    let m = parse_affine_map_of_ssa_ids(&self.src[base..], false).map_err(|e| {
                        Error::new(ErrorKind::Syntax, e.message, self.position(base + e.offset))
                    })?;
                    (m.map.results, m.dims, m.symbols, m.consumed)
                } else {
                    base = self.tok.start;
                    let e = parse_affine_expr_of_ssa_ids(&self.src[base..]).map_err(|e| {
                        Error::new(ErrorKind::Syntax, e.message, self.position(base + e.offset))
                    })?;
                    (vec![e.expr], e.dims, e.symbols, e.consumed)
                };
                let read = |p: &mut Self, at: &[usize]| -> Result<Vec<Use<'a>>> {
                    at.iter()
                        .map(|&o| {
                            p.reset_to(base + o);
                            p.parse_value_use()
                        })
                        .collect()
                };
                let dims = read(self, &dims)?;
                let syms = read(self, &syms)?;
                self.reset_to(base + consumed);
                groups.push(results.len() as i32);
                for e in results {
                    exprs.push(e);
                    flat.push((dims.clone(), syms.clone()));
                }
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
            self.expect(Tok::RParen, "')'")?;
        }
        // Shift each expression past the ones before it, then map every
        // operand to the position of its value among the distinct ones.
        let index = self.m.ctx.intern_type(TypeData::Index);
        let (mut total_dims, mut total_syms) = (0u32, 0u32);
        let mut dim_values: Vec<ValueId> = Vec::new();
        let mut sym_values: Vec<ValueId> = Vec::new();
        let (mut dim_repl, mut sym_repl) = (Vec::new(), Vec::new());
        for (e, (dims, syms)) in exprs.iter_mut().zip(&flat) {
            let shift_d: Vec<AffineExpr> = (0..dims.len() as u32)
                .map(|i| AffineExpr::Dim(total_dims + i))
                .collect();
            let shift_s: Vec<AffineExpr> = (0..syms.len() as u32)
                .map(|i| AffineExpr::Symbol(total_syms + i))
                .collect();
            *e = e.replace_dims_and_symbols(&shift_d, &shift_s);
            total_dims += dims.len() as u32;
            total_syms += syms.len() as u32;
        }
        for (dims, syms) in &flat {
            for (uses, values, repl, is_dim) in [
                (dims, &mut dim_values, &mut dim_repl, true),
                (syms, &mut sym_values, &mut sym_repl, false),
            ] {
                for u in uses {
                    let v = self.resolve_use(*u, index)?;
                    let pos = match values.iter().position(|x| *x == v) {
                        Some(p) => p,
                        None => {
                            values.push(v);
                            values.len() - 1
                        }
                    } as u32;
                    repl.push(if is_dim {
                        AffineExpr::Dim(pos)
                    } else {
                        AffineExpr::Symbol(pos)
                    });
                }
            }
        }
        let results = exprs
            .iter()
            .map(|e| e.replace_dims_and_symbols(&dim_repl, &sym_repl))
            .collect();
        let map = AffineMap {
            num_dims: dim_values.len() as u32,
            num_symbols: sym_values.len() as u32,
            results,
        };
        let mut operands = dim_values;
        operands.extend(sym_values);
        Ok((map, groups, operands))
    }

    /// `affine.parallel (%i, …) = (lower bounds) to (upper bounds) (step
    /// (constants))? (reduce ("kind", …))? (-> types)? region attr-dict?`
    /// (MLIR's `AffineParallelOp::parse`): the reductions are
    /// `arith::AtomicRMWKind` cases as `i64`s, the steps an `i64` array.
    pub(super) fn parse_affine_parallel(
        &mut self,
        syn: &'static OpSyntax,
        name_at: usize,
        results_start: usize,
    ) -> Result<OpId> {
        let ivs = self.paren_value_uses()?;
        self.expect(Tok::Equal, "'='")?;
        let (lower, lower_groups, mut operands) = self.affine_parallel_bounds(true)?;
        self.expect_kw("to")?;
        let (upper, upper_groups, upper_operands) = self.affine_parallel_bounds(false)?;
        operands.extend(upper_operands);
        let i64t = self.m.ctx.intern_type(TypeData::signless(64));
        let int = |p: &mut Self, v: i64| {
            p.m.ctx.intern_attr(AttrData::Integer {
                ty: i64t,
                value: BigInt::from(v),
            })
        };
        let steps: Vec<i64> = if self.is_kw("step") {
            self.bump();
            let at = self.tok.start;
            let (map, uses) = self.affine_map_of_ssa_ids(false)?;
            let AttrData::AffineMap(m) = self.m.ctx.attr(map) else {
                return self.unsupported(syn, at, "its steps");
            };
            let constants: Option<Vec<i64>> =
                m.results.iter().map(AffineExpr::as_constant).collect();
            match constants {
                Some(c) if uses.is_empty() => c,
                _ => return self.sem_err_at(name_at, "steps must be constant integers"),
            }
        } else {
            vec![1; ivs.len()]
        };
        let steps: Vec<AttrId> = steps.into_iter().map(|v| int(self, v)).collect();
        let mut reductions = Vec::new();
        if self.is_kw("reduce") {
            self.bump();
            let Some(kinds) = self
                .op_syntax(b"memref.atomic_rmw")
                .and_then(|s| s.attrs.iter().find(|a| a.name == "kind"))
            else {
                return self.unsupported(syn, name_at, "its reductions");
            };
            self.comma_list(Tok::LParen, Tok::RParen, "'('", |p| {
                let at = p.tok.start;
                let text = lossy(&p.parse_string("a reduction kind")?);
                let Some((_, v)) = kinds.cases.iter().find(|(c, _)| *c == text) else {
                    return p.sem_err_at(at, format!("invalid reduction value: \"{text}\""));
                };
                reductions.push(int(p, *v));
                Ok(())
            })?;
        }
        let result_types = self.optional_arrow_type_list()?;
        let index = self.m.ctx.intern_type(TypeData::Index);
        let entry: Vec<EntryArg<'a>> = Self::entry_args(&ivs, &vec![index; ivs.len()]);
        let region = self.m.new_region();
        self.parse_region_into(region, &entry)?;
        let attrs = self.optional_attr_dict()?;
        if let Some(term) = syn.implicit_terminator() {
            self.ensure_terminator(region, term, name_at)?;
        }
        let groups_attr = |p: &mut Self, g: &[i32]| {
            let text = if g.is_empty() {
                "dense<> : tensor<0xi32>".to_string()
            } else {
                let list: Vec<String> = g.iter().map(i32::to_string).collect();
                format!("dense<[{}]> : tensor<{}xi32>", list.join(", "), g.len())
            };
            p.parse_attr_text(&text, name_at)
        };
        let lower_groups = groups_attr(self, &lower_groups)?;
        let upper_groups = groups_attr(self, &upper_groups)?;
        let props = vec![
            (b"lowerBoundsGroups"[..].into(), lower_groups),
            (
                b"lowerBoundsMap"[..].into(),
                self.m.ctx.intern_attr(AttrData::AffineMap(lower)),
            ),
            (
                b"reductions"[..].into(),
                self.m.ctx.intern_attr(AttrData::Array(reductions)),
            ),
            (
                b"steps"[..].into(),
                self.m.ctx.intern_attr(AttrData::Array(steps)),
            ),
            (b"upperBoundsGroups"[..].into(), upper_groups),
            (
                b"upperBoundsMap"[..].into(),
                self.m.ctx.intern_attr(AttrData::AffineMap(upper)),
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
