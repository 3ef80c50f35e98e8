//! The bytecode reader (SPEC.md §6): every file mlir-opt 22 writes,
//! versions 0–6. Opening a file reads the header, the string, dialect,
//! resource and property tables and the top-level operation; attribute and
//! type entries are decoded on first use; the bodies of isolated regions
//! (nested IR sections, v2+) are decoded only when materialized.

mod attr_type_section;
mod binary_reader;
mod builtin_affine;
mod builtin_attrs;
mod builtin_types;
mod dialect_encodings;
mod dialect_hooks;
mod dialect_section;
mod ir_section;
mod parallel_bodies;
mod parse_ahead;
mod prefix;
mod properties;
mod resource_section;
mod retarget;
mod sections;
mod string_section;
mod symbol_scan;

use crate::error::Result;
use crate::limits::Limits;
use attr_type_section::AttrTypeTable;
use dialect_section::Dialects;
use rmlir_dialects::hosts::{self, Host};
use rmlir_format::bytecode::SectionId;
use rmlir_format::dialect_hooks::{DialectRegistry, DialectVersion};
use rmlir_format::op_registry::OpRegistry;
use rmlir_format::*;
use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

pub use ir_section::LazyRegions;
pub use prefix::{check_prefix, MAX_PRODUCER_LEN};
pub use rmlir_format::bytecode::SectionId as BytecodeSectionId;
pub use symbol_scan::TopLevelOp;

/// Where a top-level section lies in the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SectionInfo {
    /// Which section it is (SPEC.md §6.3).
    pub id: SectionId,
    /// Absolute offset of the section's data.
    pub offset: usize,
    /// Length of the section's data in bytes, padding excluded.
    pub len: usize,
    /// The alignment its header declared (1 when none).
    pub alignment: u64,
}

/// Counters that show what the reader has decoded (used by tests that prove
/// laziness by counting, not timing).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReadStats {
    /// Isolated region groups (nested IR sections) decoded so far.
    pub lazy_bodies_decoded: usize,
    /// Attribute and type table entries decoded so far.
    pub entries_decoded: usize,
    /// Of those, the entries parsed on several threads ahead of their
    /// uses (SPEC.md §6.6.1).
    pub parsed_ahead: usize,
}

/// How a bytecode file is read.
#[derive(Clone, Copy, Debug, Default)]
pub struct ReadOptions {
    /// The op layouts to decode properties payloads with. `None` (the
    /// default) picks them from the producer string (SPEC.md §7.2):
    /// `MLIR19.x` → MLIR 19's, anything else → MLIR 22's. Set it for files
    /// whose producer is not an MLIR release (`OpRegistry::for_release`).
    /// Payloads read with an older release's layouts are carried over to
    /// MLIR 22's (the module is always in MLIR 22's terms).
    pub layouts: Option<&'static OpRegistry>,
    /// The dialect hooks (SPEC.md §9); `None` is
    /// [`rmlir_dialects::upstream`].
    pub dialects: Option<&'static DialectRegistry>,
    /// Layouts of ops outside upstream MLIR (StableHLO's, a user's own;
    /// SPEC.md §7.3), consulted for ops that neither the registry nor the
    /// release's layouts know. Their payloads are taken as they are: no
    /// release carries them over. A function, called only when a file
    /// names an op the upstream layouts lack: loading the registry's index
    /// (`rmlir_dialects::out_of_tree_layouts`) is then not paid by every
    /// file.
    pub out_of_tree: Option<fn() -> &'static OpRegistry>,
    /// The tool whose terms the module is read into (SPEC.md §7.4): its
    /// release's op knowledge (payloads decoded with another release's
    /// layouts are carried over to it, §7.2), the dialects it registers
    /// (textual attribute entries are parsed as it parses them) and its
    /// reading of use-list records (§6.7.4). `None` is mlir-opt 22;
    /// `hosts::IREE_3_13` keeps an IREE file as IREE reads it, to be
    /// printed as IREE prints it or written again for IREE.
    pub host: Option<&'static Host>,
    /// Read past what no dialect we know decodes (SPEC.md §8.6), for
    /// `info` and `verify`, which need the structure and not the values:
    /// a registered op whose properties layout is unknown gets no
    /// properties (its payload is still checked to exist), and a custom
    /// attribute or type entry of a dialect without hooks becomes an
    /// opaque placeholder. Each is counted in
    /// [`BytecodeReader::undecoded`]. Off by default: the module is then
    /// complete or the read fails.
    pub skip_unknown: bool,
    /// Nesting and count limits (SPEC.md §5.1).
    pub limits: Limits,
}

