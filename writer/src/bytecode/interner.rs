//! The attributes the writer refers to: the module's own, plus the ones
//! MLIR has in memory but our IR keeps implicit — the `StringAttr` of a
//! dictionary key, a file name or a symbol, the `FlatSymbolRefAttr` of a
//! nested symbol, the identity layout of a memref, and (before v5) an op's
//! merged attribute dictionary. They get ids after the context's; one that
//! is structurally equal to a context attribute *is* that attribute, as
//! MLIR's uniquing makes it.

use rmlir_format::affine::AffineMap;
use rmlir_format::*;
use std::borrow::Cow;
use std::collections::HashMap;

/// A reference to an attribute as an encoding names it.
#[derive(Clone, Copy, Debug)]
pub enum AttrRef<'a> {
    Id(AttrId),
    /// `StringAttr` without a type.
    Str(&'a [u8]),
    /// `FlatSymbolRefAttr`.
    FlatSymbol(&'a [u8]),
    /// The identity `AffineMapAttr` of this many dimensions.
    IdentityMap(u32),
}

pub struct AttrSpace<'m> {
    ctx: &'m Context,
    base: u32,
    local: Vec<AttrData>,
    local_index: HashMap<AttrData, AttrId>,
    /// Context attributes of the kinds the writer may synthesize.
    existing: HashMap<&'m AttrData, AttrId>,
}

impl<'m> AttrSpace<'m> {
    pub fn new(ctx: &'m Context) -> Self {
        let base = ctx.num_attrs() as u32;
        let mut existing = HashMap::new();
        for i in 0..base {
            let d = ctx.attr(AttrId(i));
            let keep = match d {
                AttrData::String { ty: None, .. }
                | AttrData::Dictionary(_)
                | AttrData::UnknownLoc => true,
                AttrData::SymbolRef { nested, .. } => nested.is_empty(),
                AttrData::AffineMap(m) => m.num_symbols == 0 && m.is_identity(),
                _ => false,
            };
            if keep {
                existing.insert(d, AttrId(i));
            }
        }
        AttrSpace {
            ctx,
            base,
            local: Vec::new(),
            local_index: HashMap::new(),
            existing,
        }
    }

    /// One past the largest id handed out so far.
    pub fn len(&self) -> usize {
        self.base as usize + self.local.len()
    }

    /// The data of `a`: borrowed from the context, or a copy of a
    /// synthesized attribute (those are small).
    pub fn get(&self, a: AttrId) -> Cow<'m, AttrData> {
        if a.0 < self.base {
            Cow::Borrowed(self.ctx.attr(a))
        } else {
            Cow::Owned(self.local[(a.0 - self.base) as usize].clone())
        }
    }

    /// Whether `a` is `loc(unknown)` (without copying it).
    pub fn is_unknown_loc(&self, a: AttrId) -> bool {
        if a.0 < self.base {
            matches!(self.ctx.attr(a), AttrData::UnknownLoc)
        } else {
            matches!(self.local[(a.0 - self.base) as usize], AttrData::UnknownLoc)
        }
    }

    pub fn intern(&mut self, d: AttrData) -> AttrId {
        if let Some(&id) = self.existing.get(&d) {
            return id;
        }
        if let Some(&id) = self.local_index.get(&d) {
            return id;
        }
        let id = AttrId(self.base + self.local.len() as u32);
        self.local.push(d.clone());
        self.local_index.insert(d, id);
        id
    }

    pub fn resolve(&mut self, r: AttrRef<'_>) -> AttrId {
        match r {
            AttrRef::Id(a) => a,
            AttrRef::Str(s) => self.intern(AttrData::String {
                value: s.into(),
                ty: None,
            }),
            AttrRef::FlatSymbol(s) => self.intern(AttrData::SymbolRef {
                root: s.into(),
                nested: Vec::new(),
            }),
            AttrRef::IdentityMap(n) => self.intern(AttrData::AffineMap(AffineMap::identity(n))),
        }
    }
}
