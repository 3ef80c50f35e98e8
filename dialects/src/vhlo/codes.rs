//! VHLO's bytecode kind codes (StableHLO 1.20.0, `VhloBytecode.cpp`'s
//! `vhlo_encoding` enums) with the mnemonics `VhloTypes.td` and
//! `VhloAttrs.td` print them under. Codes are never reused: a kind keeps
//! its code in every release that has it.

/// A VHLO type kind: how its fields are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TypeKind {
    /// No fields: the mnemonic alone (`!vhlo.f32_v1`).
    Plain,
    Complex,
    Function,
    RankedTensor,
    RankedTensorWithEncoding,
    Tuple,
    Future,
    UniformQuantized,
    UniformQuantizedPerAxis,
    UnrankedTensor,
    RankedBuffer,
}

/// The builtin type a plain VHLO type stands for when VHLO prints a value
/// in builtin terms (`#vhlo.integer_v1<1 : i64>`, `#vhlo.tensor_v1<dense<…>
/// : tensor<2xf32>>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Builtin {
    None,
    /// `i1`.
    Bool,
    /// A signless (`iN`) or unsigned (`uiN`) integer of this width.
    Int(u32, bool),
    Index,
    /// A float by its builtin keyword (`f32`, `f8E4M3FN`, `tf32`).
    Float(&'static str),
}

/// Every VHLO type: (code, mnemonic, kind, builtin equivalent).
pub const TYPES: &[(u64, &str, TypeKind, Builtin)] = {
    use Builtin as B;
    use TypeKind::*;
    &[
        (0, "bool_v1", Plain, B::Bool),
        (1, "complex_v1", Complex, B::None),
        (2, "bf16_v1", Plain, B::Float("bf16")),
        (3, "f16_v1", Plain, B::Float("f16")),
        (4, "f32_v1", Plain, B::Float("f32")),
        (5, "f64_v1", Plain, B::Float("f64")),
        (6, "f8E4M3FN_v1", Plain, B::Float("f8E4M3FN")),
        (7, "f8E5M2_v1", Plain, B::Float("f8E5M2")),
        (8, "func_v1", Function, B::None),
        (9, "index_v1", Plain, B::Index),
        (10, "i4_v1", Plain, B::Int(4, false)),
        (11, "i8_v1", Plain, B::Int(8, false)),
        (12, "i16_v1", Plain, B::Int(16, false)),
        (13, "i32_v1", Plain, B::Int(32, false)),
        (14, "i64_v1", Plain, B::Int(64, false)),
        (15, "ui4_v1", Plain, B::Int(4, true)),
        (16, "ui8_v1", Plain, B::Int(8, true)),
        (17, "ui16_v1", Plain, B::Int(16, true)),
        (18, "ui32_v1", Plain, B::Int(32, true)),
        (19, "ui64_v1", Plain, B::Int(64, true)),
        (20, "tensor_v1", RankedTensor, B::None),
        (21, "tensor_v1", RankedTensorWithEncoding, B::None),
        (22, "token_v1", Plain, B::None),
        (23, "tuple_v1", Tuple, B::None),
        (24, "quant_v1", UniformQuantized, B::None),
        (25, "unranked_tensor_v1", UnrankedTensor, B::None),
        (26, "witness_v1", Plain, B::None),
        (27, "f8E4M3FNUZ_v1", Plain, B::Float("f8E4M3FNUZ")),
        (28, "f8E5M2FNUZ_v1", Plain, B::Float("f8E5M2FNUZ")),
        (29, "f8E4M3B11FNUZ_v1", Plain, B::Float("f8E4M3B11FNUZ")),
        (30, "quant_per_axis_v1", UniformQuantizedPerAxis, B::None),
        (31, "i2_v1", Plain, B::Int(2, false)),
        (32, "ui2_v1", Plain, B::Int(2, true)),
        (33, "none_v1", Plain, B::None),
        // StableHLO names TF32's type `tf31_v1`.
        (34, "tf31_v1", Plain, B::Float("tf32")),
        (35, "f8E4M3_v1", Plain, B::Float("f8E4M3")),
        (36, "f8E3M4_v1", Plain, B::Float("f8E3M4")),
        (37, "f4E2M1FN_v1", Plain, B::Float("f4E2M1FN")),
        (38, "f6E2M3FN_v1", Plain, B::Float("f6E2M3FN")),
        (39, "f6E3M2FN_v1", Plain, B::Float("f6E3M2FN")),
        (40, "f8E8M0FNU_v1", Plain, B::Float("f8E8M0FNU")),
        (41, "buffer_v1", RankedBuffer, B::None),
        (42, "future_v1", Future, B::None),
    ]
};

