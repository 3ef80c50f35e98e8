//! Builtin types (LangRef "Builtin Types") and dialect types.

use super::attr_parser::DialectSymbol;
use super::*;

impl<'a> Parser<'a> {
    pub(super) fn parse_type(&mut self) -> Result<TypeId> {
        self.enter()?;
        let r = self.parse_type_inner();
        self.leave();
        r
    }

    fn parse_type_inner(&mut self) -> Result<TypeId> {
        match self.tok.kind {
            Tok::LParen => self.parse_function_type(),
            Tok::BangId => self.parse_extended_type(),
            Tok::BareIdent => self.parse_keyword_type(),
            _ => self.err("expected a type"),
        }
    }

    fn parse_function_type(&mut self) -> Result<TypeId> {
        let (mut inputs, mut results) = (Vec::new(), Vec::new());
        self.parse_function_type_parts(&mut inputs, &mut results)?;
        Ok(self
            .m
            .ctx
            .intern_type(TypeData::Function { inputs, results }))
    }

    /// An operation's type signature: `(inputs) -> results` parsed into
    /// `inputs` and `results` (cleared first), or any other type that
    /// names a function type (an alias). The signature's function type
    /// itself is not interned: only the operand and result types are kept
    /// in the IR, and interning a function type per operation (two
    /// vectors, a hash, a probe, a comparison) cost more than parsing it
    /// (BENCHMARKS.md, 2026-11-25). Not inlined: its frame would grow that of
    /// `parse_operation`, which recurses once per region level.
    #[inline(never)]
    pub(super) fn parse_op_signature(
        &mut self,
        inputs: &mut Vec<TypeId>,
        results: &mut Vec<TypeId>,
    ) -> Result<()> {
        inputs.clear();
        results.clear();
        let at = self.tok.start;
        if self.is(Tok::LParen) {
            // One level deeper, as `parse_type` would go.
            self.enter()?;
            let r = self.parse_function_type_parts(inputs, results);
            self.leave();
            return r;
        }
        let t = self.parse_type()?;
        let TypeData::Function {
            inputs: i,
            results: o,
        } = self.m.ctx.ty(t)
        else {
            return self.err_at(at, "expected a function type for the operation's signature");
        };
        inputs.extend_from_slice(i);
        results.extend_from_slice(o);
        Ok(())
    }

    pub(super) fn parse_function_type_parts(
        &mut self,
        inputs: &mut Vec<TypeId>,
        results: &mut Vec<TypeId>,
    ) -> Result<()> {
        self.comma_list(Tok::LParen, Tok::RParen, "'('", |p| {
            inputs.push(p.parse_type()?);
            Ok(())
        })?;
        self.expect(Tok::Arrow, "'->' in function type")?;
        if self.is(Tok::LParen) {
            self.comma_list(Tok::LParen, Tok::RParen, "'('", |p| {
                results.push(p.parse_type()?);
                Ok(())
            })?;
        } else {
            let at = self.tok.start;
            let t = self.parse_type()?;
            if matches!(self.m.ctx.ty(t), TypeData::Function { .. }) {
                return self.err_at(at, "a function type result must be parenthesized");
            }
            results.push(t);
        }
        Ok(())
    }

    fn parse_keyword_type(&mut self) -> Result<TypeId> {
        let at = self.tok.start;
        let word = self.spelling();
        if let Some(k) = FloatKind::from_keyword_bytes(word) {
            self.bump();
            return Ok(self.m.ctx.intern_type(TypeData::Float(k)));
        }
        if let Some(t) = int_type_keyword(word) {
            let (width, signedness) = match t {
                Some(v) => v,
                None => return self.err_at(at, "invalid integer width (at most 16777215)"),
            };
            self.bump();
            return Ok(self
                .m
                .ctx
                .intern_type(TypeData::Integer { width, signedness }));
        }
        match word {
            b"index" => {
                self.bump();
                Ok(self.m.ctx.intern_type(TypeData::Index))
            }
            b"none" => {
                self.bump();
                Ok(self.m.ctx.intern_type(TypeData::None))
            }
            b"complex" => {
                self.bump();
                self.expect(Tok::Less, "'<' in complex type")?;
                let e = self.parse_type()?;
                self.expect(Tok::Greater, "'>' in complex type")?;
                Ok(self.m.ctx.intern_type(TypeData::Complex(e)))
            }
            b"tuple" => {
                self.bump();
                let mut elems = Vec::new();
                self.comma_list(Tok::Less, Tok::Greater, "'<' in tuple type", |p| {
                    elems.push(p.parse_type()?);
                    Ok(())
                })?;
                Ok(self.m.ctx.intern_type(TypeData::Tuple(elems)))
            }
            b"vector" => self.parse_vector_type(),
            b"tensor" => self.parse_tensor_type(),
            b"memref" => self.parse_memref_type(),
            _ => self.err_at(at, format!("unknown type '{}'", lossy(word))),
        }
    }

