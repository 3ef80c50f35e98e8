//! The attributes the writer refers to: the module's own, plus the ones
//! MLIR has in memory but our IR keeps implicit — the `StringAttr` of a
//! dictionary key, a file name or a symbol, the `FlatSymbolRefAttr` of a
//! nested symbol, the identity layout of a memref, and (before v5) an op's
//! merged attribute dictionary. They get ids after the context's; one that
//! is structurally equal to a context attribute *is* that attribute, as
//! MLIR's uniquing makes it.

use rmlir_format::affine::AffineMap;
use rmlir_format::fasthash::FastMap as HashMap;
use rmlir_format::*;
use std::borrow::Cow;

/// A reference to an attribute as an encoding names it.
#[derive(Clone, Copy, Debug)]
pub enum AttrRef<'a> {
    Id(AttrId),
    /// `StringAttr` without a type.
    Str(&'a [u8]),
    /// A location's file name: a `StringAttr`, found by the shared name's
    /// address once it has been found by its bytes.
    File(&'a FileName),
    /// `FlatSymbolRefAttr`.
    FlatSymbol(&'a [u8]),
    /// The identity `AffineMapAttr` of this many dimensions.
    IdentityMap(u32),
}

pub struct AttrSpace<'m> {
    ctx: &'m Context,
    /// The builtin encodings being written (what has a binary entry).
    builtins: super::BuiltinEncodings,
    base: u32,
    local: Vec<AttrData>,
    local_index: HashMap<AttrData, AttrId>,
    /// Types the writer synthesizes (those a custom dialect encoding names
    /// but the IR keeps as text, e.g. the `i1` of a `BoolAttr` parameter),
    /// with ids after the context's.
    type_base: u32,
    local_types: Vec<TypeData>,
    local_type_index: HashMap<TypeData, TypeId>,
    /// Dense attributes whose bytes are MLIR's storage as they are (built
    /// by the writer from a dialect's parameters), not literals whose
    /// padding bits the writer clears (see `entries::write_attr`).
    raw_dense: rmlir_format::fasthash::FastSet<AttrId>,
    /// `resolve` of `AttrRef::Str` by the bytes, without building the
    /// attribute: every dictionary key and file name goes through it.
    strs: HashMap<Box<[u8]>, AttrId>,
    /// File names by address, each holding its name alive (so the address
    /// cannot be reused for other bytes): a module's hundreds of thousands
    /// of locations share a few names, which are then not hashed or
    /// compared byte by byte at each location, twice (numbering, writing).
    files: HashMap<usize, (FileName, AttrId)>,
    /// `resolve` of `AttrRef::FlatSymbol` and `AttrRef::IdentityMap`, so
    /// that [`AttrSpace::resolved`] finds them without building them.
    flat_symbols: HashMap<Box<[u8]>, AttrId>,
    identity_maps: HashMap<u32, AttrId>,
}

impl<'m> AttrSpace<'m> {
    pub fn new(ctx: &'m Context, builtins: super::BuiltinEncodings) -> Self {
        AttrSpace {
            ctx,
            builtins,
            base: ctx.num_attrs() as u32,
            local: Vec::new(),
            local_index: HashMap::default(),
            type_base: ctx.num_types() as u32,
            local_types: Vec::new(),
            local_type_index: HashMap::default(),
            raw_dense: Default::default(),
            strs: HashMap::default(),
            files: HashMap::default(),
            flat_symbols: HashMap::default(),
            identity_maps: HashMap::default(),
        }
    }

    pub fn ctx(&self) -> &'m Context {
        self.ctx
    }

    /// The builtin encodings being written.
    pub fn builtins(&self) -> super::BuiltinEncodings {
        self.builtins
    }

    pub fn mark_raw_dense(&mut self, a: AttrId) {
        self.raw_dense.insert(a);
    }

    pub fn is_raw_dense(&self, a: AttrId) -> bool {
        self.raw_dense.contains(&a)
    }

    /// One past the largest type id handed out so far.
    pub fn num_types(&self) -> usize {
        self.type_base as usize + self.local_types.len()
    }

    pub fn ty(&self, t: TypeId) -> &TypeData {
        if t.0 < self.type_base {
            self.ctx.ty(t)
        } else {
            &self.local_types[(t.0 - self.type_base) as usize]
        }
    }

    /// The id of type `d`: the context's when it has one.
    pub fn intern_type(&mut self, d: TypeData) -> TypeId {
        if let Some(id) = self.ctx.find_type(&d) {
            return id;
        }
        if let Some(&id) = self.local_type_index.get(&d) {
            return id;
        }
        let id = TypeId(self.type_base + self.local_types.len() as u32);
        self.local_types.push(d.clone());
        self.local_type_index.insert(d, id);
        id
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
        if let Some(id) = self.ctx.find_attr(&d) {
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

    /// The id of `d` if it is the context's or was interned here.
    pub fn find(&self, d: &AttrData) -> Option<AttrId> {
        self.ctx
            .find_attr(d)
            .or_else(|| self.local_index.get(d).copied())
    }

    pub fn resolve(&mut self, r: AttrRef<'_>) -> AttrId {
        match r {
            AttrRef::Id(a) => a,
            AttrRef::Str(s) => {
                if let Some(&id) = self.strs.get(s) {
                    return id;
                }
                let id = self.intern(AttrData::String {
                    value: s.into(),
                    ty: None,
                });
                self.strs.insert(s.into(), id);
                id
            }
            AttrRef::File(f) => {
                let at = f.as_ptr() as usize;
                if let Some((_, id)) = self.files.get(&at) {
                    return *id;
                }
                let id = self.resolve(AttrRef::Str(f));
                self.files.insert(at, (f.clone(), id));
                id
            }
            AttrRef::FlatSymbol(s) => {
                if let Some(&id) = self.flat_symbols.get(s) {
                    return id;
                }
                let id = self.intern(AttrData::SymbolRef {
                    root: s.into(),
                    nested: Box::new([]),
                });
                self.flat_symbols.insert(s.into(), id);
                id
            }
            AttrRef::IdentityMap(n) => {
                if let Some(&id) = self.identity_maps.get(&n) {
                    return id;
                }
                let id = self.intern(AttrData::AffineMap(AffineMap::identity(n)));
                self.identity_maps.insert(n, id);
                id
            }
        }
    }

    /// The id [`AttrSpace::resolve`] gave `r`, without interning anything:
    /// the writer resolves every reference while numbering, then encodes
    /// its sections with the space shared between threads (SPEC.md
    /// §6.10.7). `None` for a reference never resolved.
    pub fn resolved(&self, r: AttrRef<'_>) -> Option<AttrId> {
        match r {
            AttrRef::Id(a) => Some(a),
            AttrRef::Str(s) => self.strs.get(s).copied(),
            AttrRef::File(f) => match self.files.get(&(f.as_ptr() as usize)) {
                Some((_, id)) => Some(*id),
                None => self.strs.get(&f[..]).copied(),
            },
            AttrRef::FlatSymbol(s) => self.flat_symbols.get(s).copied(),
            AttrRef::IdentityMap(n) => self.identity_maps.get(&n).copied(),
        }
    }
}

/// Custom dialect encodings synthesize their inline values here (the
/// hooks' `attr_fields`/`type_fields`, `rmlir-dialects`).
impl rmlir_format::dialect_encodings::AttrLookup for AttrSpace<'_> {
    fn attr_data(&self, a: AttrId) -> Cow<'_, AttrData> {
        self.get(a)
    }
    fn type_data(&self, t: TypeId) -> &TypeData {
        self.ty(t)
    }
}

