//! The binary encodings of affine maps and integer sets that MLIR added
//! after release 22 (SPEC.md §6.6.6), written only with
//! [`super::BuiltinEncodings::Mlir24`]: the reader's
//! `builtin_affine.rs` in reverse, choosing a map's kind as MLIR's writer
//! does.

use super::entries::Sink;
use rmlir_format::affine::{AffineExpr, AffineMap, IntegerSet};

/// `(numDims << 2) | kind`, then the kind's payload. The kind is MLIR's
/// first match: identity (no symbols), permutation, projected permutation
/// (no symbols), else general.
pub fn write_affine_map<S: Sink>(s: &mut S, map: &AffineMap) {
    let dims = u64::from(map.num_dims) << 2;
    let positions = projected_permutation(map);
    if map.num_symbols == 0 && is_identity(map) {
        s.varint(dims);
    } else if let Some(p) = positions
        .as_ref()
        .filter(|p| p.len() == map.num_dims as usize)
    {
        s.varint(dims | 1);
        for &d in p {
            s.varint(u64::from(d));
        }
    } else if let Some(p) = positions {
        s.varint(dims | 2);
        s.varint(p.len() as u64);
        for d in p {
            s.varint(u64::from(d));
        }
    } else {
        s.varint(dims | 3);
        s.varint(u64::from(map.num_symbols));
        s.varint(map.results.len() as u64);
        for e in &map.results {
            write_affine_expr(s, e);
        }
    }
}

/// `numDims`, `numSymbols`, the number of constraints, the constraints,
/// then a byte per constraint: 1 for `== 0`, 0 for `>= 0`.
pub fn write_integer_set<S: Sink>(s: &mut S, set: &IntegerSet) {
    s.varint(u64::from(set.num_dims));
    s.varint(u64::from(set.num_symbols));
    s.varint(set.constraints.len() as u64);
    for e in &set.constraints {
        write_affine_expr(s, e);
    }
    for i in 0..set.constraints.len() {
        s.byte(u8::from(set.is_eq(i)));
    }
}

/// MLIR's `isIdentity`: as many results as dimensions, result `i` is `di`.
fn is_identity(map: &AffineMap) -> bool {
    map.results.len() == map.num_dims as usize
        && map
            .results
            .iter()
            .enumerate()
            .all(|(i, e)| matches!(e, AffineExpr::Dim(d) if *d as usize == i))
}

/// The dimension positions of MLIR's `isProjectedPermutation()`: no
/// symbols, every result a dimension, none twice.
fn projected_permutation(map: &AffineMap) -> Option<Vec<u32>> {
    if map.num_symbols > 0 || map.results.len() > map.num_dims as usize {
        return None;
    }
    let mut seen = vec![false; map.num_dims as usize];
    let mut out = Vec::with_capacity(map.results.len());
    for e in &map.results {
        let AffineExpr::Dim(d) = e else {
            return None;
        };
        let slot = seen.get_mut(*d as usize)?;
        if std::mem::replace(slot, true) {
            return None;
        }
        out.push(*d);
    }
    Some(out)
}

/// Prefix order: the kind, then a position, a constant, or both operands.
fn write_affine_expr<S: Sink>(s: &mut S, e: &AffineExpr) {
    let (kind, lhs, rhs) = match e {
        AffineExpr::Dim(p) => {
            s.varint(0);
            s.varint(u64::from(*p));
            return;
        }
        AffineExpr::Symbol(p) => {
            s.varint(1);
            s.varint(u64::from(*p));
            return;
        }
        AffineExpr::Constant(c) => {
            s.varint(2);
            s.signed_varint(*c);
            return;
        }
        AffineExpr::Add(l, r) => (3, l, r),
        AffineExpr::Mul(l, r) => (4, l, r),
        AffineExpr::Mod(l, r) => (5, l, r),
        AffineExpr::FloorDiv(l, r) => (6, l, r),
        AffineExpr::CeilDiv(l, r) => (7, l, r),
    };
    s.varint(kind);
    write_affine_expr(s, lhs);
    write_affine_expr(s, rhs);
}
