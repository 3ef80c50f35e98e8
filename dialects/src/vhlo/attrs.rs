//! Reading VHLO attributes (`VhloBytecode.cpp`'s `read…V1Attr`) into
//! bodies printed in `VhloAttrs.td`'s formats.

use super::codes::{self, AttrKind};
use super::types::{self, not_builtin, to_builtin};
use crate::body::{dim, Body};
use crate::hlo::{join, signed_list as read_signed_list};
use num_bigint::BigInt;
use rmlir_format::dense::element_layout;
use rmlir_format::dialect_hooks::{DialectReader, HookError, HookResult};
use rmlir_format::float::{format_mlir_float, FloatKind};
use rmlir_format::{AttrData, AttrId, Signedness, TypeData};

pub fn read(code: u64, r: &mut dyn DialectReader) -> HookResult<AttrId> {
    let Some((mnemonic, kind)) = codes::attr_by_code(code) else {
        return Err(super::unknown_code("attribute", code, "1-25"));
    };
    let mut b = Body::new(mnemonic);
    match kind {
        AttrKind::Array => {
            let elems = read_attrs(r)?;
            b.text("<[").list(&elems, |b, a| {
                b.attr(a);
            });
            b.text("]>");
        }
        AttrKind::Boolean => {
            let v = match r.read_varint()? {
                0 => "false",
                1 => "true",
                v => {
                    return Err(HookError(format!(
                        "vhlo bool_v1 of value {v} (expected 0 or 1)"
                    )))
                }
            };
            b.text(&format!("<{v}>"));
        }
        AttrKind::Enum(cases) => {
            let v = r.read_varint()?;
            let Some(&(_, name)) = cases.iter().find(|c| c.0 == v) else {
                return Err(HookError(format!("vhlo {mnemonic} of unknown value {v}")));
            };
            // Not a `mnemonic<…>` body: printed `#vhlo<precision_v1 HIGH>`.
            b.text(&format!(" {name}"));
        }
        AttrKind::Dictionary => {
            let n = r.read_varint()?;
            let mut entries = Vec::new();
            for _ in 0..n {
                entries.push((r.read_attribute()?, r.read_attribute()?));
            }
            b.text("<{").list(&entries, |b, (k, v)| {
                b.attr(k).text(" = ").attr(v);
            });
            b.text("}>");
        }
        AttrKind::Float => {
            let t = r.read_type()?;
            let kind = float_kind(r, t).ok_or_else(|| not_builtin("float_v1"))?;
            let bits = read_apint(r, kind.bit_width())?;
            let value = format_mlir_float(kind, bits as u128);
            b.text(&format!("<{value} : ")).ty(t).text(">");
        }
        AttrKind::Integer => {
            let t = r.read_type()?;
            let builtin = to_builtin(r.ctx(), t).ok_or_else(|| not_builtin("integer_v1"))?;
            let (width, unsigned) = match r.ctx().ty(builtin) {
                TypeData::Index => (64, false),
                TypeData::Integer { width, signedness } if *width <= 64 => {
                    (*width, *signedness == Signedness::Unsigned)
                }
                _ => return Err(not_builtin("integer_v1")),
            };
            let bits = read_apint(r, width)?;
            let value = if unsigned || width == 0 {
                BigInt::from(bits)
            } else {
                let shift = 64 - width;
                BigInt::from(((bits << shift) as i64) >> shift)
            };
            let a = r
                .ctx()
                .intern_attr(AttrData::Integer { ty: builtin, value });
            b.text("<").attr(a).text(">");
        }
        AttrKind::OutputOperandAlias => {
            let output = read_signed_list(r)?;
            let operand = r.read_signed_varint()?;
            let operand_tuple = read_signed_list(r)?;
            b.text(&format!(
                "<outputTupleIndices = [{}], operandIndex = {operand}, operandTupleIndices = [{}]>",
                join(&output),
                join(&operand_tuple)
            ));
        }
        AttrKind::String => {
            let s = r.read_string()?;
            let mut q = String::new();
            rmlir_format::escape::write_quoted(&s, &mut q);
            b.text(&format!("<{q}>"));
        }
        AttrKind::Tensor => {
            let t = r.read_type()?;
            let blob = r.read_blob()?;
            let dense = dense_from_raw(r, t, &blob)?;
            b.text("<").attr(dense).text(">");
        }
        AttrKind::Type => {
            let t = r.read_type()?;
            b.text("<").ty(t).text(">");
        }
        AttrKind::TypeExtensions => {
            let bounds = read_signed_list(r)?;
            let bounds: Vec<String> = bounds.iter().map(|&d| dim(d)).collect();
            b.text(&format!("<bounds = [{}]>", bounds.join(", ")));
        }
        AttrKind::ResultAccuracy => {
            let atol = types::read_f64(r)?;
            let rtol = types::read_f64(r)?;
            let ulps = r.read_signed_varint()?;
            let mode = r.read_attribute()?;
            b.text(&format!(
                "<atol = {atol}, rtol = {rtol}, ulps = {ulps}, mode = "
            ))
            .attr(mode)
            .text(">");
        }
        AttrKind::SubAxisInfo => {
            let pre_size = r.read_signed_varint()?;
            let size = r.read_signed_varint()?;
            b.text(&format!("<pre_size = {pre_size}, size = {size}>"));
        }
        AttrKind::AxisRef => {
            let name = r.read_attribute()?;
            let sub_axis_info = match r.read_varint()? {
                0 => None,
                _ => Some(r.read_attribute()?),
            };
            b.text("<name = ").attr(name);
            if let Some(s) = sub_axis_info {
                b.text(", sub_axis_info = ").attr(s);
            }
            b.text(">");
        }
        AttrKind::ReplicaGroupMeshAxes => {
            let mesh = r.read_attribute()?;
            let axes = r.read_attribute()?;
            b.text("<mesh = ")
                .attr(mesh)
                .text(", axes = ")
                .attr(axes)
                .text(">");
        }
        AttrKind::MeshAxis => {
            let name = r.read_attribute()?;
            let size = r.read_signed_varint()?;
            b.text("<name = ")
                .attr(name)
                .text(&format!(", size = {size}>"));
        }
        AttrKind::Mesh => {
            let axes = r.read_attribute()?;
            let device_ids = r.read_optional_attribute()?;
            b.text("<axes = ").attr(axes);
            if let Some(d) = device_ids {
                b.text(", device_ids = ").attr(d);
            }
            b.text(">");
        }
    }
    Ok(b.into_attr(super::DIALECT, r.ctx()))
}

