//! Custom attribute/type encodings of non-builtin dialects (SPEC.md §6.6.5):
//! the writer's half of `rmlir_format::dialect_encodings`.
//!
//! MLIR writes an llvm attribute or quant type in binary exactly when its
//! dialect's generated `writeAttribute`/`writeType` has a case for its C++
//! class; every other one is a textual entry. Our IR keeps such values as
//! the text mlir-opt prints (a [`DialectBody`]), so the writer reads the
//! fields back out of that text, guided by the same generated description
//! the reader decodes with: for llvm attributes the ODS parameters and
//! assembly format of each kind, for quant types the quant printer's rules
//! (`quant` below). A body that does not parse as its kind (which mlir-opt
//! would not have printed) stays a textual entry.
//!
//! Values the text holds inline but the encoding refers to as attributes or
//! types (a `StringAttr` name, a `BoolAttr`, `4 : i64`, a stripped nested
//! attribute spliced into its parent, the `f32` of a quant type) are
//! synthesized in the writer's [`AttrSpace`], uniqued with the module's own.

use super::entries::Sink;
use super::interner::{AttrRef, AttrSpace};
use num_bigint::BigInt;
use rmlir_format::dialect_encodings::{
    dialect_spec, generated::LLVM_ATTRS, AttrSpec, EnumSpec, Format, KindSpec, ParamTy, Read,
};
use rmlir_format::float::{parse_mlir_float, FloatKind};
use rmlir_format::*;

/// One field of a custom entry, in the form its read step takes.
#[derive(Clone, Debug)]
pub enum Field {
    U(u64),
    Byte(u8),
    S(i64),
    Bool(bool),
    Str(Vec<u8>),
    Attr(AttrId),
    OptAttr(Option<AttrId>),
    Type(TypeId),
    OptU(Option<u64>),
    /// `readOptionalArrayRef` of attributes: empty is written as absent.
    OptAttrs(Vec<Option<AttrId>>),
    OptInts(Vec<u64>),
    /// The bits of an `f64`.
    F64(u64),
    F64s(Vec<u64>),
    Ss(Vec<i64>),
}

/// A custom entry: its kind code and fields in write order.
#[derive(Clone, Debug)]
pub struct Custom {
    /// The kind code; `None` for an entry a dialect hook wrote whole.
    pub code: Option<u64>,
    pub fields: Vec<Field>,
}

/// Writes a custom entry (the numbering pass visits its references in
/// field order, as MLIR's numbering writer does).
pub fn write<S: Sink>(s: &mut S, c: &Custom) {
    if let Some(code) = c.code {
        s.varint(code);
    }
    for f in &c.fields {
        match f {
            Field::U(v) => s.varint(*v),
            Field::S(v) => s.signed_varint(*v),
            Field::Bool(b) => s.byte(u8::from(*b)),
            Field::Byte(b) => s.byte(*b),
            Field::Str(b) => s.string(b),
            Field::Attr(a) => s.attr(AttrRef::Id(*a)),
            Field::OptAttr(a) => s.opt_attr(a.map(AttrRef::Id)),
            Field::Type(t) => s.ty(*t),
            Field::OptU(None) => s.varint(0),
            Field::OptU(Some(v)) => s.varint((v << 1) | 1),
            Field::OptAttrs(list) => {
                s.byte(u8::from(!list.is_empty()));
                if !list.is_empty() {
                    s.varint(list.len() as u64);
                    for a in list {
                        s.opt_attr(a.map(AttrRef::Id));
                    }
                }
            }
            Field::OptInts(list) => {
                s.byte(u8::from(!list.is_empty()));
                if !list.is_empty() {
                    s.varint(list.len() as u64);
                    for v in list {
                        s.varint(*v);
                    }
                }
            }
            // `writeAPFloatWithKnownSemantics` of a double: a 64-bit APInt,
            // i.e. a signed varint of the bits.
            Field::F64(b) => s.signed_varint(*b as i64),
            Field::F64s(list) => {
                s.varint(list.len() as u64);
                for b in list {
                    s.signed_varint(*b as i64);
                }
            }
            Field::Ss(list) => {
                s.varint(list.len() as u64);
                for v in list {
                    s.signed_varint(*v);
                }
            }
        }
    }
}

/// The custom encoding of a non-builtin attribute, or `None` for a
/// textual entry.
pub fn encode_attr(space: &mut AttrSpace<'_>, d: &AttrData) -> Option<Custom> {
    let AttrData::Dialect { body, ty: None } = d else {
        return None;
    };
    let spec = dialect_spec(body.dialect.as_bytes())?;
    if spec.attrs.is_empty() {
        return None;
    }
    match spec.name {
        "llvm" => llvm_attr(space, &body.pieces, spec.attrs),
        _ => None,
    }
}

/// The custom encoding of a non-builtin type, or `None` for a textual
/// entry.
pub fn encode_type(space: &mut AttrSpace<'_>, d: &TypeData) -> Option<Custom> {
    let TypeData::Dialect(body) = d else {
        return None;
    };
    let spec = dialect_spec(body.dialect.as_bytes())?;
    if spec.types.is_empty() {
        return None;
    }
    match spec.name {
        "quant" => quant::encode(space, &body.pieces, spec.types),
        _ => None,
    }
}

