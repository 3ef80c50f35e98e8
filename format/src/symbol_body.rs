//! The extent of a pretty dialect symbol's `<…>` body (SPEC.md §2.4), as
//! MLIR's `parseDialectSymbolBody` finds it: brackets nest, strings are
//! skipped, and `->` is an arrow, never a closing `>`. The text parser
//! reads bodies with it, and the writer checks with it that a textual
//! bytecode entry will read back.

/// Why a body does not scan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BodyScanError {
    /// A closing bracket that does not match, or the end of the input
    /// inside brackets: the innermost open bracket, and where.
    Unbalanced {
        /// The open bracket (`<`, `[`, `(` or `{`).
        open: u8,
        /// Byte offset of the closing bracket, or of the body's start when
        /// the input ended.
        at: usize,
    },
    /// The input ended before any bracket opened.
    UnexpectedEnd,
    /// A string literal not closed on its line.
    UnterminatedString {
        /// Byte offset of its opening quote.
        at: usize,
    },
    /// A NUL byte inside the body.
    Nul {
        /// Byte offset of the NUL.
        at: usize,
    },
}

impl std::fmt::Display for BodyScanError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BodyScanError::Unbalanced { open, .. } => write!(
                f,
                "unbalanced '{}' character in pretty dialect name",
                *open as char
            ),
            BodyScanError::UnexpectedEnd => {
                f.write_str("unexpected end of input in pretty dialect name")
            }
            BodyScanError::UnterminatedString { .. } => {
                f.write_str("unterminated string in dialect symbol body")
            }
            BodyScanError::Nul { .. } => f.write_str("unexpected nul in pretty dialect name"),
        }
    }
}

/// The end of a string literal starting at `start` (which holds `"`), or
/// `None` if it is not terminated on its line.
///
/// A quarter of a large module's text can be string bytes (hex-encoded
/// dense constants), so the scan skips eight bytes at a time while none
/// of them is a quote, a backslash or a line end. (`memchr` was tried: its
/// per-call cost outweighed its speed on the many short strings.)
pub fn string_end(src: &[u8], start: usize) -> Option<usize> {
    let mut p = start + 1;
    loop {
        while let Some(chunk) = src.get(p..p + 8) {
            let word = u64::from_le_bytes(chunk.try_into().expect("eight bytes"));
            let special = string_special_bytes(word);
            if special != 0 {
                p += (special.trailing_zeros() / 8) as usize;
                break;
            }
            p += 8;
        }
        match *src.get(p)? {
            b'"' => return Some(p + 1),
            b'\\' => p += 2,
            b'\n' | b'\r' => return None,
            _ => p += 1,
        }
    }
}

/// Nonzero if a byte of `word` (little-endian) is `"`, `\\`, `\n` or `\r`;
/// its lowest set bit is in the first such byte. (A zero byte of
/// `word ^ pattern` makes its byte's high bit set in `(x - 0x01..) & !x`;
/// a borrow can set bits only above a zero byte, so the lowest set bit is
/// exact.)
fn string_special_bytes(word: u64) -> u64 {
    const LOW: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let zero_byte = |x: u64| x.wrapping_sub(LOW) & !x & HIGH;
    zero_byte(word ^ (LOW * u64::from(b'"')))
        | zero_byte(word ^ (LOW * u64::from(b'\\')))
        | zero_byte(word ^ (LOW * u64::from(b'\n')))
        | zero_byte(word ^ (LOW * u64::from(b'\r')))
}

