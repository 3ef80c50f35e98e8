//! rmlir-writer: the rmlir IR to MLIR's generic textual form (SPEC.md §4),
//! its custom form where the ops' printers are ported (§11.4), and its
//! bytecode, at any version 0–6 (§6).
#![warn(missing_docs)]
pub mod bytecode;
pub mod text;

pub use bytecode::{
    encode_bytecode, write_bytecode, write_bytecode_on_threads, write_bytecode_with,
    BuiltinEncodings, Bytecode, UseListRecordOrder, WriteError, WriteOptions,
};
pub use text::{
    print_module, print_module_to, try_print_module, unported_custom_ops, OutputTooLarge,
    PrintOptions,
};
