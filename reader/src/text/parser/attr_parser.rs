//! Builtin attributes, locations and dialect attribute bodies.

use super::*;
use rmlir_format::dialect_hooks::Builtin;

pub(super) enum DialectSymbol {
    Opaque(Bytes),
    Body(DialectBody),
}

impl<'a> Parser<'a> {
    pub(super) fn parse_attr(&mut self, ty: Option<TypeId>) -> Result<AttrId> {
        self.enter()?;
        let r = self.parse_attr_inner(ty);
        self.leave();
        r
    }

    fn parse_attr_inner(&mut self, expected: Option<TypeId>) -> Result<AttrId> {
        let at = self.tok.start;
        match self.tok.kind {
            Tok::LSquare => {
                let mut elems = Vec::new();
                self.comma_list(Tok::LSquare, Tok::RSquare, "'['", |p| {
                    elems.push(p.parse_attr(None)?);
                    Ok(())
                })?;
                Ok(self.m.ctx.intern_attr(AttrData::Array(elems)))
            }
            Tok::LBrace => self.parse_dictionary(),
            Tok::AtId => self.parse_symbol_ref(),
            Tok::String => {
                let value = self.parse_string("a string")?;
                // A trailing type only where none is expected (MLIR's
                // `parseAttribute(Type)`); the none type is no type.
                let given = expected.is_some();
                let expected = expected.filter(|t| !matches!(self.m.ctx.ty(*t), TypeData::None));
                let ty = if !given && self.eat(Tok::Colon) {
                    let t = self.parse_type()?;
                    if matches!(self.m.ctx.ty(t), TypeData::None) {
                        None
                    } else {
                        Some(t)
                    }
                } else {
                    expected
                };
                Ok(self.m.ctx.intern_attr(AttrData::String {
                    value: value.into_boxed_slice(),
                    ty,
                }))
            }
            Tok::Integer | Tok::Float => self.parse_number_attr(false, expected),
            Tok::Minus => {
                self.bump();
                if !self.is(Tok::Integer) && !self.is(Tok::Float) {
                    return self.err("expected constant integer or floating point value");
                }
                self.parse_number_attr(true, expected)
            }
            Tok::HashId => self.parse_extended_attr(),
            Tok::BareIdent => {
                let word = self.spelling();
                match word {
                    b"true" | b"false" => {
                        let v = word == b"true";
                        self.bump();
                        let i1 = self.m.ctx.intern_type(TypeData::signless(1));
                        Ok(self.m.ctx.intern_attr(AttrData::Integer {
                            ty: i1,
                            value: if v { BigInt::one() } else { BigInt::zero() },
                        }))
                    }
                    b"unit" => {
                        self.bump();
                        Ok(self.unit_attr)
                    }
                    b"loc" => {
                        self.bump();
                        self.expect(Tok::LParen, "'(' in inline location")?;
                        let l = self.parse_location_instance()?;
                        self.expect(Tok::RParen, "')' in inline location")?;
                        Ok(l)
                    }
                    b"affine_map" => self.parse_affine_attr(false),
                    b"affine_set" => self.parse_affine_attr(true),
                    b"array" => self.parse_dense_array(),
                    b"dense" => self.parse_dense_attr(expected),
                    b"dense_resource" => self.parse_dense_resource(expected),
                    b"sparse" => self.parse_sparse_attr(expected),
                    b"strided" => self.parse_strided(),
                    b"distinct" => self.parse_distinct(),
                    _ => {
                        let t = self.parse_type().map_err(|e| {
                            if e.kind() == ErrorKind::Limit {
                                e
                            } else {
                                Error::new(
                                    ErrorKind::Syntax,
                                    "expected attribute value",
                                    self.position(at),
                                )
                            }
                        })?;
                        Ok(self.m.ctx.intern_attr(AttrData::Type(t)))
                    }
                }
            }
            Tok::LParen | Tok::BangId => {
                let t = self.parse_type()?;
                Ok(self.m.ctx.intern_attr(AttrData::Type(t)))
            }
            _ => self.err("expected attribute value"),
        }
    }

    pub(super) fn parse_dictionary(&mut self) -> Result<AttrId> {
        let start = self.dict_entries.len();
        let r = self.parse_dictionary_entries(start);
        self.dict_entries.truncate(start);
        r
    }

    /// The dictionary whose entries go on `dict_entries` from `start`.
    fn parse_dictionary_entries(&mut self, start: usize) -> Result<AttrId> {
        self.comma_list(Tok::LBrace, Tok::RBrace, "'{'", |p| {
            let at = p.tok.start;
            let name = match p.tok.kind {
                Tok::BareIdent => {
                    let n = p.spelling().to_vec();
                    p.bump();
                    n
                }
                Tok::String => {
                    let n = p.parse_string("an attribute name")?;
                    if n.is_empty() {
                        return p.err_at(at, "expected valid attribute name");
                    }
                    n
                }
                _ => return p.err("expected attribute name"),
            };
            let value = if p.eat(Tok::Equal) {
                p.parse_attr(None)?
            } else {
                p.unit_attr
            };
            p.dict_entries.push((name.into_boxed_slice(), value, at));
            Ok(())
        })?;
        let entries = &mut self.dict_entries[start..];
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        if let Some(w) = entries.windows(2).find(|w| w[0].0 == w[1].0) {
            let at = w[0].2.max(w[1].2);
            let msg = format!("duplicate key '{}' in dictionary attribute", lossy(&w[0].0));
            return self.sem_err_at(at, msg);
        }
        // A drain's exact length lets collect allocate once, at that size.
        let owned: Vec<_> = self
            .dict_entries
            .drain(start..)
            .map(|(n, v, _)| (n, v))
            .collect();
        Ok(self.m.ctx.intern_attr(AttrData::Dictionary(owned)))
    }

