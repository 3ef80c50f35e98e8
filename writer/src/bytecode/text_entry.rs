//! Textual attribute/type entries (SPEC.md §6.6): what MLIR prints for one
//! attribute or type under a fresh `AsmState` — local scope, no aliases.
//!
//! The text printer has no per-attribute entry point yet, so this copies
//! the attribute (with everything it refers to) into a scratch module as
//! the only entry of an unregistered op's attribute dictionary, prints
//! that op in local-scope mode and cuts the attribute's text out. The
//! surrounding text is fixed, so the cut is exact.

use crate::text::{print_module, PrintOptions};
use rmlir_format::fasthash::FastMap as HashMap;
use rmlir_format::*;

const PREFIX: &str = "\"x\"() {a = ";
const SUFFIX: &str = "} : () -> () loc(unknown)\n";

/// The local-scope text of an attribute whose data is `d` (its nested
/// references are ids of `ctx`).
pub fn attr_text(ctx: &Context, d: &AttrData) -> String {
    let mut c = Copier::new(ctx);
    let data = c.attr_data(d);
    let a = c.dst.ctx.intern_attr(data);
    c.print(a)
}

/// The local-scope text of a type.
pub fn type_text(ctx: &Context, t: TypeId) -> String {
    let mut c = Copier::new(ctx);
    let t = c.ty(t);
    let a = c.dst.ctx.intern_attr(AttrData::Type(t));
    c.print(a)
}

struct Copier<'a> {
    src: &'a Context,
    dst: Module,
    attrs: HashMap<AttrId, AttrId>,
    types: HashMap<TypeId, TypeId>,
}

impl<'a> Copier<'a> {
    fn new(src: &'a Context) -> Self {
        Copier {
            src,
            dst: Module::new(),
            attrs: HashMap::default(),
            types: HashMap::default(),
        }
    }

    fn print(mut self, a: AttrId) -> String {
        let m = &mut self.dst;
        let name = m.op_names.intern(b"x");
        let dict = m
            .ctx
            .intern_attr(AttrData::Dictionary(vec![(b"a"[..].into(), a)]));
        let loc = m.ctx.intern_attr(AttrData::UnknownLoc);
        let op = m.new_op(name, &[], &[], vec![], None, dict, vec![], loc);
        m.top = Some(op);
        let s = print_module(
            m,
            PrintOptions {
                local_scope: true,
                ..PrintOptions::default()
            },
        );
        match s.strip_prefix(PREFIX).and_then(|r| r.strip_suffix(SUFFIX)) {
            Some(t) => t.to_string(),
            None => unreachable!("unexpected printer output for a scratch op: {s}"),
        }
    }

    fn attr(&mut self, a: AttrId) -> AttrId {
        if let Some(&x) = self.attrs.get(&a) {
            return x;
        }
        let src = self.src;
        let d = self.attr_data(src.attr(a));
        let x = self.dst.ctx.intern_attr(d);
        self.attrs.insert(a, x);
        x
    }

    fn opt_attr(&mut self, a: Option<AttrId>) -> Option<AttrId> {
        a.map(|a| self.attr(a))
    }

    fn opt_ty(&mut self, t: Option<TypeId>) -> Option<TypeId> {
        t.map(|t| self.ty(t))
    }

    fn body(&mut self, b: &DialectBody) -> DialectBody {
        DialectBody {
            dialect: b.dialect.clone(),
            pieces: b
                .pieces
                .iter()
                .map(|p| match p {
                    BodyPiece::Text(t) => BodyPiece::Text(t.clone()),
                    BodyPiece::Attr(a) => BodyPiece::Attr(self.attr(*a)),
                    BodyPiece::Type(t) => BodyPiece::Type(self.ty(*t)),
                    BodyPiece::Stripped(a) => BodyPiece::Stripped(self.attr(*a)),
                })
                .collect(),
        }
    }