/// What a read with [`ReadOptions::skip_unknown`] left undecoded.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Undecoded {
    /// Registered ops whose properties layout is unknown: how many were
    /// read, by op name.
    pub properties: BTreeMap<Vec<u8>, usize>,
    /// Custom attribute entries decoded to a placeholder, by dialect.
    pub attrs: BTreeMap<Vec<u8>, usize>,
    /// Custom type entries decoded to a placeholder, by dialect.
    pub types: BTreeMap<Vec<u8>, usize>,
}

impl Undecoded {
    /// Whether everything read was decoded.
    pub fn is_empty(&self) -> bool {
        self.properties.is_empty() && self.attrs.is_empty() && self.types.is_empty()
    }
}

/// Why the reader decodes properties with the layouts it does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LayoutsChoice {
    /// The producer string names a release we have layouts for.
    Producer,
    /// The producer names no MLIR release, or one we have no layouts for:
    /// the default release's.
    Default,
    /// Given by the caller ([`ReadOptions::layouts`], `open_with`).
    Given,
}

/// Offset sections at least this large are scanned on a thread of their
/// own while the other tables are read.
const PARALLEL_TABLE_BYTES: usize = 256 << 10;

/// A bytecode file opened for lazy reading. Borrows the input bytes.
pub struct BytecodeReader<'a> {
    version: u64,
    sections: Vec<SectionInfo>,
    producer: &'a [u8],
    strings: Vec<&'a [u8]>,
    dialects: Dialects<'a>,
    table: AttrTypeTable<'a>,
    /// Builtin dialect resource keys by handle number.
    resource_keys: Vec<Vec<u8>>,
    properties: properties::PropertiesTable<'a>,
    /// The module's op knowledge (MLIR 22's unless given another).
    registry: &'a OpRegistry,
    /// The tool whose terms the module is read in ([`ReadOptions::host`]).
    host: &'static Host,
    /// [`ReadOptions::skip_unknown`], and what it skipped.
    skip_unknown: bool,
    undecoded: Undecoded,
    /// The layouts properties payloads are decoded with: `registry`, or an
    /// older release's (then carried over to `registry`'s, `retarget.rs`).
    layouts: &'a OpRegistry,
    layouts_choice: LayoutsChoice,
    /// Layouts of ops outside upstream MLIR ([`ReadOptions::out_of_tree`]).
    out_of_tree: Option<fn() -> &'static OpRegistry>,
    hooks: &'a DialectRegistry,
    /// Dialect versions parsed by their hooks, by dialect index.
    versions: RefCell<HashMap<usize, Option<Arc<dyn DialectVersion>>>>,
    limits: Limits,
    module: Module,
    lazy: BTreeMap<OpId, LazyRegions<'a>>,
    stats: ReadStats,
    /// Per op name of the dialect section: its interned id in `module`
    /// (once an op of that name was read) and its `registry` and `layouts`
    /// entries, looked up once instead of per op.
    op_name_cache: Vec<OpNameCache<'a>>,
    /// Locations' file names by their `StringAttr`: shared, one
    /// allocation per file rather than per location.
    file_names: rmlir_format::fasthash::FastMap<AttrId, rmlir_format::FileName>,
    /// The empty dictionary, once interned: the attributes of every op
    /// that has none.
    empty_dict: Option<AttrId>,
}

