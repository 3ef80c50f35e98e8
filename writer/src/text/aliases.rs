//! Alias selection (`#map`, `#loc3`, `#di_file`, ...) following mlir-opt's
//! rules (SPEC.md §4.3): a walk in print order records every attribute and
//! type with its nesting depth; aliased ones are sorted by (depth, types
//! before attributes, alias name) and numbered per name. Locations used
//! only as op locations may be printed after the operation ("deferred").

use super::print_size;
use rmlir_dialects::hosts::Host;
use rmlir_format::drain::Draining;
use rmlir_format::*;
use std::borrow::Cow;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sym {
    Attr(AttrId),
    Type(TypeId),
}

/// One symbol met by the walk: 20 bytes, as there is one per location of
/// the module (576k for the 50 MB benchmark module).
struct Entry {
    sym: PackedSym,
    depth: u32,
    /// This entry's children: `Collector::child_list[start..start + len]`.
    children: (u32, u32),
    /// Its alias name in `Names` plus one, or 0 for none.
    alias: u16,
    can_be_deferred: bool,
}

impl Entry {
    fn alias(&self) -> Option<NameId> {
        self.alias.checked_sub(1).map(NameId)
    }
}

fn alias_field(name: Option<NameId>) -> u16 {
    name.map_or(0, |n| {
        n.0.checked_add(1).expect("fewer than 2^16 - 1 alias names")
    })
}

/// A `Sym` in 4 bytes: the top bit says type.
#[derive(Clone, Copy)]
struct PackedSym(u32);

impl PackedSym {
    const TYPE: u32 = 1 << 31;

    fn new(sym: Sym) -> Self {
        let (id, tag) = match sym {
            Sym::Attr(a) => (a.0, 0),
            Sym::Type(t) => (t.0, Self::TYPE),
        };
        assert!(id < Self::TYPE, "fewer than 2^31 attributes and types");
        PackedSym(id | tag)
    }

    fn get(self) -> Sym {
        if self.is_type() {
            Sym::Type(TypeId(self.0 & !Self::TYPE))
        } else {
            Sym::Attr(AttrId(self.0))
        }
    }

    fn is_type(self) -> bool {
        self.0 & Self::TYPE != 0
    }
}

/// An alias name (`loc`, `map`, `di_file`, ...) as an index into a
/// `Names` table: there are few distinct names and very many aliases.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct NameId(u16);

/// The alias names of one walk, in first-met order: mostly static names
/// (`loc`, `map`), and names a dialect derives from an attribute's content
/// (IREE's `executable_target_<format>`).
#[derive(Default)]
struct Names(Vec<Cow<'static, str>>);

impl Names {
    fn id(&mut self, name: Cow<'static, str>) -> NameId {
        let i = match self.0.iter().position(|n| *n == name) {
            Some(i) => i,
            None => {
                self.0.push(name);
                self.0.len() - 1
            }
        };
        NameId(u16::try_from(i).expect("fewer than 2^16 alias names"))
    }

    fn get(&self, id: NameId) -> &str {
        &self.0[id.0 as usize]
    }

    fn get_cow(&self, id: NameId) -> Cow<'static, str> {
        self.0[id.0 as usize].clone()
    }
}

/// The final alias of a symbol: the name is `Aliases::name(alias)`.
#[derive(Clone, Copy, Debug)]
pub struct Alias {
    name: NameId,
    pub index: u32,
    pub deferred: bool,
}

/// A map from every attribute and type of one module to a `u32`, as two
/// dense vectors indexed by id: ids are dense, and a hash map probe per
/// lookup (a cache miss on large modules) was the printer's top cost.
pub struct SymTable {
    attrs: Vec<u32>,
    types: Vec<u32>,
}

impl SymTable {
    const NONE: u32 = u32::MAX;

    pub fn new(m: &Module) -> Self {
        SymTable {
            attrs: vec![Self::NONE; m.ctx.num_attrs()],
            types: vec![Self::NONE; m.ctx.num_types()],
        }
    }

    pub fn empty() -> Self {
        SymTable {
            attrs: Vec::new(),
            types: Vec::new(),
        }
    }

    fn slot(&self, sym: Sym) -> Option<&u32> {
        match sym {
            Sym::Attr(a) => self.attrs.get(a.0 as usize),
            Sym::Type(t) => self.types.get(t.0 as usize),
        }
    }

