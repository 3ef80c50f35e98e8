//! Codes of the builtin dialect's attribute and type encodings (SPEC.md §6.6).

pub mod attr {
    pub const ARRAY: u64 = 0;
    pub const DICTIONARY: u64 = 1;
    pub const STRING: u64 = 2;
    pub const STRING_WITH_TYPE: u64 = 3;
    pub const FLAT_SYMBOL_REF: u64 = 4;
    pub const SYMBOL_REF: u64 = 5;
    pub const TYPE: u64 = 6;
    pub const UNIT: u64 = 7;
    pub const INTEGER: u64 = 8;
    pub const FLOAT: u64 = 9;
    pub const CALL_SITE_LOC: u64 = 10;
    pub const FILE_LINE_COL_LOC: u64 = 11;
    pub const FUSED_LOC: u64 = 12;
    pub const FUSED_LOC_WITH_METADATA: u64 = 13;
    pub const NAME_LOC: u64 = 14;
    pub const UNKNOWN_LOC: u64 = 15;
    pub const DENSE_RESOURCE_ELEMENTS: u64 = 16;
    pub const DENSE_ARRAY: u64 = 17;
    pub const DENSE_INT_OR_FP_ELEMENTS: u64 = 18;
    pub const DENSE_STRING_ELEMENTS: u64 = 19;
    pub const SPARSE_ELEMENTS: u64 = 20;
    pub const DISTINCT: u64 = 21;
    /// MLIR 22: a `FileLineColRange` that is not a plain `file:line:col`.
    pub const FILE_LINE_COL_RANGE: u64 = 22;
    /// After MLIR 22 (llvm/llvm-project#191970; IREE 3.13 writes it): an
    /// `AffineMapAttr` (SPEC.md §6.6.6).
    pub const AFFINE_MAP: u64 = 23;
    /// After MLIR 22 (llvm/llvm-project#207488): an `IntegerSetAttr`.
    pub const INTEGER_SET: u64 = 24;
    /// After MLIR 22 (llvm/llvm-project#207488): a `StridedLayoutAttr`.
    pub const STRIDED_LAYOUT: u64 = 25;
    /// One past the last code MLIR 22 writes.
    pub const END_MLIR22: u64 = 23;
}

pub mod ty {
    pub const INTEGER: u64 = 0;
    pub const INDEX: u64 = 1;
    pub const FUNCTION: u64 = 2;
    pub const BF16: u64 = 3;
    pub const F16: u64 = 4;
    pub const F32: u64 = 5;
    pub const F64: u64 = 6;
    pub const F80: u64 = 7;
    pub const F128: u64 = 8;
    pub const COMPLEX: u64 = 9;
    pub const MEMREF: u64 = 10;
    pub const MEMREF_WITH_MEMORY_SPACE: u64 = 11;
    pub const NONE: u64 = 12;
    pub const RANKED_TENSOR: u64 = 13;
    pub const RANKED_TENSOR_WITH_ENCODING: u64 = 14;
    pub const TUPLE: u64 = 15;
    pub const UNRANKED_MEMREF: u64 = 16;
    pub const UNRANKED_MEMREF_WITH_MEMORY_SPACE: u64 = 17;
    pub const UNRANKED_TENSOR: u64 = 18;
    pub const VECTOR: u64 = 19;
    pub const VECTOR_WITH_SCALABLE_DIMS: u64 = 20;
    /// After MLIR 22 (IREE 3.13 writes them; SPEC.md §6.6.6): the float
    /// types MLIR 22 writes as text, each a bare code.
    pub const TF32: u64 = 21;
    pub const F8E5M2: u64 = 22;
    pub const F8E4M3: u64 = 23;
    pub const F8E4M3FN: u64 = 24;
    pub const F8E5M2FNUZ: u64 = 25;
    pub const F8E4M3FNUZ: u64 = 26;
    pub const F8E4M3B11FNUZ: u64 = 27;
    pub const F8E3M4: u64 = 28;
    pub const F4E2M1FN: u64 = 29;
    pub const F6E2M3FN: u64 = 30;
    pub const F6E3M2FN: u64 = 31;
    pub const F8E8M0FNU: u64 = 32;
    /// One past the last code MLIR 22 writes.
    pub const END_MLIR22: u64 = 21;
}
