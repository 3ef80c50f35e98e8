//! Wire-level facts of MLIR bytecode shared by the reader and the writer
//! (SPEC.md §6): the magic, versions, section ids, the PrefixVarInt and
//! the builtin dialect's attribute and type codes.

pub mod builtin_codes;
pub mod varint;

/// `"ML\xEFR"`.
pub const MAGIC: [u8; 4] = [0x4D, 0x4C, 0xEF, 0x52];

/// The newest bytecode version (MLIR 19 through 22).
pub const VERSION_CURRENT: u64 = 6;
/// Dialect entries carry a version flag from this version on.
pub const VERSION_DIALECT_VERSIONING: u64 = 1;
/// Isolated regions live in nested IR sections from this version on.
pub const VERSION_LAZY_LOADING: u64 = 2;
/// Use-list orders from this version on.
pub const VERSION_USE_LIST_ORDERING: u64 = 3;
/// Block arguments may omit an unknown location; op-name count in the dialect section.
pub const VERSION_ELIDE_UNKNOWN_BLOCK_ARG_LOC: u64 = 4;
/// Native properties (properties section, `wasRegistered` flags).
pub const VERSION_NATIVE_PROPERTIES: u64 = 5;
/// ODS segment sizes as native sparse arrays.
pub const VERSION_NATIVE_SEGMENT_SIZES: u64 = 6;

/// Section ids, in id order (SPEC.md §6.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum SectionId {
    /// The string table (SPEC.md §6.4).
    String = 0,
    /// Dialect names and op names (SPEC.md §6.5).
    Dialect = 1,
    /// The attribute and type entries (SPEC.md §6.6).
    AttrType = 2,
    /// The counts and sizes of the attribute and type entries, by dialect
    /// (SPEC.md §6.6).
    AttrTypeOffset = 3,
    /// The operations (SPEC.md §6.7).
    Ir = 4,
    /// Resource payloads (SPEC.md §6.8).
    Resource = 5,
    /// Resource groups, keys and kinds (SPEC.md §6.8).
    ResourceOffset = 6,
    /// A dialect's version payload, nested in the dialect section (v1+,
    /// SPEC.md §6.5, §9.2).
    DialectVersions = 7,
    /// Op properties (v5+, SPEC.md §6.9).
    Properties = 8,
}

impl SectionId {
    /// The number of section ids.
    pub const COUNT: usize = 9;

    /// The section of id byte `id` (its alignment bit cleared), if any.
    pub fn from_u8(id: u8) -> Option<SectionId> {
        Some(match id {
            0 => SectionId::String,
            1 => SectionId::Dialect,
            2 => SectionId::AttrType,
            3 => SectionId::AttrTypeOffset,
            4 => SectionId::Ir,
            5 => SectionId::Resource,
            6 => SectionId::ResourceOffset,
            7 => SectionId::DialectVersions,
            8 => SectionId::Properties,
            _ => return None,
        })
    }

    /// The name upstream diagnostics use (`String (0)`).
    pub fn name(self) -> &'static str {
        match self {
            SectionId::String => "String",
            SectionId::Dialect => "Dialect",
            SectionId::AttrType => "AttrType",
            SectionId::AttrTypeOffset => "AttrTypeOffset",
            SectionId::Ir => "IR",
            SectionId::Resource => "Resource",
            SectionId::ResourceOffset => "ResourceOffset",
            SectionId::DialectVersions => "DialectVersions",
            SectionId::Properties => "Properties",
        }
    }
}

/// Operation encoding mask bits (in the order of their fields on the wire:
/// location always, then attrs, properties, results, operands, successors,
/// use-lists, regions).
pub mod op_mask {
    /// An attribute dictionary follows.
    pub const HAS_ATTRS: u8 = 0x01;
    /// Result types follow.
    pub const HAS_RESULTS: u8 = 0x02;
    /// Operands follow.
    pub const HAS_OPERANDS: u8 = 0x04;
    /// Successors follow.
    pub const HAS_SUCCESSORS: u8 = 0x08;
    /// Regions follow (a count and whether they are isolated).
    pub const HAS_INLINE_REGIONS: u8 = 0x10;
    /// Use-list orders of the op's results follow (v3+).
    pub const HAS_USE_LIST_ORDERS: u8 = 0x20;
    /// A properties index follows (v5+).
    pub const HAS_PROPERTIES: u8 = 0x40;
}

/// Resource entry kinds (SPEC.md §6.8).
pub mod resource_kind {
    /// An aligned blob.
    pub const BLOB: u8 = 0;
    /// A boolean, one byte.
    pub const BOOL: u8 = 1;
    /// A string.
    pub const STRING: u8 = 2;
}

/// The padding byte before aligned data.
pub const ALIGNMENT_PADDING: u8 = 0xCB;