    pub fn get(&self, sym: Sym) -> Option<u32> {
        self.slot(sym).copied().filter(|&v| v != Self::NONE)
    }

    pub fn insert(&mut self, sym: Sym, v: u32) {
        assert!(v != Self::NONE, "too many aliases");
        let slot = match sym {
            Sym::Attr(a) => &mut self.attrs[a.0 as usize],
            Sym::Type(t) => &mut self.types[t.0 as usize],
        };
        *slot = v;
    }
}

pub struct Aliases {
    /// Position of a symbol's alias in `list`.
    index: SymTable,
    /// Aliased symbols in definition order.
    pub list: Vec<(Sym, Alias)>,
    names: Names,
    /// An upper estimate of the module's print with these aliases
    /// (SPEC.md §5.1), computed by the walk that chose them; `None` for
    /// [`Aliases::none`].
    pub print_bytes: Option<u64>,
}

impl Aliases {
    /// No aliases (local scope).
    pub fn none() -> Self {
        Aliases {
            index: SymTable::empty(),
            list: Vec::new(),
            names: Names::default(),
            print_bytes: None,
        }
    }

    pub fn get(&self, sym: Sym) -> Option<&Alias> {
        self.index.get(sym).map(|i| &self.list[i as usize].1)
    }

    pub fn name(&self, alias: &Alias) -> &str {
        self.names.get(alias.name)
    }

    /// `#name3` / `!name3` (no number for the first of a name).
    pub fn write(&self, alias: &Alias, is_type: bool, out: &mut String) {
        out.push(if is_type { '!' } else { '#' });
        out.push_str(self.name(alias));
        if alias.index > 0 {
            super::names::push_uint(out, alias.index as u64);
        }
    }
}

/// The walk's collectors, one per run of the top block's ops, not yet
/// merged (`Collector::walk`).
struct Runs<'m> {
    first: Collector<'m>,
    later: Vec<Collector<'m>>,
    /// The top op, whose operands and attributes are visited after the
    /// merge (they come after its regions in walk order), when split.
    top: Option<OpId>,
}

impl<'m> Runs<'m> {
    fn merge(self) -> Collector<'m> {
        let mut c = self.first;
        for k in self.later {
            c.merge(k);
        }
        if let Some(top) = self.top {
            let bytes = c.visit_op_operands_and_attrs(top);
            c.op_bytes = c.op_bytes.saturating_add(bytes);
        }
        c
    }
}

/// What `Aliases::compute_beside` keeps of a walk.
struct Walked {
    entries: Vec<Entry>,
    names: Names,
}

struct Collector<'m> {
    m: &'m Module,
    entries: Vec<Entry>,
    index: SymTable,
    /// `op_name_has_registered_properties` by op name, decided once per name.
    registered_props: &'m [bool],
    /// The tool whose printer is matched: its dialects' alias names.
    host: &'static Host,
    /// A reused buffer for an op's merged attributes.
    scratch: Vec<(&'m [u8], AttrId)>,
    /// (depth, entry) of the children of the symbols being visited, one
    /// segment per level of the walk: no vector per symbol.
    stack: Vec<(u32, usize)>,
    /// Every entry's children, as entry indices, in one vector.
    child_list: Vec<u32>,
    names: Names,
    /// Each entry's estimated print (`print_size`), by entry index.
    sizes: Vec<u64>,
    /// The estimated print of the ops visited, alias definitions aside.
    op_bytes: u64,
    /// Regions around the op being visited (its indentation).
    nesting: u64,
    /// Scratch for `print_size::own_size`'s children.
    own_children: Vec<Sym>,
    /// Inline sizes of what the walk does not visit (`print_size::inline_size`).
    inline_memo: print_size::InlineMemo,
    /// The attributes (by op and name) the print leaves out, which are not
    /// visited: the custom form elides some (SPEC.md §11.4).
    skip: Option<&'m SkipAttr<'m>>,
}

