//! The quant dialect's types, printed by the rules of the quant dialect's
//! printer in MLIR 22 (`any<…>`, `uniform<…>`, `calibrated<…>`); the fields
//! come from the generated read steps, by name.

use super::bounds::{default_storage_bounds, SIGNED};
use rmlir_format::dialect_encodings::{BodyBuilder as Body, Entry, FieldError, Value};
use rmlir_format::float::{format_mlir_float, FloatKind};
use rmlir_format::*;

const DIALECT: &str = "quant";

type Result<T> = std::result::Result<T, FieldError>;

/// The type a decoded quant entry stands for.
pub(super) fn build_type(ctx: &Context, e: Entry<'_, '_>) -> Result<TypeData> {
    let e = &e;
    let mut b = Body::default();
    match e.kind.class {
        "AnyQuantizedType" => {
            b.text("any<");
            storage(ctx, e, &mut b)?;
            if e.has("expressedType") {
                b.text(":");
                b.ty(ty(e, "expressedType")?);
            }
            b.text(">");
        }
        "UniformQuantizedType" => {
            b.text("uniform<");
            storage(ctx, e, &mut b)?;
            b.text(":");
            b.ty(ty(e, "expressedType")?);
            b.text(", ");
            let scale = f64_bits(e, "scale")?;
            let zero = int(e, "zeroPoint")?;
            b.text(&params(scale, zero));
            b.text(">");
        }
        "UniformQuantizedPerAxisType" => {
            b.text("uniform<");
            storage(ctx, e, &mut b)?;
            b.text(":");
            b.ty(ty(e, "expressedType")?);
            let dim = uint(e, "quantizedDimension")?;
            b.text(&format!(":{}, {{", dim as i32));
            let (at, scales) = e.field(DIALECT, "scales")?;
            let (_, zeros) = e.field(DIALECT, "zeroPoints")?;
            let (Value::F64s(scales), Value::Ss(zeros)) = (scales, zeros) else {
                return Err(FieldError::field(at, bad_field(e, "scales")));
            };
            if scales.len() != zeros.len() {
                return Err(FieldError::field(
                    at,
                    format!(
                        "quant type {}: {} scales but {} zero points",
                        e.kind.class,
                        scales.len(),
                        zeros.len()
                    ),
                ));
            }
            let items: Vec<String> = scales
                .iter()
                .zip(zeros)
                .map(|(s, z)| params(*s, *z))
                .collect();
            b.text(&items.join(","));
            b.text("}>");
        }
        "UniformQuantizedSubChannelType" => {
            b.text("uniform<");
            storage(ctx, e, &mut b)?;
            b.text(":");
            b.ty(ty(e, "expressedType")?);
            let (at, dims) = e.field(DIALECT, "quantizedDimensions")?;
            let (_, sizes) = e.field(DIALECT, "blockSizes")?;
            let (Value::Ss(dims), Value::Ss(sizes)) = (dims, sizes) else {
                return Err(FieldError::field(at, bad_field(e, "quantizedDimensions")));
            };
            let info: Vec<String> = dims
                .iter()
                .zip(sizes)
                .map(|(d, s)| format!("{}:{s}", *d as i32))
                .collect();
            b.text(&format!(":{{{}}}, ", info.join(", ")));
            let text = sub_channel_params(ctx, e)?;
            b.text(&text);
            b.text(">");
        }
        "CalibratedQuantizedType" => {
            b.text("calibrated<");
            b.ty(ty(e, "expressedType")?);
            let min = f64_bits(e, "min")?;
            let max = f64_bits(e, "max")?;
            b.text(&format!("<{}:{}>>", double(min), double(max)));
        }
        other => {
            return Err(FieldError::entry(format!(
                "quant type {other}: no printing rules for this kind"
            )))
        }
    }
    let body = DialectBody {
        dialect: DIALECT.into(),
        pieces: b.pieces,
    };
    Ok(TypeData::Dialect(body))
}

fn bad_field(e: &Entry<'_, '_>, name: &str) -> String {
    format!(
        "quant type {}: field '{name}' has an unexpected form",
        e.kind.class
    )
}

