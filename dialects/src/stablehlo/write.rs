//! Writing StableHLO attributes and types (`StablehloBytecode.cpp`'s
//! `write` methods): the bodies `mod.rs` reads, or the text parser made
//! from jaxlib's print, read back into their kind code and fields.

use super::{Kind, ATTRS};
use crate::out::Out;
use crate::unbody::{attr_body, type_body, Unbody};
use rmlir_format::dialect_hooks::DialectWriter;
use rmlir_format::float::FloatKind;
use rmlir_format::{BodyPiece, Signedness, TypeData, TypeId};

/// Writes StableHLO attribute `a`; `false` (nothing written) for a body
/// that is not one of StableHLO's encoded attributes as printed.
pub fn write_attribute(a: rmlir_format::AttrId, w: &mut dyn DialectWriter) -> bool {
    let Some(body) = attr_body(w, super::DIALECT, a) else {
        return false;
    };
    match encode_attr(&body.pieces, w) {
        Some(out) => out.flush(w),
        None => false,
    }
}

fn encode_attr(pieces: &[BodyPiece], w: &mut dyn DialectWriter) -> Option<Out> {
    let (mut u, mnemonic) = Unbody::new(pieces)?;
    let &(code, _, kind) = ATTRS.iter().find(|a| a.1 == mnemonic)?;
    let mut out = Out::default();
    out.u(code);
    match kind {
        Kind::Enum(cases) | Kind::EnumAngled(cases) => {
            let angled = matches!(kind, Kind::EnumAngled(_));
            if angled {
                u.eat("<")?;
            }
            let name = u.ident()?;
            if angled {
                u.eat(">")?;
            }
            let &(v, _) = cases.iter().find(|c| c.1 == name)?;
            out.u(v);
        }
        Kind::ChannelHandle => {
            for v in u.params(&["handle", "type"], Unbody::int)? {
                out.s(v);
            }
        }
        Kind::Conv => {
            u.eat("<")?;
            let input = conv_side(&mut u, "b", "f")?;
            u.eat("x")?;
            let kernel = conv_side(&mut u, "i", "o")?;
            u.eat("->")?;
            let output = conv_side(&mut u, "b", "f")?;
            u.eat(">")?;
            for (first, second, spatial) in [input, kernel, output] {
                out.s(first).s(second).signed_list(&spatial);
            }
        }
        Kind::DotAlgorithm => {
            u.eat("<")?;
            let mut types = [TypeId(0); 3];
            for (i, name) in [
                "lhs_precision_type",
                "rhs_precision_type",
                "accumulation_type",
            ]
            .into_iter()
            .enumerate()
            {
                if i > 0 {
                    u.eat(",")?;
                }
                u.param(name)?;
                types[i] = match u.ty() {
                    Some(t) => t,
                    None => scalar_type(w, &u.token()?)?,
                };
            }
            let mut counts = [0i64; 3];
            for (i, name) in [
                "lhs_component_count",
                "rhs_component_count",
                "num_primitive_operations",
            ]
            .into_iter()
            .enumerate()
            {
                u.eat(",")?;
                u.param(name)?;
                counts[i] = u.int()?;
            }
            u.eat(",")?;
            u.param("allow_imprecise_accumulation")?;
            let imprecise = match u.ident()?.as_str() {
                "true" => 1,
                "false" => 0,
                _ => return None,
            };
            u.eat(">")?;
            for t in types {
                out.ty(t);
            }
            for c in counts {
                out.s(c);
            }
            out.byte(imprecise);
        }
        Kind::Dims(names, int) => {
            // `printStruct`: any of the fields, in order, empty lists and a
            // zero integer left out.
            u.eat("<")?;
            let mut lists: Vec<Vec<i64>> = vec![Vec::new(); names.len()];
            let mut value = 0;
            let mut first = true;
            while u.eat(">").is_none() {
                if !first {
                    u.eat(",")?;
                }
                first = false;
                let name = u.ident()?;
                u.eat("=")?;
                if let Some(i) = names.iter().position(|n| *n == name) {
                    lists[i] = u.dims()?;
                } else if Some(name.as_str()) == int {
                    value = u.int()?;
                } else {
                    return None;
                }
            }
            for l in &lists {
                out.signed_list(l);
            }
            if int.is_some() {
                out.s(value);
            }
        }
        Kind::OutputOperandAlias => {
            let names = [
                "output_tuple_indices",
                "operand_index",
                "operand_tuple_indices",
            ];
            crate::hlo::write_output_operand_alias(&mut u, names, &mut out)?;
        }
        Kind::TypeExtensions => {
            u.eat("<")?;
            let bounds = u.list(">", |u| u.dim())?;
            u.eat(">")?;
            out.signed_list(&bounds);
        }
        Kind::ResultAccuracy => {
            u.eat("<")?;
            let (mut atol, mut rtol, mut ulps) = (0u64, 0u64, 0i64);
            if u.param("atol").is_some() {
                atol = crate::hlo::f64_bits(&u.token()?)?;
                u.eat(",")?;
            }
            if u.param("rtol").is_some() {
                rtol = crate::hlo::f64_bits(&u.token()?)?;
                u.eat(",")?;
            }
            if u.param("ulps").is_some() {
                ulps = u.int()?;
                u.eat(",")?;
            }
            u.param("mode")?;
            let mode = u.attr()?;
            u.eat(">")?;
            out.s(atol as i64).s(rtol as i64).s(ulps).attr(mode);
        }
        Kind::NotPrinted => return None,
    }
    u.at_end().then_some(out)
}

