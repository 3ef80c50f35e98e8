//! llvm's debug-info attributes as MLIR 23 and 24 encode them (SPEC.md
//! §6.6.5, `dialects/src/llvm/newer_kinds.rs`): `DICompileUnitAttr`,
//! `DICompositeTypeAttr` and `DIDerivedTypeAttr` gained parameters after
//! MLIR 22. Every corpus case holding one of them is parsed and written
//! by jaxlib 0.10.2 and by IREE 3.13 (`rewrite_corpus_with_tool.py`,
//! run here); then
//! - each tool's file decodes, in that tool's terms, as the tool prints
//!   it: exactly, or (where the tool shares distinct attributes across
//!   textual entries, SPEC.md §6.6.5) equal when both print without
//!   aliases (`tools/tool-oracle/print_local.py`);
//! - the tool's print, parsed in its terms and written for its release
//!   (as `encode --target mlir-23|mlir-24` writes), equals the tool's own
//!   bytes.

use rmlir_dialects::hosts::{Host, IREE_3_13, JAXLIB_0_10};
use rmlir_tests::corpus_dir;
use rmlir_writer::{print_module, PrintOptions};
use std::path::PathBuf;
use std::process::Command;

const KINDS: [&str; 3] = [
    "#llvm.di_compile_unit<",
    "#llvm.di_composite_type<",
    "#llvm.di_derived_type<",
];

fn python() -> String {
    std::env::var("RMLIR_IREE_PYTHON").unwrap_or_else(|_| {
        panic!(
            "RMLIR_IREE_PYTHON is not set: it names a Python with jax==0.10.2, jaxlib==0.10.2 \
             and iree-base-compiler==3.13.0 (.ci/run makes .venv-clients)"
        )
    })
}

/// A folder of links to the corpus cases holding a changed kind.
fn cases(out: &std::path::Path) -> usize {
    let dir = out.join("cases");
    std::fs::create_dir_all(&dir).unwrap();
    let mut n = 0;
    for c in rmlir_tests::case_dirs("cases") {
        let Ok(text) = std::fs::read_to_string(c.join("generic.mlir")) else {
            continue;
        };
        if KINDS.iter().any(|k| text.contains(k)) {
            std::os::unix::fs::symlink(&c, dir.join(c.file_name().unwrap())).unwrap();
            n += 1;
        }
    }
    n
}

fn check(tool: &str, host: &'static Host) {
    let out = std::env::temp_dir().join(format!("rmlir-llvm-newer-{tool}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let n = cases(&out);
    assert!(
        n >= rmlir_tests::floor("llvm_newer_kinds: cases", 20),
        "only {n} corpus cases hold the changed llvm kinds"
    );
    let script = corpus_dir().join("../tools/real-clients/rewrite_corpus_with_tool.py");
    let status = Command::new(python())
        .arg(&script)
        .args([tool, "1"])
        .arg(out.join("cases"))
        .arg(out.join("tool"))
        .stdout(std::process::Stdio::null())
        .status()
        .expect("runs the tool's Python");
    assert!(status.success(), "{} failed for {tool}", script.display());
    let dialects = rmlir_dialects::all();
    let read = rmlir_reader::ReadOptions {
        host: Some(host),
        ..Default::default()
    };
    let write = rmlir_writer::WriteOptions {
        producer: format!("MLIR{}", host.ops().release()),
        builtin_encodings: if host.mlir_major >= 24 {
            rmlir_writer::BuiltinEncodings::Mlir24
        } else {
            rmlir_writer::BuiltinEncodings::Mlir22
        },
        use_list_records: rmlir_writer::UseListRecordOrder::Ascending,
        mlir_major: host.mlir_major,
        ..Default::default()
    };
    let files: Vec<PathBuf> = rmlir_tests::mlirbc_files(&out.join("tool"));
    let (mut decoded, mut written) = (0, 0);
    let mut differing = Vec::new();
    for f in &files {
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(f).unwrap();
        let theirs = std::fs::read_to_string(f.with_extension("generic.mlir")).unwrap();
        let m = rmlir_reader::read_bytecode_with_options(&bytes, &read)
            .unwrap_or_else(|e| panic!("{tool} {name}: {e}"));
        let print = PrintOptions {
            host: Some(host),
            ..Default::default()
        };
        // The tool's print has no final newline.
        if print_module(&m, print) == format!("{theirs}\n") {
            decoded += 1;
        } else {
            let local = PrintOptions {
                host: Some(host),
                local_scope: true,
                ..Default::default()
            };
            differing.push((f.clone(), print_module(&m, local)));
        }
        let mut m = rmlir_reader::parse_module_in_release(
            theirs.as_bytes(),
            &name,
            Default::default(),
            Some(dialects),
            host,
            &|_| {},
        )
        .unwrap_or_else(|e| panic!("{tool} {name}: {e}"));
        m.settle_use_list_orders();
        let layouts = rmlir_dialects::layouts_for_writing(&m, host.ops());
        let ours = rmlir_writer::write_bytecode_with(&m, &write, layouts, dialects)
            .unwrap_or_else(|e| panic!("{tool} {name}: {e}"));
        if ours == bytes {
            written += 1;
        } else {
            eprintln!("{tool} {name}: written unlike the tool writes it");
        }
    }
    let mut alias_only = 0;
    if !differing.is_empty() {
        let local = out.join("local");
        let status = Command::new(python())
            .arg(
                std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join("..")
                    .join("tools/tool-oracle/print_local.py"),
            )
            .arg(tool)
            .arg(&local)
            .args(differing.iter().map(|(f, _)| f))
            .status()
            .expect("runs the tool's Python");
        assert!(status.success(), "print_local.py failed for {tool}");
        for (f, ours) in &differing {
            let name = f.file_name().unwrap().to_string_lossy();
            let theirs = std::fs::read_to_string(local.join(format!("{name}.local.txt"))).unwrap();
            if *ours == format!("{theirs}\n") {
                alias_only += 1;
            } else {
                eprintln!("{tool} {name}: decoded unlike the tool prints it, even without aliases");
            }
        }
    }
    println!(
        "{tool}: {decoded}/{} decoded as the tool prints them ({alias_only} more equal without aliases), {written}/{} written as the tool writes them",
        files.len(),
        files.len()
    );
    assert_eq!(files.len(), n, "{tool} did not write every case");
    assert_eq!((decoded + alias_only, written), (n, n));
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn jaxlib_debug_info_reads_and_writes_as_jaxlib() {
    check("jax", &JAXLIB_0_10);
}

#[test]
fn iree_debug_info_reads_and_writes_as_iree() {
    check("iree", &IREE_3_13);
}
