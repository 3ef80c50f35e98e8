//! The uniquing context: every type and attribute (locations included) is
//! interned once and referred to by a 32-bit id, as MLIR's `MLIRContext`
//! uniques storage. Equality of ids is structural equality (SPEC.md §2.1).

use crate::attrs::AttrData;
use crate::fasthash::FastBuildHasher;
use crate::types::TypeData;
use std::hash::{BuildHasher, Hash};

/// Id of an interned type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TypeId(pub u32);

/// Id of an interned attribute (locations are attributes too).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AttrId(pub u32);

/// A hash-consing table. Items are stored once, with their hash; the
/// index holds only ids (4 bytes and a control byte per slot) and finds an
/// item's hash in `hashes`, so growing it rehashes nothing and large
/// payloads (dense blobs) are hashed once. It replaced a map from hash to
/// id with a chain for equal hashes, which took 16 bytes per slot plus 4
/// per item: 17 MB more for the 576k locations of a 50 MB module.
#[derive(Debug)]
struct Interner<T> {
    items: Vec<T>,
    hashes: Vec<u64>,
    index: hashbrown::HashTable<u32>,
}

impl<T> Default for Interner<T> {
    fn default() -> Self {
        Interner {
            items: Vec::new(),
            hashes: Vec::new(),
            index: hashbrown::HashTable::new(),
        }
    }
}

impl<T: Hash + Eq> Interner<T> {
    fn hash(item: &T) -> u64 {
        FastBuildHasher::default().hash_one(item)
    }

    fn intern(&mut self, item: T) -> u32 {
        if self.index_released() {
            self.rebuild_index();
        }
        let h = Self::hash(&item);
        let id = u32::try_from(self.items.len()).expect("more than 2^32 interned items");
        let (items, hashes) = (&self.items, &self.hashes);
        let entry = self.index.entry(
            h,
            |&i| hashes[i as usize] == h && items[i as usize] == item,
            |&i| hashes[i as usize],
        );
        match entry {
            hashbrown::hash_table::Entry::Occupied(e) => *e.get(),
            hashbrown::hash_table::Entry::Vacant(e) => {
                e.insert(id);
                self.items.push(item);
                self.hashes.push(h);
                id
            }
        }
    }

    fn reserve(&mut self, n: usize) {
        if self.index_released() {
            self.rebuild_index();
        }
        self.items.reserve(n);
        self.hashes.reserve(n);
        let hashes = &self.hashes;
        self.index.reserve(n, |&i| hashes[i as usize]);
    }

    /// Whether `release_index` freed the index (and the kept hashes) since
    /// it was last built.
    fn index_released(&self) -> bool {
        self.hashes.len() != self.items.len()
    }

    /// Frees the index and the kept hashes; see `Context::release_index`.
    fn release_index(&mut self) {
        self.index = hashbrown::HashTable::new();
        self.hashes = Vec::new();
    }

    fn rebuild_index(&mut self) {
        self.hashes = self.items.iter().map(Self::hash).collect();
        let hashes = &self.hashes;
        let mut index = hashbrown::HashTable::with_capacity(hashes.len());
        for i in 0..hashes.len() as u32 {
            index.insert_unique(hashes[i as usize], i, |&j| hashes[j as usize]);
        }
        self.index = index;
    }

    fn find(&self, item: &T) -> Option<u32> {
        if self.index_released() {
            return self.items.iter().position(|x| x == item).map(|i| i as u32);
        }
        let h = Self::hash(item);
        self.index
            .find(h, |&i| {
                self.hashes[i as usize] == h && self.items[i as usize] == *item
            })
            .copied()
    }
}

/// Owns all interned types and attributes of one IR.
#[derive(Debug, Default)]
pub struct Context {
    types: Interner<TypeData>,
    attrs: Interner<AttrData>,
    next_distinct: u32,
}

impl Context {
    pub fn new() -> Self {
        Self::default()
    }

    /// Makes room for `attrs` more attributes and `types` more types, for
    /// a reader that knows how many are coming: the tables then neither
    /// rehash nor move as they grow.
    pub fn reserve(&mut self, attrs: usize, types: usize) {
        self.attrs.reserve(attrs);
        self.types.reserve(types);
    }

