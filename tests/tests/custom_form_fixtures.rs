//! Hand-written inputs in the custom form, one file per group of rules
//! (`tests/fixtures/custom-form/*.mlir`), each parsed and printed generic
//! against mlir-opt 22's generic print of the same file, run live: the
//! oracle decides, so the expected text cannot drift (SPEC.md §11.2).
//! They cover spellings the corpus has few of: affine subscripts with
//! repeated values and `symbol(…)`, `max`/`min` bounds, negative constant
//! bounds, `else` with an empty region; linalg's named ops with casts,
//! strides and payload ops, and identity regions whose arguments take
//! locations defined later in the file; spirv's memory, control-flow and
//! module-level ops with their enum strings and pointer types.

use rmlir_writer::{print_module, PrintOptions};
use std::path::Path;

#[test]
fn custom_form_fixtures_print_as_mlir_opt_generic() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/custom-form");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "mlir"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no fixtures in {}", dir.display());
    for f in files {
        let name = f.to_str().expect("a UTF-8 path");
        let expected =
            rmlir_tests::oracle::run(&["--mlir-print-op-generic", "--mlir-print-debuginfo", name])
                .unwrap_or_else(|e| panic!("{name}: mlir-opt refuses the fixture: {e}"));
        let data = std::fs::read(&f).unwrap();
        let m = rmlir_reader::parse_module(&data, name).unwrap_or_else(|e| panic!("{e}"));
        let ours = print_module(&m, PrintOptions::default());
        let expected = String::from_utf8(expected).unwrap();
        assert!(
            ours == expected,
            "{name}: differs from mlir-opt: {}",
            rmlir_tests::first_diff(&expected, &ours)
        );
    }
}

/// What MLIR refuses while it parses a named structured op is refused at
/// the same place with its message (checked against mlir-opt 22 by hand,
/// 2026-11-27): an index attribute of the wrong shape, at the attribute
/// dictionary; operands that do not match the body's arguments, after
/// the op.
#[test]
fn named_structured_ops_refused_as_mlir_refuses_them() {
    for (text, at, what, kind) in [
        (
            "func.func @f(%a: memref<1x4x4x1xf32>, %k: memref<1x1x1x1xf32>) {\n  linalg.conv_2d_nhwc_hwcf {strides = dense<1> : tensor<3xi64>} ins(%a, %k : memref<1x4x4x1xf32>, memref<1x1x1x1xf32>) outs(%a : memref<1x4x4x1xf32>)\n  return\n}\n",
            "t.mlir:2:28:",
            "'linalg.conv_2d_nhwc_hwcf' op attribute 'strides' failed to satisfy constraint: 64-bit signless int elements attribute of shape [2]",
            rmlir_reader::ErrorKind::Semantic,
        ),
        (
            "func.func @f(%a: tensor<4x4xf32>) {\n  %0 = linalg.exp ins(%a, %a : tensor<4x4xf32>, tensor<4x4xf32>) outs(%a : tensor<4x4xf32>) -> tensor<4x4xf32>\n  return\n}\n",
            "t.mlir:3:3:",
            "[parseNamedStructuredOpRegion] ods-gen generated region expects 2 args, got 3",
            rmlir_reader::ErrorKind::Semantic,
        ),
    ] {
        let e = rmlir_reader::parse_module(text.as_bytes(), "t.mlir").unwrap_err();
        assert_eq!(e.kind(), kind, "{e}");
        let s = e.to_string();
        assert!(s.starts_with(at) && s.contains(what), "{s}");
    }
}

/// spirv's enum strings are checked against the enum's cases, as MLIR's
/// `parseEnumStrAttr` checks them, with its message and position (checked
/// against mlir-opt 22 by hand, 2026-11-27): an unknown storage class, and
/// an unknown bit among the memory access bits.
#[test]
fn spirv_enum_strings_refused_as_mlir_refuses_them() {
    for (text, at, what) in [
        (
            "spirv.func @f(%p: !spirv.ptr<f32, Function>) \"None\" {\n  %0 = spirv.Load \"Foo\" %p : f32\n  spirv.Return\n}\n",
            "t.mlir:2:19:",
            "invalid storage_class attribute specification: \"Foo\"",
        ),
        (
            "spirv.func @f(%p: !spirv.ptr<f32, Function>) \"None\" {\n  %0 = spirv.Load \"Function\" %p [\"Volatile|Bogus\"] : f32\n  spirv.Return\n}\n",
            "t.mlir:2:34:",
            "invalid memory_access attribute specification: \"Volatile|Bogus\"",
        ),
    ] {
        let e = rmlir_reader::parse_module(text.as_bytes(), "t.mlir").unwrap_err();
        assert_eq!(e.kind(), rmlir_reader::ErrorKind::Semantic, "{e}");
        let s = e.to_string();
        assert!(s.starts_with(at) && s.contains(what), "{s}");
    }
}

/// A position outside an llvm struct is refused where MLIR's
/// `parseInsertExtractValueElementType` refuses it, after the type, with
/// its message (checked against mlir-opt 22 by hand, 2026-11-27).
#[test]
fn llvm_aggregate_position_refused_as_mlir_refuses_it() {
    let text = "llvm.func @f(%s: !llvm.struct<(i32, f64)>) {\n  %0 = llvm.extractvalue %s[2] : !llvm.struct<(i32, f64)>\n  llvm.return\n}\n";
    let e = rmlir_reader::parse_module(text.as_bytes(), "t.mlir").unwrap_err();
    assert_eq!(e.kind(), rmlir_reader::ErrorKind::Semantic, "{e}");
    let s = e.to_string();
    assert!(
        s.starts_with("t.mlir:3:3:") && s.contains("position out of bounds: 2"),
        "{s}"
    );
}

/// `affine.parallel`'s reduction kinds and steps are checked as MLIR's
/// `AffineParallelOp::parse` checks them, with its messages and positions
/// (checked against mlir-opt 22 by hand, 2026-11-27).
#[test]
fn affine_parallel_refused_as_mlir_refuses_it() {
    for (text, at, what) in [
        (
            "func.func @p(%a: index) {\n  affine.parallel (%i) = (0) to (10) reduce (\"bogus\") {\n  }\n  return\n}\n",
            "t.mlir:2:46:",
            "invalid reduction value: \"bogus\"",
        ),
        (
            "func.func @p(%a: index) {\n  affine.parallel (%i) = (0) to (10) step (%a) {\n  }\n  return\n}\n",
            "t.mlir:2:3:",
            "steps must be constant integers",
        ),
    ] {
        let e = rmlir_reader::parse_module(text.as_bytes(), "t.mlir").unwrap_err();
        assert_eq!(e.kind(), rmlir_reader::ErrorKind::Semantic, "{e}");
        let s = e.to_string();
        assert!(s.starts_with(at) && s.contains(what), "{s}");
    }
}