    pub(super) fn parse_symbol_name(&mut self) -> Result<Vec<u8>> {
        let t = self.expect(Tok::AtId, "a symbol reference (@name)")?;
        if self.src[t.start + 1] == b'"' {
            let body = &self.src[t.start + 2..t.end - 1];
            lexer::unescape(body).map_err(|i| {
                Error::new(
                    ErrorKind::Syntax,
                    "invalid escape sequence in symbol name",
                    self.position(t.start + 2 + i),
                )
            })
        } else {
            Ok(self.src[t.start + 1..t.end].to_vec())
        }
    }

    fn parse_symbol_ref(&mut self) -> Result<AttrId> {
        let root = self.parse_symbol_name()?;
        let mut nested = Vec::new();
        while self.is(Tok::ColonColon) {
            self.bump();
            nested.push(self.parse_symbol_name()?.into_boxed_slice());
        }
        Ok(self.m.ctx.intern_attr(AttrData::SymbolRef {
            root: root.into_boxed_slice(),
            nested: nested.into(),
        }))
    }

    fn parse_number_attr(&mut self, neg: bool, expected: Option<TypeId>) -> Result<AttrId> {
        let tok = self.tok;
        self.bump();
        let ty = match expected {
            Some(t) => t,
            None if self.eat(Tok::Colon) => self.parse_type()?,
            None if tok.kind == Tok::Float => {
                self.m.ctx.intern_type(TypeData::Float(FloatKind::F64))
            }
            None => self.m.ctx.intern_type(TypeData::signless(64)),
        };
        let tdata = self.m.ctx.ty(ty).clone();
        match (tok.kind, &tdata) {
            (_, TypeData::Float(kind)) => {
                let kind = *kind;
                let bits = self.float_from_token(kind, neg, tok, false)?;
                Ok(self.m.ctx.intern_attr(AttrData::Float {
                    ty,
                    bits: bits.into(),
                }))
            }
            (Tok::Float, _) => self.err_at(
                tok.start,
                "floating point value not valid for specified type",
            ),
            (_, TypeData::Integer { .. } | TypeData::Index) => {
                let value = self.int_from_token(&tdata, neg, tok)?;
                Ok(self.m.ctx.intern_attr(AttrData::Integer { ty, value }))
            }
            _ => self.err_at(tok.start, "integer literal not valid for specified type"),
        }
    }

    /// A float from a float token or a hex bit pattern. With `via_f64`
    /// (dense elements), decimal literals are read as f64 and then rounded,
    /// as MLIR's tensor literal parser does.
    pub(super) fn float_from_token(
        &mut self,
        kind: FloatKind,
        neg: bool,
        tok: Token,
        via_f64: bool,
    ) -> Result<u128> {
        let text = &self.src[tok.start..tok.end];
        if tok.kind == Tok::Integer {
            if !text.starts_with(b"0x") {
                return self.err_at(
                    tok.start,
                    "unexpected decimal integer literal for a floating point value (add a trailing dot to make the literal a float)",
                );
            }
            if neg {
                return self.err_at(
                    tok.start,
                    "hexadecimal float literal should not have a leading minus",
                );
            }
            let digits = &text[2..];
            let trimmed: &[u8] = {
                let nz = digits
                    .iter()
                    .position(|&c| c != b'0')
                    .unwrap_or(digits.len());
                &digits[nz..]
            };
            let width = kind.bit_width();
            if trimmed.len() > 32 {
                return self.err_at(
                    tok.start,
                    "hexadecimal float constant out of range for type",
                );
            }
            let mut v: u128 = 0;
            for &c in trimmed {
                v = (v << 4) | lexer::hex_val(c) as u128;
            }
            if width < 128 && v >> width != 0 {
                return self.err_at(
                    tok.start,
                    "hexadecimal float constant out of range for type",
                );
            }
            return Ok(v);
        }
        let s = std::str::from_utf8(text).expect("float tokens are ASCII");
        if via_f64 {
            let v: f64 = s.parse().map_err(|_| {
                Error::new(
                    ErrorKind::Syntax,
                    "invalid floating point literal",
                    self.position(tok.start),
                )
            })?;
            return Ok(float::from_f64(kind, if neg { -v } else { v }));
        }
        float::parse_mlir_float_signed(kind, neg, s)
            .map_err(|e| Error::new(ErrorKind::Syntax, e.to_string(), self.position(tok.start)))
    }

    /// An integer token checked against and normalised to an integer type.
    pub(super) fn int_from_token(&self, ty: &TypeData, neg: bool, tok: Token) -> Result<BigInt> {
        let text = &self.src[tok.start..tok.end];
        if tok.kind != Tok::Integer {
            return self.err_at(tok.start, "expected integer value");
        }
        let (width, signedness) = match ty {
            TypeData::Integer { width, signedness } => (*width, *signedness),
            _ => (64, Signedness::Signless),
        };
        if neg && signedness == Signedness::Unsigned {
            return self.err_at(
                tok.start,
                "negative integer literal not valid for unsigned integer type",
            );
        }
        if let Some(v) = small_int(text, neg, width, signedness) {
            return Ok(BigInt::from(v));
        }
        let mut v = if let Some(h) = text.strip_prefix(b"0x") {
            BigInt::parse_bytes(h, 16)
        } else {
            BigInt::parse_bytes(text, 10)
        }
        .expect("lexer produced digits");
        if neg {
            v = -v;
        }
        normalize_int(v, width, signedness)
            .ok_or(())
            .or_else(|_| self.err_at(tok.start, "integer constant out of range for attribute"))
    }

