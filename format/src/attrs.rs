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
    /// Text of the body, kept verbatim.
    Text(Box<str>),
    /// A nested attribute, printed in full (or as its alias).
    Attr(AttrId),
    /// A nested type, printed in full (or as its alias).
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
    /// The dialect namespace (`llvm` in `#llvm.linkage<internal>`).
    pub dialect: Box<str>,
    /// The body after `dialect.`, in order.
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
    /// The file name.
    pub file: FileName,
    /// The first line.
    pub start_line: u32,
    /// The first column; `None` for a location of a line alone (`"f":5`).
    pub start_col: Option<u32>,
    /// The last line; `None` for a line alone.
    pub end_line: Option<u32>,
    /// The last column; `None` for a line alone.
    pub end_col: Option<u32>,
}

/// The payload of `AttrData::Opaque`, boxed (see [`FileLineColRange`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct OpaqueAttr {
    /// The dialect namespace.
    pub dialect: Box<str>,
    /// The body after the namespace, verbatim (`foo<1>` of
    /// `#dialect.foo<1>` and of `#dialect<foo<1>>`).
    pub data: Bytes,
    /// The type after `:`, if any.
    pub ty: Option<TypeId>,
}

/// A float's bit pattern (up to 128 bits), stored as two 64-bit halves:
/// a `u128` field would align every `AttrData` to 16 bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FloatBits([u64; 2]);

impl FloatBits {
    /// The bit pattern, in the low bits of a `u128`.
    pub fn get(self) -> u128 {
        (self.0[1] as u128) << 64 | self.0[0] as u128
    }
}

impl From<u128> for FloatBits {
    fn from(bits: u128) -> Self {
        FloatBits([bits as u64, (bits >> 64) as u64])
    }
}

