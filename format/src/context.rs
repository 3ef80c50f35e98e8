//! The uniquing context: every type and attribute (locations included) is
//! interned once and referred to by a 32-bit id, as MLIR's `MLIRContext`
//! uniques storage. Equality of ids is structural equality (SPEC.md §2.1).

use crate::attrs::AttrData;
use crate::fasthash::FastBuildHasher;
use crate::float::FloatKind;
use crate::id_map::IdMap;
use crate::types::{Signedness, TypeData};
use std::hash::{BuildHasher, Hash};
use std::sync::atomic::AtomicUsize;
use std::sync::Arc;

/// Id of an interned type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TypeId(pub u32);

/// Id of an interned attribute (locations are attributes too).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AttrId(pub u32);

/// A hash-consing table. Items are stored once; the index is one array of
/// 8-byte slots probed linearly, each holding the upper 32 bits of an
/// item's hash (its tag) and its id + 1 (0 is an empty slot).
///
/// Why not a general hash map: interning hundreds of thousands of new
/// locations while reading is bound by cache misses in the index (SPEC.md
/// §2.1). A slot holds the tag, so a probe for a new item touches one cache
/// line of the index and nothing else; hashbrown's separate control bytes,
/// id slots and a side vector of hashes took two or three misses. Growing
/// reinserts slots by their tags, so no item is hashed twice.
#[derive(Debug)]
struct Interner<T> {
    items: Vec<T>,
    /// Empty, or a power-of-two number of slots, at most 70% used.
    slots: Vec<u64>,
    /// False after `release_index` until the next `intern`/`reserve`.
    indexed: bool,
}

impl<T> Default for Interner<T> {
    fn default() -> Self {
        Interner {
            items: Vec::new(),
            slots: Vec::new(),
            indexed: true,
        }
    }
}

const EMPTY: u64 = 0;

fn tag_of(hash: u64) -> u32 {
    (hash >> 32) as u32
}

fn slot(tag: u32, id: u32) -> u64 {
    (u64::from(tag) << 32) | u64::from(id + 1)
}

/// Stores `s` in the first empty slot from its tag's home slot.
fn place(slots: &mut [u64], s: u64) {
    let mask = slots.len() - 1;
    let mut pos = (s >> 32) as usize & mask;
    while slots[pos] != EMPTY {
        pos = (pos + 1) & mask;
    }
    slots[pos] = s;
}

/// Where `tag` is (`Ok`: the item's id) or would go (`Err`: an empty
/// slot), probing from the tag's home slot.
fn probe(slots: &[u64], tag: u32, mut same: impl FnMut(u32) -> bool) -> Result<u32, usize> {
    let mask = slots.len() - 1;
    let mut pos = tag as usize & mask;
    loop {
        let s = slots[pos];
        if s == EMPTY {
            return Err(pos);
        }
        if (s >> 32) as u32 == tag {
            let id = (s as u32) - 1;
            if same(id) {
                return Ok(id);
            }
        }
        pos = (pos + 1) & mask;
    }
}

impl<T: Hash + Eq> Interner<T> {
    fn hash(item: &T) -> u64 {
        FastBuildHasher::default().hash_one(item)
    }

    fn intern(&mut self, item: T) -> u32 {
        let hash = Self::hash(&item);
        self.intern_hashed(item, hash)
    }

    fn reserve(&mut self, n: usize) {
        if !self.indexed {
            self.rebuild_index();
        }
        self.items.reserve(n);
        self.reserve_slots(n);
    }

    /// Grows the index so that `n` more items keep it at most 70% used.
    fn reserve_slots(&mut self, n: usize) {
        let want = self.items.len().saturating_add(n);
        if want.saturating_mul(10) <= self.slots.len() * 7 {
            return;
        }
        let cap = (want.saturating_mul(10) / 7 + 1)
            .next_power_of_two()
            .max(16);
        // Written out, not `vec![EMPTY; cap]`: a zeroed allocation maps
        // the shared zero page where a probe reads first, and the write
        // after it then faults again and, with a second thread in the
        // process, makes the kernel flush the other core's TLB (a third of
        // the slot writes' cost in `decode`, SPEC.md §2.1).
        let mut slots = Vec::with_capacity(cap);
        slots.resize(cap, EMPTY);
        for &s in self.slots.iter().filter(|&&s| s != EMPTY) {
            place(&mut slots, s);
        }
        self.slots = slots;
    }

