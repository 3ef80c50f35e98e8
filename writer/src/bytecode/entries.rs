//! Attribute and type entries: which dialect owns each, whether it has a
//! binary encoding, and the builtin dialect's encodings (SPEC.md §6.6).
//!
//! Encodings are written once, against a [`Sink`]: the numbering pass runs
//! them to visit nested references in field order (MLIR's numbering
//! "dummy write"), the encoding pass runs the same code to produce bytes,
//! so the two can never disagree.

use super::interner::AttrRef;
use super::BuiltinEncodings;
use rmlir_format::bytecode::builtin_codes::{attr as acode, ty as tcode};
pub use rmlir_format::dense::int_words;
use rmlir_format::float::FloatKind;
use rmlir_format::*;

/// What an encoding writes: references (numbered or indexed), strings
/// (string table), and raw values.
pub trait Sink {
    /// True in the numbering pass, which only follows references; costly
    /// raw payloads need not be computed then.
    const NUMBERING: bool;
    fn attr(&mut self, a: AttrRef<'_>);
    /// An optional attribute: `vflag(index, present)`.
    fn opt_attr(&mut self, a: Option<AttrRef<'_>>);
    fn ty(&mut self, t: TypeId);
    fn varint(&mut self, v: u64);
    fn signed_varint(&mut self, v: i64);
    fn byte(&mut self, b: u8);
    /// A string-table reference.
    fn string(&mut self, s: &[u8]);
    /// A length-prefixed blob.
    fn blob(&mut self, b: &[u8]);
    /// A builtin dialect resource handle.
    fn resource(&mut self, key: &[u8]);
    /// The width of an integer type, the bit width of a float type, else
    /// 64 (types may be synthesized by the writer, so they are asked of
    /// the sink rather than of the context).
    fn type_bits(&self, _t: TypeId) -> u32 {
        64
    }
    /// The data of a type the writer synthesized (`None`: ask the
    /// context).
    fn local_type(&self, _t: TypeId) -> Option<TypeData> {
        None
    }
}

/// The dialect whose group an attribute entry belongs to.
pub fn attr_dialect(d: &AttrData) -> &str {
    match d {
        AttrData::Opaque(o) => &o.dialect,
        AttrData::Dialect { body, .. } => &body.dialect,
        _ => "builtin",
    }
}

pub fn type_dialect(d: &TypeData) -> &str {
    match d {
        TypeData::Opaque { dialect, .. } => dialect,
        TypeData::Dialect(body) => &body.dialect,
        _ => "builtin",
    }
}

/// Whether the builtin dialect encodes this attribute in binary; the rest
/// (affine maps, integer sets, strided layouts, opaque and other dialects'
/// attributes) are textual entries (SPEC.md §6.6).
/// Whether `d` has a builtin binary encoding in `builtins` (else it is a
/// textual entry, or a dialect's).
pub fn attr_has_encoding(d: &AttrData, builtins: BuiltinEncodings) -> bool {
    match d {
        AttrData::Opaque { .. } | AttrData::Dialect { .. } => false,
        AttrData::AffineMap(_) | AttrData::IntegerSet(_) | AttrData::Strided { .. } => {
            builtins == BuiltinEncodings::Mlir24
        }
        _ => true,
    }
}

/// Whether `d` has a builtin binary encoding in `builtins`.
pub fn type_has_encoding(d: &TypeData, builtins: BuiltinEncodings) -> bool {
    match d {
        TypeData::Float(k) => float_code(*k, builtins).is_some(),
        TypeData::Opaque { .. } | TypeData::Dialect(_) => false,
        _ => true,
    }
}

/// [`Sink::type_bits`] of a type.
pub fn type_bits(d: &TypeData) -> u32 {
    match d {
        TypeData::Integer { width, .. } => *width,
        TypeData::Float(k) => k.bit_width(),
        _ => 64,
    }
}

fn float_code(k: FloatKind, builtins: BuiltinEncodings) -> Option<u64> {
    let code = match k {
        FloatKind::BF16 => tcode::BF16,
        FloatKind::F16 => tcode::F16,
        FloatKind::F32 => tcode::F32,
        FloatKind::F64 => tcode::F64,
        FloatKind::F80 => tcode::F80,
        FloatKind::F128 => tcode::F128,
        FloatKind::TF32 => tcode::TF32,
        FloatKind::F8E5M2 => tcode::F8E5M2,
        FloatKind::F8E4M3 => tcode::F8E4M3,
        FloatKind::F8E4M3FN => tcode::F8E4M3FN,
        FloatKind::F8E5M2FNUZ => tcode::F8E5M2FNUZ,
        FloatKind::F8E4M3FNUZ => tcode::F8E4M3FNUZ,
        FloatKind::F8E4M3B11FNUZ => tcode::F8E4M3B11FNUZ,
        FloatKind::F8E3M4 => tcode::F8E3M4,
        FloatKind::F4E2M1FN => tcode::F4E2M1FN,
        FloatKind::F6E2M3FN => tcode::F6E2M3FN,
        FloatKind::F6E3M2FN => tcode::F6E3M2FN,
        FloatKind::F8E8M0FNU => tcode::F8E8M0FNU,
    };
    (code < tcode::END_MLIR22 || builtins != BuiltinEncodings::Mlir22).then_some(code)
}

/// Writes a builtin attribute's encoding; the caller checked
/// [`attr_has_encoding`]. `raw`: a dense attribute's bytes are written as
/// they are (no padding bits cleared).
pub fn write_attr<S: Sink>(s: &mut S, ctx: &Context, d: &AttrData, raw: bool) {
    match d {
        AttrData::Array(elems) => {
            s.varint(acode::ARRAY);
            s.varint(elems.len() as u64);
            for &e in elems {
                s.attr(AttrRef::Id(e));
            }
        }
        AttrData::Dictionary(entries) => {
            s.varint(acode::DICTIONARY);
            s.varint(entries.len() as u64);
            for (name, v) in entries {
                s.attr(AttrRef::Str(name));
                s.attr(AttrRef::Id(*v));
            }
        }
        AttrData::String { value, ty: None } => {
            s.varint(acode::STRING);
            s.string(value);
        }
        AttrData::String { value, ty: Some(t) } => {
            s.varint(acode::STRING_WITH_TYPE);
            s.string(value);
            s.ty(*t);
        }
        AttrData::SymbolRef { root, nested } => {
            if nested.is_empty() {
                s.varint(acode::FLAT_SYMBOL_REF);
                s.attr(AttrRef::Str(root));
            } else {
                s.varint(acode::SYMBOL_REF);
                s.attr(AttrRef::Str(root));
                s.varint(nested.len() as u64);
                for n in nested {
                    s.attr(AttrRef::FlatSymbol(n));
                }
            }
        }
        AttrData::Type(t) => {
            s.varint(acode::TYPE);
            s.ty(*t);
        }
        AttrData::Unit => s.varint(acode::UNIT),
        AttrData::Integer { ty, value } => {
            s.varint(acode::INTEGER);
            s.ty(*ty);
            let width = s.type_bits(*ty);
            write_apint(s, width, &int_words(value, width));
        }
        AttrData::Float { ty, bits } => {
            s.varint(acode::FLOAT);
            s.ty(*ty);
            let width = s.type_bits(*ty);
            let bits = bits.get();
            write_apint(s, width, &[bits as u64, (bits >> 64) as u64]);
        }
        AttrData::CallSiteLoc { callee, caller } => {
            s.varint(acode::CALL_SITE_LOC);
            s.attr(AttrRef::Id(*callee));
            s.attr(AttrRef::Id(*caller));
        }
        AttrData::FileLineCol { file, line, col } => {
            s.varint(acode::FILE_LINE_COL_LOC);
            s.attr(AttrRef::File(file));
            s.varint(u64::from(*line));
            s.varint(u64::from(*col));
        }
        AttrData::FileLineColRange(r) => {
            s.varint(acode::FILE_LINE_COL_RANGE);
            s.attr(AttrRef::File(&r.file));
            let sl = r.start_line;
            let sc = r.start_col.unwrap_or(0);
            let el = r.end_line.unwrap_or(sl);
            let ec = r.end_col.unwrap_or(sc);
            // MLIR 22 stores only as many numbers as the range needs; the
            // first rule that applies wins. MLIR writes a same-line range
            // starting at column 0 as its line alone, dropping the end
            // column; we keep it (three numbers) when it is not 0.
            let vals: &[u32] = if sl == 0 && sc == 0 && el == 0 && ec == 0 {
                &[]
            } else if sc == 0 && el == sl && ec == 0 {
                &[sl]
            } else if el == sl && ec == sc {
                &[sl, sc]
            } else if el == sl {
                &[sl, sc, ec]
            } else {
                &[sl, sc, el, ec]
            };
            s.varint(vals.len() as u64);
            for &v in vals {
                s.varint(u64::from(v));
            }
        }
        AttrData::FusedLoc {
            locations,
            metadata,
        } => {
            s.varint(if metadata.is_some() {
                acode::FUSED_LOC_WITH_METADATA
            } else {
                acode::FUSED_LOC
            });
            s.varint(locations.len() as u64);
            for &l in locations {
                s.attr(AttrRef::Id(l));
            }
            if let Some(md) = metadata {
                s.attr(AttrRef::Id(*md));
            }
        }
        AttrData::NameLoc { name, child } => {
            s.varint(acode::NAME_LOC);
            s.attr(AttrRef::Str(name));
            s.attr(AttrRef::Id(*child));
        }
        AttrData::UnknownLoc => s.varint(acode::UNKNOWN_LOC),
        AttrData::DenseResource { ty, key } => {
            s.varint(acode::DENSE_RESOURCE_ELEMENTS);
            s.ty(*ty);
            s.resource(key);
        }
        AttrData::DenseArray { elem, data } => {
            s.varint(acode::DENSE_ARRAY);
            s.ty(*elem);
            let size = rmlir_format::dense::element_layout(ctx, *elem).map_or(1, |l| l.bytes);
            s.varint((data.len() / size.max(1)) as u64);
            s.blob(data);
        }
        AttrData::DenseIntOrFp { ty, splat, data } => {
            let type_of = |t: TypeId| s.local_type(t).unwrap_or_else(|| ctx.ty(t).clone());
            let tdata = type_of(*ty);
            let elem = tdata.element_type();
            let elem_data = elem.map(type_of);
            let is_i1 = matches!(elem_data, Some(TypeData::Integer { width: 1, .. }));
            // Integers whose width is not a whole number of bytes: MLIR
            // stores parsed literal elements with zero padding bits (`i4 -1`
            // is `0f`), while our parser sign-extends them; hex data it
            // keeps verbatim. So the padding is cleared where our printer
            // shows literals (a splat, or at most 100 elements) and kept
            // where it shows hex — the storage mlir-opt holds after reading
            // our text.
            let pad_mask = elem_data
                .as_ref()
                .and_then(|e| int_padding_mask(e, &type_of))
                .filter(|_| {
                    !raw && (*splat
                        || tdata
                            .shape()
                            .is_some_and(|sh| sh.iter().product::<i64>() <= 100))
                });
            s.varint(acode::DENSE_INT_OR_FP_ELEMENTS);
            s.ty(*ty);
            if S::NUMBERING {
                s.blob(&[]);
            } else if let Some((size, mask)) = pad_mask {
                let mut v = data.to_vec();
                for chunk in v.chunks_mut(size) {
                    chunk[size - 1] &= mask;
                }
                s.blob(&v);
            } else if !is_i1 {
                s.blob(data);
            } else if *splat {
                // A boolean splat is one byte of all ones or all zeros.
                s.blob(&[if data.first().is_some_and(|b| b & 1 != 0) {
                    0xFF
                } else {
                    0
                }]);
            } else {
                // Booleans are bit-packed, LSB first.
                let mut packed = vec![0u8; data.len().div_ceil(8)];
                for (i, &b) in data.iter().enumerate() {
                    packed[i / 8] |= (b & 1) << (i % 8);
                }
                s.blob(&packed);
            }
        }
        AttrData::DenseString { ty, splat, strings } => {
            s.varint(acode::DENSE_STRING_ELEMENTS);
            s.ty(*ty);
            s.varint(u64::from(*splat));
            for st in strings {
                s.string(st);
            }
        }
        AttrData::Sparse {
            ty,
            indices,
            values,
        } => {
            s.varint(acode::SPARSE_ELEMENTS);
            s.ty(*ty);
            s.attr(AttrRef::Id(*indices));
            s.attr(AttrRef::Id(*values));
        }
        AttrData::Distinct { referenced, .. } => {
            s.varint(acode::DISTINCT);
            s.attr(AttrRef::Id(*referenced));
        }
        AttrData::AffineMap(map) => {
            s.varint(acode::AFFINE_MAP);
            super::affine_entries::write_affine_map(s, map);
        }
        AttrData::IntegerSet(set) => {
            s.varint(acode::INTEGER_SET);
            super::affine_entries::write_integer_set(s, set);
        }
        AttrData::Strided { offset, strides } => {
            s.varint(acode::STRIDED_LAYOUT);
            s.signed_varint(*offset);
            s.varint(strides.len() as u64);
            for &st in strides {
                s.signed_varint(st);
            }
        }
        AttrData::Opaque { .. } | AttrData::Dialect { .. } => {
            unreachable!("textual attribute entry")
        }
    }
}

/// Writes a builtin type's encoding; the caller checked [`type_has_encoding`].
pub fn write_type<S: Sink>(s: &mut S, d: &TypeData) {
    match d {
        TypeData::Integer { width, signedness } => {
            s.varint(tcode::INTEGER);
            let sg = match signedness {
                Signedness::Signless => 0,
                Signedness::Signed => 1,
                Signedness::Unsigned => 2,
            };
            s.varint((u64::from(*width) << 2) | sg);
        }
        TypeData::Index => s.varint(tcode::INDEX),
        TypeData::Function { inputs, results } => {
            s.varint(tcode::FUNCTION);
            type_list(s, inputs);
            type_list(s, results);
        }
        TypeData::Float(k) => {
            s.varint(float_code(*k, BuiltinEncodings::Mlir24).expect("every float kind has a code"))
        }
        TypeData::Complex(e) => {
            s.varint(tcode::COMPLEX);
            s.ty(*e);
        }
        TypeData::MemRef {
            shape,
            elem,
            layout,
            memory_space,
        } => {
            match memory_space {
                Some(ms) => {
                    s.varint(tcode::MEMREF_WITH_MEMORY_SPACE);
                    s.attr(AttrRef::Id(*ms));
                }
                None => s.varint(tcode::MEMREF),
            }
            write_shape(s, shape);
            s.ty(*elem);
            // MLIR always has a layout; the default is the identity map.
            s.attr(match layout {
                Some(l) => AttrRef::Id(*l),
                None => AttrRef::IdentityMap(shape.len() as u32),
            });
        }
        TypeData::None => s.varint(tcode::NONE),
        TypeData::RankedTensor {
            shape,
            elem,
            encoding,
        } => {
            match encoding {
                Some(e) => {
                    s.varint(tcode::RANKED_TENSOR_WITH_ENCODING);
                    s.attr(AttrRef::Id(*e));
                }
                None => s.varint(tcode::RANKED_TENSOR),
            }
            write_shape(s, shape);
            s.ty(*elem);
        }
        TypeData::Tuple(elems) => {
            s.varint(tcode::TUPLE);
            type_list(s, elems);
        }
        TypeData::UnrankedMemRef { elem, memory_space } => {
            match memory_space {
                Some(ms) => {
                    s.varint(tcode::UNRANKED_MEMREF_WITH_MEMORY_SPACE);
                    s.attr(AttrRef::Id(*ms));
                }
                None => s.varint(tcode::UNRANKED_MEMREF),
            }
            s.ty(*elem);
        }
        TypeData::UnrankedTensor { elem } => {
            s.varint(tcode::UNRANKED_TENSOR);
            s.ty(*elem);
        }
        TypeData::Vector {
            shape,
            scalable,
            elem,
        } => {
            if scalable.iter().any(|&b| b) {
                s.varint(tcode::VECTOR_WITH_SCALABLE_DIMS);
                s.varint(scalable.len() as u64);
                for &b in scalable {
                    s.byte(b as u8);
                }
            } else {
                s.varint(tcode::VECTOR);
            }
            write_shape(s, shape);
            s.ty(*elem);
        }
        TypeData::Opaque { .. } | TypeData::Dialect(_) => unreachable!("textual type entry"),
    }
}

/// For integer elements (or complex parts) whose width is not a whole
/// number of bytes (and not `i1`): the bytes per part and the mask of the
/// last byte's valid bits.
fn int_padding_mask(elem: &TypeData, type_of: &dyn Fn(TypeId) -> TypeData) -> Option<(usize, u8)> {
    let w = match elem {
        TypeData::Integer { width, .. } => *width,
        TypeData::Complex(inner) => match type_of(*inner) {
            TypeData::Integer { width, .. } => width,
            _ => return None,
        },
        _ => return None,
    };
    if w <= 1 || w % 8 == 0 {
        return None;
    }
    Some(((w as usize).div_ceil(8), (1u8 << (w % 8)) - 1))
}

fn type_list<S: Sink>(s: &mut S, ts: &[TypeId]) {
    s.varint(ts.len() as u64);
    for &t in ts {
        s.ty(t);
    }
}

fn write_shape<S: Sink>(s: &mut S, shape: &[i64]) {
    s.varint(shape.len() as u64);
    for &d in shape {
        s.signed_varint(d);
    }
}

/// `writeAPIntWithKnownWidth`: a raw byte up to 8 bits, a signed VarInt
/// of the zero-extended value up to 64, else the active word count and
/// each word as a signed VarInt.
pub fn write_apint<S: Sink>(s: &mut S, width: u32, words: &[u64]) {
    let w0 = words.first().copied().unwrap_or(0);
    if width <= 8 {
        s.byte(w0 as u8);
        return;
    }
    if width <= 64 {
        s.signed_varint(w0 as i64);
        return;
    }
    let nwords = (width as usize).div_ceil(64);
    let active = (0..nwords.min(words.len()))
        .rev()
        .find(|&i| words[i] != 0)
        .map_or(1, |i| i + 1);
    s.varint(active as u64);
    for &w in &words[..active.min(words.len())] {
        s.signed_varint(w as i64);
    }
    for _ in words.len()..active {
        s.signed_varint(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigInt;

    #[test]
    fn words_of_negative_values() {
        assert_eq!(int_words(&BigInt::from(-1), 8), vec![0xff]);
        assert_eq!(int_words(&BigInt::from(-5), 32), vec![0xFFFF_FFFB]);
        assert_eq!(int_words(&BigInt::from(-1), 64), vec![u64::MAX]);
        assert_eq!(int_words(&BigInt::from(-1), 70), vec![u64::MAX, 0x3f]);
        assert_eq!(int_words(&BigInt::from(3), 128), vec![3, 0]);
    }
}
