//! Operations, blocks, regions and values in index-based arenas
//! (SPEC.md §2.5). Ids are 32-bit indices into the arenas of one [`Module`],
//! which keeps a million-op module at a few compact vectors.

use crate::attrs::Bytes;
use crate::context::{AttrId, Context, TypeId};
use crate::fasthash::FastMap as HashMap;

macro_rules! id_type {
    ($(#[$m:meta])* $name:ident) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub u32);
        impl $name {
            /// The id as an index into its arena.
            pub fn index(self) -> usize {
                self.0 as usize
            }
        }
    };
}

id_type!(
    /// An operation in [`Module::ops`].
    OpId
);
id_type!(
    /// A block in [`Module::blocks`].
    BlockId
);
id_type!(
    /// A region in [`Module::regions`].
    RegionId
);
id_type!(
    /// An SSA value in [`Module::values`].
    ValueId
);
id_type!(
    /// An operation name in [`Module::op_names`].
    OpNameId
);

/// An operation (SPEC.md §2.5): name, operands, results, successors,
/// properties, attributes, regions, location and parent block.
#[derive(Clone, Debug)]
pub struct Operation {
    /// Its name, interned in [`Module::op_names`].
    pub name: OpNameId,
    /// The op's operands: `Module::operands(op)`, a range of one vector
    /// of the module (SPEC.md §2.5).
    pub operands: OperandRange,
    /// Results are allocated contiguously: `first_result .. first_result + num_results`.
    pub first_result: u32,
    /// How many results it has.
    pub num_results: u32,
    /// `Operation::successors`. An op's lists do not change once it is
    /// made and there is one `Operation` per op of a module, so each is
    /// one pointer, with no allocation when empty, as it is for most ops.
    successor_list: Option<Box<Box<[BlockId]>>>,
    /// The `<{...}>` properties, if any (an attribute, usually a dictionary).
    pub properties: Option<AttrId>,
    /// The discardable attribute dictionary (always a dictionary attribute).
    pub attributes: AttrId,
    /// `Operation::regions`, stored as `successor_list`.
    region_list: Option<Box<Box<[RegionId]>>>,
    /// Its location attribute.
    pub loc: AttrId,
    /// The block it is in; `None` for the top-level op and for an op not
    /// yet pushed into a block.
    pub parent: Option<BlockId>,
}

fn thin_list<T>(v: Vec<T>) -> Option<Box<Box<[T]>>> {
    (!v.is_empty()).then(|| Box::new(v.into_boxed_slice()))
}

/// Where an op's operands are in `Module::operand_pool`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OperandRange {
    start: u32,
    len: u32,
}

impl OperandRange {
    /// The number of operands.
    pub fn len(self) -> usize {
        self.len as usize
    }

    /// Whether the op has no operands.
    pub fn is_empty(self) -> bool {
        self.len == 0
    }

    fn range(self) -> std::ops::Range<usize> {
        self.start as usize..(self.start + self.len) as usize
    }
}

impl Operation {
    /// The blocks it may branch to, in order.
    pub fn successors(&self) -> &[BlockId] {
        self.successor_list.as_deref().map_or(&[], |b| b)
    }

    /// Its regions, in order.
    pub fn regions(&self) -> &[RegionId] {
        self.region_list.as_deref().map_or(&[], |b| b)
    }

    /// Its results, in order.
    pub fn results(&self) -> impl ExactSizeIterator<Item = ValueId> + Clone {
        (self.first_result..self.first_result + self.num_results).map(ValueId)
    }
}

/// A block: its arguments and its operations (SPEC.md §2.5).
#[derive(Clone, Debug, Default)]
pub struct Block {
    /// Its arguments, each a value defined by [`ValueDef::BlockArg`].
    pub args: Vec<ValueId>,
    /// Its operations, in order.
    pub ops: Vec<OpId>,
    /// The region it is in; `None` until pushed into one.
    pub parent: Option<RegionId>,
}

/// A region: a list of blocks (SPEC.md §2.5).
#[derive(Clone, Debug, Default)]
pub struct Region {
    /// Its blocks, in order; the first is the entry block.
    pub blocks: Vec<BlockId>,
    /// The operation that holds it; `None` until one does.
    pub parent: Option<OpId>,
}

