//! What StableHLO and VHLO share: the cases of their enums (VHLO's `_v1`
//! enums have StableHLO's values and names) and the list readers of their
//! bytecode encodings.

use rmlir_format::dialect_hooks::{DialectReader, HookResult};

/// An enum's cases: (value, name).
pub type Cases = &'static [(u64, &'static str)];

pub const COMPARISON_DIRECTION: Cases = &[
    (0, "EQ"),
    (1, "NE"),
    (2, "GE"),
    (3, "GT"),
    (4, "LE"),
    (5, "LT"),
];
pub const COMPARISON_TYPE: Cases = &[
    (0, "NOTYPE"),
    (1, "FLOAT"),
    (2, "TOTALORDER"),
    (3, "SIGNED"),
    (4, "UNSIGNED"),
];
pub const API_VERSION: Cases = &[
    (0, "API_VERSION_UNSPECIFIED"),
    (1, "API_VERSION_ORIGINAL"),
    (2, "API_VERSION_STATUS_RETURNING"),
    (3, "API_VERSION_STATUS_RETURNING_UNIFIED"),
    (4, "API_VERSION_TYPED_FFI"),
];
pub const FFT_TYPE: Cases = &[(0, "FFT"), (1, "IFFT"), (2, "RFFT"), (3, "IRFFT")];
pub const PRECISION: Cases = &[(0, "DEFAULT"), (1, "HIGH"), (2, "HIGHEST")];
pub const RNG_ALGORITHM: Cases = &[(0, "DEFAULT"), (1, "THREE_FRY"), (2, "PHILOX")];
pub const RNG_DISTRIBUTION: Cases = &[(1, "UNIFORM"), (2, "NORMAL")];
pub const TRANSPOSE: Cases = &[
    (0, "TRANSPOSE_INVALID"),
    (1, "NO_TRANSPOSE"),
    (2, "TRANSPOSE"),
    (3, "ADJOINT"),
];
pub const RESULT_ACCURACY_MODE: Cases = &[(0, "DEFAULT"), (1, "HIGHEST"), (2, "TOLERANCE")];

/// `readSignedVarInts`: a count, then signed varints (read one by one: a
/// hostile count ends at the end of the entry, with nothing reserved).
pub fn signed_list(r: &mut dyn DialectReader) -> HookResult<Vec<i64>> {
    let n = r.read_varint()?;
    let mut v = Vec::new();
    for _ in 0..n {
        v.push(r.read_signed_varint()?);
    }
    Ok(v)
}

/// `1, 2, 3`.
pub fn join(v: &[i64]) -> String {
    v.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// An output-operand alias as StableHLO and VHLO print it,
/// `<output = [0], operand = 1, operand_tuple = [2]>` under the three
/// parameter names `names`, written as its encoding writes it: the output
/// tuple indices, the operand index, the operand tuple indices.
pub fn write_output_operand_alias(
    u: &mut crate::unbody::Unbody<'_>,
    names: [&str; 3],
    out: &mut crate::out::Out,
) -> Option<()> {
    u.eat("<")?;
    u.param(names[0])?;
    let output = u.dims()?;
    u.eat(",")?;
    u.param(names[1])?;
    let operand = u.int()?;
    u.eat(",")?;
    u.param(names[2])?;
    let operand_tuple = u.dims()?;
    u.eat(">")?;
    out.signed_list(&output)
        .s(operand)
        .signed_list(&operand_tuple);
    Some(())
}

/// The custom syntax of stablehlo's and chlo's ops (SPEC.md §11.3), from
/// StableHLO 1.20.0's ODS: `data/op-formats-stablehlo-1.20.0.json`, made by
/// `tools/ods-json/gen_formats_json.py` and checked by its `check.sh`.
/// The newest release's, not that of the op layouts
/// ([`crate::stablehlo::LAYOUTS_RELEASE`]): jaxlib 0.10's StableHLO 1.17.0
/// has ops 1.16.4 lacks (`chlo.mulhi`), and the formats of the ops both
/// have did not change between them (an attribute added later is
/// optional in its format). Parsed at the first custom-form op of either
/// dialect.
pub fn op_syntax() -> &'static rmlir_format::op_format::catalog::Catalog {
    static CATALOG: std::sync::OnceLock<rmlir_format::op_format::catalog::Catalog> =
        std::sync::OnceLock::new();
    CATALOG.get_or_init(|| {
        rmlir_format::op_format::catalog::Catalog::from_json(include_str!(
            "../data/op-formats-stablehlo-1.20.0.json"
        ))
        .expect("the embedded op formats are valid JSON")
    })
}

/// A `double` as `writeAPFloatWithKnownSemantics` writes it (its bits as
/// a signed varint), spelled as MLIR's `printFloat` prints it.
pub fn read_f64(r: &mut dyn DialectReader) -> HookResult<String> {
    let bits = r.read_signed_varint()? as u64;
    Ok(rmlir_format::float::format_mlir_float(
        rmlir_format::float::FloatKind::F64,
        u128::from(bits),
    ))
}

/// The bits of the `double` a body spells as `text` (a decimal literal
/// or `0x` and its bits), as MLIR's parser reads it.
pub fn f64_bits(text: &str) -> Option<u64> {
    let text = text.trim();
    if let Some(hex) = text.strip_prefix("0x") {
        return u64::from_str_radix(hex, 16).ok();
    }
    rmlir_format::float::parse_mlir_float(rmlir_format::float::FloatKind::F64, text)
        .ok()
        .map(|b| b as u64)
}
