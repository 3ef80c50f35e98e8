//! The builtin dialect's attribute encodings (SPEC.md §6.6.1).

use super::binary_reader::Reader;
use super::BytecodeReader;
use crate::error::Result;
use num_bigint::{BigInt, BigUint, Sign};
use num_traits::{One, Zero};
use rmlir_format::bytecode::builtin_codes::attr as code;
use rmlir_format::dense::element_layout;
use rmlir_format::*;

impl<'a> BytecodeReader<'a> {
    pub(super) fn read_builtin_attr(&mut self, r: &mut Reader<'a>) -> Result<AttrId> {
        let at = r.offset();
        let c = r.read_varint()?;
        let data = match c {
            code::ARRAY => {
                let n = r.read_count(1, "array element")?;
                let mut v = Vec::with_capacity(n);
                for _ in 0..n {
                    v.push(self.attr_ref(r)?);
                }
                AttrData::Array(v)
            }
            code::DICTIONARY => {
                let n = r.read_count(2, "dictionary entry")?;
                let mut v: Vec<(Bytes, AttrId)> = Vec::with_capacity(n);
                for _ in 0..n {
                    let name = self.string_attr_ref(r)?;
                    let value = self.attr_ref(r)?;
                    v.push((name, value));
                }
                v.sort_by(|a, b| a.0.cmp(&b.0));
                if v.windows(2).any(|w| w[0].0 == w[1].0) {
                    return r.err_at(at, "dictionary attribute has duplicate keys");
                }
                AttrData::Dictionary(v)
            }
            code::STRING => AttrData::String {
                value: self.string_ref(r)?.into(),
                ty: None,
            },
            code::STRING_WITH_TYPE => {
                let value = self.string_ref(r)?.into();
                let t = self.type_ref(r)?;
                let ty = (!matches!(self.module.ctx.ty(t), TypeData::None)).then_some(t);
                AttrData::String { value, ty }
            }
            code::FLAT_SYMBOL_REF => AttrData::SymbolRef {
                root: self.string_attr_ref(r)?,
                nested: Box::new([]),
            },
            code::SYMBOL_REF => {
                let root = self.string_attr_ref(r)?;
                let n = r.read_count(1, "nested symbol reference")?;
                let mut nested = Vec::with_capacity(n);
                for _ in 0..n {
                    let at = r.offset();
                    let a = self.attr_ref(r)?;
                    match self.module.ctx.attr(a) {
                        AttrData::SymbolRef { root, nested: n } if n.is_empty() => {
                            nested.push(root.clone())
                        }
                        other => {
                            return r.err_at(
                                at,
                                format!(
                                    "expected attribute of type: FlatSymbolRefAttr, but got: {}",
                                    attr_kind(other)
                                ),
                            )
                        }
                    }
                }
                AttrData::SymbolRef {
                    root,
                    nested: nested.into(),
                }
            }
            code::TYPE => AttrData::Type(self.type_ref(r)?),
            code::UNIT => AttrData::Unit,
            code::INTEGER => {
                let at = r.offset();
                let ty = self.type_ref(r)?;
                let value = integer_value(r, self.module.ctx.ty(ty), at)?;
                AttrData::Integer { ty, value }
            }
            code::FLOAT => {
                let at = r.offset();
                let ty = self.type_ref(r)?;
                let bits = float_bits(r, self.module.ctx.ty(ty), at)?;
                AttrData::Float { ty, bits }
            }
            code::FILE_LINE_COL_LOC
            | code::FILE_LINE_COL_RANGE
            | code::NAME_LOC
            | code::CALL_SITE_LOC => self.plain_location(c, r)?,
            code::FUSED_LOC | code::FUSED_LOC_WITH_METADATA => {
                let n = r.read_count(1, "fused location")?;
                let mut locations = Vec::with_capacity(n);
                for _ in 0..n {
                    locations.push(self.location_ref(r)?);
                }
                let metadata = if c == code::FUSED_LOC_WITH_METADATA {
                    Some(self.attr_ref(r)?)
                } else {
                    None
                };
                return Ok(self.module.ctx.fused_loc(locations, metadata));
            }
            code::UNKNOWN_LOC => AttrData::UnknownLoc,
            code::DENSE_RESOURCE_ELEMENTS => {
                let ty = self.type_ref(r)?;
                let at = r.offset();
                let h = r.read_varint()?;
                let Some(key) = self.resource_keys.get(h as usize) else {
                    return r.err_at(at, format!("invalid resource handle index: {h}"));
                };
                AttrData::DenseResource {
                    ty,
                    key: key.clone().into(),
                }
            }
            code::DENSE_ARRAY => {
                let at = r.offset();
                let elem = self.type_ref(r)?;
                let Some(layout) = element_layout(&self.module.ctx, elem) else {
                    return r.err_at(
                        at,
                        "expected integer or float element type for DenseArrayAttr",
                    );
                };
                let count = r.read_varint()?;
                let blob_at = r.offset();
                let blob = r.read_blob()?;
                if count.checked_mul(layout.bytes as u64) != Some(blob.len() as u64) {
                    return r.err_at(
                        blob_at,
                        format!(
                            "dense array of {count} elements has {} bytes of data",
                            blob.len()
                        ),
                    );
                }
                AttrData::DenseArray {
                    elem,
                    data: blob.into(),
                }
            }
            code::DENSE_INT_OR_FP_ELEMENTS => {
                let at = r.offset();
                let ty = self.type_ref(r)?;
                let blob_at = r.offset();
                let blob = r.read_blob()?;
                self.dense_from_raw(ty, blob, r, at, blob_at)?
            }
            code::DENSE_STRING_ELEMENTS => {
                let at = r.offset();
                let ty = self.type_ref(r)?;
                let n = self.num_elements(ty, r, at)?;
                let splat = r.read_varint()? != 0;
                let count = if splat { 1 } else { n };
                let count = r.check_count(count, 1, "dense string element", r.offset())?;
                let mut strings = Vec::with_capacity(count);
                for _ in 0..count {
                    strings.push(self.string_ref(r)?.into());
                }
                AttrData::DenseString { ty, splat, strings }
            }
            code::SPARSE_ELEMENTS => {
                let ty = self.type_ref(r)?;
                let indices = self.attr_ref(r)?;
                let values = self.attr_ref(r)?;
                AttrData::Sparse {
                    ty,
                    indices,
                    values,
                }
            }
            code::DISTINCT => {
                let referenced = self.attr_ref(r)?;
                let id = self.module.ctx.fresh_distinct_id();
                AttrData::Distinct { id, referenced }
            }
            code::AFFINE_MAP => AttrData::AffineMap(super::builtin_affine::read_affine_map(r)?),
            code::INTEGER_SET => {
                AttrData::IntegerSet(Box::new(super::builtin_affine::read_integer_set(r)?))
            }
            code::STRIDED_LAYOUT => {
                let (offset, strides) = super::builtin_affine::read_strided(r)?;
                AttrData::Strided { offset, strides }
            }
            other => return r.err_at(at, format!("unknown attribute code: {other}")),
        };
        Ok(self.module.ctx.intern_attr(data))
    }

