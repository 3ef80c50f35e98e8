//! The layout JSON written by `tools/ods-layouts/gen_layouts.py` (format in
//! `tools/ods-layouts/README.md`) converted to the registry model. Used by
//! the build script for the embedded default and at run time for users'
//! own layout files (out-of-tree dialects such as StableHLO).

use super::model::{Field, FieldKind, OpInfo, RegistryData};
use serde_json::Value;

fn kind(v: &Value, op: &str) -> Result<FieldKind, String> {
    if let Some(inner) = v.get("optional") {
        return Ok(FieldKind::Optional(Box::new(kind(inner, op)?)));
    }
    if let Some(inner) = v.get("array") {
        return Ok(FieldKind::Array(Box::new(kind(inner, op)?)));
    }
    let k = v.get("kind").unwrap_or(v);
    let k = match k {
        Value::String(s) => s.as_str(),
        Value::Object(_) => return kind(k, op),
        other => return Err(format!("op '{op}': unexpected field kind {other}")),
    };
    Ok(match k {
        "attr" => FieldKind::Attr,
        "opt_attr" => FieldKind::OptAttr,
        "legacy_segments" => FieldKind::LegacySegments,
        "sparse_segments" => FieldKind::SparseSegments {
            size: v["size"]
                .as_u64()
                .ok_or_else(|| format!("op '{op}': sparse_segments without a size"))?
                as usize,
        },
        "int" => FieldKind::Int {
            bits: v["bits"].as_u64().unwrap_or(64) as u32,
            signed: v["signed"].as_bool().unwrap_or(true),
        },
        "bool" => FieldKind::Bool,
        "unit" => FieldKind::Unit,
        "string" => FieldKind::String,
        "enum" => FieldKind::Enum {
            bits: match v["max"].as_str() {
                Some("uint8_t") => 8,
                Some("uint16_t") => 16,
                Some("uint64_t") => 64,
                _ => 32,
            },
        },
        other => return Err(format!("op '{op}': unknown field kind '{other}'")),
    })
}

fn fields(v: &Value, op: &str) -> Result<Vec<Field>, String> {
    let Some(list) = v.as_array() else {
        return Ok(Vec::new());
    };
    list.iter()
        .map(|f| {
            Ok(Field {
                name: f["name"]
                    .as_str()
                    .ok_or_else(|| format!("op '{op}': a field without a name"))?
                    .to_string(),
                kind: kind(f, op)?,
                ctype: f["ctype"].as_str().map(String::from),
            })
        })
        .collect()
}

/// The op's inherent attribute names: ODS's `getAttributeNames()`, and the
/// name of a segment-size property the list leaves out. MLIR 22 lists
/// `operandSegmentSizes` for every op with `AttrSizedOperandSegments` but
/// not `resultSegmentSizes` for `gpu.spmm_buffer_size`, the one op with
/// `AttrSizedResultSegments`; its `setInherentAttr` takes it all the same,
/// so mlir-opt moves it out of the attribute dictionary of a file older
/// than version 5 (SPEC.md §7).
fn inherent_attrs(op: &Value, fields_v6: &[Field]) -> Vec<String> {
    let mut names: Vec<String> = op["attr_names"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|s| s.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default();
    for f in fields_v6 {
        let segments = matches!(
            f.kind,
            FieldKind::SparseSegments { .. } | FieldKind::LegacySegments
        );
        if segments && !names.contains(&f.name) {
            names.push(f.name.clone());
        }
    }
    names
}

/// Parses a layout file's text.
pub fn registry_data_from_json(text: &str) -> Result<RegistryData, String> {
    let json: Value =
        serde_json::from_str(text).map_err(|e| format!("invalid layout JSON: {e}"))?;
    let has = |op: &Value, t: &str| {
        op["traits"]
            .as_array()
            .is_some_and(|a| a.iter().any(|x| x == t))
    };
    let mut ops = Vec::new();
    for op in json["ops"]
        .as_array()
        .ok_or("layout JSON has no \"ops\" list")?
    {
        let name = op["name"]
            .as_str()
            .ok_or("an op without a name")?
            .to_string();
        let fields_v6 = fields(&op["v6"], &name)?;
        ops.push(OpInfo {
            isolated_from_above: has(op, "IsolatedFromAbove"),
            terminator: has(op, "IsTerminator"),
            inherent_attrs: inherent_attrs(op, &fields_v6),
            has_properties: op["write_properties"].as_bool().unwrap_or(false),
            fields_v5: fields(&op["v5"], &name)?,
            fields_v6,
            default_properties: op["default_properties"].as_str().map(String::from),
            name,
        });
    }
    Ok(RegistryData {
        mlir_release: json["mlir_release"].as_str().unwrap_or("").to_string(),
        ops,
    })
}