    fn parse_affine_attr(&mut self, set: bool) -> Result<AttrId> {
        self.bump();
        if !self.is(Tok::Less) {
            return self.err(if set {
                "expected '<' in affine set"
            } else {
                "expected '<' in affine map"
            });
        }
        let body_start = self.tok.end;
        let text = &self.src[body_start..];
        let (attr, used) = if set {
            let (s, used) = affine_parser::parse_integer_set(text).map_err(|e| {
                Error::new(
                    ErrorKind::Syntax,
                    e.message.clone(),
                    self.position(body_start + e.offset),
                )
            })?;
            (AttrData::IntegerSet(Box::new(s)), used)
        } else {
            let (m, used) = affine_parser::parse_affine_map(text).map_err(|e| {
                Error::new(
                    ErrorKind::Syntax,
                    e.message.clone(),
                    self.position(body_start + e.offset),
                )
            })?;
            (AttrData::AffineMap(m), used)
        };
        self.reset_to(body_start + used);
        self.expect(Tok::Greater, "'>' to close the affine attribute")?;
        Ok(self.m.ctx.intern_attr(attr))
    }

    fn parse_strided(&mut self) -> Result<AttrId> {
        self.bump();
        self.expect(Tok::Less, "'<' after 'strided'")?;
        let mut strides = Vec::new();
        self.comma_list(Tok::LSquare, Tok::RSquare, "'[' for the strides", |p| {
            strides.push(p.parse_stride_value()?);
            Ok(())
        })?;
        let mut offset = 0;
        if self.eat(Tok::Comma) {
            self.expect_kw("offset")?;
            self.expect(Tok::Colon, "':' after 'offset'")?;
            offset = self.parse_stride_value()?;
        }
        self.expect(Tok::Greater, "'>' to close the strided layout")?;
        Ok(self
            .m
            .ctx
            .intern_attr(AttrData::Strided { offset, strides }))
    }

    fn parse_stride_value(&mut self) -> Result<i64> {
        if self.eat(Tok::Question) {
            return Ok(DYNAMIC);
        }
        let neg = self.eat(Tok::Minus);
        let t = self.expect(Tok::Integer, "an integer or '?'")?;
        let v = parse_decimal_u64(&self.src[t.start..t.end]).filter(|&v| v <= i64::MAX as u64);
        match v {
            Some(v) => Ok(if neg { -(v as i64) } else { v as i64 }),
            None => self.err_at(t.start, "expected a 64-bit integer"),
        }
    }

    fn parse_distinct(&mut self) -> Result<AttrId> {
        let at = self.tok.start;
        if self.fragment {
            return self.err_at(at, "a 'distinct' attribute in a split parse's second part");
        }
        self.bump();
        self.expect(Tok::LSquare, "'[' after 'distinct'")?;
        let t = self.expect(Tok::Integer, "a distinct id")?;
        let Some(n) = parse_decimal_u64(&self.src[t.start..t.end]) else {
            return self.err_at(t.start, "expected a distinct id");
        };
        self.expect(Tok::RSquare, "']'")?;
        self.expect(Tok::Less, "'<'")?;
        let referenced = if self.is(Tok::Greater) {
            self.unit_attr
        } else {
            self.parse_attr(None)?
        };
        self.expect(Tok::Greater, "'>'")?;
        if let Some(&(id, prev)) = self.distinct.get(&n) {
            if prev != referenced {
                return self.sem_err_at(
                    at,
                    format!(
                        "referenced attribute does not match previous definition of distinct[{n}]"
                    ),
                );
            }
            return Ok(self
                .m
                .ctx
                .intern_attr(AttrData::Distinct { id, referenced }));
        }
        let id = self.m.ctx.fresh_distinct_id();
        self.distinct.insert(n, (id, referenced));
        Ok(self
            .m
            .ctx
            .intern_attr(AttrData::Distinct { id, referenced }))
    }

    // ----- locations -----

    pub(super) fn parse_location_instance(&mut self) -> Result<AttrId> {
        self.enter()?;
        let r = self.parse_location_inner();
        self.leave();
        r
    }

    fn parse_location_inner(&mut self) -> Result<AttrId> {
        let at = self.tok.start;
        match self.tok.kind {
            Tok::HashId => {
                let a = self.parse_extended_attr()?;
                if !self.m.ctx.attr(a).is_location() {
                    return self.err_at(at, "expected location instance");
                }
                Ok(a)
            }
            Tok::String => {
                let t = self.expect(Tok::String, "a location")?;
                if self.eat(Tok::Colon) {
                    let s = self.file_name_of(t)?;
                    let line = self.parse_loc_number()?;
                    if !self.eat(Tok::Colon) {
                        return Ok(self.m.ctx.intern_attr(AttrData::FileLineColRange(Box::new(
                            FileLineColRange {
                                file: s,
                                start_line: line,
                                start_col: None,
                                end_line: None,
                                end_col: None,
                            },
                        ))));
                    }
                    let col = self.parse_loc_number()?;
                    if !self.is_kw("to") {
                        return Ok(self.m.ctx.intern_attr(AttrData::FileLineCol {
                            file: s,
                            line,
                            col,
                        }));
                    }
                    self.bump();
                    let (end_line, end_col) = if self.eat(Tok::Colon) {
                        (line, self.parse_loc_number()?)
                    } else {
                        let l = self.parse_loc_number()?;
                        self.expect(Tok::Colon, "':' in location range")?;
                        (l, self.parse_loc_number()?)
                    };
                    return Ok(self.m.ctx.intern_attr(AttrData::FileLineColRange(Box::new(
                        FileLineColRange {
                            file: s,
                            start_line: line,
                            start_col: Some(col),
                            end_line: Some(end_line),
                            end_col: Some(end_col),
                        },
                    ))));
                }
                let s = self.string_value(t)?;
                let child = if self.eat(Tok::LParen) {
                    let c = self.parse_location_instance()?;
                    self.expect(Tok::RParen, "')' after child location of NameLoc")?;
                    c
                } else {
                    self.m.ctx.intern_attr(AttrData::UnknownLoc)
                };
                Ok(self.m.ctx.intern_attr(AttrData::NameLoc {
                    name: s.into_boxed_slice(),
                    child,
                }))
            }
            Tok::BareIdent => match self.spelling() {
                b"unknown" => {
                    self.bump();
                    Ok(self.m.ctx.intern_attr(AttrData::UnknownLoc))
                }
                b"callsite" => {
                    self.bump();
                    self.expect(Tok::LParen, "'(' in callsite location")?;
                    let callee = self.parse_location_instance()?;
                    self.expect_kw("at").map_err(|_| {
                        Error::new(
                            ErrorKind::Syntax,
                            "expected 'at' in callsite location",
                            self.position(self.tok.start),
                        )
                    })?;
                    let caller = self.parse_location_instance()?;
                    self.expect(Tok::RParen, "')' in callsite location")?;
                    Ok(self
                        .m
                        .ctx
                        .intern_attr(AttrData::CallSiteLoc { callee, caller }))
                }
                b"fused" => {
                    self.bump();
                    let mut metadata = None;
                    if self.eat(Tok::Less) {
                        metadata = Some(self.parse_attr(None)?);
                        self.expect(Tok::Greater, "'>' after fused location metadata")?;
                    }
                    let mut locations = Vec::new();
                    self.comma_list(Tok::LSquare, Tok::RSquare, "'[' in fused location", |p| {
                        locations.push(p.parse_location_instance()?);
                        Ok(())
                    })?;
                    Ok(self.m.ctx.fused_loc(locations, metadata))
                }
                _ => self.err("expected location instance"),
            },
            _ => self.err("expected location instance"),
        }
    }

