//! Converts the checked-in op layout JSON (generated from ODS by
//! tools/ods-layouts/gen_layouts.py) into bincode embedded in the crate, so
//! the default registry loads without parsing JSON at run time.

#[path = "src/op_registry/model.rs"]
mod model;

use model::{Field, FieldKind, OpInfo, RegistryData};
use serde_json::Value;

fn kind(v: &Value) -> FieldKind {
    if let Some(inner) = v.get("optional") {
        return FieldKind::Optional(Box::new(kind(inner)));
    }
    if let Some(inner) = v.get("array") {
        return FieldKind::Array(Box::new(kind(inner)));
    }
    let k = v.get("kind").unwrap_or(v);
    let k = match k {
        Value::String(s) => s.as_str(),
        Value::Object(_) => return kind(k),
        other => panic!("unexpected field kind {other}"),
    };
    match k {
        "attr" => FieldKind::Attr,
        "opt_attr" => FieldKind::OptAttr,
        "legacy_segments" => FieldKind::LegacySegments,
        "sparse_segments" => FieldKind::SparseSegments {
            size: v["size"].as_u64().expect("size") as usize,
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
        other => panic!("op layout data has an unknown field kind '{other}'"),
    }
}

fn fields(v: &Value) -> Vec<Field> {
    v.as_array()
        .expect("field list")
        .iter()
        .map(|f| Field {
            name: f["name"].as_str().expect("field name").to_string(),
            kind: kind(f),
        })
        .collect()
}

fn main() {
    let path = "data/ods-layouts-22.json";
    println!("cargo:rerun-if-changed={path}");
    let text = std::fs::read_to_string(path).expect("format/data/ods-layouts-22.json");
    let json: Value = serde_json::from_str(&text).expect("valid JSON");
    let traits = |op: &Value, t: &str| {
        op["traits"]
            .as_array()
            .is_some_and(|a| a.iter().any(|x| x == t))
    };
    let ops = json["ops"]
        .as_array()
        .expect("ops")
        .iter()
        .map(|op| OpInfo {
            name: op["name"].as_str().expect("name").to_string(),
            isolated_from_above: traits(op, "IsolatedFromAbove"),
            terminator: traits(op, "IsTerminator"),
            inherent_attrs: op["attr_names"]
                .as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|s| s.as_str().map(String::from))
                        .collect()
                })
                .unwrap_or_default(),
            has_properties: op["write_properties"].as_bool().unwrap_or(false),
            fields_v5: fields(&op["v5"]),
            fields_v6: fields(&op["v6"]),
        })
        .collect();
    let data = RegistryData {
        mlir_release: json["mlir_release"].as_str().expect("release").to_string(),
        ops,
    };
    let out =
        std::path::Path::new(&std::env::var("OUT_DIR").unwrap()).join("ods-layouts-22.bincode");
    std::fs::write(out, bincode::serialize(&data).expect("serialize")).expect("write bincode");
}
