//! Operation knowledge as data (SPEC.md §7): for each registered op, its
//! traits, its inherent attributes and the positional layout of its
//! properties payload at bytecode v5 and v6. The default registry is
//! MLIR 22's upstream dialects, generated from ODS by
//! `tools/ods-layouts/gen_layouts.py` into `format/data/ods-layouts-22.json`
//! and embedded as bincode by `build.rs`; the layouts of older releases
//! (`ods-layouts-19.json`) are embedded the same way, for reading files
//! those releases wrote (SPEC.md §7.2).

mod json;
mod model;

use crate::attrs::AttrData;
use crate::context::{AttrId, Context};
use crate::fasthash::FastMap as HashMap;
use model::EmbeddedIndex;
pub use model::{Field, FieldKind, OpInfo, RegistryData};
use std::borrow::Cow;
use std::sync::OnceLock;

/// Registered operations by name.
#[derive(Clone, Debug, Default)]
pub struct OpRegistry {
    release: String,
    ops: HashMap<Cow<'static, [u8]>, OpSlot>,
}

/// One op of a registry: given whole, or (embedded layouts) deserialized
/// from its own bincode at its first lookup. A file names a few dozen of
/// MLIR's 2,635 ops; decoding them all took a few milliseconds of every
/// run (SPEC.md §7.1). The layout is boxed: the slots of all 2,635 stay
/// small (a map of a quarter of the pages every process faults in).
#[derive(Clone, Debug)]
struct OpSlot {
    info: OnceLock<Box<OpInfo>>,
    encoded: &'static [u8],
}

impl OpSlot {
    fn get(&self) -> &OpInfo {
        self.info.get_or_init(|| {
            Box::new(
                bincode::deserialize(self.encoded).expect("embedded op layout is valid bincode"),
            )
        })
    }
}

/// The MLIR releases whose upstream op layouts are embedded, oldest first
/// (SPEC.md §7.2). MLIR 22 (`DEFAULT_RELEASE`) is what we write and the
/// terms of every module; a file whose producer names another release is
/// read with that release's layouts (the nearest one we have, for a
/// release we have none for) and carried over to MLIR 22's. 24.0.0git is
/// the MLIR of IREE 3.13, made by `tools/ods-py/gen.py` from its Python op
/// classes.
pub const KNOWN_RELEASES: &[&str] = &["19.1.7", "22.1.8", "23.0.0git", "24.0.0git"];

/// The major version of each of [`KNOWN_RELEASES`], in its order, read
/// from their names when this crate is compiled.
const KNOWN_MAJORS: [u32; 4] = [
    leading_number(KNOWN_RELEASES[0]),
    leading_number(KNOWN_RELEASES[1]),
    leading_number(KNOWN_RELEASES[2]),
    leading_number(KNOWN_RELEASES[3]),
];

/// The decimal number `s` starts with (`"22.1.8"` → 22).
const fn leading_number(s: &str) -> u32 {
    let b = s.as_bytes();
    let (mut i, mut n) = (0, 0u32);
    while i < b.len() && b[i].is_ascii_digit() {
        n = n * 10 + (b[i] - b'0') as u32;
        i += 1;
    }
    n
}

/// The index in [`KNOWN_RELEASES`] of the release we write (and the
/// module's terms): MLIR 22.
const DEFAULT_RELEASE: usize = 1;

/// Per release: the index of its ops, and the blob of their layouts.
static EMBEDDED: [(&[u8], &[u8]); 4] = [
    (
        include_bytes!(concat!(env!("OUT_DIR"), "/ods-layouts-19.index")),
        include_bytes!(concat!(env!("OUT_DIR"), "/ods-layouts-19.ops.bincode")),
    ),
    (
        include_bytes!(concat!(env!("OUT_DIR"), "/ods-layouts-22.index")),
        include_bytes!(concat!(env!("OUT_DIR"), "/ods-layouts-22.ops.bincode")),
    ),
    (
        include_bytes!(concat!(env!("OUT_DIR"), "/ods-layouts-23.index")),
        include_bytes!(concat!(env!("OUT_DIR"), "/ods-layouts-23.ops.bincode")),
    ),
    (
        include_bytes!(concat!(env!("OUT_DIR"), "/ods-layouts-24.index")),
        include_bytes!(concat!(env!("OUT_DIR"), "/ods-layouts-24.ops.bincode")),
    ),
];

