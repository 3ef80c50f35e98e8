//! The serialized form of op knowledge (SPEC.md §7.1). Shared by the build
//! script, which converts the checked-in JSON into bincode, and the
//! registry, which loads that bincode at first use.

use serde::{Deserialize, Serialize};

/// How one field of a properties payload is encoded.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum FieldKind {
    /// A required attribute: one attribute index.
    Attr,
    /// An optional (or default-valued) attribute: `vflag(index, present)`.
    OptAttr,
    /// v5 only: a required `DenseI32ArrayAttr` of segment sizes.
    LegacySegments,
    /// v6+: segment sizes as a sparse int array with `size` slots.
    SparseSegments {
        /// The number of segments.
        size: usize,
    },
    /// A VarInt integer property of `bits` width.
    Int {
        /// The width of the C++ integer type.
        bits: u32,
        /// Whether the C++ type is signed (the value is then sign-extended
        /// to 64 bits on the wire).
        signed: bool,
    },
    /// One byte 0/1.
    Bool,
    /// One byte 0/1 (present flag).
    Unit,
    /// A string-table index.
    String,
    /// A VarInt enum value, shown as an integer attribute of `bits` width.
    Enum {
        /// The width of the enum's underlying integer.
        bits: u32,
    },
    /// A VarInt count, then that many elements of the inner encoding.
    Array(Box<FieldKind>),
    /// One byte present flag, then the inner encoding.
    Optional(Box<FieldKind>),
}

/// One field of an op's properties payload, in the order it is read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Field {
    /// The property's name, as shown in `<{...}>`.
    pub name: String,
    /// How it is encoded.
    pub kind: FieldKind,
    /// The C++ storage type (`::mlir::ArrayAttr`, `int64_t`); compared when
    /// a payload is carried from one MLIR release's layout to another's.
    #[serde(default)]
    pub ctype: Option<String>,
}

/// What the registry knows of one op (SPEC.md §7).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpInfo {
    /// The full name (`dialect.op`).
    pub name: String,
    /// Whether it has the `IsolatedFromAbove` trait.
    pub isolated_from_above: bool,
    /// Whether it has the `IsTerminator` trait.
    pub terminator: bool,
    /// Its inherent attribute names: what moves from the attribute
    /// dictionary into the properties when reading files before v5.
    pub inherent_attrs: Vec<String>,
    /// Whether it stores its inherent attributes as properties.
    pub has_properties: bool,
    /// Reads of `readProperties` at bytecode version 5.
    pub fields_v5: Vec<Field>,
    /// Reads of `readProperties` at bytecode version 6.
    pub fields_v6: Vec<Field>,
    /// The properties a new op starts with, as the text of a dictionary
    /// attribute (SPEC.md §7.1); entries the input gives override them.
    #[serde(default)]
    pub default_properties: Option<String>,
}

/// A whole layout file: the release it was generated from and its ops.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct RegistryData {
    /// The MLIR release (`22.1.8`).
    pub mlir_release: String,
    /// Every op of the release.
    pub ops: Vec<OpInfo>,
}

/// The embedded index of a release's layouts: each op's name and where
/// its own bincode [`OpInfo`] lies in the blob embedded beside the index.
/// Loading a registry reads only this index (a few tens of kilobytes);
/// an op is deserialized when first looked up (SPEC.md §7.1). The
/// strings borrow from the embedded bytes.
#[derive(Serialize, Deserialize)]
pub struct EmbeddedIndex<'a> {
    /// The MLIR release (`22.1.8`).
    pub mlir_release: &'a str,
    /// `(op name, start, end)` in the blob.
    #[serde(borrow)]
    pub ops: Vec<(&'a str, u32, u32)>,
}