/// What the print of an op may leave out (the custom form's, SPEC.md
/// §11.4).
#[derive(Clone, Copy, Debug)]
pub enum Part<'a> {
    /// Its attribute of this name.
    Attr(&'a [u8]),
    /// Its regions (linalg's named ops).
    Regions,
    /// Argument `arg` of the entry block of its region `region` (an op
    /// whose printer shows those arguments as operands, or not at all).
    EntryArg { region: u32, arg: u32 },
    /// The terminator of the entry block of its region `region` (a
    /// printer that leaves it out).
    Terminator { region: u32 },
    /// Not a part left out but an order: whether its attributes and types
    /// print before its regions (mlir-opt numbers aliases in print order).
    AttrsBeforeRegions,
    /// Likewise: whether its first region prints after the others
    /// (`scf.index_switch`'s default region).
    FirstRegionLast,
    /// Likewise: whether the arguments of its first region's entry block
    /// print in pairs, argument `i` then `i + n/2` (`stablehlo.reduce`'s
    /// `reducer(%elem, %acc)`).
    EntryArgsPaired,
}

/// Whether the print leaves that part of an op out.
pub type SkipAttr<'a> = dyn Fn(OpId, Part<'_>) -> bool + Sync + 'a;

/// Whether ops named `name` keep their inherent attributes in properties,
/// which are therefore visited (mlir-opt's `getAttrs()` merges them in).
/// Decided by the op's dialect being registered in the printing tool
/// (`host`; SPEC.md §7.4).
fn op_name_has_registered_properties(name: &[u8], host: &Host) -> bool {
    let dialect = name.split(|&c| c == b'.').next().unwrap_or(b"");
    std::str::from_utf8(dialect).is_ok_and(|d| host.registers(d))
}

impl Aliases {
    /// The aliases of the module under `top`, and `beside()`. The walk is
    /// split across threads for a top block of `PAR_MIN_OPS` ops or more,
    /// and always (into at least two runs) with `force_split`, so that
    /// tests cover the merge on small modules. `beside` runs while the
    /// walk's runs are merged and the aliases sorted, not during the runs,
    /// which have the pool to themselves (SPEC.md §4.5).
    pub fn compute_beside<R: Send>(
        m: &Module,
        top: OpId,
        host: &'static Host,
        (force_split, skip): (bool, Option<&SkipAttr<'_>>),
        beside: impl FnOnce() -> R + Send,
    ) -> (Aliases, R) {
        let registered_props: Vec<bool> = (0..m.op_names.len())
            .map(|i| {
                op_name_has_registered_properties(
                    m.op_names.get(rmlir_format::OpNameId(i as u32)),
                    host,
                )
            })
            .collect();
        let runs = Collector::walk(m, top, &registered_props, host, force_split, skip);
        rayon::join(|| Self::from_runs(runs), beside)
    }

    /// The aliases of a walk's runs, merged in order.
    fn from_runs(runs: Runs<'_>) -> Aliases {
        let Collector {
            m,
            entries,
            names,
            sizes,
            op_bytes,
            ..
        } = runs.merge();
        // The print's estimate: the ops, and each alias's definition.
        let mut print_bytes = op_bytes;
        for (e, &size) in entries.iter().zip(&sizes) {
            if let Some(n) = e.alias() {
                let def = size.saturating_add(names.get(n).len() as u64 + 16);
                print_bytes = print_bytes.saturating_add(def);
            }
        }
        drop(sizes);
        // The walk's index and child lists are freed here, before the
        // alias list is built: this is the printer's peak of memory.
        let c = Walked { entries, names };
        // Ordered by (depth, types before attributes, alias name), stably:
        // aliases of equal rank stay in the order the walk met them. There
        // are few distinct ranks (nearly every alias is a `loc` of depth
        // 1), so a stable counting sort by rank does in one pass what a
        // comparison sort of half a million aliases did in ~15 ms.
        let mut by_name: Vec<u16> = (0..c.names.0.len() as u16).collect();
        by_name.sort_by_key(|&n| c.names.get(NameId(n)));
        let mut name_rank = vec![0u64; by_name.len()];
        for (rank, &n) in by_name.iter().enumerate() {
            name_rank[n as usize] = rank as u64;
        }
        let rank = |i: u32| {
            let e = &c.entries[i as usize];
            let name = e.alias().map_or(0, |n| name_rank[n.0 as usize] + 1);
            (u64::from(e.depth) << 32) | (u64::from(!e.sym.is_type()) << 31) | name
        };
        let aliased = stable_sort_by_rank(
            || (0..c.entries.len() as u32).filter(|&i| c.entries[i as usize].alias != 0),
            rank,
        );
        let mut counts = vec![0u32; c.names.0.len()];
        let mut index = SymTable::new(m);
        let mut list = Vec::with_capacity(aliased.len());
        for i in aliased {
            let e = &c.entries[i as usize];
            let name = e.alias().expect("filtered");
            let n = &mut counts[name.0 as usize];
            index.insert(e.sym.get(), list.len() as u32);
            list.push((
                e.sym.get(),
                Alias {
                    name,
                    index: *n,
                    deferred: e.can_be_deferred,
                },
            ));
            *n += 1;
        }
        Aliases {
            index,
            list,
            names: c.names,
            print_bytes: Some(print_bytes),
        }
    }
}

impl<'m> Collector<'m> {
    fn new(
        m: &'m Module,
        registered_props: &'m [bool],
        host: &'static Host,
        skip: Option<&'m SkipAttr<'m>>,
    ) -> Self {
        Collector {
            m,
            skip,
            host,
            entries: Vec::new(),
            index: SymTable::new(m),
            registered_props,
            scratch: Vec::new(),
            stack: Vec::new(),
            child_list: Vec::new(),
            names: Names::default(),
            sizes: Vec::new(),
            op_bytes: 0,
            nesting: 0,
            own_children: Vec::new(),
            inline_memo: Default::default(),
        }
    }