    /// Reserved memory not yet written: the items' spare capacity and the
    /// index (its empty slots are zeros, so writing zeros changes nothing).
    fn unwritten(&self) -> [std::ops::Range<usize>; 2] {
        let spare = self.items.capacity() - self.items.len();
        let items_end = self.items.as_ptr().wrapping_add(self.items.len()) as usize;
        let slots = self.slots.as_ptr() as usize;
        [
            items_end..items_end + spare * std::mem::size_of::<T>(),
            slots..slots + self.slots.len() * std::mem::size_of::<u64>(),
        ]
    }

    /// Frees the index; see `Context::release_index`.
    fn release_index(&mut self) {
        self.slots = Vec::new();
        self.indexed = false;
    }

    /// Each item's tag, read from the index (empty without one).
    fn tags(&self) -> Vec<u32> {
        if !self.indexed {
            return Vec::new();
        }
        let mut tags = vec![0u32; self.items.len()];
        for &s in self.slots.iter().filter(|&&s| s != EMPTY) {
            tags[(s as u32 - 1) as usize] = (s >> 32) as u32;
        }
        tags
    }

    /// Appends `items`, known to be unequal to every item here and to
    /// each other, indexed under `tags`.
    fn append_new(&mut self, items: Vec<T>, tags: &[u32]) {
        debug_assert!(self.indexed && items.len() == tags.len());
        let first = u32::try_from(self.items.len()).expect("ids are 32-bit");
        self.reserve_slots(items.len());
        for (i, &tag) in tags.iter().enumerate() {
            place(&mut self.slots, slot(tag, first + i as u32));
        }
        // Freed as they move, as in `Context::absorb`.
        self.items.extend(crate::drain::Draining::new(items));
    }

    fn rebuild_index(&mut self) {
        self.indexed = true;
        self.slots = Vec::new();
        self.reserve_slots(1);
        for (id, item) in self.items.iter().enumerate() {
            place(&mut self.slots, slot(tag_of(Self::hash(item)), id as u32));
        }
    }