/// The end (one past the closing bracket) of the body opening at `start`.
/// An `Unbalanced` error at the end of the input is reported at `start`.
pub fn scan_symbol_body(src: &[u8], start: usize) -> Result<usize, BodyScanError> {
    let mut stack: Vec<u8> = Vec::new();
    let mut p = start;
    loop {
        let Some(&c) = src.get(p) else {
            return Err(match stack.last() {
                Some(&open) => BodyScanError::Unbalanced { open, at: start },
                None => BodyScanError::UnexpectedEnd,
            });
        };
        p += 1;
        match c {
            b'<' | b'[' | b'(' | b'{' => stack.push(c),
            b'-' if src.get(p) == Some(&b'>') => p += 1,
            b'>' | b']' | b')' | b'}' => {
                let want = match c {
                    b'>' => b'<',
                    b']' => b'[',
                    b')' => b'(',
                    _ => b'{',
                };
                if stack.last() != Some(&want) {
                    let open = stack.last().copied().unwrap_or(b'<');
                    return Err(BodyScanError::Unbalanced { open, at: p - 1 });
                }
                stack.pop();
            }
            b'"' => match string_end(src, p - 1) {
                Some(e) => p = e,
                None => return Err(BodyScanError::UnterminatedString { at: p - 1 }),
            },
            0 => return Err(BodyScanError::Nul { at: p - 1 }),
            _ => {}
        }
        if stack.is_empty() {
            return Ok(p);
        }
    }
}

/// Whether the text of a textual bytecode entry (`#dialect.x<…>`,
/// `!dialect<…>`, optionally `: type` after an attribute) scans back as
/// the one symbol it is: `!foo<bar->` does not (its `->` is an arrow).
pub fn entry_rescans(text: &str) -> Result<(), BodyScanError> {
    let b = text.as_bytes();
    if !matches!(b.first(), Some(b'#' | b'!')) {
        return Ok(());
    }
    let ident = b[1..]
        .iter()
        .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'.'))
        .count();
    let open = 1 + ident;
    if b.get(open) != Some(&b'<') {
        return Ok(());
    }
    let end = scan_symbol_body(b, open)?;
    match &b[end..] {
        [] => Ok(()),
        rest if rest.starts_with(b" : ") && b[0] == b'#' => Ok(()),
        _ => Err(BodyScanError::Unbalanced {
            open: b'<',
            at: end,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `string_end` as the grammar states it, one byte at a time.
    fn string_end_bytewise(src: &[u8], start: usize) -> Option<usize> {
        let mut p = start + 1;
        while p < src.len() {
            match src[p] {
                b'"' => return Some(p + 1),
                b'\\' => p += 2,
                b'\n' | b'\r' => return None,
                _ => p += 1,
            }
        }
        None
    }

    #[test]
    fn string_end_agrees_with_the_bytewise_scan() {
        for (src, want) in [
            (&b"\"ab\" x"[..], Some(4)),
            (b"\"a\\\"b\"", Some(6)),
            (b"\"a\\\nb\"", Some(6)),
            (b"\"a\nb\"", None),
            (b"\"a\rb\"", None),
            (b"\"ab", None),
            (b"\"ab\\", None),
        ] {
            assert_eq!(
                string_end(src, 0),
                want,
                "{:?}",
                String::from_utf8_lossy(src)
            );
        }
        // Random strings over the bytes that matter, long enough for the
        // vector paths of memchr.
        // Neighbours of the special bytes and bytes with the high bit set
        // too: the eight-byte test must not report them.
        let alphabet = b"\"\\\n\r\x00\x21\x23\x5b\x5d\x0b\x0c\x0e\xa2\xdc\x8a\x8d\x80\xff";
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..20_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let len = (state % 200) as usize;
            let mut src = vec![b'"'];
            let mut x = state;
            for i in 0..len {
                if i % 16 == 0 {
                    x = x
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                }
                // Mostly plain bytes, as in real strings.
                let r = (x >> ((i % 16) * 4)) & 15;
                let pick = (x >> 40) as usize + i;
                src.push(if r < 10 {
                    b'a'
                } else {
                    alphabet[pick % alphabet.len()]
                });
            }
            assert_eq!(string_end(&src, 0), string_end_bytewise(&src, 0), "{src:?}");
        }
    }

    #[test]
    fn arrows_and_strings() {
        assert_eq!(scan_symbol_body(b"<a->b>", 0), Ok(6));
        assert_eq!(scan_symbol_body(b"<\">\">x", 0), Ok(5));
        assert_eq!(entry_rescans("!foo<bar>"), Ok(()));
        assert_eq!(entry_rescans("#foo.x<1> : i32"), Ok(()));
        assert!(entry_rescans("!foo<bar->").is_err());
        assert!(entry_rescans("#foo.x<a>b>").is_err());
    }
}
