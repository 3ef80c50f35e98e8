//! Builtin types, modelled structurally (SPEC.md §2.2). Types of other
//! dialects keep their namespace and their body verbatim ([`DialectBody`]).

use crate::attrs::DialectBody;
use crate::context::{AttrId, TypeId};
use crate::float::FloatKind;

/// The marker MLIR uses for a dynamic dimension (`?`), `ShapedType::kDynamic`.
pub const DYNAMIC: i64 = i64::MIN;

/// An integer type's signedness: `i8`, `si8` or `ui8`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Signedness {
    /// `iN`.
    Signless,
    /// `siN`.
    Signed,
    /// `uiN`.
    Unsigned,
}

/// A type's data, uniqued by the [`crate::Context`] (SPEC.md §2.2).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TypeData {
    /// `iN`, `siN`, `uiN`.
    Integer {
        /// The width in bits.
        width: u32,
        /// Whether it is signless, signed or unsigned.
        signedness: Signedness,
    },
    /// `index`.
    Index,
    /// A float type (`f32`, `bf16`, `f8E4M3FN`, ...).
    Float(FloatKind),
    /// `none`.
    None,
    /// `complex<elem>`.
    Complex(TypeId),
    /// `tuple<a, b, ...>`.
    Tuple(Vec<TypeId>),
    /// `(inputs) -> results`.
    Function {
        /// The input types.
        inputs: Vec<TypeId>,
        /// The result types.
        results: Vec<TypeId>,
    },
    /// `vector<4x[8]xf32>`.
    Vector {
        /// The dimensions (never dynamic).
        shape: Vec<i64>,
        /// Empty when no dimension is scalable, as MLIR stores it.
        scalable: Vec<bool>,
        /// The element type.
        elem: TypeId,
    },
    /// `tensor<4x?xf32, encoding>`.
    RankedTensor {
        /// The dimensions; [`DYNAMIC`] for `?`.
        shape: Vec<i64>,
        /// The element type.
        elem: TypeId,
        /// The encoding attribute, if any.
        encoding: Option<AttrId>,
    },
    /// `tensor<*xf32>`.
    UnrankedTensor {
        /// The element type.
        elem: TypeId,
    },
    /// `memref<4x?xf32, layout, memory_space>`.
    MemRef {
        /// The dimensions; [`DYNAMIC`] for `?`.
        shape: Vec<i64>,
        /// The element type.
        elem: TypeId,
        /// `None` is the identity layout (MLIR normalises identity maps away).
        layout: Option<AttrId>,
        /// The memory space attribute, if any.
        memory_space: Option<AttrId>,
    },
    /// `memref<*xf32, memory_space>`.
    UnrankedMemRef {
        /// The element type.
        elem: TypeId,
        /// The memory space attribute, if any.
        memory_space: Option<AttrId>,
    },
    /// `!dialect<"data">` of an unregistered dialect.
    Opaque {
        /// The dialect namespace.
        dialect: Box<str>,
        /// The body after the namespace, verbatim.
        data: Box<[u8]>,
    },
    /// `!dialect.body` / `!dialect<body>`.
    Dialect(DialectBody),
}

impl TypeData {
    /// `iN` of `width` bits.
    pub fn signless(width: u32) -> Self {
        TypeData::Integer {
            width,
            signedness: Signedness::Signless,
        }
    }

    /// The dimensions of a vector, ranked tensor or memref.
    pub fn shape(&self) -> Option<&[i64]> {
        match self {
            TypeData::Vector { shape, .. }
            | TypeData::RankedTensor { shape, .. }
            | TypeData::MemRef { shape, .. } => Some(shape),
            _ => None,
        }
    }

    /// The element type of a vector, tensor or memref, ranked or not.
    pub fn element_type(&self) -> Option<TypeId> {
        match self {
            TypeData::Vector { elem, .. }
            | TypeData::RankedTensor { elem, .. }
            | TypeData::UnrankedTensor { elem }
            | TypeData::MemRef { elem, .. }
            | TypeData::UnrankedMemRef { elem, .. } => Some(*elem),
            _ => None,
        }
    }
}