    /// The body of a `FileLineColLoc`, `FileLineColRange`, `NameLoc` or
    /// `CallSiteLoc` entry after its code `c`, not yet interned (the
    /// attributes it refers to are).
    pub(super) fn plain_location(&mut self, c: u64, r: &mut Reader<'a>) -> Result<AttrData> {
        if c == code::NAME_LOC {
            let name = self.string_attr_ref(r)?;
            let child = self.location_ref(r)?;
            return Ok(AttrData::NameLoc { name, child });
        }
        if c == code::CALL_SITE_LOC {
            let callee = self.location_ref(r)?;
            let caller = self.location_ref(r)?;
            return Ok(AttrData::CallSiteLoc { callee, caller });
        }
        let file = self.file_name_ref(r)?;
        if c == code::FILE_LINE_COL_LOC {
            let line = read_u32(r, "line")?;
            let col = read_u32(r, "column")?;
            return Ok(AttrData::FileLineCol { file, line, col });
        }
        let at = r.offset();
        let n = r.read_varint()?;
        if n > 4 {
            return r.err_at(at, format!("FileLineColRange with {n} values (at most 4)"));
        }
        let mut v = [0u32; 4];
        for slot in v.iter_mut().take(n as usize) {
            *slot = read_u32(r, "line or column")?;
        }
        Ok(file_line_col_range(file, n as usize, v))
    }