/// An attribute's data, uniqued by the [`crate::Context`] (SPEC.md §2.3,
/// §2.4); the location variants are builtin locations.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum AttrData {
    /// `unit`.
    Unit,
    /// Integer (and bool: `i1`) attribute. `value` is already normalised to
    /// the type's width: signed interpretation unless the type is unsigned.
    Integer {
        /// An integer type or `index`.
        ty: TypeId,
        /// The value.
        value: BigInt,
    },
    /// Float attribute; `bits` is the raw bit pattern of the float kind.
    Float {
        /// A float type.
        ty: TypeId,
        /// The raw bits, in the low bits.
        bits: FloatBits,
    },
    /// A string attribute, `"..."` with an optional `: type`.
    String {
        /// The string's bytes, unescaped.
        value: Bytes,
        /// `None` is MLIR's `NoneType`.
        ty: Option<TypeId>,
    },
    /// A type used as an attribute.
    Type(TypeId),
    /// `[a, b, ...]`.
    Array(Vec<AttrId>),
    /// Sorted by name (bytewise), no duplicates, as `DictionaryAttr` is.
    Dictionary(Vec<(Bytes, AttrId)>),
    /// `array<i32: 1, 2>`; `data` holds the elements little-endian, one byte
    /// per `i1`, `ceil(width/8)` bytes otherwise.
    DenseArray {
        /// The element type: an integer or float type.
        elem: TypeId,
        /// The elements, packed as described above.
        data: Bytes,
    },
    /// `dense<..>` of integers, index, floats or complex; `data` holds one
    /// element when `splat`, else all of them, each little-endian in
    /// the bytes [`crate::dense::element_layout`] gives (complex: real then imaginary).
    DenseIntOrFp {
        /// The shaped type (tensor or vector).
        ty: TypeId,
        /// Whether `data` holds one element that stands for all.
        splat: bool,
        /// The elements.
        data: Bytes,
    },
    /// `dense<"a", "b">` of strings.
    DenseString {
        /// The shaped type (tensor or vector).
        ty: TypeId,
        /// Whether `strings` holds one string that stands for all.
        splat: bool,
        /// The elements' bytes.
        strings: Vec<Bytes>,
    },
    /// `dense_resource<key> : type`: elements held in a dialect resource
    /// blob ([`crate::ResourceGroup`]).
    DenseResource {
        /// The shaped type.
        ty: TypeId,
        /// The resource's key.
        key: Bytes,
    },
    /// `sparse<indices, values> : type`.
    Sparse {
        /// The shaped type.
        ty: TypeId,
        /// The coordinates of the stored elements: a dense `i64` elements
        /// attribute.
        indices: AttrId,
        /// The stored elements: a dense elements attribute.
        values: AttrId,
    },
    /// `@root` or `@root::@nested::@...`.
    SymbolRef {
        /// The root symbol's name.
        root: Bytes,
        /// The nested symbols' names, outermost first; empty for a flat
        /// reference.
        nested: Box<[Bytes]>,
    },
    /// `affine_map<...>`.
    AffineMap(AffineMap),
    /// Boxed, as is a dialect attribute's body: the payloads larger than
    /// 32 bytes are boxed so that an `AttrData` is 40 bytes, not 64; a
    /// module holds about one interned location per op (SPEC.md §2.1).
    IntegerSet(Box<IntegerSet>),
    /// `strided<[strides], offset: o>`; dynamic values are [`crate::types::DYNAMIC`].
    Strided {
        /// The offset.
        offset: i64,
        /// One stride per dimension.
        strides: Vec<i64>,
    },
    /// `distinct[N]<attr>`: `id` is the identity given at creation; the
    /// printed `N` is assigned by the printer in print order.
    Distinct {
        /// Its identity: two distinct attributes differ by it alone.
        id: u32,
        /// The attribute inside.
        referenced: AttrId,
    },
    /// `#dialect<"data"> : type` of an unregistered dialect.
    Opaque(Box<OpaqueAttr>),
    /// `#dialect.body` of a dialect other than builtin (SPEC.md §2.4).
    Dialect {
        /// The body, with nested attributes and types split out.
        body: Box<DialectBody>,
        /// The type after `:`, if any.
        ty: Option<TypeId>,
    },
    // ----- locations -----
    /// `loc(unknown)`.
    UnknownLoc,
    /// `loc("file":line:col)`.
    FileLineCol {
        /// The file name.
        file: FileName,
        /// The line.
        line: u32,
        /// The column.
        col: u32,
    },
    /// MLIR 22's `FileLineColRange` when it is not a plain point.
    FileLineColRange(Box<FileLineColRange>),
    /// `loc("name"(child))`.
    NameLoc {
        /// The name.
        name: Bytes,
        /// The location it names; `loc(unknown)` when none was written.
        child: AttrId,
    },
    /// `loc(callsite(callee at caller))`.
    CallSiteLoc {
        /// The location of the code called.
        callee: AttrId,
        /// The location of the call.
        caller: AttrId,
    },
    /// `loc(fused<metadata>[a, b, ...])`.
    FusedLoc {
        /// The locations fused.
        locations: Vec<AttrId>,
        /// The metadata attribute, if any.
        metadata: Option<AttrId>,
    },
}

impl AttrData {
    /// The type of a typed attribute whose type is always given (an
    /// integer, float, dense or sparse elements attribute): what MLIR's
    /// `TypedAttr::getType` answers for it, and what an op's custom form
    /// ties to its result type. `None` for any other attribute, including
    /// strings and dialect attributes, whose type is optional.
    pub fn value_type(&self) -> Option<TypeId> {
        match self {
            AttrData::Integer { ty, .. }
            | AttrData::Float { ty, .. }
            | AttrData::DenseIntOrFp { ty, .. }
            | AttrData::DenseString { ty, .. }
            | AttrData::DenseResource { ty, .. }
            | AttrData::Sparse { ty, .. } => Some(*ty),
            _ => None,
        }
    }

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

    /// Whether the attribute is a location.
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
