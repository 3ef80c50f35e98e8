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

/// `(file under dialects/data, dialects taken from it)`, the first file
/// naming an op giving its layout: stablehlo and chlo from 1.16.4, the
/// release before the one jaxlib 0.10.x carries (1.17.0; their ops are
/// not frozen, and 1.19.0 changed some); VHLO from the newest StableHLO
/// (VHLO ops are frozen once released), and from it too the stablehlo and
/// chlo ops 1.16.4 lacks (`chlo.mulhi`, in jaxlib's 1.17.0, and
/// `stablehlo.collective_reduce`). Used by `build.rs`; the crate's tests
/// check the embedded ops against it.
#[cfg_attr(not(test), allow(dead_code))]
pub const SOURCES: &[(&str, &[&str])] = &[
    ("ods-layouts-stablehlo-1.16.4.json", &["stablehlo", "chlo"]),
    (
        "ods-layouts-stablehlo-1.20.0.json",
        &["vhlo", "stablehlo", "chlo"],
    ),
    ("ods-layouts-sdy.json", &["sdy"]),
    ("ods-layouts-iree-b48a5955.json", IREE_DIALECTS),
];