// ---------------------------------------------------------------------------
// A cursor over body pieces: text bytes and nested references.
// ---------------------------------------------------------------------------

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum It {
    B(u8),
    P(usize),
}

struct Cur<'p> {
    pieces: &'p [BodyPiece],
    items: Vec<It>,
    pos: usize,
}

impl<'p> Cur<'p> {
    fn new(pieces: &'p [BodyPiece]) -> Self {
        let mut items = Vec::new();
        for (i, p) in pieces.iter().enumerate() {
            match p {
                BodyPiece::Text(t) => items.extend(t.bytes().map(It::B)),
                _ => items.push(It::P(i)),
            }
        }
        Cur {
            pieces,
            items,
            pos: 0,
        }
    }

    /// Whether only whitespace is left.
    fn at_end(&self) -> bool {
        self.items[self.pos.min(self.items.len())..]
            .iter()
            .all(|i| matches!(i, It::B(b) if b.is_ascii_whitespace()))
    }

    fn peek(&self) -> Option<It> {
        self.items.get(self.pos).copied()
    }

    fn peek_byte(&self) -> Option<u8> {
        match self.peek() {
            Some(It::B(b)) => Some(b),
            _ => None,
        }
    }

    /// Whitespace is insignificant between tokens, as for MLIR's parsers
    /// (mlir-opt prints single spaces; hand-written text may not).
    fn skip_ws(&mut self) {
        while self.peek_byte().is_some_and(|b| b.is_ascii_whitespace()) {
            self.pos += 1;
        }
    }

    /// Consumes the punctuation/keywords of `s` (its spaces stand for
    /// optional whitespace), or nothing.
    fn eat(&mut self, s: &str) -> bool {
        let save = self.pos;
        for b in s.bytes() {
            if b == b' ' {
                continue;
            }
            self.skip_ws();
            if self.peek() != Some(It::B(b)) {
                self.pos = save;
                return false;
            }
            self.pos += 1;
        }
        true
    }

    fn ident(&mut self) -> Option<String> {
        self.skip_ws();
        let start = self.pos;
        while let Some(b) = self.peek_byte() {
            if b.is_ascii_alphanumeric() || b == b'_' {
                self.pos += 1;
            } else {
                break;
            }
        }
        (self.pos > start).then(|| self.text(start, self.pos))
    }

    fn text(&self, start: usize, end: usize) -> String {
        let bytes: Vec<u8> = self.items[start..end]
            .iter()
            .filter_map(|i| match i {
                It::B(b) => Some(*b),
                It::P(_) => None,
            })
            .collect();
        String::from_utf8_lossy(&bytes).into_owned()
    }

    /// Whether the cursor is at `ident = ` (the next struct parameter).
    fn at_param(&mut self) -> bool {
        let save = self.pos;
        let found = self.ident().is_some() && self.eat("=") && !self.eat("=");
        self.pos = save;
        found
    }

    /// Text up to a `,`, `>`, `]`, `)` or `}` outside brackets and quotes,
    /// or `None` when a nested reference comes first.
    fn token(&mut self) -> Option<String> {
        self.skip_ws();
        let start = self.pos;
        let mut depth = 0usize;
        while let Some(it) = self.peek() {
            let It::B(b) = it else {
                return None;
            };
            match b {
                b'"' => {
                    self.string_lit()?;
                    continue;
                }
                b'<' | b'[' | b'(' | b'{' => depth += 1,
                b',' | b'>' | b']' | b')' | b'}' if depth == 0 => break,
                b'>' | b']' | b')' | b'}' => depth -= 1,
                _ => {}
            }
            self.pos += 1;
        }
        (self.pos > start).then(|| self.text(start, self.pos).trim_end().to_string())
    }

    /// A string literal, unescaped as MLIR's lexer does.
    fn string_lit(&mut self) -> Option<Vec<u8>> {
        if !self.eat("\"") {
            return None;
        }
        let mut out = Vec::new();
        loop {
            let It::B(b) = self.peek()? else {
                return None;
            };
            self.pos += 1;
            match b {
                b'"' => return Some(out),
                b'\\' => {
                    let It::B(c) = self.peek()? else {
                        return None;
                    };
                    self.pos += 1;
                    match c {
                        b'n' => out.push(b'\n'),
                        b't' => out.push(b'\t'),
                        b'"' | b'\\' => out.push(c),
                        _ => {
                            let It::B(d) = self.peek()? else {
                                return None;
                            };
                            self.pos += 1;
                            let hex = |x: u8| (x as char).to_digit(16);
                            out.push((hex(c)? * 16 + hex(d)?) as u8);
                        }
                    }
                }
                _ => out.push(b),
            }
        }
    }