#[derive(Clone, Copy, Default)]
struct OpNameCache<'a> {
    id: Option<rmlir_format::OpNameId>,
    info: Option<&'a rmlir_format::op_registry::OpInfo>,
    layout: Option<&'a rmlir_format::op_registry::OpInfo>,
}

impl<'a> BytecodeReader<'a> {
    /// Opens `data` with the default registry (mlir-opt 22), decoding
    /// properties with the layouts of the release its producer names.
    pub fn open(data: &'a [u8]) -> Result<Self> {
        Self::open_with_options(data, &ReadOptions::default())
    }

    /// [`BytecodeReader::open`] with explicit [`Limits`] (they also apply
    /// to regions materialized later).
    pub fn open_with_limits(data: &'a [u8], limits: Limits) -> Result<Self> {
        Self::open_with_options(
            data,
            &ReadOptions {
                limits,
                ..Default::default()
            },
        )
    }

    /// Opens a shared buffer (e.g. a memory map): resource blobs of the
    /// module borrow from it instead of being copied.
    pub fn open_shared(owner: &'a SharedBytes) -> Result<Self> {
        Self::open_shared_with_options(owner, &ReadOptions::default())
    }

    /// Opens `data` with explicit [`ReadOptions`].
    pub fn open_with_options(data: &'a [u8], opts: &ReadOptions) -> Result<Self> {
        Self::open_parts(
            data,
            opts.host.map_or(OpRegistry::default_ref(), Host::ops),
            opts.host.unwrap_or(&hosts::MLIR_OPT_22),
            opts.skip_unknown,
            opts.layouts,
            opts.out_of_tree,
            opts.dialects.unwrap_or(rmlir_dialects::upstream()),
            None,
            opts.limits,
            None,
        )
        .map(|(r, _)| r)
    }

    /// [`BytecodeReader::open_shared`] with explicit [`ReadOptions`].
    pub fn open_shared_with_options(owner: &'a SharedBytes, opts: &ReadOptions) -> Result<Self> {
        Self::open_shared_listing(owner, opts, None).map(|(r, _)| r)
    }

    /// Opens a shared buffer; with `listing`, also skims the module body
    /// while the attribute table is read ([`BytecodeReader::open_listing`]).
    fn open_shared_listing(
        owner: &'a SharedBytes,
        opts: &ReadOptions,
        listing: Option<&mut dyn FnMut(usize, usize)>,
    ) -> Result<(Self, Option<symbol_scan::Skimmed<'a>>)> {
        Self::open_parts(
            (**owner).as_ref(),
            opts.host.map_or(OpRegistry::default_ref(), Host::ops),
            opts.host.unwrap_or(&hosts::MLIR_OPT_22),
            opts.skip_unknown,
            opts.layouts,
            opts.out_of_tree,
            opts.dialects.unwrap_or(rmlir_dialects::upstream()),
            Some(owner),
            opts.limits,
            listing,
        )
    }

    /// Opens `data` with a registry of one's own (e.g. with an out-of-tree
    /// dialect's layouts), used for every file whatever its producer.
    pub fn open_with(data: &'a [u8], registry: &'a OpRegistry) -> Result<Self> {
        Self::open_impl(
            data,
            registry,
            Some(registry),
            rmlir_dialects::upstream(),
            None,
            Limits::default(),
        )
    }

    /// Opens `data` with the given op layouts and dialect hooks (SPEC.md
    /// §9); `owner`, when given, is the shared buffer `data` lies in.
    pub fn open_with_dialects(
        data: &'a [u8],
        registry: &'a OpRegistry,
        hooks: &'a DialectRegistry,
        owner: Option<&'a SharedBytes>,
    ) -> Result<Self> {
        Self::open_impl(
            data,
            registry,
            Some(registry),
            hooks,
            owner,
            Limits::default(),
        )
    }

