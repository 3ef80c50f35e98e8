//! Tokens of MLIR's textual form (LangRef "Lexical structure"). Tokens are
//! spans into the source; nothing is copied until a parser asks for a value.

/// A word wide, as the [`Token`] pads it anyway: the parser copies its
/// current token whole right after storing it, and a word load of a byte
/// store waits for the store to retire (BENCHMARKS.md, 2026-11-25).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u64)]
pub enum Tok {
    /// The end of the input.
    Eof,
    /// `[a-zA-Z_][a-zA-Z0-9_$.]*`, keywords included.
    BareIdent,
    /// `%name`
    PercentId,
    /// `^name`
    CaretId,
    /// `#name`
    HashId,
    /// `!name`
    BangId,
    /// `@name` or `@"string"`
    AtId,
    /// Decimal digits, or `0x` and hex digits; no sign.
    Integer,
    /// Digits, `.`, optional digits and an optional exponent; no sign.
    Float,
    /// A `"..."` literal, quotes included, escapes not yet decoded.
    String,
    /// `(`
    LParen,
    /// `)`
    RParen,
    /// `[`
    LSquare,
    /// `]`
    RSquare,
    /// `{`
    LBrace,
    /// `}`
    RBrace,
    /// `<`
    Less,
    /// `>`
    Greater,
    /// `,`
    Comma,
    /// `:`
    Colon,
    /// `::`
    ColonColon,
    /// `=`
    Equal,
    /// `->`
    Arrow,
    /// `-`
    Minus,
    /// `+`
    Plus,
    /// `*`
    Star,
    /// `?`
    Question,
    /// `{-#`
    FileMetadataBegin,
    /// `#-}`
    FileMetadataEnd,
    /// A byte that starts no token; the parser reports it.
    Error,
}

/// One token: its kind and its span of the source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    /// What the token is.
    pub kind: Tok,
    /// Byte offset of its first byte.
    pub start: usize,
    /// Byte offset just past its last byte.
    pub end: usize,
}

/// `[a-zA-Z_]`: whether `c` may start a bare identifier.
pub fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}

/// `[a-zA-Z0-9_$.]`: a bare identifier's bytes after the first.
const IDENT_CHAR: u8 = 1;
/// `[a-zA-Z0-9_$.-]`: a `%`/`^`/`#`/`!` name's bytes after the first.
const SUFFIX_CHAR: u8 = 2;

/// Each byte's classes: identifiers and value names are most of a
/// module's tokens, and a table lookup per byte is cheaper than the four
/// comparisons it replaces.
static CLASSES: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        let c = i as u8;
        let common = c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c == b'.';
        if common {
            t[i] |= IDENT_CHAR | SUFFIX_CHAR;
        }
        if c == b'-' {
            t[i] |= SUFFIX_CHAR;
        }
        i += 1;
    }
    t
};

/// `[a-zA-Z0-9_$.]`: whether `c` may continue a bare identifier.
pub fn is_ident_char(c: u8) -> bool {
    CLASSES[c as usize] & IDENT_CHAR != 0
}

/// The end of the run of bytes of `class` from `p`.
fn run_end(src: &[u8], p: usize, class: u8) -> usize {
    let rest = src.get(p..).unwrap_or_default();
    p + rest
        .iter()
        .position(|&c| CLASSES[c as usize] & class == 0)
        .unwrap_or(rest.len())
}

/// Skips whitespace and `//` comments from `pos`.
pub fn skip_trivia(src: &[u8], mut pos: usize) -> usize {
    loop {
        match src.get(pos) {
            Some(b' ' | b'\t' | b'\n' | b'\r') => pos += 1,
            Some(b'/') if src.get(pos + 1) == Some(&b'/') => {
                while pos < src.len() && src[pos] != b'\n' {
                    pos += 1;
                }
            }
            _ => return pos,
        }
    }
}

pub use rmlir_format::symbol_body::string_end;

/// Lexes one token at `pos` (trivia already skipped).
#[inline]
pub fn lex(src: &[u8], pos: usize) -> Token {
    let (kind, end) = lex_kind_end(src, pos);
    Token {
        kind,
        start: pos,
        end,
    }
}