/// What defines an SSA value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueDef {
    /// A result of an operation.
    Result {
        /// The operation.
        op: OpId,
        /// The result's position among the op's results.
        index: u32,
    },
    /// An argument of a block.
    BlockArg {
        /// The block.
        block: BlockId,
        /// The argument's position among the block's arguments.
        index: u32,
    },
    /// A forward reference not (yet) resolved; never present in a finished module.
    Placeholder,
}

/// An SSA value: its type, what defines it and, for a block argument, its
/// location.
#[derive(Clone, Debug)]
pub struct ValueData {
    /// Its type.
    pub ty: TypeId,
    /// What defines it.
    pub def: ValueDef,
    /// Location of a block argument (`None` for op results).
    pub loc: Option<AttrId>,
}

/// A value in the file-level `{-# ... #-}` resource dictionaries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ResourceValue {
    /// A hex blob: `alignment` is the little-endian 4-byte prefix of the hex string.
    Blob {
        /// The alignment the blob's bytes need, in bytes.
        alignment: u32,
        /// The bytes, without the alignment prefix.
        data: crate::blob::BlobData,
    },
    /// `true` or `false`.
    Bool(bool),
    /// A string.
    String(Bytes),
}

/// The entries of one dialect or external provider in a resource
/// dictionary (SPEC.md §6.8).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ResourceGroup {
    /// Dialect name (in `dialect_resources`) or external provider name.
    pub name: Bytes,
    /// `(key, value)` in file order.
    pub entries: Vec<(Bytes, ResourceValue)>,
}

/// A file's resources: `dialect_resources` and `external_resources` of
/// the text's `{-# ... #-}`, the resource sections of bytecode (SPEC.md
/// §2.7, §6.8).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Resources {
    /// The groups of `dialect_resources`, by dialect.
    pub dialect: Vec<ResourceGroup>,
    /// The groups of `external_resources`, by provider.
    pub external: Vec<ResourceGroup>,
}

impl Resources {
    /// Whether there are no groups at all.
    pub fn is_empty(&self) -> bool {
        self.dialect.is_empty() && self.external.is_empty()
    }
}

/// Interned operation names.
#[derive(Clone, Debug, Default)]
pub struct OpNames {
    names: Vec<Bytes>,
    index: HashMap<Bytes, OpNameId>,
}

impl OpNames {
    /// The id of `name`, interning it if it is new.
    pub fn intern(&mut self, name: &[u8]) -> OpNameId {
        if let Some(&id) = self.index.get(name) {
            return id;
        }
        let id = OpNameId(self.names.len() as u32);
        let b: Bytes = name.into();
        self.names.push(b.clone());
        self.index.insert(b, id);
        id
    }
    /// The name of `id`.
    pub fn get(&self, id: OpNameId) -> &[u8] {
        &self.names[id.index()]
    }
    /// The number of distinct names interned.
    pub fn len(&self) -> usize {
        self.names.len()
    }
    /// Whether no name is interned.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
}

/// The arena lengths of a module at one moment ([`Module::mark`]).
#[derive(Clone, Copy, Debug)]
pub struct ModuleMark {
    ops: usize,
    blocks: usize,
    regions: usize,
    values: usize,
    operands: usize,
}

/// Part of a module read on its own (by one thread of a parallel read),
/// for [`Module::append_fragments`].
pub struct Fragment<M> {
    /// The IR read, with a forked context and no top-level op.
    pub module: Module,
    /// Where the ids of the attributes and types interned by the
    /// fragment's (forked) context went.
    pub ids: M,
    /// `(region of the fragment, empty region of the module)`.
    pub roots: Vec<(RegionId, RegionId)>,
    /// `(block of the fragment, block of the module)`: the fragment's
    /// block, which has no arguments, stands for the module's block, and
    /// its ops go after the ops the module's block has (a text parse that
    /// split one block's ops between threads, SPEC.md §3.5).
    pub block_roots: Vec<(BlockId, BlockId)>,
}