    /// Asks the CPU to load the index slot where an item of this hash
    /// starts probing, so a later `intern_hashed` finds it in cache.
    fn prefetch(&self, hash: u64) {
        #[cfg(target_arch = "x86_64")]
        if self.indexed && !self.slots.is_empty() {
            let pos = tag_of(hash) as usize & (self.slots.len() - 1);
            // SAFETY: a prefetch only hints the cache; `pos` is in bounds.
            unsafe {
                use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
                _mm_prefetch::<_MM_HINT_T0>(self.slots.as_ptr().add(pos).cast());
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = hash;
    }

    /// `intern` with the hash computed earlier (by `Context::hash_attr`).
    fn intern_hashed(&mut self, item: T, hash: u64) -> u32 {
        if !self.indexed {
            self.rebuild_index();
        }
        self.reserve_slots(1);
        let tag = tag_of(hash);
        let items = &self.items;
        match probe(&self.slots, tag, |id| items[id as usize] == item) {
            Ok(id) => id,
            Err(pos) => {
                let id = u32::try_from(self.items.len())
                    .ok()
                    .filter(|&id| id < u32::MAX)
                    .expect("more than 2^32 - 1 interned items");
                self.slots[pos] = slot(tag, id);
                self.items.push(item);
                id
            }
        }
    }

    /// Interning in a fork (SPEC.md §2.1.1): the base's id of `item` if it
    /// has one, else this interner's own, after the base's `base_count`
    /// ids; a new item's own index is recorded in `created`, or'd with
    /// `kind` (the order `Context::absorb` moves items in).
    fn intern_forked(
        &mut self,
        base: &Interner<T>,
        item: T,
        hash: u64,
        base_count: u32,
        created: &mut Vec<u32>,
        kind: u32,
    ) -> u32 {
        if let Some(id) = base.find_hashed(&item, hash) {
            return id;
        }
        let before = self.items.len();
        let own = self.intern_hashed(item, hash);
        if self.items.len() != before {
            created.push(own | kind);
        }
        base_count + own
    }

    /// `find` of an item whose hash is known; the index must be built.
    fn find_hashed(&self, item: &T, hash: u64) -> Option<u32> {
        debug_assert!(self.indexed);
        if self.slots.is_empty() {
            return None;
        }
        probe(&self.slots, tag_of(hash), |id| {
            self.items[id as usize] == *item
        })
        .ok()
    }

    fn find(&self, item: &T) -> Option<u32> {
        if !self.indexed {
            return self.items.iter().position(|x| x == item).map(|i| i as u32);
        }
        if self.slots.is_empty() {
            return None;
        }
        probe(&self.slots, tag_of(Self::hash(item)), |id| {
            self.items[id as usize] == *item
        })
        .ok()
    }
}

/// An attribute with its hash, made by [`Context::hash_attr`], which also
/// prefetches the index slot it will be interned at: a reader with many new
/// attributes hashes a batch, then interns it, so the index's cache misses
/// overlap instead of following one another (SPEC.md §2.1).
pub struct HashedAttr {
    data: AttrData,
    hash: u64,
}

/// Owns all interned types and attributes of one IR.
///
/// A context may be *forked* from a frozen one ([`Context::fork`]): the
/// fork sees every item of its base under the base's ids and interns only
/// what the base lacks, under ids that continue the base's. Threads that
/// read the bodies of one module in parallel each intern into a fork; the
/// forks' own items are then moved into the base ([`Context::absorb`]),
/// which maps their ids (SPEC.md §2.1.1).
#[derive(Debug, Default)]
pub struct Context {
    types: Interner<TypeData>,
    attrs: Interner<AttrData>,
    next_distinct: u32,
    /// The context this one was forked from, if any.
    base: Option<Arc<Context>>,
    /// The base's item counts at the fork: ids below them are the base's.
    base_attrs: u32,
    base_types: u32,
    /// A fork's own items in the order they were made (a type's index has
    /// [`CREATED_TYPE`] set), so that [`Context::absorb`] moves every item
    /// after the items it refers to.
    created: Vec<u32>,
    /// The ids of the scalar types interned so far ([`scalar_slot`]).
    scalars: ScalarTypes,
}

/// Id + 1 (0: not interned yet) of each scalar type, by [`scalar_slot`].
///
/// Why: a text parse interns a scalar type for nearly every operand and
/// result type it reads (`f32`, `index`, `i64`: millions in a large module),
/// and hashing, probing and comparing each one was a tenth of the parser's
/// interning time (SPEC.md §2.1). An id never changes within a context,
/// so a remembered one stays right; a fork starts from its base's.
#[derive(Clone, Debug)]
struct ScalarTypes([u32; SCALAR_SLOTS]);

impl Default for ScalarTypes {
    fn default() -> Self {
        ScalarTypes([0; SCALAR_SLOTS])
    }
}

/// `index`, `none`, every float kind, and integers up to 64 bits of each
/// signedness.
const SCALAR_SLOTS: usize = 2 + FloatKind::ALL.len() + 3 * 65;

/// The slot of `t` in [`ScalarTypes`], if it is a scalar type.
fn scalar_slot(t: &TypeData) -> Option<usize> {
    const INTS: usize = 2 + FloatKind::ALL.len();
    match *t {
        TypeData::Index => Some(0),
        TypeData::None => Some(1),
        TypeData::Float(k) => Some(2 + k as usize),
        TypeData::Integer { width, signedness } if width <= 64 => {
            let sign = match signedness {
                Signedness::Signless => 0,
                Signedness::Signed => 1,
                Signedness::Unsigned => 2,
            };
            Some(INTS + sign * 65 + width as usize)
        }
        _ => None,
    }
}

/// How many items ahead [`Context::absorb`] prefetches index slots.
const ABSORB_PREFETCH: usize = 16;

/// Marks a type in [`Context::created`].
const CREATED_TYPE: u32 = 1 << 31;

/// A fork's own items, detached from its base ([`Context::detach`]).
#[derive(Debug)]
pub struct ForkItems {
    types: Vec<TypeData>,
    attrs: Vec<AttrData>,
    base_attrs: u32,
    base_types: u32,
    created: Vec<u32>,
    /// Each own item's index tag (the high half of its hash), from the
    /// fork's index: an item whose ids map to themselves is interned
    /// without hashing it again. Empty if the fork had no index.
    type_tags: Vec<u32>,
    attr_tags: Vec<u32>,
    next_distinct: u32,
}

impl ForkItems {
    /// How many attributes and types the fork made.
    pub fn counts(&self) -> (usize, usize) {
        (self.attrs.len(), self.types.len())
    }
}

/// Where [`Context::absorb`] put a fork's ids.
#[derive(Debug)]
pub struct ForkIdMap {
    base_attrs: u32,
    base_types: u32,
    attrs: Vec<AttrId>,
    types: Vec<TypeId>,
}

impl ForkIdMap {
    /// Whether every id maps to itself: each of the fork's own items
    /// was new to the context that absorbed it, as it is for the first
    /// fork absorbed into the context it was forked from.
    pub fn is_identity(&self) -> bool {
        let same = |base: u32, ids: &mut dyn Iterator<Item = u32>| {
            ids.enumerate()
                .all(|(k, id)| id as usize == base as usize + k)
        };
        same(self.base_attrs, &mut self.attrs.iter().map(|a| a.0))
            && same(self.base_types, &mut self.types.iter().map(|t| t.0))
    }
}

impl IdMap for ForkIdMap {
    fn attr(&self, a: AttrId) -> AttrId {
        match a.0.checked_sub(self.base_attrs) {
            Some(own) => self.attrs[own as usize],
            None => a,
        }
    }

    fn ty(&self, t: TypeId) -> TypeId {
        match t.0.checked_sub(self.base_types) {
            Some(own) => self.types[own as usize],
            None => t,
        }
    }
}

/// A map that notes whether any id it was asked about moved.
struct Watch<'m> {
    map: &'m ForkIdMap,
    changed: std::cell::Cell<bool>,
}

impl<'m> Watch<'m> {
    fn new(map: &'m ForkIdMap) -> Self {
        Watch {
            map,
            changed: std::cell::Cell::new(false),
        }
    }
}

impl IdMap for Watch<'_> {
    fn attr(&self, a: AttrId) -> AttrId {
        let m = self.map.attr(a);
        if m != a {
            self.changed.set(true);
        }
        m
    }

