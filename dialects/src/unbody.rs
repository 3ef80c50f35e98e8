//! Reading a dialect body back into the fields its bytecode encoding
//! writes: the writer's half of [`crate::body`]. A body is the text the
//! dialect prints, with nested attributes and types as pieces; whether it
//! was read from bytecode or parsed from text, its printed form is the
//! same, and so is what is read back here. Every reader returns `None` on
//! text that is not the dialect's print, and the writer then keeps the
//! value as a textual entry, as it does for any dialect it has no hooks for.

use rmlir_format::dialect_encodings::body_cursor::{piece_attr, BodyCursor};
use rmlir_format::dialect_hooks::DialectWriter;
use rmlir_format::{AttrData, AttrId, BodyPiece, DialectBody, TypeData, TypeId};

/// A cursor over one body of `dialect`, past its mnemonic.
pub struct Unbody<'p> {
    pub c: BodyCursor<'p>,
}

/// The body of `a` when it is an attribute of `dialect` (cloned, so that
/// the writer can be used while it is read).
pub fn attr_body(w: &dyn DialectWriter, dialect: &str, a: AttrId) -> Option<DialectBody> {
    match &*w.attr_data(a) {
        AttrData::Dialect { body, ty: None } if &*body.dialect == dialect => Some((**body).clone()),
        _ => None,
    }
}

/// The body of `t` when it is a type of `dialect`.
pub fn type_body(w: &dyn DialectWriter, dialect: &str, t: TypeId) -> Option<DialectBody> {
    match &*w.type_data(t) {
        TypeData::Dialect(body) if &*body.dialect == dialect => Some(body.clone()),
        _ => None,
    }
}

impl<'p> Unbody<'p> {
    /// The cursor and the body's mnemonic (`tensor_v1`, `precision`).
    pub fn new(pieces: &'p [BodyPiece]) -> Option<(Self, String)> {
        let mut c = BodyCursor::new(pieces);
        let mnemonic = c.ident()?;
        Some((Unbody { c }, mnemonic))
    }

    /// A cursor at the start of `pieces` (for a body read whole, mnemonic
    /// included, by the caller).
    pub fn at_start(pieces: &'p [BodyPiece]) -> Self {
        Unbody {
            c: BodyCursor::new(pieces),
        }
    }

    /// `<n0 = v0, n1 = v1, …>`: the parameters `names` in order, each
    /// value read by `value`.
    pub fn params<T>(
        &mut self,
        names: &[&str],
        mut value: impl FnMut(&mut Self) -> Option<T>,
    ) -> Option<Vec<T>> {
        self.eat("<")?;
        let mut v = Vec::with_capacity(names.len());
        for (i, name) in names.iter().enumerate() {
            if i > 0 {
                self.eat(",")?;
            }
            self.param(name)?;
            v.push(value(self)?);
        }
        self.eat(">")?;
        Some(v)
    }

    /// Consumes `s` (its spaces stand for optional whitespace).
    pub fn eat(&mut self, s: &str) -> Option<()> {
        self.c.eat(s).then_some(())
    }

    pub fn at_end(&self) -> bool {
        self.c.at_end()
    }

    /// A nested type.
    pub fn ty(&mut self) -> Option<TypeId> {
        match self.c.piece()? {
            BodyPiece::Type(t) => Some(*t),
            _ => None,
        }
    }

    /// A nested attribute.
    pub fn attr(&mut self) -> Option<AttrId> {
        let save = self.c.pos;
        let a = self.c.piece().and_then(piece_attr);
        if a.is_none() {
            self.c.pos = save;
        }
        a
    }

    /// A bare word (`DEFAULT`, `true`).
    pub fn ident(&mut self) -> Option<String> {
        self.c.ident()
    }

    /// A token of text up to the next `,`, `>`, `]`, `)` or `}`.
    pub fn token(&mut self) -> Option<String> {
        self.c.token()
    }

    /// The text up to (not including) byte `stop`, which must come before
    /// any nested reference.
    pub fn text_until(&mut self, stop: u8) -> Option<String> {
        let start = self.c.pos;
        loop {
            match self.c.peek_byte() {
                Some(b) if b == stop => return Some(self.c.text(start, self.c.pos)),
                Some(_) => self.c.pos += 1,
                None => {
                    self.c.pos = start;
                    return None;
                }
            }
        }
    }

    /// A decimal integer (`-3`).
    pub fn int(&mut self) -> Option<i64> {
        self.c.skip_ws();
        let start = self.c.pos;
        if self.c.peek_byte() == Some(b'-') {
            self.c.pos += 1;
        }
        while self.c.peek_byte().is_some_and(|b| b.is_ascii_digit()) {
            self.c.pos += 1;
        }
        let v = self.c.text(start, self.c.pos).parse().ok();
        if v.is_none() {
            self.c.pos = start;
        }
        v
    }

    /// A dimension: an integer or `?` (dynamic).
    pub fn dim(&mut self) -> Option<i64> {
        if self.eat("?").is_some() {
            return Some(rmlir_format::DYNAMIC);
        }
        self.int()
    }

    /// `[a, b, c]` of dimensions.
    pub fn dims(&mut self) -> Option<Vec<i64>> {
        self.eat("[")?;
        let mut v = Vec::new();
        if self.eat("]").is_some() {
            return Some(v);
        }
        loop {
            v.push(self.dim()?);
            if self.eat("]").is_some() {
                return Some(v);
            }
            self.eat(",")?;
        }
    }

    /// Items separated by `,` up to (not including) the closing `close`,
    /// each read by `item`; possibly none.
    pub fn list<T>(
        &mut self,
        close: &str,
        mut item: impl FnMut(&mut Self) -> Option<T>,
    ) -> Option<Vec<T>> {
        let mut v = Vec::new();
        let save = self.c.pos;
        if self.c.eat(close) {
            self.c.pos = save;
            return Some(v);
        }
        loop {
            v.push(item(self)?);
            if !self.c.eat(",") {
                return Some(v);
            }
        }
    }

    /// `name = ` of a struct parameter.
    pub fn param(&mut self, name: &str) -> Option<()> {
        let save = self.c.pos;
        if self.c.ident().as_deref() == Some(name) && self.c.eat("=") {
            Some(())
        } else {
            self.c.pos = save;
            None
        }
    }

    /// The shape prefix of a shaped type, each dimension followed by `x`
    /// (`2x?x`), up to its element type.
    pub fn shape_prefix(&mut self) -> Option<Vec<i64>> {
        let mut shape = Vec::new();
        loop {
            let save = self.c.pos;
            match self.dim() {
                Some(d) if self.c.peek_byte() == Some(b'x') => {
                    self.c.pos += 1;
                    shape.push(d);
                }
                _ => {
                    self.c.pos = save;
                    return Some(shape);
                }
            }
        }
    }
}
