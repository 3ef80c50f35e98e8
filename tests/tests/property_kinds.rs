//! One op per ODS property kind of MLIR 22 (hand-written fixture
//! `tests/fixtures/property_kinds.mlir`): required and optional attributes
//! (`func.func`, `memref.alloc`), v5 legacy and v6 sparse segment sizes
//! (`memref.alloc`, `affine.linearize_index`), enum (`llvm.add`,
//! `ptr.load`), unit (`affine.linearize_index`, `ptr.load`), optional int
//! (`ptr.load`). mlir-opt 22 writes it at every version; our decoding must
//! print what mlir-opt's decoding prints.

use rmlir_tests::oracle;
use std::path::Path;

#[test]
fn every_property_kind_decodes_like_mlir_opt_at_every_version() {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/property_kinds.mlir");
    let dir = std::env::temp_dir().join(format!("rmlir-propkinds-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for v in 0..=6 {
        let bc = dir.join(format!("v{v}.mlirbc"));
        oracle::emit_bytecode(&fixture, v, &bc)
            .unwrap_or_else(|e| panic!("mlir-opt -emit-bytecode v{v}: {e}"));
        let reference = oracle::run(&[
            "--mlir-print-op-generic",
            "--mlir-print-debuginfo",
            bc.to_str().unwrap(),
        ])
        .unwrap();
        let data = std::fs::read(&bc).unwrap();
        let m = rmlir_reader::read_bytecode(&data).unwrap_or_else(|e| panic!("v{v}: {e}"));
        let ours = rmlir_writer::print_module(&m, Default::default());
        assert_eq!(
            ours,
            String::from_utf8_lossy(&reference),
            "version {v}: our decoding differs from mlir-opt's"
        );
    }
    // Writing: our bytes equal mlir-opt's at v5 and v6; below v5 the
    // non-attribute properties cannot be held, which is an error for us
    // (mlir-opt drops them silently).
    let generic = oracle::run(&[
        "--mlir-print-op-generic",
        "--mlir-print-debuginfo",
        fixture.to_str().unwrap(),
    ])
    .unwrap();
    let m = rmlir_reader::parse_module(&generic, "property_kinds.mlir")
        .expect("parses mlir-opt's output");
    for v in 0..=6u64 {
        let opts = rmlir_writer::WriteOptions {
            version: v,
            ..Default::default()
        };
        let ours = rmlir_writer::write_bytecode(&m, &opts);
        if v < 5 {
            let e = ours.expect_err("properties cannot be held below v5");
            assert!(e.to_string().contains("would be lost"), "v{v}: {e}");
            continue;
        }
        let src = dir.join("generic.mlir");
        std::fs::write(&src, &generic).unwrap();
        let version = format!("--emit-bytecode-version={v}");
        let theirs = oracle::run(&["--emit-bytecode", &version, src.to_str().unwrap()]).unwrap();
        assert!(
            ours.unwrap() == theirs,
            "v{v}: our bytes differ from mlir-opt's"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Ops written without (some of) their properties start from their
/// defaults, as in MLIR (fixture `tests/fixtures/default_properties.mlir`):
/// our print equals mlir-opt's, and our bytecode equals mlir-opt's.
#[test]
fn missing_properties_take_their_defaults_like_mlir_opt() {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/default_properties.mlir");
    let path = fixture.to_str().unwrap();
    let text = std::fs::read(&fixture).unwrap();
    let m = rmlir_reader::parse_module(&text, path).expect("fixture parses");
    let expected = oracle::run(&["--mlir-print-op-generic", "--mlir-print-debuginfo", path])
        .expect("mlir-opt prints the fixture");
    let ours = rmlir_writer::print_module(&m, Default::default());
    assert_eq!(ours, String::from_utf8_lossy(&expected));
    assert!(ours.contains("\"arith.trunci\"(%arg0) <{overflowFlags = #arith.overflow<none>}>"));

    let dir = std::env::temp_dir().join(format!("rmlir-defaults-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bc = dir.join("v6.mlirbc");
    oracle::run(&["--emit-bytecode", path, "-o", bc.to_str().unwrap()]).unwrap();
    let theirs = std::fs::read(&bc).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let ours = rmlir_writer::write_bytecode(&m, &Default::default()).unwrap();
    assert!(ours == theirs, "our bytecode differs from mlir-opt's");
}

/// A property the op does not have in MLIR 22, and a property on an op
/// that has none, are write errors naming the op and the property (MLIR
/// would drop them), found by the numbering on one thread or two; the IR
/// section does not check them again (`properties::classify_checked`).
#[test]
fn properties_that_would_be_lost_are_write_errors() {
    let cases: [(&str, &str); 2] = [
        (
            r#""builtin.module"() ({
  %0 = "arith.constant"() <{bogus = 2 : i32, value = 1 : i32}> : () -> i32
}) : () -> ()
"#,
            "'bogus' is not a property of operation 'arith.constant' in MLIR 22; it would be lost",
        ),
        (
            r#""builtin.module"() ({
  "func.func"() <{function_type = () -> (), sym_name = "f"}> ({
    "func.return"() <{extra = 1 : i32}> : () -> ()
  }) : () -> ()
}) : () -> ()
"#,
            "operation 'func.return' has no properties in MLIR 22, but the IR gives it property 'extra'; it would be lost",
        ),
    ];
    let dialects = rmlir_dialects::upstream();
    for (text, want) in cases {
        let m = rmlir_reader::parse_module(text.as_bytes(), "lost.mlir").expect("parses");
        for two in [false, true] {
            let e = rmlir_writer::write_bytecode_on_threads(&m, &Default::default(), dialects, two)
                .expect_err("a property would be lost");
            assert!(e.to_string().contains(want), "two threads: {two}: {e}");
        }
    }
}