    fn ty(&self, t: TypeId) -> TypeId {
        let m = self.map.ty(t);
        if m != t {
            self.changed.set(true);
        }
        m
    }
}

impl Context {
    /// An empty context.
    pub fn new() -> Self {
        Self::default()
    }

    /// A context that sees every item of `base` and interns what `base`
    /// lacks into items of its own (see the type's documentation).
    pub fn fork(base: &Arc<Context>) -> Context {
        assert!(
            base.base.is_none(),
            "forks are made from a context that is not a fork itself"
        );
        assert!(
            base.attrs.indexed && base.types.indexed,
            "a context is forked with its index built (Context::build_index)"
        );
        Context {
            scalars: base.scalars.clone(),
            next_distinct: base.next_distinct,
            base_attrs: u32::try_from(base.attrs.items.len()).expect("ids are 32-bit"),
            base_types: u32::try_from(base.types.items.len()).expect("ids are 32-bit"),
            base: Some(Arc::clone(base)),
            ..Context::default()
        }
    }

    /// Builds the index if [`Context::release_index`] dropped it, as the
    /// next `intern_*` would.
    pub fn build_index(&mut self) {
        if !self.attrs.indexed {
            self.attrs.rebuild_index();
        }
        if !self.types.indexed {
            self.types.rebuild_index();
        }
    }

