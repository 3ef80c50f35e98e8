//! Which modules a bytecode round trip may legitimately change: a dialect
//! attribute or type written as a *textual* entry is read back by parsing
//! its text, and every `distinct[N]<…>` inside that text becomes a new
//! distinct attribute, so distinct attributes it shares with the rest of
//! the module come back split. mlir-opt does the same for the textual
//! entries it writes (tests/known-failures/writer.tsv, `roundtrip` rows).
//! The fuzz targets skip exactly these modules; this finds them from the
//! IR, through aliases and nesting, where a text scan cannot see them.

use rmlir_format::dialect_encodings::{AttrLookup, BodyInterner};
use rmlir_format::*;
use std::borrow::Cow;

/// Whether some attribute or type of `m` that the writer keeps textual
/// reaches a distinct attribute.
pub fn textual_entry_reaches_distinct(m: &Module) -> bool {
    let ctx = &m.ctx;
    let mut r = Reach {
        ctx,
        attrs: vec![None; ctx.num_attrs()],
        types: vec![None; ctx.num_types()],
    };
    let textual_attr = |d: &AttrData| match d {
        AttrData::Dialect { body, ty } => ty.is_some() || !encodes(ctx, body),
        _ => false,
    };
    (0..ctx.num_attrs()).any(|i| {
        let a = AttrId(i as u32);
        textual_attr(ctx.attr(a)) && r.attr(a, 0)
    }) || (0..ctx.num_types()).any(|i| {
        let t = TypeId(i as u32);
        matches!(ctx.ty(t), TypeData::Dialect(_)) && r.ty(t, 0)
    })
}

/// Whether the attribute with `body` has a binary encoding the writer
/// would use: one its dialect declares as data (llvm's, SPEC.md §6.6.5).
fn encodes(ctx: &Context, body: &DialectBody) -> bool {
    let Some(hook) = rmlir_dialects::upstream().get(body.dialect.as_bytes()) else {
        return false;
    };
    let mut o = Overlay {
        ctx,
        attrs: Vec::new(),
        types: Vec::new(),
    };
    hook.declared_encodings().is_some() && hook.attr_fields(&mut o, body).is_some()
}

/// The context plus what an encoder synthesizes, without touching it.
struct Overlay<'c> {
    ctx: &'c Context,
    attrs: Vec<AttrData>,
    types: Vec<TypeData>,
}

impl AttrLookup for Overlay<'_> {
    fn attr_data(&self, a: AttrId) -> Cow<'_, AttrData> {
        match (a.0 as usize).checked_sub(self.ctx.num_attrs()) {
            Some(i) => Cow::Borrowed(&self.attrs[i]),
            None => Cow::Borrowed(self.ctx.attr(a)),
        }
    }
    fn type_data(&self, t: TypeId) -> &TypeData {
        match (t.0 as usize).checked_sub(self.ctx.num_types()) {
            Some(i) => &self.types[i],
            None => self.ctx.ty(t),
        }
    }
}

impl BodyInterner for Overlay<'_> {
    fn intern_attr(&mut self, d: AttrData) -> AttrId {
        if let Some(a) = self.ctx.find_attr(&d) {
            return a;
        }
        self.attrs.push(d);
        AttrId((self.ctx.num_attrs() + self.attrs.len() - 1) as u32)
    }
    fn intern_type(&mut self, d: TypeData) -> TypeId {
        if let Some(t) = self.ctx.find_type(&d) {
            return t;
        }
        self.types.push(d);
        TypeId((self.ctx.num_types() + self.types.len() - 1) as u32)
    }
}

/// Memoized reachability of a distinct attribute.
struct Reach<'c> {
    ctx: &'c Context,
    attrs: Vec<Option<bool>>,
    types: Vec<Option<bool>>,
}

/// Deeper than this is answered "yes": the caller then skips the module,
/// which is the safe side for a fuzz target.
const MAX_DEPTH: usize = 4096;

