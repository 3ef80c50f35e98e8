//! Embeds the out-of-tree op layouts (`src/out_of_tree_sources.rs`) as
//! bincode, in the form `rmlir-format`'s build script gives each
//! upstream release (`OpRegistry::from_embedded`): a file that names one
//! of these ops no longer parses four JSON files first.

#[path = "../format/src/op_registry/model.rs"]
mod model;

#[path = "../format/src/op_registry/json.rs"]
mod json;

#[path = "src/out_of_tree_sources.rs"]
mod out_of_tree_sources;

fn main() {
    println!("cargo:rerun-if-changed=../format/src/op_registry/json.rs");
    println!("cargo:rerun-if-changed=../format/src/op_registry/model.rs");
    println!("cargo:rerun-if-changed=src/out_of_tree_sources.rs");
    let mut ops = Vec::new();
    for (file, dialects) in out_of_tree_sources::SOURCES {
        let path = format!("data/{file}");
        println!("cargo:rerun-if-changed={path}");
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("dialects/{path}: {e}"));
        let data = json::registry_data_from_json(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
        // The first file naming an op gives its layout.
        let taken: std::collections::HashSet<String> = ops
            .iter()
            .map(|op: &model::OpInfo| op.name.clone())
            .collect();
        ops.extend(data.ops.into_iter().filter(|op| {
            let dialect = op.name.split('.').next().unwrap_or("");
            dialects.contains(&dialect) && !taken.contains(&op.name)
        }));
    }
    ops.sort_by(|a, b| a.name.cmp(&b.name));
    let mut blob = Vec::new();
    let mut index_ops = Vec::new();
    for op in &ops {
        let start = blob.len() as u32;
        blob.extend(bincode::serialize(op).expect("serialize"));
        index_ops.push((op.name.as_str(), start, blob.len() as u32));
    }
    let index = model::EmbeddedIndex {
        mlir_release: "",
        ops: index_ops,
    };
    let out = std::path::Path::new(&std::env::var("OUT_DIR").unwrap()).join("out-of-tree.index");
    std::fs::write(&out, bincode::serialize(&index).expect("serialize")).expect("write bincode");
    std::fs::write(out.with_extension("ops.bincode"), blob).expect("write bincode");
}
