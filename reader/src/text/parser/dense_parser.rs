//! `array<..>`, `dense<..>`, `dense_resource<..>` and `sparse<..>`
//! literals (LangRef "Builtin Attributes"); element storage follows
//! SPEC.md §2.3.

use super::*;
use rmlir_format::dense::{element_layout, ElementLayout};

impl<'a> Parser<'a> {
    pub(super) fn parse_dense_array(&mut self) -> Result<AttrId> {
        self.bump();
        self.expect(Tok::Less, "'<' after 'array'")?;
        let ty_at = self.tok.start;
        let elem = self.parse_type()?;
        let tdata = self.m.ctx.ty(elem).clone();
        let layout = match &tdata {
            TypeData::Integer { .. } | TypeData::Float(_) => element_layout(&self.m.ctx, elem),
            _ => None,
        };
        let Some(layout) = layout else {
            return self.err_at(ty_at, "expected integer or float type for a dense array");
        };
        let mut data = Vec::new();
        if self.eat(Tok::Colon) {
            loop {
                let neg = self.eat(Tok::Minus);
                let tok = self.tok;
                let elem_lit = match tok.kind {
                    Tok::Integer => LitElem::Int { neg, tok },
                    Tok::Float => LitElem::Float { neg, tok },
                    Tok::BareIdent if !neg && (self.is_kw("true") || self.is_kw("false")) => {
                        LitElem::Bool(self.is_kw("true"))
                    }
                    _ => return self.err("expected integer or float literal in dense array"),
                };
                self.bump();
                self.check_dense_budget(data.len() / layout.bytes.max(1) + 1, layout.bytes, ty_at)?;
                self.encode_element(&elem_lit, tok.start, &tdata, layout, &mut data)?;
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
        }
        self.expect(Tok::Greater, "'>' to close the dense array")?;
        Ok(self.m.ctx.intern_attr(AttrData::DenseArray {
            elem,
            data: data.into_boxed_slice(),
        }))
    }

    /// The storage of `n` elements of `size` bytes, refused beyond 64
    /// bytes per input byte plus 1 MiB: elements of wide types (up to
    /// i16777215, 2 MiB each) would otherwise expand a few bytes of text a
    /// million times. No real literal comes near.
    fn check_dense_budget(&self, n: usize, size: usize, at: usize) -> Result<usize> {
        let budget = self.src.len().saturating_mul(64).saturating_add(1 << 20);
        match n.checked_mul(size) {
            Some(b) if b <= budget => Ok(b),
            _ => Err(Error::new(
                ErrorKind::Limit,
                format!(
                    "dense literal of {n} elements of {size} bytes each is larger than the limit for this input ({budget} bytes)"
                ),
                self.position(at),
            )),
        }
    }

    /// Parses the literal inside `dense<...>` / `sparse<...>`.
    fn parse_tensor_literal(&mut self, allow_hex: bool) -> Result<TensorLiteral> {
        let mut lit = TensorLiteral {
            shape: Vec::new(),
            elems: Vec::new(),
            hex: None,
        };
        if self.is(Tok::String) && allow_hex && self.spelling().starts_with(b"\"0x") {
            let at = self.tok.start;
            let s = self.parse_string("a hex string")?;
            lit.hex = Some((s, at));
            return Ok(lit);
        }
        if self.is(Tok::LSquare) {
            lit.shape = self.parse_literal_list(&mut lit.elems)?;
        } else {
            let at = self.tok.start;
            let e = self.parse_literal_element()?;
            lit.elems.push((e, at));
        }
        Ok(lit)
    }

    fn parse_literal_list(&mut self, out: &mut Vec<(LitElem, usize)>) -> Result<Vec<i64>> {
        self.enter()?;
        let open = self.tok.start;
        let mut inner: Option<Vec<i64>> = None;
        let mut count: i64 = 0;
        self.comma_list(Tok::LSquare, Tok::RSquare, "'['", |p| {
            let shape = if p.is(Tok::LSquare) {
                p.parse_literal_list(out)?
            } else {
                let at = p.tok.start;
                let e = p.parse_literal_element()?;
                out.push((e, at));
                Vec::new()
            };
            match &inner {
                None => inner = Some(shape),
                // Scalars (empty shapes) compare without a call.
                Some(s) if s.len() != shape.len() || (!s.is_empty() && *s != shape) => {
                    return p.err_at(
                        open,
                        "tensor literal is invalid; ranks are not consistent between elements",
                    )
                }
                _ => {}
            }
            count += 1;
            Ok(())
        })?;
        self.leave();
        let mut shape = vec![count];
        shape.extend(inner.unwrap_or_default());
        Ok(shape)
    }

    fn parse_literal_element(&mut self) -> Result<LitElem> {
        let tok = self.tok;
        match tok.kind {
            Tok::Integer => {
                self.bump();
                Ok(LitElem::Int { neg: false, tok })
            }
            Tok::Float => {
                self.bump();
                Ok(LitElem::Float { neg: false, tok })
            }
            Tok::Minus => {
                self.bump();
                let t = self.tok;
                let e = match t.kind {
                    Tok::Integer => LitElem::Int { neg: true, tok: t },
                    Tok::Float => LitElem::Float { neg: true, tok: t },
                    _ => return self.err("expected integer or floating point literal"),
                };
                self.bump();
                Ok(e)
            }
            Tok::String => Ok(LitElem::Str(self.parse_string("a string")?)),
            Tok::BareIdent if self.is_kw("true") || self.is_kw("false") => {
                let v = self.is_kw("true");
                self.bump();
                Ok(LitElem::Bool(v))
            }
            Tok::LParen => {
                self.bump();
                let re = self.parse_literal_element()?;
                self.expect(Tok::Comma, "',' between the real and imaginary parts")?;
                let im = self.parse_literal_element()?;
                self.expect(Tok::RParen, "')' after the complex value")?;
                Ok(LitElem::Complex(Box::new(re), Box::new(im)))
            }
            _ => self.err("expected element literal of primitive type"),
        }
    }

    /// Encodes one literal element of scalar type `tdata` into `out`.
    fn encode_element(
        &mut self,
        e: &LitElem,
        at: usize,
        tdata: &TypeData,
        layout: ElementLayout,
        out: &mut Vec<u8>,
    ) -> Result<()> {
        match (tdata, e) {
            (TypeData::Complex(inner), LitElem::Complex(re, im)) => {
                let inner_data = self.m.ctx.ty(*inner).clone();
                let half = ElementLayout {
                    bytes: layout.bytes / 2,
                };
                self.encode_element(re, at, &inner_data, half, out)?;
                self.encode_element(im, at, &inner_data, half, out)
            }
            (TypeData::Complex(_), _) => {
                self.err_at(at, "expected complex element as '(real, imag)'")
            }
            (TypeData::Float(kind), LitElem::Int { neg, tok } | LitElem::Float { neg, tok }) => {
                let bits = self.float_from_token(*kind, *neg, *tok, true)?;
                out.extend_from_slice(&bits.to_le_bytes()[..layout.bytes]);
                Ok(())
            }
            (TypeData::Float(_), _) => self.err_at(at, "expected floating-point elements"),
            (TypeData::Integer { width: 1, .. }, LitElem::Bool(b)) => {
                out.push(*b as u8);
                Ok(())
            }
            (TypeData::Integer { .. } | TypeData::Index, LitElem::Int { neg, tok }) => {
                let v = self.int_from_token(tdata, *neg, *tok)?;
                push_int_le(&v, layout.bytes, out);
                Ok(())
            }
            (TypeData::Integer { .. } | TypeData::Index, LitElem::Float { .. }) => {
                self.err_at(at, "expected integer elements, but parsed floating-point")
            }
            _ => self.err_at(at, "expected integer elements"),
        }
    }

    fn shaped_info(&self, ty: TypeId, at: usize) -> Result<(Vec<i64>, TypeId)> {
        match self.m.ctx.ty(ty) {
            TypeData::RankedTensor { shape, elem, .. }
            | TypeData::Vector { shape, elem, .. }
            | TypeData::MemRef { shape, elem, .. } => {
                if shape.iter().any(|&d| d < 0) {
                    return self.err_at(at, "elements literal type must have static shape");
                }
                Ok((shape.clone(), *elem))
            }
            _ => self.err_at(at, "elements literal must be a shaped type"),
        }
    }

    fn parse_elements_type(&mut self, expected: Option<TypeId>) -> Result<(TypeId, usize)> {
        let at = self.tok.start;
        if let Some(t) = expected {
            return Ok((t, at));
        }
        self.expect(Tok::Colon, "':' and the elements literal's shaped type")?;
        let at = self.tok.start;
        Ok((self.parse_type()?, at))
    }

    pub(super) fn parse_dense_attr(&mut self, expected: Option<TypeId>) -> Result<AttrId> {
        self.bump();
        self.expect(Tok::Less, "'<' after 'dense'")?;
        let lit = if self.is(Tok::Greater) {
            TensorLiteral {
                shape: vec![0],
                elems: Vec::new(),
                hex: None,
            }
        } else {
            self.parse_tensor_literal(true)?
        };
        self.expect(Tok::Greater, "'>' to close the dense literal")?;
        let (ty, ty_at) = self.parse_elements_type(expected)?;
        let attr = self.build_dense(&lit, ty, ty_at)?;
        Ok(self.m.ctx.intern_attr(attr))
    }

    fn build_dense(&mut self, lit: &TensorLiteral, ty: TypeId, ty_at: usize) -> Result<AttrData> {
        let (shape, elem) = self.shaped_info(ty, ty_at)?;
        let n = num_elements(&shape)
            .ok_or(())
            .or_else(|_| self.err_at(ty_at, "shaped type has too many elements"))?;
        let elem_data = self.m.ctx.ty(elem).clone();
        let layout = element_layout(&self.m.ctx, elem);
        let is_string =
            layout.is_none() || lit.elems.iter().any(|(e, _)| matches!(e, LitElem::Str(_)));
        if let Some((text, at)) = &lit.hex {
            if is_string {
                return Ok(AttrData::DenseString {
                    ty,
                    splat: true,
                    strings: vec![text.clone().into_boxed_slice()],
                });
            }
            let Some(bytes) = decode_hex(&text[2..]) else {
                return self.err_at(
                    *at,
                    "expected string containing hex digits starting with `0x`",
                );
            };
            let bytes = &bytes;
            let size = layout.expect("numeric").bytes;
            if matches!(elem_data, TypeData::Integer { width: 1, .. }) {
                // i1 hex data is bit-packed (LSB first); a splat is one byte.
                let bits_len = (n as usize).div_ceil(8);
                if n > 1 && bytes.len() == 1 && (bytes[0] == 0 || bytes[0] == 0xFF) {
                    return Ok(make_dense(ty, vec![bytes[0] & 1], 1, true));
                }
                if bytes.len() != bits_len {
                    return self.err_at(*at, format!("elements hex data size is invalid for provided type: {} bytes for {n} i1 elements", bytes.len()));
                }
                let unpacked: Vec<u8> = (0..n as usize)
                    .map(|i| (bytes[i / 8] >> (i % 8)) & 1)
                    .collect();
                return Ok(make_dense(ty, unpacked, 1, false));
            }
            let splat = bytes.len() == size && n != 1;
            if !splat && (bytes.len() as u128) != (size as u128) * (n as u128) {
                return self.err_at(*at, format!("elements hex data size is invalid for provided type: {} bytes for {n} elements of {size} bytes", bytes.len()));
            }
            return Ok(make_dense(ty, bytes.clone(), size, splat || n == 1));
        }
        // Shape check: a single element is a splat; a list must match.
        let is_splat_literal = lit.shape.is_empty();
        let empty_ok = lit.elems.is_empty() && n == 0;
        if !is_splat_literal && lit.shape != shape && !empty_ok {
            let at = lit.elems.first().map_or(ty_at, |e| e.1);
            return self.err_at(
                at,
                format!(
                    "inferred shape of elements literal ([{}]) does not match type ([{}])",
                    join_dims(&lit.shape),
                    join_dims(&shape)
                ),
            );
        }
        if is_string {
            let mut strings = Vec::with_capacity(lit.elems.len());
            for (e, at) in &lit.elems {
                match e {
                    LitElem::Str(s) => strings.push(s.clone().into_boxed_slice()),
                    _ => return self.err_at(*at, "expected string elements"),
                }
            }
            let splat = is_splat_literal
                || (!strings.is_empty() && strings.iter().all(|s| *s == strings[0]));
            if splat {
                strings.truncate(1);
            }
            return Ok(AttrData::DenseString { ty, splat, strings });
        }
        let layout = layout.expect("numeric");
        let bytes = self.check_dense_budget(lit.elems.len(), layout.bytes, ty_at)?;
        let mut data = Vec::with_capacity(bytes);
        for (e, at) in &lit.elems {
            self.encode_element(e, *at, &elem_data, layout, &mut data)?;
        }
        Ok(make_dense(ty, data, layout.bytes, is_splat_literal))
    }

    pub(super) fn parse_dense_resource(&mut self, expected: Option<TypeId>) -> Result<AttrId> {
        self.bump();
        self.expect(Tok::Less, "'<' after 'dense_resource'")?;
        let key = self.parse_keyword_or_string("a resource key")?;
        self.expect(Tok::Greater, "'>' to close 'dense_resource'")?;
        let (ty, ty_at) = self.parse_elements_type(expected)?;
        self.shaped_info(ty, ty_at)?;
        Ok(self.m.ctx.intern_attr(AttrData::DenseResource {
            ty,
            key: key.into_boxed_slice(),
        }))
    }

    pub(super) fn parse_sparse_attr(&mut self, expected: Option<TypeId>) -> Result<AttrId> {
        self.bump();
        self.expect(Tok::Less, "'<' after 'sparse'")?;
        let i64t = self.m.ctx.intern_type(TypeData::signless(64));
        if self.eat(Tok::Greater) {
            let (ty, ty_at) = self.parse_elements_type(expected)?;
            let (shape, elem) = self.shaped_info(ty, ty_at)?;
            let it = self.m.ctx.intern_type(TypeData::RankedTensor {
                shape: vec![0, shape.len() as i64],
                elem: i64t,
                encoding: None,
            });
            let vt = self.m.ctx.intern_type(TypeData::RankedTensor {
                shape: vec![0],
                elem,
                encoding: None,
            });
            let empty = TensorLiteral {
                shape: vec![0],
                elems: Vec::new(),
                hex: None,
            };
            let indices = self.build_dense(
                &TensorLiteral {
                    shape: vec![0, shape.len() as i64],
                    ..empty
                },
                it,
                ty_at,
            )?;
            let indices = self.m.ctx.intern_attr(indices);
            let values = self.build_dense(
                &TensorLiteral {
                    shape: vec![0],
                    elems: Vec::new(),
                    hex: None,
                },
                vt,
                ty_at,
            )?;
            let values = self.m.ctx.intern_attr(values);
            return Ok(self.m.ctx.intern_attr(AttrData::Sparse {
                ty,
                indices,
                values,
            }));
        }
        let idx_lit = self.parse_tensor_literal(false)?;
        self.expect(Tok::Comma, "','")?;
        let val_lit = self.parse_tensor_literal(true)?;
        self.expect(Tok::Greater, "'>'")?;
        let (ty, ty_at) = self.parse_elements_type(expected)?;
        let (shape, elem) = self.shaped_info(ty, ty_at)?;
        let idx_shape = if idx_lit.shape.is_empty() {
            vec![1, shape.len() as i64]
        } else {
            idx_lit.shape.clone()
        };
        let it = self.m.ctx.intern_type(TypeData::RankedTensor {
            shape: idx_shape.clone(),
            elem: i64t,
            encoding: None,
        });
        let val_shape = if val_lit.shape.is_empty() {
            vec![idx_shape[0]]
        } else {
            val_lit.shape.clone()
        };
        let vt = self.m.ctx.intern_type(TypeData::RankedTensor {
            shape: val_shape,
            elem,
            encoding: None,
        });
        let indices = self.build_dense(&idx_lit, it, ty_at)?;
        let indices = self.m.ctx.intern_attr(indices);
        let values = self.build_dense(&val_lit, vt, ty_at)?;
        let values = self.m.ctx.intern_attr(values);
        Ok(self.m.ctx.intern_attr(AttrData::Sparse {
            ty,
            indices,
            values,
        }))
    }
}

/// Builds a dense int/float attribute, detecting splats as MLIR does (all
/// elements bitwise equal, or a single element).
fn make_dense(ty: TypeId, mut data: Vec<u8>, size: usize, splat_literal: bool) -> AttrData {
    let splat = splat_literal
        || (size > 0 && data.len() >= size && data.chunks(size).all(|c| c == &data[..size]));
    if splat {
        data.truncate(size);
    }
    AttrData::DenseIntOrFp {
        ty,
        splat,
        data: data.into_boxed_slice(),
    }
}

fn push_int_le(v: &BigInt, bytes: usize, out: &mut Vec<u8>) {
    let mut raw = v.to_signed_bytes_le();
    let fill = if v.sign() == Sign::Minus { 0xFF } else { 0 };
    raw.resize(bytes.max(raw.len()), fill);
    out.extend_from_slice(&raw[..bytes]);
}

fn num_elements(shape: &[i64]) -> Option<u64> {
    shape
        .iter()
        .try_fold(1u64, |acc, &d| acc.checked_mul(d as u64))
}

fn join_dims(shape: &[i64]) -> String {
    shape
        .iter()
        .map(|d| d.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    /// Nested literal lists must agree in shape, whether they differ in
    /// rank or in size (mlir-opt 22 reports each of these four with the
    /// same message); scalars (empty shapes) always agree.
    #[test]
    fn inconsistent_nested_shapes_are_rejected() {
        let parse = |lit: &str| {
            let src = format!("\"t.c\"() {{v = dense<{lit}> : tensor<2x2xi32>}} : () -> ()\n");
            crate::parse_module(src.as_bytes(), "d.mlir").map_err(|e| e.to_string())
        };
        assert!(parse("[[1, 2], [3, 4]]").is_ok());
        for bad in [
            "[[1, 2], 3]",
            "[1, [2, 3]]",
            "[[1, 2], [3]]",
            "[[[1]], [2]]",
        ] {
            let e = parse(bad).expect_err(bad);
            assert!(e.contains("ranks are not consistent"), "{bad}: {e}");
        }
    }
}
