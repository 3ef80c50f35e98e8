//! Writing VHLO attributes and types (`VhloBytecode.cpp`'s `write`
//! methods): the bodies `attrs.rs` and `types.rs` read, or the text parser
//! made from jaxlib's print, read back into their kind code and fields.
//!
//! VHLO keeps some values in VHLO terms where we keep the builtin value it
//! prints (`#vhlo.integer_v1<1 : i64>` holds `!vhlo.i64_v1` and an APInt;
//! `#vhlo.tensor_v1<dense<…> : tensor<2xf32>>` holds
//! `!vhlo.tensor_v1<2x!vhlo.f32_v1>` and raw data): the VHLO type is made
//! here, through the writer, as jaxlib has it in memory.

use super::codes::{self, AttrKind, Builtin, TypeKind};
use crate::out::Out;
use crate::unbody::{attr_body, type_body, Unbody};
use rmlir_format::dialect_hooks::DialectWriter;
use rmlir_format::float::{parse_mlir_float, FloatKind};
use rmlir_format::{AttrData, AttrId, BodyPiece, DialectBody, Signedness, TypeData, TypeId};

/// Writes VHLO type `t`; `false` (nothing written) for a body that is not
/// one of VHLO's types as printed.
pub fn write_type(t: TypeId, w: &mut dyn DialectWriter) -> bool {
    let Some(body) = type_body(w, super::DIALECT, t) else {
        return false;
    };
    match encode_type(&body.pieces) {
        Some(out) => out.flush(w),
        None => false,
    }
}

fn type_code(mnemonic: &str, kind: TypeKind) -> Option<u64> {
    codes::TYPES
        .iter()
        .find(|t| t.1 == mnemonic && t.2 == kind)
        .map(|t| t.0)
}

fn encode_type(pieces: &[BodyPiece]) -> Option<Out> {
    let (mut u, mnemonic) = Unbody::new(pieces)?;
    let kinds: Vec<TypeKind> = codes::TYPES
        .iter()
        .filter(|t| t.1 == mnemonic)
        .map(|t| t.2)
        .collect();
    let first = *kinds.first()?;
    let mut out = Out::default();
    match first {
        TypeKind::Plain => {
            out.u(type_code(&mnemonic, first)?);
        }
        TypeKind::Complex | TypeKind::UnrankedTensor => {
            u.eat("<")?;
            let e = u.ty()?;
            u.eat(">")?;
            out.u(type_code(&mnemonic, first)?).ty(e);
        }
        TypeKind::Function => {
            u.eat("<(")?;
            let inputs = type_array(&mut u, ")")?;
            u.eat(") ->")?;
            let outputs = type_array(&mut u, ">")?;
            u.eat(">")?;
            out.u(type_code(&mnemonic, first)?)
                .types(&inputs)
                .types(&outputs);
        }
        TypeKind::RankedTensor | TypeKind::RankedTensorWithEncoding | TypeKind::RankedBuffer => {
            u.eat("<")?;
            let shape = u.shape_prefix()?;
            let elem = u.ty()?;
            let encoding = if u.eat(",").is_some() {
                Some(u.attr()?)
            } else {
                None
            };
            u.eat(">")?;
            match (first, encoding) {
                (TypeKind::RankedBuffer, None) => {
                    out.u(type_code(&mnemonic, first)?);
                }
                (TypeKind::RankedBuffer, Some(_)) => return None,
                (_, None) => {
                    out.u(type_code(&mnemonic, TypeKind::RankedTensor)?);
                }
                (_, Some(e)) => {
                    out.u(type_code(&mnemonic, TypeKind::RankedTensorWithEncoding)?)
                        .attr(e);
                }
            }
            out.signed_list(&shape).ty(elem);
        }
        TypeKind::Tuple | TypeKind::Future => {
            u.eat("<")?;
            let elems = u.list(">", |u| u.ty())?;
            u.eat(">")?;
            out.u(type_code(&mnemonic, first)?).types(&elems);
        }
        TypeKind::UniformQuantized => {
            let (storage, expressed) = quant_types(&mut u)?;
            let scale = f64_bits(&u.text_until(b':')?)?;
            u.eat(":")?;
            let zero_point = u.int()?;
            u.eat(",")?;
            let (min, max) = min_max(&mut u)?;
            u.eat(",")?;
            let flags = u.int()?;
            u.eat(">")?;
            out.u(type_code(&mnemonic, first)?)
                .u(u64::try_from(flags).ok()?)
                .ty(storage)
                .ty(expressed)
                .s(scale as i64)
                .s(zero_point)
                .s(min)
                .s(max);
        }
        TypeKind::UniformQuantizedPerAxis => {
            let (storage, expressed) = quant_types(&mut u)?;
            let dimension = u.int()?;
            u.eat(", [")?;
            let scales = u.list("]", |u| f64_bits(&u.token()?))?;
            u.eat("], [")?;
            let zero_points = u.list("]", |u| u.int())?;
            u.eat("],")?;
            let (min, max) = min_max(&mut u)?;
            u.eat(",")?;
            let flags = u.int()?;
            u.eat(">")?;
            out.u(type_code(&mnemonic, first)?)
                .u(u64::try_from(flags).ok()?)
                .ty(storage)
                .ty(expressed)
                .u(u64::try_from(dimension).ok()?)
                .s(min)
                .s(max)
                .u(scales.len() as u64);
            for b in scales {
                out.s(b as i64);
            }
            out.signed_list(&zero_points);
        }
    }
    u.at_end().then_some(out)
}

