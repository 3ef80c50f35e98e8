//! The quant dialect (MLIR 22): quantized types, whose bytecode encoding
//! MLIR declares as data (SPEC.md §6.6.5). The reader decodes an entry's
//! fields by the generated tables ([`crate::upstream_encodings`]); this
//! module prints them as the quant dialect's printer does (`print.rs`),
//! reads that text back into fields for the writer (`parse.rs`), and
//! respells hand-written types the way the printer would (`respell.rs`).

mod bounds;
mod parse;
mod print;
mod respell;

use rmlir_format::dialect_encodings::{BodyInterner, DialectSpec, Entry, Field, FieldError};
use rmlir_format::dialect_hooks::BytecodeDialect;
use rmlir_format::{BodyPiece, Context, DialectBody, TypeData};

/// The quant dialect's hooks.
pub struct Quant;

impl BytecodeDialect for Quant {
    fn name(&self) -> &str {
        "quant"
    }

    fn declared_encodings(&self) -> Option<&'static DialectSpec> {
        crate::upstream_encodings::spec("quant")
    }

    fn type_from_fields(
        &self,
        ctx: &Context,
        entry: Entry<'_, '_>,
    ) -> Result<TypeData, FieldError> {
        print::build_type(ctx, entry)
    }

    fn type_fields(
        &self,
        space: &mut dyn BodyInterner,
        body: &DialectBody,
    ) -> Option<(u64, Vec<Field>)> {
        parse::encode(space, &body.pieces, self.declared_encodings()?.types)
    }

    /// A quant type's body is one piece of text, respelled whether the
    /// parser reads it as a type or (as before the move) an attribute.
    fn respell_body(
        &self,
        _space: &mut dyn BodyInterner,
        _is_attr: bool,
        pieces: &[BodyPiece],
    ) -> Option<Vec<BodyPiece>> {
        match pieces {
            [BodyPiece::Text(t)] => respell::canonical(t).map(|c| vec![BodyPiece::Text(c.into())]),
            _ => None,
        }
    }
}
