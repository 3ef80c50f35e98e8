//! Rewriting the attribute and type ids an item refers to, for moving items
//! from one context to another: a forked context's own items are
//! re-interned into the context it was forked from, their children
//! already moved (SPEC.md §2.1.1).
//!
//! The matches name every variant, with no catch-all arm: a new variant
//! that holds an id does not compile until it is mapped here.

use crate::attrs::{AttrData, BodyPiece, DialectBody};
use crate::context::{AttrId, TypeId};
use crate::types::TypeData;

/// Where ids go: one function for attributes, one for types.
pub trait IdMap {
    /// Where attribute `a` went.
    fn attr(&self, a: AttrId) -> AttrId;
    /// Where type `t` went.
    fn ty(&self, t: TypeId) -> TypeId;
}

fn map_body(body: &mut DialectBody, map: &impl IdMap) {
    for p in &mut body.pieces {
        match p {
            BodyPiece::Text(_) => {}
            BodyPiece::Attr(a) | BodyPiece::Stripped(a) => *a = map.attr(*a),
            BodyPiece::Type(t) => *t = map.ty(*t),
        }
    }
}

impl AttrData {
    /// Replaces every attribute and type id this attribute holds by its
    /// image under `map`.
    pub fn map_ids(&mut self, map: &impl IdMap) {
        match self {
            AttrData::Unit
            | AttrData::SymbolRef { .. }
            | AttrData::AffineMap(_)
            | AttrData::IntegerSet(_)
            | AttrData::Strided { .. }
            | AttrData::UnknownLoc
            | AttrData::FileLineCol { .. }
            | AttrData::FileLineColRange(_) => {}
            AttrData::Integer { ty, .. }
            | AttrData::Float { ty, .. }
            | AttrData::Type(ty)
            | AttrData::DenseArray { elem: ty, .. }
            | AttrData::DenseIntOrFp { ty, .. }
            | AttrData::DenseString { ty, .. }
            | AttrData::DenseResource { ty, .. } => *ty = map.ty(*ty),
            AttrData::String { ty, .. } => {
                if let Some(t) = ty {
                    *t = map.ty(*t);
                }
            }
            AttrData::Array(items) => {
                for a in items {
                    *a = map.attr(*a);
                }
            }
            AttrData::Dictionary(entries) => {
                for (_, a) in entries {
                    *a = map.attr(*a);
                }
            }
            AttrData::Sparse {
                ty,
                indices,
                values,
            } => {
                *ty = map.ty(*ty);
                *indices = map.attr(*indices);
                *values = map.attr(*values);
            }
            AttrData::Distinct { referenced, .. } => *referenced = map.attr(*referenced),
            AttrData::Opaque(o) => {
                if let Some(t) = &mut o.ty {
                    *t = map.ty(*t);
                }
            }
            AttrData::Dialect { body, ty } => {
                map_body(body, map);
                if let Some(t) = ty {
                    *t = map.ty(*t);
                }
            }
            AttrData::NameLoc { child, .. } => *child = map.attr(*child),
            AttrData::CallSiteLoc { callee, caller } => {
                *callee = map.attr(*callee);
                *caller = map.attr(*caller);
            }
            AttrData::FusedLoc {
                locations,
                metadata,
            } => {
                for l in locations {
                    *l = map.attr(*l);
                }
                if let Some(m) = metadata {
                    *m = map.attr(*m);
                }
            }
        }
    }
}

impl TypeData {
    /// Replaces every attribute and type id this type holds by its image
    /// under `map`.
    pub fn map_ids(&mut self, map: &impl IdMap) {
        let opt_attr = |a: &mut Option<AttrId>| {
            if let Some(a) = a {
                *a = map.attr(*a);
            }
        };
        match self {
            TypeData::Integer { .. }
            | TypeData::Index
            | TypeData::Float(_)
            | TypeData::None
            | TypeData::Opaque { .. } => {}
            TypeData::Complex(elem)
            | TypeData::Vector { elem, .. }
            | TypeData::UnrankedTensor { elem } => *elem = map.ty(*elem),
            TypeData::Tuple(items) => {
                for t in items {
                    *t = map.ty(*t);
                }
            }
            TypeData::Function { inputs, results } => {
                for t in inputs.iter_mut().chain(results) {
                    *t = map.ty(*t);
                }
            }
            TypeData::RankedTensor { elem, encoding, .. } => {
                *elem = map.ty(*elem);
                opt_attr(encoding);
            }
            TypeData::MemRef {
                elem,
                layout,
                memory_space,
                ..
            } => {
                *elem = map.ty(*elem);
                opt_attr(layout);
                opt_attr(memory_space);
            }
            TypeData::UnrankedMemRef { elem, memory_space } => {
                *elem = map.ty(*elem);
                opt_attr(memory_space);
            }
            TypeData::Dialect(body) => map_body(body, map),
        }
    }
}
