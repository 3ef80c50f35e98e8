//! The types a format leaves out, from the op's traits (SPEC.md §11.2).

use super::*;
use rmlir_format::op_format::catalog::TypeTransformer;

impl<'a> Parser<'a> {
    pub(super) fn infer_types(
        &mut self,
        syn: &OpSyntax,
        parts: &mut Parts<'a>,
        at: usize,
    ) -> Result<()> {
        // Buildable types.
        for (i, spec) in syn.operands.iter().enumerate() {
            if parts.operand_types[i].is_none() {
                if let Some(b) = spec.build.as_deref() {
                    let t = self.parse_type_text(b, at)?;
                    parts.operand_types[i] = Some(vec![t; parts.operands[i].len()]);
                }
            }
        }
        for (i, spec) in syn.results.iter().enumerate() {
            if parts.result_types[i].is_none() && spec.arity == Arity::Single {
                if let Some(b) = spec.build.as_deref() {
                    let t = self.parse_type_text(b, at)?;
                    parts.result_types[i] = Some(vec![t]);
                }
            }
        }
        // Matching types, until nothing changes.
        loop {
            let mut changed = false;
            let flags = syn.flags();
            if flags.same_operands_and_result_type {
                changed |= self.unify(syn, parts, &Tie::All);
            }
            if flags.same_type_operands {
                changed |= self.unify(syn, parts, &Tie::Operands);
            }
            for t in &syn.traits {
                match t {
                    Trait::AllTypesMatch { all_types_match } => {
                        changed |= self.unify(syn, parts, &Tie::Named(all_types_match));
                    }
                    Trait::TypesMatchWith { types_match_with }
                        if matches!(
                            types_match_with.kind(),
                            Some(
                                TypeTransformer::FunctionInputs | TypeTransformer::FunctionResults
                            )
                        ) =>
                    {
                        changed |= self.function_type_parts(syn, parts, types_match_with);
                    }
                    Trait::TypesMatchWith { types_match_with } => {
                        let lhs = self.named_type(syn, parts, &types_match_with.lhs);
                        let rhs_known = Self::named_is_set(syn, parts, &types_match_with.rhs);
                        if let (Some(l), false) = (lhs, rhs_known) {
                            if let Some(r) = self.transform_type(types_match_with.kind(), l) {
                                self.set_named(syn, parts, &types_match_with.rhs, r);
                                changed = true;
                            }
                        }
                    }
                    _ => {}
                }
            }
            if !changed {
                break;
            }
        }
        // Result types an op's C++ `inferReturnTypes` computes, ported.
        if parts.result_types.iter().any(Option::is_none) {
            if let Some((_, infer)) = INFERRED_RESULTS.iter().find(|(n, _)| *n == syn.name) {
                if let Some(types) = infer(self, syn, parts) {
                    for (slot, group) in parts.result_types.iter_mut().zip(types) {
                        slot.get_or_insert(group);
                    }
                }
            }
        }
        for (i, spec) in syn.operands.iter().enumerate() {
            if parts.operand_types[i].is_none() && !parts.operands[i].is_empty() {
                return self.unsupported(
                    syn,
                    at,
                    &format!("the type of operand '{}' is not inferred", spec.name),
                );
            }
        }
        for (i, spec) in syn.results.iter().enumerate() {
            // A variadic or optional group whose types the format reads
            // (in an optional group the text left out) has none, as the
            // generated parser adds the types it read; one the format never
            // types has its count no more known than its types.
            if parts.result_types[i].is_none()
                && spec.arity != Arity::Single
                && syn
                    .elements()
                    .and_then(|e| e.as_ref().ok())
                    .is_some_and(|e| types_result(e, i))
            {
                parts.result_types[i] = Some(Vec::new());
            }
            if parts.result_types[i].is_none() {
                return self.unsupported(
                    syn,
                    at,
                    &format!("the type of result '{}' is not inferred", spec.name),
                );
            }
        }
        Ok(())
    }