impl Reach<'_> {
    fn attr(&mut self, a: AttrId, depth: usize) -> bool {
        if let Some(known) = self.attrs[a.0 as usize] {
            return known;
        }
        if depth > MAX_DEPTH {
            return true;
        }
        let d = depth + 1;
        let ctx = self.ctx;
        let yes = match ctx.attr(a) {
            AttrData::Distinct { .. } => true,
            AttrData::Integer { ty, .. }
            | AttrData::Float { ty, .. }
            | AttrData::Type(ty)
            | AttrData::DenseIntOrFp { ty, .. }
            | AttrData::DenseString { ty, .. }
            | AttrData::DenseResource { ty, .. } => self.ty(*ty, d),
            AttrData::DenseArray { elem, .. } => self.ty(*elem, d),
            AttrData::String { ty, .. } => ty.is_some_and(|t| self.ty(t, d)),
            AttrData::Opaque(o) => o.ty.is_some_and(|t| self.ty(t, d)),
            AttrData::Array(list) => list.iter().any(|&x| self.attr(x, d)),
            AttrData::Dictionary(entries) => entries.iter().any(|(_, x)| self.attr(*x, d)),
            AttrData::Sparse {
                ty,
                indices,
                values,
            } => self.ty(*ty, d) || self.attr(*indices, d) || self.attr(*values, d),
            AttrData::Dialect { body, ty } => {
                ty.is_some_and(|t| self.ty(t, d)) || self.pieces(&body.pieces, d)
            }
            AttrData::NameLoc { child, .. } => self.attr(*child, d),
            AttrData::CallSiteLoc { callee, caller } => {
                self.attr(*callee, d) || self.attr(*caller, d)
            }
            AttrData::FusedLoc {
                locations,
                metadata,
            } => {
                locations.iter().any(|&x| self.attr(x, d))
                    || metadata.is_some_and(|x| self.attr(x, d))
            }
            _ => false,
        };
        self.attrs[a.0 as usize] = Some(yes);
        yes
    }

    fn ty(&mut self, t: TypeId, depth: usize) -> bool {
        if let Some(known) = self.types[t.0 as usize] {
            return known;
        }
        if depth > MAX_DEPTH {
            return true;
        }
        let d = depth + 1;
        let ctx = self.ctx;
        let yes = match ctx.ty(t) {
            TypeData::Complex(e)
            | TypeData::UnrankedTensor { elem: e }
            | TypeData::Vector { elem: e, .. } => self.ty(*e, d),
            TypeData::Tuple(list) => list.iter().any(|&x| self.ty(x, d)),
            TypeData::Function { inputs, results } => {
                inputs.iter().chain(results).any(|&x| self.ty(x, d))
            }
            TypeData::RankedTensor { elem, encoding, .. } => {
                self.ty(*elem, d) || encoding.is_some_and(|a| self.attr(a, d))
            }
            TypeData::MemRef {
                elem,
                layout,
                memory_space,
                ..
            } => {
                self.ty(*elem, d)
                    || layout.is_some_and(|a| self.attr(a, d))
                    || memory_space.is_some_and(|a| self.attr(a, d))
            }
            TypeData::UnrankedMemRef { elem, memory_space } => {
                self.ty(*elem, d) || memory_space.is_some_and(|a| self.attr(a, d))
            }
            TypeData::Dialect(body) => self.pieces(&body.pieces, d),
            _ => false,
        };
        self.types[t.0 as usize] = Some(yes);
        yes
    }

    fn pieces(&mut self, pieces: &[BodyPiece], d: usize) -> bool {
        pieces.iter().any(|p| match p {
            BodyPiece::Attr(a) | BodyPiece::Stripped(a) => self.attr(*a, d),
            BodyPiece::Type(t) => self.ty(*t, d),
            BodyPiece::Text(_) => false,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::textual_entry_reaches_distinct as reaches;

    fn parse(src: &str) -> rmlir_format::Module {
        rmlir_reader::parse_module(src.as_bytes(), "t.mlir").unwrap()
    }

    #[test]
    fn binary_llvm_attribute_holding_a_distinct_is_not_textual() {
        let m = parse(
            "#cu = #llvm.di_compile_unit<id = distinct[0]<>, sourceLanguage = DW_LANG_C, \
             file = #llvm.di_file<\"a\" in \"b\">, isOptimized = false, emissionKind = Full>\n\
             \"a.b\"() {x = #cu} : () -> ()\n",
        );
        assert!(!reaches(&m));
    }

    #[test]
    fn textual_attribute_reaching_a_distinct_through_an_alias() {
        // `di_lexical_bdi_k` is no llvm kind: a textual entry, whose text
        // holds the compile unit's `distinct[0]` once aliases are inlined.
        let m = parse(
            "#cu = #llvm.di_compile_unit<id = distinct[0]<>, sourceLanguage = DW_LANG_C, \
             file = #llvm.di_file<\"a\" in \"b\">, isOptimized = false, emissionKind = Full>\n\
             \"a.b\"() {x = #cu, y = #llvm.di_lexical_bdi_k<scope = #cu>} : () -> ()\n",
        );
        assert!(reaches(&m));
        let m = parse("\"a.b\"() {y = #llvm.di_lexical_bdi_k<scope = 1>} : () -> ()\n");
        assert!(!reaches(&m));
    }
}
