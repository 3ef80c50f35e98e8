//! The custom attribute/type encodings of non-builtin dialects (SPEC.md
//! §6.6.5), as data shared by the bytecode reader (which decodes them) and
//! the writer (which encodes them): per dialect and kind code the fields an
//! entry holds, and for llvm attributes their ODS parameters and assembly
//! format. `generated.rs` is written by tools/dialect-encodings/gen.py from
//! MLIR 22's `*DialectBytecode.cpp.inc`; `spec.rs` gives its shapes.

pub mod body_cursor;
pub mod fields;
pub mod generated;
pub mod llvm_text;
pub mod quant;
pub mod spec;

pub use fields::{AttrLookup, BodyBuilder, BodyInterner, Field, Value};
pub use generated::DIALECTS;
pub use spec::*;

/// The encodings of dialect `name`, if MLIR 22 declares any.
pub fn dialect_spec(name: &[u8]) -> Option<&'static DialectSpec> {
    DIALECTS.iter().find(|d| d.name.as_bytes() == name)
}
