//! IREE's dialects as its printer shows them (SPEC.md §10.6): the alias
//! names their `OpAsmDialectInterface::getAlias` hooks give attributes,
//! ported from IREE b48a5955 (the commit of iree-base-compiler 3.13.0).
//! Op layouts are data (`dialects/data/ods-layouts-iree-b48a5955.json`);
//! IREE's dialects declare no bytecode encodings of their own, so their
//! attributes travel as text.

use rmlir_format::{AttrData, BodyPiece, Context, DialectBody};
use std::borrow::Cow;

/// `(dialect, mnemonic, alias)`: attributes aliased by kind alone.
const ALIASES_BY_KIND: &[(&str, &str, &str)] = &[
    ("hal", "pipeline.layout", "pipeline_layout"),
    ("iree_codegen", "compilation_info", "compilation"),
    ("iree_codegen", "lowering_config", "config"),
    ("iree_codegen", "translation_info", "translation"),
    ("iree_cpu", "lowering_config", "config"),
    ("iree_encoding", "encoding", "encoding"),
    ("iree_encoding", "layout", "encoding"),
    ("iree_encoding", "testing", "encoding"),
    ("iree_encoding", "unknown", "encoding"),
    ("iree_map", "pack_layout", "pack_layout"),
    ("iree_map", "pack_map", "pack_map"),
    ("iree_vector_ext", "nested_layout", "nested"),
];

/// The alias IREE prints `body` with, if one of its dialects names one.
/// Two HAL kinds are named by their content:
/// - `#hal.executable.target<"backend", "format", …>`:
///   `executable_target_<format>`;
/// - `#hal.device.target<"id", {ordinal = N …}, …>`:
///   `device_target_<id>` (lowercased), `_N_` appended with an integer
///   `ordinal`;
///
/// each sanitised as IREE's `sanitizeSymbolName` does (anything but
/// `[A-Za-z0-9_]` becomes `_`). `util.composite` (`composite_of_<N>b`,
/// N its total byte length) is not ported: its length needs the
/// attribute's values decoded, and it prints unaliased here.
pub fn attr_alias(ctx: &Context, body: &DialectBody) -> Option<Cow<'static, str>> {
    let mnemonic = body.mnemonic();
    if let Some(&(_, _, alias)) = ALIASES_BY_KIND
        .iter()
        .find(|(d, m, _)| **d == *body.dialect && *m == mnemonic)
    {
        return Some(Cow::Borrowed(alias));
    }
    if &*body.dialect != "hal" {
        return None;
    }
    let strings = leading_strings(body);
    match mnemonic {
        "executable.target" => {
            let format = strings.get(1)?;
            Some(Cow::Owned(format!(
                "executable_target_{}",
                sanitize(&format.to_lowercase())
            )))
        }
        "device.target" => {
            let mut name = strings.first()?.to_lowercase();
            if let Some(n) = ordinal(ctx, body) {
                name.push_str(&format!("_{n}_"));
            }
            Some(Cow::Owned(format!("device_target_{}", sanitize(&name))))
        }
        _ => None,
    }
}

/// IREE's `sanitizeSymbolName`.
fn sanitize(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// The string literals of the body's text, in order, up to its first
/// nested attribute or type, unescaped only as far as a symbol name needs
/// (escapes are kept as their characters).
fn leading_strings(body: &DialectBody) -> Vec<String> {
    let mut out = Vec::new();
    for piece in &body.pieces {
        let BodyPiece::Text(t) = piece else { break };
        let mut chars = t.chars();
        while let Some(c) = chars.next() {
            if c != '"' {
                continue;
            }
            let mut s = String::new();
            while let Some(c) = chars.next() {
                match c {
                    '"' => break,
                    '\\' => {
                        if let Some(e) = chars.next() {
                            s.push(e);
                        }
                    }
                    c => s.push(c),
                }
            }
            out.push(s);
        }
    }
    out
}

/// The integer `ordinal` entry of a device target's configuration
/// dictionary, when the dictionary is a nested attribute of the body.
fn ordinal(ctx: &Context, body: &DialectBody) -> Option<i64> {
    body.pieces.iter().find_map(|p| {
        let BodyPiece::Attr(a) = p else { return None };
        let AttrData::Dictionary(entries) = ctx.attr(*a) else {
            return None;
        };
        let (_, v) = entries.iter().find(|(k, _)| &k[..] == b"ordinal")?;
        match ctx.attr(*v) {
            AttrData::Integer { value, .. } => i64::try_from(value).ok(),
            _ => None,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(pieces: Vec<BodyPiece>) -> DialectBody {
        DialectBody {
            dialect: "hal".into(),
            pieces,
        }
    }

    /// Hand-derived from IREE's hooks (and the names IREE 3.13 prints for
    /// `make_iree.py`'s files).
    #[test]
    fn hal_targets_are_named_by_their_content() {
        let ctx = Context::new();
        let exe = body(vec![BodyPiece::Text(
            "executable.target<\"llvm-cpu\", \"embedded-elf-x86_64\", ".into(),
        )]);
        assert_eq!(
            attr_alias(&ctx, &exe).as_deref(),
            Some("executable_target_embedded_elf_x86_64")
        );
        let dev = body(vec![BodyPiece::Text("device.target<\"local\", [".into())]);
        assert_eq!(
            attr_alias(&ctx, &dev).as_deref(),
            Some("device_target_local")
        );
        let layout = body(vec![BodyPiece::Text("pipeline.layout<bindings = [".into())]);
        assert_eq!(
            attr_alias(&ctx, &layout).as_deref(),
            Some("pipeline_layout")
        );
        let other = body(vec![BodyPiece::Text("device.alias<\"x\">".into())]);
        assert_eq!(attr_alias(&ctx, &other), None);
    }
}
