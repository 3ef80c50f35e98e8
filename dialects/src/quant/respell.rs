//! Quant types written by hand: the text of a `!quant.…` body respelled
//! the way MLIR 22's quant printer writes the type it parsed (SPEC.md
//! §2.4). mlir-opt keeps no spelling of its own: `7.866577e-03` is read as
//! a `double` and printed back as `0.0078665769999999995`, default storage
//! bounds (`i8<-128:127>`) are dropped, a zero point of 0 is left out.
//! Reading bytecode builds the body from those printing rules
//! (`print.rs`), so without this a module's
//! text and its bytecode round trip printed differently.
//!
//! A body this grammar does not know (a float storage type, an integer
//! scale, which mlir-opt rejects) is left as written.

use super::bounds::default_storage_bounds;
use rmlir_format::float::{format_mlir_float, parse_mlir_float, FloatKind};

/// The canonical spelling of the quant type body `text` (`uniform<…>`,
/// `calibrated<…>`, `any<…>`), or `None` when it is already canonical or
/// not understood.
pub fn canonical(text: &str) -> Option<String> {
    let mut c = Cursor { s: text, p: 0 };
    let out = body(&mut c)?;
    c.skip_ws();
    (c.p == text.len() && out != text).then_some(out)
}

struct Cursor<'s> {
    s: &'s str,
    p: usize,
}

impl<'s> Cursor<'s> {
    fn skip_ws(&mut self) {
        let rest = &self.s[self.p..];
        self.p += rest.len() - rest.trim_start().len();
    }

    fn eat(&mut self, tok: &str) -> bool {
        self.skip_ws();
        if self.s[self.p..].starts_with(tok) {
            self.p += tok.len();
            true
        } else {
            false
        }
    }

    fn ident(&mut self) -> Option<&'s str> {
        self.skip_ws();
        let rest = &self.s[self.p..];
        let n = rest
            .bytes()
            .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
            .count();
        (n > 0).then(|| {
            self.p += n;
            &rest[..n]
        })
    }

    /// A number token: sign, digits, `.`, exponent, or a hex literal.
    fn number(&mut self) -> Option<&'s str> {
        self.skip_ws();
        let rest = &self.s[self.p..];
        let b = rest.as_bytes();
        let mut n = usize::from(matches!(b.first(), Some(b'-' | b'+')));
        if rest[n..].starts_with("0x") {
            n += 2;
            n += rest[n..].bytes().take_while(u8::is_ascii_hexdigit).count();
        } else {
            while n < b.len() {
                let ok = b[n].is_ascii_digit()
                    || b[n] == b'.'
                    || matches!(b[n], b'e' | b'E')
                    || (matches!(b[n], b'-' | b'+') && matches!(b[n - 1], b'e' | b'E'));
                if !ok {
                    break;
                }
                n += 1;
            }
        }
        let tok = &rest[..n];
        (tok.bytes().any(|c| c.is_ascii_digit())).then(|| {
            self.p += n;
            tok
        })
    }

    fn int(&mut self) -> Option<i64> {
        let t = self.number()?;
        t.strip_prefix('+').unwrap_or(t).parse().ok()
    }

    /// A floating-point literal of `kind` (`parseFloat`: a decimal integer
    /// is an error, a hex literal is the bit pattern), printed as MLIR does.
    fn float(&mut self, kind: FloatKind) -> Option<String> {
        let t = self.number()?;
        let bits = match t.strip_prefix("0x") {
            Some(hex) => u128::from_str_radix(hex, 16).ok()?,
            None if !t.contains(['.', 'e', 'E']) => return None,
            None => parse_mlir_float(kind, t).ok()?,
        };
        Some(format_mlir_float(kind, bits))
    }
}

fn body(c: &mut Cursor<'_>) -> Option<String> {
    match c.ident()? {
        "any" => {
            c.eat("<").then_some(())?;
            let mut out = format!("any<{}", storage(c)?);
            if c.eat(":") {
                out.push(':');
                out.push_str(expressed(c)?.0);
            }
            c.eat(">").then_some(())?;
            out.push('>');
            Some(out)
        }
        "uniform" => uniform(c),
        "calibrated" => {
            c.eat("<").then_some(())?;
            let (name, _) = expressed(c)?;
            c.eat("<").then_some(())?;
            let min = c.float(FloatKind::F64)?;
            c.eat(":").then_some(())?;
            let max = c.float(FloatKind::F64)?;
            (c.eat(">") && c.eat(">")).then_some(())?;
            Some(format!("calibrated<{name}<{min}:{max}>>"))
        }
        _ => None,
    }
}

/// `i8`, `u4<1:14>`: bounds only when they are not the full range.
fn storage(c: &mut Cursor<'_>) -> Option<String> {
    let id = c.ident()?;
    let signed = match id.as_bytes()[0] {
        b'i' => true,
        b'u' => false,
        _ => return None,
    };
    let width: u32 = id[1..].parse().ok()?;
    if width == 0 || width > 64 {
        return None;
    }
    // `i08` is `i8` to MLIR's quant parser, and prints so.
    let mut out = format!("{}{width}", if signed { 'i' } else { 'u' });
    let save = c.p;
    // `<` after the storage type opens bounds; `i8:` has none.
    if c.eat("<") {
        let min = c.int()?;
        c.eat(":").then_some(())?;
        let max = c.int()?;
        c.eat(">").then_some(())?;
        if (min, max) != default_storage_bounds(signed, width) {
            out.push_str(&format!("<{min}:{max}>"));
        }
    } else {
        c.p = save;
    }
    Some(out)
}

