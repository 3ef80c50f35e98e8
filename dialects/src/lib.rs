//! What rmlir-bc knows of each dialect but builtin (SPEC.md §9, §10):
//! each dialect in its own module, known to the reader, the writer and the
//! IR only through `rmlir_format`'s traits ([`BytecodeDialect`] for
//! bytecode hooks and encodings declared as data, op layouts as
//! [`OpRegistry`] data), and registered in one place: [`upstream`] for the
//! dialects mlir-opt 22 gives bytecode hooks, [`register_all`] for the
//! ones upstream MLIR does not ship. The reader and writer default to
//! [`upstream`]; the command line adds the rest.
//!
//! Dialects of MLIR 22 (SPEC.md §6.6.5, §9.3):
//! - [`llvm`]: debug-info and loop-annotation attributes;
//! - [`quant`]: quantized types;
//! - [`tosa`]: an interface with no kinds;
//! - [`test_dialect`]: mlir-opt's `test` dialect, as upstream's versioning
//!   tests exercise it.
//!
//! Dialects upstream MLIR does not ship (SPEC.md §10):
//! - [`vhlo`]: StableHLO's versioned dialect, the content of `jax.export`
//!   portable artifacts.
//! - [`stablehlo`]: StableHLO itself, as jaxlib's `write_bytecode` writes it.
//! - [`chlo`]: StableHLO's client dialect, beside it in jaxlib's modules.
//! - [`sdy`]: Shardy, whose sharding rules jaxlib puts on custom calls.
//!
//! A user's own dialect whose encodings its `.td` declares is loaded at
//! run time from data ([`declared`], SPEC.md §9.5).
#![warn(missing_docs)]

mod body;
pub mod chlo;
pub mod declared;
mod hlo;
pub mod hosts;
pub mod iree;
pub mod llvm;
pub mod mlir_opt;
mod out;
mod out_of_tree_sources;
pub mod quant;
pub mod sdy;
pub mod sparse_tensor;
pub mod spirv;
pub mod stablehlo;
pub mod test_dialect;
pub mod tosa;
mod unbody;
/// The declarative bytecode encodings MLIR 22 ships for llvm, quant and
/// tosa, and the llvm enum and DWARF names they print, as tables generated
/// by `tools/dialect-encodings/gen.py` (SPEC.md §6.6.5).
pub mod upstream_encodings;
pub mod vhlo;

use rmlir_format::dialect_hooks::{BuiltinDialect, BytecodeDialect, DialectRegistry};
use rmlir_format::op_registry::OpRegistry;
use std::sync::{Arc, OnceLock};

/// The hooks of the dialects mlir-opt 22 gives bytecode hooks and we
/// implement: builtin, llvm, quant, tosa and `test`; and sparse_tensor's
/// and spirv's text respelling. What the reader and
/// the writer use unless given another registry.
pub fn upstream() -> &'static DialectRegistry {
    static UPSTREAM: OnceLock<DialectRegistry> = OnceLock::new();
    UPSTREAM.get_or_init(|| {
        let mut r = DialectRegistry::new();
        let hooks: [Arc<dyn BytecodeDialect>; 7] = [
            Arc::new(BuiltinDialect),
            Arc::new(llvm::Llvm),
            Arc::new(quant::Quant),
            Arc::new(sparse_tensor::SparseTensor),
            Arc::new(spirv::Spirv),
            Arc::new(tosa::Tosa),
            Arc::new(test_dialect::TestDialect),
        ];
        for hook in hooks {
            r.register(hook);
        }
        r
    })
}

/// [`upstream`] and every dialect of [`register_all`]: what the command
/// line reads and writes with.
pub fn all() -> &'static DialectRegistry {
    static ALL: OnceLock<DialectRegistry> = OnceLock::new();
    ALL.get_or_init(|| {
        let mut r = upstream().clone();
        register_all(&mut r);
        r
    })
}