    /// A `TypesMatchWith` giving a variadic group the inputs or results of
    /// a function type: each value its own type. Whether anything changed.
    fn function_type_parts(
        &self,
        syn: &OpSyntax,
        parts: &mut Parts<'a>,
        tmw: &rmlir_format::op_format::catalog::TypesMatchWith,
    ) -> bool {
        let Some(f) = self.named_type(syn, parts, &tmw.lhs) else {
            return false;
        };
        let TypeData::Function { inputs, results } = self.m.ctx.ty(f) else {
            return false;
        };
        let list = if tmw.kind() == Some(TypeTransformer::FunctionInputs) {
            inputs.clone()
        } else {
            results.clone()
        };
        if let Some(i) = syn.operands.iter().position(|o| o.name == tmw.rhs) {
            // A count that differs is reported when the operands resolve.
            if parts.operand_types[i].is_none() && parts.operands[i].len() == list.len() {
                parts.operand_types[i] = Some(list);
                return true;
            }
        } else if let Some(i) = syn.results.iter().position(|o| o.name == tmw.rhs) {
            if parts.result_types[i].is_none() {
                parts.result_types[i] = Some(list);
                return true;
            }
        }
        false
    }

    /// The one type of the value or typed attribute named `name`, if known.
    fn named_type(&self, syn: &OpSyntax, parts: &Parts<'a>, name: &str) -> Option<TypeId> {
        if let Some(i) = syn.operands.iter().position(|o| o.name == name) {
            return parts.operand_types[i]
                .as_ref()
                .and_then(|v| v.first().copied());
        }
        if let Some(i) = syn.results.iter().position(|o| o.name == name) {
            return parts.result_types[i]
                .as_ref()
                .and_then(|v| v.first().copied());
        }
        if let Some(i) = syn.attrs.iter().position(|o| o.name == name) {
            return parts.attrs[i].and_then(|a| self.attr_type(a));
        }
        None
    }

    /// Whether the types of the values named `name` are known (or `name`
    /// names no value whose type could be set).
    fn named_is_set(syn: &OpSyntax, parts: &Parts<'a>, name: &str) -> bool {
        if let Some(i) = syn.operands.iter().position(|o| o.name == name) {
            return parts.operand_types[i].is_some();
        }
        if let Some(i) = syn.results.iter().position(|o| o.name == name) {
            return parts.result_types[i].is_some() || syn.results[i].arity != Arity::Single;
        }
        true
    }

    fn set_named(&self, syn: &OpSyntax, parts: &mut Parts<'a>, name: &str, t: TypeId) {
        if let Some(i) = syn.operands.iter().position(|o| o.name == name) {
            parts.operand_types[i] = Some(vec![t; parts.operands[i].len()]);
        } else if let Some(i) = syn.results.iter().position(|o| o.name == name) {
            if syn.results[i].arity == Arity::Single {
                parts.result_types[i] = Some(vec![t]);
            }
        }
    }

    pub(super) fn attr_type(&self, a: AttrId) -> Option<TypeId> {
        let data = self.m.ctx.attr(a);
        match data {
            AttrData::String { ty, .. } | AttrData::Dialect { ty, .. } => *ty,
            _ => data.value_type(),
        }
    }

    /// Gives every value `which` ties one type, if one of them has one;
    /// whether anything changed.
    fn unify(&self, syn: &OpSyntax, parts: &mut Parts<'a>, which: &Tie) -> bool {
        let mut known = None;
        for (i, o) in syn.operands.iter().enumerate() {
            if which.operand(&o.name) {
                if let Some(t) = parts.operand_types[i].as_ref().and_then(|v| v.first()) {
                    known = Some(*t);
                }
            }
        }
        for (i, o) in syn.results.iter().enumerate() {
            if which.result(&o.name) {
                if let Some(t) = parts.result_types[i].as_ref().and_then(|v| v.first()) {
                    known = known.or(Some(*t));
                }
            }
        }
        for (i, a) in syn.attrs.iter().enumerate() {
            if which.attr(&a.name) {
                if let Some(t) = parts.attrs[i].and_then(|a| self.attr_type(a)) {
                    known = known.or(Some(t));
                }
            }
        }
        let Some(t) = known else { return false };
        let mut changed = false;
        for (i, o) in syn.operands.iter().enumerate() {
            if which.operand(&o.name) && parts.operand_types[i].is_none() {
                parts.operand_types[i] = Some(vec![t; parts.operands[i].len()]);
                changed = true;
            }
        }
        for (i, o) in syn.results.iter().enumerate() {
            if which.result(&o.name) && parts.result_types[i].is_none() && o.arity == Arity::Single
            {
                parts.result_types[i] = Some(vec![t]);
                changed = true;
            }
        }
        changed
    }