    /// The walk of `visit_op(top)`, with the top block's ops split into
    /// one contiguous run per thread when it is large. Each run is walked
    /// by its own collector and the results are merged in order: the
    /// entries new to a later run come after the earlier runs' entries in
    /// the order the run met them, exactly where a single walk would have
    /// put them, and a symbol is deferrable only if it is in every run
    /// that met it. Depths and children do not depend on the walk.
    fn walk(
        m: &'m Module,
        top: OpId,
        registered_props: &'m [bool],
        host: &'static Host,
        force_split: bool,
        skip: Option<&'m SkipAttr<'m>>,
    ) -> Runs<'m> {
        let mut c = Collector::new(m, registered_props, host, skip);
        let o = m.op(top);
        let threads = if force_split {
            rayon::current_num_threads().max(2)
        } else {
            rayon::current_num_threads()
        };
        let big_block = match o.regions() {
            [r] => match &m.region(*r).blocks[..] {
                [b] if threads > 1
                    && m.block(*b).ops.len() > 1
                    && (force_split || m.block(*b).ops.len() >= super::printer::PAR_MIN_OPS) =>
                {
                    Some(*b)
                }
                _ => None,
            },
            _ => None,
        };
        let Some(b) = big_block else {
            c.visit_op(top);
            return Runs {
                first: c,
                later: Vec::new(),
                top: None,
            };
        };
        let (_, loc) = c.visit_attr(o.loc, true);
        let top_bytes = c.frame_bytes(top).saturating_add(c.ref_bytes(loc));
        c.op_bytes = c.op_bytes.saturating_add(top_bytes);
        c.visit_block_args(b);
        c.nesting = 1;
        let ops = &m.block(b).ops;
        let per = ops.len().div_ceil(threads);
        let (first, runs) = rayon::join(
            || {
                for &op in &ops[..per] {
                    c.visit_op(op);
                }
                c
            },
            || {
                use rayon::prelude::*;
                ops[per..]
                    .par_chunks(per)
                    .map(|run| {
                        let mut k = Collector::new(m, registered_props, host, skip);
                        k.nesting = 1;
                        for &op in run {
                            k.visit_op(op);
                        }
                        k
                    })
                    .collect::<Vec<_>>()
            },
        );
        Runs {
            first,
            later: runs,
            top: Some(top),
        }
    }

    /// Appends the entries of a later run (see `walk`).
    fn merge(&mut self, k: Collector<'m>) {
        self.op_bytes = self.op_bytes.saturating_add(k.op_bytes);
        let Collector {
            entries,
            sizes,
            child_list,
            names,
            index,
            ..
        } = k;
        // The run's own index is not needed to merge it, and its entries
        // and sizes give their pages back as they move (`drain`): this is
        // the print's peak of memory, and the run would otherwise be
        // resident beside what it adds here.
        drop(index);
        debug_assert_eq!(entries.len(), sizes.len(), "one size per entry");
        let mut to_here = Vec::with_capacity(entries.len());
        let first_new = self.entries.len();
        let moving = Draining::new(entries).zip(Draining::new(sizes));
        for (e, size) in moving {
            match self.index.get(e.sym.get()) {
                Some(g) => {
                    self.entries[g as usize].can_be_deferred &= e.can_be_deferred;
                    to_here.push(g);
                }
                None => {
                    let g = u32::try_from(self.entries.len()).expect("fewer than 2^32 symbols");
                    self.sizes.push(size);
                    self.entries.push(Entry {
                        sym: e.sym,
                        alias: alias_field(e.alias().map(|n| self.names.id(names.get_cow(n)))),
                        depth: e.depth,
                        can_be_deferred: e.can_be_deferred,
                        children: e.children,
                    });
                    self.index.insert(e.sym.get(), g);
                    to_here.push(g);
                }
            }
        }
        for e in &mut self.entries[first_new..] {
            let (start, len) = e.children;
            let here = self.child_list.len() as u32;
            self.child_list.extend(
                child_list[start as usize..(start + len) as usize]
                    .iter()
                    .map(|&i| to_here[i as usize]),
            );
            e.children = (here, len);
        }
    }

