//! The shapes of custom attribute/type encodings declared as data
//! (SPEC.md §6.6.5): MLIR's BytecodeDialectGen describes, per dialect and
//! kind code, the fields an entry holds ([`spec`]); the bytecode reader
//! decodes those fields and the writer encodes them ([`fields`]) for any
//! dialect whose hook declares such tables
//! ([`crate::dialect_hooks::BytecodeDialect::declared_encodings`]). The
//! tables themselves, and what each dialect makes of the fields, live with
//! the dialects (`rmlir-dialects`).

pub mod body_cursor;
pub mod fields;
pub mod spec;

pub use fields::{AttrLookup, BodyBuilder, BodyInterner, Entry, Field, FieldError, Value};
pub use spec::*;