fn ty(e: &Entry<'_, '_>, name: &str) -> Result<TypeId> {
    match e.field(DIALECT, name)? {
        (_, Value::Type(t)) => Ok(*t),
        (at, _) => Err(FieldError::field(at, bad_field(e, name))),
    }
}

fn uint(e: &Entry<'_, '_>, name: &str) -> Result<u64> {
    match e.field(DIALECT, name)? {
        (_, Value::U(v)) => Ok(*v),
        (at, _) => Err(FieldError::field(at, bad_field(e, name))),
    }
}

fn int(e: &Entry<'_, '_>, name: &str) -> Result<i64> {
    match e.field(DIALECT, name)? {
        (_, Value::S(v)) => Ok(*v),
        (at, _) => Err(FieldError::field(at, bad_field(e, name))),
    }
}

fn f64_bits(e: &Entry<'_, '_>, name: &str) -> Result<u64> {
    match e.field(DIALECT, name)? {
        (_, Value::F64(v)) => Ok(*v),
        (at, _) => Err(FieldError::field(at, bad_field(e, name))),
    }
}

/// A `double` as `AsmPrinter` prints it (`printFloat`).
fn double(bits: u64) -> String {
    format_mlir_float(FloatKind::F64, bits as u128)
}

/// `scale[:zeroPoint]`.
fn params(scale: u64, zero: i64) -> String {
    if zero != 0 {
        format!("{}:{zero}", double(scale))
    } else {
        double(scale)
    }
}

/// The storage type (`i8`, `u4<1:14>`): its width, signedness from the
/// flags, and the bounds when they are not the type's full range.
fn storage(ctx: &Context, e: &Entry<'_, '_>, b: &mut Body) -> Result<()> {
    let flags = uint(e, "flags")?;
    let (at, st) = e.field(DIALECT, "storageType")?;
    let width = match st {
        Value::Type(t) => match ctx.ty(*t) {
            TypeData::Integer { width, .. } => *width,
            _ => {
                return Err(FieldError::field(
                    at,
                    format!(
                        "quant type {}: storage type is not an integer",
                        e.kind.class
                    ),
                ))
            }
        },
        _ => return Err(FieldError::field(at, bad_field(e, "storageType"))),
    };
    let min = int(e, "storageTypeMin")?;
    let max = int(e, "storageTypeMax")?;
    let signed = flags & SIGNED != 0;
    let (def_min, def_max) = default_storage_bounds(signed, width);
    let mut s = format!("{}{width}", if signed { "i" } else { "u" });
    if min != def_min || max != def_max {
        s.push_str(&format!("<{min}:{max}>"));
    }
    b.text(&s);
    Ok(())
}

/// The scales and zero points of a sub-channel type, nested by the shape
/// of the scales tensor: `{{s:z, s}, {s, s:z}}`.
fn sub_channel_params(ctx: &Context, e: &Entry<'_, '_>) -> Result<String> {
    let (at, scales) = e.field(DIALECT, "scales")?;
    let (zat, zeros) = e.field(DIALECT, "zeroPoints")?;
    let (Value::Attr(Some(scales)), Value::Attr(Some(zeros))) = (scales, zeros) else {
        return Err(FieldError::field(at, bad_field(e, "scales")));
    };
    let scales = dense_params(ctx, e, *scales, at)?;
    let zeros = dense_params(ctx, e, *zeros, zat)?;
    let (shape, scale_elem, scale_vals) = (scales.shape, scales.elem, scales.elems);
    let (zero_elem, zero_vals) = (zeros.elem, zeros.elems);
    let TypeData::Float(kind) = ctx.ty(scale_elem) else {
        return Err(FieldError::field(
            at,
            format!("quant type {}: scales are not floats", e.kind.class),
        ));
    };
    let zero_width = match ctx.ty(zero_elem) {
        TypeData::Integer { width, .. } => *width,
        _ => {
            return Err(FieldError::field(
                zat,
                format!("quant type {}: zero points are not integers", e.kind.class),
            ))
        }
    };
    if scale_vals.len() != zero_vals.len() {
        return Err(FieldError::field(
            zat,
            format!(
                "quant type {}: {} scales but {} zero points",
                e.kind.class,
                scale_vals.len(),
                zero_vals.len()
            ),
        ));
    }
    let items: Vec<(String, num_bigint::BigInt)> = scale_vals
        .iter()
        .zip(&zero_vals)
        .map(|(s, z)| {
            (
                format_mlir_float(*kind, le_bits(s)),
                signed_value(z, zero_width),
            )
        })
        .collect();
    Ok(nest(&items, &shape))
}

