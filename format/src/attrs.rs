//! Builtin attributes and locations, modelled structurally (SPEC.md §2.3).
//! Attributes of other dialects keep their namespace and their body
//! verbatim, with nested attribute/type references split out so that the
//! printer can alias them (SPEC.md §2.4).

use crate::affine::{AffineMap, IntegerSet};
use crate::context::{AttrId, TypeId};
use num_bigint::BigInt;

/// Raw string bytes: MLIR strings may hold any byte (`"\FF"`), so they are
/// not required to be UTF-8.
pub type Bytes = Box<[u8]>;

/// A location's file name: shared, since a module's many locations name a
/// few files (one allocation per file, not per location).
pub type FileName = std::sync::Arc<[u8]>;

/// One piece of a dialect attribute or type body.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum BodyPiece {
    Text(Box<str>),
    Attr(AttrId),
    Type(TypeId),
    /// A nested attribute of the same dialect that the dialect prints
    /// "stripped": its body without `#dialect.mnemonic` (`file = <"a" in
    /// "b">`), or its alias when it has one (SPEC.md §2.4).
    Stripped(AttrId),
}

/// The body of a dialect attribute or type: the "symbol data" MLIR passes to
/// the dialect, e.g. `linkage<internal>` for `#llvm.linkage<internal>`.
///
/// For registered dialects, nested attributes and types inside the body are
/// separate pieces so that aliases (`#map`, `#di_file`, `#loc3`) can be
/// printed for them; unregistered dialects' bodies are one text piece, as
/// MLIR keeps them as opaque strings.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DialectBody {
    pub dialect: Box<str>,
    pub pieces: Vec<BodyPiece>,
}

impl DialectBody {
    /// Whether the body is an attribute of kind `mnemonic`: the mnemonic,
    /// then its parameters in `<…>` or nothing (`di_file<…>`, not
    /// `di_file$<…>`). Only such an attribute can be printed stripped.
    pub fn is_kind(&self, mnemonic: &str) -> bool {
        match self.pieces.first() {
            Some(BodyPiece::Text(t)) => t.strip_prefix(mnemonic).is_some_and(|rest| {
                rest.starts_with('<') || (rest.is_empty() && self.pieces.len() == 1)
            }),
            _ => false,
        }
    }

    /// The leading identifier of the body (`encoding` in
    /// `#sparse_tensor.encoding<{..}>`), used to pick a dialect alias.
    pub fn mnemonic(&self) -> &str {
        match self.pieces.first() {
            Some(BodyPiece::Text(t)) => {
                let end = t
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
                    .unwrap_or(t.len());
                &t[..end]
            }
            _ => "",
        }
    }
}

/// The payload of `AttrData::FileLineColRange`, boxed: the variants over
/// 32 bytes are, so that an `AttrData` is 40 bytes (SPEC.md §2.1).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FileLineColRange {
    pub file: FileName,
    pub start_line: u32,
    pub start_col: Option<u32>,
    pub end_line: Option<u32>,
    pub end_col: Option<u32>,
}

/// The payload of `AttrData::Opaque`, boxed (see [`FileLineColRange`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct OpaqueAttr {
    pub dialect: Box<str>,
    pub data: Bytes,
    pub ty: Option<TypeId>,
}

/// A float's bit pattern (up to 128 bits), stored as two 64-bit halves:
/// a `u128` field would align every `AttrData` to 16 bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FloatBits([u64; 2]);

impl FloatBits {
    pub fn get(self) -> u128 {
        (self.0[1] as u128) << 64 | self.0[0] as u128
    }
}