fn expressed<'s>(c: &mut Cursor<'s>) -> Option<(&'s str, FloatKind)> {
    let name = c.ident()?;
    Some((name, FloatKind::from_keyword(name)?))
}

/// `scale[:zeroPoint]`, the zero point left out when 0.
fn param(c: &mut Cursor<'_>, kind: FloatKind, out: &mut String) -> Option<()> {
    out.push_str(&c.float(kind)?);
    let save = c.p;
    if c.eat(":") {
        match c.int()? {
            0 => {}
            z => out.push_str(&format!(":{z}")),
        }
    } else {
        c.p = save;
    }
    Some(())
}

fn uniform(c: &mut Cursor<'_>) -> Option<String> {
    c.eat("<").then_some(())?;
    let st = storage(c)?;
    c.eat(":").then_some(())?;
    let (name, kind) = expressed(c)?;
    let mut out = format!("uniform<{st}:{name}");
    if c.eat(":") {
        if c.eat("{") {
            // Sub-channel: `{dim:block, …}, {{s:z, …}, …}`.
            let mut info = Vec::new();
            loop {
                let d = c.int()?;
                c.eat(":").then_some(())?;
                let b = c.int()?;
                info.push(format!("{}:{b}", i32::try_from(d).ok()?));
                if c.eat("}") {
                    break;
                }
                c.eat(",").then_some(())?;
            }
            out.push_str(&format!(":{{{}}}, ", info.join(", ")));
            c.eat(",").then_some(())?;
            nested(c, kind, &mut out, 0)?;
        } else {
            // Per axis: `dim, {s:z,s:z}` (no space after the commas).
            let d = c.int()?;
            out.push_str(&format!(":{}, {{", i32::try_from(d).ok()?));
            (c.eat(",") && c.eat("{")).then_some(())?;
            let mut first = true;
            loop {
                if !first {
                    out.push(',');
                }
                first = false;
                param(c, FloatKind::F64, &mut out)?;
                if c.eat("}") {
                    break;
                }
                c.eat(",").then_some(())?;
            }
            out.push('}');
        }
    } else {
        c.eat(",").then_some(())?;
        out.push_str(", ");
        param(c, FloatKind::F64, &mut out)?;
    }
    c.eat(">").then_some(())?;
    out.push('>');
    Some(out)
}

/// Sub-channel parameters: scales of the expressed type, nested in
/// braces, `, ` between elements. The nesting is kept as written; an
/// irregular one is left to the verifier (mlir-opt refuses it).
fn nested(c: &mut Cursor<'_>, kind: FloatKind, out: &mut String, depth: usize) -> Option<()> {
    if depth > 64 {
        return None;
    }
    if !c.eat("{") {
        return param(c, kind, out);
    }
    out.push('{');
    let mut first = true;
    loop {
        if !first {
            out.push_str(", ");
        }
        first = false;
        nested(c, kind, out, depth + 1)?;
        if c.eat("}") {
            break;
        }
        c.eat(",").then_some(())?;
    }
    out.push('}');
    Some(())
}

#[cfg(test)]
mod tests {
    use super::canonical;

    /// Expected spellings printed by mlir-opt 22 for the same bodies
    /// (`mlir-opt --mlir-print-op-generic` on a module holding each type).
    #[test]
    fn spellings_of_mlir_opt() {
        let cases = [
            (
                "uniform<u8:f32, 7.866577e-03:128>",
                Some("uniform<u8:f32, 0.0078665769999999995:128>"),
            ),
            ("uniform<u8:f32, 7.812500e-03:128>", None),
            (
                "calibrated<f32<-0.998:1.2321>>",
                Some("calibrated<f32<-0.998:1.232100e+00>>"),
            ),
            (
                "uniform<i8:f32:1, {2.:120,0.99872:127}>",
                Some("uniform<i8:f32:1, {2.000000e+00:120,9.987200e-01:127}>"),
            ),
            (
                "uniform<i8<-8:7>:f32, 3.0e0>",
                Some("uniform<i8<-8:7>:f32, 3.000000e+00>"),
            ),
            (
                "uniform<i8:f32:{0:1,1:2}, {{2.0:10, 3.0:20}, {4.0:30, 5.1:40}}>",
                Some(
                    "uniform<i8:f32:{0:1, 1:2}, {{2.000000e+00:10, 3.000000e+00:20}, {4.000000e+00:30, 5.100000e+00:40}}>",
                ),
            ),
            // Integer scales are an error in mlir-opt: left alone.
            ("uniform<i8:f32, 3>", None),
            ("any<i8<-128:127>:f32>", Some("any<i8:f32>")),
            ("uniform<i8:f32, 2.0:0>", Some("uniform<i8:f32, 2.000000e+00>")),
            (
                "uniform<i8:f32:0, {2.0:0, 3.0 : 1}>",
                Some("uniform<i8:f32:0, {2.000000e+00,3.000000e+00:1}>"),
            ),
            (
                "uniform<u8 : f32 , 1.5e-1 : 3 >",
                Some("uniform<u8:f32, 1.500000e-01:3>"),
            ),
            ("uniform<i08:f32, 1.0>", Some("uniform<i8:f32, 1.000000e+00>")),
            (
                "uniform<u008:f32, 1.000000e+00>",
                Some("uniform<u8:f32, 1.000000e+00>"),
            ),
        ];
        for (input, want) in cases {
            assert_eq!(canonical(input).as_deref(), want, "{input}");
        }
    }
}
