//! The linalg dialect's structured ops (MLIR's `LinalgOps.cpp`):
//! `linalg.generic`, whose body is written out, and the named ops, whose
//! body the parser builds from the operands' element types, as each op's
//! `regionBuilder` does (SPEC.md §11.2).

use super::*;

/// A binary function of linalg's OpDSL (`BinaryFn`), built as the arith or
/// complex op its operands' type class calls for.
#[derive(Clone, Copy, Debug)]
enum BinaryFn {
    Add,
    Sub,
    Mul,
    Div,
    MaxSigned,
    MinSigned,
}

/// A unary function of linalg's OpDSL (`UnaryFn`): floating point only.
#[derive(Clone, Copy, Debug)]
enum UnaryFn {
    Exp,
    Log,
    Abs,
    Ceil,
    Floor,
    NegF,
}

/// What a named op's body computes from its block arguments (one per
/// input, then one per output, each the operand's element type).
#[derive(Clone, Copy, Debug)]
enum Body {
    /// `yield %in` (`linalg.fill`, `linalg.copy`).
    Copy,
    /// `yield %out + %in0 * %in1` (contractions).
    MulAdd,
    /// `yield f(%in0, %in1)` (elementwise binary ops).
    Binary(BinaryFn),
    /// `yield f(%in0)` (elementwise unary ops).
    Unary(UnaryFn),
}

/// The named structured ops whose bodies are ported, with the indexing
/// maps their parser sets when the text gives none (MLIR 22's
/// `getDefaultIndexingMaps`, for the ops that keep them as a property).
///
/// Convolutions, poolings, `dot`, `matvec` and the other ops of linalg's
/// OpDSL whose maps are not the identity are not here: mlir-opt's verifier
/// memoizes their indexing maps on the op as the discardable attribute
/// `linalg.memoized_indexing_maps` (with the strides and dilations folded
/// in), which needs OpDSL's maps as data; they are refused until then.
const NAMED_STRUCTURED: &[(&str, Body, Option<&str>)] = &[
    ("linalg.fill", Body::Copy, None),
    ("linalg.copy", Body::Copy, None),
    (
        "linalg.matmul",
        Body::MulAdd,
        Some(
            "[affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, \
             affine_map<(d0, d1, d2) -> (d0, d1)>]",
        ),
    ),
    (
        "linalg.batch_matmul",
        Body::MulAdd,
        Some(
            "[affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, \
             affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, \
             affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]",
        ),
    ),
    ("linalg.add", Body::Binary(BinaryFn::Add), None),
    ("linalg.sub", Body::Binary(BinaryFn::Sub), None),
    ("linalg.mul", Body::Binary(BinaryFn::Mul), None),
    ("linalg.div", Body::Binary(BinaryFn::Div), None),
    ("linalg.max", Body::Binary(BinaryFn::MaxSigned), None),
    ("linalg.min", Body::Binary(BinaryFn::MinSigned), None),
    ("linalg.exp", Body::Unary(UnaryFn::Exp), None),
    ("linalg.log", Body::Unary(UnaryFn::Log), None),
    ("linalg.abs", Body::Unary(UnaryFn::Abs), None),
    ("linalg.ceil", Body::Unary(UnaryFn::Ceil), None),
    ("linalg.floor", Body::Unary(UnaryFn::Floor), None),
    ("linalg.negf", Body::Unary(UnaryFn::NegF), None),
];

/// Whether `name` is a named structured op whose body is ported.
pub(super) fn is_named_structured(name: &str) -> bool {
    // Asked of every op without a hand-written parser: most are not linalg.
    name.starts_with("linalg.") && NAMED_STRUCTURED.iter().any(|(n, ..)| *n == name)
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
}