/// `custom<TypeArray>`: `()` for none, else types separated by `, `.
fn type_array(u: &mut Unbody<'_>, close: &str) -> Option<Vec<TypeId>> {
    if u.eat("()").is_some() {
        return Some(Vec::new());
    }
    let v = u.list(close, |u| u.ty())?;
    (!v.is_empty()).then_some(v)
}

/// `<storage:expressed, ` of a quantized type.
fn quant_types(u: &mut Unbody<'_>) -> Option<(TypeId, TypeId)> {
    u.eat("<")?;
    let storage = u.ty()?;
    u.eat(":")?;
    let expressed = u.ty()?;
    u.eat(",")?;
    Some((storage, expressed))
}

/// `min:max`.
fn min_max(u: &mut Unbody<'_>) -> Option<(i64, i64)> {
    let min = u.int()?;
    u.eat(":")?;
    Some((min, u.int()?))
}

/// The bits of a double as VHLO prints one (`3.400000e+01`, or hex for
/// what decimal cannot show).
fn f64_bits(text: &str) -> Option<u64> {
    float_bits(FloatKind::F64, text).map(|b| b as u64)
}

fn float_bits(kind: FloatKind, text: &str) -> Option<u128> {
    let text = text.trim();
    if let Some(hex) = text.strip_prefix("0x") {
        return u128::from_str_radix(hex, 16).ok();
    }
    parse_mlir_float(kind, text).ok()
}

/// Writes VHLO attribute `a`; `false` (nothing written) for a body that
/// is not one of VHLO's attributes as printed.
pub fn write_attribute(a: AttrId, w: &mut dyn DialectWriter) -> bool {
    let Some(body) = attr_body(w, super::DIALECT, a) else {
        return false;
    };
    match encode_attr(&body.pieces, w) {
        Some(out) => out.flush(w),
        None => false,
    }
}