    fn parse_loc_number(&mut self) -> Result<u32> {
        let t = self.expect(Tok::Integer, "an integer in location")?;
        match parse_decimal_u64(&self.src[t.start..t.end]) {
            Some(v) if v <= u32::MAX as u64 => Ok(v as u32),
            _ => self.err_at(t.start, "expected a 32-bit line or column number"),
        }
    }

    // ----- dialect symbols -----

    fn parse_extended_attr(&mut self) -> Result<AttrId> {
        let at = self.tok.start;
        let ident = &self.src[self.tok.start + 1..self.tok.end];
        let has_body = self.src.get(self.tok.end) == Some(&b'<');
        if !has_body && !ident.contains(&b'.') {
            let Some(a) = self.attr_aliases.get(ident).map(AttrId) else {
                return self
                    .sem_err_at(at, format!("undefined symbol alias id '{}'", lossy(ident)));
            };
            self.bump();
            return Ok(a);
        }
        let (dialect, sym_start, sym_end, next) = self.scan_dialect_symbol()?;
        let sym = self.make_dialect_symbol(&dialect, sym_start, sym_end, true)?;
        self.reset_to(next);
        let ty = if self.eat(Tok::Colon) {
            let t = self.parse_type()?;
            if matches!(self.m.ctx.ty(t), TypeData::None) {
                None
            } else {
                Some(t)
            }
        } else {
            None
        };
        let data = match sym {
            DialectSymbol::Opaque(data) => AttrData::Opaque(Box::new(OpaqueAttr {
                dialect: dialect.as_str().into(),
                data,
                ty,
            })),
            DialectSymbol::Body(body) => {
                let body = match ty {
                    None => self.canonical_attr_body(body),
                    Some(_) => body,
                };
                AttrData::Dialect {
                    body: Box::new(body),
                    ty,
                }
            }
        };
        let hooked = matches!(data, AttrData::Dialect { .. });
        let a = self.m.ctx.intern_attr(data);
        Ok(if hooked {
            self.canonical_hooked_attr(&dialect, a, sym_start..sym_end)
        } else {
            a
        })
    }

    /// A hooked dialect's attribute (SPEC.md §10.4) as its hooks read it
    /// back after writing it: the spelling its own printer gives it. One
    /// the hook does not write (a kind it does not know, a trailing type)
    /// is kept as the text `sym` it was written as, an opaque attribute:
    /// it is written as a textual entry, which reads back so.
    pub(super) fn canonical_hooked_attr(
        &mut self,
        dialect: &str,
        a: AttrId,
        sym: std::ops::Range<usize>,
    ) -> AttrId {
        let Some(h) = self.hook(dialect).filter(|h| h.parses_bodies()) else {
            return a;
        };
        let ty = match self.m.ctx.attr(a) {
            AttrData::Dialect { ty, .. } => *ty,
            _ => return a,
        };
        if ty.is_none() {
            if let Some(c) = rmlir_format::dialect_hooks::canonical::canonical_attr(
                h.as_ref(),
                &mut self.m.ctx,
                a,
            ) {
                return c;
            }
        }
        self.m
            .ctx
            .intern_attr(AttrData::Opaque(Box::new(OpaqueAttr {
                dialect: dialect.into(),
                data: self.src[sym].into(),
                ty,
            })))
    }

    /// [`Self::canonical_hooked_attr`] of a type.
    pub(super) fn canonical_hooked_type(
        &mut self,
        dialect: &str,
        t: TypeId,
        sym: std::ops::Range<usize>,
    ) -> TypeId {
        let Some(h) = self.hook(dialect).filter(|h| h.parses_bodies()) else {
            return t;
        };
        match rmlir_format::dialect_hooks::canonical::canonical_type(h.as_ref(), &mut self.m.ctx, t)
        {
            Some(c) => c,
            None => self.m.ctx.intern_type(TypeData::Opaque {
                dialect: dialect.into(),
                data: self.src[sym].into(),
            }),
        }
    }

