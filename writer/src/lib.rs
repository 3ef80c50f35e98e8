//! rmlir-writer: the rmlir IR to MLIR's generic textual form (and, later,
//! bytecode) (SPEC.md §4).
pub mod text;

pub use text::{print_module, PrintOptions};
