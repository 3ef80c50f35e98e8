//! The dialect hooks the command line reads and writes with (SPEC.md §9):
//! the library's defaults (`rmlir_dialects::upstream`: builtin, llvm,
//! quant, tosa, mlir-opt's test dialect), the dialects upstream MLIR does
//! not ship (`rmlir_dialects::register_all`, SPEC.md §10), and the example
//! dialect `vdemo` from `examples/versioned_dialect.rs`, so that
//! `rmlir-bc upgrade` can show a real migration.

#[path = "../../examples/versioned_dialect.rs"]
mod versioned_dialect;

use rmlir_format::dialect_hooks::DialectRegistry;
use std::sync::{Arc, OnceLock};

pub fn registry() -> &'static DialectRegistry {
    static R: OnceLock<DialectRegistry> = OnceLock::new();
    R.get_or_init(|| {
        let mut r = rmlir_dialects::upstream().clone();
        rmlir_dialects::register_all(&mut r);
        r.register(Arc::new(versioned_dialect::VDemo));
        r
    })
}

/// The hooks of `--upstream-only`: the library's defaults and `vdemo`,
/// without `rmlir-dialects`.
pub fn upstream_registry() -> &'static DialectRegistry {
    static R: OnceLock<DialectRegistry> = OnceLock::new();
    R.get_or_init(|| {
        let mut r = rmlir_dialects::upstream().clone();
        r.register(Arc::new(versioned_dialect::VDemo));
        r
    })
}
