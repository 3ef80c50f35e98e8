//! Custom attribute/type encodings of non-builtin dialects (SPEC.md §6.6.5):
//! MLIR 22 ships declarative encodings for llvm, quant and tosa. Not
//! implemented yet: every entry is reported as unsupported (`None`).

use super::binary_reader::Reader;
use super::BytecodeReader;
use crate::error::Result;
use rmlir_format::{AttrId, TypeId};

/// Decodes a custom attribute entry of `dialect`, or `None` when the
/// dialect's encoding is not known.
pub(super) fn read_dialect_attr<'a>(
    _reader: &mut BytecodeReader<'a>,
    _dialect: &[u8],
    _r: &mut Reader<'a>,
) -> Result<Option<AttrId>> {
    Ok(None)
}

/// Decodes a custom type entry of `dialect`, or `None` when unknown.
pub(super) fn read_dialect_type<'a>(
    _reader: &mut BytecodeReader<'a>,
    _dialect: &[u8],
    _r: &mut Reader<'a>,
) -> Result<Option<TypeId>> {
    Ok(None)
}
