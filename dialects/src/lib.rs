//! Dialects that upstream MLIR does not ship (SPEC.md §10): each in its
//! own module, known to the rest of the toolkit only through
//! `rmlir_format`'s traits ([`BytecodeDialect`] for custom attribute and
//! type encodings) and registered in one place, [`register_all`], which the
//! command line composes with the library's defaults.
//!
//! - [`vhlo`]: StableHLO's versioned dialect, the content of `jax.export`
//!   portable artifacts.

pub mod vhlo;

use rmlir_format::dialect_hooks::{BytecodeDialect, DialectRegistry};
use rmlir_format::op_registry::{OpRegistry, RegistryData};
use std::sync::{Arc, OnceLock};

/// Adds the bytecode hooks of every dialect of this crate to `registry`.
pub fn register_all(registry: &mut DialectRegistry) {
    let hooks: [Arc<dyn BytecodeDialect>; 1] = [Arc::new(vhlo::Vhlo)];
    for hook in hooks {
        registry.register(hook);
    }
}

/// The op layouts of this crate's dialects (SPEC.md §7.3), for the
/// reader's `ReadOptions::out_of_tree`: VHLO's ops from StableHLO
/// 1.20.0's ODS (`format/data/ods-layouts-stablehlo-1.20.0.json`, made by
/// `tools/ods-json`). VHLO ops are frozen once released, so the newest
/// release's set reads every older artifact. stablehlo and chlo ops are
/// not frozen (their layouts change between releases) and are left out
/// until a file's release can choose them.
pub fn out_of_tree_layouts() -> &'static OpRegistry {
    static LAYOUTS: OnceLock<OpRegistry> = OnceLock::new();
    LAYOUTS.get_or_init(|| {
        let text = include_str!("../../format/data/ods-layouts-stablehlo-1.20.0.json");
        let mut all = OpRegistry::new();
        all.load_json(text)
            .expect("the checked-in StableHLO layouts are valid (tools/ods-json/check.sh)");
        let mut ops: Vec<_> = all
            .ops()
            .filter(|op| op.name.starts_with("vhlo."))
            .cloned()
            .collect();
        ops.sort_by(|a, b| a.name.cmp(&b.name));
        OpRegistry::from_data(RegistryData {
            mlir_release: format!("VHLO of StableHLO {}", vhlo::STABLEHLO_RELEASE),
            ops,
        })
    })
}

#[cfg(test)]
mod tests {
    /// Every VHLO op of StableHLO 1.20.0 is there, and nothing else.
    #[test]
    fn out_of_tree_layouts_hold_the_vhlo_ops() {
        let r = super::out_of_tree_layouts();
        assert_eq!(r.len(), 145);
        assert!(r.ops().all(|op| op.name.starts_with("vhlo.")));
        // VHLO's ODS gives its ops no traits: not even `vhlo.func_v1` is
        // IsolatedFromAbove.
        let f = r.get(b"vhlo.func_v1").expect("vhlo.func_v1");
        assert!(f.has_properties && !f.isolated_from_above);
        assert_eq!(f.fields_v6.len(), 5);
        assert!(r.get(b"vhlo.custom_call_v2").is_some());
    }
}
