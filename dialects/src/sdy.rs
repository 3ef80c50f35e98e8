//! Shardy (`sdy`, SPEC.md §10.5): the sharding dialect jaxlib's modules
//! carry. Its bytecode encodings (`bytecode.td`, Shardy a0277a83) give 18
//! attribute kinds a code each. jax.export writes the sharding rule of a
//! custom call (linalg's QR, Cholesky, eigh, …:
//! `#sdy.op_sharding_rule<([i, j])->([k, l], [m]) {i=6, …}, custom>`), and
//! for a sharded function a mesh and shardings
//! (`#sdy.sharding<@mesh, [{"x"}, {}]>`). Those kinds and what they nest
//! (13 of 18) are read, printed and written here; the others are refused
//! by name until their printers are written.
//!
//! A sharding refers to its dimension shardings, and they to their axes,
//! as attributes of their own (table entries), printed stripped inside it;
//! a rule prints its mappings inline, each factor by its symbol (`i` …
//! `z`, then `z_1`, `z_2`, …: Shardy's `factorSymbolString`). The bodies
//! here are that text (a sharding's mesh reference, and a sharding list's
//! shardings, as pieces); the nested attributes a body writes are made
//! again from it, as the reader made them.

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

/// The Shardy commit whose ODS and bytecode encodings this module follows.
pub const SHARDY_RELEASE: &str = "a0277a83";

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

const MESH_AXIS: u64 = 1;
const MESH: u64 = 2;
const SUB_AXIS_INFO: u64 = 3;
const AXIS_REF: u64 = 4;
const DIM_SHARDING: u64 = 5;
const SHARDING_V1: u64 = 6;
const SHARDING_PER_VALUE_V1: u64 = 7;
const SHARDING_V2: u64 = 15;
const SHARDING_PER_VALUE_V2: u64 = 16;
const SHARDING_V3: u64 = 17;
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

/// The text `a` prints as (after `#sdy.`): its body, with a nested
/// symbol reference as `@name` and a nested sdy attribute stripped.
fn text_of(w: &dyn DialectWriter, a: AttrId) -> Option<String> {
    let body = attr_body(w, DIALECT, a)?;
    let mut s = String::new();
    for p in &body.pieces {
        match p {
            BodyPiece::Text(t) => s.push_str(t),
            BodyPiece::Attr(x) => match &*w.attr_data(*x) {
                AttrData::SymbolRef { root, nested } if nested.is_empty() => {
                    s.push('@');
                    let bare = root
                        .first()
                        .is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_')
                        && root
                            .iter()
                            .all(|&c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'.'));
                    if bare {
                        s.push_str(std::str::from_utf8(root).ok()?);
                    } else {
                        s.push_str(&quoted(root));
                    }
                }
                _ => return None,
            },
            BodyPiece::Stripped(x) => {
                let t = text_of(w, *x)?;
                let rest = t.trim_start_matches(|c: char| c.is_ascii_alphanumeric() || c == '_');
                s.push_str(rest);
            }
            _ => return None,
        }
    }
    Some(s)
}

/// A string as Shardy prints an axis name: quoted.
fn quoted(s: &[u8]) -> String {
    let mut q = String::new();
    rmlir_format::escape::write_quoted(s, &mut q);
    q
}

/// Whether `a` is an sdy attribute whose body starts with `prefix`.
fn is_kind(ctx: &rmlir_format::Context, a: AttrId, prefix: &str) -> bool {
    match ctx.attr(a) {
        AttrData::Dialect { body, ty: None } if &*body.dialect == DIALECT => {
            matches!(body.pieces.first(), Some(BodyPiece::Text(t)) if t.starts_with(prefix))
        }
        _ => false,
    }
}

