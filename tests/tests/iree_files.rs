//! IREE's own bytecode (SPEC.md §7.2, §10.6): `../shared/tools/
//! real-clients/make_jax.py` then `make_iree.py`, run here, compile two
//! models with `iree-compile` to every phase (input, flow, stream, hal,
//! vm; some at bytecode versions 0, 1, 4 and 5) and write them again
//! through IREE's Python bindings. Each file holds IREE's dialects (util,
//! flow, stream, hal, vm, …: `dialects/data/ods-layouts-iree-b48a5955.json`)
//! and upstream ops in MLIR 24's layouts.
//!
//! Every file decodes, read and printed in IREE's terms (SPEC.md §7.4),
//! exactly as IREE prints it, aliases such as
//! `#executable_target_embedded_elf_x86_64` included.

use rmlir_dialects::hosts::IREE_3_13;
use rmlir_tests::corpus_dir;
use rmlir_writer::{print_module, PrintOptions};
use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn python() -> String {
    // One Python has both: `.ci/run` installs jax, jaxlib and IREE in
    // .venv-clients.
    std::env::var("RMLIR_IREE_PYTHON").unwrap_or_else(|_| {
        panic!(
            "RMLIR_IREE_PYTHON is not set: it names a Python with jax==0.10.2, jaxlib==0.10.2 \
             and iree-base-compiler==3.13.0 (.ci/run makes .venv-clients)"
        )
    })
}

/// Reading in IREE's terms (SPEC.md §7.4): MLIR 24's layouts with
/// nothing carried over to MLIR 22, IREE's registered dialects and its
/// reading of use-list records.
fn options() -> rmlir_reader::ReadOptions {
    static DIALECTS: std::sync::OnceLock<rmlir_format::dialect_hooks::DialectRegistry> =
        std::sync::OnceLock::new();
    rmlir_reader::ReadOptions {
        dialects: Some(DIALECTS.get_or_init(|| rmlir_dialects::all().clone())),
        out_of_tree: Some(rmlir_dialects::out_of_tree_layouts),
        host: Some(&IREE_3_13),
        ..Default::default()
    }
}

/// Printing as IREE prints: its aliases (`#device_target_local`).
fn print_options(local_scope: bool) -> PrintOptions {
    PrintOptions {
        local_scope,
        host: Some(&IREE_3_13),
        ..Default::default()
    }
}

#[test]
fn iree_compiled_files_decode_as_iree_prints_them() {
    let out = std::env::temp_dir().join(format!("rmlir-iree-files-{}", std::process::id()));
    let (jax, iree) = (out.join("jax"), out.join("iree"));
    std::fs::create_dir_all(&iree).unwrap();
    let tools = corpus_dir().join("../tools/real-clients");
    for (script, args) in [
        ("make_jax.py", vec![jax.clone()]),
        ("make_iree.py", vec![jax.clone(), iree.clone()]),
    ] {
        let status = Command::new(python())
            .arg(tools.join(script))
            .args(&args)
            .current_dir(&out)
            .stdout(std::process::Stdio::null())
            .status()
            .expect("runs the clients' Python");
        assert!(status.success(), "{script} failed");
    }
    let files = rmlir_tests::mlirbc_files(&iree);
    assert!(
        files.len() >= 18,
        "make_iree.py wrote {} files",
        files.len()
    );
    let status = Command::new(python())
        .arg(repo().join("tools/tool-oracle/print_local.py"))
        .arg("iree")
        .arg(out.join("local"))
        .args(&files)
        .status()
        .expect("runs IREE's Python");
    assert!(status.success(), "print_local.py failed");
    let (mut exact, mut alias_only) = (0, 0);
    for f in &files {
        let name = f.file_name().unwrap().to_string_lossy();
        let data = std::fs::read(f).unwrap();
        let m = rmlir_reader::read_bytecode_with_options(&data, &options())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let theirs = std::fs::read_to_string(f.with_extension("generic.mlir")).unwrap();
        if print_module(&m, print_options(false)) == format!("{theirs}\n") {
            exact += 1;
            continue;
        }
        let local = std::fs::read_to_string(out.join("local").join(format!("{name}.local.txt")))
            .unwrap_or_else(|_| panic!("IREE does not print {name} back"));
        assert_eq!(
            print_module(&m, print_options(true)),
            format!("{local}\n"),
            "{name}: decoded unlike IREE's print, even without aliases"
        );
        alias_only += 1;
    }
    println!(
        "IREE files: {exact}/{n} decoded exactly as IREE prints them, {alias_only}/{n} equal without aliases",
        n = files.len()
    );
    // 18/18 on 2026-11-26, once IREE's hal aliases were ported.
    assert_eq!(exact, files.len(), "files decoded unlike IREE's print");
    written_for_iree_as_iree_writes(&out, &files);
    let _ = std::fs::remove_dir_all(&out);
}

