//! IR numbering (SPEC.md §6.10): the walk that finds every dialect, op
//! name, attribute, type and resource the file refers to, counts the
//! references, numbers values per isolated scope and decides which ops'
//! regions are isolated; then the final order of each table (reference
//! count, then dialect groups per VarInt byte band), as MLIR's writer does.

use super::dialect_entries;
use super::dialect_hooks::WriteHooks;
use super::entries::{self, Sink};
use super::interner::{AttrRef, AttrSpace};
use super::properties::{self, OpProps};
use super::WriteError;
use rmlir_format::fasthash::FastMap as HashMap;
use rmlir_format::op_registry::{OpInfo, OpRegistry};
use rmlir_format::*;
use std::sync::Arc;

const UNSET: u32 = u32::MAX;

/// One numbered attribute, type or op name.
#[derive(Clone, Copy, Debug)]
pub struct Item<K> {
    pub key: K,
    pub dialect: u32,
    refs: u32,
}

/// How an op name is written.
#[derive(Clone, Debug)]
pub struct OpNameInfo {
    /// The name without its dialect prefix.
    pub suffix: Bytes,
    pub registered: bool,
}

pub struct Numbering<'m> {
    pub m: &'m Module,
    pub version: u64,
    pub registry: &'static OpRegistry,
    pub hooks: &'m WriteHooks<'m>,
    pub space: AttrSpace<'m>,
    pub dialects: Vec<Bytes>,
    dialect_ids: HashMap<Bytes, u32>,
    /// `dialect_ids["builtin"]`, once numbered.
    builtin_dialect: u32,
    pub attrs: Vec<Item<AttrId>>,
    pub types: Vec<Item<TypeId>>,
    pub op_names: Vec<Item<OpNameId>>,
    /// Position in `attrs`/`types`/`op_names` while numbering; the final
    /// index after [`Numbering::finish`].
    pub attr_index: Vec<u32>,
    pub type_index: Vec<u32>,
    pub op_name_index: Vec<u32>,
    pub op_name_info: HashMap<OpNameId, OpNameInfo>,
    /// The values' numbers ([`number_values`]), set by
    /// [`Numbering::set_values`].
    pub values: ValueNumbers,
    /// Per op with regions: whether its regions are isolated.
    pub isolated: Vec<bool>,
    /// Each op name's registry entry, looked up once (by `OpNameId`): the
    /// numbering and the IR section ask for it per op.
    pub op_infos: Vec<Option<&'static OpInfo>>,
    /// Builtin resource keys in first-reference order.
    pub resource_refs: Vec<Bytes>,
    /// Resource handle numbers by key (after `finish`).
    pub resource_ids: HashMap<Bytes, u32>,
    /// Attributes and types of other dialects written with their dialect's
    /// custom encoding (SPEC.md §6.6.5), by id.
    pub custom_attrs: HashMap<AttrId, Arc<dialect_entries::Custom>>,
    pub custom_types: HashMap<TypeId, Arc<dialect_entries::Custom>>,
    /// The empty attribute dictionary, once an op had it
    /// ([`properties::op_dictionary`]).
    pub empty_dict: Option<AttrId>,
    /// `loc(unknown)`, once a block argument without a location needed it.
    unknown_loc: Option<AttrId>,
    error: Option<WriteError>,
}