/// One parsed or decoded MLIR file: a context, the IR arenas, the top-level
/// operation and the file-level resources.
#[derive(Debug, Default)]
pub struct Module {
    /// The uniqued attributes and types (SPEC.md §2.1).
    pub ctx: Context,
    /// The operations, indexed by [`OpId`].
    pub ops: Vec<Operation>,
    /// The blocks, indexed by [`BlockId`].
    pub blocks: Vec<Block>,
    /// The regions, indexed by [`RegionId`].
    pub regions: Vec<Region>,
    /// The SSA values, indexed by [`ValueId`].
    pub values: Vec<ValueData>,
    /// Every op's operands, one op after another: one vector instead of a
    /// heap block per op.
    operand_pool: Vec<ValueId>,
    /// The interned operation names, indexed by [`OpNameId`].
    pub op_names: OpNames,
    /// The top-level operation (normally `builtin.module`).
    pub top: Option<OpId>,
    /// The file-level resources.
    pub resources: Resources,
    /// Use lists whose in-memory order is not the reference order
    /// (SPEC.md §2.8, [`crate::use_lists`]): `order[k]` is the position of
    /// the k-th use in reference order. Filled by both readers and written
    /// by the bytecode writer (v3+); an entry that no longer matches the
    /// value's uses (after the IR was edited) is ignored.
    pub use_list_orders: HashMap<ValueId, Vec<u32>>,
    /// Set by a text parse that left its use-list orders to be derived
    /// when they are needed (SPEC.md §2.8): the operand slots that named
    /// their value before its definition. While set, `use_list_orders`
    /// is empty and [`Module::text_use_list_orders`] gives the orders.
    pub text_forward_uses: Option<Box<crate::fasthash::FastSet<(OpId, u32)>>>,
    /// Dialect version payloads of the file this module was read from, as
    /// bytes (SPEC.md §9): written back unchanged for dialects without a
    /// hook; a hooked dialect writes its own version instead.
    pub dialect_versions: Vec<(Bytes, Vec<u8>)>,
    /// Op names the bytecode this module was read from marks unregistered
    /// (v5+). The writer writes them unregistered again, even where its
    /// layouts know the name: mlir-opt 22 writes the stablehlo ops it does
    /// not know so, and a conversion keeps them as they were (SPEC.md
    /// §10.3).
    pub unregistered_names: Vec<Bytes>,
}

impl Module {
    /// An empty module with a fresh context.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty module whose attributes and types live in `ctx`.
    pub fn with_context(ctx: Context) -> Self {
        Module {
            ctx,
            ..Self::default()
        }
    }

    /// The operation `id`.
    pub fn op(&self, id: OpId) -> &Operation {
        &self.ops[id.index()]
    }
    /// The operation `id`, to change.
    pub fn op_mut(&mut self, id: OpId) -> &mut Operation {
        &mut self.ops[id.index()]
    }
    /// The operands of operation `id`, in order.
    pub fn operands(&self, id: OpId) -> &[ValueId] {
        &self.operand_pool[self.ops[id.index()].operands.range()]
    }
    /// The operands of operation `id`, to replace in place (their number
    /// is fixed).
    pub fn operands_mut(&mut self, id: OpId) -> &mut [ValueId] {
        let r = self.ops[id.index()].operands.range();
        &mut self.operand_pool[r]
    }
    /// The block `id`.
    pub fn block(&self, id: BlockId) -> &Block {
        &self.blocks[id.index()]
    }
    /// The region `id`.
    pub fn region(&self, id: RegionId) -> &Region {
        &self.regions[id.index()]
    }
    /// The value `id`.
    pub fn value(&self, id: ValueId) -> &ValueData {
        &self.values[id.index()]
    }
    /// The name of operation `id` (`dialect.op`).
    pub fn op_name(&self, id: OpId) -> &[u8] {
        self.op_names.get(self.op(id).name)
    }

    /// Adds a value of type `ty` defined by `def`, with `loc` for a block
    /// argument; it is not put among any block's arguments
    /// ([`Module::add_block_arg`] does that).
    pub fn new_value(&mut self, ty: TypeId, def: ValueDef, loc: Option<AttrId>) -> ValueId {
        let id = ValueId(self.values.len() as u32);
        self.values.push(ValueData { ty, def, loc });
        id
    }

    /// Adds an empty block, in no region yet.
    pub fn new_block(&mut self) -> BlockId {
        let id = BlockId(self.blocks.len() as u32);
        self.blocks.push(Block::default());
        id
    }

    /// Adds an empty region, in no op yet.
    pub fn new_region(&mut self) -> RegionId {
        let id = RegionId(self.regions.len() as u32);
        self.regions.push(Region::default());
        id
    }

