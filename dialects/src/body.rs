//! Building the printed body of a dialect's attribute or type: text with the
//! nested attributes and types as pieces, so that the printer prints them
//! (and their aliases) as it prints any other.

use rmlir_format::attrs::{BodyPiece, DialectBody};
use rmlir_format::{AttrData, AttrId, Context, TypeData, TypeId};

/// A body under construction; adjacent text is kept in one piece.
#[derive(Default)]
pub struct Body {
    pieces: Vec<BodyPiece>,
}

impl Body {
    pub fn new(text: &str) -> Self {
        let mut b = Body::default();
        b.text(text);
        b
    }

    pub fn text(&mut self, t: &str) -> &mut Self {
        if t.is_empty() {
            return self;
        }
        match self.pieces.last_mut() {
            Some(BodyPiece::Text(prev)) => {
                let mut s = String::with_capacity(prev.len() + t.len());
                s.push_str(prev);
                s.push_str(t);
                *prev = s.into();
            }
            _ => self.pieces.push(BodyPiece::Text(t.into())),
        }
        self
    }

    pub fn attr(&mut self, a: AttrId) -> &mut Self {
        self.pieces.push(BodyPiece::Attr(a));
        self
    }

    /// A nested attribute printed stripped (its text after its mnemonic).
    pub fn stripped(&mut self, a: AttrId) -> &mut Self {
        self.pieces.push(BodyPiece::Stripped(a));
        self
    }

    pub fn ty(&mut self, t: TypeId) -> &mut Self {
        self.pieces.push(BodyPiece::Type(t));
        self
    }

    /// `a, b, c` with `each` writing one item.
    pub fn list<T: Copy>(&mut self, items: &[T], mut each: impl FnMut(&mut Self, T)) -> &mut Self {
        for (i, &x) in items.iter().enumerate() {
            if i > 0 {
                self.text(", ");
            }
            each(self, x);
        }
        self
    }

    fn finish(&mut self, dialect: &str) -> DialectBody {
        DialectBody {
            dialect: dialect.into(),
            pieces: std::mem::take(&mut self.pieces),
        }
    }

    /// The attribute `#dialect.body` (or `#dialect<body>`).
    pub fn into_attr(mut self, dialect: &str, ctx: &mut Context) -> AttrId {
        let body = self.finish(dialect);
        ctx.intern_attr(AttrData::Dialect {
            body: Box::new(body),
            ty: None,
        })
    }

    /// The attribute `#dialect.body`, made through a writer (a value a
    /// hook writes that the module may not hold).
    pub fn into_attr_with(
        mut self,
        dialect: &str,
        w: &mut dyn rmlir_format::dialect_hooks::DialectWriter,
    ) -> Option<AttrId> {
        let body = self.finish(dialect);
        w.intern_attr(AttrData::Dialect {
            body: Box::new(body),
            ty: None,
        })
    }

    /// The type `!dialect.body` (or `!dialect<body>`).
    pub fn into_type(mut self, dialect: &str, ctx: &mut Context) -> TypeId {
        let body = self.finish(dialect);
        ctx.intern_type(TypeData::Dialect(body))
    }
}

/// A dimension as StableHLO and VHLO print it: `?` for a dynamic one.
pub fn dim(d: i64) -> String {
    if d == rmlir_format::DYNAMIC {
        "?".to_string()
    } else {
        d.to_string()
    }
}