    fn open_impl(
        data: &'a [u8],
        registry: &'a OpRegistry,
        layouts: Option<&'a OpRegistry>,
        hooks: &'a DialectRegistry,
        owner: Option<&SharedBytes>,
        limits: Limits,
    ) -> Result<Self> {
        Self::open_parts(
            data,
            registry,
            &hosts::MLIR_OPT_22,
            false,
            layouts,
            None,
            hooks,
            owner,
            limits,
            None,
        )
        .map(|(r, _)| r)
    }

    /// [`BytecodeReader::open_impl`], and with `listing` the module body
    /// skimmed while the attribute table is read (`None` where the skim
    /// failed or the body is not a lazily loaded one: the scan then runs
    /// after opening and reports what it finds).
    #[allow(clippy::too_many_arguments)]
    fn open_parts(
        data: &'a [u8],
        registry: &'a OpRegistry,
        host: &'static Host,
        skip_unknown: bool,
        layouts: Option<&'a OpRegistry>,
        out_of_tree: Option<fn() -> &'static OpRegistry>,
        hooks: &'a DialectRegistry,
        owner: Option<&SharedBytes>,
        limits: Limits,
        listing: Option<&mut dyn FnMut(usize, usize)>,
    ) -> Result<(Self, Option<symbol_scan::Skimmed<'a>>)> {
        let header = sections::read_header(data)?;
        let (layouts, layouts_choice) = match layouts {
            Some(l) => (l, LayoutsChoice::Given),
            None => match OpRegistry::for_producer(header.producer) {
                (l, true) => (l as &OpRegistry, LayoutsChoice::Producer),
                (l, false) => (l as &OpRegistry, LayoutsChoice::Default),
            },
        };
        let sec = |id: SectionId| header.sections[id as usize].expect("checked by read_header");
        let reader = |s: sections::Section<'a>| s.reader().limited(limits.max_count);
        let strings = string_section::read_strings(reader(sec(SectionId::String)))?;
        let read_properties = || match header.sections[SectionId::Properties as usize] {
            Some(s) => properties::PropertiesTable::read(reader(s)),
            None => Ok(properties::PropertiesTable::empty()),
        };
        let dialects = dialect_section::read_dialects(
            reader(sec(SectionId::Dialect)),
            header.version,
            &strings,
        );
        // The attribute/type offset section is scanned entry by entry; in
        // a large file (millions of entries) that is the longest part of
        // opening it, so it runs beside the properties table's scan
        // (SPEC.md §6.6).
        let offsets = reader(sec(SectionId::AttrTypeOffset));
        let entries = sec(SectionId::AttrType);
        let parallel = offsets.remaining() >= PARALLEL_TABLE_BYTES;
        let read_table = |n| AttrTypeTable::read(offsets.clone(), entries, n);
        let op_name_cache: Vec<OpNameCache> = match &dialects {
            Ok(d) => d
                .op_names
                .iter()
                .map(|e| {
                    // An op the file says was unregistered has no layout
                    // to find: its name alone does not build the
                    // out-of-tree registry.
                    let extra = || {
                        out_of_tree
                            .filter(|_| e.registered != Some(false))
                            .and_then(|x| x().get(&e.name))
                    };
                    // Without a flag (before v5), an op of an upstream
                    // dialect the host does not register is unregistered
                    // (SPEC.md §7.4): mlir-opt 22 keeps `vcix` ops'
                    // attributes in their dictionaries.
                    if e.registered.is_none() && host.leaves_unregistered(&e.name) {
                        return OpNameCache {
                            id: None,
                            info: None,
                            layout: None,
                        };
                    }
                    OpNameCache {
                        id: None,
                        info: registry.get(&e.name).or_else(extra),
                        layout: layouts.get(&e.name).or_else(extra),
                    }
                })
                .collect(),
            Err(_) => Vec::new(),
        };
        // `open_listing`: the module body is skimmed while the table is
        // read (SPEC.md §6.7.5), with the counts the offset section starts
        // with; the symbols are read from the table afterwards.
        let skim_body = |properties: &Result<properties::PropertiesTable<'a>>,
                         dialects: &Dialects<'a>,
                         listing: Option<&mut dyn FnMut(usize, usize)>| {
            let (Ok(properties), Some(release)) = (properties, listing) else {
                return None;
            };
            let mut counts = offsets.clone();
            let skim = symbol_scan::Skim::new(
                header.version,
                &dialects.op_names,
                &op_name_cache,
                properties,
                usize::try_from(counts.read_varint().ok()?).ok()?,
                usize::try_from(counts.read_varint().ok()?).ok()?,
                limits.max_region_depth,
            );
            skim.top_level_body(reader(sec(SectionId::Ir)), release)?
                .ok()
        };
        let (table, properties, skimmed) = match (&dialects, listing) {
            (Ok(d), listing) if parallel => std::thread::scope(|s| {
                let n = d.dialects.len();
                let table = s.spawn(move || read_table(n));
                let properties = read_properties();
                let skimmed = skim_body(&properties, d, listing);
                let table = table.join().expect("the table scan does not panic");
                (Some(table), properties, skimmed)
            }),
            (Ok(d), listing) => {
                // The same steps on one thread (the scan's tests go this
                // way, through small files).
                let properties = read_properties();
                let skimmed = skim_body(&properties, d, listing);
                (Some(read_table(d.dialects.len())), properties, skimmed)
            }
            (Err(_), _) => (None, read_properties(), None),
        };
        // Errors in the order the sections are read one by one.
        let properties = properties?;
        let dialects = dialects?;
        let mut module = Module::new();
        let mut resource_keys = Vec::new();
        if let (Some(offsets), Some(res)) = (
            header.sections[SectionId::ResourceOffset as usize],
            header.sections[SectionId::Resource as usize],
        ) {
            resource_keys = resource_section::read_resources(
                reader(offsets),
                reader(res),
                &strings,
                &dialects,
                owner,
                &mut module.resources,
            )?;
        }
        let table = table.expect("read once the dialects were")?;
        let section_info = header
            .sections
            .iter()
            .flatten()
            .map(|s| SectionInfo {
                id: s.id,
                offset: s.offset,
                len: s.data.len(),
                alignment: s.alignment,
            })
            .collect();
        let mut r = BytecodeReader {
            op_name_cache,
            file_names: Default::default(),
            empty_dict: None,
            version: header.version,
            sections: section_info,
            producer: header.producer,
            strings,
            dialects,
            table,
            resource_keys,
            properties,
            registry,
            host,
            skip_unknown,
            undecoded: Undecoded::default(),
            layouts,
            layouts_choice,
            out_of_tree,
            hooks,
            versions: RefCell::new(HashMap::new()),
            limits,
            module,
            lazy: BTreeMap::new(),
            stats: ReadStats::default(),
        };
        r.module.dialect_versions = r
            .dialects
            .dialects
            .iter()
            .filter_map(|d| d.version.map(|v| (d.name.into(), v.to_vec())))
            .collect();
        r.module.unregistered_names = r
            .dialects
            .op_names
            .iter()
            .filter(|o| o.registered == Some(false))
            .map(|o| o.name[..].into())
            .collect();
        r.read_top_level(reader(sec(SectionId::Ir)))?;
        if let Some(top) = r.module.top {
            r.run_upgrades(top)?;
        }
        Ok((r, skimmed))
    }

