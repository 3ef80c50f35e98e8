//! StableHLO (SPEC.md §10.2): the dialect `jax.export`'s modules are in
//! before serialization, and what jaxlib's `write_bytecode` writes.
//!
//! Its attributes and types use custom bytecode encodings
//! (`StablehloBytecode.cpp`): a kind code, then the kind's fields. The
//! kinds are read into dialect bodies spelled as StableHLO prints them
//! (its custom printers in `StablehloOps.cpp`: `printStruct` omits empty
//! lists and zero integers; convolution dimension numbers print as
//! `[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]`). Kinds whose printers are
//! not written yet are an error naming the kind, never a guess.

mod write;

use crate::body::{dim, Body};
use crate::hlo::{
    join, signed_list, Cases, COMPARISON_DIRECTION, COMPARISON_TYPE, FFT_TYPE, PRECISION,
    RESULT_ACCURACY_MODE, RNG_ALGORITHM, RNG_DISTRIBUTION, TRANSPOSE,
};
use rmlir_format::dialect_hooks::{
    Builtin, BytecodeDialect, DialectReader, DialectWriter, HookError, HookResult,
};
use rmlir_format::{AttrId, TypeId};

/// The StableHLO dialect's bytecode hooks.
pub struct Stablehlo;

/// The dialect's name.
pub const DIALECT: &str = "stablehlo";

/// The StableHLO release whose stablehlo and chlo op layouts are used
/// (see [`crate::out_of_tree_layouts`]).
pub const LAYOUTS_RELEASE: &str = "1.16.4";

/// A StableHLO attribute kind.
#[derive(Clone, Copy)]
enum Kind {
    /// An enum printed `#stablehlo<precision HIGH>`.
    Enum(Cases),
    /// An enum printed `#stablehlo.result_accuracy_mode<TOLERANCE>`.
    EnumAngled(Cases),
    ChannelHandle,
    Conv,
    DotAlgorithm,
    /// Dimension lists, then an integer when named: read in order,
    /// printed by `printStruct`.
    Dims(&'static [&'static str], Option<&'static str>),
    OutputOperandAlias,
    TypeExtensions,
    /// `#stablehlo.result_accuracy<atol = …, rtol = …, ulps = …, mode =
    /// …>`: two doubles, a signed integer and the mode attribute
    /// (`printResultAccuracyAttr` leaves out a zero tolerance or count).
    ResultAccuracy,
    /// Read, but its printer is not written yet.
    NotPrinted,
}

/// The dimension lists of `#stablehlo.dot`, `gather` and `scatter`, in
/// their bytecode (and print) order.
const DOT: &[&str] = &[
    "lhs_batching_dimensions",
    "rhs_batching_dimensions",
    "lhs_contracting_dimensions",
    "rhs_contracting_dimensions",
];
const GATHER: &[&str] = &[
    "offset_dims",
    "collapsed_slice_dims",
    "operand_batching_dims",
    "start_indices_batching_dims",
    "start_index_map",
];
const SCATTER: &[&str] = &[
    "update_window_dims",
    "inserted_window_dims",
    "input_batching_dims",
    "scatter_indices_batching_dims",
    "scatter_dims_to_operand_dims",
];

/// Every StableHLO attribute (StableHLO 1.20.0): (code, mnemonic, kind).
/// Code 0 was `ArgResultAliasAttr`, removed.
const ATTRS: &[(u64, &str, Kind)] = &[
    (1, "channel_handle", Kind::ChannelHandle),
    (2, "comparison_direction", Kind::Enum(COMPARISON_DIRECTION)),
    (3, "comparison_type", Kind::Enum(COMPARISON_TYPE)),
    (4, "conv", Kind::Conv),
    (5, "dot", Kind::Dims(DOT, None)),
    (6, "fft_type", Kind::Enum(FFT_TYPE)),
    (7, "gather", Kind::Dims(GATHER, Some("index_vector_dim"))),
    (8, "precision", Kind::Enum(PRECISION)),
    (9, "rng_algorithm", Kind::Enum(RNG_ALGORITHM)),
    (10, "rng_distribution", Kind::Enum(RNG_DISTRIBUTION)),
    (11, "scatter", Kind::Dims(SCATTER, Some("index_vector_dim"))),
    (12, "transpose", Kind::Enum(TRANSPOSE)),
    // `TypeExtensionsAttr` prints as `#stablehlo.bounds<16, ?>` (its
    // `.td` format is not what StableHLO's dialect printer uses).
    (13, "bounds", Kind::TypeExtensions),
    (14, "output_operand_alias", Kind::OutputOperandAlias),
    (15, "dot_algorithm", Kind::DotAlgorithm),
    (
        16,
        "result_accuracy_mode",
        Kind::EnumAngled(RESULT_ACCURACY_MODE),
    ),
    (17, "result_accuracy", Kind::ResultAccuracy),
    (18, "replica_group_mesh_axes", Kind::NotPrinted),
    (19, "sub_axis_info", Kind::NotPrinted),
    (20, "axis_ref", Kind::NotPrinted),
    (21, "mesh_axis", Kind::NotPrinted),
    (22, "mesh", Kind::NotPrinted),
];