/// Attribute `a`, an sdy `mnemonic` this hook read, printed stripped (its
/// text after the mnemonic).
fn stripped(r: &mut dyn DialectReader, a: AttrId, mnemonic: &str) -> HookResult<String> {
    let bad = || HookError(format!("sdy attribute where a {mnemonic} belongs"));
    let AttrData::Dialect { body, ty: None } = r.ctx().attr(a) else {
        return Err(bad());
    };
    match &body.pieces[..] {
        [BodyPiece::Text(t)] if &*body.dialect == DIALECT => t
            .strip_prefix(mnemonic)
            .filter(|rest| !rest.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_'))
            .map(str::to_string)
            .ok_or_else(bad),
        _ => Err(bad()),
    }
}

/// A count, then that many `mnemonic` attributes, each printed stripped.
fn stripped_list(r: &mut dyn DialectReader, mnemonic: &str) -> HookResult<Vec<String>> {
    let n = r.read_varint()?;
    let mut v = Vec::new();
    for _ in 0..n {
        let a = r.read_attribute()?;
        v.push(stripped(r, a, mnemonic)?);
    }
    Ok(v)
}

/// A sharding's mesh when it is inline (`mesh<["x"=2]>`, as
/// `printMeshOrRef` prints it); `None` for a reference (`@mesh`).
fn mesh_text(r: &mut dyn DialectReader, a: AttrId) -> Option<String> {
    let AttrData::Dialect { body, ty: None } = r.ctx().attr(a) else {
        return None;
    };
    match &body.pieces[..] {
        [BodyPiece::Text(t)] if &*body.dialect == DIALECT && t.starts_with("mesh<") => {
            Some(t.to_string())
        }
        _ => None,
    }
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
            MESH_AXIS => {
                let name = quoted(&r.read_string()?);
                let size = r.read_signed_varint()?;
                Body::new(&format!("mesh_axis{name}={size}"))
            }
            MESH => {
                let n = r.read_varint()?;
                let mut axes = Vec::new();
                for _ in 0..n {
                    let a = r.read_attribute()?;
                    axes.push(stripped(r, a, "mesh_axis")?);
                }
                let ids = crate::hlo::signed_list(r)?;
                let mut t = format!("mesh<[{}]", axes.join(", "));
                if !ids.is_empty() {
                    t.push_str(&format!(", device_ids=[{}]", crate::hlo::join(&ids)));
                }
                t.push('>');
                Body::new(&t)
            }
            SUB_AXIS_INFO => {
                let pre = r.read_signed_varint()?;
                let size = r.read_signed_varint()?;
                Body::new(&format!("sub_axis_info({pre}){size}"))
            }
            AXIS_REF => {
                let name = quoted(&r.read_string()?);
                let mut t = format!("axis_ref{name}");
                if let Some(a) = r.read_optional_attribute()? {
                    t.push(':');
                    t.push_str(&stripped(r, a, "sub_axis_info")?);
                }
                Body::new(&t)
            }
            DIM_SHARDING => {
                let axes = stripped_list(r, "axis_ref")?;
                let closed = match r.read_byte()? {
                    0 => false,
                    1 => true,
                    b => {
                        return Err(HookError(format!(
                            "sdy dimension_sharding with is_closed byte {b} (expected 0 or 1)"
                        )))
                    }
                };
                let v = r.read_varint()?;
                let priority = (v & 1 == 1).then_some(v >> 1);
                let mut t = format!("dimension_sharding{{{}", axes.join(", "));
                if !closed {
                    t.push_str(if axes.is_empty() { "?" } else { ", ?" });
                }
                t.push('}');
                if let Some(p) = priority {
                    t.push_str(&format!("p{p}"));
                }
                Body::new(&t)
            }
            SHARDING_V1 | SHARDING_V2 | SHARDING_V3 => {
                let mesh = r.read_attribute()?;
                let dims = stripped_list(r, "dimension_sharding")?;
                let replicated = stripped_list(r, "axis_ref")?;
                let unreduced = if code == SHARDING_V1 {
                    Vec::new()
                } else {
                    stripped_list(r, "axis_ref")?
                };
                let op = if code == SHARDING_V3 {
                    match r.read_signed_varint()? {
                        0 => "",
                        1 => "max",
                        2 => "min",
                        v => {
                            return Err(HookError(format!(
                                "sdy sharding with reduction op {v} (expected 0 sum, 1 max or 2 min)"
                            )))
                        }
                    }
                } else {
                    ""
                };
                let mut b = Body::new("sharding<");
                match mesh_text(r, mesh) {
                    Some(inline) => b.text(&inline),
                    None => b.attr(mesh),
                };
                let mut t = format!(", [{}]", dims.join(", "));
                if !replicated.is_empty() {
                    t.push_str(&format!(", replicated={{{}}}", replicated.join(", ")));
                }
                if !unreduced.is_empty() {
                    t.push_str(&format!(", unreduced={op}{{{}}}", unreduced.join(", ")));
                }
                t.push('>');
                b.text(&t);
                b
            }
            SHARDING_PER_VALUE_V1 | SHARDING_PER_VALUE_V2 => {
                let n = r.read_varint()?;
                let mut b = Body::new("sharding_per_value<[");
                for i in 0..n {
                    if i > 0 {
                        b.text(", ");
                    }
                    let a = r.read_attribute()?;
                    if !is_kind(r.ctx(), a, "sharding<") {
                        return Err(HookError(
                            "sdy sharding_per_value of an attribute that is not a sharding".into(),
                        ));
                    }
                    b.stripped(a);
                }
                b.text("]>");
                b
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
    let pieces = [BodyPiece::Text(text.into())];
    let mut u = Unbody::at_start(&pieces);
    let mnemonic = u.ident()?;
    match mnemonic.as_str() {
        "mesh_axis" => {
            let (name, size) = mesh_axis(&mut u)?;
            out.u(MESH_AXIS).str(name).s(size);
        }
        "mesh" => {
            let (axes, ids, _) = mesh(&mut u, w)?;
            out.u(MESH).u(axes.len() as u64);
            for a in axes {
                out.attr(a);
            }
            out.signed_list(&ids);
        }
        "sub_axis_info" => {
            let (pre, size) = sub_axis(&mut u)?;
            out.u(SUB_AXIS_INFO).s(pre).s(size);
        }
        "axis_ref" => {
            let (name, sub, _) = axis_ref(&mut u, w)?;
            out.u(AXIS_REF).str(name).opt_attr(sub);
        }
        "dimension_sharding" => {
            let (axes, closed, priority, _) = dim_sharding(&mut u, w)?;
            out.u(DIM_SHARDING).u(axes.len() as u64);
            for a in axes {
                out.attr(a);
            }
            out.byte(u8::from(closed));
            out.u(priority.map_or(0, |p| (p << 1) | 1));
        }
        "sharding" => {
            out = sharding(&mut u, w)?.1;
        }
        "sharding_per_value" => {
            u.eat("<[")?;
            let mut shardings = Vec::new();
            let mut v2 = false;
            if u.eat("]").is_none() {
                loop {
                    let (code, _, body) = sharding(&mut u, w)?;
                    v2 |= code != SHARDING_V1;
                    shardings.push(body.into_attr_with(DIALECT, w)?);
                    if u.eat(",").is_none() {
                        break;
                    }
                }
                u.eat("]")?;
            }
            u.eat(">")?;
            out.u(if v2 {
                SHARDING_PER_VALUE_V2
            } else {
                SHARDING_PER_VALUE_V1
            })
            .u(shardings.len() as u64);
            for a in shardings {
                out.attr(a);
            }
        }
        _ => return encode_rules(text, w),
    }
    u.at_end().then_some(out)
}

/// `"x"=4` of a mesh axis.
fn mesh_axis(u: &mut Unbody<'_>) -> Option<(Vec<u8>, i64)> {
    let name = u.c.string_lit()?;
    u.eat("=")?;
    Some((name, u.int()?))
}

/// `<["x"=2, "y"=4], device_ids=[…]>`: the axes (made through the writer),
/// the device ids, and the text as the reader prints it.
fn mesh(u: &mut Unbody<'_>, w: &mut dyn DialectWriter) -> Option<(Vec<AttrId>, Vec<i64>, String)> {
    u.eat("<[")?;
    let mut axes = Vec::new();
    let mut texts = Vec::new();
    if u.eat("]").is_none() {
        loop {
            let (name, size) = mesh_axis(u)?;
            let t = format!("{}={size}", quoted(&name));
            axes.push(Body::new(&format!("mesh_axis{t}")).into_attr_with(DIALECT, w)?);
            texts.push(t);
            if u.eat(",").is_none() {
                break;
            }
        }
        u.eat("]")?;
    }
    let mut ids = Vec::new();
    let mut text = format!("<[{}]", texts.join(", "));
    if u.eat(",").is_some() {
        u.param("device_ids")?;
        ids = u.dims()?;
        text.push_str(&format!(", device_ids=[{}]", crate::hlo::join(&ids)));
    }
    u.eat(">")?;
    text.push('>');
    Some((axes, ids, text))
}

/// `(1)2` of a sub-axis.
fn sub_axis(u: &mut Unbody<'_>) -> Option<(i64, i64)> {
    u.eat("(")?;
    let pre = u.int()?;
    u.eat(")")?;
    Some((pre, u.int()?))
}

/// `"x"` or `"x":(1)2`: the name, the sub-axis (made through the writer),
/// and the text as the reader prints it.
fn axis_ref(
    u: &mut Unbody<'_>,
    w: &mut dyn DialectWriter,
) -> Option<(Vec<u8>, Option<AttrId>, String)> {
    let name = u.c.string_lit()?;
    let mut text = quoted(&name);
    let sub = if u.eat(":").is_some() {
        let (pre, size) = sub_axis(u)?;
        text.push_str(&format!(":({pre}){size}"));
        Some(Body::new(&format!("sub_axis_info({pre}){size}")).into_attr_with(DIALECT, w)?)
    } else {
        None
    };
    Some((name, sub, text))
}

/// Axis references separated by `,` while one follows (`"x", "y":(1)2`),
/// each made through the writer, with their texts.
fn axis_refs(u: &mut Unbody<'_>, w: &mut dyn DialectWriter) -> Option<(Vec<AttrId>, Vec<String>)> {
    let mut v = Vec::new();
    let mut texts = Vec::new();
    loop {
        u.c.skip_ws();
        if u.c.peek_byte() != Some(b'"') {
            break;
        }
        let (_, _, t) = axis_ref(u, w)?;
        v.push(Body::new(&format!("axis_ref{t}")).into_attr_with(DIALECT, w)?);
        texts.push(t);
        let save = u.c.pos;
        if u.eat(",").is_none() {
            break;
        }
        u.c.skip_ws();
        if u.c.peek_byte() != Some(b'"') {
            u.c.pos = save;
            break;
        }
    }
    Some((v, texts))
}

/// `{"x", ?}p1`: the axes, whether closed, the priority, and the text.
#[allow(clippy::type_complexity)]
fn dim_sharding(
    u: &mut Unbody<'_>,
    w: &mut dyn DialectWriter,
) -> Option<(Vec<AttrId>, bool, Option<u64>, String)> {
    u.eat("{")?;
    let (axes, texts) = axis_refs(u, w)?;
    let closed = if axes.is_empty() {
        u.eat("?").is_none()
    } else {
        let save = u.c.pos;
        if u.eat(",").is_some() && u.eat("?").is_some() {
            false
        } else {
            u.c.pos = save;
            true
        }
    };
    u.eat("}")?;
    let priority = if u.c.peek_byte() == Some(b'p') {
        u.c.pos += 1;
        Some(u64::try_from(u.int()?).ok()?)
    } else {
        None
    };
    let mut text = format!("{{{}", texts.join(", "));
    if !closed {
        text.push_str(if axes.is_empty() { "?" } else { ", ?" });
    }
    text.push('}');
    if let Some(p) = priority {
        text.push_str(&format!("p{p}"));
    }
    Some((axes, closed, priority, text))
}

/// `<@mesh, [{"x"}, {}], replicated={"y"}, unreduced=max{"z"}>`: its
/// kind code, fields, and body as the reader makes it.
fn sharding(u: &mut Unbody<'_>, w: &mut dyn DialectWriter) -> Option<(u64, Out, Body)> {
    u.eat("<")?;
    let mut body = Body::new("sharding<");
    let mesh = if u.eat("@").is_some() {
        let name = match u.c.string_lit() {
            Some(q) => q,
            None => u.c.ident()?.into_bytes(),
        };
        let r = w.intern_attr(AttrData::SymbolRef {
            root: name.into(),
            nested: Box::new([]),
        })?;
        body.attr(r);
        r
    } else {
        if u.c.ident()? != "mesh" {
            return None;
        }
        let (_, _, t) = mesh(u, w)?;
        let t = format!("mesh{t}");
        body.text(&t);
        Body::new(&t).into_attr_with(DIALECT, w)?
    };
    u.eat(", [")?;
    let mut dims = Vec::new();
    let mut dim_texts = Vec::new();
    if u.eat("]").is_none() {
        loop {
            let (_, _, _, t) = dim_sharding(u, w)?;
            dims.push(Body::new(&format!("dimension_sharding{t}")).into_attr_with(DIALECT, w)?);
            dim_texts.push(t);
            if u.eat(",").is_none() {
                break;
            }
        }
        u.eat("]")?;
    }
    let mut text = format!(", [{}]", dim_texts.join(", "));
    let (mut replicated, mut unreduced, mut op) = (Vec::new(), Vec::new(), 0);
    if u.eat(",").is_some() {
        if u.param("replicated").is_some() {
            u.eat("{")?;
            let (r, t) = axis_refs(u, w)?;
            u.eat("}")?;
            text.push_str(&format!(", replicated={{{}}}", t.join(", ")));
            replicated = r;
            if u.eat(",").is_some() {
                u.param("unreduced")?;
                let (o, a, t) = unreduced_axes(u, w)?;
                text.push_str(&t);
                (op, unreduced) = (o, a);
            }
        } else {
            u.param("unreduced")?;
            let (o, a, t) = unreduced_axes(u, w)?;
            text.push_str(&t);
            (op, unreduced) = (o, a);
        }
    }
    u.eat(">")?;
    text.push('>');
    body.text(&text);
    let code = match (unreduced.is_empty(), op) {
        (true, _) => SHARDING_V1,
        (false, 0) => SHARDING_V2,
        (false, _) => SHARDING_V3,
    };
    let mut out = Out::default();
    out.u(code).attr(mesh).u(dims.len() as u64);
    for d in dims {
        out.attr(d);
    }
    out.u(replicated.len() as u64);
    for a in replicated {
        out.attr(a);
    }
    if code != SHARDING_V1 {
        out.u(unreduced.len() as u64);
        for a in unreduced {
            out.attr(a);
        }
    }
    if code == SHARDING_V3 {
        out.s(op);
    }
    Some((code, out, body))
}

/// `max{"z"}` after `unreduced=`: the reduction op, the axes, and the
/// text from `, unreduced=` on as the reader prints it.
fn unreduced_axes(
    u: &mut Unbody<'_>,
    w: &mut dyn DialectWriter,
) -> Option<(i64, Vec<AttrId>, String)> {
    let (op, name) = match u.c.peek_byte() {
        Some(b'm') => match u.ident()?.as_str() {
            "max" => (1, "max"),
            "min" => (2, "min"),
            _ => return None,
        },
        _ => (0, ""),
    };
    u.eat("{")?;
    let (axes, texts) = axis_refs(u, w)?;
    u.eat("}")?;
    if axes.is_empty() {
        return None;
    }
    Some((
        op,
        axes,
        format!(", unreduced={name}{{{}}}", texts.join(", ")),
    ))
}

/// The fields of a mapping or rule this module prints, made again from
/// its text.
fn encode_rules(text: &str, w: &mut dyn DialectWriter) -> Option<Out> {
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
    let mut u = Unbody::at_start(&pieces);
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