    /// Appends a block argument to `block`.
    pub fn add_block_arg(&mut self, block: BlockId, ty: TypeId, loc: AttrId) -> ValueId {
        let index = self.blocks[block.index()].args.len() as u32;
        let v = self.new_value(ty, ValueDef::BlockArg { block, index }, Some(loc));
        self.blocks[block.index()].args.push(v);
        v
    }

    /// Creates an operation with `result_types.len()` fresh results. The
    /// operation is not yet inserted in any block.
    #[allow(clippy::too_many_arguments)]
    pub fn new_op(
        &mut self,
        name: OpNameId,
        operands: &[ValueId],
        result_types: &[TypeId],
        successors: Vec<BlockId>,
        properties: Option<AttrId>,
        attributes: AttrId,
        regions: Vec<RegionId>,
        loc: AttrId,
    ) -> OpId {
        let id = OpId(self.ops.len() as u32);
        let first_result = self.values.len() as u32;
        for (i, &ty) in result_types.iter().enumerate() {
            self.new_value(
                ty,
                ValueDef::Result {
                    op: id,
                    index: i as u32,
                },
                None,
            );
        }
        for &r in &regions {
            self.regions[r.index()].parent = Some(id);
        }
        let start = u32::try_from(self.operand_pool.len()).expect("fewer than 2^32 operands");
        let len = u32::try_from(operands.len()).expect("fewer than 2^32 operands");
        start.checked_add(len).expect("fewer than 2^32 operands");
        self.operand_pool.extend_from_slice(operands);
        self.ops.push(Operation {
            name,
            operands: OperandRange { start, len },
            first_result,
            num_results: result_types.len() as u32,
            successor_list: thin_list(successors),
            properties,
            attributes,
            region_list: thin_list(regions),
            loc,
            parent: None,
        });
        id
    }

    /// Appends `op` to the ops of `block`.
    pub fn push_op(&mut self, block: BlockId, op: OpId) {
        self.ops[op.index()].parent = Some(block);
        self.blocks[block.index()].ops.push(op);
    }

    /// Appends `block` to the blocks of `region`.
    pub fn push_block(&mut self, region: RegionId, block: BlockId) {
        self.blocks[block.index()].parent = Some(region);
        self.regions[region.index()].blocks.push(block);
    }

    /// Makes the top-level operation from the ops parsed into `block` of
    /// `region`: a lone `builtin.module` is the top op itself; anything else
    /// is wrapped in an implicit `builtin.module` at `implicit_loc`, as
    /// MLIR's parser does (SPEC.md §3).
    pub fn set_top_level(&mut self, region: RegionId, block: BlockId, implicit_loc: AttrId) {
        let ops = &self.blocks[block.index()].ops;
        if ops.len() == 1 && self.op_name(ops[0]) == b"builtin.module" {
            let op = ops[0];
            self.ops[op.index()].parent = None;
            self.top = Some(op);
            return;
        }
        let name = self.op_names.intern(b"builtin.module");
        let dict = self
            .ctx
            .intern_attr(crate::attrs::AttrData::Dictionary(Vec::new()));
        let op = self.new_op(
            name,
            &[],
            &[],
            vec![],
            None,
            dict,
            vec![region],
            implicit_loc,
        );
        self.top = Some(op);
    }

    /// How far the arenas are filled, for [`Module::rewind`].
    pub fn mark(&self) -> ModuleMark {
        ModuleMark {
            ops: self.ops.len(),
            blocks: self.blocks.len(),
            regions: self.regions.len(),
            values: self.values.len(),
            operands: self.operand_pool.len(),
        }
    }

    /// Drops every op, block, region and value made since `mark`, and
    /// takes them out of the blocks and regions made before it: the
    /// module is again as it was at the mark (interned attributes and op
    /// names stay). A reader that gives up a read in progress uses it.
    pub fn rewind(&mut self, mark: ModuleMark) {
        self.ops.truncate(mark.ops);
        self.blocks.truncate(mark.blocks);
        self.regions.truncate(mark.regions);
        self.values.truncate(mark.values);
        self.operand_pool.truncate(mark.operands);
        for r in &mut self.regions {
            r.blocks.retain(|b| b.index() < mark.blocks);
        }
        for b in &mut self.blocks {
            b.ops.retain(|o| o.index() < mark.ops);
        }
        self.use_list_orders.retain(|v, _| v.index() < mark.values);
    }

