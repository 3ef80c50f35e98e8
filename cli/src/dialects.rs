//! The dialect hooks the command line reads and writes with (SPEC.md §9):
//! the library's defaults (`rmlir_dialects::upstream`: builtin, llvm,
//! quant, tosa, mlir-opt's test dialect), the dialects upstream MLIR does
//! not ship (`rmlir_dialects::register_all`, SPEC.md §10), and the example
//! dialect `vdemo` from `examples/versioned_dialect.rs`, so that
//! `rmlir-bc upgrade` can show a real migration.

#[path = "../../examples/versioned_dialect.rs"]
mod versioned_dialect;

use rmlir_format::dialect_hooks::DialectRegistry;
use rmlir_format::op_registry::OpRegistry;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

pub fn registry() -> &'static DialectRegistry {
    static R: OnceLock<DialectRegistry> = OnceLock::new();
    R.get_or_init(|| {
        let mut r = rmlir_dialects::upstream().clone();
        rmlir_dialects::register_all(&mut r);
        r.register(Arc::new(versioned_dialect::VDemo));
        add_user_encodings(&mut r);
        r
    })
}

/// The hooks of `--upstream-only`: the library's defaults and `vdemo`,
/// without `rmlir-dialects` (but with `--dialect-encodings`).
pub fn upstream_registry() -> &'static DialectRegistry {
    static R: OnceLock<DialectRegistry> = OnceLock::new();
    R.get_or_init(|| {
        let mut r = rmlir_dialects::upstream().clone();
        r.register(Arc::new(versioned_dialect::VDemo));
        add_user_encodings(&mut r);
        r
    })
}

/// The dialects of `--dialect-encodings`: set once, before the registries
/// are first built.
static USER_ENCODINGS: OnceLock<Vec<Arc<rmlir_dialects::declared::DeclaredDialect>>> =
    OnceLock::new();

fn add_user_encodings(r: &mut DialectRegistry) {
    for d in USER_ENCODINGS.get().into_iter().flatten() {
        r.register(d.clone());
    }
}

/// Loads the `--dialect-encodings` files, each made by
/// `tools/dialect-encodings/from_td.py`. A dialect so loaded replaces the
/// hooks we ship for a dialect of the same name. An error names the file.
pub fn load_user_encodings(files: &[PathBuf]) -> Result<(), String> {
    let mut loaded = Vec::with_capacity(files.len());
    for f in files {
        let text = std::fs::read_to_string(f)
            .map_err(|e| format!("{}: error: cannot read dialect encodings: {e}", f.display()))?;
        let d = rmlir_dialects::declared::DeclaredDialect::from_json(&text)
            .map_err(|e| format!("{}: error: not a dialect encodings file: {e}", f.display()))?;
        loaded.push(Arc::new(d));
    }
    let _ = USER_ENCODINGS.set(loaded);
    Ok(())
}

/// The op layouts of `--op-layouts`, with this crate's out-of-tree ones
/// (for reading) and the user's alone (added to each release's for
/// writing): set once, before anything is read.
static USER_LAYOUTS: OnceLock<(OpRegistry, OpRegistry)> = OnceLock::new();

/// Loads the `--op-layouts` files: each a layout JSON file of
/// `tools/ods-json` (or `tools/ods-layouts`). An error names the file.
pub fn load_user_layouts(files: &[PathBuf]) -> Result<(), String> {
    if files.is_empty() {
        return Ok(());
    }
    let mut read = rmlir_dialects::out_of_tree_layouts().clone();
    let mut user = OpRegistry::new();
    for f in files {
        let text = std::fs::read_to_string(f)
            .map_err(|e| format!("{}: error: cannot read op layouts: {e}", f.display()))?;
        let mut ops = OpRegistry::new();
        ops.load_json(&text)
            .map_err(|e| format!("{}: error: not an op layout file: {e}", f.display()))?;
        for op in ops.ops() {
            read.insert(op.clone());
            user.insert(op.clone());
        }
    }
    // `run` is called once per process.
    let _ = USER_LAYOUTS.set((read, user));
    Ok(())
}

/// What reading consults for ops upstream MLIR lacks: this crate's
/// out-of-tree layouts and the `--op-layouts` files.
pub fn out_of_tree_layouts() -> &'static OpRegistry {
    match USER_LAYOUTS.get() {
        Some((read, _)) => read,
        None => rmlir_dialects::out_of_tree_layouts(),
    }
}

/// The layouts `m` is written with for the release whose upstream layouts
/// `release` holds: with `--op-layouts`, the release's, this crate's and
/// the user's; else `rmlir_dialects::layouts_for_writing`.
pub fn layouts_for_writing(
    m: &rmlir_format::Module,
    release: &'static OpRegistry,
) -> &'static OpRegistry {
    match USER_LAYOUTS.get() {
        Some((_, user)) => {
            static WRITE: OnceLock<OpRegistry> = OnceLock::new();
            // A process writes one module, for one release.
            WRITE.get_or_init(|| {
                let mut write = rmlir_dialects::write_layouts_for(release).clone();
                for op in user.ops() {
                    write.insert(op.clone());
                }
                write
            })
        }
        None => rmlir_dialects::layouts_for_writing(m, release),
    }
}
