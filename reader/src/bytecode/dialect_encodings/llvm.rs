//! The llvm dialect's custom-encoded attributes (debug info, loop
//! annotations), printed as mlir-opt 22 prints them: from each attribute's
//! ODS parameters and assembly format (generated data, [`LLVM_ATTRS`]).
//!
//! Parameters whose C++ type is a specific llvm attribute class are printed
//! "stripped" (`file = <"a.c" in "/">`), or as their alias when they have
//! one: those nested attributes stay references (the printer aliases them);
//! stripped attributes without an alias kind are spliced in as their body.
//! Parameters of interface or generic type print in full (`#llvm.…`).

use super::{quoted, Body, Entry, Value};
use crate::bytecode::binary_reader::Reader;
use crate::bytecode::BytecodeReader;
use crate::error::Result;
use num_traits::Zero;
use rmlir_format::dialect_encodings::generated::{DW_ATE, DW_OP, LLVM_ATTRS};
use rmlir_format::dialect_encodings::{AttrSpec, EnumSpec, Format, Param, ParamTy};
use rmlir_format::dialects::attr_alias;
use rmlir_format::*;

const DIALECT: &str = "llvm";

pub(super) fn build_attr(
    reader: &mut BytecodeReader<'_>,
    entry: &Entry<'_>,
    r: &Reader<'_>,
) -> Result<AttrId> {
    let Some(spec) = LLVM_ATTRS.iter().find(|s| s.code == entry.kind.code) else {
        return r.err_at(
            entry.at,
            format!(
                "llvm attribute {}: no printing rules for this kind",
                entry.kind.class
            ),
        );
    };
    let ctx = &reader.module.ctx;
    let mut b = Body::default();
    b.text(spec.mnemonic);
    let mut p = Printer {
        ctx,
        entry,
        r,
        b: &mut b,
    };
    p.stripped(spec)?;
    let body = DialectBody {
        dialect: DIALECT.into(),
        pieces: b.pieces,
    };
    Ok(reader
        .module
        .ctx
        .intern_attr(AttrData::Dialect { body, ty: None }))
}

struct Printer<'p, 'a> {
    ctx: &'p Context,
    entry: &'p Entry<'a>,
    r: &'p Reader<'p>,
    b: &'p mut Body,
}

impl<'p, 'a> Printer<'p, 'a> {
    /// The value of a parameter: `None` when the encoding does not carry it.
    fn value(&self, p: &Param) -> Result<Option<(&'p Value<'a>, usize)>> {
        let Some(i) = p.step else {
            return Ok(None);
        };
        let entry: &'p Entry<'a> = self.entry;
        match entry.values.get(i) {
            Some(v) => Ok(Some((v, i))),
            None => self.r.err_at(
                self.entry.at,
                format!(
                    "llvm attribute {}: parameter '{}' has no field",
                    self.entry.kind.class, p.name
                ),
            ),
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
                quoted(name, &mut s);
                s.push_str(" in ");
                quoted(dir, &mut s);
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
            _ => self.r.err_at(
                self.entry.at,
                format!(
                    "llvm attribute {}: expected a string field",
                    self.entry.kind.class
                ),
            ),
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
                return self.r.err_at(
                    self.entry.at,
                    "llvm attribute DIExpressionElemAttr: expected an opcode field",
                )
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
                        None => return self.entry.err_field(self.r, i, "null array element"),
                    }
                }
            }
            (ParamTy::StrAttr, Value::Str(s)) => {
                let mut t = String::new();
                quoted(s, &mut t);
                self.b.text(&t);
            }
            (ParamTy::U64Array, Value::Ints(list)) => {
                let s: Vec<String> = list.iter().map(|x| x.to_string()).collect();
                self.b.text(&s.join(", "));
            }
            (_, Value::Attr(Some(a))) => self.nested(ty, *a, i)?,
            (_, Value::Attr(None)) => self.b.text("<<NULL ATTRIBUTE>>"),
            _ => {
                return self.entry.err_field(
                    self.r,
                    i,
                    format!("field does not fit parameter type {ty:?}"),
                )
            }
        }
        Ok(())
    }

    /// A nested attribute, checked against the parameter's C++ type.
    fn nested(&mut self, ty: ParamTy, a: AttrId, i: usize) -> Result<()> {
        let data = self.ctx.attr(a);
        let bad = |p: &Self, want: &str| {
            p.entry.err_field(
                p.r,
                i,
                format!(
                    "expected attribute of type: {want}, but got: {}",
                    crate::bytecode::builtin_attrs::attr_kind(data)
                ),
            )
        };
        match ty {
            ParamTy::StrAttr => match data {
                AttrData::String { value, ty: None } => {
                    let mut s = String::new();
                    quoted(value, &mut s);
                    self.b.text(&s);
                }
                AttrData::String { .. } => self.b.attr(a),
                _ => return bad(self, "StringAttr"),
            },
            ParamTy::BoolAttr => match data {
                AttrData::Integer { ty, value } if is_i1(self.ctx, *ty) => {
                    self.b.text(if value.is_zero() { "false" } else { "true" })
                }
                _ => return bad(self, "BoolAttr"),
            },
            ParamTy::IntAttr => match data {
                AttrData::Integer { .. } => self.builtin(a),
                _ => return bad(self, "IntegerAttr"),
            },
            ParamTy::Distinct => match data {
                AttrData::Distinct { .. } => self.b.attr(a),
                _ => return bad(self, "DistinctAttr"),
            },
            ParamTy::FusedLoc => match data {
                AttrData::FusedLoc { .. } => self.b.attr(a),
                _ => return bad(self, "FusedLoc"),
            },
            ParamTy::AnyAttr => self.builtin(a),
            ParamTy::LlvmAttr => match data {
                AttrData::Dialect { body, .. } if &*body.dialect == DIALECT => self.b.attr(a),
                _ => return bad(self, "an llvm attribute"),
            },
            ParamTy::Stripped(mnemonic) => {
                let rest = match data {
                    AttrData::Dialect { body, .. } if &*body.dialect == DIALECT => {
                        strip_mnemonic(&body.pieces, mnemonic)
                    }
                    _ => None,
                };
                let Some(rest) = rest else {
                    return bad(self, &format!("#llvm.{mnemonic}"));
                };
                if attr_alias(DIALECT, mnemonic).is_some() {
                    // Printed as its alias (`#di_file`), or stripped (`<…>`)
                    // in local scope.
                    self.b.pieces.push(rmlir_format::BodyPiece::Stripped(a));
                } else {
                    // No alias kind: its stripped body is spliced in.
                    for p in rest {
                        match p {
                            rmlir_format::BodyPiece::Text(t) => self.b.text(&t),
                            other => self.b.pieces.push(other),
                        }
                    }
                }
            }
            _ => {
                return self
                    .entry
                    .err_field(self.r, i, "not an attribute parameter")
            }
        }
        Ok(())
    }

    /// A builtin attribute printed by `printAttribute`: strings and integers
    /// inline as text (as the text parser keeps them), anything else as a
    /// reference.
    fn builtin(&mut self, a: AttrId) {
        match self.ctx.attr(a) {
            AttrData::String { value, ty: None } => {
                let mut s = String::new();
                quoted(value, &mut s);
                self.b.text(&s);
            }
            AttrData::Integer { ty, value } => match self.ctx.ty(*ty) {
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

fn is_i1(ctx: &Context, t: TypeId) -> bool {
    matches!(
        ctx.ty(t),
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

fn lookup_name(table: &[(u32, &str)], name: &str) -> Option<u32> {
    table.iter().find(|e| e.1 == name).map(|e| e.0)
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
