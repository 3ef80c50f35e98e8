//! Converts the checked-in op layout JSON (generated from ODS by
//! tools/ods-layouts/gen_layouts.py) into bincode embedded in the crate, so
//! the default registry loads without parsing JSON at run time.

#[path = "src/op_registry/model.rs"]
mod model;

#[path = "src/op_registry/json.rs"]
mod json;

fn main() {
    let path = "data/ods-layouts-22.json";
    println!("cargo:rerun-if-changed={path}");
    println!("cargo:rerun-if-changed=src/op_registry/json.rs");
    println!("cargo:rerun-if-changed=src/op_registry/model.rs");
    let text = std::fs::read_to_string(path).expect("format/data/ods-layouts-22.json");
    let data = json::registry_data_from_json(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    let out =
        std::path::Path::new(&std::env::var("OUT_DIR").unwrap()).join("ods-layouts-22.bincode");
    std::fs::write(out, bincode::serialize(&data).expect("serialize")).expect("write bincode");
}
