//! Point locations written two ways (`tests/fixtures/point_locations.mlir`):
//! `loc("f":5:7)` and `loc("f":5:7 to 5:7)` are two attributes in mlir-opt
//! 22's text parser, written with two different codes, and one attribute
//! once its bytecode reader has read them (SPEC.md §6.6.2); the 0- and
//! 1-number ranges stay apart from `"f":0:0` and `"f":5:0`. Found by the
//! `structured` fuzzer (a location inside a textual entry came back as a
//! second alias).

use rmlir_tests::oracle;
use std::path::Path;

const GENERIC: [&str; 2] = ["--mlir-print-op-generic", "--mlir-print-debuginfo"];

#[test]
fn point_locations_read_and_write_as_mlir_opt() {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/point_locations.mlir");
    let fixture = fixture.to_str().unwrap();
    let dir = std::env::temp_dir().join(format!("rmlir-pointlocs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bc = dir.join("m.mlirbc");
    let bc = bc.to_str().unwrap();
    oracle::run(&["--emit-bytecode", fixture, "-o", bc]).unwrap();
    let theirs = std::fs::read(bc).unwrap();

    // Text → bytecode: the two point forms keep their own codes.
    let text = std::fs::read(fixture).unwrap();
    let m = rmlir_reader::parse_module(&text, fixture).unwrap();
    let ours = rmlir_writer::write_bytecode(&m, &Default::default()).unwrap();
    assert!(
        ours == theirs,
        "our bytes from the text differ from mlir-opt's"
    );

    // Bytecode → text: one alias for the two points, as mlir-opt prints.
    let mut args = GENERIC.to_vec();
    args.push(bc);
    let expected = String::from_utf8(oracle::run(&args).unwrap()).unwrap();
    let back = rmlir_reader::read_bytecode(&theirs).unwrap();
    let printed = rmlir_writer::print_module(&back, Default::default());
    assert_eq!(printed, expected);
    let aliases = expected.lines().filter(|l| l.starts_with("#loc")).count();
    assert_eq!(
        aliases, 8,
        "the module's location and 7 distinct ones of the 8 ops"
    );

    // Bytecode → bytecode: the merged point is written with one code.
    let again = dir.join("again.mlirbc");
    let again = again.to_str().unwrap();
    oracle::run(&["--emit-bytecode", bc, "-o", again]).unwrap();
    let rewritten = rmlir_writer::write_bytecode(&back, &Default::default()).unwrap();
    assert!(
        rewritten == std::fs::read(again).unwrap(),
        "our bc→bc bytes differ from mlir-opt's"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
