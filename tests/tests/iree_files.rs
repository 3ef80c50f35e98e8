//! IREE's own bytecode (SPEC.md §7.2, §10.6): `../shared/tools/
//! real-clients/make_jax.py` then `make_iree.py`, run here, compile two
//! models with `iree-compile` to every phase (input, flow, stream, hal,
//! vm; some at bytecode versions 0, 1, 4 and 5) and write them again
//! through IREE's Python bindings. Each file holds IREE's dialects (util,
//! flow, stream, hal, vm, …: `dialects/data/ods-layouts-iree-b48a5955.json`)
//! and upstream ops in MLIR 24's layouts.
//!
//! Every file decodes, and equals IREE's print exactly or once both sides
//! print without aliases (IREE's dialects name their aliases, e.g.
//! `#executable_target_embedded_elf_x86_64`, which we do not).

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

fn options() -> rmlir_reader::ReadOptions {
    static DIALECTS: std::sync::OnceLock<rmlir_format::dialect_hooks::DialectRegistry> =
        std::sync::OnceLock::new();
    rmlir_reader::ReadOptions {
        dialects: Some(DIALECTS.get_or_init(|| rmlir_dialects::all().clone())),
        out_of_tree: Some(rmlir_dialects::out_of_tree_layouts),
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
    let mut files: Vec<PathBuf> = std::fs::read_dir(&iree)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "mlirbc"))
        .collect();
    files.sort();
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
        if print_module(&m, Default::default()) == format!("{theirs}\n") {
            exact += 1;
            continue;
        }
        let local = std::fs::read_to_string(out.join("local").join(format!("{name}.local.txt")))
            .unwrap_or_else(|_| panic!("IREE does not print {name} back"));
        let opts = PrintOptions {
            local_scope: true,
            ..Default::default()
        };
        assert_eq!(
            print_module(&m, opts),
            format!("{local}\n"),
            "{name}: decoded unlike IREE's print, even without aliases"
        );
        alias_only += 1;
    }
    println!(
        "IREE files: {exact}/{n} decoded exactly as IREE prints them, {alias_only}/{n} equal without aliases",
        n = files.len()
    );
    let _ = std::fs::remove_dir_all(&out);
}
