//! Codes of the builtin dialect's attribute and type encodings (SPEC.md §6.6).

/// Builtin attribute codes (SPEC.md §6.6.1, §6.6.6); each names the
/// attribute kind and what follows the code.
pub mod attr {
    /// `ArrayAttr`: a list of attributes.
    pub const ARRAY: u64 = 0;
    /// `DictionaryAttr`: a list of (name, attribute) pairs.
    pub const DICTIONARY: u64 = 1;
    /// `StringAttr` without a type: a string.
    pub const STRING: u64 = 2;
    /// `StringAttr` with a type: a string and the type.
    pub const STRING_WITH_TYPE: u64 = 3;
    /// `FlatSymbolRefAttr`: the root symbol alone.
    pub const FLAT_SYMBOL_REF: u64 = 4;
    /// `SymbolRefAttr` with nested references: the root, then the nested ones.
    pub const SYMBOL_REF: u64 = 5;
    /// `TypeAttr`: a type.
    pub const TYPE: u64 = 6;
    /// `UnitAttr`: nothing more.
    pub const UNIT: u64 = 7;
    /// `IntegerAttr`: the type, then the value (SPEC.md §6.6.3).
    pub const INTEGER: u64 = 8;
    /// `FloatAttr`: the type, then the bits (SPEC.md §6.6.3).
    pub const FLOAT: u64 = 9;
    /// `CallSiteLoc`: the callee and caller locations.
    pub const CALL_SITE_LOC: u64 = 10;
    /// `FileLineColLoc`: the file name, line and column.
    pub const FILE_LINE_COL_LOC: u64 = 11;
    /// `FusedLoc` without metadata: the locations.
    pub const FUSED_LOC: u64 = 12;
    /// `FusedLoc` with metadata: the locations, then the metadata.
    pub const FUSED_LOC_WITH_METADATA: u64 = 13;
    /// `NameLoc`: the name and the child location.
    pub const NAME_LOC: u64 = 14;
    /// `UnknownLoc`: nothing more.
    pub const UNKNOWN_LOC: u64 = 15;
    /// `DenseResourceElementsAttr`: the type and a resource handle (SPEC.md §6.8).
    pub const DENSE_RESOURCE_ELEMENTS: u64 = 16;
    /// `DenseArrayAttr`: the element type, the element count and the raw data.
    pub const DENSE_ARRAY: u64 = 17;
    /// `DenseIntOrFPElementsAttr`: the type and the raw data.
    pub const DENSE_INT_OR_FP_ELEMENTS: u64 = 18;
    /// `DenseStringElementsAttr`: the type, a splat flag and the strings.
    pub const DENSE_STRING_ELEMENTS: u64 = 19;
    /// `SparseElementsAttr`: the type, the indices and the values.
    pub const SPARSE_ELEMENTS: u64 = 20;
    /// `DistinctAttr`: the referenced attribute.
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

/// Builtin type codes (SPEC.md §6.6.4, §6.6.6); each names the type and
/// what follows the code.
pub mod ty {
    /// `IntegerType`: `width << 2 | signedness`.
    pub const INTEGER: u64 = 0;
    /// `index`.
    pub const INDEX: u64 = 1;
    /// `FunctionType`: the input types, then the result types.
    pub const FUNCTION: u64 = 2;
    /// `bf16`.
    pub const BF16: u64 = 3;
    /// `f16`.
    pub const F16: u64 = 4;
    /// `f32`.
    pub const F32: u64 = 5;
    /// `f64`.
    pub const F64: u64 = 6;
    /// `f80`.
    pub const F80: u64 = 7;
    /// `f128`.
    pub const F128: u64 = 8;
    /// `ComplexType`: the element type.
    pub const COMPLEX: u64 = 9;
    /// `MemRefType` without a memory space: shape, element type, layout.
    pub const MEMREF: u64 = 10;
    /// `MemRefType` with a memory space: memory space, shape, element
    /// type, layout.
    pub const MEMREF_WITH_MEMORY_SPACE: u64 = 11;
    /// `NoneType`.
    pub const NONE: u64 = 12;
    /// `RankedTensorType` without an encoding: shape and element type.
    pub const RANKED_TENSOR: u64 = 13;
    /// `RankedTensorType` with an encoding: encoding, shape, element type.
    pub const RANKED_TENSOR_WITH_ENCODING: u64 = 14;
    /// `TupleType`: the element types.
    pub const TUPLE: u64 = 15;
    /// `UnrankedMemRefType` without a memory space: the element type.
    pub const UNRANKED_MEMREF: u64 = 16;
    /// `UnrankedMemRefType` with a memory space: memory space, element type.
    pub const UNRANKED_MEMREF_WITH_MEMORY_SPACE: u64 = 17;
    /// `UnrankedTensorType`: the element type.
    pub const UNRANKED_TENSOR: u64 = 18;
    /// `VectorType` with no scalable dimension: shape and element type.
    pub const VECTOR: u64 = 19;
    /// `VectorType` with scalable dimensions: the scalable flags, shape,
    /// element type.
    pub const VECTOR_WITH_SCALABLE_DIMS: u64 = 20;
    /// After MLIR 22 (IREE 3.13 writes them; SPEC.md §6.6.6): the float
    /// types MLIR 22 writes as text, each a bare code.
    pub const TF32: u64 = 21;
    /// `f8E5M2`.
    pub const F8E5M2: u64 = 22;
    /// `f8E4M3`.
    pub const F8E4M3: u64 = 23;
    /// `f8E4M3FN`.
    pub const F8E4M3FN: u64 = 24;
    /// `f8E5M2FNUZ`.
    pub const F8E5M2FNUZ: u64 = 25;
    /// `f8E4M3FNUZ`.
    pub const F8E4M3FNUZ: u64 = 26;
    /// `f8E4M3B11FNUZ`.
    pub const F8E4M3B11FNUZ: u64 = 27;
    /// `f8E3M4`.
    pub const F8E3M4: u64 = 28;
    /// `f4E2M1FN`.
    pub const F4E2M1FN: u64 = 29;
    /// `f6E2M3FN`.
    pub const F6E2M3FN: u64 = 30;
    /// `f6E3M2FN`.
    pub const F6E3M2FN: u64 = 31;
    /// `f8E8M0FNU`.
    pub const F8E8M0FNU: u64 = 32;
    /// One past the last code MLIR 22 writes.
    pub const END_MLIR22: u64 = 21;
}