impl<'m> Numbering<'m> {
    /// Numbers the dialects, op names, attributes, types and resources of
    /// `m`. Its values are numbered apart ([`number_values`], which needs
    /// [`compute_isolation`]), on another thread on a large module, and
    /// handed in by [`Numbering::set_values`] (SPEC.md §6.10.7).
    pub fn run(
        m: &'m Module,
        version: u64,
        builtins: super::BuiltinEncodings,
        registry: &'static OpRegistry,
        hooks: &'m WriteHooks<'m>,
    ) -> Result<Numbering<'m>, WriteError> {
        let Some(top) = m.top else {
            return Err(WriteError::new("the module has no top-level operation"));
        };
        let space = AttrSpace::new(&m.ctx, builtins);
        let mut n = Numbering {
            m,
            version,
            registry,
            hooks,
            attr_index: vec![UNSET; space.len()],
            space,
            dialects: Vec::new(),
            dialect_ids: HashMap::default(),
            builtin_dialect: UNSET,
            attrs: Vec::new(),
            types: Vec::new(),
            op_names: Vec::new(),
            type_index: vec![UNSET; m.ctx.num_types()],
            op_name_index: vec![UNSET; m.op_names.len()],
            op_name_info: HashMap::default(),
            values: ValueNumbers::default(),
            isolated: Vec::new(),
            op_infos: (0..m.op_names.len() as u32)
                .map(|i| super::op_info(m, registry, m.op_names.get(OpNameId(i))))
                .collect(),
            resource_refs: Vec::new(),
            resource_ids: HashMap::default(),
            custom_attrs: HashMap::default(),
            custom_types: HashMap::default(),
            empty_dict: None,
            unknown_loc: None,
            error: None,
        };
        // The walk of `number_values`, whose order the tables' first
        // sightings follow.
        n.number_op(top);
        let mut stack: Vec<RegionId> = m.op(top).regions().to_vec();
        while let Some(r) = stack.pop() {
            n.number_region(r);
            for &b in &m.region(r).blocks {
                for &op in &m.block(b).ops {
                    stack.extend_from_slice(m.op(op).regions());
                }
            }
        }
        if let Some(e) = n.error.take() {
            return Err(e);
        }
        n.finish();
        Ok(n)
    }

    /// Hands in the values' numbers and the isolation they were found
    /// with.
    pub fn set_values(&mut self, isolated: Vec<bool>, values: ValueNumbers) {
        self.isolated = isolated;
        self.values = values;
    }

    fn number_region(&mut self, r: RegionId) {
        let m = self.m;
        for &b in &m.region(r).blocks {
            for &a in &m.block(b).args {
                let v = m.value(a);
                let loc = self.arg_loc(v);
                self.number_attr(loc);
                self.number_type(v.ty);
            }
            for &op in &m.block(b).ops {
                self.number_op(op);
            }
        }
    }

    /// A block argument's location (`unknown` when the IR has none).
    pub fn arg_loc(&mut self, v: &ValueData) -> AttrId {
        match v.loc {
            Some(l) => l,
            None => *self
                .unknown_loc
                .get_or_insert_with(|| self.space.intern(AttrData::UnknownLoc)),
        }
    }

    /// [`Numbering::arg_loc`] once numbered: `None` only for an argument
    /// the numbering did not see.
    pub fn known_arg_loc(&self, v: &ValueData) -> Option<AttrId> {
        v.loc.or(self.unknown_loc)
    }

    fn number_op(&mut self, op: OpId) {
        let m = self.m;
        let o = m.op(op);
        self.number_op_name(o.name);
        for v in o.results() {
            self.number_type(m.value(v).ty);
        }
        match properties::op_dictionary(
            &mut self.space,
            self.registry,
            self.hooks,
            m,
            op,
            self.version,
            self.empty_dict,
        ) {
            Ok(Some(d)) => self.number_attr(d),
            Ok(None) => {
                if self.empty_dict.is_none() && properties::dictionary_alone(o, self.version) {
                    // Its own dictionary was empty: every empty one is
                    // this attribute (the context uniques them).
                    self.empty_dict = Some(o.attributes);
                }
            }
            Err(e) => self.fail(e),
        }
        let info = self.op_infos[o.name.index()];
        let hooked = info.is_none() && self.hooks.handles_properties(m.op_name(op));
        if hooked && self.version >= rmlir_format::bytecode::VERSION_NATIVE_PROPERTIES {
            match self
                .hooks
                .encode_properties(&m.ctx, m.op_name(op), o.properties)
            {
                Some(Ok(c)) => dialect_entries::write(self, &c),
                Some(Err(e)) => self.fail(WriteError::new(format!(
                    "'{}': {e}",
                    String::from_utf8_lossy(m.op_name(op))
                ))),
                None => {}
            }
        } else if self.version >= rmlir_format::bytecode::VERSION_NATIVE_PROPERTIES {
            match properties::classify(info, m, op) {
                Ok(OpProps::None) => {}
                Ok(OpProps::Unregistered(a)) => self.number_attr(a),
                Ok(OpProps::Ods { info, entries }) => {
                    let v = self.version;
                    if let Err(e) = properties::write_ods(self, m, op, info, entries, v) {
                        self.fail(e);
                    }
                }
                Err(e) => self.fail(e),
            }
        }
        self.number_attr(o.loc);
    }

    fn fail(&mut self, e: WriteError) {
        if self.error.is_none() {
            self.error = Some(e);
        }
    }

    fn number_dialect(&mut self, name: &[u8]) -> u32 {
        // Most attributes and types are builtin: their dialect is found
        // without hashing its name.
        let builtin = name == b"builtin";
        if builtin && self.builtin_dialect != UNSET {
            return self.builtin_dialect;
        }
        if let Some(&d) = self.dialect_ids.get(name) {
            return d;
        }
        if builtin {
            self.builtin_dialect = self.dialects.len() as u32;
        }
        let d = self.dialects.len() as u32;
        self.dialects.push(name.into());
        self.dialect_ids.insert(name.into(), d);
        d
    }

    fn number_op_name(&mut self, name: OpNameId) {
        let pos = self.op_name_index[name.index()];
        if pos != UNSET {
            self.op_names[pos as usize].refs += 1;
            return;
        }
        let full = self.m.op_names.get(name);
        if full.last() == Some(&b'.') {
            // `dialect.` would be written as dialect `dialect` with an empty
            // suffix, which reads back as `dialect` (MLIR writes it so too).
            self.fail(WriteError::new(format!(
                "operation name '{}' ends with '.': bytecode would read it back as '{}'",
                String::from_utf8_lossy(full),
                String::from_utf8_lossy(&full[..full.len() - 1])
            )));
        }
        let registered = self.op_infos[name.index()].is_some()
            || (self.hooks.handles_properties(full)
                && !self.m.unregistered_names.iter().any(|n| &n[..] == full));
        // `dialect.suffix`; a dotless name is its own dialect with an empty suffix.
        let (ns, suffix): (&[u8], &[u8]) = match full.iter().position(|&c| c == b'.') {
            Some(i) => (&full[..i], &full[i + 1..]),
            None => (full, b""),
        };
        let dialect = self.number_dialect(ns);
        self.op_name_info.insert(
            name,
            OpNameInfo {
                suffix: suffix.into(),
                registered,
            },
        );
        self.op_name_index[name.index()] = self.op_names.len() as u32;
        self.op_names.push(Item {
            key: name,
            dialect,
            refs: 1,
        });
    }

    pub fn number_attr(&mut self, a: AttrId) {
        if self.attr_index.len() <= (a.0 as usize) {
            self.attr_index
                .resize(self.space.len().max((a.0 as usize) + 1), UNSET);
        }
        let pos = self.attr_index[a.0 as usize];
        if pos != UNSET {
            self.attrs[pos as usize].refs += 1;
            return;
        }
        let data = self.space.get(a);
        let dialect = self.number_dialect(entries::attr_dialect(&data).as_bytes());
        self.attr_index[a.0 as usize] = self.attrs.len() as u32;
        self.attrs.push(Item {
            key: a,
            dialect,
            refs: 1,
        });
        if entries::attr_has_encoding(&data, self.space.builtins()) {
            let m = self.m;
            let raw = self.space.is_raw_dense(a);
            entries::write_attr(self, &m.ctx, &data, raw);
        } else if let Some(enc) = self.hooks.encode_attr(
            &mut self.space,
            entries::attr_dialect(&data).as_bytes(),
            a,
            &data,
        ) {
            let enc = Arc::new(enc);
            self.custom_attrs.insert(a, enc.clone());
            dialect_entries::write(self, &enc);
        }
    }

    pub fn number_type(&mut self, t: TypeId) {
        if self.type_index.len() <= (t.0 as usize) {
            self.type_index
                .resize(self.space.num_types().max((t.0 as usize) + 1), UNSET);
        }
        let pos = self.type_index[t.0 as usize];
        if pos != UNSET {
            self.types[pos as usize].refs += 1;
            return;
        }
        let data = self.space.ty(t).clone();
        let dialect = self.number_dialect(entries::type_dialect(&data).as_bytes());
        self.type_index[t.0 as usize] = self.types.len() as u32;
        self.types.push(Item {
            key: t,
            dialect,
            refs: 1,
        });
        if entries::type_has_encoding(&data, self.space.builtins()) {
            entries::write_type(self, &data);
        } else if let Some(enc) = self.hooks.encode_type(
            &mut self.space,
            entries::type_dialect(&data).as_bytes(),
            t,
            &data,
        ) {
            let enc = Arc::new(enc);
            self.custom_types.insert(t, enc.clone());
            dialect_entries::write(self, &enc);
        }
    }

    /// Sorts the tables and assigns final indices and resource handles.
    fn finish(&mut self) {
        order(&mut self.attrs);
        order(&mut self.types);
        order(&mut self.op_names);
        for (i, it) in self.attrs.iter().enumerate() {
            self.attr_index[it.key.0 as usize] = i as u32;
        }
        for (i, it) in self.types.iter().enumerate() {
            self.type_index[it.key.0 as usize] = i as u32;
        }
        for (i, it) in self.op_names.iter().enumerate() {
            self.op_name_index[it.key.index()] = i as u32;
        }
        // Builtin resources: the referenced ones with data first, then
        // the declarations (referenced keys without data), each in
        // first-reference order.
        let data_keys: Vec<&Bytes> = self
            .resource_refs
            .iter()
            .filter(|k| builtin_blob(self.m, k).is_some())
            .collect();
        let decls: Vec<&Bytes> = self
            .resource_refs
            .iter()
            .filter(|k| builtin_blob(self.m, k).is_none())
            .collect();
        let ids: HashMap<Bytes, u32> = data_keys
            .into_iter()
            .chain(decls)
            .enumerate()
            .map(|(i, k)| (k.clone(), i as u32))
            .collect();
        self.resource_ids = ids;
    }

    pub fn attr_idx(&self, a: AttrId) -> u64 {
        let i = self.attr_index[a.0 as usize];
        debug_assert!(i != UNSET, "attribute {a:?} was not numbered");
        u64::from(i)
    }

    pub fn type_idx(&self, t: TypeId) -> u64 {
        u64::from(self.type_index[t.0 as usize])
    }
}

