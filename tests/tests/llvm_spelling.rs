//! Hand-written llvm attribute bodies (`tests/fixtures/llvm_spelling.mlir`:
//! free whitespace, leading zeros, spaced stripped parameters) are kept in
//! the spelling mlir-opt 22 prints, as its parser does by building each
//! attribute: our text print equals mlir-opt's, our bytes from the text
//! equal its bytes, and its bytes read back print the same again.
//! Found by the `text_roundtrip` fuzzer (tests/regressions/text/llvm-body-*).

use rmlir_tests::oracle;
use std::path::Path;

#[test]
fn hand_written_llvm_bodies_print_as_mlir_opt() {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/llvm_spelling.mlir");
    let fixture = fixture.to_str().unwrap();
    let text = std::fs::read(fixture).unwrap();
    let m = rmlir_reader::parse_module(&text, fixture).unwrap();
    let printed = rmlir_writer::print_module(&m, Default::default());
    let expected = oracle::run(&["--mlir-print-op-generic", "--mlir-print-debuginfo", fixture]);
    assert_eq!(printed, String::from_utf8(expected.unwrap()).unwrap());
    assert!(
        printed.contains("sizeInBits = 32,") && printed.contains("DW_OP_plus_uconst(4)"),
        "the fixture's respellings are in the output"
    );

    let dir = std::env::temp_dir().join(format!("rmlir-llvmspell-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bc = dir.join("m.mlirbc");
    oracle::run(&["--emit-bytecode", fixture, "-o", bc.to_str().unwrap()]).unwrap();
    let theirs = std::fs::read(&bc).unwrap();
    let ours = rmlir_writer::write_bytecode(&m, &Default::default()).unwrap();
    assert!(
        ours == theirs,
        "our bytes from the text differ from mlir-opt's"
    );
    let back = rmlir_reader::read_bytecode(&theirs).unwrap();
    assert_eq!(
        rmlir_writer::print_module(&back, Default::default()),
        printed
    );
    let _ = std::fs::remove_dir_all(&dir);
}