    /// Splits `#dialect.sym<body>` / `#dialect<body>` at the current token
    /// into the dialect name and the symbol data range; returns the offset
    /// just past the symbol.
    pub(super) fn scan_dialect_symbol(&mut self) -> Result<(String, usize, usize, usize)> {
        let t = self.tok;
        let ident = &self.src[t.start + 1..t.end];
        let dot = ident.iter().position(|&c| c == b'.');
        let dialect_end = dot.map_or(t.end, |d| t.start + 1 + d);
        let dialect = lossy(&self.src[t.start + 1..dialect_end]);
        let mut end = t.end;
        if self.src.get(end) == Some(&b'<') {
            end = self.scan_balanced_body(end)?;
        }
        let (sym_start, sym_end) = match dot {
            Some(_) => (dialect_end + 1, end),
            // Verbose form: the data is between the angle brackets.
            None => (t.end + 1, end - 1),
        };
        // MLIR's `Dialect::isValidNamespace`, checked by the opaque
        // attribute and type verifiers: `[a-zA-Z_][a-zA-Z_0-9$]*`. Other
        // names (`#-llvm.x`) could not be written and read back.
        let valid = dialect
            .bytes()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == b'_')
            && dialect
                .bytes()
                .all(|c| c.is_ascii_alphanumeric() || c == b'_' || c == b'$');
        if !valid {
            return self.sem_err_at(
                sym_start.min(self.src.len()),
                format!("invalid dialect namespace '\"{dialect}\"'"),
            );
        }
        Ok((dialect, sym_start, sym_end, end))
    }

    /// Scans a `<...>` body with nested punctuation and strings, as MLIR's
    /// `parseDialectSymbolBody` does (`->` is not a closing '>').
    pub(super) fn scan_balanced_body(&self, start: usize) -> Result<usize> {
        use rmlir_format::symbol_body::{scan_symbol_body, BodyScanError};
        scan_symbol_body(self.src, start).or_else(|e| {
            let at = match e {
                BodyScanError::Unbalanced { at, .. }
                | BodyScanError::UnterminatedString { at }
                | BodyScanError::Nul { at } => at,
                BodyScanError::UnexpectedEnd => start,
            };
            self.err_at(at, e.to_string())
        })
    }

    /// For a registered dialect, splits the symbol data into text and
    /// nested attribute/type references (SPEC.md §2.4); otherwise keeps it
    /// opaque.
    /// `is_attr`: whether the symbol is an attribute's (`#d.m<…>`) or a
    /// type's (`!d.m<…>`), which may share mnemonics.
    pub(super) fn make_dialect_symbol(
        &mut self,
        dialect: &str,
        start: usize,
        end: usize,
        is_attr: bool,
    ) -> Result<DialectSymbol> {
        if !self.host.registers(dialect) && !self.hook(dialect).is_some_and(|h| h.parses_bodies()) {
            return Ok(DialectSymbol::Opaque(self.src[start..end].into()));
        }
        // A registered dialect's parser starts with a mnemonic; an empty
        // body (`#spirv.` before a non-identifier) has none.
        if start == end {
            return self.err_at(start, "expected valid keyword");
        }
        // A registered dialect's parser lexes its body, and MLIR's lexer
        // takes no byte outside ASCII except in a string literal; the
        // body's text pieces could not hold such a byte either. The body
        // of a nested symbol of an unregistered dialect is not lexed but
        // scanned, as it is at the top level, so it may hold any byte.
        let mut q = start;
        while q < end {
            match self.src[q] {
                b'"' => q = lexer::string_end(self.src, q).unwrap_or(end).max(q + 1),
                b'#' | b'!' => {
                    let id_end = (q + 1..end)
                        .find(|&i| {
                            let c = self.src[i];
                            !(c.is_ascii_alphanumeric() || b"_$.".contains(&c))
                        })
                        .unwrap_or(end);
                    let name = &self.src[q + 1..id_end];
                    let nested = name.split(|&c| c == b'.').next().unwrap_or(b"");
                    let nested = std::str::from_utf8(nested).unwrap_or("");
                    let opaque = !nested.is_empty()
                        && !self.host.registers(nested)
                        && !self.hook(nested).is_some_and(|h| h.parses_bodies());
                    q = if opaque && self.src.get(id_end) == Some(&b'<') {
                        rmlir_format::symbol_body::scan_symbol_body(self.src, id_end)
                            .unwrap_or(end)
                            .min(end)
                    } else {
                        id_end.max(q + 1)
                    };
                }
                c if !c.is_ascii() => {
                    return self.err_at(
                        q,
                        format!(
                            "unexpected byte 0x{c:02x} in the body of a '{dialect}' dialect symbol"
                        ),
                    )
                }
                _ => q += 1,
            }
        }
        let mnemonic_end = (start..end)
            .find(|&i| !(self.src[i].is_ascii_alphanumeric() || self.src[i] == b'_'))
            .unwrap_or(end);
        let mnemonic = lossy(&self.src[start..mnemonic_end]);
        self.dialect_body(dialect, &mnemonic, start, end, is_attr)
            .map(DialectSymbol::Body)
    }

    /// The hooks of `dialect`: the parse's own, else those of the
    /// dialects mlir-opt 22 gives hooks (`rmlir_dialects::upstream`).
    fn hook(
        &self,
        dialect: &str,
    ) -> Option<&'a std::sync::Arc<dyn rmlir_format::dialect_hooks::BytecodeDialect>> {
        let dialects: &'a rmlir_format::dialect_hooks::DialectRegistry = match self.dialects {
            Some(d) => d,
            None => rmlir_dialects::upstream(),
        };
        dialects.get(dialect.as_bytes())
    }

    /// The parameter name before a `<` at `lt` (`file = <`), if any.
    fn param_before(&self, floor: usize, lt: usize) -> Option<&'a [u8]> {
        let mut q = lt;
        while q > floor && self.src[q - 1].is_ascii_whitespace() {
            q -= 1;
        }
        if q == floor || self.src[q - 1] != b'=' {
            return None;
        }
        q -= 1;
        while q > floor && self.src[q - 1].is_ascii_whitespace() {
            q -= 1;
        }
        let end = q;
        while q > floor && (self.src[q - 1].is_ascii_alphanumeric() || self.src[q - 1] == b'_') {
            q -= 1;
        }
        (q < end).then(|| &self.src[q..end])
    }

    /// Whether the nested attribute at `p` (a `<` or `#`) is one the dialect
    /// prints stripped: after `param = ` of such a parameter, as the first
    /// positional parameter (`p` just after the `<` at `open`), or as the
    /// next element (after `, `) of a stripped list parameter. Gives the
    /// nested mnemonic and whether the parameter is a list.
    fn stripped_at(
        &self,
        dialect: &str,
        mnemonic: &str,
        start: usize,
        open: usize,
        p: usize,
        list: Option<(&'static str, usize)>,
    ) -> Option<(&'static str, bool)> {
        use rmlir_dialects::mlir_opt::stripped_param_info;
        if let Some(param) = self
            .param_before(start, p)
            .and_then(|param| std::str::from_utf8(param).ok())
        {
            return stripped_param_info(dialect, mnemonic, param);
        }
        if self.src.get(open) == Some(&b'<') && p == open + 1 {
            return stripped_param_info(dialect, mnemonic, "#0");
        }
        match list {
            Some((nested, e)) if self.src.get(e..p) == Some(&b", "[..]) => Some((nested, true)),
            _ => None,
        }
    }

    /// The pieces of a registered dialect's symbol data `start..end` whose
    /// mnemonic is `mnemonic` (SPEC.md §2.4): text, nested attributes and
    /// types, and nested attributes the dialect prints stripped.
    /// The source text `a..b` of a dialect body, with the string literals
    /// in `respelled` written as the dialect prints them.
    fn body_text(&self, a: usize, b: usize, respelled: &[(usize, usize, String)]) -> String {
        let mut out = String::new();
        let mut at = a;
        for (p, q, quoted) in respelled.iter().filter(|(p, q, _)| *p >= a && *q <= b) {
            out.push_str(&lossy(&self.src[at..*p]));
            out.push_str(quoted);
            at = *q;
        }
        out.push_str(&lossy(&self.src[at..b]));
        out
    }

    fn dialect_body(
        &mut self,
        dialect: &str,
        mnemonic: &str,
        start: usize,
        end: usize,
        is_attr: bool,
    ) -> Result<DialectBody> {
        let mut pieces = Vec::new();
        let hook = self.hook(dialect);
        // String literals the dialect would print differently (MLIR prints
        // their decoded bytes escaped: `\0A`, not `\n` or a raw byte).
        let mut respelled: Vec<(usize, usize, String)> = Vec::new();
        let mut text_start = start;
        let mut p = start;
        // The `<` opening the parameters (the source holds the mnemonic,
        // except for a nested body written stripped).
        let open = if self.src[start..end].starts_with(mnemonic.as_bytes()) {
            start + mnemonic.len()
        } else {
            start
        };
        // A list parameter printed stripped: its nested mnemonic and where
        // its last element ended (the next one follows `, `).
        let mut list: Option<(&'static str, usize)> = None;
        while p < end {
            let c = self.src[p];
            if c == b'"' {
                let q = lexer::string_end(self.src, p).unwrap_or(end).min(end);
                if q >= p + 2 && self.src[q - 1] == b'"' {
                    if let Ok(bytes) = lexer::unescape(&self.src[p + 1..q - 1]) {
                        let mut quoted = String::new();
                        rmlir_format::escape::write_quoted(&bytes, &mut quoted);
                        if quoted.as_bytes() != &self.src[p..q] {
                            respelled.push((p, q, quoted));
                        }
                    }
                }
                p = q;
                continue;
            }
            if c == b'<' {
                let nested = self.stripped_at(dialect, mnemonic, start, open, p, list);
                if let Some((nested, is_list)) = nested {
                    // `param = <...>`: a stripped attribute of this dialect.
                    let body_end = self.scan_balanced_body(p)?;
                    if body_end <= end {
                        if text_start < p {
                            pieces.push(BodyPiece::Text(
                                self.body_text(text_start, p, &respelled).into(),
                            ));
                        }
                        self.enter()?;
                        let mut inner = self.dialect_body(dialect, nested, p, body_end, true)?;
                        self.leave();
                        match inner.pieces.first_mut() {
                            Some(BodyPiece::Text(t)) => *t = format!("{nested}{t}").into(),
                            _ => inner.pieces.insert(0, BodyPiece::Text(nested.into())),
                        }
                        let inner = self.canonical_attr_body(inner);
                        let a = self.m.ctx.intern_attr(AttrData::Dialect {
                            body: Box::new(inner),
                            ty: None,
                        });
                        pieces.push(BodyPiece::Stripped(a));
                        p = body_end;
                        text_start = p;
                        if is_list {
                            list = Some((nested, p));
                        }
                        continue;
                    }
                }
            }
            let prev_ident = p > start && lexer::is_ident_char(self.src[p - 1]);
            // A builtin value where the dialect's hook says one stands
            // (SPEC.md §10.4): `integer_v1<1 : i64>`, `future<tensor<2xf32>>`.
            let builtin = match hook {
                Some(h) if !prev_ident && !matches!(c, b'#' | b'!' | b' ' | b'"') => {
                    let mut q = p;
                    while q > open && self.src[q - 1].is_ascii_whitespace() {
                        q -= 1;
                    }
                    match self.src.get(q.wrapping_sub(1)) {
                        Some(b'<' | b',') if q > open => h.builtin_at(mnemonic, is_attr, None),
                        Some(b'=') if q > open => {
                            let param = self
                                .param_before(start, p)
                                .and_then(|n| std::str::from_utf8(n).ok());
                            param.and_then(|n| h.builtin_at(mnemonic, is_attr, Some(n)))
                        }
                        _ => None,
                    }
                }
                _ => None,
            };
            let nested = builtin.is_some()
                || match c {
                    b'#' | b'!' => {
                        let n = self.src.get(p + 1).copied().unwrap_or(0);
                        n.is_ascii_alphanumeric() || n == b'_'
                    }
                    _ if !prev_ident && lexer::is_ident_start(c) => {
                        let rest = &self.src[p..end];
                        rest.starts_with(b"affine_map<")
                            || rest.starts_with(b"affine_set<")
                            || rest.starts_with(b"loc(")
                            || rest.starts_with(b"distinct[")
                    }
                    _ => false,
                };
            if !nested {
                if lexer::is_ident_start(c) {
                    while p < end && lexer::is_ident_char(self.src[p]) {
                        p += 1;
                    }
                } else {
                    p += 1;
                }
                continue;
            }
            if text_start < p {
                pieces.push(BodyPiece::Text(
                    self.body_text(text_start, p, &respelled).into(),
                ));
            }
            self.reset_to(p);
            let mut list_next = None;
            let piece = if builtin == Some(Builtin::Attr) {
                BodyPiece::Attr(self.parse_attr(None)?)
            } else if builtin == Some(Builtin::Type) || c == b'!' {
                BodyPiece::Type(self.parse_type_no_trailing()?)
            } else {
                let here = self.stripped_at(dialect, mnemonic, start, open, p, list);
                let a = self.parse_attr_no_trailing()?;
                if prev_ident && prints_as_aliasable_keyword(self.m.ctx.attr(a)) {
                    // `di_file#loc7`: written out in full (a textual
                    // bytecode entry, `--local-scope`) it would be
                    // `di_fileloc(…)`, one identifier (SPEC §2.4).
                    return self.err_at(
                        p,
                        "expected whitespace or punctuation between an identifier and this location, affine map, integer set or distinct attribute in a dialect body",
                    );
                }
                // An alias (`file = #di_file`) in a parameter the dialect
                // prints stripped is still a stripped attribute.
                let stripped = here.filter(|(nested, _)| match self.m.ctx.attr(a) {
                    AttrData::Dialect { body, .. } => {
                        &*body.dialect == dialect && body.is_kind(nested)
                    }
                    _ => false,
                });
                match stripped {
                    Some((nested, is_list)) => {
                        list_next = is_list.then_some(nested);
                        BodyPiece::Stripped(a)
                    }
                    // An alias of a type attribute (`#t = !llvm.x<…>`)
                    // prints as the type, which reads back as a type
                    // piece: keep it as one, so that the body is the
                    // same whichever way it was read.
                    None => match self.m.ctx.attr(a) {
                        AttrData::Type(t)
                            if matches!(
                                self.m.ctx.ty(*t),
                                TypeData::Dialect(_) | TypeData::Opaque { .. }
                            ) =>
                        {
                            BodyPiece::Type(*t)
                        }
                        _ => BodyPiece::Attr(a),
                    },
                }
            };
            pieces.push(piece);
            p = self.last_token_end(p);
            if let Some(nested) = list_next.take() {
                list = Some((nested, p));
            }
            if p > end {
                return self.err_at(
                    end,
                    "nested attribute runs past the end of the dialect symbol body",
                );
            }
            text_start = p;
        }
        if text_start < end {
            pieces.push(BodyPiece::Text(
                self.body_text(text_start, end, &respelled).into(),
            ));
        }
        // A type in the spelling its dialect prints (attributes are
        // respelled whole, by `canonical_attr_body`).
        if !is_attr {
            let major = self.host.mlir_major;
            if let Some(c) =
                hook.and_then(|h| h.respell_body_in(&mut self.m.ctx, false, &pieces, major))
            {
                pieces = c;
            }
        }
        Ok(DialectBody {
            dialect: dialect.into(),
            pieces,
        })
    }

    /// A dialect attribute body in the spelling its dialect prints, where
    /// its hook knows that spelling
    /// ([`rmlir_format::dialect_hooks::BytecodeDialect::respell_body`]: llvm's
    /// custom-encoded kinds are parsed into their fields and printed
    /// again, as MLIR's parser builds the attribute and its printer prints
    /// it). Without this, hand-written whitespace or `04` would survive a
    /// text print but not a bytecode round trip. Other bodies are kept as
    /// written.
    fn canonical_attr_body(&mut self, body: DialectBody) -> DialectBody {
        let Some(h) = self.hook(&body.dialect) else {
            return body;
        };
        let major = self.host.mlir_major;
        match h.respell_body_in(&mut self.m.ctx, true, &body.pieces, major) {
            Some(pieces) => DialectBody {
                dialect: body.dialect,
                pieces,
            },
            None => body,
        }
    }

    /// The end of the previously consumed token (not before `floor`): a
    /// comment after a nested attribute in a dialect body stays part of
    /// the body's text, as the body's scan (which knows no comments)
    /// read it.
    fn last_token_end(&self, floor: usize) -> usize {
        self.prev_end.clamp(floor, self.tok.start.max(floor))
    }

    /// Inside dialect bodies a nested attribute is not followed by `: type`
    /// that belongs to it in the way a top-level one is (the dialect parser
    /// decides); to stay faithful to the text, no trailing type is consumed.
    fn parse_attr_no_trailing(&mut self) -> Result<AttrId> {
        if self.is(Tok::HashId) {
            let at = self.tok.start;
            let ident = &self.src[self.tok.start + 1..self.tok.end];
            let has_body = self.src.get(self.tok.end) == Some(&b'<');
            if !has_body && !ident.contains(&b'.') {
                let Some(a) = self.attr_aliases.get(ident).map(AttrId) else {
                    return self
                        .sem_err_at(at, format!("undefined symbol alias id '{}'", lossy(ident)));
                };
                self.bump();
                return Ok(a);
            }
            self.enter()?;
            let (dialect, s, e, next) = self.scan_dialect_symbol()?;
            let sym = self.make_dialect_symbol(&dialect, s, e, true)?;
            self.reset_to(next);
            self.leave();
            let data = match sym {
                DialectSymbol::Opaque(data) => AttrData::Opaque(Box::new(OpaqueAttr {
                    dialect: dialect.as_str().into(),
                    data,
                    ty: None,
                })),
                DialectSymbol::Body(body) => AttrData::Dialect {
                    body: Box::new(self.canonical_attr_body(body)),
                    ty: None,
                },
            };
            let hooked = matches!(data, AttrData::Dialect { .. });
            let a = self.m.ctx.intern_attr(data);
            return Ok(if hooked {
                self.canonical_hooked_attr(&dialect, a, s..e)
            } else {
                a
            });
        }
        self.parse_attr(None)
    }

    fn parse_type_no_trailing(&mut self) -> Result<TypeId> {
        self.parse_type()
    }
}

/// [`normalize_int`] of a decimal literal of at most 18 digits for a type
/// of at most 64 bits, in `i128` arithmetic: integer attributes are
/// nearly all such, and the big integers' parsing and shifts cost ~1,000
/// instructions each. `None` for any other literal or type, and where
/// the value is out of range (the general path reports it).
fn small_int(text: &[u8], neg: bool, width: u32, signedness: Signedness) -> Option<i128> {
    if text.is_empty() || text.len() > 18 || width > 64 || !text.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let magnitude: i128 = std::str::from_utf8(text).ok()?.parse().ok()?;
    let v = if neg { -magnitude } else { magnitude };
    if width == 0 {
        return (v == 0).then_some(v);
    }
    let modulus = 1i128 << width;
    let half = 1i128 << (width - 1);
    match signedness {
        Signedness::Unsigned => (v >= 0 && v < modulus).then_some(v),
        Signedness::Signed => (v >= -half && v < half).then_some(v),
        Signedness::Signless => {
            if v >= modulus || v < -half {
                None
            } else if width == 1 {
                Some(i128::from(v != 0))
            } else if v >= half {
                Some(v - modulus)
            } else {
                Some(v)
            }
        }
    }
}

/// Checks `v` against an integer type of `width` bits and returns it in the
/// form MLIR prints: signed unless the type is unsigned (i1 stays 0/1).
pub(super) fn normalize_int(v: BigInt, width: u32, signedness: Signedness) -> Option<BigInt> {
    if width == 0 {
        return if v.is_zero() { Some(v) } else { None };
    }
    let modulus = BigInt::one() << width;
    let half = BigInt::one() << (width - 1);
    match signedness {
        Signedness::Unsigned => {
            if v.sign() == Sign::Minus || v >= modulus {
                None
            } else {
                Some(v)
            }
        }
        Signedness::Signed => {
            if v >= half || v < -half.clone() {
                None
            } else {
                Some(v)
            }
        }
        Signedness::Signless => {
            if v >= modulus || v < -half.clone() {
                None
            } else if width == 1 {
                Some(if v.is_zero() { v } else { BigInt::one() })
            } else if v >= half {
                Some(v - modulus)
            } else {
                Some(v)
            }
        }
    }
}

/// Whether an attribute is printed either as an alias (`#loc3`, `#map`,
/// `#set`, `#distinct`) or in full as a bare keyword form (`loc(…)`,
/// `affine_map<…>`, `affine_set<…>`, `distinct[…]<…>`): the forms the body
/// scanner recognizes only where no identifier character precedes them.
fn prints_as_aliasable_keyword(a: &AttrData) -> bool {
    matches!(
        a,
        AttrData::AffineMap(_) | AttrData::IntegerSet(_) | AttrData::Distinct { .. }
    ) || a.is_location()
}

#[cfg(test)]
mod tests {
    use super::{normalize_int, small_int};
    use num_bigint::BigInt;
    use rmlir_format::Signedness;

    /// Where the 64-bit fast path takes a literal, it gives what the big
    /// integers give, in range or not: random literals of 1 to 18 digits
    /// (and the limits of each width), both signs, every width to 64 and
    /// every signedness.
    #[test]
    fn small_ints_normalize_as_big_ones() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut rand = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut taken = 0;
        for _ in 0..50_000 {
            let width = (rand() % 65) as u32;
            let digits = 1 + (rand() % 18) as u32;
            let mut m = rand() % 10u64.pow(digits);
            if rand() % 3 == 0 && width > 0 {
                // At the limits of the width, where the ranges end.
                let edge = (1u128 << width) - (rand() % 3) as u128;
                m = u64::try_from(edge >> (rand() % 2)).unwrap_or(m);
            }
            let text = m.to_string();
            for signedness in [
                Signedness::Signless,
                Signedness::Signed,
                Signedness::Unsigned,
            ] {
                for neg in [false, true] {
                    if neg && signedness == Signedness::Unsigned {
                        continue;
                    }
                    let Some(fast) = small_int(text.as_bytes(), neg, width, signedness) else {
                        continue;
                    };
                    taken += 1;
                    let big = BigInt::from(m);
                    let big = if neg { -big } else { big };
                    let general = normalize_int(big, width, signedness);
                    assert_eq!(Some(BigInt::from(fast)), general, "{neg} {text} i{width}");
                }
            }
        }
        assert!(taken > 50_000, "taken {taken}");
        // Out of range: left to the general path, which reports it.
        assert_eq!(small_int(b"256", false, 8, Signedness::Unsigned), None);
        assert_eq!(small_int(b"129", true, 8, Signedness::Signed), None);
        assert_eq!(small_int(b"0x10", false, 8, Signedness::Signless), None);
        assert_eq!(
            small_int(b"1234567890123456789", false, 64, Signedness::Signless),
            None
        );
    }
}
