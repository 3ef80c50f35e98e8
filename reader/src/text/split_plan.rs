//! Where a large file of text splits for a parse on two threads (SPEC.md
//! §3.5). Only the layout mlir-opt prints is looked for, in the generic
//! form or the custom one: alias definitions, one top-level operation
//! whose first line is at column 0 (`"builtin.module"() ({` or `module
//! {`) and whose body's operations start two spaces in (their names
//! quoted, or bare in the custom form), the `}` that closes its region at
//! column 0, then alias definitions and file metadata.
//!
//! The plan is a guess from line starts, not a parse: the parser checks
//! each offset when it reaches it and parses on one thread where one does
//! not hold, so a wrong guess costs time, never a different module.

/// Byte offsets of one split.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SplitPlan {
    /// The top-level operation whose body is split.
    pub op_start: usize,
    /// The first token of an operation at the top level of that body: the
    /// second thread parses from here.
    pub split: usize,
    /// The `}` that closes the body.
    pub body_end: usize,
    /// The line after the one that holds `body_end`, where the alias
    /// definitions after the operation start.
    pub trailer_start: usize,
}

/// The plan for `src`, the split chosen so that what the first thread
/// parses (the definitions before the op, which it parses alone before
/// the second thread starts, and the operations `op_start..split`) is
/// `first_share` of everything either thread parses (those, the
/// operations after them and the definitions after the op). The
/// definitions before the op are few in the generic form mlir-opt prints
/// and 5% of the file in its custom form (`#locN = loc("file":l:c)`).
pub fn find(src: &[u8], first_share: f64) -> Option<SplitPlan> {
    find_after(src, first_op_line(src)?, first_share)
}

/// [`find`] with the top-level operation's line given, as
/// [`first_op_line`] finds it: the parser looks for it first, and the rest
/// of the plan is looked for beside its parse of the definitions before
/// it.
pub fn find_after(src: &[u8], op_start: usize, first_share: f64) -> Option<SplitPlan> {
    let body_end = last_line_starting_with(src, b'}')?;
    if body_end <= op_start {
        return None;
    }
    let trailer_start = next_line(src, body_end).unwrap_or(src.len());
    let work = body_end + (src.len() - trailer_start);
    let target = (work as f64 * first_share.clamp(0.0, 1.0)) as usize;
    let mut line = next_line(src, target.clamp(op_start, body_end))?;
    while line < body_end {
        if src[line..].starts_with(b"  ") && src.get(line + 2).copied().is_some_and(op_name_start) {
            return Some(SplitPlan {
                op_start,
                split: line + 2,
                body_end,
                trailer_start,
            });
        }
        line = next_line(src, line)?;
    }
    None
}

/// Whether `c` starts an operation's name: `"` in the generic form, a
/// letter in the custom form (not `%`: an op at the body's top level that
/// defines values cannot be parsed apart from the ops using them).
fn op_name_start(c: u8) -> bool {
    c == b'"' || c.is_ascii_alphabetic()
}

/// The first line that starts with an operation name, after lines of
/// alias definitions, comments and blank lines only.
pub fn first_op_line(src: &[u8]) -> Option<usize> {
    let mut line = 0;
    while line < src.len() {
        match src[line] {
            c if op_name_start(c) => return Some(line),
            b'#' | b'!' | b'\n' | b'\r' => {}
            b'/' if src[line..].starts_with(b"//") => {}
            _ => return None,
        }
        line = next_line(src, line)?;
    }
    None
}

/// The start of the line after the one that holds `at`.
fn next_line(src: &[u8], at: usize) -> Option<usize> {
    find_byte(&src[at..], b'\n').map(|i| at + i + 1)
}

/// The start of the last line whose first byte is `first`: the last
/// `first` that follows a newline (or starts the text). Searching for the
/// byte, not for line starts, passes the definitions after the op in one
/// call when they hold no `first` (mlir-opt's locations hold no `}`).
fn last_line_starting_with(src: &[u8], first: u8) -> Option<usize> {
    let mut end = src.len();
    while let Some(i) = rfind_byte(&src[..end], first) {
        if i == 0 || src[i - 1] == b'\n' {
            return Some(i);
        }
        end = i;
    }
    None
}

