//! The tosa dialect (MLIR 22) declares a bytecode interface with no
//! attribute or type kinds: any custom tosa entry is an unknown kind, as
//! in MLIR, not a dialect without an interface.

use rmlir_format::dialect_encodings::DialectSpec;
use rmlir_format::dialect_hooks::BytecodeDialect;

/// The tosa dialect's hooks.
pub struct Tosa;

impl BytecodeDialect for Tosa {
    fn name(&self) -> &str {
        "tosa"
    }

    fn declared_encodings(&self) -> Option<&'static DialectSpec> {
        crate::upstream_encodings::spec("tosa")
    }
}
