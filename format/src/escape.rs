//! String escaping as MLIR prints it (LLVM's `printEscapedString`), shared
//! by the printer and the readers that rebuild printed dialect bodies.

/// Appends `s` in double quotes: printable ASCII other than `"` and `\` as
/// is, `\\` for a backslash, `\XX` (upper-case hex) for every other byte.
pub fn write_quoted(s: &[u8], out: &mut String) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    out.push('"');
    // Runs of bytes printed as they are are copied in one piece (file
    // names of locations are printed this way a million times in a large
    // module).
    let mut rest = s;
    while let Some(n) = rest.iter().position(|&c| !plain(c)) {
        out.push_str(std::str::from_utf8(&rest[..n]).expect("printable ASCII"));
        escape(rest[n], out);
        rest = &rest[n + 1..];
    }
    out.push_str(std::str::from_utf8(rest).expect("printable ASCII"));
    out.push('"');

    fn plain(c: u8) -> bool {
        (0x20..0x7f).contains(&c) && c != b'"' && c != b'\\'
    }
    fn escape(c: u8, out: &mut String) {
        if c == b'\\' {
            out.push_str("\\\\");
        } else {
            out.push('\\');
            out.push(HEX[(c >> 4) as usize] as char);
            out.push(HEX[(c & 15) as usize] as char);
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn escapes_like_llvm() {
        let mut s = String::new();
        super::write_quoted(b"a\"b\\c\n\xff ~", &mut s);
        assert_eq!(s, r#""a\22b\\c\0A\FF ~""#);
        let mut t = String::new();
        super::write_quoted(b"plain/path.py", &mut t);
        assert_eq!(t, "\"plain/path.py\"");
        let mut u = String::new();
        super::write_quoted(b"\\", &mut u);
        assert_eq!(u, r#""\\""#);
    }
}
