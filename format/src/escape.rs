//! String escaping as MLIR prints it (LLVM's `printEscapedString`), shared
//! by the printer and the readers that rebuild printed dialect bodies.

/// Appends `s` in double quotes: printable ASCII other than `"` and `\` as
/// is, `\\` for a backslash, `\XX` (upper-case hex) for every other byte.
pub fn write_quoted(s: &[u8], out: &mut String) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    out.push('"');
    for &c in s {
        if c == b'\\' {
            out.push_str("\\\\");
        } else if (0x20..0x7f).contains(&c) && c != b'"' {
            out.push(c as char);
        } else {
            out.push('\\');
            out.push(HEX[(c >> 4) as usize] as char);
            out.push(HEX[(c & 15) as usize] as char);
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    #[test]
    fn escapes_like_llvm() {
        let mut s = String::new();
        super::write_quoted(b"a\"b\\c\n\xff ~", &mut s);
        assert_eq!(s, r#""a\22b\\c\0A\FF ~""#);
    }
}