/// One side of convolution dimension numbers (`[b, 0, 1, f]`): the
/// positions of the two named dimensions, then of spatial dimension 0, 1, ….
fn conv_side(u: &mut Unbody<'_>, first: &str, second: &str) -> Option<(i64, i64, Vec<i64>)> {
    u.eat("[")?;
    let names = u.list("]", |u| u.ident())?;
    u.eat("]")?;
    let at = |name: &str| names.iter().position(|n| n == name).map(|p| p as i64);
    let spatial = (0..names.len().checked_sub(2)?)
        .map(|i| at(&i.to_string()))
        .collect::<Option<Vec<i64>>>()?;
    Some((at(first)?, at(second)?, spatial))
}

/// A builtin scalar type named in text (`f32`, `tf32`, `i8`), made
/// through the writer.
fn scalar_type(w: &mut dyn DialectWriter, keyword: &str) -> Option<TypeId> {
    let data = if let Some(k) = FloatKind::from_keyword(keyword) {
        TypeData::Float(k)
    } else if keyword == "index" {
        TypeData::Index
    } else {
        let (signedness, digits) = if let Some(d) = keyword.strip_prefix("ui") {
            (Signedness::Unsigned, d)
        } else if let Some(d) = keyword.strip_prefix("si") {
            (Signedness::Signed, d)
        } else {
            (Signedness::Signless, keyword.strip_prefix('i')?)
        };
        TypeData::Integer {
            width: digits.parse().ok()?,
            signedness,
        }
    };
    w.intern_type(data)
}

/// Writes StableHLO type `t` (`!stablehlo.token`, `!stablehlo.future<…>`).
pub fn write_type(t: TypeId, w: &mut dyn DialectWriter) -> bool {
    let Some(body) = type_body(w, super::DIALECT, t) else {
        return false;
    };
    let encoded = (|| {
        let (mut u, mnemonic) = Unbody::new(&body.pieces)?;
        let mut out = Out::default();
        match mnemonic.as_str() {
            "token" => {
                out.u(0);
            }
            "future" => {
                u.eat("<")?;
                let types = u.list(">", |u| u.ty())?;
                u.eat(">")?;
                out.u(1).types(&types);
            }
            _ => return None,
        }
        u.at_end().then_some(out)
    })();
    match encoded {
        Some(out) => out.flush(w),
        None => false,
    }
}
