//! The sparse_tensor dialect's encodings written by hand, respelled the way
//! MLIR 22's `SparseTensorEncodingAttr::print` writes the attribute it
//! parsed (SPEC.md §2.4): `#sparse_tensor.encoding<{ map = (i, j) -> (i :
//! dense, j : compressed), posWidth = 0 }>` prints as `#sparse_tensor.encoding<{
//! map = (d0, d1) -> (d0 : dense, d1 : compressed) }>`. The dimensions and
//! symbols are renamed `d`/`s` by position, each level expression is built
//! and printed as an affine expression (MLIR simplifies it), level
//! properties are printed in MLIR's order, and widths of 0 are left out.
//!
//! Only a body that is one piece of text is respelled; a body this grammar
//! does not know (an `explicitVal` that is not a plain integer or float, a
//! dimension defined by an expression) is left as written.

use rmlir_format::affine_parser::parse_affine_map;
use rmlir_format::dialect_encodings::BodyInterner;
use rmlir_format::dialect_hooks::BytecodeDialect;
use rmlir_format::float::{format_mlir_float, parse_mlir_float, FloatKind};
use rmlir_format::BodyPiece;

/// The sparse_tensor dialect's hooks: text respelling only (its attributes
/// go into bytecode as text, as mlir-opt writes them).
pub struct SparseTensor;

impl BytecodeDialect for SparseTensor {
    fn name(&self) -> &str {
        "sparse_tensor"
    }

    fn respell_body(
        &self,
        _space: &mut dyn BodyInterner,
        is_attr: bool,
        pieces: &[BodyPiece],
    ) -> Option<Vec<BodyPiece>> {
        match pieces {
            [BodyPiece::Text(t)] if is_attr => {
                canonical_encoding(t).map(|c| vec![BodyPiece::Text(c.into())])
            }
            _ => None,
        }
    }
}

/// The canonical spelling of an `encoding<{…}>` body, or `None` when it is
/// canonical already or not understood.
pub fn canonical_encoding(text: &str) -> Option<String> {
    let uncommented = strip_comments(text);
    let inner = uncommented
        .strip_prefix("encoding")?
        .trim_start()
        .strip_prefix('<')?
        .trim_end()
        .strip_suffix('>')?
        .trim()
        .strip_prefix('{')?
        .strip_suffix('}')?;
    let mut map = None;
    let (mut pos_width, mut crd_width) = (0u64, 0u64);
    let (mut explicit, mut implicit) = (None, None);
    for entry in split_top(inner, ',').filter(|e| !e.is_empty()) {
        let (key, value) = entry.split_once('=')?;
        let value = value.trim();
        match key.trim() {
            "map" => map = Some(canonical_map(value)?),
            "posWidth" => pos_width = value.parse().ok()?,
            "crdWidth" => crd_width = value.parse().ok()?,
            "explicitVal" => explicit = Some(canonical_value(value)?),
            "implicitVal" => implicit = Some(canonical_value(value)?),
            _ => return None,
        }
    }
    let mut out = format!("encoding<{{ map = {}", map?);
    if pos_width != 0 {
        out += &format!(", posWidth = {pos_width}");
    }
    if crd_width != 0 {
        out += &format!(", crdWidth = {crd_width}");
    }
    if let Some(v) = explicit {
        out += &format!(", explicitVal = {v}");
    }
    if let Some(v) = implicit {
        out += &format!(", implicitVal = {v}");
    }
    out += " }>";
    (out != text).then_some(out)
}