impl From<u128> for FloatBits {
    fn from(bits: u128) -> Self {
        FloatBits([bits as u64, (bits >> 64) as u64])
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum AttrData {
    Unit,
    /// Integer (and bool: `i1`) attribute. `value` is already normalised to
    /// the type's width: signed interpretation unless the type is unsigned.
    Integer {
        ty: TypeId,
        value: BigInt,
    },
    /// Float attribute; `bits` is the raw bit pattern of the float kind.
    Float {
        ty: TypeId,
        bits: FloatBits,
    },
    String {
        value: Bytes,
        /// `None` is MLIR's `NoneType`.
        ty: Option<TypeId>,
    },
    Type(TypeId),
    Array(Vec<AttrId>),
    /// Sorted by name (bytewise), no duplicates, as `DictionaryAttr` is.
    Dictionary(Vec<(Bytes, AttrId)>),
    /// `array<i32: 1, 2>`; `data` holds the elements little-endian, one byte
    /// per `i1`, `ceil(width/8)` bytes otherwise.
    DenseArray {
        elem: TypeId,
        data: Bytes,
    },
    /// `dense<..>` of integers, index, floats or complex; `data` holds one
    /// element when `splat`, else all of them, each little-endian in
    /// the bytes [`crate::dense::element_layout`] gives (complex: real then imaginary).
    DenseIntOrFp {
        ty: TypeId,
        splat: bool,
        data: Bytes,
    },
    DenseString {
        ty: TypeId,
        splat: bool,
        strings: Vec<Bytes>,
    },
    DenseResource {
        ty: TypeId,
        key: Bytes,
    },
    Sparse {
        ty: TypeId,
        indices: AttrId,
        values: AttrId,
    },
    SymbolRef {
        root: Bytes,
        nested: Box<[Bytes]>,
    },
    AffineMap(AffineMap),
    /// Boxed, as is a dialect attribute's body: the payloads larger than
    /// 32 bytes are boxed so that an `AttrData` is 40 bytes, not 64; a
    /// module holds about one interned location per op (SPEC.md §2.1).
    IntegerSet(Box<IntegerSet>),
    /// `strided<[strides], offset: o>`; dynamic values are [`crate::types::DYNAMIC`].
    Strided {
        offset: i64,
        strides: Vec<i64>,
    },
    /// `distinct[N]<attr>`: `id` is the identity given at creation; the
    /// printed `N` is assigned by the printer in print order.
    Distinct {
        id: u32,
        referenced: AttrId,
    },
    /// `#dialect<"data"> : type` of an unregistered dialect.
    Opaque(Box<OpaqueAttr>),
    Dialect {
        body: Box<DialectBody>,
        ty: Option<TypeId>,
    },
    // ----- locations -----
    UnknownLoc,
    FileLineCol {
        file: FileName,
        line: u32,
        col: u32,
    },
    /// MLIR 22's `FileLineColRange` when it is not a plain point.
    FileLineColRange(Box<FileLineColRange>),
    NameLoc {
        name: Bytes,
        child: AttrId,
    },
    CallSiteLoc {
        callee: AttrId,
        caller: AttrId,
    },
    FusedLoc {
        locations: Vec<AttrId>,
        metadata: Option<AttrId>,
    },
}

impl AttrData {
    /// What the attribute is, for diagnostics ("an integer attribute").
    pub fn kind_phrase(&self) -> &'static str {
        match self {
            AttrData::Unit => "a unit attribute",
            AttrData::Integer { .. } => "an integer attribute",
            AttrData::Float { .. } => "a float attribute",
            AttrData::String { .. } => "a string attribute",
            AttrData::Type(_) => "a type attribute",
            AttrData::Array(_) => "an array attribute",
            AttrData::Dictionary(_) => "a dictionary attribute",
            AttrData::DenseArray { .. } => "a dense array attribute",
            AttrData::DenseIntOrFp { .. } | AttrData::DenseString { .. } => {
                "a dense elements attribute"
            }
            AttrData::DenseResource { .. } => "a dense resource attribute",
            AttrData::Sparse { .. } => "a sparse elements attribute",
            AttrData::SymbolRef { .. } => "a symbol reference",
            AttrData::AffineMap(_) => "an affine map",
            AttrData::IntegerSet(_) => "an integer set",
            AttrData::Strided { .. } => "a strided layout",
            AttrData::Distinct { .. } => "a distinct attribute",
            AttrData::Opaque(_) | AttrData::Dialect { .. } => "a dialect attribute",
            _ => "a location",
        }
    }

    pub fn is_location(&self) -> bool {
        matches!(
            self,
            AttrData::UnknownLoc
                | AttrData::FileLineCol { .. }
                | AttrData::FileLineColRange(_)
                | AttrData::NameLoc { .. }
                | AttrData::CallSiteLoc { .. }
                | AttrData::FusedLoc { .. }
        )
    }
}