impl BytecodeDialect for Stablehlo {
    fn name(&self) -> &str {
        DIALECT
    }

    fn read_attribute(&self, r: &mut dyn DialectReader) -> HookResult<Option<AttrId>> {
        let code = r.read_varint()?;
        let Some(&(_, mnemonic, kind)) = ATTRS.iter().find(|a| a.0 == code) else {
            return Err(HookError(format!(
                "unknown stablehlo attribute code {code}: this reader knows StableHLO 1.20.0's (codes 1-22); the file may come from a newer StableHLO"
            )));
        };
        let mut b = Body::new(mnemonic);
        match kind {
            Kind::Enum(cases) | Kind::EnumAngled(cases) => {
                let v = r.read_varint()?;
                let Some(&(_, name)) = cases.iter().find(|c| c.0 == v) else {
                    return Err(HookError(format!("stablehlo {mnemonic} of unknown value {v}")));
                };
                if matches!(kind, Kind::Enum(_)) {
                    b.text(&format!(" {name}"));
                } else {
                    b.text(&format!("<{name}>"));
                }
            }
            Kind::ChannelHandle => {
                let handle = r.read_signed_varint()?;
                let ty = r.read_signed_varint()?;
                b.text(&format!("<handle = {handle}, type = {ty}>"));
            }
            Kind::Conv => {
                let input_batch = r.read_signed_varint()?;
                let input_feature = r.read_signed_varint()?;
                let input_spatial = signed_list(r)?;
                let kernel_in = r.read_signed_varint()?;
                let kernel_out = r.read_signed_varint()?;
                let kernel_spatial = signed_list(r)?;
                let output_batch = r.read_signed_varint()?;
                let output_feature = r.read_signed_varint()?;
                let output_spatial = signed_list(r)?;
                let text = format!(
                    "<{}x{}->{}>",
                    conv_dims(&input_spatial, &[(input_batch, "b"), (input_feature, "f")])?,
                    conv_dims(&kernel_spatial, &[(kernel_in, "i"), (kernel_out, "o")])?,
                    conv_dims(&output_spatial, &[(output_batch, "b"), (output_feature, "f")])?,
                );
                b.text(&text);
            }
            Kind::DotAlgorithm => {
                let lhs = r.read_type()?;
                let rhs = r.read_type()?;
                let acc = r.read_type()?;
                let lhs_count = r.read_signed_varint()?;
                let rhs_count = r.read_signed_varint()?;
                let ops = r.read_signed_varint()?;
                let imprecise = r.read_byte()? != 0;
                b.text("<lhs_precision_type = ").ty(lhs);
                b.text(", rhs_precision_type = ").ty(rhs);
                b.text(", accumulation_type = ").ty(acc);
                b.text(&format!(
                    ", lhs_component_count = {lhs_count}, rhs_component_count = {rhs_count}, num_primitive_operations = {ops}, allow_imprecise_accumulation = {imprecise}>"
                ));
            }
            Kind::Dims(names, int) => {
                let mut lists = Vec::with_capacity(names.len());
                for &name in names {
                    lists.push((name, signed_list(r)?));
                }
                let int = match int {
                    Some(name) => Some((name, r.read_signed_varint()?)),
                    None => None,
                };
                b.text(&print_struct(&lists, int));
            }
            Kind::OutputOperandAlias => {
                let output = signed_list(r)?;
                let operand = r.read_signed_varint()?;
                let operand_tuple = signed_list(r)?;
                b.text(&format!(
                    "<output_tuple_indices = [{}], operand_index = {operand}, operand_tuple_indices = [{}]>",
                    join(&output),
                    join(&operand_tuple)
                ));
            }
            Kind::TypeExtensions => {
                let bounds: Vec<String> = signed_list(r)?.into_iter().map(dim).collect();
                b.text(&format!("<{}>", bounds.join(", ")));
            }
            Kind::ResultAccuracy => {
                let atol = crate::hlo::read_f64(r)?;
                let rtol = crate::hlo::read_f64(r)?;
                let ulps = r.read_signed_varint()?;
                let mode = r.read_attribute()?;
                let zero = |s: &str| s.trim_start_matches('-') == "0.000000e+00";
                b.text("<");
                if !zero(&atol) {
                    b.text(&format!("atol = {atol}, "));
                }
                if !zero(&rtol) {
                    b.text(&format!("rtol = {rtol}, "));
                }
                if ulps != 0 {
                    b.text(&format!("ulps = {ulps}, "));
                }
                b.text("mode = ").attr(mode).text(">");
            }
            Kind::NotPrinted => {
                return Err(HookError(format!(
                    "#stablehlo.{mnemonic} (attribute code {code}) is not supported yet: its printer is not written"
                )))
            }
        }
        Ok(Some(b.into_attr(DIALECT, r.ctx())))
    }

