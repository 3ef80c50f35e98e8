//! Shardy (`sdy`, SPEC.md §10.5): the sharding dialect jaxlib's modules
//! carry. Its bytecode encodings (`bytecode.td`, Shardy a0277a83) give 18
//! attribute kinds a code each; what jax.export writes for an unsharded
//! model is the sharding rule of a custom call (linalg's QR, Cholesky,
//! eigh, …): `#sdy.op_sharding_rule<([i, j])->([k, l], [m]) {i=6, j=6,
//! k=6, l=6, m=6}, custom>`. Those three kinds are read, printed and
//! written here; the others are refused by name until their printers are
//! written.
//!
//! A rule refers to its tensor mappings, and they to their dimension
//! mappings, as attributes of their own (table entries), but prints them
//! inline, each factor by its symbol (`i` … `z`, then `z_1`, `z_2`, …:
//! Shardy's `factorSymbolString`). The bodies here are that text; the
//! nested attributes a rule writes are made again from it, as the reader
//! made them.

use crate::body::Body;
use crate::out::Out;
use crate::unbody::{attr_body, Unbody};
use rmlir_format::dialect_hooks::{
    BytecodeDialect, DialectReader, DialectWriter, HookError, HookResult,
};
use rmlir_format::{AttrData, AttrId, BodyPiece};

/// Shardy's bytecode hooks.
pub struct Sdy;

/// The dialect's name.
pub const DIALECT: &str = "sdy";

/// Shardy's attribute kinds by code (`SdyDialectTypes`).
const KINDS: &[&str] = &[
    "manual_axes",
    "mesh_axis",
    "mesh",
    "sub_axis_info",
    "axis_ref",
    "dim_sharding",
    "sharding",
    "sharding_per_value",
    "dim_mapping",
    "tensor_mapping",
    "op_sharding_rule",
    "axis_ref_list",
    "list_of_axis_ref_lists",
    "all_to_all_param",
    "all_to_all_param_list",
    "sharding (v2)",
    "sharding_per_value (v2)",
    "sharding (v3)",
];

const DIM_MAPPING: u64 = 8;
const TENSOR_MAPPING: u64 = 9;
const OP_SHARDING_RULE: u64 = 10;

/// The four factor lists of a rule after its sizes, as printed.
const FACTOR_LISTS: [&str; 4] = [
    "reduction",
    "need_replication",
    "permutation",
    "blocked_propagation",
];

/// `factorSymbolString`: `i` for 0 … `z` for 17, then `z_1`, `z_2`, ….
fn factor_symbol(f: i64) -> String {
    const START_AT_Z: i64 = (b'z' - b'i') as i64;
    if (0..=START_AT_Z).contains(&f) {
        ((b'i' + f as u8) as char).to_string()
    } else {
        format!("z_{}", f - START_AT_Z)
    }
}

/// The factors of symbols written one after another (`ij`, `z_1k`).
fn parse_factors(s: &str) -> Option<Vec<i64>> {
    let b = s.as_bytes();
    let mut v = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'z' if b.get(i + 1) == Some(&b'_') => {
                let digits = b[i + 2..].iter().take_while(|c| c.is_ascii_digit()).count();
                let n: i64 = s.get(i + 2..i + 2 + digits)?.parse().ok()?;
                v.push(17 + n);
                i += 2 + digits;
            }
            c @ b'i'..=b'z' => {
                v.push(i64::from(c - b'i'));
                i += 1;
            }
            _ => return None,
        }
    }
    Some(v)
}

/// A dimension mapping's body: `dim_mapping<ij>`.
fn dim_mapping_body(factors: &[i64]) -> Body {
    let names: String = factors.iter().map(|&f| factor_symbol(f)).collect();
    Body::new(&format!("dim_mapping<{names}>"))
}

/// A tensor mapping's body, as a rule prints it after the mnemonic:
/// `tensor_mapping[i, jk]`.
fn tensor_mapping_body(dims: &[Vec<i64>]) -> Body {
    let dims: Vec<String> = dims
        .iter()
        .map(|d| d.iter().map(|&f| factor_symbol(f)).collect())
        .collect();
    Body::new(&format!("tensor_mapping[{}]", dims.join(", ")))
}

/// The text of a body whose pieces are all text.
fn text_of(w: &dyn DialectWriter, a: AttrId) -> Option<String> {
    let body = attr_body(w, DIALECT, a)?;
    let mut s = String::new();
    for p in &body.pieces {
        match p {
            BodyPiece::Text(t) => s.push_str(t),
            _ => return None,
        }
    }
    Some(s)
}