    /// A string-table reference.
    pub(super) fn string_ref(&mut self, r: &mut Reader<'a>) -> Result<&'a [u8]> {
        let at = r.offset();
        let idx = r.read_varint()?;
        super::dialect_section::string_at(r, &self.strings, idx, at)
    }

    /// An attribute reference that must be a `StringAttr`.
    pub(super) fn string_attr_ref(&mut self, r: &mut Reader<'a>) -> Result<Bytes> {
        let at = r.offset();
        let a = self.attr_ref(r)?;
        self.string_value(a, r, at).map(Bytes::from)
    }

    /// A location's file name: a `StringAttr` reference, shared between
    /// the locations naming the same attribute.
    fn file_name_ref(&mut self, r: &mut Reader<'a>) -> Result<FileName> {
        let at = r.offset();
        let a = self.attr_ref(r)?;
        if let Some(f) = self.file_names.get(&a) {
            return Ok(f.clone());
        }
        let f = FileName::from(self.string_value(a, r, at)?);
        self.file_names.insert(a, f.clone());
        Ok(f)
    }

    /// The bytes of `a`, which must be a `StringAttr` (referenced at `at`).
    fn string_value(&self, a: AttrId, r: &Reader<'a>, at: usize) -> Result<&[u8]> {
        match self.module.ctx.attr(a) {
            AttrData::String { value, .. } => Ok(value),
            other => r.err_at(
                at,
                format!(
                    "expected attribute of type: StringAttr, but got: {}",
                    attr_kind(other)
                ),
            ),
        }
    }

    /// An attribute reference that must be a location.
    pub(super) fn location_ref(&mut self, r: &mut Reader<'a>) -> Result<AttrId> {
        let at = r.offset();
        let idx = r.read_varint()?;
        let a = self.attr_at(idx, r, at)?;
        if !self.table.known_location(idx) && !self.module.ctx.attr(a).is_location() {
            return r.err_at(
                at,
                format!(
                    "expected attribute of type: LocationAttr, but got: {}",
                    attr_kind(self.module.ctx.attr(a))
                ),
            );
        }
        Ok(a)
    }

    fn num_elements(&self, ty: TypeId, r: &Reader<'a>, at: usize) -> Result<u64> {
        let Some(shape) = self.module.ctx.ty(ty).shape() else {
            return r.err_at(at, "expected a shaped type for elements attribute");
        };
        let mut n: u64 = 1;
        for &d in shape {
            if d < 0 {
                return r.err_at(at, "elements attribute type must have a static shape");
            }
            n = n
                .checked_mul(d as u64)
                .ok_or(())
                .or_else(|_| r.err_at(at, "elements attribute type has too many elements"))?;
        }
        Ok(n)
    }

    /// Converts MLIR's raw dense storage (i1 bit-packed) to ours (SPEC.md §2.3).
    fn dense_from_raw(
        &self,
        ty: TypeId,
        blob: &[u8],
        r: &Reader<'a>,
        at: usize,
        blob_at: usize,
    ) -> Result<AttrData> {
        let n = self.num_elements(ty, r, at)?;
        let elem = self.module.ctx.ty(ty).element_type().expect("shaped");
        let Some(layout) = element_layout(&self.module.ctx, elem) else {
            return r.err_at(at, "expected integer, index, float or complex elements");
        };
        let bad = || {
            r.err_at(
                blob_at,
                format!(
                    "dense elements data of {} bytes is invalid for {n} elements",
                    blob.len()
                ),
            )
        };
        if matches!(self.module.ctx.ty(elem), TypeData::Integer { width: 1, .. }) {
            if blob.len() == 1 && (blob[0] == 0 || blob[0] == 0xFF) {
                return Ok(AttrData::DenseIntOrFp {
                    ty,
                    splat: true,
                    data: vec![blob[0] & 1].into(),
                });
            }
            if blob.len() as u64 != n.div_ceil(8) {
                return bad();
            }
            let data: Vec<u8> = (0..n as usize)
                .map(|i| (blob[i / 8] >> (i % 8)) & 1)
                .collect();
            let splat = n == 1;
            return Ok(AttrData::DenseIntOrFp {
                ty,
                splat,
                data: data.into(),
            });
        }
        let size = layout.bytes as u64;
        // A one-element buffer is a splat whatever the shape, even of 0
        // elements, as MLIR's isValidRawBuffer has it (mlir-opt round-trips
        // `dense<7> : tensor<0xindex>`; found by fuzzing text_roundtrip).
        if blob.len() as u64 == size {
            return Ok(AttrData::DenseIntOrFp {
                ty,
                splat: true,
                data: blob.into(),
            });
        }
        if n.checked_mul(size) != Some(blob.len() as u64) {
            return bad();
        }
        Ok(AttrData::DenseIntOrFp {
            ty,
            splat: false,
            data: blob.into(),
        })
    }
}

fn read_u32(r: &mut Reader<'_>, what: &str) -> Result<u32> {
    let at = r.offset();
    let v = r.read_varint()?;
    u32::try_from(v).or_else(|_| r.err_at(at, format!("{what} {v} does not fit in 32 bits")))
}

/// MLIR 22's `FileLineColRange` from its N stored values (SPEC.md §6.6.2).
pub(super) fn file_line_col_range(file: FileName, n: usize, v: [u32; 4]) -> AttrData {
    match n {
        0 => AttrData::FileLineColRange(Box::new(FileLineColRange {
            file,
            start_line: 0,
            start_col: Some(0),
            end_line: Some(0),
            end_col: Some(0),
        })),
        1 => AttrData::FileLineColRange(Box::new(FileLineColRange {
            file,
            start_line: v[0],
            start_col: None,
            end_line: None,
            end_col: None,
        })),
        // mlir-opt 22 reads a two-number range as the `FileLineColLoc` of
        // that point: the same attribute as `loc("f":L:C)` (which it writes
        // with the older FileLineColLoc code), so the two are one alias
        // when printed and one entry when written again.
        2 => AttrData::FileLineCol {
            file,
            line: v[0],
            col: v[1],
        },
        3 => AttrData::FileLineColRange(Box::new(FileLineColRange {
            file,
            start_line: v[0],
            start_col: Some(v[1]),
            end_line: Some(v[0]),
            end_col: Some(v[2]),
        })),
        _ => AttrData::FileLineColRange(Box::new(FileLineColRange {
            file,
            start_line: v[0],
            start_col: Some(v[1]),
            end_line: Some(v[2]),
            end_col: Some(v[3]),
        })),
    }
}

/// The value of an `IntegerAttr` of type `ty` (referenced at `at`), read
/// from `r` and normalised to the type's width.
pub(super) fn integer_value(r: &mut Reader<'_>, ty: &TypeData, at: usize) -> Result<BigInt> {
    let (width, signedness) = match ty {
        TypeData::Integer { width, signedness } => (*width, *signedness),
        TypeData::Index => (64, Signedness::Signless),
        _ => return r.err_at(at, "expected integer or index type for IntegerAttr"),
    };
    let bits = read_apint(r, width)?;
    Ok(normalize_bits(bits, width, signedness))
}

/// The bit pattern of a `FloatAttr` of type `ty` (referenced at `at`),
/// read from `r`.
pub(super) fn float_bits(r: &mut Reader<'_>, ty: &TypeData, at: usize) -> Result<FloatBits> {
    let TypeData::Float(kind) = ty else {
        return r.err_at(at, "expected float type for FloatAttr");
    };
    let bits = read_apint(r, kind.bit_width())?;
    let mut v: u128 = 0;
    for (i, d) in bits.to_u64_digits().iter().enumerate().take(2) {
        v |= (*d as u128) << (64 * i);
    }
    Ok(v.into())
}

/// Reads an APInt of `width` bits (SPEC.md §6.6.3) as its unsigned bits.
pub(super) fn read_apint(r: &mut Reader<'_>, width: u32) -> Result<BigUint> {
    let v = if width <= 8 {
        BigUint::from(r.read_u8()?)
    } else if width <= 64 {
        BigUint::from(r.read_signed_varint()? as u64)
    } else {
        let at = r.offset();
        let words = r.read_varint()?;
        if words > (width as u64).div_ceil(64) {
            return r.err_at(
                at,
                format!("APInt of {words} words does not fit in {width} bits"),
            );
        }
        // Each word takes at least a byte: no allocation beyond the input.
        let words = r.check_count(words, 1, "APInt word", at)?;
        let mut digits = Vec::with_capacity(words);
        for _ in 0..words {
            digits.push(r.read_signed_varint()? as u64);
        }
        BigUint::new(
            digits
                .iter()
                .flat_map(|d| [*d as u32, (*d >> 32) as u32])
                .collect(),
        )
    };
    let mask = (BigUint::one() << width) - BigUint::one();
    Ok(v & mask)
}

/// Unsigned bits to the value form of §2.3.
pub(super) fn normalize_bits(bits: BigUint, width: u32, signedness: Signedness) -> BigInt {
    let v = BigInt::from_biguint(Sign::Plus, bits);
    if width == 0 {
        return BigInt::zero();
    }
    match signedness {
        Signedness::Unsigned => v,
        Signedness::Signless if width == 1 => v,
        _ => {
            if v.bit((width - 1) as u64) {
                v - (BigInt::one() << width)
            } else {
                v
            }
        }
    }
}

pub(super) fn attr_kind(a: &AttrData) -> &'static str {
    a.kind_phrase()
}
