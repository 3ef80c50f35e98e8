//! Limits that keep hostile input from exhausting the stack or memory
//! (SPEC.md §5.1), shared by the text parser and the bytecode reader and
//! passed through their public entry points
//! ([`crate::parse_module_with_limits`], [`crate::read_bytecode_with_limits`],
//! [`crate::BytecodeReader::open_with_limits`]).
//!
//! The defaults never reject a file of the corpus (the deepest region
//! nesting there is far below them) and keep the deepest recursion well
//! inside a 2 MiB thread stack (checked by `tests/tests/deep_nesting.rs`).
//! A caller on a smaller stack lowers the depths proportionally.

/// Nesting and size limits. Exceeding one is an [`crate::ErrorKind::Limit`]
/// error at the position where the limit was crossed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Maximum nesting of regions: an operation's regions inside the region
    /// that holds the operation. The module body is depth 1.
    pub max_region_depth: usize,
    /// Maximum nesting of attributes and types inside one another. Text:
    /// each attribute, type, location or dense literal inside another;
    /// bytecode: table entries decoded while decoding another entry.
    pub max_attr_type_depth: usize,
    /// Maximum value of any count read from bytecode (strings, dialects,
    /// table entries, operations, blocks, values, operands, results,
    /// elements). Independently of this limit, every count is checked
    /// against the bytes that remain before anything is allocated for it.
    pub max_count: usize,
    /// Maximum alignment of a resource blob in text (`"0x<alignment><data>"`).
    /// Written bytecode pads each blob to its alignment, so `0x80000000`
    /// in a 30-byte literal would make a 2 GiB file (mlir-opt 22 aborts on
    /// it, out of memory). Real blobs use the alignment of their element
    /// type; 64 KiB leaves room for page-aligned weights.
    pub max_blob_alignment: u32,
}

impl Limits {
    /// The defaults: 256 region levels, 256 attribute/type levels, counts
    /// up to 2^32 - 1, blob alignments up to 64 KiB.
    pub const DEFAULT: Limits = Limits {
        max_region_depth: 256,
        max_attr_type_depth: 256,
        max_count: u32::MAX as usize,
        max_blob_alignment: 1 << 16,
    };
}

impl Default for Limits {
    fn default() -> Self {
        Limits::DEFAULT
    }
}
