//! Storage layout of dense elements (SPEC.md §2.3): how many bytes each
//! element of a `dense<..>` or `array<..>` occupies.

use crate::context::{Context, TypeId};
use crate::types::TypeData;

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
