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

/// Section ids, in id order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum SectionId {
    String = 0,
    Dialect = 1,
    AttrType = 2,
    AttrTypeOffset = 3,
    Ir = 4,
    Resource = 5,
    ResourceOffset = 6,
    DialectVersions = 7,
    Properties = 8,
}

impl SectionId {
    pub const COUNT: usize = 9;

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
    pub const HAS_ATTRS: u8 = 0x01;
    pub const HAS_RESULTS: u8 = 0x02;
    pub const HAS_OPERANDS: u8 = 0x04;
    pub const HAS_SUCCESSORS: u8 = 0x08;
    pub const HAS_INLINE_REGIONS: u8 = 0x10;
    pub const HAS_USE_LIST_ORDERS: u8 = 0x20;
    pub const HAS_PROPERTIES: u8 = 0x40;
}

/// Resource entry kinds.
pub mod resource_kind {
    pub const BLOB: u8 = 0;
    pub const BOOL: u8 = 1;
    pub const STRING: u8 = 2;
}

/// The padding byte before aligned data.
pub const ALIGNMENT_PADDING: u8 = 0xCB;
