//! The binary encodings of affine maps, integer sets and strided layouts
//! that MLIR added after release 22 (SPEC.md §6.6.6). Writers built on
//! newer MLIR (IREE 3.13's `MLIR24.0.0git`) use them at every bytecode
//! version, without a version bump, so they are read whatever the file's
//! version.

use super::binary_reader::Reader;
use crate::error::Result;
use rmlir_format::affine::{AffineExpr, AffineMap, IntegerSet};

/// Expression kinds in the order of MLIR's `AffineExprBytecodeKind`.
mod expr_kind {
    pub const DIM: u64 = 0;
    pub const SYMBOL: u64 = 1;
    pub const CONSTANT: u64 = 2;
    pub const ADD: u64 = 3;
    pub const MUL: u64 = 4;
    pub const MOD: u64 = 5;
    pub const FLOOR_DIV: u64 = 6;
    pub const CEIL_DIV: u64 = 7;
}

/// Map kinds, the low two bits of a map's header.
mod map_kind {
    pub const IDENTITY: u64 = 0;
    pub const PERMUTATION: u64 = 1;
    pub const PROJECTED_PERMUTATION: u64 = 2;
    // 3 is the general map.
}

/// MLIR refuses an expression whose pending work exceeds this many items
/// (its reader is iterative; this bounds the depth of the tree).
const MAX_WORK: usize = 128;

/// An identity map's dimensions take no bytes, so they cannot be checked
/// against what remains: more than this is refused rather than allocated.
const MAX_IDENTITY_DIMS: u64 = 1 << 16;

/// A map: `header = (numDims << 2) | kind`, then by kind nothing
/// (identity), a position per dimension (permutation), a count and that
/// many positions (projected permutation), or `numSymbols`, `numResults`
/// and the result expressions (general).
pub(super) fn read_affine_map(r: &mut Reader<'_>) -> Result<AffineMap> {
    let at = r.offset();
    let header = r.read_varint()?;
    let num_dims = dims_or_symbols(r, header >> 2, "dimension", at)?;
    match header & 3 {
        map_kind::IDENTITY => {
            if u64::from(num_dims) > MAX_IDENTITY_DIMS {
                return r.err_at(
                    at,
                    format!("affine map: identity of {num_dims} dimensions exceeds the limit of {MAX_IDENTITY_DIMS}"),
                );
            }
            Ok(AffineMap::identity(num_dims))
        }
        map_kind::PERMUTATION => {
            r.check_count(u64::from(num_dims), 1, "permutation position", at)?;
            let mut results = Vec::with_capacity(num_dims as usize);
            for _ in 0..num_dims {
                results.push(AffineExpr::dim(position(r, num_dims, "d")?));
            }
            Ok(AffineMap::new(num_dims, 0, results))
        }
        map_kind::PROJECTED_PERMUTATION => {
            let n = r.read_count(1, "projected permutation position")?;
            let mut results = Vec::with_capacity(n);
            for _ in 0..n {
                results.push(AffineExpr::dim(position(r, num_dims, "d")?));
            }
            Ok(AffineMap::new(num_dims, 0, results))
        }
        // The two bits left: general.
        _ => {
            let s_at = r.offset();
            let v = r.read_varint()?;
            let num_symbols = dims_or_symbols(r, v, "symbol", s_at)?;
            let n = r.read_count(2, "affine map result")?;
            let mut results = Vec::with_capacity(n);
            for _ in 0..n {
                results.push(read_affine_expr(r, num_dims, num_symbols)?);
            }
            Ok(AffineMap::new(num_dims, num_symbols, results))
        }
    }
}

/// A set: `numDims`, `numSymbols`, the number of constraints, each
/// constraint's expression, then one byte per constraint (1: `== 0`,
/// 0: `>= 0`).
pub(super) fn read_integer_set(r: &mut Reader<'_>) -> Result<IntegerSet> {
    let at = r.offset();
    let v = r.read_varint()?;
    let num_dims = dims_or_symbols(r, v, "dimension", at)?;
    let at = r.offset();
    let v = r.read_varint()?;
    let num_symbols = dims_or_symbols(r, v, "symbol", at)?;
    // An expression and a flag: at least three bytes each.
    let n = r.read_count(3, "integer set constraint")?;
    let mut constraints = Vec::with_capacity(n);
    for _ in 0..n {
        constraints.push(read_affine_expr(r, num_dims, num_symbols)?);
    }
    let mut eq_flags = Vec::with_capacity(n);
    for _ in 0..n {
        let at = r.offset();
        eq_flags.push(match r.read_u8()? {
            0 => false,
            1 => true,
            b => return r.err_at(at, format!("integer set: invalid equality flag {b}")),
        });
    }
    Ok(IntegerSet::new(
        num_dims,
        num_symbols,
        constraints,
        eq_flags,
    ))
}

/// A strided layout: the offset, then the strides, as signed VarInts
/// (`ShapedType::kDynamic` for `?`).
pub(super) fn read_strided(r: &mut Reader<'_>) -> Result<(i64, Vec<i64>)> {
    let offset = r.read_signed_varint()?;
    let n = r.read_count(1, "stride")?;
    let mut strides = Vec::with_capacity(n);
    for _ in 0..n {
        strides.push(r.read_signed_varint()?);
    }
    Ok((offset, strides))
}