    fn attr_data(&mut self, d: &AttrData) -> AttrData {
        use AttrData as A;
        match d {
            A::Integer { ty, value } => A::Integer {
                ty: self.ty(*ty),
                value: value.clone(),
            },
            A::Float { ty, bits } => A::Float {
                ty: self.ty(*ty),
                bits: *bits,
            },
            A::String { value, ty } => A::String {
                value: value.clone(),
                ty: self.opt_ty(*ty),
            },
            A::Type(t) => A::Type(self.ty(*t)),
            A::Array(v) => A::Array(v.iter().map(|&a| self.attr(a)).collect()),
            A::Dictionary(v) => {
                A::Dictionary(v.iter().map(|(n, a)| (n.clone(), self.attr(*a))).collect())
            }
            A::DenseArray { elem, data } => A::DenseArray {
                elem: self.ty(*elem),
                data: data.clone(),
            },
            A::DenseIntOrFp { ty, splat, data } => A::DenseIntOrFp {
                ty: self.ty(*ty),
                splat: *splat,
                data: data.clone(),
            },
            A::DenseString { ty, splat, strings } => A::DenseString {
                ty: self.ty(*ty),
                splat: *splat,
                strings: strings.clone(),
            },
            A::DenseResource { ty, key } => A::DenseResource {
                ty: self.ty(*ty),
                key: key.clone(),
            },
            A::Sparse {
                ty,
                indices,
                values,
            } => A::Sparse {
                ty: self.ty(*ty),
                indices: self.attr(*indices),
                values: self.attr(*values),
            },
            A::Distinct { id, referenced } => A::Distinct {
                id: *id,
                referenced: self.attr(*referenced),
            },
            A::Opaque(o) => A::Opaque(Box::new(OpaqueAttr {
                dialect: o.dialect.clone(),
                data: o.data.clone(),
                ty: self.opt_ty(o.ty),
            })),
            A::Dialect { body, ty } => A::Dialect {
                body: Box::new(self.body(body)),
                ty: self.opt_ty(*ty),
            },
            A::NameLoc { name, child } => A::NameLoc {
                name: name.clone(),
                child: self.attr(*child),
            },
            A::CallSiteLoc { callee, caller } => A::CallSiteLoc {
                callee: self.attr(*callee),
                caller: self.attr(*caller),
            },
            A::FusedLoc {
                locations,
                metadata,
            } => A::FusedLoc {
                locations: locations.iter().map(|&a| self.attr(a)).collect(),
                metadata: self.opt_attr(*metadata),
            },
            A::Unit
            | A::SymbolRef { .. }
            | A::AffineMap(_)
            | A::IntegerSet(_)
            | A::Strided { .. }
            | A::UnknownLoc
            | A::FileLineCol { .. }
            | A::FileLineColRange { .. } => d.clone(),
        }
    }

    fn ty(&mut self, t: TypeId) -> TypeId {
        if let Some(&x) = self.types.get(&t) {
            return x;
        }
        use TypeData as T;
        let d = match self.src.ty(t) {
            T::Complex(e) => T::Complex(self.ty(*e)),
            T::Tuple(v) => T::Tuple(v.iter().map(|&t| self.ty(t)).collect()),
            T::Function { inputs, results } => T::Function {
                inputs: inputs.iter().map(|&t| self.ty(t)).collect(),
                results: results.iter().map(|&t| self.ty(t)).collect(),
            },
            T::Vector {
                shape,
                scalable,
                elem,
            } => T::Vector {
                shape: shape.clone(),
                scalable: scalable.clone(),
                elem: self.ty(*elem),
            },
            T::RankedTensor {
                shape,
                elem,
                encoding,
            } => T::RankedTensor {
                shape: shape.clone(),
                elem: self.ty(*elem),
                encoding: self.opt_attr(*encoding),
            },
            T::UnrankedTensor { elem } => T::UnrankedTensor {
                elem: self.ty(*elem),
            },
            T::MemRef {
                shape,
                elem,
                layout,
                memory_space,
            } => T::MemRef {
                shape: shape.clone(),
                elem: self.ty(*elem),
                layout: self.opt_attr(*layout),
                memory_space: self.opt_attr(*memory_space),
            },
            T::UnrankedMemRef { elem, memory_space } => T::UnrankedMemRef {
                elem: self.ty(*elem),
                memory_space: self.opt_attr(*memory_space),
            },
            T::Dialect(b) => T::Dialect(self.body(b)),
            other @ (T::Integer { .. } | T::Index | T::Float(_) | T::None | T::Opaque { .. }) => {
                other.clone()
            }
        };
        let x = self.dst.ctx.intern_type(d);
        self.types.insert(t, x);
        x
    }
}