/// The builtin dialect's blob for resource `key`, if the module has one.
pub fn builtin_blob<'a>(m: &'a Module, key: &[u8]) -> Option<(&'a BlobData, u32)> {
    m.resources
        .dialect
        .iter()
        .filter(|g| &g.name[..] == b"builtin")
        .flat_map(|g| g.entries.iter())
        .find_map(|(k, v)| match v {
            ResourceValue::Blob { alignment, data } if &k[..] == key => Some((data, *alignment)),
            _ => None,
        })
}

impl Sink for Numbering<'_> {
    const NUMBERING: bool = true;
    fn attr(&mut self, a: AttrRef<'_>) {
        let id = self.space.resolve(a);
        self.number_attr(id);
    }
    fn opt_attr(&mut self, a: Option<AttrRef<'_>>) {
        if let Some(a) = a {
            self.attr(a);
        }
    }
    fn ty(&mut self, t: TypeId) {
        self.number_type(t);
    }
    fn varint(&mut self, _: u64) {}
    fn signed_varint(&mut self, _: i64) {}
    fn byte(&mut self, _: u8) {}
    fn string(&mut self, _: &[u8]) {}
    fn blob(&mut self, _: &[u8]) {}
    fn type_bits(&self, t: TypeId) -> u32 {
        entries::type_bits(self.space.ty(t))
    }
    fn local_type(&self, t: TypeId) -> Option<TypeData> {
        (t.0 as usize >= self.space.ctx().num_types()).then(|| self.space.ty(t).clone())
    }
    fn resource(&mut self, key: &[u8]) {
        self.number_dialect(b"builtin");
        if !self.resource_refs.iter().any(|k| &k[..] == key) {
            self.resource_refs.push(key.into());
        }
    }
}