impl rmlir_format::dialect_encodings::BodyInterner for AttrSpace<'_> {
    fn intern_attr(&mut self, d: AttrData) -> AttrId {
        self.intern(d)
    }
    fn intern_type(&mut self, d: TypeData) -> TypeId {
        AttrSpace::intern_type(self, d)
    }
    /// Only types with a builtin binary encoding, or that the module
    /// already has, can be added to the type table.
    fn may_synthesize_type(&self, d: &TypeData) -> bool {
        super::entries::type_has_encoding(d, self.builtins) || self.ctx.find_type(d).is_some()
    }
    fn mark_raw_dense(&mut self, a: AttrId) {
        AttrSpace::mark_raw_dense(self, a)
    }
}

/// Where an op's merged attribute dictionary (before v5) gets its id:
/// interned while numbering, found again while writing the IR section
/// (which shares the space between threads, SPEC.md §6.10.7).
pub trait DictSpace {
    fn dictionary(&mut self, d: AttrData) -> Option<AttrId>;
}

impl DictSpace for AttrSpace<'_> {
    fn dictionary(&mut self, d: AttrData) -> Option<AttrId> {
        Some(self.intern(d))
    }
}

/// A space read only: what the numbering interned.
pub struct Interned<'s, 'm>(pub &'s AttrSpace<'m>);

impl DictSpace for Interned<'_, '_> {
    fn dictionary(&mut self, d: AttrData) -> Option<AttrId> {
        self.0.find(&d)
    }
}
