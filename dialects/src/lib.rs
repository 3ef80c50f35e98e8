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

mod body;
pub mod chlo;
mod hlo;
pub mod llvm;
pub mod mlir_opt;
mod out;
pub mod quant;
pub mod sdy;
pub mod stablehlo;
pub mod test_dialect;
pub mod tosa;
mod unbody;
pub mod upstream_encodings;
pub mod vhlo;

use rmlir_format::dialect_hooks::{BuiltinDialect, BytecodeDialect, DialectRegistry};
use rmlir_format::op_registry::{OpRegistry, RegistryData};
use std::sync::{Arc, OnceLock};

/// The hooks of the dialects mlir-opt 22 gives bytecode hooks and we
/// implement: builtin, llvm, quant, tosa and `test`. What the reader and
/// the writer use unless given another registry.
pub fn upstream() -> &'static DialectRegistry {
    static UPSTREAM: OnceLock<DialectRegistry> = OnceLock::new();
    UPSTREAM.get_or_init(|| {
        let mut r = DialectRegistry::new();
        let hooks: [Arc<dyn BytecodeDialect>; 5] = [
            Arc::new(BuiltinDialect),
            Arc::new(llvm::Llvm),
            Arc::new(quant::Quant),
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
///   layouts are what its `write_bytecode` wrote.
///
/// Both files are made by `tools/ods-json` and checked by its `check.sh`.
pub fn out_of_tree_layouts() -> &'static OpRegistry {
    static LAYOUTS: OnceLock<OpRegistry> = OnceLock::new();
    LAYOUTS.get_or_init(|| {
        let mut ops = Vec::new();
        let sources = [
            (
                include_str!("../../dialects/data/ods-layouts-stablehlo-1.20.0.json"),
                &["vhlo"][..],
            ),
            (
                include_str!("../../dialects/data/ods-layouts-stablehlo-1.16.4.json"),
                &["stablehlo", "chlo"][..],
            ),
            (
                include_str!("../../dialects/data/ods-layouts-sdy.json"),
                &["sdy"][..],
            ),
            (
                include_str!("../../dialects/data/ods-layouts-iree-b48a5955.json"),
                IREE_DIALECTS,
            ),
        ];
        for (text, prefixes) in sources {
            let mut all = OpRegistry::new();
            all.load_json(text)
                .expect("the checked-in layouts are valid (tools/ods-json/check.sh)");
            ops.extend(
                all.ops()
                    .filter(|op| {
                        let dialect = op.name.split('.').next().unwrap_or("");
                        prefixes.contains(&dialect)
                    })
                    .cloned(),
            );
        }
        ops.sort_by(|a, b| a.name.cmp(&b.name));
        OpRegistry::from_data(RegistryData {
            mlir_release: format!(
                "StableHLO (vhlo of {}, stablehlo and chlo of {}), Shardy {} and IREE b48a5955",
                vhlo::STABLEHLO_RELEASE,
                stablehlo::LAYOUTS_RELEASE,
                sdy::SHARDY_RELEASE
            ),
            ops,
        })
    })
}

/// The dialects besides [`IREE_DIALECTS`] whose op layouts
/// [`out_of_tree_layouts`] holds.
pub const LAYOUT_DIALECTS: &[&str] = &["vhlo", "stablehlo", "chlo", "sdy"];

/// IREE's dialects whose op layouts [`out_of_tree_layouts`] holds, from
/// IREE b48a5955's ODS (`dialects/data/ods-layouts-iree-b48a5955.json`,
/// made and checked by `tools/ods-json/check.sh`; SPEC.md §10.6).
/// `iree_linalg_ext` is missing: its `.td` does not dump on its own.
pub const IREE_DIALECTS: &[&str] = &[
    "check",
    "flow",
    "hal",
    "hal_inline",
    "hal_loader",
    "io_parameters",
    "iree_codegen",
    "iree_encoding",
    "iree_gpu",
    "iree_tensor_ext",
    "iree_vector_ext",
    "pcf",
    "stream",
    "util",
    "vm",
    "vmvx",
];

/// The layouts to write `m` with: [`write_layouts`] when `m` names an op
/// of [`LAYOUT_DIALECTS`] or [`IREE_DIALECTS`], else MLIR 22's alone, so that writing any other
/// module does not pay for building this crate's (a few milliseconds, more
/// than a small file's whole conversion).
pub fn layouts_for_writing(m: &rmlir_format::Module) -> &'static OpRegistry {
    let ours = (0..m.op_names.len() as u32).any(|i| {
        let name = m.op_names.get(rmlir_format::OpNameId(i));
        LAYOUT_DIALECTS.iter().chain(IREE_DIALECTS).any(|d| {
            name.len() > d.len() && name.starts_with(d.as_bytes()) && name[d.len()] == b'.'
        })
    });
    if ours {
        write_layouts()
    } else {
        OpRegistry::default_ref()
    }
}

/// MLIR 22's op layouts (what the writer writes upstream ops with) and
/// [`out_of_tree_layouts`] together, for writing: an op of this crate's
/// dialects is then written registered, its properties in its layout, as
/// jaxlib writes it (SPEC.md §10.3).
pub fn write_layouts() -> &'static OpRegistry {
    static LAYOUTS: OnceLock<OpRegistry> = OnceLock::new();
    LAYOUTS.get_or_init(|| {
        let mut r = OpRegistry::default_ref().clone();
        for op in out_of_tree_layouts().ops() {
            r.insert(op.clone());
        }
        r
    })
}

#[cfg(test)]
mod tests {
    /// Every VHLO op of StableHLO 1.20.0, every stablehlo and chlo op of
    /// 1.16.4, Shardy's and IREE's (687 in 16 dialects) are there, and
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
            (145, 117, 50, 19)
        );
        let iree = r
            .ops()
            .filter(|op| super::IREE_DIALECTS.contains(&op.name.split('.').next().unwrap()))
            .count();
        assert_eq!((iree, count("util."), count("vm.")), (687, 49, 313));
        assert_eq!(r.len(), 145 + 117 + 50 + 19 + 687);
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