    /// A fork's own items, the fork's hold on its base let go.
    pub fn detach(self) -> ForkItems {
        ForkItems {
            type_tags: self.types.tags(),
            attr_tags: self.attrs.tags(),
            types: self.types.items,
            attrs: self.attrs.items,
            base_attrs: self.base_attrs,
            base_types: self.base_types,
            created: self.created,
            next_distinct: self.next_distinct,
        }
    }

    /// Interns the items of a fork of this context (whose base this
    /// context still holds as its first items) and says where each of the
    /// fork's ids went. Items equal to one already here get its id; a
    /// `distinct` attribute gets a fresh identity.
    pub fn absorb(&mut self, fork: ForkItems) -> ForkIdMap {
        self.absorb_reporting(fork, None)
    }

    /// [`Context::absorb`], which also stores in `moved`, every MiB or so,
    /// how many bytes of the fork's attributes have been moved here: a
    /// reader that faults in the attributes' new room on another thread
    /// ([`Context::attr_spare_room`]) keeps no more than a few MiB ahead of
    /// the fork's pages being given back (`drain`, SPEC.md §3.5).
    pub fn absorb_reporting(&mut self, fork: ForkItems, moved: Option<&AtomicUsize>) -> ForkIdMap {
        assert!(
            self.base.is_none(),
            "absorbed into a context that is not a fork"
        );
        assert!(
            fork.base_attrs as usize <= self.attrs.items.len()
                && fork.base_types as usize <= self.types.items.len(),
            "the fork's base is this context's first items"
        );
        let mut map = ForkIdMap {
            base_attrs: fork.base_attrs,
            base_types: fork.base_types,
            attrs: Vec::with_capacity(fork.attrs.len()),
            types: Vec::with_capacity(fork.types.len()),
        };
        let first = fork.base_attrs as usize == self.attrs.items.len()
            && fork.base_types as usize == self.types.items.len();
        if first
            && self.attrs.indexed
            && self.types.indexed
            && fork.attr_tags.len() == fork.attrs.len()
            && fork.type_tags.len() == fork.types.len()
        {
            // Nothing was interned here since the fork: every item the fork
            // made is new and keeps its id, and is indexed under the tag
            // the fork gave it, without hashing or comparing it again.
            map.attrs
                .extend((0..fork.attrs.len() as u32).map(|i| AttrId(fork.base_attrs + i)));
            map.types
                .extend((0..fork.types.len() as u32).map(|i| TypeId(fork.base_types + i)));
            self.attrs.append_new(fork.attrs, &fork.attr_tags);
            self.types.append_new(fork.types, &fork.type_tags);
            self.next_distinct = self.next_distinct.max(fork.next_distinct);
            return map;
        }
        // At most every item is new: neither table moves or rehashes.
        self.reserve(fork.attrs.len(), fork.types.len());
        // Freed as they move: both copies are not resident at once.
        let mut attrs = crate::drain::Draining::reporting(fork.attrs, moved);
        let mut types = fork.types.into_iter();
        for (k, &c) in fork.created.iter().enumerate() {
            // The slot of an item a few ahead is most likely where its
            // unchanged tag points: ask for it now.
            if let Some(&ahead) = fork.created.get(k + ABSORB_PREFETCH) {
                if ahead & CREATED_TYPE == 0 {
                    if let Some(&tag) = fork.attr_tags.get(ahead as usize) {
                        self.attrs.prefetch(u64::from(tag) << 32);
                    }
                }
            }
            if c & CREATED_TYPE != 0 {
                let own = (c & !CREATED_TYPE) as usize;
                debug_assert_eq!(own, map.types.len());
                let mut t = types.next().expect("one created entry per item");
                let watch = Watch::new(&map);
                t.map_ids(&watch);
                let id = match fork.type_tags.get(own) {
                    Some(&tag) if !watch.changed.get() => {
                        TypeId(self.types.intern_hashed(t, u64::from(tag) << 32))
                    }
                    _ => self.intern_type(t),
                };
                map.types.push(id);
            } else {
                let own = c as usize;
                debug_assert_eq!(own, map.attrs.len());
                let mut a = attrs.next().expect("one created entry per item");
                let watch = Watch::new(&map);
                a.map_ids(&watch);
                let id = if let AttrData::Distinct { id, .. } = &mut a {
                    *id = self.fresh_distinct_id();
                    self.intern_attr(a)
                } else {
                    match fork.attr_tags.get(own) {
                        Some(&tag) if !watch.changed.get() => {
                            AttrId(self.attrs.intern_hashed(a, u64::from(tag) << 32))
                        }
                        _ => self.intern_attr(a),
                    }
                };
                map.attrs.push(id);
            }
        }
        map
    }

