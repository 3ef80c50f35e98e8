//! Converts the checked-in op layout JSON (generated from ODS by
//! tools/ods-layouts/gen_layouts.py) into bincode embedded in the crate, so
//! the default registry loads without parsing JSON at run time.

#[path = "src/op_registry/model.rs"]
mod model;

#[path = "src/op_registry/json.rs"]
mod json;

/// The MLIR releases whose layouts are embedded (see
/// `op_registry::KNOWN_RELEASES`).
const RELEASES: [&str; 2] = ["19", "22"];

fn main() {
    println!("cargo:rerun-if-changed=src/op_registry/json.rs");
    println!("cargo:rerun-if-changed=src/op_registry/model.rs");
    for major in RELEASES {
        let path = format!("data/ods-layouts-{major}.json");
        println!("cargo:rerun-if-changed={path}");
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("format/{path}: {e}"));
        let data = json::registry_data_from_json(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
        let out = std::path::Path::new(&std::env::var("OUT_DIR").unwrap())
            .join(format!("ods-layouts-{major}.bincode"));
        std::fs::write(out, bincode::serialize(&data).expect("serialize")).expect("write bincode");
    }
}