/// Adds the bytecode hooks of the dialects upstream MLIR does not ship to
/// `registry`.
pub fn register_all(registry: &mut DialectRegistry) {
    let hooks: [Arc<dyn BytecodeDialect>; 4] = [
        Arc::new(vhlo::Vhlo),
        Arc::new(stablehlo::Stablehlo),
        Arc::new(chlo::Chlo),
        Arc::new(sdy::Sdy),
    ];
    for hook in hooks {
        registry.register(hook);
    }
}

/// The op layouts of this crate's dialects (SPEC.md §7.3), for the
/// reader's `ReadOptions::out_of_tree`:
/// - VHLO's ops from StableHLO 1.20.0's ODS. VHLO ops are frozen once
///   released, so the newest release's set reads every older artifact.
/// - sdy's ops from Shardy a0277a83's ODS.
/// - stablehlo's and chlo's ops from StableHLO 1.16.4's. These are not
///   frozen: 1.19.0 added `result_tilings` to `stablehlo.custom_call` and
///   `is_stable` to `chlo.top_k` (which moves `k`), 1.20.0
///   `has_dynamic_root` to `stablehlo.collective_broadcast`. jaxlib 0.10.x
///   carries StableHLO 1.17.0, which has none of these, so 1.16.4's
///   layouts are what its `write_bytecode` wrote. The two ops 1.16.4
///   lacks (`chlo.mulhi`, which 1.17.0 has, and
///   `stablehlo.collective_reduce`) come from 1.20.0's.
/// - IREE's dialects ([`IREE_DIALECTS`]) from IREE b48a5955's ODS.
///
/// The files are made by `tools/ods-json` and checked by its `check.sh`;
/// `build.rs` embeds the ops taken from them as bincode, each decoded at
/// its first lookup.
pub fn out_of_tree_layouts() -> &'static OpRegistry {
    static LAYOUTS: OnceLock<OpRegistry> = OnceLock::new();
    static INDEX: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/out-of-tree.index"));
    static BLOB: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/out-of-tree.ops.bincode"));
    LAYOUTS.get_or_init(|| {
        OpRegistry::from_embedded(INDEX, BLOB)
            .expect("build.rs embeds valid layouts")
            .with_release(format!(
                "StableHLO (vhlo of {}, stablehlo and chlo of {}), Shardy {} and IREE b48a5955",
                vhlo::STABLEHLO_RELEASE,
                stablehlo::LAYOUTS_RELEASE,
                sdy::SHARDY_RELEASE
            ))
    })
}

/// The dialects besides [`IREE_DIALECTS`] whose op layouts
/// [`out_of_tree_layouts`] holds.
pub const LAYOUT_DIALECTS: &[&str] = &["vhlo", "stablehlo", "chlo", "sdy"];

pub use out_of_tree_sources::IREE_DIALECTS;

/// The layouts to write `m` with for the MLIR release whose upstream
/// layouts `release` holds (`OpRegistry::default_ref()`, MLIR 22's, for
/// what mlir-opt 22 reads): [`write_layouts_for`] when `m` names an op of
/// [`LAYOUT_DIALECTS`] or [`IREE_DIALECTS`], else the release's alone, so
/// that writing any other module does not pay for building this crate's
/// (a few milliseconds, more than a small file's whole conversion).
pub fn layouts_for_writing(
    m: &rmlir_format::Module,
    release: &'static OpRegistry,
) -> &'static OpRegistry {
    let ours = (0..m.op_names.len() as u32).any(|i| {
        let name = m.op_names.get(rmlir_format::OpNameId(i));
        LAYOUT_DIALECTS.iter().chain(IREE_DIALECTS).any(|d| {
            name.len() > d.len() && name.starts_with(d.as_bytes()) && name[d.len()] == b'.'
        })
    });
    if ours {
        write_layouts_for(release)
    } else {
        release
    }
}

/// MLIR 22's op layouts (what the writer writes upstream ops with) and
/// [`out_of_tree_layouts`] together, for writing: an op of this crate's
/// dialects is then written registered, its properties in its layout, as
/// jaxlib writes it (SPEC.md §10.3).
pub fn write_layouts() -> &'static OpRegistry {
    write_layouts_for(OpRegistry::default_ref())
}