    /// The bytecode version the header declares (0–6; SPEC.md §6.2).
    pub fn version(&self) -> u64 {
        self.version
    }

    /// The MLIR release whose op layouts decode the properties payloads
    /// (`19.1.7`, `22.1.8`), and why.
    pub fn layouts_release(&self) -> (&str, LayoutsChoice) {
        (self.layouts.release(), self.layouts_choice)
    }

    /// The producer string of the header (`MLIR22.1.8`, ...).
    pub fn producer(&self) -> &'a [u8] {
        self.producer
    }

    /// What a read with [`ReadOptions::skip_unknown`] left undecoded so
    /// far.
    pub fn undecoded(&self) -> &Undecoded {
        &self.undecoded
    }

    /// The custom attribute and type entries of the attribute/type table
    /// whose dialect we have no hooks for (and which are not builtin), by
    /// dialect: `(attributes, types)`. Read from the table's metadata, so
    /// nothing is decoded.
    pub fn entries_without_encodings(&self) -> BTreeMap<Vec<u8>, (usize, usize)> {
        let mut out: BTreeMap<Vec<u8>, (usize, usize)> = BTreeMap::new();
        // Only the groups of dialects without hooks are read: a large
        // module's table has millions of entries (SPEC.md §8.4).
        let unknown: Vec<bool> = self
            .dialects
            .dialects
            .iter()
            .map(|d| d.name != b"builtin" && self.hook(d.name).is_none())
            .collect();
        if !unknown.contains(&true) {
            return out;
        }
        for (dialect, attrs, types) in self.table.custom_entries_of(&unknown) {
            if attrs + types > 0 {
                let e = out
                    .entry(self.dialects.dialects[dialect].name.to_vec())
                    .or_default();
                e.0 += attrs;
                e.1 += types;
            }
        }
        out
    }

    /// The top-level sections, in id order.
    pub fn sections(&self) -> &[SectionInfo] {
        &self.sections
    }

    /// Entries in the string table (SPEC.md §6.4).
    pub fn num_strings(&self) -> usize {
        self.strings.len()
    }

    /// Entries in the attribute and type tables.
    pub fn num_attrs_types(&self) -> (usize, usize) {
        (self.table.attrs.len(), self.table.types.len())
    }

    /// Operation names with their `wasRegistered` flag (v5+).
    pub fn op_names(&self) -> impl Iterator<Item = (&[u8], Option<bool>)> + '_ {
        self.dialects
            .op_names
            .iter()
            .map(|o| (&o.name[..], o.registered))
    }

    /// The registered op names of the op name table whose properties we
    /// could not decode: no layout (upstream, out-of-tree or the user's)
    /// and no properties hook knows them. Only files with properties
    /// payloads (v5+) can have such ops.
    pub fn ops_without_layouts(&self) -> Vec<&[u8]> {
        if self.version < rmlir_format::bytecode::VERSION_NATIVE_PROPERTIES {
            return Vec::new();
        }
        self.dialects
            .op_names
            .iter()
            .zip(&self.op_name_cache)
            .filter(|(o, c)| {
                o.registered == Some(true)
                    && c.layout.is_none()
                    && c.info.is_none()
                    && self.hooks.properties_hook(&o.name).is_none()
            })
            .map(|(o, _)| &o.name[..])
            .collect()
    }

    /// Each dialect's name and, when it wrote one, its version payload.
    pub fn dialects(&self) -> impl Iterator<Item = (&'a [u8], Option<&'a [u8]>)> + '_ {
        self.dialects.dialects.iter().map(|d| (d.name, d.version))
    }

    /// The module as decoded so far (lazy regions are empty until materialized).
    pub fn module(&self) -> &Module {
        &self.module
    }

    /// What has been decoded so far.
    pub fn stats(&self) -> ReadStats {
        self.stats
    }

    /// Operations whose (isolated) regions have not been decoded yet.
    pub fn pending(&self) -> impl Iterator<Item = OpId> + '_ {
        self.lazy.keys().copied()
    }

    /// Whether the regions of `op` are still left to decode.
    pub fn is_pending(&self, op: OpId) -> bool {
        self.lazy.contains_key(&op)
    }

    /// Decodes the regions of `op` if they were left lazy; nested isolated
    /// regions inside stay lazy.
    pub fn materialize(&mut self, op: OpId) -> Result<()> {
        if let Some(l) = self.lazy.remove(&op) {
            self.stats.lazy_bodies_decoded += 1;
            self.read_lazy_regions(op, l)?;
            self.run_upgrades(op)?;
        }
        Ok(())
    }

    /// Makes room in the module's context for every attribute and type
    /// entry of the file, for a caller about to materialize everything
    /// (the command line's `decode`, `encode`, `convert`): no rehashing or
    /// copying as the tables fill. The counts were checked against the
    /// offset section's bytes (at least one per entry) when it was read.
    /// Not done by `materialize_all` itself, which also serves callers
    /// that bound the memory a small hostile file may take.
    ///
    /// It also decodes the table's plain locations ahead, in
    /// batches that overlap their interning's cache misses (SPEC.md
    /// §6.6.1): everything is about to be read anyway.
    ///
    /// The file locations are parsed on all cores for a table of 16k
    /// entries or more (`parse_ahead.rs`).
    pub fn reserve_for_full_read(&mut self) {
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        self.reserve_and_predecode(threads, parse_ahead::RUN, parse_ahead::PARALLEL_MIN_ENTRIES);
    }

    /// [`BytecodeReader::reserve_for_full_read`] with the file locations
    /// parsed on `threads` threads in runs of 16 entries, whatever the
    /// table's size: tests cover the parallel parse with small files.
    pub fn reserve_for_full_read_on(&mut self, threads: usize) {
        self.reserve_and_predecode(threads, 16, 0);
    }

    fn reserve_and_predecode(&mut self, threads: usize, run: usize, min_entries: usize) {
        let (attrs, types) = (self.table.attrs.len(), self.table.types.len());
        // The decoded-entry caches are read before they are written, entry
        // by entry: their pages are made present now, before other threads
        // start (SPEC.md §6.6.1).
        crate::prefault::populate_now(self.table.cache_ranges());
        self.module.ctx.reserve(attrs, types);
        crate::prefault::populate_in_background(self.module.ctx.unwritten_reserve());
        self.parse_table_ahead(threads, run, min_entries);
        self.predecode_locations();
    }

    /// Decodes every pending region, recursively.
    pub fn materialize_all(&mut self) -> Result<()> {
        while let Some((&op, _)) = self.lazy.iter().next() {
            self.materialize(op)?;
        }
        Ok(())
    }

    /// The module; regions still pending stay empty.
    pub fn into_module(self) -> Module {
        self.module
    }
}