fn encode_attr(pieces: &[BodyPiece], w: &mut dyn DialectWriter) -> Option<Out> {
    let (mut u, mnemonic) = Unbody::new(pieces)?;
    let &(code, _, kind) = codes::ATTRS.iter().find(|a| a.1 == mnemonic)?;
    let mut out = Out::default();
    out.u(code);
    match kind {
        AttrKind::Array => {
            u.eat("<[")?;
            let elems = u.list("]", |u| u.attr())?;
            u.eat("]>")?;
            out.u(elems.len() as u64);
            for e in elems {
                out.attr(e);
            }
        }
        AttrKind::Boolean => {
            u.eat("<")?;
            let v = match u.ident()?.as_str() {
                "true" => 1,
                "false" => 0,
                _ => return None,
            };
            u.eat(">")?;
            out.u(v);
        }
        AttrKind::Enum(cases) => {
            let name = u.ident()?;
            let &(v, _) = cases.iter().find(|c| c.1 == name)?;
            out.u(v);
        }
        AttrKind::Dictionary => {
            u.eat("<{")?;
            let entries = u.list("}", |u| {
                let k = u.attr()?;
                u.eat("=")?;
                Some((k, u.attr()?))
            })?;
            u.eat("}>")?;
            out.u(entries.len() as u64);
            for (k, v) in entries {
                out.attr(k).attr(v);
            }
        }
        AttrKind::Float => {
            u.eat("<")?;
            let value = u.text_until(b':')?;
            u.eat(":")?;
            let t = u.ty()?;
            u.eat(">")?;
            let kind = float_kind(w, t)?;
            let bits = float_bits(kind, &value)?;
            out.ty(t).apint(kind.bit_width(), bits as u64);
        }
        AttrKind::Integer => {
            u.eat("<")?;
            let (builtin, value) = match u.attr() {
                Some(a) => match &*w.attr_data(a) {
                    AttrData::Integer { ty, value } => {
                        (w.type_data(*ty).into_owned(), value.clone())
                    }
                    _ => return None,
                },
                None => integer_text(&u.token()?)?,
            };
            u.eat(">")?;
            let width = match builtin {
                TypeData::Index => 64,
                TypeData::Integer { width, .. } if width <= 64 => width,
                _ => return None,
            };
            let bits = match u64::try_from(&value) {
                Ok(v) => v,
                Err(_) => i64::try_from(&value).ok()? as u64,
            };
            let t = vhlo_type(w, &builtin)?;
            out.ty(t).apint(width, bits);
        }
        AttrKind::OutputOperandAlias => {
            let names = ["outputTupleIndices", "operandIndex", "operandTupleIndices"];
            crate::hlo::write_output_operand_alias(&mut u, names, &mut out)?;
        }
        AttrKind::String => {
            u.eat("<")?;
            let s = u.c.string_lit()?;
            u.eat(">")?;
            out.str(s);
        }
        AttrKind::Tensor => {
            u.eat("<")?;
            let dense = u.attr()?;
            u.eat(">")?;
            let AttrData::DenseIntOrFp { ty, splat, data } = &*w.attr_data(dense) else {
                return None;
            };
            let (ty, splat, data) = (*ty, *splat, data.clone());
            let builtin = w.type_data(ty).into_owned();
            let t = vhlo_type(w, &builtin)?;
            let TypeData::RankedTensor { shape, elem, .. } = &builtin else {
                return None;
            };
            let is_bool = matches!(&*w.type_data(*elem), TypeData::Integer { width: 1, .. });
            let blob = if is_bool {
                pack_bools(shape, splat, &data)?
            } else {
                data.to_vec()
            };
            out.ty(t).blob(blob);
        }
        AttrKind::Type => {
            u.eat("<")?;
            let t = u.ty()?;
            u.eat(">")?;
            out.ty(t);
        }
        AttrKind::TypeExtensions => {
            u.eat("<")?;
            u.param("bounds")?;
            let bounds = u.dims()?;
            u.eat(">")?;
            out.signed_list(&bounds);
        }
        AttrKind::ResultAccuracy => {
            u.eat("<")?;
            u.param("atol")?;
            let atol = f64_bits(&u.token()?)?;
            u.eat(",")?;
            u.param("rtol")?;
            let rtol = f64_bits(&u.token()?)?;
            u.eat(",")?;
            u.param("ulps")?;
            let ulps = u.int()?;
            u.eat(",")?;
            u.param("mode")?;
            let mode = u.attr()?;
            u.eat(">")?;
            out.s(atol as i64).s(rtol as i64).s(ulps).attr(mode);
        }
        AttrKind::SubAxisInfo => {
            for v in u.params(&["pre_size", "size"], Unbody::int)? {
                out.s(v);
            }
        }
        AttrKind::AxisRef => {
            u.eat("<")?;
            u.param("name")?;
            let name = u.attr()?;
            let sub = if u.eat(",").is_some() {
                u.param("sub_axis_info")?;
                Some(u.attr()?)
            } else {
                None
            };
            u.eat(">")?;
            out.attr(name);
            match sub {
                Some(s) => out.u(1).attr(s),
                None => out.u(0),
            };
        }
        AttrKind::ReplicaGroupMeshAxes => {
            for a in u.params(&["mesh", "axes"], Unbody::attr)? {
                out.attr(a);
            }
        }
        AttrKind::MeshAxis => {
            u.eat("<")?;
            u.param("name")?;
            let name = u.attr()?;
            u.eat(",")?;
            u.param("size")?;
            let size = u.int()?;
            u.eat(">")?;
            out.attr(name).s(size);
        }
        AttrKind::Mesh => {
            u.eat("<")?;
            u.param("axes")?;
            let axes = u.attr()?;
            let device_ids = if u.eat(",").is_some() {
                u.param("device_ids")?;
                Some(u.attr()?)
            } else {
                None
            };
            u.eat(">")?;
            out.attr(axes).opt_attr(device_ids);
        }
    }
    u.at_end().then_some(out)
}

