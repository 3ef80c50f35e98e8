//! Hand-written inputs (`tests/fixtures/custom-print/*.mlir`), each given
//! to mlir-opt 22 twice: its generic print, read by our reader and printed
//! in the custom form, must be its default print byte for byte, run live
//! so that the expected text cannot drift (SPEC.md §11.4). They cover
//! spellings the corpus has few of or none: llvm functions with linkage,
//! visibility, calling conventions, variadic and attributed signatures,
//! `vscale_range` and `comdat`; direct, indirect, variadic and bundled
//! calls and invokes; allocas, GEPs with flags, globals, aliases and
//! ifuncs; switches, indirect branches and landing pads.

use rmlir_writer::{print_module, PrintOptions};
use std::path::Path;

#[test]
fn custom_print_fixtures_print_as_mlir_opt() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/custom-print");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "mlir"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no fixtures in {}", dir.display());
    let custom = PrintOptions {
        custom: true,
        ..Default::default()
    };
    for f in files {
        let name = f.to_str().expect("a UTF-8 path");
        let run = |args: &[&str]| {
            let out = rmlir_tests::oracle::run(args)
                .unwrap_or_else(|e| panic!("{name}: mlir-opt refuses the fixture: {e}"));
            String::from_utf8(out).unwrap()
        };
        let generic = run(&["--mlir-print-op-generic", "--mlir-print-debuginfo", name]);
        let pretty = run(&["--mlir-print-debuginfo", name]);
        let m =
            rmlir_reader::parse_module(generic.as_bytes(), name).unwrap_or_else(|e| panic!("{e}"));
        let ours = print_module(&m, custom);
        assert!(
            ours == pretty,
            "{name}: differs from mlir-opt: {}",
            rmlir_tests::first_diff(&pretty, &ours)
        );
    }
}