impl<'a> Parser<'a> {
    /// `<{props}>? attr-dict? (ins(%a, … : types))? (outs(%b, … : types))?`
    /// (MLIR's `parseCommonStructuredOpParts`): the operands, resolved
    /// inputs first, their types, and the dictionaries read.
    fn structured_parts(&mut self) -> Result<StructuredParts> {
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
            let mut uses = Vec::new();
            if self.is(Tok::PercentId) {
                uses.push(self.parse_value_use()?);
                while self.eat(Tok::Comma) {
                    uses.push(self.parse_value_use()?);
                }
            }
            self.expect(Tok::Colon, "':'")?;
            let mut types = vec![self.parse_type()?];
            while self.eat(Tok::Comma) {
                types.push(self.parse_type()?);
            }
            self.expect(Tok::RParen, "')'")?;
            groups[i] = (uses, types, at);
        }
        let mut operands = Vec::new();
        for (uses, types, at) in &groups {
            self.resolve_operands(uses, types, *at, &mut operands)?;
        }
        let [(ins, in_types, _), (outs, out_types, _)] = groups;
        let sizes = self.segment_sizes(&[ins.len(), outs.len()], self.tok.start)?;
        props.push((b"operandSegmentSizes"[..].into(), sizes));
        Ok(StructuredParts {
            operands,
            in_types,
            out_types,
            entries: props,
            prop_dict,
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
        let parts = self.structured_parts()?;
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
        let result_types = if self.eat(Tok::Arrow) {
            self.arrow_type_list_rest()?
        } else {
            Vec::new()
        };
        self.finish_structured(
            syn,
            &parts.operands,
            &result_types,
            entries,
            parts.prop_dict,
            region,
            name_at,
            results_start,
        )
    }

    /// A named structured op (MLIR's `parseNamedStructuredOp`, and
    /// `MatmulOp::parse` and its siblings for `indexing_maps = […]`): the
    /// common parts, `-> types`, and the body its region builder makes.
    pub(super) fn parse_named_structured(
        &mut self,
        syn: &'static OpSyntax,
        name_at: usize,
        results_start: usize,
    ) -> Result<OpId> {
        let Some(&(_, body, default_maps)) = NAMED_STRUCTURED.iter().find(|(n, ..)| *n == syn.name)
        else {
            return self.unsupported(syn, name_at, "its body builder is not ported");
        };
        let mut entries = Vec::new();
        if default_maps.is_some() && self.is_kw("indexing_maps") {
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
        } else if let Some(text) = default_maps {
            let maps = self.parse_attr_text(text, name_at)?;
            entries.push((b"indexing_maps"[..].into(), maps));
        }
        let parts = self.structured_parts()?;
        entries.extend(parts.entries);
        let result_types = if self.eat(Tok::Arrow) {
            self.arrow_type_list_rest()?
        } else {
            Vec::new()
        };
        let region = self.structured_body(syn, body, &parts.in_types, &parts.out_types, name_at)?;
        self.finish_structured(
            syn,
            &parts.operands,
            &result_types,
            entries,
            parts.prop_dict,
            region,
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
        name_at: usize,
        results_start: usize,
    ) -> Result<OpId> {
        let dict = self.m.ctx.intern_attr(AttrData::Dictionary(entries));
        let name = self.m.op_names.intern(syn.name.as_bytes());
        let (properties, attributes) =
            self.split_properties(syn.name.as_bytes(), Vec::new(), Some(dict), prop_dict);
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

    /// The body a named op's region builder makes: a block with an
    /// argument per operand (its element type), the ops of `body`, all at
    /// an unknown location (MLIR's `fillStructuredOpRegion`). Operands of
    /// different element types need the builders' casts, which are not
    /// ported: such an op is refused.
    fn structured_body(
        &mut self,
        syn: &'static OpSyntax,
        body: Body,
        in_types: &[TypeId],
        out_types: &[TypeId],
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
        let ty = |p: &Self, v: ValueId| p.m.value(v).ty;
        let Some(&out) = args.get(in_types.len()) else {
            return self.unsupported(syn, name_at, "a structured op without an output");
        };
        let out_ty = ty(self, out);
        let needed = match body {
            Body::Copy | Body::Unary(_) => 1,
            Body::MulAdd | Body::Binary(_) => 2,
        };
        if in_types.len() < needed {
            return self.unsupported(syn, name_at, "fewer inputs than its body uses");
        }
        if args[..needed].iter().any(|&v| ty(self, v) != out_ty) {
            return self.unsupported(
                syn,
                name_at,
                "operands of different element types: the body's casts are not ported",
            );
        }
        let value = match body {
            Body::Copy => args[0],
            Body::MulAdd => {
                let m = self.body_binary(syn, block, BinaryFn::Mul, args[0], args[1], name_at)?;
                self.body_binary(syn, block, BinaryFn::Add, out, m, name_at)?
            }
            Body::Binary(f) => self.body_binary(syn, block, f, args[0], args[1], name_at)?,
            Body::Unary(f) => {
                if self.class(out_ty) != Some(Class::Float) {
                    return self.unsupported(syn, name_at, "a unary function of a non-float");
                }
                let op = match f {
                    UnaryFn::Exp => "math.exp",
                    UnaryFn::Log => "math.log",
                    UnaryFn::Abs => "math.absf",
                    UnaryFn::Ceil => "math.ceil",
                    UnaryFn::Floor => "math.floor",
                    UnaryFn::NegF => "arith.negf",
                };
                self.body_op(block, op, &[args[0]], Some(out_ty), name_at)?
                    .expect("one result")
            }
        };
        let term = syn.implicit_terminator().unwrap_or("linalg.yield");
        self.body_op(block, term, &[value], None, name_at)?;
        Ok(region)
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

    /// MLIR's `RegionBuilderHelper::buildBinaryFn` on two values of one type.
    fn body_binary(
        &mut self,
        syn: &'static OpSyntax,
        block: BlockId,
        f: BinaryFn,
        lhs: ValueId,
        rhs: ValueId,
        name_at: usize,
    ) -> Result<ValueId> {
        let t = self.m.value(lhs).ty;
        let Some(class) = self.class(t) else {
            return self.unsupported(syn, name_at, "a body over a non-numeric type");
        };
        use BinaryFn::*;
        use Class::*;
        let op = match (f, class) {
            (Add, Complex) => "complex.add",
            (Add, Float) => "arith.addf",
            (Add, Bool) => "arith.ori",
            (Add, Integer) => "arith.addi",
            (Sub, Complex) => "complex.sub",
            (Sub, Float) => "arith.subf",
            (Sub, Integer) => "arith.subi",
            (Mul, Complex) => "complex.mul",
            (Mul, Float) => "arith.mulf",
            (Mul, Bool) => "arith.andi",
            (Mul, Integer) => "arith.muli",
            (Div, Complex) => "complex.div",
            (Div, Float) => "arith.divf",
            (Div, Integer) => "arith.divsi",
            (MaxSigned, Float) => "arith.maximumf",
            (MinSigned, Float) => "arith.minimumf",
            (MaxSigned, Integer | Bool) => "arith.maxsi",
            (MinSigned, Integer | Bool) => "arith.minsi",
            _ => {
                return self.unsupported(
                    syn,
                    name_at,
                    &format!("{f:?} of this element type has no op in the body builder"),
                )
            }
        };
        Ok(self
            .body_op(block, op, &[lhs, rhs], Some(t), name_at)?
            .expect("one result"))
    }

    /// Appends `name(operands)` to `block` at an unknown location, with
    /// the op's default properties; its result, if it has one.
    fn body_op(
        &mut self,
        block: BlockId,
        name: &str,
        operands: &[ValueId],
        result: Option<TypeId>,
        name_at: usize,
    ) -> Result<Option<ValueId>> {
        let id = self.m.op_names.intern(name.as_bytes());
        let props = self.with_default_properties(id, None, name_at)?;
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
