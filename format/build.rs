//! Converts the checked-in op layout JSON (generated from ODS by
//! tools/ods-layouts/gen_layouts.py) into bincode embedded in the crate, so
//! the default registry loads without parsing JSON at run time.

#[path = "src/op_registry/model.rs"]
mod model;

#[path = "src/op_registry/json.rs"]
mod json;

/// The MLIR releases whose layouts are embedded (see
/// `op_registry::KNOWN_RELEASES`).
const RELEASES: [&str; 4] = ["19", "22", "23", "24"];

fn main() {
    println!("cargo:rerun-if-changed=src/op_registry/json.rs");
    println!("cargo:rerun-if-changed=src/op_registry/model.rs");
    for major in RELEASES {
        let path = format!("data/ods-layouts-{major}.json");
        println!("cargo:rerun-if-changed={path}");
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("format/{path}: {e}"));
        let data = json::registry_data_from_json(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
        let out = std::path::Path::new(&std::env::var("OUT_DIR").unwrap())
            .join(format!("ods-layouts-{major}.index"));
        let mut blob = Vec::new();
        let mut ops = Vec::new();
        for op in &data.ops {
            let start = blob.len() as u32;
            blob.extend(bincode::serialize(op).expect("serialize"));
            ops.push((op.name.as_str(), start, blob.len() as u32));
        }
        let index = model::EmbeddedIndex {
            mlir_release: &data.mlir_release,
            ops,
        };
        std::fs::write(&out, bincode::serialize(&index).expect("serialize"))
            .expect("write bincode");
        std::fs::write(out.with_extension("ops.bincode"), blob).expect("write bincode");
    }
}