/// The elements of a dense parameter tensor (a splat repeated).
struct DenseParams<'c> {
    shape: Vec<i64>,
    elem: TypeId,
    elems: Vec<&'c [u8]>,
}

/// More splat repetitions than this are refused rather than printed.
const MAX_SPLAT_ELEMENTS: u64 = 1 << 20;

fn dense_params<'c>(
    ctx: &'c Context,
    e: &Entry<'_, '_>,
    a: AttrId,
    at: usize,
) -> Result<DenseParams<'c>> {
    let err = |msg: &str| {
        Err(FieldError::field(
            at,
            format!("quant type {}: {msg}", e.kind.class),
        ))
    };
    let AttrData::DenseIntOrFp { ty, splat, data } = ctx.attr(a) else {
        return err("expected a dense elements attribute");
    };
    let tdata = ctx.ty(*ty);
    let (Some(shape), Some(elem)) = (tdata.shape(), tdata.element_type()) else {
        return err("parameters are not a shaped value");
    };
    let Some(layout) = rmlir_format::dense::element_layout(ctx, elem) else {
        return err("parameters have an unsupported element type");
    };
    let count = shape
        .iter()
        .try_fold(1u64, |acc, &d| acc.checked_mul(u64::try_from(d).ok()?));
    let Some(count) = count else {
        return err("parameters have a dynamic or overflowing shape");
    };
    let chunks: Vec<&[u8]> = data.chunks(layout.bytes.max(1)).collect();
    let elems = if *splat {
        let Some(&one) = chunks.first() else {
            return err("empty splat parameters");
        };
        if count > MAX_SPLAT_ELEMENTS {
            return err("splat parameter tensor too large");
        }
        vec![one; count as usize]
    } else {
        if chunks.len() as u64 != count {
            return err("parameter data does not match its shape");
        }
        chunks
    };
    Ok(DenseParams {
        shape: shape.to_vec(),
        elem,
        elems,
    })
}

fn le_bits(b: &[u8]) -> u128 {
    b.iter()
        .take(16)
        .enumerate()
        .fold(0u128, |acc, (i, &x)| acc | (x as u128) << (8 * i))
}

/// An integer element as APInt prints it: signed.
fn signed_value(b: &[u8], width: u32) -> num_bigint::BigInt {
    use num_bigint::{BigInt, Sign};
    let mag = BigInt::from_bytes_le(Sign::Plus, b);
    if width == 0 {
        return BigInt::from(0);
    }
    let modulus = BigInt::from(1) << width;
    let mag = mag % &modulus;
    if mag >= (BigInt::from(1) << (width - 1)) {
        mag - modulus
    } else {
        mag
    }
}

/// `printDenseQuantizationParameters`: elements separated by `, `, braces
/// opened and closed at the dimension boundaries of `shape`.
fn nest(items: &[(String, num_bigint::BigInt)], shape: &[i64]) -> String {
    let rank = shape.len();
    let mut out = String::new();
    if rank == 0 {
        for (i, (s, z)) in items.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            push_param(&mut out, s, z);
        }
        return out;
    }
    let mut counter = vec![0i64; rank];
    let mut open = 0usize;
    for (idx, (s, z)) in items.iter().enumerate() {
        if idx != 0 {
            out.push_str(", ");
        }
        while open < rank {
            out.push('{');
            open += 1;
        }
        push_param(&mut out, s, z);
        counter[rank - 1] += 1;
        for i in (1..rank).rev() {
            if counter[i] >= shape[i] {
                counter[i] = 0;
                counter[i - 1] += 1;
                open = open.saturating_sub(1);
                out.push('}');
            }
        }
    }
    for _ in 0..open {
        out.push('}');
    }
    out
}

fn push_param(out: &mut String, scale: &str, zero: &num_bigint::BigInt) {
    out.push_str(scale);
    if zero.sign() != num_bigint::Sign::NoSign {
        out.push(':');
        out.push_str(&zero.to_string());
    }
}
