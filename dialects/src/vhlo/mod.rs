//! VHLO, StableHLO's versioned dialect (SPEC.md §10.1): the dialect of
//! `jax.export` portable artifacts, whose ops and attributes carry their
//! version in their names (`vhlo.func_v1`, `#vhlo.array_v1`) and are
//! frozen once released.
//!
//! Its attributes and types are written with custom bytecode encodings:
//! after a kind code (a varint), the fields of the kind. The kinds, their
//! codes and fields are in `codes.rs` as data, taken from StableHLO
//! 1.20.0's `VhloBytecode.cpp`; this module reads them into dialect
//! bodies printed as StableHLO prints them (`!vhlo.tensor_v1<2x!vhlo.f32_v1>`,
//! `#vhlo<precision_v1 DEFAULT>`), from their assembly formats in
//! `VhloTypes.td` and `VhloAttrs.td`.

mod attrs;
mod codes;
mod types;
mod write;

use rmlir_format::dialect_hooks::{
    Builtin, BytecodeDialect, DialectReader, DialectWriter, HookError, HookResult,
};
use rmlir_format::{AttrId, TypeId};

/// The VHLO dialect's bytecode hooks.
pub struct Vhlo;

/// The dialect's name, as op and attribute names spell it.
pub const DIALECT: &str = "vhlo";

/// The StableHLO release whose VHLO encodings this module reads: every
/// older release's too, as VHLO kinds are never changed once released.
pub const STABLEHLO_RELEASE: &str = "1.20.0";

impl BytecodeDialect for Vhlo {
    fn name(&self) -> &str {
        DIALECT
    }

    fn read_attribute(&self, r: &mut dyn DialectReader) -> HookResult<Option<AttrId>> {
        let code = r.read_varint()?;
        attrs::read(code, r).map(Some)
    }

    fn read_type(&self, r: &mut dyn DialectReader) -> HookResult<Option<TypeId>> {
        let code = r.read_varint()?;
        types::read(code, r).map(Some)
    }

    fn write_attribute(&self, attr: AttrId, w: &mut dyn DialectWriter) -> bool {
        write::write_attribute(attr, w)
    }

    fn write_type(&self, ty: TypeId, w: &mut dyn DialectWriter) -> bool {
        write::write_type(ty, w)
    }

    fn parses_bodies(&self) -> bool {
        true
    }

    /// `integer_v1` and `tensor_v1` hold their value as the builtin
    /// attribute VHLO prints it as (`VhloOps.cpp`'s custom printers).
    fn builtin_at(&self, mnemonic: &str, is_attr: bool, param: Option<&str>) -> Option<Builtin> {
        (is_attr && param.is_none() && matches!(mnemonic, "integer_v1" | "tensor_v1"))
            .then_some(Builtin::Attr)
    }
}

/// The error for a kind code this module does not know: a newer release's.
fn unknown_code(what: &str, code: u64, known: &str) -> HookError {
    HookError(format!(
        "unknown vhlo {what} code {code}: this reader knows the VHLO {what}s of StableHLO {STABLEHLO_RELEASE} and older (codes {known}); the file may come from a newer StableHLO"
    ))
}
