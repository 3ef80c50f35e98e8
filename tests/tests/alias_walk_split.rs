//! The alias walk split across threads (SPEC.md §4.5) gives mlir-opt's
//! aliases. `tests/fixtures/alias_walk_split.mlir` has two top-level ops,
//! which a split walk always puts in different runs, and each location or
//! map in it is met one way in the first op and another in the second: a
//! location deferred in the first and used as an attribute in the second
//! (so it is not deferred), a fused location whose parts are used
//! elsewhere, maps first met at different depths. The corpus has no such
//! case: a merge that forgot the second run's uses passed all of it.

use rmlir_tests::oracle;
use rmlir_writer::PrintOptions;
use std::path::Path;

#[test]
fn split_alias_walk_prints_as_mlir_opt() {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/alias_walk_split.mlir");
    let fixture = fixture.to_str().unwrap();
    let m = rmlir_reader::parse_module(&std::fs::read(fixture).unwrap(), fixture).unwrap();
    let expected =
        oracle::run(&["--mlir-print-op-generic", "--mlir-print-debuginfo", fixture]).unwrap();
    let expected = String::from_utf8(expected).unwrap();
    let one_walk = rmlir_writer::print_module(&m, PrintOptions::default());
    let split = rmlir_writer::print_module(
        &m,
        PrintOptions {
            force_parallel: true,
            ..Default::default()
        },
    );
    assert_eq!(one_walk, expected, "one walk");
    assert_eq!(split, expected, "split walk");
    assert!(
        expected.starts_with("#loc1 = loc(\"a.mlir\":1:1)\n"),
        "the fixture still has a location that the second op keeps from being deferred"
    );
}
