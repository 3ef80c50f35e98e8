//! Hand-written inputs in the custom form, one file per group of rules
//! (`tests/fixtures/custom-form/*.mlir`), each parsed and printed generic
//! against mlir-opt 22's generic print of the same file, run live: the
//! oracle decides, so the expected text cannot drift (SPEC.md §11.2).
//! They cover spellings the corpus has few of: affine subscripts with
//! repeated values and `symbol(…)`, `max`/`min` bounds, negative constant
//! bounds, `else` with an empty region.

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
