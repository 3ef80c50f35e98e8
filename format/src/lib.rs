//! rmlir-format: the in-memory IR model shared by the readers and writers
//! (SPEC.md §2), with float semantics, the bytecode wire primitives
//! (§6), op layouts (§7), the dialect hook traits (§9) and the structural
//! check (§8.6).
#![warn(missing_docs)]
pub mod affine;
pub mod affine_parser;
pub mod append;
pub mod attrs;
pub mod blob;
pub mod bytecode;
pub mod context;
pub mod dense;
pub mod dialect_encodings;
pub mod dialect_hooks;
pub mod drain;
pub mod escape;
pub mod fasthash;
pub mod float;
pub mod id_map;
pub mod ir;
pub mod op_format;
pub mod op_registry;
pub mod symbol_body;
pub mod types;
pub mod use_lists;
pub mod verify;

pub use attrs::{
    AttrData, BodyPiece, Bytes, DialectBody, FileLineColRange, FileName, FloatBits, OpaqueAttr,
};
pub use blob::{BlobData, SharedBytes};
pub use context::{AttrId, Context, ForkIdMap, ForkItems, HashedAttr, TypeId};
pub use id_map::IdMap;
pub use ir::*;
pub use types::{Signedness, TypeData, DYNAMIC};