    /// Frees what uniquing needs (the hash index and the kept hashes, 18
    /// bytes per item) for a caller that will only read the context, such
    /// as `decode` before it prints (SPEC.md §2.1). The next `intern_*`
    /// rebuilds them; `find_*` meanwhile compares item by item.
    pub fn release_index(&mut self) {
        self.attrs.release_index();
        self.types.release_index();
    }

    pub fn intern_type(&mut self, t: TypeData) -> TypeId {
        TypeId(self.types.intern(t))
    }

    pub fn intern_attr(&mut self, a: AttrData) -> AttrId {
        AttrId(self.attrs.intern(a))
    }

    /// The id of a type equal to `t`, if one is interned.
    pub fn find_type(&self, t: &TypeData) -> Option<TypeId> {
        self.types.find(t).map(TypeId)
    }

    /// The id of an attribute equal to `a`, if one is interned.
    pub fn find_attr(&self, a: &AttrData) -> Option<AttrId> {
        self.attrs.find(a).map(AttrId)
    }

    pub fn ty(&self, id: TypeId) -> &TypeData {
        &self.types.items[id.0 as usize]
    }

    pub fn attr(&self, id: AttrId) -> &AttrData {
        &self.attrs.items[id.0 as usize]
    }

    pub fn num_types(&self) -> usize {
        self.types.items.len()
    }

    pub fn num_attrs(&self) -> usize {
        self.attrs.items.len()
    }

    /// A fresh identity for a `distinct[..]<..>` attribute. Distinct
    /// attributes are unique by construction, never by content.
    pub fn fresh_distinct_id(&mut self) -> u32 {
        let id = self.next_distinct;
        self.next_distinct += 1;
        id
    }
}

impl Context {
    /// `FusedLoc::get` as MLIR builds it (SPEC.md §2.3): nested fused
    /// locations with the same metadata are flattened, `unknown` members
    /// dropped and duplicates removed; no members gives `unknown` (or
    /// `fused<md>[unknown]` with metadata), one member without metadata is
    /// that member.
    pub fn fused_loc(&mut self, locations: Vec<AttrId>, metadata: Option<AttrId>) -> AttrId {
        let unknown = self.intern_attr(AttrData::UnknownLoc);
        let mut members: Vec<AttrId> = Vec::with_capacity(locations.len());
        let push = |members: &mut Vec<AttrId>, l: AttrId| {
            if !members.contains(&l) {
                members.push(l);
            }
        };
        for l in locations {
            match self.attr(l) {
                AttrData::FusedLoc {
                    locations: inner,
                    metadata: m,
                } if *m == metadata => {
                    for &x in inner.clone().iter() {
                        push(&mut members, x);
                    }
                }
                _ if l == unknown => {}
                _ => push(&mut members, l),
            }
        }
        if members.is_empty() {
            if metadata.is_none() {
                return unknown;
            }
            members.push(unknown);
        }
        if members.len() == 1 && metadata.is_none() {
            return members[0];
        }
        self.intern_attr(AttrData::FusedLoc {
            locations: members,
            metadata,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int(v: i64) -> AttrData {
        AttrData::Integer {
            ty: TypeId(0),
            value: v.into(),
        }
    }

    /// After `release_index`, lookups still find every item, interning an
    /// equal item still gives its id, and a new one a new id.
    #[test]
    fn released_index_keeps_uniquing() {
        let mut c = Context::new();
        let ids: Vec<AttrId> = (0..100).map(|v| c.intern_attr(int(v))).collect();
        c.release_index();
        assert_eq!(c.find_attr(&int(42)), Some(ids[42]));
        assert_eq!(c.find_attr(&int(1000)), None);
        assert_eq!(c.intern_attr(int(7)), ids[7]);
        let new = c.intern_attr(int(1000));
        assert_eq!(new, AttrId(100));
        assert_eq!(c.find_attr(&int(1000)), Some(new));
        assert_eq!(c.intern_attr(int(99)), ids[99]);
        c.release_index();
        c.reserve(10, 0);
        assert_eq!(c.intern_attr(int(5)), ids[5]);
        assert_eq!(c.num_attrs(), 101);
    }
}