/// The dimensions of a tensor mapping's text (`[i, jk]`, the mnemonic
/// left out).
fn parse_tensor_mapping(s: &str) -> Option<Vec<Vec<i64>>> {
    let inner = s.trim().strip_prefix('[')?.strip_suffix(']')?.trim();
    if inner.is_empty() {
        return Some(Vec::new());
    }
    inner.split(',').map(|d| parse_factors(d.trim())).collect()
}

impl BytecodeDialect for Sdy {
    fn name(&self) -> &str {
        DIALECT
    }

    fn read_attribute(&self, r: &mut dyn DialectReader) -> HookResult<Option<AttrId>> {
        let code = r.read_varint()?;
        let body = match code {
            DIM_MAPPING => dim_mapping_body(&crate::hlo::signed_list(r)?),
            TENSOR_MAPPING => {
                let n = r.read_varint()?;
                let mut dims = Vec::new();
                for _ in 0..n {
                    let a = r.read_attribute()?;
                    dims.push(dim_mapping_factors(r, a)?);
                }
                tensor_mapping_body(&dims)
            }
            OP_SHARDING_RULE => {
                let sizes = crate::hlo::signed_list(r)?;
                let mut text = String::from("op_sharding_rule<");
                for (open, close) in [("(", ")->"), ("(", ")")] {
                    let n = r.read_varint()?;
                    let mut maps = Vec::new();
                    for _ in 0..n {
                        let a = r.read_attribute()?;
                        maps.push(tensor_mapping_text(r, a)?);
                    }
                    text.push_str(open);
                    text.push_str(&maps.join(", "));
                    text.push_str(close);
                }
                if !sizes.is_empty() {
                    let sizes: Vec<String> = sizes
                        .iter()
                        .enumerate()
                        .map(|(i, s)| format!("{}={s}", factor_symbol(i as i64)))
                        .collect();
                    text.push_str(&format!(" {{{}}}", sizes.join(", ")));
                }
                for kind in FACTOR_LISTS {
                    let factors = crate::hlo::signed_list(r)?;
                    if !factors.is_empty() {
                        let names: Vec<String> = factors.iter().map(|&f| factor_symbol(f)).collect();
                        text.push_str(&format!(" {kind}={{{}}}", names.join(", ")));
                    }
                }
                match r.read_byte()? {
                    0 => {}
                    1 => text.push_str(", custom"),
                    b => {
                        return Err(HookError(format!(
                            "sdy op_sharding_rule with is_custom_rule byte {b} (expected 0 or 1)"
                        )))
                    }
                }
                text.push('>');
                Body::new(&text)
            }
            _ => {
                return Err(HookError(match KINDS.get(code as usize) {
                    Some(kind) => format!(
                        "sdy attribute code {code} ({kind}) is not supported yet: its printer is not written"
                    ),
                    None => format!(
                        "unknown sdy attribute code {code}: this reader knows Shardy a0277a83's (codes 0-17); the file may come from a newer Shardy"
                    ),
                }))
            }
        };
        Ok(Some(body.into_attr(DIALECT, r.ctx())))
    }

    fn write_attribute(&self, attr: AttrId, w: &mut dyn DialectWriter) -> bool {
        let Some(text) = text_of(w, attr) else {
            return false;
        };
        match encode(&text, w) {
            Some(out) => out.flush(w),
            None => false,
        }
    }

    fn parses_bodies(&self) -> bool {
        true
    }
}

/// The factors of dimension mapping `a` (one this hook read).
fn dim_mapping_factors(r: &mut dyn DialectReader, a: AttrId) -> HookResult<Vec<i64>> {
    let bad = || HookError("sdy tensor_mapping of an attribute that is not a dim_mapping".into());
    let AttrData::Dialect { body, ty: None } = r.ctx().attr(a) else {
        return Err(bad());
    };
    match &body.pieces[..] {
        [BodyPiece::Text(t)] if &*body.dialect == DIALECT => t
            .strip_prefix("dim_mapping<")
            .and_then(|t| t.strip_suffix('>'))
            .and_then(parse_factors)
            .ok_or_else(bad),
        _ => Err(bad()),
    }
}