    /// Scans `NxMx...x` at the character level, as MLIR's lexer splits
    /// `4x?x8xf32` specially. Returns the dims (and scalable flags when
    /// `allow_scalable`), leaving the lexer on the element type.
    fn parse_dimension_list(
        &mut self,
        allow_dynamic: bool,
        allow_scalable: bool,
    ) -> Result<(Vec<i64>, Vec<bool>)> {
        let mut dims = Vec::new();
        let mut scalable = Vec::new();
        let mut p = self.tok.start;
        loop {
            let at = p;
            let (dim, is_scalable) = match self.src.get(p) {
                Some(b'?') if allow_dynamic => {
                    p += 1;
                    (DYNAMIC, false)
                }
                Some(b'[') if allow_scalable => {
                    p += 1;
                    let s = p;
                    while p < self.src.len() && self.src[p].is_ascii_digit() {
                        p += 1;
                    }
                    if self.src.get(p) != Some(&b']') || s == p {
                        return self.err_at(at, "expected a scalable dimension like '[4]'");
                    }
                    let d = self.dim_value(s, p)?;
                    p += 1;
                    (d, true)
                }
                Some(c) if c.is_ascii_digit() => {
                    let s = p;
                    while p < self.src.len() && self.src[p].is_ascii_digit() {
                        p += 1;
                    }
                    // `0x` would lex as hex; a shape never has hex dims.
                    (self.dim_value(s, p)?, false)
                }
                _ => break,
            };
            // MLIR's lexer reads `2 x 32 x f32` as the same tokens.
            while self.src.get(p).is_some_and(|c| c.is_ascii_whitespace()) {
                p += 1;
            }
            if self.src.get(p) != Some(&b'x') {
                return self.err_at(p, "expected 'x' in dimension list");
            }
            p += 1;
            while self.src.get(p).is_some_and(|c| c.is_ascii_whitespace()) {
                p += 1;
            }
            dims.push(dim);
            scalable.push(is_scalable);
        }
        self.reset_to(p);
        if !scalable.iter().any(|&s| s) {
            scalable.clear();
        }
        Ok((dims, scalable))
    }

    fn dim_value(&self, s: usize, e: usize) -> Result<i64> {
        match parse_decimal_u64(&self.src[s..e]) {
            Some(v) if v <= i64::MAX as u64 => Ok(v as i64),
            _ => self.err_at(s, "dimension is too large"),
        }
    }

    fn parse_vector_type(&mut self) -> Result<TypeId> {
        self.bump();
        if self.src.get(self.tok.start) != Some(&b'<') {
            return self.err("expected '<' in vector type");
        }
        self.reset_to(self.tok.start + 1);
        let at = self.tok.start;
        let (shape, scalable) = self.parse_dimension_list(false, true)?;
        if shape.contains(&0) {
            return self.err_at(at, "vector types must have positive constant sizes");
        }
        let elem = self.parse_type()?;
        self.expect(Tok::Greater, "'>' in vector type")?;
        Ok(self.m.ctx.intern_type(TypeData::Vector {
            shape,
            scalable,
            elem,
        }))
    }

    fn parse_tensor_type(&mut self) -> Result<TypeId> {
        self.bump();
        if self.src.get(self.tok.start) != Some(&b'<') {
            return self.err("expected '<' in tensor type");
        }
        self.reset_to(self.tok.start + 1);
        if self.src.get(self.tok.start) == Some(&b'*') {
            let p = self.tok.start + 1;
            let p = p + self.src[p..]
                .iter()
                .take_while(|c| c.is_ascii_whitespace())
                .count();
            if self.src.get(p) != Some(&b'x') {
                return self.err_at(p, "expected 'x' in unranked tensor type");
            }
            self.reset_to(p + 1);
            let elem = self.parse_type()?;
            self.expect(Tok::Greater, "'>' in tensor type")?;
            return Ok(self.m.ctx.intern_type(TypeData::UnrankedTensor { elem }));
        }
        let (shape, _) = self.parse_dimension_list(true, false)?;
        let elem = self.parse_type()?;
        let mut encoding = None;
        if self.eat(Tok::Comma) {
            encoding = Some(self.parse_attr(None)?);
        }
        self.expect(Tok::Greater, "'>' in tensor type")?;
        Ok(self.m.ctx.intern_type(TypeData::RankedTensor {
            shape,
            elem,
            encoding,
        }))
    }

