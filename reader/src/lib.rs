//! rmlir-reader: MLIR's generic textual form (SPEC.md §3) and its bytecode
//! (§6), eagerly or lazily from a memory map, into the rmlir IR.
#![warn(missing_docs)]
pub use rmlir_format::affine_parser;
pub mod error;
pub mod limits;
mod prefault;
pub mod text;

pub use error::{Error, ErrorKind, Position, Result};
pub use limits::Limits;
pub use text::{
    parse_module, parse_module_in_release, parse_module_releasing, parse_module_releasing_deferred,
    parse_module_releasing_deferred_with, parse_module_split, parse_module_split_at,
    parse_module_with_limits, SplitReport, TextLimits, PARALLEL_TEXT_MIN_BYTES,
};
pub mod bytecode;
#[cfg(feature = "zstd")]
pub mod zstd_input;

pub use bytecode::{
    is_bytecode, producer_of, read_bytecode, read_bytecode_shared, read_bytecode_with_limits,
    read_bytecode_with_options, BytecodeReader, LayoutsChoice, ReadOptions, ReadStats, SectionInfo,
    TopLevelOp, Undecoded,
};