/// The major version of a release name: `19`, `19.1.7`, `mlir-19`,
/// `MLIR19.1.7` all give 19.
fn major_of(name: &str) -> Option<u32> {
    let lower = name.trim().to_ascii_lowercase();
    let rest = lower
        .strip_prefix("mlir-")
        .or_else(|| lower.strip_prefix("mlir"))
        .unwrap_or(&lower);
    let digits: &str = rest.split('.').next().unwrap_or("");
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// The MLIR major version named by a bytecode producer string: upstream
/// MLIR writes `MLIR` followed by its LLVM version (`MLIR19.1.7`,
/// `MLIR20.0.0git`). `None` for any other producer.
pub fn producer_major(producer: &[u8]) -> Option<u32> {
    let rest = producer.strip_prefix(b"MLIR")?;
    let n = rest.iter().take_while(|b| b.is_ascii_digit()).count();
    if n == 0 || n > 4 {
        return None;
    }
    std::str::from_utf8(&rest[..n]).ok()?.parse().ok()
}

impl OpRegistry {
    /// An empty registry: every op is unregistered.
    pub fn new() -> Self {
        Self::default()
    }

    /// MLIR 22's upstream dialects; what every reader uses unless given
    /// another registry, and what the writer writes.
    pub fn default_ref() -> &'static OpRegistry {
        Self::embedded(DEFAULT_RELEASE)
    }

    fn embedded(i: usize) -> &'static OpRegistry {
        static LOADED: [OnceLock<OpRegistry>; 4] = [
            OnceLock::new(),
            OnceLock::new(),
            OnceLock::new(),
            OnceLock::new(),
        ];
        LOADED[i].get_or_init(|| {
            let (index, blob) = EMBEDDED[i];
            Self::from_embedded(index, blob).expect("embedded op registry is valid bincode")
        })
    }

    /// A registry of layouts a build script serialized, as this crate's
    /// `build.rs` does each release's: `index` is the bincode of
    /// `model::EmbeddedIndex` (the release, and each op's name and byte
    /// range in `blob`), `blob` the concatenated bincode of each
    /// [`OpInfo`]. Only the index is read here; an op is decoded at its
    /// first lookup (SPEC.md §7.1). `rmlir-dialects` embeds its
    /// out-of-tree layouts so.
    pub fn from_embedded(index: &'static [u8], blob: &'static [u8]) -> Result<Self, String> {
        let data: EmbeddedIndex<'static> =
            bincode::deserialize(index).map_err(|e| format!("not an op layout index: {e}"))?;
        let mut ops = HashMap::with_capacity_and_hasher(data.ops.len(), Default::default());
        for (name, start, end) in data.ops {
            let encoded = blob
                .get(start as usize..end as usize)
                .ok_or_else(|| format!("op '{name}' lies outside the layout blob"))?;
            let slot = OpSlot {
                info: OnceLock::new(),
                encoded,
            };
            ops.insert(Cow::Borrowed(name.as_bytes()), slot);
        }
        Ok(OpRegistry {
            release: data.mlir_release.to_string(),
            ops,
        })
    }

    /// The embedded upstream layouts of an MLIR release, by major version:
    /// `"19"`, `"19.1.7"`, `"mlir-19"` and `"MLIR19.1.7"` all name 19.1.7.
    /// `None` for a release we have no layouts for ([`KNOWN_RELEASES`]).
    pub fn for_release(name: &str) -> Option<&'static OpRegistry> {
        Self::for_major(major_of(name)?)
    }

    /// The layouts of the known release whose major version is `major`
    /// (`22` → 22.1.8). Asked per op by printers, so it neither parses
    /// nor allocates.
    pub fn for_major(major: u32) -> Option<&'static OpRegistry> {
        KNOWN_MAJORS
            .iter()
            .position(|&m| m == major)
            .map(Self::embedded)
    }

    /// The releases [`OpRegistry::for_release`] knows, oldest first.
    pub fn known_releases() -> &'static [&'static str] {
        KNOWN_RELEASES
    }

    /// The layouts to read a bytecode file with, from its producer string:
    /// a known MLIR release's own (`MLIR19.1.7` → 19.1.7); for another
    /// MLIR release the nearest we have, the newer of two as near
    /// (`MLIR23.0.0git`, jaxlib's, → 24.0.0git: its ops already have the
    /// attributes MLIR 23 added); the default (22) for producers that are
    /// not an MLIR release. The flag says whether the producer named a
    /// known release.
    pub fn for_producer(producer: &[u8]) -> (&'static OpRegistry, bool) {
        let Some(major) = producer_major(producer) else {
            return (Self::default_ref(), false);
        };
        if let Some(r) = Self::for_release(&major.to_string()) {
            return (r, true);
        }
        let nearest = (0..KNOWN_RELEASES.len())
            .filter_map(|i| Some((i, major_of(KNOWN_RELEASES[i])?)))
            .min_by_key(|&(_, m)| (m.abs_diff(major), std::cmp::Reverse(m)))
            .map_or(DEFAULT_RELEASE, |(i, _)| i);
        (Self::embedded(nearest), false)
    }

    /// A registry of the ops of `data`.
    pub fn from_data(data: RegistryData) -> Self {
        let mut r = OpRegistry {
            release: data.mlir_release,
            ops: HashMap::with_capacity_and_hasher(data.ops.len(), Default::default()),
        };
        for op in data.ops {
            r.insert(op);
        }
        r
    }

    /// Adds the ops of a layout file made by `tools/ods-layouts/gen_layouts.py`
    /// (e.g. for an out-of-tree dialect), replacing ops of the same name.
    pub fn load_json(&mut self, text: &str) -> Result<usize, String> {
        let data = json::registry_data_from_json(text)?;
        let n = data.ops.len();
        for op in data.ops {
            self.insert(op);
        }
        Ok(n)
    }

    /// Adds (or replaces) an op, e.g. from a user's out-of-tree layout file.
    pub fn insert(&mut self, info: OpInfo) {
        let name = Cow::Owned(info.name.as_bytes().to_vec());
        let slot = OpSlot {
            info: OnceLock::from(Box::new(info)),
            encoded: &[],
        };
        self.ops.insert(name, slot);
    }

    /// What the registry knows of op `name` (`dialect.op`), if anything.
    pub fn get(&self, name: &[u8]) -> Option<&OpInfo> {
        self.ops.get(name).map(OpSlot::get)
    }

    /// The MLIR release the data was generated from (`22.1.8`).
    pub fn release(&self) -> &str {
        &self.release
    }

    /// The registry with its release (or description) replaced.
    pub fn with_release(mut self, release: String) -> Self {
        self.release = release;
        self
    }

    /// The major version of [`OpRegistry::release`] (22), if it names one.
    pub fn release_major(&self) -> Option<u32> {
        major_of(&self.release)
    }

    /// Whether this is the embedded registry of another release than the
    /// default, i.e. its layouts are not what we write.
    pub fn is_other_release(&self) -> bool {
        !std::ptr::eq(self, Self::default_ref())
            && (0..KNOWN_RELEASES.len()).any(|i| std::ptr::eq(self, Self::embedded(i)))
    }

    /// Iterates over the ops (in no particular order).
    pub fn ops(&self) -> impl Iterator<Item = &OpInfo> {
        self.ops.values().map(OpSlot::get)
    }

    /// The number of ops.
    pub fn len(&self) -> usize {
        self.ops.len()
    }

    /// Whether the registry has no ops.
    pub fn is_empty(&self) -> bool {
        self.ops.is_empty()
    }
}