    /// A nested reference at the cursor.
    fn piece(&mut self) -> Option<&'p BodyPiece> {
        self.skip_ws();
        match self.peek() {
            Some(It::P(i)) => {
                self.pos += 1;
                Some(&self.pieces[i])
            }
            _ => None,
        }
    }

    /// The items of a balanced `<…>` group at the cursor, as pieces.
    fn group(&mut self) -> Option<Vec<BodyPiece>> {
        self.skip_ws();
        if self.peek_byte() != Some(b'<') {
            return None;
        }
        let start = self.pos;
        let mut depth = 0usize;
        loop {
            match self.peek()? {
                It::B(b'"') => {
                    self.string_lit()?;
                    continue;
                }
                It::B(b'<' | b'[' | b'(' | b'{') => depth += 1,
                It::B(b'>' | b']' | b')' | b'}') => {
                    depth -= 1;
                    if depth == 0 {
                        self.pos += 1;
                        break;
                    }
                }
                _ => {}
            }
            self.pos += 1;
        }
        Some(self.pieces_of(start, self.pos))
    }

    fn pieces_of(&self, start: usize, end: usize) -> Vec<BodyPiece> {
        let mut out = Vec::new();
        let mut text = Vec::new();
        for it in &self.items[start..end] {
            match it {
                It::B(b) => text.push(*b),
                It::P(i) => {
                    if !text.is_empty() {
                        out.push(BodyPiece::Text(
                            String::from_utf8_lossy(&std::mem::take(&mut text)).into(),
                        ));
                    }
                    out.push(self.pieces[*i].clone());
                }
            }
        }
        if !text.is_empty() {
            out.push(BodyPiece::Text(String::from_utf8_lossy(&text).into()));
        }
        out
    }
}

/// A piece's attribute.
fn piece_attr(p: &BodyPiece) -> Option<AttrId> {
    match p {
        BodyPiece::Attr(a) | BodyPiece::Stripped(a) => Some(*a),
        _ => None,
    }
}

// ---------------------------------------------------------------------------
// Builtin values written inline in dialect bodies.
// ---------------------------------------------------------------------------

fn string_attr(space: &mut AttrSpace<'_>, s: Vec<u8>) -> AttrId {
    space.intern(AttrData::String {
        value: s.into(),
        ty: None,
    })
}

fn bool_attr(space: &mut AttrSpace<'_>, v: bool) -> AttrId {
    let i1 = space.intern_type(TypeData::signless(1));
    space.intern(AttrData::Integer {
        ty: i1,
        value: BigInt::from(u8::from(v)),
    })
}

