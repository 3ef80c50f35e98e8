//! Ops of an upstream dialect the tool does not register (SPEC.md §7.4,
//! `Host::leaves_unregistered`). mlir-opt 22 has `vcix`'s ODS (its layouts
//! are in our MLIR 22 data) but does not load the dialect: it writes and
//! reads `vcix` ops as unregistered ops, so must we, or mlir-opt reads our
//! `<{opcode = 1 : i32}>` back as `<1 : i32>`.

use rmlir_dialects::hosts::MLIR_OPT_22;
use rmlir_format::op_registry::OpRegistry;
use rmlir_tests::oracle;
use rmlir_writer::{print_module, PrintOptions, WriteOptions};

const WITH_PROPERTIES: &str = "\"builtin.module\"() ({\n  %0 = \"x.src\"() : () -> vector<4xf32>\n  \"vcix.v.sv\"(%0) <{opcode = 1 : i32}> : (vector<4xf32>) -> ()\n}) : () -> ()\n";
const WITH_ATTRIBUTES: &str = "\"builtin.module\"() ({\n  %0 = \"x.src\"() : () -> vector<4xf32>\n  \"vcix.v.sv\"(%0) {opcode = 1 : i32} : (vector<4xf32>) -> ()\n}) : () -> ()\n";

/// A file in a folder of this test's own (tests run in parallel).
fn tmp(test: &str, name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("rmlir-unloaded-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d.join(name)
}

/// The registered dialects we list for mlir-opt 22 are those it shows.
#[test]
fn mlir_opt_22_registers_what_we_list() {
    let out = std::process::Command::new(oracle::mlir_opt())
        .arg("--show-dialects")
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let listed = text.split(':').nth(1).expect("Available Dialects: a,b,…");
    let mut theirs: Vec<&str> = listed.trim().split(',').collect();
    theirs.sort_unstable();
    assert_eq!(theirs, MLIR_OPT_22.registered_dialects);
    // Of the dialects our MLIR 22 layouts describe, only vcix is not
    // loaded.
    let mut unloaded: Vec<String> = OpRegistry::default_ref()
        .ops()
        .filter(|o| MLIR_OPT_22.leaves_unregistered(o.name.as_bytes()))
        .map(|o| o.name.split('.').next().unwrap().to_string())
        .collect();
    unloaded.dedup();
    assert_eq!(unloaded, ["vcix"]);
}

/// Written at v5 and v6, our bytes are mlir-opt's (the op unregistered,
/// its properties one attribute), and mlir-opt reads them back to the
/// input. Below v5 the properties cannot be held: refused, where mlir-opt
/// drops them.
#[test]
fn vcix_ops_are_written_unregistered_as_mlir_opt_writes_them() {
    let input = tmp("write", "vcix.mlir");
    std::fs::write(&input, WITH_PROPERTIES).unwrap();
    // The locations name the file as mlir-opt is given it.
    let m =
        rmlir_reader::parse_module(WITH_PROPERTIES.as_bytes(), input.to_str().unwrap()).unwrap();
    for v in [5, 6] {
        let theirs = tmp("write", &format!("vcix.v{v}.mlirbc"));
        oracle::emit_bytecode(&input, v, &theirs).unwrap();
        let opts = WriteOptions {
            version: v,
            ..Default::default()
        };
        let ours = rmlir_writer::write_bytecode(&m, &opts).unwrap();
        assert_eq!(ours, std::fs::read(&theirs).unwrap(), "v{v}");
        let ours_file = tmp("write", &format!("ours.v{v}.mlirbc"));
        std::fs::write(&ours_file, &ours).unwrap();
        let back = oracle::run(&["--mlir-print-op-generic", ours_file.to_str().unwrap()]).unwrap();
        assert_eq!(
            String::from_utf8(back).unwrap(),
            format!("{WITH_PROPERTIES}\n"),
            "v{v}"
        );
    }
    let opts = WriteOptions {
        version: 4,
        ..Default::default()
    };
    let e = rmlir_writer::write_bytecode(&m, &opts).unwrap_err();
    assert!(
        e.to_string().contains("unregistered operation 'vcix.v.sv'"),
        "{e}"
    );
}

/// A v4 file mlir-opt wrote keeps the op's attributes in its dictionary
/// (no flag says whether it was registered): read so, not moved into
/// properties.
#[test]
fn vcix_ops_before_v5_keep_their_attributes() {
    let input = tmp("read", "vcix2.mlir");
    std::fs::write(&input, WITH_ATTRIBUTES).unwrap();
    let theirs = tmp("read", "vcix2.v4.mlirbc");
    oracle::emit_bytecode(&input, 4, &theirs).unwrap();
    let m = rmlir_reader::read_bytecode(&std::fs::read(&theirs).unwrap()).unwrap();
    let opts = PrintOptions {
        local_scope: true,
        ..Default::default()
    };
    let ours = print_module(&m, opts);
    assert!(
        ours.contains("\"vcix.v.sv\"(%0) {opcode = 1 : i32} : (vector<4xf32>) -> ()"),
        "{ours}"
    );
    let _ = std::fs::remove_dir_all(input.parent().unwrap());
}
