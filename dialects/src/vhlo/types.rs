//! Reading VHLO types (`VhloBytecode.cpp`'s `read…V1Type`) into bodies
//! printed in `VhloTypes.td`'s formats, and the builtin type a VHLO type
//! stands for where VHLO prints values in builtin terms.

use super::codes::{self, Builtin, TypeKind};
use crate::body::{dim, Body};
use crate::hlo::signed_list as read_signed_list;
use rmlir_format::attrs::BodyPiece;
use rmlir_format::dialect_hooks::{DialectReader, HookError, HookResult};
use rmlir_format::float::FloatKind;
use rmlir_format::{Signedness, TypeData, TypeId};

pub fn read(code: u64, r: &mut dyn DialectReader) -> HookResult<TypeId> {
    let Some((mnemonic, kind, _)) = codes::type_by_code(code) else {
        return Err(super::unknown_code("type", code, "0-42"));
    };
    let mut b = Body::new(mnemonic);
    match kind {
        TypeKind::Plain => {}
        TypeKind::Complex | TypeKind::UnrankedTensor => {
            let e = r.read_type()?;
            b.text("<").ty(e).text(">");
        }
        TypeKind::Function => {
            let inputs = read_types(r)?;
            let outputs = read_types(r)?;
            b.text("<(");
            type_array(&mut b, &inputs);
            b.text(") -> ");
            type_array(&mut b, &outputs);
            b.text(">");
        }
        TypeKind::RankedTensor | TypeKind::RankedTensorWithEncoding => {
            let encoding = if kind == TypeKind::RankedTensorWithEncoding {
                Some(r.read_attribute()?)
            } else {
                None
            };
            let shape = read_signed_list(r)?;
            let elem = r.read_type()?;
            b.text("<");
            shape_prefix(&mut b, &shape);
            b.ty(elem);
            if let Some(e) = encoding {
                b.text(", ").attr(e);
            }
            b.text(">");
        }
        TypeKind::RankedBuffer => {
            let shape = read_signed_list(r)?;
            let elem = r.read_type()?;
            b.text("<");
            shape_prefix(&mut b, &shape);
            b.ty(elem).text(">");
        }
        TypeKind::Tuple | TypeKind::Future => {
            let elems = read_types(r)?;
            b.text("<").list(&elems, |b, t| {
                b.ty(t);
            });
            b.text(">");
        }
        TypeKind::UniformQuantized => {
            let flags = r.read_varint()?;
            let storage = r.read_type()?;
            let expressed = r.read_type()?;
            let scale = read_f64(r)?;
            let zero_point = r.read_signed_varint()?;
            let min = r.read_signed_varint()?;
            let max = r.read_signed_varint()?;
            b.text("<").ty(storage).text(":").ty(expressed);
            b.text(&format!(", {scale}:{zero_point}, {min}:{max}, {flags}>"));
        }
        TypeKind::UniformQuantizedPerAxis => {
            let flags = r.read_varint()?;
            let storage = r.read_type()?;
            let expressed = r.read_type()?;
            let dimension = r.read_varint()?;
            let min = r.read_signed_varint()?;
            let max = r.read_signed_varint()?;
            let n = r.read_varint()?;
            let mut scales = Vec::new();
            for _ in 0..n {
                scales.push(read_f64(r)?);
            }
            let n = r.read_varint()?;
            let mut zero_points = Vec::new();
            for _ in 0..n {
                zero_points.push(r.read_signed_varint()?.to_string());
            }
            b.text("<").ty(storage).text(":").ty(expressed);
            b.text(&format!(
                ", {dimension}, [{}], [{}], {min}:{max}, {flags}>",
                scales.join(", "),
                zero_points.join(", ")
            ));
        }
    }
    Ok(b.into_type(super::DIALECT, r.ctx()))
}

/// `readTypes`: a count, then type references (read one by one: a
/// hostile count ends at the end of the entry, with nothing reserved).
pub fn read_types(r: &mut dyn DialectReader) -> HookResult<Vec<TypeId>> {
    let n = r.read_varint()?;
    let mut v = Vec::new();
    for _ in 0..n {
        v.push(r.read_type()?);
    }
    Ok(v)
}

/// A double (`readAPFloatWithKnownSemantics(IEEEdouble)`), as VHLO prints
/// it.
pub fn read_f64(r: &mut dyn DialectReader) -> HookResult<String> {
    let bits = super::attrs::read_apint(r, 64)?;
    Ok(rmlir_format::float::format_mlir_float(
        FloatKind::F64,
        bits as u128,
    ))
}

/// `custom<TypeArray>`: `()` when empty, else the types separated by `, `.
fn type_array(b: &mut Body, types: &[TypeId]) {
    if types.is_empty() {
        b.text("()");
    } else {
        b.list(types, |b, t| {
            b.ty(t);
        });
    }
}

/// `custom<Shape>`: each dimension followed by `x`.
fn shape_prefix(b: &mut Body, shape: &[i64]) {
    let mut s = String::new();
    for &d in shape {
        s.push_str(&dim(d));
        s.push('x');
    }
    b.text(&s);
}

/// The builtin type `t` (a VHLO type) stands for: scalars, complex and
/// ranked tensors of those. `None` for what has no builtin equivalent.
pub fn to_builtin(ctx: &mut rmlir_format::Context, t: TypeId) -> Option<TypeId> {
    /// What the body says, read before the context is changed.
    enum Kind {
        Scalar(TypeData),
        Complex(TypeId),
        Tensor(Vec<i64>, TypeId),
    }
    let TypeData::Dialect(body) = ctx.ty(t) else {
        return None;
    };
    if &*body.dialect != super::DIALECT {
        return None;
    }
    let kind = match &body.pieces[..] {
        [BodyPiece::Text(m)] => Kind::Scalar(match codes::builtin_of_mnemonic(m)? {
            Builtin::None => return None,
            Builtin::Bool => TypeData::signless(1),
            Builtin::Int(width, unsigned) => TypeData::Integer {
                width,
                signedness: if unsigned {
                    Signedness::Unsigned
                } else {
                    Signedness::Signless
                },
            },
            Builtin::Index => TypeData::Index,
            Builtin::Float(k) => TypeData::Float(FloatKind::from_keyword(k)?),
        }),
        [BodyPiece::Text(open), BodyPiece::Type(e), BodyPiece::Text(close)]
            if &**open == "complex_v1<" && &**close == ">" =>
        {
            Kind::Complex(*e)
        }
        [BodyPiece::Text(open), BodyPiece::Type(e), BodyPiece::Text(close)]
            if open.starts_with("tensor_v1<") && &**close == ">" =>
        {
            let dims = &open["tensor_v1<".len()..];
            let mut shape = Vec::new();
            for d in dims.split('x').filter(|d| !d.is_empty()) {
                shape.push(if d == "?" {
                    rmlir_format::DYNAMIC
                } else {
                    d.parse().ok()?
                });
            }
            Kind::Tensor(shape, *e)
        }
        _ => return None,
    };
    let data = match kind {
        Kind::Scalar(data) => data,
        Kind::Complex(e) => TypeData::Complex(to_builtin(ctx, e)?),
        Kind::Tensor(shape, e) => TypeData::RankedTensor {
            shape,
            elem: to_builtin(ctx, e)?,
            encoding: None,
        },
    };
    Some(ctx.intern_type(data))
}

/// The error for a field whose type has no builtin equivalent.
pub fn not_builtin(what: &str) -> HookError {
    HookError(format!(
        "vhlo {what} of a type with no builtin equivalent (expected a scalar, complex or ranked tensor type without encoding)"
    ))
}
