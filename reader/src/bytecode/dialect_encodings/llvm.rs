//! The llvm dialect's custom-encoded attributes (debug info, loop
//! annotations): decoded fields are printed as mlir-opt 22 prints them by
//! `rmlir_format::dialect_encodings::llvm_text`, which the text parser
//! shares; this module turns its complaints into errors at the entry's or
//! the field's byte offset.

use super::Entry;
use crate::bytecode::binary_reader::Reader;
use crate::bytecode::BytecodeReader;
use crate::error::Result;
use rmlir_format::dialect_encodings::llvm_text;
use rmlir_format::*;

pub(super) fn build_attr(
    reader: &mut BytecodeReader<'_>,
    entry: &Entry<'_>,
    r: &Reader<'_>,
) -> Result<AttrId> {
    let Some(spec) = llvm_text::spec_of(entry.kind.code) else {
        return r.err_at(
            entry.at,
            format!(
                "llvm attribute {}: no printing rules for this kind",
                entry.kind.class
            ),
        );
    };
    let pieces = match llvm_text::print(&reader.module.ctx, spec, entry.kind, &entry.values) {
        Ok(p) => p,
        Err(e) => {
            return match e.field {
                Some(i) => entry.err_field(r, i, e.msg),
                None => r.err_at(entry.at, e.msg),
            }
        }
    };
    let body = DialectBody {
        dialect: "llvm".into(),
        pieces,
    };
    Ok(reader.module.ctx.intern_attr(AttrData::Dialect {
        body: Box::new(body),
        ty: None,
    }))
}