    fn visit_op(&mut self, op: OpId) {
        let m = self.m;
        let o = m.op(op);
        let own = self.frame_bytes(op);
        let (_, loc) = self.visit_attr(o.loc, true);
        let mut bytes = own.saturating_add(self.ref_bytes(loc));
        let attrs_first = !o.regions().is_empty()
            && self
                .skip
                .is_some_and(|skip| skip(op, Part::AttrsBeforeRegions));
        if attrs_first {
            bytes = bytes.saturating_add(self.visit_op_operands_and_attrs(op));
        }
        self.nesting += 1;
        let regions: &[RegionId] = if self.skip.is_some_and(|skip| skip(op, Part::Regions)) {
            &[]
        } else {
            o.regions()
        };
        let mut order: Vec<usize> = (0..regions.len()).collect();
        if regions.len() > 1
            && self
                .skip
                .is_some_and(|skip| skip(op, Part::FirstRegionLast))
        {
            order.rotate_left(1);
        }
        for ri in order {
            let r = regions[ri];
            for (bi, &b) in m.region(r).blocks.iter().enumerate() {
                match self.skip {
                    Some(skip) if bi == 0 => {
                        let paired = ri == 0 && skip(op, Part::EntryArgsPaired);
                        self.visit_block_args_in(b, paired, |arg| {
                            skip(
                                op,
                                Part::EntryArg {
                                    region: ri as u32,
                                    arg,
                                },
                            )
                        })
                    }
                    _ => self.visit_block_args(b),
                }
                let mut ops: &[OpId] = &m.block(b).ops;
                if let (Some(skip), 0) = (self.skip, bi) {
                    if skip(op, Part::Terminator { region: ri as u32 }) {
                        ops = ops.split_last().map_or(ops, |(_, rest)| rest);
                    }
                }
                for &child in ops {
                    self.visit_op(child);
                }
            }
        }
        self.nesting -= 1;
        if !attrs_first {
            bytes = bytes.saturating_add(self.visit_op_operands_and_attrs(op));
        }
        self.op_bytes = self.op_bytes.saturating_add(bytes);
    }

    /// An op's own print besides its location, operands, results and
    /// attributes: name, indentation, successors, region and block
    /// headers (`print_size::op_frame_bytes`).
    fn frame_bytes(&self, op: OpId) -> u64 {
        print_size::op_frame_bytes(self.m, op, self.nesting)
    }

    /// What printing a reference to entry `i` takes: its alias or its print.
    fn ref_bytes(&self, i: usize) -> u64 {
        match self.entries[i].alias() {
            Some(n) => self.names.get(n).len() as u64 + 12,
            None => self.sizes[i],
        }
    }

    fn visit_block_args(&mut self, b: BlockId) {
        self.visit_block_args_in(b, false, |_| false)
    }

    /// `visit_block_args` of the arguments `skip` does not name (by
    /// position), in pairs where `paired` ([`Part::EntryArgsPaired`]).
    fn visit_block_args_in(&mut self, b: BlockId, paired: bool, skip: impl Fn(u32) -> bool) {
        let m = self.m;
        let mut bytes: u64 = 0;
        let args = &m.block(b).args;
        let half = args.len() / 2;
        for k in 0..args.len() {
            // Paired: 0, n/2, 1, n/2 + 1, …
            let i = if paired && k < 2 * half {
                k / 2 + (k % 2) * half
            } else {
                k
            };
            let a = args[i];
            if skip(i as u32) {
                continue;
            }
            let v = m.value(a);
            let (_, t) = self.visit_type(v.ty, false);
            bytes = bytes.saturating_add(24 + self.ref_bytes(t));
            if let Some(l) = v.loc {
                let (_, l) = self.visit_attr(l, false);
                bytes = bytes.saturating_add(self.ref_bytes(l));
            }
        }
        self.op_bytes = self.op_bytes.saturating_add(bytes);
    }