/// Stable sort by reference count (descending), then, within each VarInt
/// byte band (128, 16256, … entries), a stable sort by dialect with one
/// dialect first: 0 for the first band, the previous band's last dialect
/// for the others.
fn order<K>(items: &mut [Item<K>]) {
    items.sort_by_key(|it| std::cmp::Reverse(it.refs));
    let mut first = 0u32;
    let mut band = 0u64;
    let mut rest = items;
    for i in 1..9u64 {
        band = (1u64 << (7 * i)) - band;
        let take = (band as usize).min(rest.len());
        let (cur, tail) = rest.split_at_mut(take);
        cur.sort_by_key(|it| (it.dialect != first, it.dialect));
        if let Some(last) = cur.last() {
            first = last.dialect;
        }
        rest = tail;
        if rest.is_empty() {
            break;
        }
    }
}

/// The numbers of a module's values (SPEC.md §6.10): per isolated scope,
/// in the numbering's walk (a region's values after those of the region
/// whose op holds it, unless that op is isolated), with each region's
/// counts and each block's index in its region.
#[derive(Default)]
pub struct ValueNumbers {
    pub value_ids: Vec<u32>,
    pub block_index: Vec<u32>,
    /// Per region with blocks: (blocks, values defined directly in it).
    pub region_counts: HashMap<RegionId, (u32, u32)>,
}