/// The kind and end of the token at `pos`. A pair comes back in two
/// registers where the three-field [`Token`] comes back through memory: the
/// caller's wide reload of the narrow kind byte the lexer had just stored
/// cannot be forwarded from the store buffer and stalled the parser once per
/// token (BENCHMARKS.md, 2026-11-25).
fn lex_kind_end(src: &[u8], pos: usize) -> (Tok, usize) {
    let tok = |kind, end| (kind, end);
    let Some(&c) = src.get(pos) else {
        return tok(Tok::Eof, pos);
    };
    let at = |i: usize| src.get(i).copied().unwrap_or(0);
    match c {
        b'(' => tok(Tok::LParen, pos + 1),
        b')' => tok(Tok::RParen, pos + 1),
        b'[' => tok(Tok::LSquare, pos + 1),
        b']' => tok(Tok::RSquare, pos + 1),
        b'{' => {
            if at(pos + 1) == b'-' && at(pos + 2) == b'#' {
                tok(Tok::FileMetadataBegin, pos + 3)
            } else {
                tok(Tok::LBrace, pos + 1)
            }
        }
        b'}' => tok(Tok::RBrace, pos + 1),
        b'<' => tok(Tok::Less, pos + 1),
        b'>' => tok(Tok::Greater, pos + 1),
        b',' => tok(Tok::Comma, pos + 1),
        b'=' => tok(Tok::Equal, pos + 1),
        b'+' => tok(Tok::Plus, pos + 1),
        b'*' => tok(Tok::Star, pos + 1),
        b'?' => tok(Tok::Question, pos + 1),
        b':' => {
            if at(pos + 1) == b':' {
                tok(Tok::ColonColon, pos + 2)
            } else {
                tok(Tok::Colon, pos + 1)
            }
        }
        b'-' => {
            if at(pos + 1) == b'>' {
                tok(Tok::Arrow, pos + 2)
            } else {
                tok(Tok::Minus, pos + 1)
            }
        }
        b'"' => match string_end(src, pos) {
            Some(end) => tok(Tok::String, end),
            None => tok(Tok::Error, pos + 1),
        },
        b'@' => {
            if at(pos + 1) == b'"' {
                match string_end(src, pos + 1) {
                    Some(end) => tok(Tok::AtId, end),
                    None => tok(Tok::Error, pos + 1),
                }
            } else if is_ident_start(at(pos + 1)) {
                tok(Tok::AtId, run_end(src, pos + 2, IDENT_CHAR))
            } else {
                tok(Tok::Error, pos + 1)
            }
        }
        b'#' if at(pos + 1) == b'-' && at(pos + 2) == b'}' => tok(Tok::FileMetadataEnd, pos + 3),
        b'%' | b'^' | b'#' | b'!' => {
            let kind = match c {
                b'%' => Tok::PercentId,
                b'^' => Tok::CaretId,
                b'#' => Tok::HashId,
                _ => Tok::BangId,
            };
            let mut p = pos + 1;
            if at(p).is_ascii_digit() {
                while at(p).is_ascii_digit() {
                    p += 1;
                }
            } else if CLASSES[usize::from(at(p))] & SUFFIX_CHAR != 0 {
                // A name's first byte is any suffix byte (digits were
                // taken above).
                p = run_end(src, p + 1, SUFFIX_CHAR);
            } else {
                return tok(Tok::Error, pos + 1);
            }
            tok(kind, p)
        }
        b'0'..=b'9' => {
            let mut p = pos;
            if c == b'0' && at(p + 1) == b'x' && at(p + 2).is_ascii_hexdigit() {
                p += 2;
                while at(p).is_ascii_hexdigit() {
                    p += 1;
                }
                return tok(Tok::Integer, p);
            }
            while at(p).is_ascii_digit() {
                p += 1;
            }
            if at(p) != b'.' {
                return tok(Tok::Integer, p);
            }
            p += 1;
            while at(p).is_ascii_digit() {
                p += 1;
            }
            if matches!(at(p), b'e' | b'E')
                && (at(p + 1).is_ascii_digit()
                    || (matches!(at(p + 1), b'-' | b'+') && at(p + 2).is_ascii_digit()))
            {
                p += 2;
                while at(p).is_ascii_digit() {
                    p += 1;
                }
            }
            tok(Tok::Float, p)
        }
        _ if is_ident_start(c) => tok(Tok::BareIdent, run_end(src, pos + 1, IDENT_CHAR)),
        _ => tok(Tok::Error, pos + 1),
    }
}

/// Decodes the escapes of a string literal's body (between the quotes):
/// `\\`, `\"`, `\n`, `\t` and two-hex-digit `\XX`. Returns the byte offset
/// (within `body`) of a bad escape on error.
pub fn unescape(body: &[u8]) -> Result<Vec<u8>, usize> {
    let mut out = Vec::with_capacity(body.len());
    let mut i = 0;
    while i < body.len() {
        let c = body[i];
        if c != b'\\' {
            out.push(c);
            i += 1;
            continue;
        }
        match body.get(i + 1) {
            Some(b'\\') => out.push(b'\\'),
            Some(b'"') => out.push(b'"'),
            Some(b'n') => out.push(b'\n'),
            Some(b't') => out.push(b'\t'),
            Some(&h) if h.is_ascii_hexdigit() => match body.get(i + 2) {
                Some(&l) if l.is_ascii_hexdigit() => {
                    out.push((hex_val(h) << 4) | hex_val(l));
                    i += 1;
                }
                _ => return Err(i),
            },
            _ => return Err(i),
        }
        i += 2;
    }
    Ok(out)
}

/// The value of the hex digit `c` (which the caller has checked is one).
pub fn hex_val(c: u8) -> u8 {
    match c {
        b'0'..=b'9' => c - b'0',
        b'a'..=b'f' => c - b'a' + 10,
        _ => c - b'A' + 10,
    }
}