    /// Visits an op's operand and result types and its attributes, and
    /// returns their estimated print.
    fn visit_op_operands_and_attrs(&mut self, op: OpId) -> u64 {
        let m = self.m;
        let o = m.op(op);
        let mut bytes: u64 = 0;
        for &v in m.operands(op) {
            let (_, t) = self.visit_type(m.value(v).ty, false);
            bytes = bytes.saturating_add(24 + self.ref_bytes(t));
        }
        for v in o.results() {
            let (_, t) = self.visit_type(m.value(v).ty, false);
            bytes = bytes.saturating_add(24 + self.ref_bytes(t));
        }
        let mut props_visited = false;
        // `getAttrs()`: inherent attributes (from properties, for ops whose
        // dialect is registered) merged with the discardable ones by name.
        let mut attrs = std::mem::take(&mut self.scratch);
        if let AttrData::Dictionary(d) = m.ctx.attr(o.attributes) {
            attrs.extend(d.iter().map(|(n, a)| (&n[..], *a)));
        }
        if let Some(p) = o.properties {
            if self.registered_props[o.name.0 as usize] {
                if let AttrData::Dictionary(d) = m.ctx.attr(p) {
                    attrs.extend(d.iter().map(|(n, a)| (&n[..], *a)));
                    attrs.sort_by(|a, b| a.0.cmp(b.0));
                    props_visited = true;
                }
            }
            // Properties the walk does not visit print with what aliases
            // their parts have elsewhere; inline is never shorter.
            bytes = bytes.saturating_add(16);
            if !props_visited {
                let inline = print_size::inline_size(m, Sym::Attr(p), &mut self.inline_memo);
                bytes = bytes.saturating_add(inline);
            }
        }
        for &(name, a) in &attrs {
            if self.skip.is_some_and(|skip| skip(op, Part::Attr(name))) {
                continue;
            }
            let (_, i) = self.visit_attr(a, false);
            let entry = (3 * name.len() as u64 + 6).saturating_add(self.ref_bytes(i));
            bytes = bytes.saturating_add(entry);
        }
        attrs.clear();
        self.scratch = attrs;
        bytes
    }

    fn lookup(&mut self, sym: Sym, can_be_deferred: bool) -> Option<(u32, usize)> {
        let i = self.index.get(sym)? as usize;
        if !can_be_deferred {
            self.mark_non_deferrable(i);
        }
        Some((self.entries[i].depth, i))
    }

    fn mark_non_deferrable(&mut self, i: usize) {
        // Most lookups hit an already-marked entry: no stack for those.
        if !self.entries[i].can_be_deferred {
            return;
        }
        let mut stack = vec![i];
        while let Some(i) = stack.pop() {
            if !self.entries[i].can_be_deferred {
                continue;
            }
            self.entries[i].can_be_deferred = false;
            let (start, len) = self.entries[i].children;
            stack.extend(
                self.child_list[start as usize..(start + len) as usize]
                    .iter()
                    .map(|&c| c as usize),
            );
        }
    }

    fn insert(
        &mut self,
        sym: Sym,
        alias: Option<Cow<'static, str>>,
        can_be_deferred: bool,
    ) -> usize {
        let i = self.entries.len();
        let alias = alias.map(|n| self.names.id(n));
        self.sizes.push(0);
        self.entries.push(Entry {
            sym: PackedSym::new(sym),
            alias: alias_field(alias),
            depth: if alias.is_some() { 1 } else { 0 },
            can_be_deferred,
            children: (0, 0),
        });
        self.index
            .insert(sym, u32::try_from(i).expect("fewer than 2^32 symbols"));
        i
    }

    /// Records the children pushed on `stack` since `mark` as entry `i`'s.
    fn finish(&mut self, i: usize, mark: usize) -> (u32, usize) {
        self.sizes[i] = self.estimate(i, mark);
        let children = &self.stack[mark..];
        let max = children.iter().map(|c| c.0).max().unwrap_or(0);
        let start = self.child_list.len() as u32;
        let len = children.len() as u32;
        self.child_list.extend(children.iter().map(|c| c.1 as u32));
        self.stack.truncate(mark);
        let e = &mut self.entries[i];
        e.children = (start, len);
        if max > 0 {
            e.depth = max + 1;
        }
        (e.depth, i)
    }

