//! What mlir-opt 22 knows of the dialects it registers, kept as data
//! (SPEC.md §2.6), for the text parser and printer: which dialects it
//! registers (their bodies are parsed, not kept opaque), which attributes
//! get an alias name when printed, and which parameters print stripped.

/// Dialects registered in mlir-opt 22 (`mlir-opt --show-dialects`). The
/// bodies of attributes and types of these dialects are parsed by their
/// dialect in MLIR, so nested attributes inside them can be aliased; bodies
/// of any other dialect are opaque strings.
pub const REGISTERED_DIALECTS: &[&str] = &[
    "acc",
    "affine",
    "amdgpu",
    "amx",
    "arith",
    "arm_neon",
    "arm_sme",
    "arm_sve",
    "async",
    "bufferization",
    "builtin",
    "cf",
    "complex",
    "dlti",
    "emitc",
    "func",
    "gpu",
    "index",
    "irdl",
    "linalg",
    "llvm",
    "math",
    "memref",
    "ml_program",
    "mpi",
    "nvgpu",
    "nvvm",
    "omp",
    "pdl",
    "pdl_interp",
    "ptr",
    "quant",
    "rocdl",
    "scf",
    "shape",
    "shard",
    "smt",
    "sparse_tensor",
    "spirv",
    "tensor",
    "test",
    "test_dyn",
    "test_irdl_to_cpp",
    "tosa",
    "transform",
    "ub",
    "vector",
    "wasmssa",
    "x86vector",
    "xegpu",
    "xevm",
];

/// Whether mlir-opt 22 registers the dialect `name` (one of
/// [`REGISTERED_DIALECTS`]).
pub fn is_registered_dialect(name: &str) -> bool {
    REGISTERED_DIALECTS.binary_search(&name).is_ok()
}

/// `(dialect, attribute mnemonic, alias name)`: the alias a dialect's
/// `OpAsmDialectInterface::getAlias` gives an attribute of that kind.
pub const ATTR_ALIASES: &[(&str, &str, &str)] = &[
    ("llvm", "access_group", "access_group"),
    ("llvm", "alias_scope", "alias_scope"),
    ("llvm", "alias_scope_domain", "alias_scope_domain"),
    ("llvm", "di_basic_type", "di_basic_type"),
    ("llvm", "di_common_block", "di_common_block"),
    ("llvm", "di_compile_unit", "di_compile_unit"),
    ("llvm", "di_composite_type", "di_composite_type"),
    ("llvm", "di_derived_type", "di_derived_type"),
    ("llvm", "di_file", "di_file"),
    ("llvm", "di_global_variable", "di_global_variable"),
    (
        "llvm",
        "di_global_variable_expression",
        "di_global_variable_expression",
    ),
    ("llvm", "di_imported_entity", "di_imported_entity"),
    ("llvm", "di_label", "di_label"),
    ("llvm", "di_lexical_block", "di_lexical_block"),
    ("llvm", "di_lexical_block_file", "di_lexical_block_file"),
    ("llvm", "di_local_variable", "di_local_variable"),
    ("llvm", "di_module", "di_module"),
    ("llvm", "di_namespace", "di_namespace"),
    ("llvm", "di_null_type", "di_null_type"),
    ("llvm", "di_string_type", "di_string_type"),
    ("llvm", "di_subprogram", "di_subprogram"),
    ("llvm", "di_subroutine_type", "di_subroutine_type"),
    ("llvm", "loop_annotation", "loop_annotation"),
    ("llvm", "loop_distribute", "loop_distribute"),
    ("llvm", "loop_interleave", "loop_interleave"),
    ("llvm", "loop_licm", "loop_licm"),
    ("llvm", "loop_peeled", "loop_peeled"),
    ("llvm", "loop_pipeline", "loop_pipeline"),
    ("llvm", "loop_unroll", "loop_unroll"),
    ("llvm", "loop_unroll_and_jam", "loop_unroll_and_jam"),
    ("llvm", "loop_unswitch", "loop_unswitch"),
    ("llvm", "loop_vectorize", "loop_vectorize"),
    ("llvm", "tbaa_root", "tbaa_root"),
    ("llvm", "tbaa_tag", "tbaa_tag"),
    ("llvm", "tbaa_type_desc", "tbaa_type_desc"),
    ("ml_program", "extern", "extern"),
    ("sparse_tensor", "encoding", "sparse"),
];

/// Parameters that a dialect prints "stripped" (`file = <…>` instead of
/// `file = #llvm.di_file<…>`): `(dialect, attribute or type mnemonic,
/// parameter)` → the nested attribute's mnemonic and whether the parameter
/// is a list (`parallelAccesses = <…>, <…>`). A positional parameter is
/// named `#N` (`!sparse_tensor.iter_space<<{…}>, lvls = 0>` has `#0`).
/// From `dialects/data/stripped-params.tsv` (generated from the dialects'
/// ODS definitions by tools/dialect-encodings/gen.py).
pub fn stripped_param_info(dialect: &str, attr: &str, param: &str) -> Option<(&'static str, bool)> {
    type Row = (&'static str, &'static str, &'static str, &'static str, bool);
    static TABLE: std::sync::OnceLock<Vec<Row>> = std::sync::OnceLock::new();
    let table = TABLE.get_or_init(|| {
        include_str!("../data/stripped-params.tsv")
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .filter_map(|l| {
                let f: Vec<&'static str> = l.split('\t').collect();
                (f.len() >= 5).then(|| (f[0], f[1], f[2], f[3], f[4] == "list"))
            })
            .collect()
    });
    table
        .iter()
        .find(|(d, a, p, _, _)| *d == dialect && *a == attr && *p == param)
        .map(|(_, _, _, n, list)| (*n, *list))
}

/// [`stripped_param_info`] of a single-valued parameter.
pub fn stripped_param(dialect: &str, attr: &str, param: &str) -> Option<&'static str> {
    stripped_param_info(dialect, attr, param).and_then(|(n, list)| (!list).then_some(n))
}

/// The alias name mlir-opt 22 gives an attribute `#dialect.mnemonic<...>`
/// when printing, from [`ATTR_ALIASES`].
pub fn attr_alias(dialect: &str, mnemonic: &str) -> Option<&'static str> {
    ATTR_ALIASES
        .iter()
        .find(|(d, m, _)| *d == dialect && *m == mnemonic)
        .map(|(_, _, a)| *a)
}