    /// Moves the IR of `fragments` into this module, each fragment after
    /// the one before, and frees each once moved (SPEC.md §2.5.1). A
    /// fragment was read with a fork of this module's context, and its map
    /// says where the fork's own attributes and types went
    /// ([`Context::absorb`]); a fragment's context is no longer used.
    ///
    /// `roots` pairs a region of the fragment with an empty region of this
    /// module: the blocks read into the one become the blocks of the other.
    /// `block_roots` pairs a block of the fragment with a block of this
    /// module: the ops of the one are appended to the other. Every other
    /// region, block, op and value of the fragment is appended under new
    /// ids, and use-list orders move with their values.
    pub fn append_fragments<M: crate::IdMap + Sync>(&mut self, fragments: Vec<Fragment<M>>) {
        let total = |f: fn(&Module) -> usize| fragments.iter().map(|x| f(&x.module)).sum::<usize>();
        let roots = |f: &Fragment<M>| f.block_roots.len();
        let (ops, blocks, regions, values, operands) = (
            total(|m| m.ops.len()),
            total(|m| m.blocks.len()) - fragments.iter().map(roots).sum::<usize>(),
            total(|m| m.regions.len()),
            total(|m| m.values.len()),
            total(|m| m.operand_pool.len()),
        );
        // Every id of the merged module still fits in 32 bits.
        for (have, more) in [
            (self.ops.len(), ops),
            (self.blocks.len(), blocks),
            (self.regions.len(), regions),
            (self.values.len(), values),
            (self.operand_pool.len(), operands),
        ] {
            assert!(
                have.checked_add(more)
                    .is_some_and(|n| n < u32::MAX as usize),
                "fewer than 2^32 ops, blocks, regions, values and operands"
            );
        }
        self.ops.reserve_exact(ops);
        self.blocks.reserve_exact(blocks);
        self.regions.reserve_exact(regions);
        self.values.reserve_exact(values);
        self.operand_pool.reserve_exact(operands);
        for f in fragments {
            self.append_fragment(f);
        }
    }