fn dims_or_symbols(r: &Reader<'_>, v: u64, what: &str, at: usize) -> Result<u32> {
    u32::try_from(v).or_else(|_| r.err_at(at, format!("affine map: {v} {what}s do not fit")))
}

/// A dimension or symbol position, which must be below `bound`.
fn position(r: &mut Reader<'_>, bound: u32, prefix: &str) -> Result<u32> {
    let at = r.offset();
    let p = r.read_varint()?;
    if p >= u64::from(bound) {
        let what = if prefix == "d" {
            "dimensions"
        } else {
            "symbols"
        };
        return r.err_at(
            at,
            format!("affine expression refers to {prefix}{p} but the map has {bound} {what}"),
        );
    }
    Ok(p as u32)
}

/// An expression in prefix order: a kind, then a position, a constant, or
/// the two operands. Read without recursion, as MLIR reads it, and built
/// through the simplifying constructors, as MLIR's `getAffineBinaryOpExpr`
/// builds it.
fn read_affine_expr(r: &mut Reader<'_>, num_dims: u32, num_symbols: u32) -> Result<AffineExpr> {
    enum Work {
        Read,
        Combine(u64),
    }
    let start = r.offset();
    let mut work = vec![Work::Read];
    let mut operands: Vec<AffineExpr> = Vec::new();
    while let Some(item) = work.pop() {
        if work.len() >= MAX_WORK {
            return r.err_at(start, "affine expression nested too deeply");
        }
        match item {
            Work::Combine(kind) => {
                let (Some(rhs), Some(lhs)) = (operands.pop(), operands.pop()) else {
                    return r.err_at(start, "malformed affine expression");
                };
                operands.push(match kind {
                    expr_kind::ADD => AffineExpr::add(lhs, rhs),
                    expr_kind::MUL => AffineExpr::mul(lhs, rhs),
                    expr_kind::MOD => AffineExpr::modulo(lhs, rhs),
                    expr_kind::FLOOR_DIV => AffineExpr::floor_div(lhs, rhs),
                    _ => AffineExpr::ceil_div(lhs, rhs),
                });
            }
            Work::Read => {
                let at = r.offset();
                match r.read_varint()? {
                    expr_kind::DIM => operands.push(AffineExpr::dim(position(r, num_dims, "d")?)),
                    expr_kind::SYMBOL => {
                        operands.push(AffineExpr::symbol(position(r, num_symbols, "s")?))
                    }
                    expr_kind::CONSTANT => {
                        operands.push(AffineExpr::constant(r.read_signed_varint()?))
                    }
                    k @ expr_kind::ADD..=expr_kind::CEIL_DIV => {
                        work.push(Work::Combine(k));
                        work.push(Work::Read);
                        work.push(Work::Read);
                    }
                    k => return r.err_at(at, format!("unknown affine expression kind: {k}")),
                }
            }
        }
    }
    match (operands.pop(), operands.is_empty()) {
        (Some(e), true) => Ok(e),
        _ => r.err_at(start, "malformed affine expression"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(bytes: &[u8]) -> Result<AffineMap> {
        read_affine_map(&mut Reader::new(bytes, 0, "AttrType"))
    }

    /// `d0 + (d0 + (… + d0))`, `depth` additions, as a general map of one
    /// dimension and one result.
    fn nested_adds(depth: usize) -> Vec<u8> {
        let mut b = vec![0x0f, 0x01, 0x03];
        for _ in 0..depth {
            // add, then its left operand d0; the right one is the rest.
            b.extend_from_slice(&[0x07, 0x01, 0x01]);
        }
        b.extend_from_slice(&[0x01, 0x01]);
        b
    }

    #[test]
    fn depth_is_bounded_as_in_mlir() {
        // Right-nested additions leave one pending read per level.
        let m = map(&nested_adds(100)).expect("100 levels read");
        assert_eq!(m.results.len(), 1);
        let e = map(&nested_adds(200)).unwrap_err();
        assert!(e.to_string().contains("nested too deeply"), "{e}");
    }

    #[test]
    fn truncated_and_oversized_maps_are_errors() {
        // A general map that promises 5 results in 2 bytes.
        let e = map(&[0x0f, 0x01, 0x0b, 0x01]).unwrap_err();
        assert!(e.to_string().contains("affine map result count 5"), "{e}");
        // An identity map of 2^20 dimensions: no bytes to check, a limit.
        let mut b = Vec::new();
        let header: u64 = (1 << 20) << 2;
        // A 4-byte VarInt: the value shifted by 4, low bits 1000.
        b.extend_from_slice(&(((header << 4) | 0b1000) as u32).to_le_bytes());
        let e = map(&b).unwrap_err();
        assert!(e.to_string().contains("exceeds the limit"), "{e}");
        // A binary operator with one operand.
        let e = map(&[0x0f, 0x01, 0x03, 0x07, 0x01, 0x01]).unwrap_err();
        assert!(e.to_string().contains("attempting to parse"), "{e}");
    }
}