/// Tensor mapping `a` as a rule prints it (`[i, j]`).
fn tensor_mapping_text(r: &mut dyn DialectReader, a: AttrId) -> HookResult<String> {
    let bad =
        || HookError("sdy op_sharding_rule of an attribute that is not a tensor_mapping".into());
    let AttrData::Dialect { body, ty: None } = r.ctx().attr(a) else {
        return Err(bad());
    };
    match &body.pieces[..] {
        [BodyPiece::Text(t)] if &*body.dialect == DIALECT => t
            .strip_prefix("tensor_mapping")
            .map(str::to_string)
            .ok_or_else(bad),
        _ => Err(bad()),
    }
}

/// The fields of an sdy body this module prints, made again from its text.
fn encode(text: &str, w: &mut dyn DialectWriter) -> Option<Out> {
    let mut out = Out::default();
    if let Some(f) = text
        .strip_prefix("dim_mapping<")
        .and_then(|t| t.strip_suffix('>'))
    {
        out.u(DIM_MAPPING).signed_list(&parse_factors(f)?);
        return Some(out);
    }
    if let Some(t) = text.strip_prefix("tensor_mapping") {
        let dims = parse_tensor_mapping(t)?;
        out.u(TENSOR_MAPPING).u(dims.len() as u64);
        for d in &dims {
            let a = dim_mapping_body(d).into_attr_with(DIALECT, w)?;
            out.attr(a);
        }
        return Some(out);
    }
    let rule = text.strip_prefix("op_sharding_rule<")?.strip_suffix('>')?;
    let pieces = [BodyPiece::Text(rule.into())];
    let mut u = Unbody {
        c: rmlir_format::dialect_encodings::body_cursor::BodyCursor::new(&pieces),
    };
    let mut mappings = Vec::new();
    for (i, close) in [")->", ")"].into_iter().enumerate() {
        u.eat("(")?;
        let mut maps = Vec::new();
        let save = u.c.pos;
        if u.eat(")").is_none() {
            u.c.pos = save;
            loop {
                let start = u.c.pos;
                u.eat("[")?;
                u.text_until(b']')?;
                u.eat("]")?;
                let t = u.c.text(start, u.c.pos);
                maps.push(parse_tensor_mapping(&t)?);
                if u.eat(",").is_none() {
                    break;
                }
            }
            u.eat(close)?;
        } else if i == 0 {
            u.eat("->")?;
        }
        mappings.push(maps);
    }
    let mut sizes = Vec::new();
    if u.eat("{").is_some() {
        loop {
            let name = u.text_until(b'=')?;
            if parse_factors(name.trim())? != [sizes.len() as i64] {
                return None;
            }
            u.eat("=")?;
            sizes.push(u.int()?);
            if u.eat("}").is_some() {
                break;
            }
            u.eat(",")?;
        }
    }
    let mut lists: [Vec<i64>; 4] = Default::default();
    for (k, kind) in FACTOR_LISTS.iter().enumerate() {
        if u.param(kind).is_some() {
            u.eat("{")?;
            let names = u.text_until(b'}')?;
            u.eat("}")?;
            for n in names.split(',') {
                lists[k].extend(parse_factors(n.trim())?);
            }
        }
    }
    let custom = if u.eat(",").is_some() {
        (u.ident()? == "custom").then_some(1u8)?
    } else {
        0
    };
    if !u.at_end() {
        return None;
    }
    out.u(OP_SHARDING_RULE).signed_list(&sizes);
    for maps in &mappings {
        out.u(maps.len() as u64);
        for m in maps {
            out.attr(tensor_mapping_body(m).into_attr_with(DIALECT, w)?);
        }
    }
    for l in &lists {
        out.signed_list(l);
    }
    out.byte(custom);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Shardy's symbols: `i` … `z` for 0 … 17, then `z_1` for 18; read
    /// back one after another as a compound factor is written.
    #[test]
    fn factor_symbols_read_back() {
        assert_eq!(factor_symbol(0), "i");
        assert_eq!(factor_symbol(17), "z");
        assert_eq!(factor_symbol(18), "z_1");
        assert_eq!(factor_symbol(30), "z_13");
        let all: Vec<i64> = (0..40).collect();
        let text: String = all.iter().map(|&f| factor_symbol(f)).collect();
        assert_eq!(parse_factors(&text), Some(all));
        assert_eq!(parse_factors("ij"), Some(vec![0, 1]));
        assert_eq!(parse_factors("a"), None);
        assert_eq!(parse_tensor_mapping("[]"), Some(vec![]));
        assert_eq!(
            parse_tensor_mapping("[i, jk]"),
            Some(vec![vec![0], vec![1, 2]])
        );
    }
}