/// Numbers the values of the ops under `top`, whose regions are isolated
/// as `isolated` says ([`compute_isolation`]).
pub fn number_values(m: &Module, top: OpId, isolated: &[bool]) -> ValueNumbers {
    let mut n = ValueNumbers {
        value_ids: vec![UNSET; m.values.len()],
        block_index: vec![UNSET; m.blocks.len()],
        region_counts: HashMap::default(),
    };
    let mut next = 0u32;
    let mut number = |v: ValueId, next: &mut u32| {
        n.value_ids[v.index()] = *next;
        *next += 1;
    };
    for v in m.op(top).results() {
        number(v, &mut next);
    }
    let push = |op: OpId, next: u32, stack: &mut Vec<(RegionId, u32)>| {
        let start = if isolated[op.index()] { 0 } else { next };
        stack.extend(m.op(op).regions().iter().map(|&r| (r, start)));
    };
    let mut stack: Vec<(RegionId, u32)> = Vec::new();
    push(top, next, &mut stack);
    let mut counts = Vec::new();
    while let Some((r, start)) = stack.pop() {
        let blocks = &m.region(r).blocks;
        if blocks.is_empty() {
            continue;
        }
        next = start;
        for (i, &b) in blocks.iter().enumerate() {
            n.block_index[b.index()] = i as u32;
            for &a in &m.block(b).args {
                number(a, &mut next);
            }
            for &op in &m.block(b).ops {
                for v in m.op(op).results() {
                    number(v, &mut next);
                }
            }
        }
        counts.push((r, (blocks.len() as u32, next - start)));
        for &b in blocks {
            for &op in &m.block(b).ops {
                push(op, next, &mut stack);
            }
        }
    }
    n.region_counts = counts.into_iter().collect();
    n
}

/// Which ops' regions are isolated (SPEC.md §6.10): ops with the
/// `IsolatedFromAbove` trait, and ops none of whose nested operations uses
/// a value defined outside them. Mirrors MLIR's walk, including its
/// shortcut of not looking inside regions already known to be isolated.
pub fn compute_isolation(m: &Module, top: OpId, registry: &OpRegistry) -> Vec<bool> {
    let mut iso: Vec<Option<bool>> = vec![None; m.ops.len()];
    struct State {
        op: OpId,
        unresolved: bool,
    }
    enum Ev {
        Enter(OpId),
        Exit,
    }
    let region_of = |v: ValueId| -> Option<RegionId> {
        match m.value(v).def {
            ValueDef::Result { op, .. } => m.op(op).parent.and_then(|b| m.block(b).parent),
            ValueDef::BlockArg { block, .. } => m.block(block).parent,
            ValueDef::Placeholder => None,
        }
    };
    // The registry is asked once per op name, not once per op.
    let isolated_name: Vec<bool> = (0..m.op_names.len() as u32)
        .map(|i| {
            super::op_info(m, registry, m.op_names.get(OpNameId(i)))
                .is_some_and(|info| info.isolated_from_above)
        })
        .collect();
    let mut stack: Vec<State> = Vec::new();
    let mut work = vec![Ev::Enter(top)];
    while let Some(ev) = work.pop() {
        let op = match ev {
            Ev::Exit => {
                let s = stack.pop().expect("walk stack");
                if iso[s.op.index()].is_none() {
                    iso[s.op.index()] = Some(true);
                }
                continue;
            }
            Ev::Enter(op) => op,
        };
        let o = m.op(op);
        if stack.last().is_some_and(|s| s.unresolved) {
            let parent_region = o.parent.and_then(|b| m.block(b).parent);
            for &v in m.operands(op) {
                let vr = region_of(v);
                if vr == parent_region {
                    continue;
                }
                let container = vr.and_then(|r| m.region(r).parent);
                let stop = stack
                    .iter()
                    .rposition(|s| !s.unresolved || Some(s.op) == container);
                let (from, unresolved) = match stop {
                    Some(i) => (i + 1, stack[i].unresolved),
                    None => (0, false),
                };
                for s in &mut stack[from..] {
                    s.unresolved = unresolved;
                    iso[s.op.index()] = Some(false);
                }
            }
        }
        if isolated_name[o.name.index()] {
            iso[op.index()] = Some(true);
        }
        if !o.regions().is_empty() {
            stack.push(State {
                op,
                unresolved: iso[op.index()].is_none(),
            });
            work.push(Ev::Exit);
            for &r in o.regions().iter().rev() {
                for &b in m.region(r).blocks.iter().rev() {
                    for &inner in m.block(b).ops.iter().rev() {
                        work.push(Ev::Enter(inner));
                    }
                }
            }
        }
    }
    iso.into_iter().map(|x| x.unwrap_or(false)).collect()
}