    fn parse_memref_type(&mut self) -> Result<TypeId> {
        self.bump();
        if self.src.get(self.tok.start) != Some(&b'<') {
            return self.err("expected '<' in memref type");
        }
        self.reset_to(self.tok.start + 1);
        let unranked = self.src.get(self.tok.start) == Some(&b'*');
        let mut shape = Vec::new();
        if unranked {
            let p = self.tok.start + 1;
            let p = p + self.src[p..]
                .iter()
                .take_while(|c| c.is_ascii_whitespace())
                .count();
            if self.src.get(p) != Some(&b'x') {
                return self.err_at(p, "expected 'x' in unranked memref type");
            }
            self.reset_to(p + 1);
        } else {
            shape = self.parse_dimension_list(true, false)?.0;
        }
        let elem = self.parse_type()?;
        let mut layout = None;
        let mut memory_space = None;
        while self.eat(Tok::Comma) {
            let at = self.tok.start;
            let a = self.parse_attr(None)?;
            let is_layout = matches!(
                self.m.ctx.attr(a),
                AttrData::AffineMap(_) | AttrData::Strided { .. }
            ) || (matches!(self.m.ctx.attr(a), AttrData::Dialect { .. })
                && memory_space.is_none()
                && layout.is_none()
                && self.is(Tok::Comma));
            if is_layout && !unranked {
                if layout.is_some() || memory_space.is_some() {
                    return self.err_at(
                        at,
                        "unexpected layout after the memory space in memref type",
                    );
                }
                layout = Some(a);
            } else {
                if memory_space.is_some() {
                    return self.err_at(at, "multiple memory spaces specified in memref type");
                }
                memory_space = Some(a);
            }
        }
        self.expect(Tok::Greater, "'>' in memref type")?;
        // The identity map is the default layout; integer 0 the default space.
        if let Some(l) = layout {
            if let AttrData::AffineMap(map) = self.m.ctx.attr(l) {
                if map.is_identity() && map.num_dims as usize == shape.len() {
                    layout = None;
                }
            }
        }
        if let Some(ms) = memory_space {
            if let AttrData::Integer { value, .. } = self.m.ctx.attr(ms) {
                if value.is_zero() {
                    memory_space = None;
                }
            }
        }
        let t = if unranked {
            TypeData::UnrankedMemRef { elem, memory_space }
        } else {
            TypeData::MemRef {
                shape,
                elem,
                layout,
                memory_space,
            }
        };
        Ok(self.m.ctx.intern_type(t))
    }

    fn parse_extended_type(&mut self) -> Result<TypeId> {
        let at = self.tok.start;
        let ident = &self.src[self.tok.start + 1..self.tok.end];
        let has_body = self.src.get(self.tok.end) == Some(&b'<');
        if !has_body && !ident.contains(&b'.') {
            let Some(&t) = self.type_aliases.get(ident) else {
                return self
                    .sem_err_at(at, format!("undefined symbol alias id '{}'", lossy(ident)));
            };
            self.bump();
            return Ok(t);
        }
        let (dialect, sym_start, sym_end, next) = self.scan_dialect_symbol()?;
        let t = self.make_dialect_symbol(&dialect, sym_start, sym_end, false)?;
        self.reset_to(next);
        let ty = match t {
            DialectSymbol::Opaque(data) => TypeData::Opaque {
                dialect: dialect.as_str().into(),
                data,
            },
            DialectSymbol::Body(body) => TypeData::Dialect(body),
        };
        let hooked = matches!(ty, TypeData::Dialect(_));
        let t = self.m.ctx.intern_type(ty);
        Ok(if hooked {
            self.canonical_hooked_type(&dialect, t, sym_start..sym_end)
        } else {
            t
        })
    }
}

/// `iN`, `siN`, `uiN`: `Some(None)` when the width is out of range.
fn int_type_keyword(word: &[u8]) -> Option<Option<(u32, Signedness)>> {
    let (sign, rest) = if let Some(r) = word.strip_prefix(b"si") {
        (Signedness::Signed, r)
    } else if let Some(r) = word.strip_prefix(b"ui") {
        (Signedness::Unsigned, r)
    } else if let Some(r) = word.strip_prefix(b"i") {
        (Signedness::Signless, r)
    } else {
        return None;
    };
    if rest.is_empty() || !rest.iter().all(|c| c.is_ascii_digit()) {
        return None;
    }
    match parse_decimal_u64(rest) {
        Some(w) if w <= 16_777_215 => Some(Some((w as u32, sign))),
        _ => Some(None),
    }
}