/// [`write_layouts`] with the upstream layouts of `release` (e.g. MLIR
/// 24's, to write for IREE 3.13). Built once per release.
pub fn write_layouts_for(release: &'static OpRegistry) -> &'static OpRegistry {
    derived_registry((release as *const OpRegistry as usize, 0), || {
        let mut r = release.clone();
        for op in out_of_tree_layouts().ops() {
            r.insert(op.clone());
        }
        r
    })
}

/// A registry made from `&'static` ones (the writer takes `&'static`
/// layouts), built once per `key` and kept for the rest of the process:
/// a process writes for a few releases and hosts at most. `build` runs
/// without the cache's lock held.
pub(crate) fn derived_registry(
    key: (usize, usize),
    build: impl FnOnce() -> OpRegistry,
) -> &'static OpRegistry {
    type Built = Vec<((usize, usize), &'static OpRegistry)>;
    static BUILT: std::sync::Mutex<Built> = std::sync::Mutex::new(Vec::new());
    let lock = || BUILT.lock().unwrap_or_else(|e| e.into_inner());
    let find = |b: &Built| b.iter().find(|(k, _)| *k == key).map(|&(_, r)| r);
    if let Some(r) = find(&lock()) {
        return r;
    }
    let r = build();
    let mut built = lock();
    if let Some(r) = find(&built) {
        return r;
    }
    let r: &'static OpRegistry = Box::leak(Box::new(r));
    built.push((key, r));
    r
}

#[cfg(test)]
mod tests {

    /// The embedded out-of-tree layouts are the JSON files' ops, op for op.
    #[test]
    fn embedded_out_of_tree_layouts_are_the_json_files() {
        let embedded = super::out_of_tree_layouts();
        let mut count = 0;
        let mut taken = std::collections::HashSet::new();
        for (file, dialects) in super::out_of_tree_sources::SOURCES {
            let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("data")
                .join(file);
            let mut r = super::OpRegistry::new();
            r.load_json(&std::fs::read_to_string(&path).unwrap())
                .unwrap();
            for op in r.ops() {
                if dialects.contains(&op.name.split('.').next().unwrap())
                    && taken.insert(op.name.clone())
                {
                    assert_eq!(embedded.get(op.name.as_bytes()), Some(op), "{}", op.name);
                    count += 1;
                }
            }
        }
        assert_eq!(embedded.len(), count);
        assert!(count > 1000, "{count} ops");
    }

    /// Every VHLO op of StableHLO 1.20.0, every stablehlo and chlo op of
    /// 1.16.4 and the two it lacks, Shardy's and IREE's (687 in 16 dialects) are there, and
    /// nothing else.
    #[test]
    fn out_of_tree_layouts_hold_the_vhlo_ops() {
        let r = super::out_of_tree_layouts();
        let count = |p: &str| r.ops().filter(|op| op.name.starts_with(p)).count();
        assert_eq!(
            (
                count("vhlo."),
                count("stablehlo."),
                count("chlo."),
                count("sdy.")
            ),
            (145, 118, 51, 19)
        );
        assert!(r.get(b"chlo.mulhi").is_some());
        let iree = r
            .ops()
            .filter(|op| super::IREE_DIALECTS.contains(&op.name.split('.').next().unwrap()))
            .count();
        assert_eq!((iree, count("util."), count("vm.")), (687, 49, 313));
        assert_eq!(r.len(), 145 + 118 + 51 + 19 + 687);
        // IREE b48a5955's ODS lacks `sym_name` on `util.initializer`;
        // IREE 3.13's classes have it (tools/ods-py reconciles them).
        let init = r.get(b"util.initializer").expect("util.initializer");
        assert!(init.fields_v6.iter().any(|f| f.name == "sym_name"));
        // VHLO's ODS gives its ops no traits: not even `vhlo.func_v1` is
        // IsolatedFromAbove.
        let f = r.get(b"vhlo.func_v1").expect("vhlo.func_v1");
        assert!(f.has_properties && !f.isolated_from_above);
        assert_eq!(f.fields_v6.len(), 5);
        assert!(r.get(b"vhlo.custom_call_v2").is_some());
    }
}