    /// Entry `i`'s estimated print, its children (on `stack` from `mark`)
    /// referenced as the printer refers to them. A child the printer
    /// prints and the walk does not visit (a sparse literal's values)
    /// counts inline.
    fn estimate(&mut self, i: usize, mark: usize) -> u64 {
        let sym = self.entries[i].sym.get();
        let mut own_children = std::mem::take(&mut self.own_children);
        own_children.clear();
        let mut bytes = print_size::own_size(self.m, sym, &mut own_children);
        for &(_, c) in &self.stack[mark..] {
            bytes = bytes.saturating_add(2).saturating_add(self.ref_bytes(c));
        }
        for &c in &own_children {
            let visited = self.stack[mark..]
                .iter()
                .any(|&(_, v)| self.entries[v].sym.get() == c);
            if !visited {
                let inline = print_size::inline_size(self.m, c, &mut self.inline_memo);
                bytes = bytes.saturating_add(2).saturating_add(inline);
            }
        }
        self.own_children = own_children;
        bytes
    }

    fn child_attr(&mut self, a: AttrId, cbd: bool) {
        let r = self.visit_attr(a, cbd);
        self.stack.push(r);
    }

    fn child_type(&mut self, t: TypeId, cbd: bool) {
        let r = self.visit_type(t, cbd);
        self.stack.push(r);
    }

    fn visit_attr(&mut self, a: AttrId, cbd: bool) -> (u32, usize) {
        if let Some(r) = self.lookup(Sym::Attr(a), cbd) {
            return r;
        }
        let m = self.m;
        let data = m.ctx.attr(a);
        let alias = attr_alias_name(m, data, self.host);
        let i = self.insert(Sym::Attr(a), alias, cbd);
        let mark = self.stack.len();
        let mut visit_type_after = None;
        match data {
            AttrData::AffineMap(_)
            | AttrData::DenseArray { .. }
            | AttrData::Float { .. }
            | AttrData::Integer { .. }
            | AttrData::IntegerSet(_)
            | AttrData::Unit => {}
            AttrData::Distinct { referenced, .. } => self.child_attr(*referenced, cbd),
            AttrData::Dictionary(entries) => {
                for (_, v) in entries {
                    self.child_attr(*v, cbd);
                }
            }
            AttrData::Array(elems) => {
                for &e in elems {
                    self.child_attr(e, cbd);
                }
            }
            AttrData::Type(t) => self.child_type(*t, cbd),
            AttrData::NameLoc { child, .. }
                if !matches!(m.ctx.attr(*child), AttrData::UnknownLoc) =>
            {
                self.child_attr(*child, cbd);
            }
            AttrData::CallSiteLoc { callee, caller } => {
                self.child_attr(*callee, cbd);
                self.child_attr(*caller, cbd);
            }
            AttrData::FusedLoc {
                locations,
                metadata,
            } => {
                if let Some(md) = metadata {
                    self.child_attr(*md, cbd);
                }
                for &l in locations {
                    self.child_attr(l, cbd);
                }
            }
            AttrData::Dialect { body, ty } => {
                for p in &body.pieces {
                    match p {
                        BodyPiece::Attr(x) | BodyPiece::Stripped(x) => self.child_attr(*x, cbd),
                        BodyPiece::Type(t) => self.child_type(*t, cbd),
                        BodyPiece::Text(_) => {}
                    }
                }
                visit_type_after = *ty;
            }
            AttrData::String { ty, .. } => visit_type_after = *ty,
            AttrData::Opaque(o) => visit_type_after = o.ty,
            AttrData::DenseIntOrFp { ty, .. }
            | AttrData::DenseString { ty, .. }
            | AttrData::DenseResource { ty, .. }
            | AttrData::Sparse { ty, .. } => visit_type_after = Some(*ty),
            _ => {}
        }
        if let Some(t) = visit_type_after {
            if !matches!(m.ctx.ty(t), TypeData::None) {
                self.child_type(t, cbd);
            }
        }
        self.finish(i, mark)
    }