/// `readAttributes`: a count, then attribute references.
fn read_attrs(r: &mut dyn DialectReader) -> HookResult<Vec<AttrId>> {
    let n = r.read_varint()?;
    let mut v = Vec::new();
    for _ in 0..n {
        v.push(r.read_attribute()?);
    }
    Ok(v)
}

/// The float kind of a VHLO float type.
fn float_kind(r: &mut dyn DialectReader, t: rmlir_format::TypeId) -> Option<FloatKind> {
    let b = to_builtin(r.ctx(), t)?;
    match r.ctx().ty(b) {
        TypeData::Float(k) => Some(*k),
        _ => None,
    }
}

/// MLIR's `readAPIntWithKnownWidth` for widths up to 64: one byte up to 8
/// bits, else a signed (zigzag) varint; the value's low `width` bits.
pub fn read_apint(r: &mut dyn DialectReader, width: u32) -> HookResult<u64> {
    let raw = if width <= 8 {
        u64::from(r.read_byte()?)
    } else if width <= 64 {
        r.read_signed_varint()? as u64
    } else {
        return Err(HookError(format!(
            "vhlo integer of {width} bits (at most 64)"
        )));
    };
    Ok(if width >= 64 {
        raw
    } else {
        raw & ((1u64 << width) - 1)
    })
}

/// A `#vhlo.tensor_v1`'s value: a builtin dense attribute of the builtin
/// type the VHLO tensor type stands for, from MLIR's raw dense storage.
/// VHLO packs `i1` elements eight to a byte (a splat as one byte 0xFF or
/// 0x00); files of some releases hold them a byte each, which is read
/// too (`readVhloTensorV1Attr`).
fn dense_from_raw(
    r: &mut dyn DialectReader,
    t: rmlir_format::TypeId,
    blob: &[u8],
) -> HookResult<AttrId> {
    let ty = to_builtin(r.ctx(), t).ok_or_else(|| not_builtin("tensor_v1"))?;
    let ctx = r.ctx();
    let (shape, elem) = match ctx.ty(ty) {
        TypeData::RankedTensor { shape, elem, .. } => (shape.clone(), *elem),
        _ => return Err(not_builtin("tensor_v1")),
    };
    let mut n: u64 = 1;
    for &d in &shape {
        let d = u64::try_from(d)
            .map_err(|_| HookError("vhlo tensor_v1 of a dynamic shape".to_string()))?;
        n = n
            .checked_mul(d)
            .ok_or_else(|| HookError("vhlo tensor_v1 of more than 2^64 elements".to_string()))?;
    }
    let layout = element_layout(ctx, elem).ok_or_else(|| not_builtin("tensor_v1"))?;
    let bad = || {
        HookError(format!(
            "vhlo tensor_v1 data of {} bytes is invalid for {n} elements of {} bytes",
            blob.len(),
            layout.bytes
        ))
    };
    let is_bool = matches!(ctx.ty(elem), TypeData::Integer { width: 1, .. });
    let (splat, data): (bool, Vec<u8>) = if is_bool && blob.len() == 1 && blob[0] == 0xFF {
        (true, vec![1])
    } else if is_bool && blob.len() as u64 == n.div_ceil(8) && blob.len() as u64 != n {
        let data: Vec<u8> = (0..n as usize)
            .map(|i| (blob[i / 8] >> (i % 8)) & 1)
            .collect();
        // Booleans all alike are a splat: the packed byte 0x00 of a splat
        // `false` reads as n zeros, and jaxlib prints `dense<false>`.
        if data.iter().all(|&b| b == data[0]) {
            (true, vec![data[0]])
        } else {
            (false, data)
        }
    } else if blob.len() == layout.bytes {
        (true, blob.to_vec())
    } else if n.checked_mul(layout.bytes as u64) == Some(blob.len() as u64) {
        (false, blob.to_vec())
    } else {
        return Err(bad());
    };
    // A one-element buffer is a splat whatever the shape, as the builtin
    // reader stores it (MLIR's `isValidRawBuffer`).
    Ok(ctx.intern_attr(AttrData::DenseIntOrFp {
        ty,
        splat,
        data: data.into(),
    }))
}