    /// A `TypesMatchWith` transformer applied to `t`, where its meaning
    /// is known.
    fn transform_type(&mut self, kind: Option<TypeTransformer>, t: TypeId) -> Option<TypeId> {
        match kind? {
            TypeTransformer::Same => Some(t),
            TypeTransformer::ElementType => match self.m.ctx.ty(t) {
                // `cast<ComplexType>($_self).getElementType()`.
                TypeData::Complex(e) => Some(*e),
                ty => ty.element_type(),
            },
            TypeTransformer::FunctionInputs | TypeTransformer::FunctionResults => None,
            TypeTransformer::Pointee => {
                let at = self.tok.start;
                self.spirv_pointee(t, at).ok().flatten()
            }
            TypeTransformer::ValAndBoolStruct => {
                let inner = self.llvm_nested_type_text(t)?;
                let at = self.tok.start;
                self.parse_type_text(&format!("!llvm.struct<({inner}, i1)>"), at)
                    .ok()
            }
            TypeTransformer::SampledImageImage => {
                let at = self.tok.start;
                self.spirv_sampled_image_image(t, at).ok().flatten()
            }
            TypeTransformer::I1OfElementCount => {
                let i1 = self.m.ctx.intern_type(TypeData::signless(1));
                match self.m.ctx.ty(t) {
                    TypeData::Vector { shape, .. } => {
                        let n = shape.iter().product();
                        Some(self.m.ctx.intern_type(TypeData::Vector {
                            shape: vec![n],
                            scalable: Vec::new(),
                            elem: i1,
                        }))
                    }
                    _ => Some(i1),
                }
            }
            TypeTransformer::LastDimSixteen => match self.m.ctx.ty(t).clone() {
                TypeData::Vector {
                    mut shape,
                    scalable,
                    elem,
                } => {
                    *shape.last_mut()? = 16;
                    Some(self.m.ctx.intern_type(TypeData::Vector {
                        shape,
                        scalable,
                        elem,
                    }))
                }
                _ => None,
            },
            TypeTransformer::IntegerOfLeadingSize => match self.m.ctx.ty(t) {
                TypeData::Vector { shape, .. } => {
                    let w = u32::try_from(*shape.first()?).ok().filter(|&w| w > 0)?;
                    Some(self.m.ctx.intern_type(TypeData::signless(w)))
                }
                _ => None,
            },
            TypeTransformer::ElementTypeOrSelf => {
                Some(self.m.ctx.ty(t).element_type().unwrap_or(t))
            }
            TypeTransformer::I1SameShape => {
                let i1 = self.m.ctx.intern_type(TypeData::signless(1));
                let data = match self.m.ctx.ty(t).clone() {
                    TypeData::Vector {
                        shape, scalable, ..
                    } => TypeData::Vector {
                        shape,
                        scalable,
                        elem: i1,
                    },
                    TypeData::RankedTensor {
                        shape, encoding, ..
                    } => TypeData::RankedTensor {
                        shape,
                        elem: i1,
                        encoding,
                    },
                    TypeData::UnrankedTensor { .. } => TypeData::UnrankedTensor { elem: i1 },
                    _ => return Some(i1),
                };
                Some(self.m.ctx.intern_type(data))
            }
            TypeTransformer::PdlRangeOf | TypeTransformer::PdlValueOfSameArity => {
                let TypeData::Dialect(body) = self.m.ctx.ty(t) else {
                    return None;
                };
                let [BodyPiece::Text(inner)] = &body.pieces[..] else {
                    return None;
                };
                if &*body.dialect != "pdl" {
                    return None;
                }
                let text = match kind? {
                    TypeTransformer::PdlRangeOf => format!("!pdl.range<{inner}>"),
                    _ if inner.starts_with("range<") => "!pdl.range<value>".to_string(),
                    _ => "!pdl.value".to_string(),
                };
                let at = self.tok.start;
                self.parse_type_text(&text, at).ok()
            }
            TypeTransformer::ScalableSquare => match self.m.ctx.ty(t).clone() {
                TypeData::Vector { shape, elem, .. } => {
                    let size = *shape.first()?;
                    Some(self.m.ctx.intern_type(TypeData::Vector {
                        shape: vec![size, size],
                        scalable: vec![true, true],
                        elem,
                    }))
                }
                _ => None,
            },
        }
    }
}