/// An op's properties as MLIR holds them after creating it (SPEC.md §7.1):
/// its `defaults` (a dictionary), with every entry of `given` (the
/// properties the input wrote, if any) replacing the default of the same
/// name. Non-dictionary properties are kept as given.
pub fn merge_default_properties(
    ctx: &mut Context,
    defaults: AttrId,
    given: Option<AttrId>,
) -> AttrId {
    let Some(given) = given else {
        return defaults;
    };
    let (AttrData::Dictionary(d), AttrData::Dictionary(g)) = (ctx.attr(defaults), ctx.attr(given))
    else {
        return given;
    };
    if d.iter().all(|(k, _)| g.iter().any(|(gk, _)| gk == k)) {
        return given;
    }
    let mut merged = g.clone();
    for (k, v) in d {
        if !g.iter().any(|(gk, _)| gk == k) {
            merged.push((k.clone(), *v));
        }
    }
    merged.sort_by(|a, b| a.0.cmp(&b.0));
    ctx.intern_attr(AttrData::Dictionary(merged))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_registry_has_every_upstream_op() {
        let r = OpRegistry::default_ref();
        assert_eq!(r.release(), "22.1.8");
        assert_eq!(r.len(), 2635);
        let f = r.get(b"func.func").expect("func.func");
        assert!(f.isolated_from_above);
        let names: Vec<&str> = f.fields_v6.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "arg_attrs",
                "function_type",
                "no_inline",
                "res_attrs",
                "sym_name",
                "sym_visibility"
            ]
        );
        let alloc = r.get(b"memref.alloc").unwrap();
        let mut user = OpRegistry::new();
        let n = user
            .load_json(r#"{"ops": [{"name": "my.op", "attr_names": ["a"], "write_properties": true,
                "v5": [{"name": "a", "kind": "opt_attr"}], "v6": [{"name": "a", "kind": "opt_attr"}]}]}"#)
            .unwrap();
        assert_eq!(n, 1);
        assert_eq!(
            user.get(b"my.op").unwrap().fields_v6[0].kind,
            FieldKind::OptAttr
        );
        assert!(user
            .load_json(r#"{"ops": [{"name": "x", "v6": [{"name": "f", "kind": "wat"}]}]}"#)
            .is_err());
        assert_eq!(alloc.fields_v5[1].kind, FieldKind::LegacySegments);
        assert_eq!(
            f.fields_v6[1].ctype.as_deref(),
            Some("::mlir::TypeAttr"),
            "function_type's C++ type"
        );
        assert_eq!(
            alloc.fields_v6[1].kind,
            FieldKind::SparseSegments { size: 2 }
        );
    }
}