/// Reads a whole bytecode file eagerly into a [`Module`].
pub fn read_bytecode(data: &[u8]) -> Result<Module> {
    read_bytecode_with_options(data, &ReadOptions::default())
}

/// The producer string of a bytecode file, read from its header alone (to
/// choose [`ReadOptions::host`] before opening it).
pub fn producer_of(data: &[u8]) -> Result<&[u8]> {
    sections::read_header(data).map(|h| h.producer)
}

/// [`read_bytecode`] with options (e.g. the op layouts of an MLIR release
/// for a file whose producer does not name one).
pub fn read_bytecode_with_options(data: &[u8], opts: &ReadOptions) -> Result<Module> {
    let mut r = BytecodeReader::open_with_options(data, opts)?;
    r.materialize_all()?;
    Ok(r.into_module())
}

/// [`read_bytecode`] with explicit [`Limits`].
pub fn read_bytecode_with_limits(data: &[u8], limits: Limits) -> Result<Module> {
    let mut r = BytecodeReader::open_with_limits(data, limits)?;
    r.materialize_all()?;
    Ok(r.into_module())
}

/// Reads a whole bytecode file held in a shared buffer (e.g. a memory map);
/// resource blobs borrow from the buffer.
pub fn read_bytecode_shared(owner: &SharedBytes) -> Result<Module> {
    let mut r = BytecodeReader::open_shared(owner)?;
    r.materialize_all()?;
    Ok(r.into_module())
}

/// Whether `data` starts with the bytecode magic.
pub fn is_bytecode(data: &[u8]) -> bool {
    data.starts_with(&rmlir_format::bytecode::MAGIC)
}