/// A VHLO attribute kind: how its fields are read and printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AttrKind {
    Array,
    Boolean,
    /// An enum: a varint, printed `#vhlo<mnemonic NAME>` with the names
    /// of the enum's cases by value.
    Enum(crate::hlo::Cases),
    Dictionary,
    Float,
    Integer,
    OutputOperandAlias,
    String,
    Tensor,
    Type,
    TypeExtensions,
    ResultAccuracy,
    SubAxisInfo,
    AxisRef,
    ReplicaGroupMeshAxes,
    MeshAxis,
    Mesh,
}

/// Every VHLO attribute: (code, mnemonic, kind). Code 0 was
/// `ArgResultAliasV1Attr`, removed before VHLO's first release.
pub const ATTRS: &[(u64, &str, AttrKind)] = {
    use crate::hlo::*;
    use AttrKind::*;
    &[
        (1, "array_v1", Array),
        (2, "bool_v1", Boolean),
        (3, "comparison_direction_v1", Enum(COMPARISON_DIRECTION)),
        (4, "comparison_type_v1", Enum(COMPARISON_TYPE)),
        (5, "api_version_v1", Enum(API_VERSION)),
        (6, "dict_v1", Dictionary),
        (7, "fft_type_v1", Enum(FFT_TYPE)),
        (8, "float_v1", Float),
        (9, "integer_v1", Integer),
        (10, "output_operand_alias_v1", OutputOperandAlias),
        (11, "precision_v1", Enum(PRECISION)),
        (12, "rng_algorithm_v1", Enum(RNG_ALGORITHM)),
        (13, "rng_distribution_v1", Enum(RNG_DISTRIBUTION)),
        (14, "string_v1", String),
        (15, "tensor_v1", Tensor),
        (16, "transpose_v1", Enum(TRANSPOSE)),
        (17, "type_v1", Type),
        (18, "type_extensions_v1", TypeExtensions),
        (19, "result_accuracy_mode_v1", Enum(RESULT_ACCURACY_MODE)),
        (20, "result_accuracy_v1", ResultAccuracy),
        (21, "sub_axis_info_v1", SubAxisInfo),
        (22, "axis_ref_v1", AxisRef),
        (23, "replica_group_mesh_axes_v1", ReplicaGroupMeshAxes),
        (24, "mesh_axis_v1", MeshAxis),
        (25, "mesh_v1", Mesh),
    ]
};

pub fn type_by_code(code: u64) -> Option<(&'static str, TypeKind, Builtin)> {
    TYPES
        .iter()
        .find(|t| t.0 == code)
        .map(|&(_, m, k, b)| (m, k, b))
}

pub fn attr_by_code(code: u64) -> Option<(&'static str, AttrKind)> {
    ATTRS.iter().find(|a| a.0 == code).map(|&(_, m, k)| (m, k))
}

/// The builtin equivalent of a plain type, by mnemonic.
pub fn builtin_of_mnemonic(mnemonic: &str) -> Option<Builtin> {
    TYPES
        .iter()
        .find(|t| t.1 == mnemonic && t.2 == TypeKind::Plain)
        .map(|t| t.3)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Codes are unique, as the C++ enums have them.
    #[test]
    fn codes_are_unique() {
        let mut t: Vec<u64> = TYPES.iter().map(|t| t.0).collect();
        t.sort();
        t.dedup();
        assert_eq!(t.len(), TYPES.len());
        assert_eq!(t, (0..=42).collect::<Vec<_>>());
        let mut a: Vec<u64> = ATTRS.iter().map(|a| a.0).collect();
        a.sort();
        a.dedup();
        assert_eq!(a, (1..=25).collect::<Vec<_>>());
    }
}