/// `[symbols]? (dims) -> ({names}? levels)` as MLIR prints it.
fn canonical_map(text: &str) -> Option<String> {
    let (lhs, rhs) = text.split_once("->")?;
    let mut lhs = lhs.trim();
    // Level variable declarations (`{l0, l1}`) are not printed.
    if let Some(rest) = lhs.strip_prefix('{') {
        lhs = rest.split_once('}')?.1.trim();
    }
    let (symbols, dims) = match lhs.strip_prefix('[') {
        Some(rest) => {
            let (s, d) = rest.split_once(']')?;
            (split_top(s, ',').collect::<Vec<_>>(), d.trim())
        }
        None => (Vec::new(), lhs),
    };
    let dims = dims.strip_prefix('(')?.strip_suffix(')')?;
    let mut dim_names = Vec::new();
    let mut slices = Vec::new();
    for d in split_top(dims, ',').filter(|d| !d.is_empty()) {
        let (name, slice) = match d.split_once(':') {
            Some((n, s)) => (n.trim(), Some(canonical_slice(s.trim())?)),
            None => (d, None),
        };
        // A dimension defined from the levels (`d0 = l0`): the printer
        // writes the map from dimensions to levels only.
        let name = name.split_once('=').map_or(name, |(n, _)| n.trim());
        if !is_ident(name) {
            return None;
        }
        dim_names.push(name);
        slices.push(slice);
    }
    let mut rhs = rhs.trim();
    // Level variable names (`{l0, l1}`) are not printed.
    if let Some(rest) = rhs.strip_prefix('{') {
        rhs = rest.split_once('}')?.1.trim();
    }
    let levels = rhs.strip_prefix('(')?.strip_suffix(')')?;
    let mut exprs = Vec::new();
    let mut kinds = Vec::new();
    for l in split_top(levels, ',') {
        let (expr, kind) = l.rsplit_once(':')?;
        let expr = match expr.split_once('=') {
            Some((name, e)) if is_ident(name.trim()) => e,
            _ => expr,
        };
        exprs.push(expr.trim());
        kinds.push(canonical_level_type(kind.trim())?);
    }
    // The level expressions, built and printed by the affine parser.
    let map_text = format!(
        "({})[{}] -> ({})>",
        dim_names.join(", "),
        symbols.join(", "),
        exprs.join(", ")
    );
    let (map, _) = parse_affine_map(&map_text).ok()?;
    let mut out = String::new();
    if map.num_symbols > 0 {
        let s: Vec<String> = (0..map.num_symbols).map(|i| format!("s{i}")).collect();
        out += &format!("[{}]", s.join(", "));
    }
    let dims: Vec<String> = slices
        .iter()
        .enumerate()
        .map(|(i, s)| match s {
            Some(s) => format!("d{i} : {s}"),
            None => format!("d{i}"),
        })
        .collect();
    // MLIR prints slices for every dimension or for none.
    if slices.iter().any(Option::is_some) && slices.iter().any(Option::is_none) {
        return None;
    }
    let levels: Vec<String> = map
        .results
        .iter()
        .zip(&kinds)
        .map(|(e, k)| format!("{e} : {k}"))
        .collect();
    out += &format!("({}) -> ({})", dims.join(", "), levels.join(", "));
    Some(out)
}

/// `#sparse_tensor<slice(offset, size, stride)>` with `?` for dynamic.
fn canonical_slice(text: &str) -> Option<String> {
    let args = text
        .strip_prefix("#sparse_tensor<")?
        .strip_suffix('>')?
        .trim()
        .strip_prefix("slice")?
        .trim()
        .strip_prefix('(')?
        .strip_suffix(')')?;
    let parts: Vec<&str> = split_top(args, ',').collect();
    if parts.len() != 3 || !parts.iter().all(|p| *p == "?" || p.parse::<i64>().is_ok()) {
        return None;
    }
    Some(format!("#sparse_tensor<slice({})>", parts.join(", ")))
}

/// A level type (`compressed(nonordered, nonunique)`, `structured[2,4]`)
/// as `LevelType::toMLIRString` writes it: properties as nonunique,
/// nonordered, soa.
fn canonical_level_type(text: &str) -> Option<String> {
    let (head, props) = match text.split_once('(') {
        Some((h, p)) => (h.trim(), Some(p.strip_suffix(')')?)),
        None => (text, None),
    };
    let format = match head.split_once('[') {
        Some((name, nm)) => {
            let nm: Vec<&str> = split_top(nm.strip_suffix(']')?, ',').collect();
            if name.trim() != "structured"
                || nm.len() != 2
                || !nm.iter().all(|n| n.parse::<u64>().is_ok())
            {
                return None;
            }
            format!("structured[{}, {}]", nm[0], nm[1])
        }
        None => match head {
            "dense" | "batch" | "compressed" | "loose_compressed" | "singleton" => head.into(),
            _ => return None,
        },
    };
    let mut flags = [false; 3];
    for p in props.into_iter().flat_map(|p| split_top(p, ',')) {
        let i = ["nonunique", "nonordered", "soa"]
            .iter()
            .position(|n| *n == p)?;
        flags[i] = true;
    }
    let names: Vec<&str> = ["nonunique", "nonordered", "soa"]
        .iter()
        .zip(flags)
        .filter_map(|(n, f)| f.then_some(*n))
        .collect();
    Some(if names.is_empty() {
        format
    } else {
        format!("{format}({})", names.join(", "))
    })
}

/// `explicitVal`/`implicitVal`: a typed integer or float as MLIR prints
/// it (`1.0 : f32` → `1.000000e+00 : f32`).
fn canonical_value(text: &str) -> Option<String> {
    let (value, ty) = text.rsplit_once(':')?;
    let (value, ty) = (value.trim(), ty.trim());
    if let Some(kind) = FloatKind::from_keyword(ty) {
        let bits = parse_mlir_float(kind, value).ok()?;
        return Some(format!("{} : {ty}", format_mlir_float(kind, bits)));
    }
    let width = ty.strip_prefix('i')?;
    if width.parse::<u32>().is_err() {
        return None;
    }
    let v: i64 = value.parse().ok()?;
    Some(format!("{v} : {ty}"))
}