    /// Makes room for `attrs` more attributes and `types` more types, for
    /// a reader that knows how many are coming: the tables then neither
    /// rehash nor move as they grow.
    pub fn reserve(&mut self, attrs: usize, types: usize) {
        self.attrs.reserve(attrs);
        self.types.reserve(types);
    }

    /// The address range of the attributes' spare capacity: where the
    /// next attributes interned go, first the one after the last. Addresses
    /// only, as for [`Context::unwritten_reserve`].
    pub fn attr_spare_room(&self) -> std::ops::Range<usize> {
        self.attrs.unwritten()[0].clone()
    }

    /// The address ranges of memory the context has reserved but not yet
    /// written (spare capacity after [`Context::reserve`], and the index),
    /// for a reader that has the OS fault their pages in ahead of use on
    /// another thread (SPEC.md §6.6.1). Addresses only: nothing may be
    /// read or written through them.
    pub fn unwritten_reserve(&self) -> Vec<std::ops::Range<usize>> {
        let mut v = Vec::with_capacity(4);
        v.extend(self.attrs.unwritten());
        v.extend(self.types.unwritten());
        v
    }

    /// Frees what uniquing needs (the index, 8 bytes a slot, 11–23 bytes
    /// an item) for a caller that will only read the context, such
    /// as `decode` before it prints (SPEC.md §2.1). The next `intern_*`
    /// rebuilds them; `find_*` meanwhile compares item by item.
    pub fn release_index(&mut self) {
        self.attrs.release_index();
        self.types.release_index();
    }

    /// The id of `t`, interning it if no equal type is interned.
    pub fn intern_type(&mut self, t: TypeData) -> TypeId {
        let Some(slot) = scalar_slot(&t) else {
            return self.intern_type_uncached(t);
        };
        match self.scalars.0[slot] {
            0 => {
                let id = self.intern_type_uncached(t);
                self.scalars.0[slot] = id.0 + 1;
                id
            }
            known => TypeId(known - 1),
        }
    }

    fn intern_type_uncached(&mut self, t: TypeData) -> TypeId {
        match &self.base {
            None => TypeId(self.types.intern(t)),
            Some(base) => {
                let hash = Interner::hash(&t);
                TypeId(self.types.intern_forked(
                    &base.types,
                    t,
                    hash,
                    self.base_types,
                    &mut self.created,
                    CREATED_TYPE,
                ))
            }
        }
    }

    /// The id of `a`, interning it if no equal attribute is interned.
    pub fn intern_attr(&mut self, a: AttrData) -> AttrId {
        let hash = Interner::hash(&a);
        self.intern_hashed(HashedAttr { data: a, hash })
    }

    /// Hashes `a` for [`Context::intern_hashed`] and prefetches its slot.
    pub fn hash_attr(&self, a: AttrData) -> HashedAttr {
        let a = Self::hash_detached(a);
        self.prefetch(&a);
        a
    }

    /// Hashes `a` for [`Context::intern_hashed`] without a context at
    /// hand: threads that parse attributes for one context hash them
    /// while it interns others, and it prefetches their slots
    /// ([`Context::prefetch`]) just before it interns them.
    pub fn hash_detached(a: AttrData) -> HashedAttr {
        HashedAttr {
            hash: Interner::hash(&a),
            data: a,
        }
    }

