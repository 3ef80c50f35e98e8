//! The llvm dialect's custom-encoded attributes (debug info, loop
//! annotations) as text, both ways, from each attribute's ODS parameters
//! and assembly format (generated data, [`LLVM_ATTRS`]; SPEC.md §6.6.5):
//!
//! - [`encode`] reads the fields back out of a body as mlir-opt prints it
//!   (or as a person writes it: whitespace and number spelling are free);
//! - [`print`] prints fields as mlir-opt 22 does;
//! - [`canonical`] is one after the other. The text parser uses it so that
//!   a hand-written body is kept in mlir-opt's spelling, as MLIR's own
//!   parser does by building the attribute.
//!
//! Values the text holds inline but the encoding refers to as attributes
//! (a `StringAttr` name, a `BoolAttr`, `4 : i64`, a stripped nested
//! attribute spliced into its parent) are synthesized through a
//! [`BodyInterner`].
//!
//! Parameters whose C++ type is a specific llvm attribute class are printed
//! "stripped" (`file = <"a.c" in "/">`), or as their alias when they have
//! one: those nested attributes stay references (the printer aliases them);
//! stripped attributes without an alias kind are spliced in as their body.
//! Parameters of interface or generic type print in full (`#llvm.…`).

use crate::mlir_opt::attr_alias;
use crate::upstream_encodings::{DW_ATE, DW_OP, LLVM_ATTRS};
use num_bigint::BigInt;
use num_traits::Zero;
use rmlir_format::dialect_encodings::body_cursor::{piece_attr, BodyCursor};
use rmlir_format::dialect_encodings::{
    AttrLookup, AttrSpec, BodyBuilder, BodyInterner, EnumSpec, Field, FieldError, Format, KindSpec,
    Param, ParamTy, Read, Value,
};
use rmlir_format::escape::write_quoted;
use rmlir_format::float::{parse_mlir_float, FloatKind};
use rmlir_format::{AttrData, AttrId, BodyPiece, DialectBody, Signedness, TypeData, TypeId};

type Result<T> = std::result::Result<T, FieldError>;

/// The generated description of llvm attribute kind `code`.
pub fn spec_of(code: u64) -> Option<&'static AttrSpec> {
    LLVM_ATTRS.iter().find(|s| s.code == code)
}