#[cfg(test)]
mod release_tests {
    use super::*;

    #[test]
    fn releases_by_name_and_producer() {
        let r19 = OpRegistry::for_release("19").expect("19");
        assert_eq!(r19.release(), "19.1.7");
        for n in ["19.1.7", "mlir-19", "MLIR19.1.0", " 19 "] {
            assert!(
                std::ptr::eq(OpRegistry::for_release(n).unwrap(), r19),
                "{n}"
            );
        }
        let majors: Vec<Option<u32>> = KNOWN_RELEASES.iter().map(|r| major_of(r)).collect();
        assert_eq!(majors, KNOWN_MAJORS.map(Some));
        let r22 = OpRegistry::for_release("mlir-22").unwrap();
        assert!(std::ptr::eq(OpRegistry::for_major(22).unwrap(), r22));
        assert!(OpRegistry::for_major(20).is_none());
        assert!(std::ptr::eq(r22, OpRegistry::default_ref()));
        assert!(OpRegistry::for_release("20").is_none());
        assert!(OpRegistry::for_release("mlir-").is_none());
        assert!(OpRegistry::for_release("x19").is_none());
        assert_eq!(
            OpRegistry::known_releases(),
            ["19.1.7", "22.1.8", "23.0.0git", "24.0.0git"]
        );
        let r23 = OpRegistry::for_release("23").unwrap();
        let r24 = OpRegistry::for_release("mlir-24").unwrap();
        assert!(r23.is_other_release() && r24.is_other_release());
        assert!(r19.is_other_release() && !r22.is_other_release());
        assert!(!OpRegistry::new().is_other_release());

        assert_eq!(producer_major(b"MLIR19.1.7"), Some(19));
        assert_eq!(producer_major(b"MLIR20.0.0git"), Some(20));
        assert_eq!(producer_major(b"MLIR"), None);
        assert_eq!(producer_major(b"jaxlib"), None);
        let (r, known) = OpRegistry::for_producer(b"MLIR19.1.7");
        assert!(std::ptr::eq(r, r19) && known);
        for p in [&b"MLIR22.1.8"[..], b"MLIR21.1.0", b"StableHLO_v1.0", b""] {
            let (r, known) = OpRegistry::for_producer(p);
            assert!(std::ptr::eq(r, r22));
            assert_eq!(known, p == b"MLIR22.1.8");
        }
        // The nearest release we have, the newer of two as near: 20 is
        // one from 19 and two from 22; 25 is one from 24.
        let (r, known) = OpRegistry::for_producer(b"MLIR20.0.0git");
        assert!(std::ptr::eq(r, r19) && !known);
        let (r, known) = OpRegistry::for_producer(b"MLIR25.0.0git");
        assert!(std::ptr::eq(r, r24) && !known);
        let (r, known) = OpRegistry::for_producer(b"MLIR23.0.0git");
        assert!(std::ptr::eq(r, r23) && known);
        // `arith.addf` gained `roundingmode` after 22 (jaxlib's and IREE's
        // classes list it).
        let names = |r: &OpRegistry| -> Vec<String> {
            r.get(b"arith.addf")
                .unwrap()
                .fields_v6
                .iter()
                .map(|f| f.name.clone())
                .collect()
        };
        assert_eq!(names(r22), ["fastmath"]);
        assert_eq!(names(r23), ["fastmath", "roundingmode"]);
        assert_eq!(names(r24), ["fastmath", "roundingmode"]);

        // func.func gained `no_inline` after 19: the payloads differ in length.
        let f19 = r19.get(b"func.func").unwrap();
        let names: Vec<&str> = f19.fields_v6.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "arg_attrs",
                "function_type",
                "res_attrs",
                "sym_name",
                "sym_visibility"
            ]
        );
        // 19's EnumProperty has no range check but the same encoding.
        let add = r19.get(b"llvm.add").unwrap();
        assert_eq!(add.fields_v6[0].kind, FieldKind::Enum { bits: 32 });
        assert_eq!(r19.len(), 1936);
    }

    /// The embedded layouts, deserialized op by op at first lookup, are
    /// those of the checked-in JSON (what the whole-registry load gave).
    #[test]
    fn ops_loaded_one_by_one_equal_the_checked_in_layouts() {
        let text = include_str!("../../data/ods-layouts-22.json");
        let data = json::registry_data_from_json(text).unwrap();
        let r = OpRegistry::default_ref();
        assert_eq!(r.len(), data.ops.len());
        for op in &data.ops {
            assert_eq!(r.get(op.name.as_bytes()), Some(op), "{}", op.name);
        }
        assert_eq!(r.ops().count(), r.len());
        // A user's op replaces the embedded one of the same name.
        let mut mine = r.clone();
        let mut func = r.get(b"func.func").unwrap().clone();
        func.fields_v6.clear();
        mine.insert(func.clone());
        assert_eq!(mine.get(b"func.func"), Some(&func));
        assert_ne!(r.get(b"func.func"), Some(&func));
    }
}