/// Writing for IREE (`--target mlir-24`, SPEC.md §7.4): IREE's generic
/// print of each file, parsed in IREE's terms, and each file itself, read
/// in them, written at every bytecode version IREE writes, equal IREE's own
/// bytes of the same input (`tools/iree-oracle/bytecode.py`), byte for
/// byte. IREE then reads ours back to its own print, as it does its own.
fn written_for_iree_as_iree_writes(out: &Path, files: &[PathBuf]) {
    let texts: Vec<PathBuf> = files
        .iter()
        .map(|f| f.with_extension("generic.mlir"))
        .collect();
    let oracle = out.join("oracle");
    let status = Command::new(python())
        .arg(repo().join("tools/iree-oracle/bytecode.py"))
        .arg(&oracle)
        .arg("0,1,2,3,4,5,6")
        .args(&texts)
        .args(files)
        .status()
        .expect("runs IREE's Python");
    assert!(status.success(), "bytecode.py failed");
    let dialects = options().dialects.unwrap();
    let write = |m: &rmlir_format::Module, version: u64| {
        let opts = rmlir_writer::WriteOptions {
            version,
            producer: "MLIR24.0.0git".into(),
            builtin_encodings: rmlir_writer::BuiltinEncodings::Mlir24,
            use_list_records: rmlir_writer::UseListRecordOrder::Ascending,
            ..Default::default()
        };
        let layouts = rmlir_dialects::layouts_for_writing(m, IREE_3_13.ops());
        rmlir_writer::write_bytecode_with(m, &opts, layouts, dialects)
    };
    let (mut same, mut total) = ((0, 0), (0, 0));
    for input in texts.iter().chain(files) {
        let name = input.file_name().unwrap().to_string_lossy().into_owned();
        let data = std::fs::read(input).unwrap();
        let is_text = input.extension().is_some_and(|e| e == "mlir");
        let m = if is_text {
            rmlir_reader::parse_module_in_release(
                &data,
                &name,
                Default::default(),
                Some(dialects),
                &IREE_3_13,
                &|_| {},
            )
        } else {
            rmlir_reader::read_bytecode_with_options(&data, &options())
        }
        .unwrap_or_else(|e| panic!("{name}: {e}"));
        // IREE writes bytecode as a text parse leaves it (derived orders).
        let mut m = m;
        m.settle_use_list_orders();
        // bytecode.py's versions: text at 0–6, the files at 0, 1, 4–6.
        for v in 0..=6u64 {
            let theirs = oracle.join(format!("{name}.v{v}.mlirbc"));
            let Ok(theirs) = std::fs::read(&theirs) else {
                continue;
            };
            let ours = write(&m, v).unwrap_or_else(|e| panic!("{name} v{v}: {e}"));
            let (s, t) = if is_text {
                (&mut same.0, &mut total.0)
            } else {
                (&mut same.1, &mut total.1)
            };
            *t += 1;
            if ours == theirs {
                *s += 1;
            } else {
                eprintln!("{name} v{v}: our bytes differ from IREE's");
            }
        }
    }
    println!(
        "Written for IREE: {}/{} from IREE's text, {}/{} from IREE's files, equal to IREE's bytes",
        same.0, total.0, same.1, total.1
    );
    assert!(
        total.0 >= 18 * 7 && total.1 >= 18 * 7,
        "bytecode.py wrote too few files"
    );
    assert_eq!(same, total, "bytes unlike IREE's (listed above)");
}