/// The body (mnemonic first) of the llvm attribute `spec` (of the kind
/// whose C++ class is `kind`, for messages) with fields `values`, one per
/// read step, as mlir-opt 22 prints it.
pub fn print<L: AttrLookup + ?Sized>(
    look: &L,
    spec: &AttrSpec,
    kind: &KindSpec,
    values: &[Value<'_>],
) -> Result<Vec<BodyPiece>> {
    let mut p = Printer {
        look,
        class: kind.class,
        values,
        b: BodyBuilder::default(),
    };
    p.b.text(spec.mnemonic);
    p.stripped(spec)?;
    Ok(p.b.pieces)
}

// Builtin values written inline in dialect bodies.

fn string_attr(space: &mut dyn BodyInterner, s: Vec<u8>) -> AttrId {
    space.intern_attr(AttrData::String {
        value: s.into(),
        ty: None,
    })
}

fn bool_attr(space: &mut dyn BodyInterner, v: bool) -> AttrId {
    let i1 = space.intern_type(TypeData::signless(1));
    space.intern_attr(AttrData::Integer {
        ty: i1,
        value: BigInt::from(u8::from(v)),
    })
}

/// A builtin integer type keyword (`i64`, `si8`, `ui32`, `index`).
fn int_type(space: &mut dyn BodyInterner, s: &str) -> Option<TypeId> {
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
fn inline_attr(space: &mut dyn BodyInterner, text: &str) -> Option<AttrId> {
    let text = text.trim();
    if text.starts_with('"') {
        let pieces = [BodyPiece::Text(text.into())];
        let mut c = BodyCursor::new(&pieces);
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
        if !space.may_synthesize_type(&d) {
            return None;
        }
        let bits = match v.strip_prefix("0x") {
            Some(hex) => u128::from_str_radix(hex, 16).ok()?,
            None => parse_mlir_float(kind, v).ok()?,
        };
        let ty = space.intern_type(d);
        return Some(space.intern_attr(AttrData::Float {
            ty,
            bits: bits.into(),
        }));
    }
    let value: BigInt = v.parse().ok()?;
    let ty = int_type(space, t)?;
    // The value as our IR keeps it: signed unless the type is unsigned.
    let value = match space.type_data(ty).clone() {
        TypeData::Integer { width, signedness } => normalize(value, width, signedness)?,
        _ => value,
    };
    Some(space.intern_attr(AttrData::Integer { ty, value }))
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
            // The test the printer makes (`strip_mnemonic`): the body is
            // the mnemonic, then `<` or nothing (an expression element's
            // opcode follows its mnemonic directly). `#llvm<di_file$$<…>>`
            // is not a `di_file`.
            AttrData::Dialect { body, .. } if &*body.dialect == "llvm" => {
                strip_mnemonic(&body.pieces, mnemonic).is_some()
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

/// An llvm attribute's custom encoding, recovered from its body.
pub struct Encoded {
    pub spec: &'static AttrSpec,
    pub kind: &'static KindSpec,
    /// One per read step of `kind`.
    pub fields: Vec<Field>,
}

/// The custom encoding of the llvm attribute with body `pieces` (its
/// mnemonic first), or `None` when the body does not parse as an
/// encodable kind (mlir-opt would then not have printed it; it stays a
/// textual entry).
pub fn encode(space: &mut dyn BodyInterner, pieces: &[BodyPiece], major: u32) -> Option<Encoded> {
    let kinds = crate::upstream_encodings::spec("llvm")?.attrs;
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
    let read_with = |space: &mut dyn BodyInterner, spec: &AttrSpec| {
        let mut c = BodyCursor::new(&body);
        llvm_params(space, spec, &mut c, major).filter(|_| c.at_end())
    };
    // As MLIR 22 prints it, or as MLIR 23 and 24 do, leaving out the
    // parameters they gave defaults (`newer_kinds.rs`).
    let vals = read_with(space, spec).or_else(|| {
        let relaxed = super::newer_kinds::printing(spec.code)?;
        read_with(space, relaxed)
    })?;
    // A nested attribute of the wrong class could not be read back (the
    // reader checks each against its parameter's C++ type): text instead.
    for (p, v) in spec.params.iter().zip(&vals) {
        let fits = match v {
            Some(PVal::Attr(a)) => attr_fits(&space.attr_data(*a), p.ty),
            Some(PVal::Attrs(list)) => match p.ty {
                ParamTy::Array(inner) => list
                    .iter()
                    .flatten()
                    .all(|a| attr_fits(&space.attr_data(*a), *inner)),
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
    Some(Encoded { spec, kind, fields })
}

/// The body mlir-opt prints for the llvm attribute with body `pieces`:
/// what parsing it and printing it again gives (SPEC.md §2.4), as MLIR
/// release `major` prints it (`newer_kinds::printing`). `None` when it
/// does not parse as an encodable kind.
pub fn canonical(
    space: &mut dyn BodyInterner,
    pieces: &[BodyPiece],
    major: u32,
) -> Option<Vec<BodyPiece>> {
    let e = encode(space, pieces, major)?;
    let values: Vec<Value<'_>> = e.fields.iter().map(Field::as_value).collect();
    let look: &dyn AttrLookup = space;
    let spec = match major {
        ..=22 => e.spec,
        _ => super::newer_kinds::printing(e.spec.code).unwrap_or(e.spec),
    };
    print(look, spec, e.kind, &values).ok()
}

/// A parameter value in the form of its read step (absent parameters take
/// their default, which is zero, false, null or empty).
fn field(space: &mut dyn BodyInterner, read: Read, v: Option<PVal>) -> Option<Field> {
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
    space: &mut dyn BodyInterner,
    spec: &AttrSpec,
    c: &mut BodyCursor<'_>,
    major: u32,
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
                    vals[i] = Some(param(space, spec.params[i].ty, c, major)?);
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
                vals[0] = Some(param(space, p.ty, c, major)?);
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
            let op = lookup_name(DW_OP, &name)?;
            let convert = name == "DW_OP_LLVM_convert";
            vals[0] = Some(PVal::U(u64::from(op)));
            let mut args = Vec::new();
            if c.eat("(") {
                loop {
                    let t = c.token()?;
                    let v = match t.parse::<u64>() {
                        Ok(v) => v,
                        Err(_) if convert && !args.is_empty() => {
                            u64::from(lookup_name(DW_ATE, &t)?)
                        }
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

/// Consumes the `, ` before another element of a list parameter: one
/// follows unless a parameter (`name = `) does.
fn next_element(c: &mut BodyCursor<'_>) -> bool {
    let save = c.pos;
    if c.eat(", ") && !c.at_param() {
        return true;
    }
    c.pos = save;
    false
}

/// One parameter value of type `ty` at the cursor.
fn param(
    space: &mut dyn BodyInterner,
    ty: ParamTy,
    c: &mut BodyCursor<'_>,
    major: u32,
) -> Option<PVal> {
    match ty {
        ParamTy::Array(elem) => {
            let mut list = Vec::new();
            loop {
                if c.eat("<<NULL ATTRIBUTE>>") {
                    list.push(None);
                } else {
                    list.push(Some(single_attr(space, *elem, c, major)?));
                }
                if !next_element(c) {
                    break;
                }
            }
            Some(PVal::Attrs(list))
        }
        ParamTy::U64Array => {
            let mut list = Vec::new();
            loop {
                list.push(c.token()?.parse().ok()?);
                if !next_element(c) {
                    break;
                }
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
        _ => single_attr(space, ty, c, major).map(PVal::Attr),
    }
}

/// A nested attribute parameter: a reference, or (for a stripped one
/// spliced into the text) the nested attribute rebuilt from its text.
fn single_attr(
    space: &mut dyn BodyInterner,
    ty: ParamTy,
    c: &mut BodyCursor<'_>,
    major: u32,
) -> Option<AttrId> {
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
        body: Box::new(DialectBody {
            dialect: "llvm".into(),
            pieces,
        }),
        ty: None,
    };
    // Only a nested attribute that itself encodes is rebuilt, in the
    // spelling mlir-opt prints.
    let AttrData::Dialect { body, .. } = &d else {
        return None;
    };
    let pieces = canonical(space, &body.pieces, major)?;
    Some(space.intern_attr(AttrData::Dialect {
        body: Box::new(DialectBody {
            dialect: "llvm".into(),
            pieces,
        }),
        ty: None,
    }))
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

// Printing.

struct Printer<'p, 'a, L: AttrLookup + ?Sized> {
    look: &'p L,
    class: &'static str,
    values: &'p [Value<'a>],
    b: BodyBuilder,
}

impl<'p, 'a, L: AttrLookup + ?Sized> Printer<'p, 'a, L> {
    /// The value of a parameter: `None` when the encoding does not carry it.
    fn value(&self, p: &Param) -> Result<Option<(&'p Value<'a>, usize)>> {
        let Some(i) = p.step else {
            return Ok(None);
        };
        let values: &'p [Value<'a>] = self.values;
        match values.get(i) {
            Some(v) => Ok(Some((v, i))),
            None => Err(FieldError::entry(format!(
                "llvm attribute {}: parameter '{}' has no field",
                self.class, p.name
            ))),
        }
    }

    /// The attribute without its mnemonic, per its assembly format.
    fn stripped(&mut self, spec: &AttrSpec) -> Result<()> {
        match spec.format {
            Format::Bare => Ok(()),
            Format::Struct => {
                self.b.text("<");
                let mut first = true;
                for p in spec.params {
                    let v = self.value(p)?;
                    if p.optional && is_default(p.ty, v.map(|x| x.0)) {
                        continue;
                    }
                    if !first {
                        self.b.text(", ");
                    }
                    first = false;
                    self.b.text(p.name);
                    self.b.text(" = ");
                    match v {
                        Some((v, i)) => self.param(p.ty, v, i)?,
                        None => self.b.text("<<NULL ATTRIBUTE>>"),
                    }
                }
                self.b.text(">");
                Ok(())
            }
            Format::DiFile => {
                let name = self.string_param(spec, 0)?;
                let dir = self.string_param(spec, 1)?;
                let mut s = String::from("<");
                write_quoted(name, &mut s);
                s.push_str(" in ");
                write_quoted(dir, &mut s);
                s.push('>');
                self.b.text(&s);
                Ok(())
            }
            Format::DiExpression => {
                self.b.text("<");
                if let Some(p) = spec.params.first() {
                    if let Some((v, i)) = self.value(p)? {
                        let empty = matches!(v, Value::Attrs(ops) if ops.is_empty());
                        if !empty {
                            self.b.text("[");
                            self.param(p.ty, v, i)?;
                            self.b.text("]");
                        }
                    }
                }
                self.b.text(">");
                Ok(())
            }
            Format::DiExpressionElem => self.expression_elem(spec),
        }
    }

    fn string_param(&self, spec: &AttrSpec, n: usize) -> Result<&'a [u8]> {
        let found = match spec.params.get(n) {
            Some(p) => self.value(p)?,
            None => None,
        };
        match found {
            Some((Value::Str(s), _)) => Ok(s),
            _ => Err(FieldError::entry(format!(
                "llvm attribute {}: expected a string field",
                self.class
            ))),
        }
    }

    /// `DW_OP_x(args)`: arguments are integers, except that those after the
    /// first of `DW_OP_LLVM_convert` print as their `DW_ATE_*` name.
    fn expression_elem(&mut self, spec: &AttrSpec) -> Result<()> {
        let (opcode, args) = match (spec.params.first(), spec.params.get(1)) {
            (Some(op), Some(args)) => (self.value(op)?, self.value(args)?),
            _ => (None, None),
        };
        let opcode = match opcode {
            Some((Value::U(x), _)) => *x as u32,
            _ => {
                return Err(FieldError::entry(
                    "llvm attribute DIExpressionElemAttr: expected an opcode field",
                ))
            }
        };
        let mut s = String::from(lookup(DW_OP, opcode));
        if let Some((Value::Ints(args), _)) = args {
            if !args.is_empty() {
                let convert = lookup_name(DW_OP, "DW_OP_LLVM_convert") == Some(opcode);
                s.push('(');
                for (k, a) in args.iter().enumerate() {
                    if k > 0 {
                        s.push_str(", ");
                    }
                    let name = lookup(DW_ATE, *a as u32);
                    if convert && k > 0 && u32::try_from(*a).is_ok() && !name.is_empty() {
                        s.push_str(name);
                    } else {
                        s.push_str(&a.to_string());
                    }
                }
                s.push(')');
            }
        }
        self.b.text(&s);
        Ok(())
    }

    /// One parameter value in `struct(params)` (or a format's list).
    fn param(&mut self, ty: ParamTy, v: &Value<'_>, i: usize) -> Result<()> {
        match (ty, v) {
            (ParamTy::Dwarf(table), Value::U(x)) => self.b.text(lookup(table, *x as u32)),
            (ParamTy::U32, Value::U(x)) => self.b.text(&(*x as u32).to_string()),
            (ParamTy::U64, Value::U(x)) => self.b.text(&x.to_string()),
            (ParamTy::Bool, Value::Bool(x)) => self.b.text(if *x { "true" } else { "false" }),
            (ParamTy::OptU32, Value::OptU(Some(x))) => self.b.text(&(*x as u32).to_string()),
            (ParamTy::Enum(e), Value::U(x)) => self.b.text(&enum_text(e, *x)),
            (ParamTy::Array(elem), Value::Attrs(list)) => {
                for (k, a) in list.iter().enumerate() {
                    if k > 0 {
                        self.b.text(", ");
                    }
                    match a {
                        Some(a) => self.nested(*elem, *a, i)?,
                        None if matches!(elem, ParamTy::LlvmAttr | ParamTy::AnyAttr) => {
                            self.b.text("<<NULL ATTRIBUTE>>")
                        }
                        None => return Err(FieldError::field(i, "null array element")),
                    }
                }
            }
            (ParamTy::StrAttr, Value::Str(s)) => {
                let mut t = String::new();
                write_quoted(s, &mut t);
                self.b.text(&t);
            }
            (ParamTy::U64Array, Value::Ints(list)) => {
                let s: Vec<String> = list.iter().map(|x| x.to_string()).collect();
                self.b.text(&s.join(", "));
            }
            (_, Value::Attr(Some(a))) => self.nested(ty, *a, i)?,
            (_, Value::Attr(None)) => self.b.text("<<NULL ATTRIBUTE>>"),
            _ => {
                return Err(FieldError::field(
                    i,
                    format!("field does not fit parameter type {ty:?}"),
                ))
            }
        }
        Ok(())
    }

    /// A nested attribute, checked against the parameter's C++ type.
    fn nested(&mut self, ty: ParamTy, a: AttrId, i: usize) -> Result<()> {
        let look: &'p L = self.look;
        let data = look.attr_data(a);
        let data: &AttrData = &data;
        let bad = |want: &str| -> Result<()> {
            Err(FieldError::field(
                i,
                format!(
                    "expected attribute of type: {want}, but got: {}",
                    data.kind_phrase()
                ),
            ))
        };
        match ty {
            ParamTy::StrAttr => match data {
                AttrData::String { value, ty: None } => {
                    let mut s = String::new();
                    write_quoted(value, &mut s);
                    self.b.text(&s);
                }
                AttrData::String { .. } => self.b.attr(a),
                _ => return bad("StringAttr"),
            },
            ParamTy::BoolAttr => match data {
                AttrData::Integer { ty, value } if is_i1(look, *ty) => {
                    self.b.text(if value.is_zero() { "false" } else { "true" })
                }
                _ => return bad("BoolAttr"),
            },
            ParamTy::IntAttr => match data {
                AttrData::Integer { .. } => self.builtin(a),
                _ => return bad("IntegerAttr"),
            },
            ParamTy::Distinct => match data {
                AttrData::Distinct { .. } => self.b.attr(a),
                _ => return bad("DistinctAttr"),
            },
            ParamTy::FusedLoc => match data {
                AttrData::FusedLoc { .. } => self.b.attr(a),
                _ => return bad("FusedLoc"),
            },
            ParamTy::AnyAttr => self.builtin(a),
            ParamTy::LlvmAttr => match data {
                AttrData::Dialect { body, .. } if &*body.dialect == "llvm" => self.b.attr(a),
                _ => return bad("an llvm attribute"),
            },
            ParamTy::Stripped(mnemonic) => {
                let rest = match data {
                    AttrData::Dialect { body, .. } if &*body.dialect == "llvm" => {
                        strip_mnemonic(&body.pieces, mnemonic)
                    }
                    _ => None,
                };
                let Some(rest) = rest else {
                    return bad(&format!("#llvm.{mnemonic}"));
                };
                if attr_alias("llvm", mnemonic).is_some() {
                    // Printed as its alias (`#di_file`), or stripped (`<…>`)
                    // in local scope.
                    self.b.pieces.push(BodyPiece::Stripped(a));
                } else {
                    // No alias kind: its stripped body is spliced in.
                    for p in rest {
                        match p {
                            BodyPiece::Text(t) => self.b.text(&t),
                            other => self.b.pieces.push(other),
                        }
                    }
                }
            }
            _ => return Err(FieldError::field(i, "not an attribute parameter")),
        }
        Ok(())
    }

    /// A builtin attribute printed by `printAttribute`: strings and integers
    /// inline as text (as the text parser keeps them), anything else as a
    /// reference.
    fn builtin(&mut self, a: AttrId) {
        let look: &'p L = self.look;
        match &*look.attr_data(a) {
            AttrData::String { value, ty: None } => {
                let mut s = String::new();
                write_quoted(value, &mut s);
                self.b.text(&s);
            }
            AttrData::Integer { ty, value } => match look.type_data(*ty) {
                TypeData::Integer {
                    width: 1,
                    signedness: Signedness::Signless,
                } => self.b.text(if value.is_zero() { "false" } else { "true" }),
                TypeData::Integer { width, signedness } => {
                    let prefix = match signedness {
                        Signedness::Signless => "i",
                        Signedness::Signed => "si",
                        Signedness::Unsigned => "ui",
                    };
                    self.b.text(&format!("{value} : {prefix}{width}"));
                }
                TypeData::Index => self.b.text(&format!("{value} : index")),
                _ => self.b.attr(a),
            },
            _ => self.b.attr(a),
        }
    }
}

/// The body pieces after the mnemonic, when `pieces` is an attribute of
/// kind `mnemonic`.
fn strip_mnemonic(pieces: &[BodyPiece], mnemonic: &str) -> Option<Vec<BodyPiece>> {
    let Some(BodyPiece::Text(first)) = pieces.first() else {
        return None;
    };
    let rest = first.strip_prefix(mnemonic)?;
    // `di_expression_elem` prints its opcode right after the mnemonic;
    // every other kind continues with `<` or ends.
    let boundary = match rest.chars().next() {
        None | Some('<') => true,
        Some(_) => mnemonic == "di_expression_elem",
    };
    if !boundary {
        return None;
    }
    let mut out = Vec::with_capacity(pieces.len());
    if !rest.is_empty() {
        out.push(BodyPiece::Text(rest.into()));
    }
    out.extend(pieces[1..].iter().cloned());
    Some(out)
}

fn is_i1<L: AttrLookup + ?Sized>(look: &L, t: TypeId) -> bool {
    matches!(
        look.type_data(t),
        TypeData::Integer {
            width: 1,
            signedness: Signedness::Signless
        }
    )
}

/// Whether an optional parameter holds its default (and is left out).
fn is_default(ty: ParamTy, v: Option<&Value<'_>>) -> bool {
    match v {
        None => true,
        Some(Value::U(x)) => match ty {
            ParamTy::U64 => *x == 0,
            ParamTy::Enum(EnumSpec::Plain { bits, .. } | EnumSpec::Bits { bits, .. }) => {
                truncate(*x, *bits) == 0
            }
            _ => *x as u32 == 0,
        },
        Some(Value::Bool(b)) => !b,
        Some(Value::OptU(o)) => o.is_none(),
        Some(Value::Attr(a)) => a.is_none(),
        Some(Value::Attrs(l)) => l.is_empty(),
        Some(Value::Ints(l)) => l.is_empty(),
        Some(_) => false,
    }
}

fn truncate(x: u64, bits: u32) -> u64 {
    if bits >= 64 {
        x
    } else {
        x & ((1u64 << bits) - 1)
    }
}

/// `llvm::dwarf::*String`: the name, or empty for unknown values.
fn lookup(table: &[(u32, &'static str)], v: u32) -> &'static str {
    match table.binary_search_by_key(&v, |e| e.0) {
        Ok(i) => table[i].1,
        Err(_) => "",
    }
}

/// An ODS enum printed by its `operator<<`.
fn enum_text(e: &EnumSpec, raw: u64) -> String {
    match e {
        EnumSpec::Plain { bits, names } => {
            let v = truncate(raw, *bits);
            names
                .iter()
                .find(|n| n.0 == v)
                .map(|n| n.1.to_string())
                .unwrap_or_default()
        }
        EnumSpec::Bits {
            bits,
            zero,
            steps,
            unquoted,
        } => {
            let value = truncate(raw, *bits);
            if value == 0 {
                return zero.to_string();
            }
            let mut v = value;
            let mut names = Vec::new();
            for &(mask, name, clears) in steps.iter() {
                if mask & v == mask {
                    names.push(name);
                    if clears {
                        v &= !mask;
                    }
                }
            }
            let s = names.join("|");
            if !value.is_power_of_two() && !unquoted.contains(&value) {
                format!("\"{s}\"")
            } else {
                s
            }
        }
    }
}
