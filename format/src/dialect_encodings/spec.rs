//! The shapes of the generated tables (`generated.rs`, written by
//! tools/dialect-encodings/gen.py).

/// One dialect's custom attribute and type encodings, by kind code.
pub struct DialectSpec {
    pub name: &'static str,
    pub attrs: &'static [KindSpec],
    pub types: &'static [KindSpec],
}

/// One attribute or type kind: after its kind code (a varint), the entry
/// holds the reads of `steps`, in order.
pub struct KindSpec {
    pub code: u64,
    /// The C++ class built from the fields (for error messages).
    pub class: &'static str,
    pub steps: &'static [Step],
}

pub struct Step {
    pub name: &'static str,
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
    pub code: u64,
    pub mnemonic: &'static str,
    pub format: Format,
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

pub struct Param {
    pub name: &'static str,
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
    U32,
    U64,
    Bool,
    /// `std::optional<unsigned>`.
    OptU32,
    Enum(&'static EnumSpec),
    StrAttr,
    BoolAttr,
    IntAttr,
    Distinct,
    FusedLoc,
    /// `::mlir::Attribute`.
    AnyAttr,
    /// An llvm attribute interface (`DINodeAttr`, ...): printed in full.
    LlvmAttr,
    /// A specific llvm attribute class (by mnemonic): printed stripped.
    Stripped(&'static str),
    Array(&'static ParamTy),
    U64Array,
}

/// An ODS enum's `stringify` and `operator<<`.
#[derive(Debug)]
pub enum EnumSpec {
    /// A bit enum: `steps` are `(mask, name, clears)` in stringify order;
    /// several names print joined by `|`, quoted unless the value is one of
    /// `unquoted`.
    Bits {
        bits: u32,
        zero: &'static str,
        steps: &'static [(u64, &'static str, bool)],
        unquoted: &'static [u64],
    },
    Plain {
        bits: u32,
        names: &'static [(u64, &'static str)],
    },
}
