//! The shapes of the generated tables (`rmlir-dialects`'
//! `upstream_encodings.rs`, written by tools/dialect-encodings/gen.py).

/// One dialect's custom attribute and type encodings, by kind code.
pub struct DialectSpec {
    /// The dialect's namespace.
    pub name: &'static str,
    /// Its custom-encoded attribute kinds.
    pub attrs: &'static [KindSpec],
    /// Its custom-encoded type kinds.
    pub types: &'static [KindSpec],
}

/// One attribute or type kind: after its kind code (a varint), the entry
/// holds the reads of `steps`, in order.
pub struct KindSpec {
    /// The kind code the entry starts with.
    pub code: u64,
    /// The C++ class built from the fields (for error messages).
    pub class: &'static str,
    /// The reads of the entry after its code, in order.
    pub steps: &'static [Step],
}

/// One read of an entry.
pub struct Step {
    /// The C++ variable the generated reader reads into.
    pub name: &'static str,
    /// What is read.
    pub read: Read,
}

/// The `DialectBytecodeReader` calls the generated readers make.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Read {
    /// `readVarInt`.
    VarInt,
    /// `readSignedVarInt`.
    SignedVarInt,
    /// `readString`: a string table index.
    Str,
    /// `readBool`: one byte.
    Bool,
    /// `readAttribute`: an attribute table index.
    Attr,
    /// `readOptionalAttribute`: `(index << 1) | present`.
    OptAttr,
    /// `readType`: a type table index.
    Type,
    /// The llvm dialect's `readOptionalInt`: a varint with a presence flag
    /// (`(value << 1) | present`).
    OptInt,
    /// The llvm dialect's `readOptionalArrayRef` of attributes: a bool, then
    /// if set a list of optional attributes.
    OptArrayAttr,
    /// `readOptionalArrayRef` of integers: a bool, then if set a list of
    /// varints.
    OptArrayInt,
    /// The quant dialect's `readDoubleAPFloat`: an `f64` as a 64-bit APInt.
    F64,
    /// `readList` of `F64`.
    ListF64,
    /// `readList` of `SignedVarInt`.
    ListSignedVarInt,
}

/// How an llvm attribute kind prints (from its ODS definition).
pub struct AttrSpec {
    /// The kind code, as in the attribute's [`KindSpec`].
    pub code: u64,
    /// The mnemonic after `#llvm.`.
    pub mnemonic: &'static str,
    /// The assembly format.
    pub format: Format,
    /// The ODS parameters, in order.
    pub params: &'static [Param],
}

/// The assembly formats of the custom-encoded llvm attributes.
// Not every variant is used by the MLIR 22 tables; the generator emits any.
#[allow(dead_code)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// `` `<` struct(params) `>` ``.
    Struct,
    /// No parameters, no format: the mnemonic alone.
    Bare,
    /// `` `<` $name `in` $directory `>` ``.
    DiFile,
    /// `` `<` ( `[` $operations^ `]` ) : (``)? `>` ``.
    DiExpression,
    /// ``` `` $opcode ( `(` custom<ExpressionArg>(...)^ `)` ) : (``)? ```.
    DiExpressionElem,
}

/// One ODS parameter of an llvm attribute.
pub struct Param {
    /// The parameter's name, as printed in `struct(params)`.
    pub name: &'static str,
    /// Its C++ type.
    pub ty: ParamTy,
    /// Has a default value: left out of `struct(params)` when equal to it.
    pub optional: bool,
    /// The read step that supplies the value; `None` when the encoding does
    /// not carry the parameter (it keeps its default).
    pub step: Option<usize>,
}

/// The C++ types of llvm attribute parameters, as far as printing needs.
// Not every variant is used by the MLIR 22 tables; the generator emits any.
#[allow(dead_code)]
#[derive(Clone, Copy, Debug)]
pub enum ParamTy {
    /// `unsigned` printed through an `llvm::dwarf::*String` table.
    Dwarf(&'static [(u32, &'static str)]),
    /// `unsigned` or `uint32_t`.
    U32,
    /// `uint64_t`.
    U64,
    /// `bool`.
    Bool,
    /// `std::optional<unsigned>`.
    OptU32,
    /// An llvm enum, printed by its [`EnumSpec`].
    Enum(&'static EnumSpec),
    /// `StringAttr`.
    StrAttr,
    /// `BoolAttr`.
    BoolAttr,
    /// `IntegerAttr`.
    IntAttr,
    /// `DistinctAttr`.
    Distinct,
    /// `FusedLoc`.
    FusedLoc,
    /// `::mlir::Attribute`.
    AnyAttr,
    /// An llvm attribute interface (`DINodeAttr`, ...): printed in full.
    LlvmAttr,
    /// A specific llvm attribute class (by mnemonic): printed stripped.
    Stripped(&'static str),
    /// An `ArrayRef` of the inner type, printed comma-separated.
    Array(&'static ParamTy),
    /// `ArrayRef<uint64_t>`, printed comma-separated.
    U64Array,
}

/// An ODS enum's `stringify` and `operator<<`.
#[derive(Debug)]
pub enum EnumSpec {
    /// A bit enum: `steps` are `(mask, name, clears)` in stringify order;
    /// several names print joined by `|`, quoted unless the value is one of
    /// `unquoted`.
    Bits {
        /// The width of the enum's underlying integer.
        bits: u32,
        /// The name printed for 0 (empty when the enum has none).
        zero: &'static str,
        /// `(mask, name, clears)`: `name` prints when every bit of `mask`
        /// is set, and `clears` takes those bits out for later steps.
        steps: &'static [(u64, &'static str, bool)],
        /// The values of several bits that print without quotes.
        unquoted: &'static [u64],
    },
    /// A plain enum: one name per value.
    Plain {
        /// The width of the enum's underlying integer.
        bits: u32,
        /// `(value, name)`.
        names: &'static [(u64, &'static str)],
    },
}