    fn append_fragment<M: crate::IdMap + Sync>(&mut self, f: Fragment<M>) {
        let Fragment {
            module: frag,
            ids,
            roots,
            block_roots,
        } = f;
        debug_assert!(frag.top.is_none(), "a fragment has no top-level op");
        let id32 = |n: usize| u32::try_from(n).expect("ids are 32-bit");
        let op_base = id32(self.ops.len());
        let block_base = id32(self.blocks.len());
        let value_base = id32(self.values.len());
        let pool_base = id32(self.operand_pool.len());
        let names: Vec<OpNameId> = frag
            .op_names
            .names
            .iter()
            .map(|n| self.op_names.intern(n))
            .collect();
        let mut root_of: HashMap<RegionId, RegionId> = roots.iter().copied().collect();
        let mut next_region = self.regions.len();
        let region_map: Vec<RegionId> = (0..frag.regions.len())
            .map(|i| match root_of.get(&RegionId(i as u32)) {
                Some(&r) => r,
                None => {
                    next_region += 1;
                    RegionId(id32(next_region - 1))
                }
            })
            .collect();
        let block_root_of: HashMap<BlockId, BlockId> = block_roots.iter().copied().collect();
        let mut next_block = block_base as usize;
        let block_map: Vec<BlockId> = (0..frag.blocks.len())
            .map(|i| match block_root_of.get(&BlockId(i as u32)) {
                Some(&b) => b,
                None => {
                    next_block += 1;
                    BlockId(id32(next_block - 1))
                }
            })
            .collect();
        let op = |o: OpId| OpId(o.0 + op_base);
        let block = |b: BlockId| block_map[b.index()];
        let value = |v: ValueId| ValueId(v.0 + value_base);
        let Module {
            ops,
            blocks,
            regions,
            values,
            operand_pool,
            use_list_orders,
            ..
        } = self;
        let ids = &ids;
        // The ops are most of the bytes to move: another thread moves
        // them while this one moves the rest (every arena on its own).
        std::thread::scope(|s| {
            let ops_moved = s.spawn(|| {
                for mut o in crate::drain::Draining::new(frag.ops) {
                    o.name = names[o.name.index()];
                    o.operands.start += pool_base;
                    o.first_result += value_base;
                    if let Some(s) = &mut o.successor_list {
                        s.iter_mut().for_each(|b| *b = block(*b));
                    }
                    if let Some(p) = &mut o.properties {
                        *p = ids.attr(*p);
                    }
                    o.attributes = ids.attr(o.attributes);
                    if let Some(rs) = &mut o.region_list {
                        rs.iter_mut().for_each(|r| *r = region_map[r.index()]);
                    }
                    o.loc = ids.attr(o.loc);
                    o.parent = o.parent.map(block);
                    ops.push(o);
                }
            });
            for (i, mut b) in frag.blocks.into_iter().enumerate() {
                b.args.iter_mut().for_each(|v| *v = value(*v));
                b.ops.iter_mut().for_each(|o| *o = op(*o));
                match block_root_of.get(&BlockId(i as u32)) {
                    Some(target) => {
                        debug_assert!(b.args.is_empty(), "a root block has no arguments");
                        blocks[target.index()].ops.extend(b.ops);
                    }
                    None => {
                        b.parent = b.parent.map(|r| region_map[r.index()]);
                        blocks.push(b);
                    }
                }
            }
            for (i, mut r) in frag.regions.into_iter().enumerate() {
                r.blocks.iter_mut().for_each(|b| *b = block(*b));
                match root_of.remove(&RegionId(i as u32)) {
                    Some(target) => {
                        let t = &mut regions[target.index()];
                        debug_assert!(t.blocks.is_empty(), "a root's region is empty");
                        t.blocks = r.blocks;
                    }
                    None => {
                        r.parent = r.parent.map(op);
                        regions.push(r);
                    }
                }
            }
            for mut v in crate::drain::Draining::new(frag.values) {
                v.ty = ids.ty(v.ty);
                v.def = match v.def {
                    ValueDef::Result { op: o, index } => ValueDef::Result { op: op(o), index },
                    ValueDef::BlockArg { block: b, index } => ValueDef::BlockArg {
                        block: block(b),
                        index,
                    },
                    ValueDef::Placeholder => ValueDef::Placeholder,
                };
                v.loc = v.loc.map(|l| ids.attr(l));
                values.push(v);
            }
            operand_pool.extend(frag.operand_pool.iter().map(|&v| value(v)));
            use_list_orders.extend(
                frag.use_list_orders
                    .into_iter()
                    .map(|(v, order)| (value(v), order)),
            );
            // Joined, not left to the scope, which waits for the closure
            // only: the thread's exit (its thread-locals' teardown) would
            // race what the caller does next.
            if let Err(panic) = ops_moved.join() {
                std::panic::resume_unwind(panic);
            }
        });
    }

    /// The use-list orders of a text parse that left them to be derived
    /// ([`Module::text_forward_uses`]), or `None` when the module has
    /// them in `use_list_orders`.
    pub fn text_use_list_orders(&self) -> Option<HashMap<ValueId, Vec<u32>>> {
        self.text_use_list_orders_counted()
            .map(|(orders, _)| orders)
    }

    /// [`Module::text_use_list_orders`] with the number of uses of each
    /// value that has an order ([`crate::use_lists::use_counts`]).
    pub fn text_use_list_orders_counted(
        &self,
    ) -> Option<(crate::use_lists::Orders, crate::use_lists::UseCounts)> {
        let forward = self.text_forward_uses.as_ref()?;
        Some(crate::use_lists::text_parser_orders(self, |op, i| {
            !forward.is_empty() && forward.contains(&(op, i))
        }))
    }

    /// Derives the use-list orders a text parse left pending into
    /// `use_list_orders`.
    pub fn settle_use_list_orders(&mut self) {
        if let Some(orders) = self.text_use_list_orders() {
            self.use_list_orders = orders;
            self.text_forward_uses = None;
        }
    }

    /// The number of operations reachable from the top-level operation.
    pub fn num_live_ops(&self) -> usize {
        let mut n = 0;
        let mut stack: Vec<OpId> = self.top.into_iter().collect();
        while let Some(op) = stack.pop() {
            n += 1;
            for &r in self.op(op).regions() {
                for &b in &self.region(r).blocks {
                    stack.extend(self.block(b).ops.iter().copied());
                }
            }
        }
        n
    }
}
