//! Builtin types, modelled structurally (SPEC.md §2.2). Types of other
//! dialects keep their namespace and their body verbatim ([`DialectBody`]).

use crate::attrs::DialectBody;
use crate::context::{AttrId, TypeId};
use crate::float::FloatKind;

/// The marker MLIR uses for a dynamic dimension (`?`), `ShapedType::kDynamic`.
pub const DYNAMIC: i64 = i64::MIN;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Signedness {
    Signless,
    Signed,
    Unsigned,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TypeData {
    Integer {
        width: u32,
        signedness: Signedness,
    },
    Index,
    Float(FloatKind),
    None,
    Complex(TypeId),
    Tuple(Vec<TypeId>),
    Function {
        inputs: Vec<TypeId>,
        results: Vec<TypeId>,
    },
    Vector {
        shape: Vec<i64>,
        /// Empty when no dimension is scalable, as MLIR stores it.
        scalable: Vec<bool>,
        elem: TypeId,
    },
    RankedTensor {
        shape: Vec<i64>,
        elem: TypeId,
        encoding: Option<AttrId>,
    },
    UnrankedTensor {
        elem: TypeId,
    },
    MemRef {
        shape: Vec<i64>,
        elem: TypeId,
        /// `None` is the identity layout (MLIR normalises identity maps away).
        layout: Option<AttrId>,
        memory_space: Option<AttrId>,
    },
    UnrankedMemRef {
        elem: TypeId,
        memory_space: Option<AttrId>,
    },
    /// `!dialect<"data">` of an unregistered dialect.
    Opaque {
        dialect: Box<str>,
        data: Box<[u8]>,
    },
    /// `!dialect.body` / `!dialect<body>`.
    Dialect(DialectBody),
}

impl TypeData {
    pub fn signless(width: u32) -> Self {
        TypeData::Integer {
            width,
            signedness: Signedness::Signless,
        }
    }

    pub fn shape(&self) -> Option<&[i64]> {
        match self {
            TypeData::Vector { shape, .. }
            | TypeData::RankedTensor { shape, .. }
            | TypeData::MemRef { shape, .. } => Some(shape),
            _ => None,
        }
    }

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
