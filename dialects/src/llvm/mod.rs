//! The llvm dialect (MLIR 22): its debug-info and loop-annotation
//! attributes have a binary encoding MLIR declares as data (SPEC.md
//! §6.6.5). The reader decodes an entry's fields by the generated tables
//! ([`crate::upstream_encodings`]); `text.rs` prints them from each
//! attribute's ODS parameters and assembly format, reads such text back
//! into fields for the writer, and respells hand-written bodies.

mod newer_kinds;
mod text;

use rmlir_format::dialect_encodings::{
    AttrLookup, BodyInterner, DialectSpec, Entry, Field, FieldError,
};
use rmlir_format::dialect_hooks::BytecodeDialect;
use rmlir_format::{AttrData, BodyPiece, Context, DialectBody};

/// The llvm dialect's hooks.
pub struct Llvm;

impl BytecodeDialect for Llvm {
    fn name(&self) -> &str {
        "llvm"
    }

    fn declared_encodings(&self) -> Option<&'static DialectSpec> {
        crate::upstream_encodings::spec("llvm")
    }

    /// MLIR 22's tables, with the kinds MLIR 23 and 24 changed as they
    /// encode them from 23 on (`newer_kinds.rs`).
    fn declared_encodings_in(&self, mlir_major: u32) -> Option<&'static DialectSpec> {
        newer_kinds::spec_in(mlir_major)
    }

    fn attr_fields_in(
        &self,
        space: &mut dyn BodyInterner,
        body: &DialectBody,
        mlir_major: u32,
    ) -> Option<(u64, Vec<Field>)> {
        let (code, fields) = self.attr_fields(space, body)?;
        Some((code, newer_kinds::from_22(space, code, fields, mlir_major)?))
    }

    fn attr_from_fields(
        &self,
        ctx: &Context,
        entry: Entry<'_, '_>,
    ) -> Result<AttrData, FieldError> {
        let look: &dyn AttrLookup = ctx;
        let newer;
        let mut at_newer: Option<&[usize]> = None;
        let entry = match newer_kinds::to_22(look, entry.kind, entry.values) {
            Some(converted) => {
                let (kind, values, map) = converted?;
                newer = values;
                at_newer = Some(map);
                Entry {
                    kind,
                    values: &newer,
                }
            }
            None => entry,
        };
        let class = entry.kind.class;
        let Some(spec) = text::spec_of(entry.kind.code) else {
            return Err(FieldError::entry(format!(
                "llvm attribute {class}: no printing rules for this kind"
            )));
        };
        let spec = match at_newer {
            Some(_) => newer_kinds::printing(entry.kind.code).unwrap_or(spec),
            None => spec,
        };
        let pieces =
            text::print(look, spec, entry.kind, entry.values).map_err(|e| match e.field {
                Some(i) => {
                    let name = entry.kind.steps.get(i).map_or("?", |s| s.name);
                    // Reported at the field of the entry as written.
                    let at = at_newer.and_then(|m| m.get(i).copied()).unwrap_or(i);
                    FieldError::field(at, format!("llvm {class}, field '{name}': {}", e.msg))
                }
                None => e,
            })?;
        Ok(AttrData::Dialect {
            body: Box::new(DialectBody {
                dialect: "llvm".into(),
                pieces,
            }),
            ty: None,
        })
    }

    fn attr_fields(
        &self,
        space: &mut dyn BodyInterner,
        body: &DialectBody,
    ) -> Option<(u64, Vec<Field>)> {
        text::encode(space, &body.pieces, 22).map(|e| (e.kind.code, e.fields))
    }

    /// An llvm attribute's body is parsed into its fields and printed
    /// again, as MLIR's parser builds the attribute and its printer prints
    /// it: hand-written whitespace or `04` would otherwise survive a text
    /// print but not a bytecode round trip. Types are kept as written.
    fn respell_body(
        &self,
        space: &mut dyn BodyInterner,
        is_attr: bool,
        pieces: &[BodyPiece],
    ) -> Option<Vec<BodyPiece>> {
        self.respell_body_in(space, is_attr, pieces, 22)
    }

    /// As MLIR 23 and 24 print it, where they differ (`newer_kinds.rs`).
    fn respell_body_in(
        &self,
        space: &mut dyn BodyInterner,
        is_attr: bool,
        pieces: &[BodyPiece],
        mlir_major: u32,
    ) -> Option<Vec<BodyPiece>> {
        if !is_attr {
            return None;
        }
        text::canonical(space, pieces, mlir_major)
    }
}