/// `text` without its `//` comments (to the end of their line), which
/// MLIR's lexer skips; an encoding holds no string in which `//` could be.
fn strip_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(line.split_once("//").map_or(line, |(code, _)| code));
    }
    out
}

fn is_ident(s: &str) -> bool {
    let mut b = s.bytes();
    b.next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == b'_')
        && b.all(|c| c.is_ascii_alphanumeric() || b"_$.".contains(&c))
}

/// The comma-separated items of `text` at bracket depth 0, trimmed.
fn split_top(text: &str, sep: char) -> impl Iterator<Item = &str> {
    let mut items = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    let mut prev = ' ';
    for (i, c) in text.char_indices() {
        let after = std::mem::replace(&mut prev, c);
        match c {
            // The `>` of an arrow closes nothing.
            '>' if after == '-' => {}
            '(' | '[' | '{' | '<' => depth += 1,
            ')' | ']' | '}' | '>' => depth -= 1,
            c if c == sep && depth == 0 => {
                items.push(text[start..i].trim());
                start = i + c.len_utf8();
            }
            _ => {}
        }
    }
    items.push(text[start..].trim());
    items.into_iter()
}

#[cfg(test)]
mod tests {
    use super::canonical_encoding;

    /// Expected spellings are mlir-opt 22's prints of the same inputs
    /// (corpus `generic.mlir` files, and checked by hand).
    #[test]
    fn respells_as_mlir_opt_prints() {
        let cases = [
            (
                "encoding<{map = (d0) -> (d0 : compressed)}>",
                Some("encoding<{ map = (d0) -> (d0 : compressed) }>"),
            ),
            (
                "encoding<{\n  map = (i, j) -> (j : dense, i : compressed),\n  posWidth = 32, crdWidth = 32\n}>",
                Some("encoding<{ map = (d0, d1) -> (d1 : dense, d0 : compressed), posWidth = 32, crdWidth = 32 }>"),
            ),
            (
                "encoding<{ map = (i, j) -> (i floordiv 2 : dense, j floordiv 4 : compressed, i mod 2 : dense, j mod 4 : dense) }>",
                Some("encoding<{ map = (d0, d1) -> (d0 floordiv 2 : dense, d1 floordiv 4 : compressed, d0 mod 2 : dense, d1 mod 4 : dense) }>"),
            ),
            (
                "encoding<{ map = (i, j, k, l) -> (i : compressed(nonunique), j : singleton(soa, nonunique), k : singleton(nonunique, soa), l : singleton(soa)), explicitVal = 1 : i32 }>",
                Some("encoding<{ map = (d0, d1, d2, d3) -> (d0 : compressed(nonunique), d1 : singleton(nonunique, soa), d2 : singleton(nonunique, soa), d3 : singleton(soa)), explicitVal = 1 : i32 }>"),
            ),
            (
                "encoding<{ map = (d0, d1) -> (d0 : dense, d1 : dense), explicitVal = 1.0 : f32, posWidth = 0 }>",
                Some("encoding<{ map = (d0, d1) -> (d0 : dense, d1 : dense), explicitVal = 1.000000e+00 : f32 }>"),
            ),
            (
                "encoding<{ map = (d0 : #sparse_tensor<slice(?, 4, ?)>, d1 : #sparse_tensor<slice(?,4,?)>) -> (d0 : dense, d1 : compressed) }>",
                Some("encoding<{ map = (d0 : #sparse_tensor<slice(?, 4, ?)>, d1 : #sparse_tensor<slice(?, 4, ?)>) -> (d0 : dense, d1 : compressed) }>"),
            ),
            (
                "encoding<{ map = (i, j) -> (i : dense, j : structured[2,4]) }>",
                Some("encoding<{ map = (d0, d1) -> (d0 : dense, d1 : structured[2, 4]) }>"),
            ),
            (
                "encoding<{   // 2x4 blocks\n  map = (i, j) -> (i : dense, j : compressed) // lvls\n}>",
                Some("encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>"),
            ),
            (
                "encoding<{\n  map = {l0, l1} (d0 = l0, d1 = l1) -> (l0 = d0 : dense, l1 = d1 : compressed),\n}>",
                Some("encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>"),
            ),
            // Canonical already, or not understood: left alone.
            ("encoding<{ map = (d0) -> (d0 : compressed) }>", None),
            ("encoding<{ map = (d0) -> (d0 : fancy) }>", None),
            ("encoding<{ lvlTypes = [\"dense\"] }>", None),
        ];
        for (input, expected) in cases {
            assert_eq!(canonical_encoding(input).as_deref(), expected, "{input}");
        }
    }
}