    /// Asks the CPU to load the index slot where `a` will be looked up.
    pub fn prefetch(&self, a: &HashedAttr) {
        match &self.base {
            None => self.attrs.prefetch(a.hash),
            Some(base) => base.attrs.prefetch(a.hash),
        }
    }

    /// `intern_attr` of an attribute hashed by [`Context::hash_attr`].
    pub fn intern_hashed(&mut self, a: HashedAttr) -> AttrId {
        match &self.base {
            None => AttrId(self.attrs.intern_hashed(a.data, a.hash)),
            Some(base) => AttrId(self.attrs.intern_forked(
                &base.attrs,
                a.data,
                a.hash,
                self.base_attrs,
                &mut self.created,
                0,
            )),
        }
    }

    /// The id of a type equal to `t`, if one is interned.
    pub fn find_type(&self, t: &TypeData) -> Option<TypeId> {
        if let Some(id) = self.base.as_ref().and_then(|b| b.find_type(t)) {
            return Some(id);
        }
        self.types.find(t).map(|own| TypeId(self.base_types + own))
    }

    /// The id of an attribute equal to `a`, if one is interned.
    pub fn find_attr(&self, a: &AttrData) -> Option<AttrId> {
        if let Some(id) = self.base.as_ref().and_then(|b| b.find_attr(a)) {
            return Some(id);
        }
        self.attrs.find(a).map(|own| AttrId(self.base_attrs + own))
    }

    /// The type `id`.
    pub fn ty(&self, id: TypeId) -> &TypeData {
        match (id.0.checked_sub(self.base_types), &self.base) {
            (None, Some(base)) => base.ty(id),
            (own, _) => &self.types.items[own.unwrap_or(id.0) as usize],
        }
    }

    /// The attribute `id`.
    pub fn attr(&self, id: AttrId) -> &AttrData {
        match (id.0.checked_sub(self.base_attrs), &self.base) {
            (None, Some(base)) => base.attr(id),
            (own, _) => &self.attrs.items[own.unwrap_or(id.0) as usize],
        }
    }

    /// The number of types interned, a fork's base's included.
    pub fn num_types(&self) -> usize {
        self.base_types as usize + self.types.items.len()
    }

    /// The number of attributes interned, a fork's base's included.
    pub fn num_attrs(&self) -> usize {
        self.base_attrs as usize + self.attrs.items.len()
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
                // `unknown` is one attribute, so it is found by its data
                // (not interned for every fused location, most of which
                // hold none).
                AttrData::UnknownLoc => {}
                _ => push(&mut members, l),
            }
        }
        if members.is_empty() {
            let unknown = self.intern_attr(AttrData::UnknownLoc);
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

    /// Growth from empty through many doublings, with and without
    /// `reserve`: every item keeps its first id, equal items get it back,
    /// and the index is never more than 70% used.
    #[test]
    fn index_growth_keeps_ids() {
        for reserve in [0usize, 50_000] {
            let mut c = Context::new();
            c.reserve(reserve, 0);
            let ids: Vec<AttrId> = (0..50_000).map(|v| c.intern_attr(int(v))).collect();
            assert!(ids.iter().enumerate().all(|(i, id)| id.0 as usize == i));
            assert!(c.attrs.slots.len() * 7 >= c.num_attrs() * 10);
            for v in (0..50_000).rev().step_by(7) {
                assert_eq!(c.intern_attr(int(v)), ids[v as usize]);
                assert_eq!(c.find_attr(&int(v)), Some(ids[v as usize]));
            }
            assert_eq!(c.find_attr(&int(-1)), None);
            assert_eq!(c.num_attrs(), 50_000);
        }
        let empty = Context::new();
        assert_eq!(empty.find_attr(&int(0)), None);
        let mut released = Context::new();
        released.release_index();
        assert_eq!(released.intern_attr(int(3)), AttrId(0));
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
