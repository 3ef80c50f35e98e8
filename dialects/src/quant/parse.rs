//! Quant types as text, read back into the fields of their declared
//! encoding: the writer's half of `print.rs`. Our IR keeps a quant type as
//! the text mlir-opt prints; the bytecode writer needs its fields.

use super::bounds::{default_storage_bounds, SIGNED};
use num_bigint::BigInt;
use rmlir_format::dense::int_words;
use rmlir_format::dialect_encodings::body_cursor::BodyCursor as Cur;
use rmlir_format::dialect_encodings::{BodyInterner, Field, KindSpec, Read, Step};
use rmlir_format::float::{parse_mlir_float, FloatKind};
use rmlir_format::{AttrData, AttrId, BodyPiece, TypeData, TypeId};

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
                None if depth == shape.len() && out.is_empty() => shape.push(items.len() as i64),
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
fn sub_channel(space: &mut dyn BodyInterner, c: &mut Cur<'_>, v: &mut Vals) -> Option<()> {
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
    let TypeData::Float(kind) = space.type_data(expressed).clone() else {
        return None;
    };
    let TypeData::Integer { width, .. } = space.type_data(storage).clone() else {
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
        let words = int_words(z, (ibytes * 8) as u32);
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
        let a = space.intern_attr(AttrData::DenseIntOrFp {
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

/// The kind code and fields of the quant type with body `pieces`, or
/// `None` when it does not parse as one of `kinds`.
pub(super) fn encode(
    space: &mut dyn BodyInterner,
    pieces: &[BodyPiece],
    kinds: &[KindSpec],
) -> Option<(u64, Vec<Field>)> {
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
    Some((kind.code, fields))
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
fn storage(space: &mut dyn BodyInterner, c: &mut Cur<'_>, v: &mut Vals) -> Option<()> {
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
    if let Some(hex) = t.strip_prefix("0x") {
        return u64::from_str_radix(hex, 16).ok();
    }
    parse_mlir_float(FloatKind::F64, t).ok().map(|b| b as u64)
}

/// The expressed type: a reference, or a float keyword.
fn ty(space: &mut dyn BodyInterner, c: &mut Cur<'_>) -> Option<TypeId> {
    if let Some(p) = c.piece() {
        return match p {
            BodyPiece::Type(t) => Some(*t),
            _ => None,
        };
    }
    let id = c.ident()?;
    let kind = FloatKind::from_keyword(&id)?;
    // Only kinds with a builtin binary encoding (or that the module
    // has) are synthesized.
    let d = TypeData::Float(kind);
    if !space.may_synthesize_type(&d) {
        return None;
    }
    Some(space.intern_type(d))
}
