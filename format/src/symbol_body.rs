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
        open: u8,
        at: usize,
    },
    /// The input ended before any bracket opened.
    UnexpectedEnd,
    UnterminatedString {
        at: usize,
    },
    Nul {
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
pub fn string_end(src: &[u8], start: usize) -> Option<usize> {
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