/// A builtin integer type keyword (`i64`, `si8`, `ui32`, `index`).
fn int_type(space: &mut AttrSpace<'_>, s: &str) -> Option<TypeId> {
    if s == "index" {
        return Some(space.intern_type(TypeData::Index));
    }
    let (sg, digits) = if let Some(d) = s.strip_prefix("si") {
        (Signedness::Signed, d)
    } else if let Some(d) = s.strip_prefix("ui") {
        (Signedness::Unsigned, d)
    } else {
        (Signedness::Signless, s.strip_prefix('i')?)
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let width: u32 = digits.parse().ok()?;
    if width == 0 || width > (1 << 24) - 1 {
        return None;
    }
    Some(space.intern_type(TypeData::Integer {
        width,
        signedness: sg,
    }))
}

/// An attribute printed inline by `printAttribute`: a string, `true` or
/// `false`, or `N : type` of an integer or float type.
fn inline_attr(space: &mut AttrSpace<'_>, text: &str) -> Option<AttrId> {
    let text = text.trim();
    if text.starts_with('"') {
        let pieces = [BodyPiece::Text(text.into())];
        let mut c = Cur::new(&pieces);
        let s = c.string_lit()?;
        return c.at_end().then(|| string_attr(space, s));
    }
    match text {
        "true" => return Some(bool_attr(space, true)),
        "false" => return Some(bool_attr(space, false)),
        _ => {}
    }
    let (v, t) = text.split_once(" : ")?;
    let (v, t) = (v.trim(), t.trim());
    if let Some(kind) = FloatKind::from_keyword(t) {
        let d = TypeData::Float(kind);
        if !super::entries::type_has_encoding(&d) && space.ctx().find_type(&d).is_none() {
            return None;
        }
        let bits = match v.strip_prefix("0x") {
            Some(hex) => u128::from_str_radix(hex, 16).ok()?,
            None => parse_mlir_float(kind, v).ok()?,
        };
        let ty = space.intern_type(d);
        return Some(space.intern(AttrData::Float { ty, bits }));
    }
    let value: BigInt = v.parse().ok()?;
    let ty = int_type(space, t)?;
    // The value as our IR keeps it: signed unless the type is unsigned.
    let value = match space.ty(ty).clone() {
        TypeData::Integer { width, signedness } => normalize(value, width, signedness)?,
        _ => value,
    };
    Some(space.intern(AttrData::Integer { ty, value }))
}

fn normalize(v: BigInt, width: u32, sg: Signedness) -> Option<BigInt> {
    let modulus = BigInt::from(1) << width;
    let half = BigInt::from(1) << (width - 1);
    match sg {
        Signedness::Unsigned => (v >= BigInt::from(0) && v < modulus).then_some(v),
        Signedness::Signed => (v >= -half.clone() && v < half).then_some(v),
        Signedness::Signless => {
            if v >= modulus || v < -half.clone() {
                None
            } else if width == 1 {
                Some(BigInt::from(u8::from(v != BigInt::from(0))))
            } else if v >= half {
                Some(v - modulus)
            } else {
                Some(v)
            }
        }
    }
}

// ---------------------------------------------------------------------------
// llvm attributes
// ---------------------------------------------------------------------------

/// A parameter value as printed.
#[derive(Clone, Debug)]
enum PVal {
    U(u64),
    Bool(bool),
    Str(Vec<u8>),
    Attr(AttrId),
    Attrs(Vec<Option<AttrId>>),
    Ints(Vec<u64>),
}

/// Whether `d` is of the class an llvm parameter of type `ty` holds (the
/// classes the reader checks, `reader/src/bytecode/dialect_encodings/llvm.rs`).
fn attr_fits(d: &AttrData, ty: ParamTy) -> bool {
    match ty {
        ParamTy::StrAttr => matches!(d, AttrData::String { .. }),
        ParamTy::BoolAttr | ParamTy::IntAttr => matches!(d, AttrData::Integer { .. }),
        ParamTy::Distinct => matches!(d, AttrData::Distinct { .. }),
        ParamTy::FusedLoc => matches!(d, AttrData::FusedLoc { .. }),
        ParamTy::LlvmAttr => {
            matches!(d, AttrData::Dialect { body, .. } if &*body.dialect == "llvm")
        }
        ParamTy::Stripped(mnemonic) => match d {
            AttrData::Dialect { body, .. } if &*body.dialect == "llvm" => {
                // Expression elements are written without their mnemonic
                // (`DW_OP_deref`), so only their dialect is known here.
                body.mnemonic() == mnemonic
                    || LLVM_ATTRS
                        .iter()
                        .any(|s| s.mnemonic == mnemonic && s.format == Format::DiExpressionElem)
            }
            _ => false,
        },
        _ => true,
    }
}

/// The generated description of the llvm attribute whose body starts with
/// `text`, and the rest of the text after its mnemonic.
fn llvm_spec(text: &str) -> Option<(&'static AttrSpec, &str)> {
    LLVM_ATTRS
        .iter()
        .filter_map(|s| {
            let rest = text.strip_prefix(s.mnemonic)?;
            let boundary = match rest.bytes().next() {
                None | Some(b'<') => true,
                Some(_) => s.format == Format::DiExpressionElem,
            };
            boundary.then_some((s, rest))
        })
        .max_by_key(|(s, _)| s.mnemonic.len())
}

fn llvm_attr(
    space: &mut AttrSpace<'_>,
    pieces: &[BodyPiece],
    kinds: &[KindSpec],
) -> Option<Custom> {
    let Some(BodyPiece::Text(first)) = pieces.first() else {
        return None;
    };
    let (spec, rest) = llvm_spec(first)?;
    let kind = kinds.iter().find(|k| k.code == spec.code)?;
    // The body after the mnemonic.
    let mut body = Vec::with_capacity(pieces.len());
    if !rest.is_empty() {
        body.push(BodyPiece::Text(rest.into()));
    }
    body.extend(pieces[1..].iter().cloned());
    let mut c = Cur::new(&body);
    let vals = llvm_params(space, spec, &mut c)?;
    if !c.at_end() {
        return None;
    }
    // A nested attribute of the wrong class could not be read back (the
    // reader checks each against its parameter's C++ type): text instead.
    for (p, v) in spec.params.iter().zip(&vals) {
        let fits = match v {
            Some(PVal::Attr(a)) => attr_fits(&space.get(*a), p.ty),
            Some(PVal::Attrs(list)) => match p.ty {
                ParamTy::Array(inner) => list
                    .iter()
                    .flatten()
                    .all(|a| attr_fits(&space.get(*a), *inner)),
                _ => true,
            },
            _ => true,
        };
        if !fits {
            return None;
        }
    }
    let mut fields = Vec::with_capacity(kind.steps.len());
    for (i, step) in kind.steps.iter().enumerate() {
        let v = spec
            .params
            .iter()
            .position(|p| p.step == Some(i))
            .and_then(|p| vals[p].clone());
        fields.push(field(space, step.read, v)?);
    }
    Some(Custom {
        code: Some(kind.code),
        fields,
    })
}

/// A parameter value in the form of its read step (absent parameters take
/// their default, which is zero, false, null or empty).
fn field(space: &mut AttrSpace<'_>, read: Read, v: Option<PVal>) -> Option<Field> {
    Some(match (read, v) {
        (Read::VarInt, None) => Field::U(0),
        (Read::VarInt, Some(PVal::U(x))) => Field::U(x),
        (Read::Bool, None) => Field::Bool(false),
        (Read::Bool, Some(PVal::Bool(b))) => Field::Bool(b),
        (Read::Str, Some(PVal::Str(s))) => Field::Str(s),
        (Read::Str, None) => Field::Str(Vec::new()),
        (Read::Attr, Some(PVal::Attr(a))) => Field::Attr(a),
        (Read::Attr, Some(PVal::Str(s))) => Field::Attr(string_attr(space, s)),
        (Read::OptAttr, None) => Field::OptAttr(None),
        (Read::OptAttr, Some(PVal::Attr(a))) => Field::OptAttr(Some(a)),
        (Read::OptAttr, Some(PVal::Str(s))) => Field::OptAttr(Some(string_attr(space, s))),
        (Read::OptAttr, Some(PVal::Bool(b))) => Field::OptAttr(Some(bool_attr(space, b))),
        (Read::OptInt, None) => Field::OptU(None),
        (Read::OptInt, Some(PVal::U(x))) => Field::OptU(Some(x)),
        (Read::OptArrayAttr, None) => Field::OptAttrs(Vec::new()),
        (Read::OptArrayAttr, Some(PVal::Attrs(l))) => Field::OptAttrs(l),
        (Read::OptArrayInt, None) => Field::OptInts(Vec::new()),
        (Read::OptArrayInt, Some(PVal::Ints(l))) => Field::OptInts(l),
        _ => return None,
    })
}

/// The parameters of `spec` from its body after the mnemonic, by index.
fn llvm_params(
    space: &mut AttrSpace<'_>,
    spec: &AttrSpec,
    c: &mut Cur<'_>,
) -> Option<Vec<Option<PVal>>> {
    let mut vals: Vec<Option<PVal>> = vec![None; spec.params.len()];
    match spec.format {
        Format::Bare => {}
        Format::Struct => {
            if !c.eat("<") {
                return None;
            }
            let mut next = 0;
            if !c.eat(">") {
                loop {
                    let name = c.ident()?;
                    if !c.eat(" = ") {
                        return None;
                    }
                    let i = (next..spec.params.len()).find(|&i| spec.params[i].name == name)?;
                    vals[i] = Some(param(space, spec.params[i].ty, c)?);
                    next = i + 1;
                    if c.eat(">") {
                        break;
                    }
                    if !c.eat(", ") {
                        return None;
                    }
                }
            }
        }
        Format::DiFile => {
            if !c.eat("<") {
                return None;
            }
            let name = c.string_lit()?;
            if !c.eat(" in ") {
                return None;
            }
            let dir = c.string_lit()?;
            if !c.eat(">") || spec.params.len() < 2 {
                return None;
            }
            vals[0] = Some(PVal::Str(name));
            vals[1] = Some(PVal::Str(dir));
        }
        Format::DiExpression => {
            if !c.eat("<") {
                return None;
            }
            if c.eat("[") {
                let p = spec.params.first()?;
                vals[0] = Some(param(space, p.ty, c)?);
                if !c.eat("]") {
                    return None;
                }
            }
            if !c.eat(">") {
                return None;
            }
        }
        Format::DiExpressionElem => {
            let name = c.ident()?;
            let op = lookup_name(rmlir_format::dialect_encodings::generated::DW_OP, &name)?;
            let convert = name == "DW_OP_LLVM_convert";
            vals[0] = Some(PVal::U(u64::from(op)));
            let mut args = Vec::new();
            if c.eat("(") {
                loop {
                    let t = c.token()?;
                    let v = match t.parse::<u64>() {
                        Ok(v) => v,
                        Err(_) if convert && !args.is_empty() => u64::from(lookup_name(
                            rmlir_format::dialect_encodings::generated::DW_ATE,
                            &t,
                        )?),
                        Err(_) => return None,
                    };
                    args.push(v);
                    if c.eat(")") {
                        break;
                    }
                    if !c.eat(", ") {
                        return None;
                    }
                }
            }
            if spec.params.len() < 2 {
                return None;
            }
            vals[1] = Some(PVal::Ints(args));
        }
    }
    Some(vals)
}

/// One parameter value of type `ty` at the cursor.
fn param(space: &mut AttrSpace<'_>, ty: ParamTy, c: &mut Cur<'_>) -> Option<PVal> {
    match ty {
        ParamTy::Array(elem) => {
            let mut list = Vec::new();
            loop {
                if c.eat("<<NULL ATTRIBUTE>>") {
                    list.push(None);
                } else {
                    list.push(Some(single_attr(space, *elem, c)?));
                }
                // Another element follows `, ` unless a parameter does.
                let save = c.pos;
                if c.eat(", ") && !c.at_param() {
                    continue;
                }
                c.pos = save;
                break;
            }
            Some(PVal::Attrs(list))
        }
        ParamTy::U64Array => {
            let mut list = Vec::new();
            loop {
                list.push(c.token()?.parse().ok()?);
                let save = c.pos;
                if c.eat(", ") && !c.at_param() {
                    continue;
                }
                c.pos = save;
                break;
            }
            Some(PVal::Ints(list))
        }
        ParamTy::Dwarf(table) => Some(PVal::U(u64::from(lookup_name(table, &c.token()?)?))),
        ParamTy::U32 | ParamTy::U64 | ParamTy::OptU32 => Some(PVal::U(c.token()?.parse().ok()?)),
        ParamTy::Bool => match c.token()?.as_str() {
            "true" => Some(PVal::Bool(true)),
            "false" => Some(PVal::Bool(false)),
            _ => None,
        },
        ParamTy::Enum(e) => Some(PVal::U(parse_enum(e, &c.token()?)?)),
        ParamTy::StrAttr => {
            if let Some(p) = c.piece() {
                return piece_attr(p).map(PVal::Attr);
            }
            let s = c.string_lit()?;
            Some(PVal::Str(s))
        }
        ParamTy::BoolAttr => match c.token()?.as_str() {
            "true" => Some(PVal::Bool(true)),
            "false" => Some(PVal::Bool(false)),
            _ => None,
        },
        ParamTy::IntAttr | ParamTy::AnyAttr => {
            if let Some(p) = c.piece() {
                return piece_attr(p).map(PVal::Attr);
            }
            let t = c.token()?;
            inline_attr(space, &t).map(PVal::Attr)
        }
        _ => single_attr(space, ty, c).map(PVal::Attr),
    }
}

/// A nested attribute parameter: a reference, or (for a stripped one
/// spliced into the text) the nested attribute rebuilt from its text.
fn single_attr(space: &mut AttrSpace<'_>, ty: ParamTy, c: &mut Cur<'_>) -> Option<AttrId> {
    if let Some(p) = c.piece() {
        return piece_attr(p);
    }
    let ParamTy::Stripped(mnemonic) = ty else {
        return None;
    };
    let spec = LLVM_ATTRS.iter().find(|s| s.mnemonic == mnemonic)?;
    let inner = if spec.format == Format::DiExpressionElem {
        let t = c.token()?;
        vec![BodyPiece::Text(t.into())]
    } else {
        c.group()?
    };
    let mut pieces = Vec::with_capacity(inner.len() + 1);
    match inner.first() {
        Some(BodyPiece::Text(t)) => {
            pieces.push(BodyPiece::Text(format!("{mnemonic}{t}").into()));
            pieces.extend(inner[1..].iter().cloned());
        }
        _ => {
            pieces.push(BodyPiece::Text(mnemonic.into()));
            pieces.extend(inner);
        }
    }
    let d = AttrData::Dialect {
        body: DialectBody {
            dialect: "llvm".into(),
            pieces,
        },
        ty: None,
    };
    // Only a nested attribute that itself encodes is rebuilt.
    encode_attr(space, &d)?;
    Some(space.intern(d))
}

fn lookup_name(table: &[(u32, &str)], name: &str) -> Option<u32> {
    table.iter().find(|e| e.1 == name).map(|e| e.0)
}

/// The value of an enum as its `operator<<` prints it.
fn parse_enum(e: &EnumSpec, text: &str) -> Option<u64> {
    match e {
        EnumSpec::Plain { names, .. } => names.iter().find(|n| n.1 == text).map(|n| n.0),
        EnumSpec::Bits { zero, steps, .. } => {
            let t = text.trim_matches('"');
            if t == *zero {
                return Some(0);
            }
            let mut v = 0u64;
            for name in t.split('|') {
                v |= steps.iter().find(|s| s.1 == name)?.0;
            }
            Some(v)
        }
    }
}

// ---------------------------------------------------------------------------
// quant types
// ---------------------------------------------------------------------------

mod quant {
    use super::*;
    use rmlir_format::dialect_encodings::quant::{default_storage_bounds, SIGNED};
    use rmlir_format::dialect_encodings::Step;

    /// Values by the names of the generated read steps.
    #[derive(Default)]
    struct Vals {
        flags: u64,
        storage: Option<TypeId>,
        expressed: Option<TypeId>,
        min: i64,
        max: i64,
        scale: u64,
        zero: i64,
        dim: u64,
        scales: Vec<u64>,
        zeros: Vec<i64>,
        cal_min: u64,
        cal_max: u64,
        dims: Vec<i64>,
        block_sizes: Vec<i64>,
        scales_attr: Option<AttrId>,
        zeros_attr: Option<AttrId>,
    }

    /// A level of a sub-channel type's nested parameters.
    enum Node {
        List(Vec<Node>),
        Leaf(String, BigInt),
    }

    fn nested(c: &mut Cur<'_>, depth: usize) -> Option<Node> {
        if depth > 64 {
            return None;
        }
        if !c.eat("{") {
            let s = number(c, b':')?;
            let z = if c.eat(":") {
                number(c, b':')?.parse().ok()?
            } else {
                BigInt::from(0)
            };
            return Some(Node::Leaf(s, z));
        }
        let mut items = Vec::new();
        loop {
            items.push(nested(c, depth + 1)?);
            if c.eat("}") {
                return Some(Node::List(items));
            }
            if !c.eat(", ") {
                return None;
            }
        }
    }

    /// The shape of a regular nesting, and its leaves in order.
    fn flatten<'n>(
        n: &'n Node,
        shape: &mut Vec<i64>,
        depth: usize,
        out: &mut Vec<(&'n str, &'n BigInt)>,
    ) -> Option<()> {
        match n {
            Node::Leaf(s, z) => {
                if depth != shape.len() {
                    return None;
                }
                out.push((s, z));
            }
            Node::List(items) => {
                match shape.get(depth) {
                    Some(&d) if d != items.len() as i64 => return None,
                    Some(_) => {}
                    None if depth == shape.len() && out.is_empty() => {
                        shape.push(items.len() as i64)
                    }
                    None => return None,
                }
                for i in items {
                    flatten(i, shape, depth + 1, out)?;
                }
            }
        }
        Some(())
    }

    /// `{d:s, …}, {{s:z, …}, …}>` after `storage:expressed:`: the quantized
    /// dimensions and block sizes, and the scales and zero points as the
    /// dense tensors MLIR keeps (scales of the expressed type, zero points
    /// of the storage type, shaped as the nesting; splat when all equal).
    fn sub_channel(space: &mut AttrSpace<'_>, c: &mut Cur<'_>, v: &mut Vals) -> Option<()> {
        loop {
            v.dims.push(number(c, b':')?.parse::<i32>().ok()?.into());
            if !c.eat(":") {
                return None;
            }
            v.block_sizes.push(number(c, b':')?.parse().ok()?);
            if c.eat("}") {
                break;
            }
            if !c.eat(", ") {
                return None;
            }
        }
        if !c.eat(", ") {
            return None;
        }
        let tree = nested(c, 0)?;
        let mut shape = Vec::new();
        let mut leaves = Vec::new();
        flatten(&tree, &mut shape, 0, &mut leaves)?;
        if leaves.is_empty() {
            return None;
        }
        let expressed = v.expressed?;
        let storage = v.storage?;
        let TypeData::Float(kind) = space.ty(expressed).clone() else {
            return None;
        };
        let TypeData::Integer { width, .. } = space.ty(storage).clone() else {
            return None;
        };
        let fbytes = (kind.bit_width() as usize).div_ceil(8);
        let ibytes = (width as usize).div_ceil(8);
        let mut scales: Vec<Vec<u8>> = Vec::with_capacity(leaves.len());
        let mut zeros: Vec<Vec<u8>> = Vec::with_capacity(leaves.len());
        for (st, z) in &leaves {
            let bits = match st.strip_prefix("0x") {
                Some(hex) => u128::from_str_radix(hex, 16).ok()?,
                None => parse_mlir_float(kind, st).ok()?,
            };
            scales.push(bits.to_le_bytes()[..fbytes].to_vec());
            // Sign-extended to whole bytes, as MLIR stores the zero points.
            let words = crate::bytecode::entries::int_words(z, (ibytes * 8) as u32);
            let mut b: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
            b.truncate(ibytes);
            zeros.push(b);
        }
        let mut dense = |elem: TypeId, elems: Vec<Vec<u8>>| {
            let ty = space.intern_type(TypeData::RankedTensor {
                shape: shape.clone(),
                elem,
                encoding: None,
            });
            let splat = elems.iter().all(|e| *e == elems[0]);
            let data: Vec<u8> = if splat {
                elems[0].clone()
            } else {
                elems.concat()
            };
            let a = space.intern(AttrData::DenseIntOrFp {
                ty,
                splat,
                data: data.into(),
            });
            // MLIR's storage of the values: sign-extended to whole bytes.
            space.mark_raw_dense(a);
            a
        };
        v.scales_attr = Some(dense(expressed, scales));
        v.zeros_attr = Some(dense(storage, zeros));
        Some(())
    }

    pub fn encode(
        space: &mut AttrSpace<'_>,
        pieces: &[BodyPiece],
        kinds: &[KindSpec],
    ) -> Option<Custom> {
        let mut c = Cur::new(pieces);
        let mnemonic = c.ident()?;
        if !c.eat("<") {
            return None;
        }
        let mut v = Vals::default();
        let class = match mnemonic.as_str() {
            "any" => {
                storage(space, &mut c, &mut v)?;
                if c.eat(":") {
                    v.expressed = Some(ty(space, &mut c)?);
                }
                "AnyQuantizedType"
            }
            "uniform" => {
                storage(space, &mut c, &mut v)?;
                if !c.eat(":") {
                    return None;
                }
                v.expressed = Some(ty(space, &mut c)?);
                if c.eat(":{") {
                    sub_channel(space, &mut c, &mut v)?;
                    "UniformQuantizedSubChannelType"
                } else if c.eat(":") {
                    // Per axis: a dimension, then the parameters.
                    v.dim = c.token()?.parse::<u32>().ok()?.into();
                    if !c.eat(", {") {
                        return None;
                    }
                    loop {
                        let (s, z) = scale_zero(&mut c)?;
                        v.scales.push(s);
                        v.zeros.push(z);
                        if c.eat("}") {
                            break;
                        }
                        if !c.eat(",") {
                            return None;
                        }
                    }
                    "UniformQuantizedPerAxisType"
                } else {
                    if !c.eat(", ") {
                        return None;
                    }
                    let (s, z) = scale_zero(&mut c)?;
                    v.scale = s;
                    v.zero = z;
                    "UniformQuantizedType"
                }
            }
            "calibrated" => {
                v.expressed = Some(ty(space, &mut c)?);
                if !c.eat("<") {
                    return None;
                }
                v.cal_min = double(&number(&mut c, b':')?)?;
                if !c.eat(":") {
                    return None;
                }
                v.cal_max = double(&c.token()?)?;
                if !c.eat(">") {
                    return None;
                }
                "CalibratedQuantizedType"
            }
            _ => return None,
        };
        if !c.eat(">") || !c.at_end() {
            return None;
        }
        // The kind whose steps read exactly the fields present: `any`
        // without an expressed type has a kind of its own.
        let kind = kinds.iter().find(|k| {
            k.class == class
                && k.steps.iter().any(|s| s.name == "expressedType") == v.expressed.is_some()
        })?;
        let fields = kind
            .steps
            .iter()
            .map(|s| step(s, &v))
            .collect::<Option<Vec<_>>>()?;
        Some(Custom {
            code: Some(kind.code),
            fields,
        })
    }

    fn step(s: &Step, v: &Vals) -> Option<Field> {
        Some(match (s.name, s.read) {
            ("flags", Read::VarInt) => Field::U(v.flags),
            ("storageType", Read::Type) => Field::Type(v.storage?),
            ("expressedType", Read::Type) => Field::Type(v.expressed?),
            ("storageTypeMin", Read::SignedVarInt) => Field::S(v.min),
            ("storageTypeMax", Read::SignedVarInt) => Field::S(v.max),
            ("scale", Read::F64) => Field::F64(v.scale),
            ("zeroPoint", Read::SignedVarInt) => Field::S(v.zero),
            ("quantizedDimension", Read::VarInt) => Field::U(v.dim),
            ("scales", Read::ListF64) => Field::F64s(v.scales.clone()),
            ("zeroPoints", Read::ListSignedVarInt) => Field::Ss(v.zeros.clone()),
            ("min", Read::F64) => Field::F64(v.cal_min),
            ("max", Read::F64) => Field::F64(v.cal_max),
            ("quantizedDimensions", Read::ListSignedVarInt) => Field::Ss(v.dims.clone()),
            ("blockSizes", Read::ListSignedVarInt) => Field::Ss(v.block_sizes.clone()),
            ("scales", Read::Attr) => Field::Attr(v.scales_attr?),
            ("zeroPoints", Read::Attr) => Field::Attr(v.zeros_attr?),
            _ => return None,
        })
    }

    /// `i8`, `u4<1:14>`: flags, the signless storage type and its bounds.
    fn storage(space: &mut AttrSpace<'_>, c: &mut Cur<'_>, v: &mut Vals) -> Option<()> {
        let id = c.ident()?;
        let (signed, digits) = if let Some(d) = id.strip_prefix('i') {
            (true, d)
        } else {
            (false, id.strip_prefix('u')?)
        };
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let width: u32 = digits.parse().ok()?;
        if width == 0 || width > 64 {
            return None;
        }
        v.flags = if signed { SIGNED } else { 0 };
        v.storage = Some(space.intern_type(TypeData::signless(width)));
        let (lo, hi) = default_storage_bounds(signed, width);
        v.min = lo;
        v.max = hi;
        if c.eat("<") {
            v.min = number(c, b':')?.parse().ok()?;
            if !c.eat(":") {
                return None;
            }
            v.max = c.token()?.parse().ok()?;
            if !c.eat(">") {
                return None;
            }
        }
        Some(())
    }

    /// Text up to `stop` (or a token end).
    fn number(c: &mut Cur<'_>, stop: u8) -> Option<String> {
        c.skip_ws();
        let start = c.pos;
        while let Some(b) = c.peek_byte() {
            if b == stop || matches!(b, b',' | b'>' | b'}') {
                break;
            }
            c.pos += 1;
        }
        (c.pos > start).then(|| c.text(start, c.pos).trim_end().to_string())
    }

    /// `scale[:zeroPoint]`.
    fn scale_zero(c: &mut Cur<'_>) -> Option<(u64, i64)> {
        let s = double(&number(c, b':')?)?;
        let z = if c.eat(":") {
            number(c, b':')?.parse().ok()?
        } else {
            0
        };
        Some((s, z))
    }

    /// A double as `printFloat` shows it: decimal, or the bit pattern in
    /// hexadecimal when the decimal form would not read back exactly.
    fn double(t: &str) -> Option<u64> {
        let t = t.trim();
        if let Some(hex) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
            return u64::from_str_radix(hex, 16).ok();
        }
        parse_mlir_float(FloatKind::F64, t).ok().map(|b| b as u64)
    }

    /// The expressed type: a reference, or a float keyword.
    fn ty(space: &mut AttrSpace<'_>, c: &mut Cur<'_>) -> Option<TypeId> {
        if let Some(p) = c.piece() {
            return match p {
                BodyPiece::Type(t) => Some(*t),
                _ => None,
            };
        }
        let id = c.ident()?;
        let kind = FloatKind::from_keyword(&id)?;
        // Only kinds with a builtin binary encoding are synthesized.
        let d = TypeData::Float(kind);
        if space.ctx().find_type(&d).is_none() && !crate::bytecode::entries::type_has_encoding(&d) {
            return None;
        }
        Some(space.intern_type(d))
    }
}