    fn visit_type(&mut self, t: TypeId, cbd: bool) -> (u32, usize) {
        if let Some(r) = self.lookup(Sym::Type(t), cbd) {
            return r;
        }
        let m = self.m;
        let data = m.ctx.ty(t);
        let alias = match data {
            TypeData::Tuple(elems) if elems.len() > 16 => Some(Cow::Borrowed("tuple")),
            _ => None,
        };
        let i = self.insert(Sym::Type(t), alias, cbd);
        let mark = self.stack.len();
        match data {
            TypeData::MemRef {
                elem,
                layout,
                memory_space,
                ..
            } => {
                self.child_type(*elem, cbd);
                if let Some(l) = layout {
                    self.child_attr(*l, cbd);
                }
                if let Some(s) = memory_space {
                    self.child_attr(*s, cbd);
                }
            }
            TypeData::UnrankedMemRef { elem, memory_space } => {
                self.child_type(*elem, cbd);
                if let Some(s) = memory_space {
                    self.child_attr(*s, cbd);
                }
            }
            TypeData::Complex(e) => self.child_type(*e, cbd),
            TypeData::Tuple(elems) => {
                for &e in elems {
                    self.child_type(e, cbd);
                }
            }
            TypeData::Function { inputs, results } => {
                for &e in inputs.iter().chain(results) {
                    self.child_type(e, cbd);
                }
            }
            TypeData::Vector { elem, .. } | TypeData::UnrankedTensor { elem } => {
                self.child_type(*elem, cbd)
            }
            TypeData::RankedTensor { elem, encoding, .. } => {
                self.child_type(*elem, cbd);
                if let Some(e) = encoding {
                    self.child_attr(*e, cbd);
                }
            }
            TypeData::Dialect(body) => {
                for p in &body.pieces {
                    match p {
                        BodyPiece::Attr(x) | BodyPiece::Stripped(x) => self.child_attr(*x, cbd),
                        BodyPiece::Type(t) => self.child_type(*t, cbd),
                        BodyPiece::Text(_) => {}
                    }
                }
            }
            _ => {}
        }
        self.finish(i, mark)
    }
}

/// The items `items()` yields, stably sorted by `rank`: a counting sort
/// over the distinct ranks, for a list with few of them. The items are
/// listed twice (to count, then to place) rather than held with their
/// ranks: a module has about one alias per op.
fn stable_sort_by_rank<I: Iterator<Item = u32>>(
    items: impl Fn() -> I,
    rank: impl Fn(u32) -> u64,
) -> Vec<u32> {
    let mut slots: rmlir_format::fasthash::FastMap<u64, usize> = Default::default();
    // Runs of equal ranks are common: the last one is looked up once.
    let mut last: Option<(u64, usize)> = None;
    let mut slot_of = |slots: &mut rmlir_format::fasthash::FastMap<u64, usize>, r: u64| match last {
        Some((lr, at)) if lr == r => at,
        _ => {
            let n = slots.len();
            let at = *slots.entry(r).or_insert(n);
            last = Some((r, at));
            at
        }
    };
    let mut counts: Vec<usize> = Vec::new();
    for i in items() {
        let at = slot_of(&mut slots, rank(i));
        if at == counts.len() {
            counts.push(0);
        }
        counts[at] += 1;
    }
    let mut by_rank: Vec<(u64, usize)> = slots.iter().map(|(&r, &at)| (r, at)).collect();
    by_rank.sort_unstable();
    let mut next = vec![0usize; counts.len()];
    let mut start = 0;
    for (_, at) in by_rank {
        next[at] = start;
        start += counts[at];
    }
    let mut out = vec![0u32; start];
    for i in items() {
        let at = slot_of(&mut slots, rank(i));
        out[next[at]] = i;
        next[at] += 1;
    }
    out
}

fn attr_alias_name(m: &Module, data: &AttrData, host: &Host) -> Option<Cow<'static, str>> {
    match data {
        AttrData::AffineMap(_) => Some(Cow::Borrowed("map")),
        AttrData::IntegerSet(_) => Some(Cow::Borrowed("set")),
        d if d.is_location() => Some(Cow::Borrowed("loc")),
        AttrData::Distinct { referenced, .. } => {
            if matches!(m.ctx.attr(*referenced), AttrData::Unit) {
                None
            } else {
                Some(Cow::Borrowed("distinct"))
            }
        }
        AttrData::Dialect { body, .. } => host.alias_of(&m.ctx, body),
        _ => None,
    }
}