/// `VALUE : TYPE` of an integer as the text parser keeps it (`1 : i64`,
/// `true`): the builtin type and the value.
fn integer_text(text: &str) -> Option<(TypeData, num_bigint::BigInt)> {
    let (value, ty) = match text.split_once(':') {
        Some((v, t)) => (v.trim(), t.trim()),
        None => (text.trim(), "i1"),
    };
    let ty = match ty {
        "index" => TypeData::Index,
        _ => {
            let (signedness, digits) = if let Some(d) = ty.strip_prefix("ui") {
                (Signedness::Unsigned, d)
            } else {
                (Signedness::Signless, ty.strip_prefix('i')?)
            };
            TypeData::Integer {
                width: digits.parse().ok()?,
                signedness,
            }
        }
    };
    let value = match value {
        "true" => 1.into(),
        "false" => 0.into(),
        v => v.parse().ok()?,
    };
    Some((ty, value))
}

/// The float kind of a VHLO float type.
fn float_kind(w: &dyn DialectWriter, t: TypeId) -> Option<FloatKind> {
    let body = type_body(w, super::DIALECT, t)?;
    match &body.pieces[..] {
        [BodyPiece::Text(m)] => match codes::builtin_of_mnemonic(m)? {
            Builtin::Float(k) => FloatKind::from_keyword(k),
            _ => None,
        },
        _ => None,
    }
}

/// The VHLO type a builtin type prints as (the inverse of
/// `types::to_builtin`), made through the writer.
fn vhlo_type(w: &mut dyn DialectWriter, builtin: &TypeData) -> Option<TypeId> {
    let plain = |want: Builtin| {
        codes::TYPES
            .iter()
            .find(|t| t.2 == TypeKind::Plain && t.3 == want)
            .map(|t| t.1)
    };
    let pieces = match builtin {
        TypeData::Integer {
            width: 1,
            signedness: Signedness::Signless,
        } => {
            vec![BodyPiece::Text(plain(Builtin::Bool)?.into())]
        }
        TypeData::Integer { width, signedness } => {
            let unsigned = match signedness {
                Signedness::Signless => false,
                Signedness::Unsigned => true,
                Signedness::Signed => return None,
            };
            vec![BodyPiece::Text(
                plain(Builtin::Int(*width, unsigned))?.into(),
            )]
        }
        TypeData::Index => vec![BodyPiece::Text(plain(Builtin::Index)?.into())],
        TypeData::Float(k) => {
            let m = codes::TYPES
                .iter()
                .find(|t| matches!(t.3, Builtin::Float(f) if f == k.keyword()))?
                .1;
            vec![BodyPiece::Text(m.into())]
        }
        TypeData::Complex(e) => {
            let e = w.type_data(*e).into_owned();
            let e = vhlo_type(w, &e)?;
            vec![
                BodyPiece::Text("complex_v1<".into()),
                BodyPiece::Type(e),
                BodyPiece::Text(">".into()),
            ]
        }
        TypeData::RankedTensor {
            shape,
            elem,
            encoding: None,
        } => {
            let e = w.type_data(*elem).into_owned();
            let e = vhlo_type(w, &e)?;
            let mut open = String::from("tensor_v1<");
            for &d in shape {
                open.push_str(&crate::body::dim(d));
                open.push('x');
            }
            vec![
                BodyPiece::Text(open.into()),
                BodyPiece::Type(e),
                BodyPiece::Text(">".into()),
            ]
        }
        _ => return None,
    };
    w.intern_type(TypeData::Dialect(DialectBody {
        dialect: super::DIALECT.into(),
        pieces,
    }))
}

/// `writeVhloTensorV1Attr`'s `i1` data: a splat as one byte 0xFF or
/// 0x00 (so that it is not taken for up to 8 packed elements), else the
/// elements packed eight to a byte, the first in the lowest bit.
fn pack_bools(shape: &[i64], splat: bool, data: &[u8]) -> Option<Vec<u8>> {
    let mut n: usize = 1;
    for &d in shape {
        n = n.checked_mul(usize::try_from(d).ok()?)?;
    }
    if splat && n > 1 {
        return Some(vec![if data.first()? & 1 != 0 { 0xFF } else { 0x00 }]);
    }
    if !splat && data.len() != n {
        return None;
    }
    let mut out = vec![0u8; n.div_ceil(8)];
    for i in 0..n {
        let v = if splat { data.first()? } else { &data[i] };
        if v & 1 != 0 {
            out[i / 8] |= 1 << (i % 8);
        }
    }
    Some(out)
}