    fn read_type(&self, r: &mut dyn DialectReader) -> HookResult<Option<TypeId>> {
        let code = r.read_varint()?;
        let b = match code {
            0 => Body::new("token"),
            1 => {
                let n = r.read_varint()?;
                let mut types = Vec::new();
                for _ in 0..n {
                    types.push(r.read_type()?);
                }
                let mut b = Body::new("future<");
                b.list(&types, |b, t| {
                    b.ty(t);
                });
                b.text(">");
                b
            }
            _ => {
                return Err(HookError(format!(
                    "unknown stablehlo type code {code}: this reader knows StableHLO 1.20.0's (0 token, 1 future)"
                )))
            }
        };
        Ok(Some(b.into_type(DIALECT, r.ctx())))
    }

    fn write_attribute(&self, attr: AttrId, w: &mut dyn DialectWriter) -> bool {
        write::write_attribute(attr, w)
    }

    fn write_type(&self, ty: TypeId, w: &mut dyn DialectWriter) -> bool {
        write::write_type(ty, w)
    }

    fn parses_bodies(&self) -> bool {
        true
    }

    fn op_syntax(&self) -> Option<&'static rmlir_format::op_format::catalog::Catalog> {
        Some(crate::hlo::op_syntax())
    }

    /// `!stablehlo.future<…>` lists builtin types; `#stablehlo.dot_algorithm`
    /// names them in its three type parameters.
    fn builtin_at(&self, mnemonic: &str, is_attr: bool, param: Option<&str>) -> Option<Builtin> {
        match (mnemonic, is_attr, param) {
            ("future", false, None) => Some(Builtin::Type),
            (
                "dot_algorithm",
                true,
                Some("lhs_precision_type" | "rhs_precision_type" | "accumulation_type"),
            ) => Some(Builtin::Type),
            _ => None,
        }
    }
}

/// `printStruct`: `<name = [a, b], n = 3>`, leaving out empty lists and a
/// zero integer.
fn print_struct(lists: &[(&str, Vec<i64>)], int: Option<(&str, i64)>) -> String {
    let mut parts: Vec<String> = lists
        .iter()
        .filter(|(_, v)| !v.is_empty())
        .map(|(n, v)| format!("{n} = [{}]", join(v)))
        .collect();
    if let Some((n, v)) = int.filter(|&(_, v)| v != 0) {
        parts.push(format!("{n} = {v}"));
    }
    format!("<{}>", parts.join(", "))
}

/// One side of convolution dimension numbers: each dimension named by what
/// it holds, spatial ones by their index (`[b, 0, 1, f]`).
fn conv_dims(spatial: &[i64], named: &[(i64, &str)]) -> HookResult<String> {
    let n = spatial.len() + named.len();
    let mut dims: Vec<Option<String>> = vec![None; n];
    let bad = || HookError("stablehlo conv dimension numbers out of range".to_string());
    for &(at, name) in named {
        let at = usize::try_from(at)
            .ok()
            .filter(|&a| a < n)
            .ok_or_else(bad)?;
        dims[at] = Some(name.to_string());
    }
    for (i, &at) in spatial.iter().enumerate() {
        let at = usize::try_from(at)
            .ok()
            .filter(|&a| a < n)
            .ok_or_else(bad)?;
        dims[at] = Some(i.to_string());
    }
    let dims: Vec<String> = dims
        .into_iter()
        // An index no dimension names prints as 0, as StableHLO's
        // zero-filled vector has it.
        .map(|d| d.unwrap_or_else(|| "0".to_string()))
        .collect();
    Ok(format!("[{}]", dims.join(", ")))
}
