//! A cursor over a dialect body's pieces (SPEC.md §2.4): the text bytes and
//! the nested attribute/type references between them, read as one stream.
//! Custom dialect encodings are recovered from the text mlir-opt prints
//! (SPEC.md §6.6.5), so the writer's encoders and the text parser's
//! canonicalization read bodies through this cursor.

use crate::BodyPiece;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum It {
    B(u8),
    P(usize),
}

/// The cursor. `pos` is public so that a caller can save and restore it.
pub struct BodyCursor<'p> {
    pieces: &'p [BodyPiece],
    items: Vec<It>,
    /// The index of the next item: a text byte or a whole nested piece.
    pub pos: usize,
}

impl<'p> BodyCursor<'p> {
    /// A cursor at the start of `pieces`.
    pub fn new(pieces: &'p [BodyPiece]) -> Self {
        let mut items = Vec::new();
        for (i, p) in pieces.iter().enumerate() {
            match p {
                BodyPiece::Text(t) => items.extend(t.bytes().map(It::B)),
                _ => items.push(It::P(i)),
            }
        }
        BodyCursor {
            pieces,
            items,
            pos: 0,
        }
    }

    /// Whether only whitespace is left.
    pub fn at_end(&self) -> bool {
        self.items[self.pos.min(self.items.len())..]
            .iter()
            .all(|i| matches!(i, It::B(b) if b.is_ascii_whitespace()))
    }

    fn peek(&self) -> Option<It> {
        self.items.get(self.pos).copied()
    }

    /// The next text byte, if the next item is one.
    pub fn peek_byte(&self) -> Option<u8> {
        match self.peek() {
            Some(It::B(b)) => Some(b),
            _ => None,
        }
    }

    /// Whitespace is insignificant between tokens, as for MLIR's parsers
    /// (mlir-opt prints single spaces; hand-written text may not).
    pub fn skip_ws(&mut self) {
        while self.peek_byte().is_some_and(|b| b.is_ascii_whitespace()) {
            self.pos += 1;
        }
    }

    /// Consumes the punctuation/keywords of `s` (its spaces stand for
    /// optional whitespace), or nothing.
    pub fn eat(&mut self, s: &str) -> bool {
        let save = self.pos;
        for b in s.bytes() {
            if b == b' ' {
                continue;
            }
            self.skip_ws();
            if self.peek() != Some(It::B(b)) {
                self.pos = save;
                return false;
            }
            self.pos += 1;
        }
        true
    }

    /// Consumes an identifier (`[a-zA-Z0-9_]+`) after optional
    /// whitespace, or nothing.
    pub fn ident(&mut self) -> Option<String> {
        self.skip_ws();
        let start = self.pos;
        while let Some(b) = self.peek_byte() {
            if b.is_ascii_alphanumeric() || b == b'_' {
                self.pos += 1;
            } else {
                break;
            }
        }
        (self.pos > start).then(|| self.text(start, self.pos))
    }

    /// The text bytes of items `start..end`, nested pieces left out.
    pub fn text(&self, start: usize, end: usize) -> String {
        let bytes: Vec<u8> = self.items[start..end]
            .iter()
            .filter_map(|i| match i {
                It::B(b) => Some(*b),
                It::P(_) => None,
            })
            .collect();
        String::from_utf8_lossy(&bytes).into_owned()
    }

    /// Whether the cursor is at `ident = ` (the next struct parameter).
    pub fn at_param(&mut self) -> bool {
        let save = self.pos;
        let found = self.ident().is_some() && self.eat("=") && !self.eat("=");
        self.pos = save;
        found
    }

    /// Text up to a `,`, `>`, `]`, `)` or `}` outside brackets and quotes,
    /// or `None` when a nested reference comes first.
    pub fn token(&mut self) -> Option<String> {
        self.skip_ws();
        let start = self.pos;
        let mut depth = 0usize;
        while let Some(it) = self.peek() {
            let It::B(b) = it else {
                return None;
            };
            match b {
                b'"' => {
                    self.string_lit()?;
                    continue;
                }
                b'<' | b'[' | b'(' | b'{' => depth += 1,
                b',' | b'>' | b']' | b')' | b'}' if depth == 0 => break,
                b'>' | b']' | b')' | b'}' => depth -= 1,
                _ => {}
            }
            self.pos += 1;
        }
        (self.pos > start).then(|| self.text(start, self.pos).trim_end().to_string())
    }

    /// A string literal, unescaped as MLIR's lexer does.
    pub fn string_lit(&mut self) -> Option<Vec<u8>> {
        if !self.eat("\"") {
            return None;
        }
        let mut out = Vec::new();
        loop {
            let It::B(b) = self.peek()? else {
                return None;
            };
            self.pos += 1;
            match b {
                b'"' => return Some(out),
                b'\\' => {
                    let It::B(c) = self.peek()? else {
                        return None;
                    };
                    self.pos += 1;
                    match c {
                        b'n' => out.push(b'\n'),
                        b't' => out.push(b'\t'),
                        b'"' | b'\\' => out.push(c),
                        _ => {
                            let It::B(d) = self.peek()? else {
                                return None;
                            };
                            self.pos += 1;
                            let hex = |x: u8| (x as char).to_digit(16);
                            out.push((hex(c)? * 16 + hex(d)?) as u8);
                        }
                    }
                }
                _ => out.push(b),
            }
        }
    }

    /// A nested reference at the cursor.
    pub fn piece(&mut self) -> Option<&'p BodyPiece> {
        self.skip_ws();
        match self.peek() {
            Some(It::P(i)) => {
                self.pos += 1;
                Some(&self.pieces[i])
            }
            _ => None,
        }
    }

    /// The items of a balanced `<…>` group at the cursor, as pieces.
    pub fn group(&mut self) -> Option<Vec<BodyPiece>> {
        self.skip_ws();
        if self.peek_byte() != Some(b'<') {
            return None;
        }
        let start = self.pos;
        let mut depth = 0usize;
        loop {
            match self.peek()? {
                It::B(b'"') => {
                    self.string_lit()?;
                    continue;
                }
                It::B(b'<' | b'[' | b'(' | b'{') => depth += 1,
                It::B(b'>' | b']' | b')' | b'}') => {
                    depth -= 1;
                    if depth == 0 {
                        self.pos += 1;
                        break;
                    }
                }
                _ => {}
            }
            self.pos += 1;
        }
        Some(self.pieces_of(start, self.pos))
    }

    /// Items `start..end` as body pieces: runs of bytes as text pieces,
    /// nested pieces as they were.
    pub fn pieces_of(&self, start: usize, end: usize) -> Vec<BodyPiece> {
        let mut out = Vec::new();
        let mut text = Vec::new();
        for it in &self.items[start..end] {
            match it {
                It::B(b) => text.push(*b),
                It::P(i) => {
                    if !text.is_empty() {
                        out.push(BodyPiece::Text(
                            String::from_utf8_lossy(&std::mem::take(&mut text)).into(),
                        ));
                    }
                    out.push(self.pieces[*i].clone());
                }
            }
        }
        if !text.is_empty() {
            out.push(BodyPiece::Text(String::from_utf8_lossy(&text).into()));
        }
        out
    }
}

/// A piece's attribute.
pub fn piece_attr(p: &BodyPiece) -> Option<crate::AttrId> {
    match p {
        BodyPiece::Attr(a) | BodyPiece::Stripped(a) => Some(*a),
        _ => None,
    }
}
