//! Which of `dialects/data`'s layout files hold the out-of-tree ops this
//! crate ships, and which dialects are taken from each (SPEC.md §7.3).
//! Read by `build.rs`, which embeds those ops as bincode, and by the
//! crate (`crate::out_of_tree_layouts`, `crate::IREE_DIALECTS`).

/// IREE's dialects whose op layouts the crate holds, from IREE b48a5955's
/// ODS (`dialects/data/ods-layouts-iree-b48a5955.json`, made and checked
/// by `tools/ods-json/check.sh`; SPEC.md §10.6). `iree_linalg_ext` is
/// missing: its `.td` does not dump on its own.
pub const IREE_DIALECTS: &[&str] = &[
    "check",
    "flow",
    "hal",
    "hal_inline",
    "hal_loader",
    "io_parameters",
    "iree_codegen",
    "iree_encoding",
    "iree_gpu",
    "iree_tensor_ext",
    "iree_vector_ext",
    "pcf",
    "stream",
    "util",
    "vm",
    "vmvx",
];

/// `(file under dialects/data, dialects taken from it)`: VHLO from the
/// newest StableHLO (VHLO ops are frozen once released); stablehlo and
/// chlo from the release jaxlib 0.10.x carries (they are not frozen).
/// Used by `build.rs`; the crate's tests check the embedded ops against
/// it.
#[cfg_attr(not(test), allow(dead_code))]
pub const SOURCES: &[(&str, &[&str])] = &[
    ("ods-layouts-stablehlo-1.20.0.json", &["vhlo"]),
    ("ods-layouts-stablehlo-1.16.4.json", &["stablehlo", "chlo"]),
    ("ods-layouts-sdy.json", &["sdy"]),
    ("ods-layouts-iree-b48a5955.json", IREE_DIALECTS),
];