#[cfg(target_os = "linux")]
fn find_byte(s: &[u8], b: u8) -> Option<usize> {
    // SAFETY: the pointer and length describe `s`, which outlives the call.
    let p = unsafe { libc::memchr(s.as_ptr().cast(), i32::from(b), s.len()) };
    (!p.is_null()).then(|| p as usize - s.as_ptr() as usize)
}

#[cfg(target_os = "linux")]
fn rfind_byte(s: &[u8], b: u8) -> Option<usize> {
    // SAFETY: the pointer and length describe `s`, which outlives the call.
    let p = unsafe { libc::memrchr(s.as_ptr().cast(), i32::from(b), s.len()) };
    (!p.is_null()).then(|| p as usize - s.as_ptr() as usize)
}

#[cfg(not(target_os = "linux"))]
fn find_byte(s: &[u8], b: u8) -> Option<usize> {
    s.iter().position(|&c| c == b)
}

#[cfg(not(target_os = "linux"))]
fn rfind_byte(s: &[u8], b: u8) -> Option<usize> {
    s.iter().rposition(|&c| c == b)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "#map = affine_map<(d0) -> (d0)>\n\
        \"builtin.module\"() ({\n\
        \x20 \"f.a\"() ({\n\
        \x20   \"f.inner\"() : () -> ()\n\
        \x20 }) : () -> () loc(#loc1)\n\
        \x20 \"f.b\"() : () -> () loc(#loc2)\n\
        \x20 \"f.c\"() : () -> () loc(#loc2)\n\
        }) : () -> () loc(#loc)\n\
        #loc = loc(\"x\":1:1)\n\
        #loc1 = loc(\"x\":2:1)\n\
        #loc2 = loc(\"x\":3:1)\n";

    fn at(line: &str) -> usize {
        TEXT.find(line).unwrap()
    }

    #[test]
    fn finds_the_offsets_of_the_printed_layout() {
        let p = find(TEXT.as_bytes(), 0.5).unwrap();
        assert_eq!(p.op_start, at("\"builtin.module\""));
        assert_eq!(p.body_end, at("}) : () -> () loc(#loc)"));
        assert_eq!(p.trailer_start, at("#loc = "));
        // The split is the start of a line two spaces in, never a nested
        // op's line.
        assert!([at("\"f.b\""), at("\"f.c\"")].contains(&p.split), "{p:?}");
        assert_eq!(find(TEXT.as_bytes(), 0.0).unwrap().split, at("\"f.a\""));
    }

    #[test]
    fn finds_the_custom_form_layout() {
        let text = "#loc1 = loc(\"x\":2:1)\n\
            module {\n\
            \x20 func.func @a() {\n\
            \x20   return\n\
            \x20 }\n\
            \x20 %0 = \"f.b\"() : () -> i32\n\
            \x20 \"f.c\"() : () -> ()\n\
            } loc(#loc)\n\
            #loc = loc(\"x\":1:1)\n";
        let p = find(text.as_bytes(), 0.0).unwrap();
        assert_eq!(p.op_start, text.find("module").unwrap());
        assert_eq!(p.split, text.find("func.func").unwrap());
        assert_eq!(p.body_end, text.find("} loc(#loc)").unwrap());
        // A line defining values is not a split.
        let p = find(text.as_bytes(), 0.6).unwrap();
        assert_eq!(p.split, text.find("\"f.c\"").unwrap());
    }

    #[test]
    fn declines_other_layouts() {
        assert_eq!(find(b"module {\n}\n", 0.5), None);
        assert_eq!(find(b"\"a.b\"() : () -> ()\n", 0.5), None);
        assert_eq!(find(b"", 0.5), None);
        // Nothing two spaces in after the target.
        assert_eq!(find(TEXT.as_bytes(), 1.0), None);
    }
}