/// An op's `inferReturnTypes`, ported: its results' types from what its
/// syntax read, or `None` where they cannot be known.
type InferResults = for<'a> fn(&mut Parser<'a>, &OpSyntax, &Parts<'a>) -> Option<Vec<Vec<TypeId>>>;

/// The ops whose `inferReturnTypes` is ported, by name.
const INFERRED_RESULTS: &[(&str, InferResults)] = &[
    ("vector.shuffle", |p, syn, parts| {
        p.infer_shuffle(syn, parts).map(|t| vec![t])
    }),
    ("bufferization.dealloc", |p, syn, parts| {
        p.infer_dealloc(syn, parts)
    }),
    ("chlo.constant", |p, syn, parts| {
        p.infer_value_type(syn, parts).map(|t| vec![vec![t]])
    }),
];

impl<'a> Parser<'a> {
    /// The type of the op's `value` attribute (chlo's `ConstantOp`, whose
    /// `inferReturnTypes` gives its value's type).
    fn infer_value_type(&mut self, syn: &OpSyntax, parts: &Parts<'a>) -> Option<TypeId> {
        let value = syn.attrs.iter().position(|a| a.name == "value")?;
        self.attr_type(parts.attrs[value]?)
    }

    /// `vector.shuffle`: a vector of as many leading elements as the mask
    /// has (at least one), then `v1`'s trailing dimensions, of `v1`'s
    /// element type.
    /// `bufferization.dealloc`: an `i1` per retained value (MLIR's
    /// `DeallocOp::inferReturnTypes`).
    fn infer_dealloc(&mut self, syn: &OpSyntax, parts: &Parts<'a>) -> Option<Vec<Vec<TypeId>>> {
        let retained = syn.operands.iter().position(|o| o.name == "retained")?;
        let i1 = self.m.ctx.intern_type(TypeData::signless(1));
        Some(vec![vec![i1; parts.operands[retained].len()]])
    }

    fn infer_shuffle(&mut self, syn: &OpSyntax, parts: &Parts<'a>) -> Option<Vec<TypeId>> {
        let v1 = syn.operands.iter().position(|o| o.name == "v1")?;
        let mask = syn.attrs.iter().position(|a| a.name == "mask")?;
        let v1 = *parts.operand_types[v1].as_ref()?.first()?;
        let len = match self.m.ctx.attr(parts.attrs[mask]?) {
            AttrData::DenseArray { data, .. } => data.len() / 8,
            _ => return None,
        };
        let TypeData::Vector { shape, elem, .. } = self.m.ctx.ty(v1).clone() else {
            return None;
        };
        let mut out = vec![len.max(1) as i64];
        out.extend(shape.iter().skip(1));
        Some(vec![self.m.ctx.intern_type(TypeData::Vector {
            shape: out,
            scalable: Vec::new(),
            elem,
        })])
    }
}

/// Whether `elements` hold `type(…)` of result group `i` (or of all
/// results), at any depth.
fn types_result(elements: &[Element], i: usize) -> bool {
    elements.iter().any(|e| match e {
        Element::Type(inner) => {
            matches!(**inner, Element::Var(Var::Result(r)) if r == i)
                || matches!(**inner, Element::Results)
        }
        Element::FunctionalType(_, outs) => {
            matches!(**outs, Element::Var(Var::Result(r)) if r == i)
                || matches!(**outs, Element::Results)
        }
        Element::Optional {
            then, otherwise, ..
        } => types_result(then, i) || types_result(otherwise, i),
        Element::OIList(clauses) => clauses.iter().any(|c| types_result(c, i)),
        Element::Qualified(inner) => types_result(std::slice::from_ref(&**inner), i),
        Element::Custom { args, .. } => types_result(args, i),
        _ => false,
    })
}
