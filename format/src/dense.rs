//! Storage layout of dense elements (SPEC.md §2.3): how many bytes each
//! element of a `dense<..>` or `array<..>` occupies.

use crate::context::{Context, TypeId};
use crate::types::TypeData;

/// How one element of a dense attribute is stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ElementLayout {
    /// Bytes per element (complex: both parts).
    pub bytes: usize,
}

/// The byte layout of one element of type `elem`, or `None` when the
/// element type is not an integer, index, float or complex of those.
pub fn element_layout(ctx: &Context, elem: TypeId) -> Option<ElementLayout> {
    let bytes = match ctx.ty(elem) {
        TypeData::Integer { width, .. } => (*width as usize).div_ceil(8).max(1),
        TypeData::Index => 8,
        TypeData::Float(k) => (k.bit_width() as usize).div_ceil(8),
        TypeData::Complex(inner) => {
            return element_layout(ctx, *inner).map(|l| ElementLayout { bytes: l.bytes * 2 })
        }
        _ => return None,
    };
    Some(ElementLayout { bytes })
}

/// The two's-complement bits of `v` truncated to `width`, as 64-bit words
/// (least significant first).
pub fn int_words(v: &num_bigint::BigInt, width: u32) -> Vec<u64> {
    let nwords = (width as usize).div_ceil(64).max(1);
    let (sign, mut digits) = v.to_u64_digits();
    digits.resize(nwords, 0);
    if sign == num_bigint::Sign::Minus {
        // Two's complement: invert and add one.
        let mut carry = true;
        for d in digits.iter_mut() {
            let (x, c) = (!*d).overflowing_add(carry as u64);
            *d = x;
            carry = c;
        }
    }
    let rem = width % 64;
    if rem != 0 {
        let last = nwords - 1;
        digits[last] &= (1u64 << rem) - 1;
    }
    digits
}
