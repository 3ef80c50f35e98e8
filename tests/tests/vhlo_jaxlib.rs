//! VHLO bytecode (StableHLO portable artifacts) and StableHLO bytecode read
//! as jaxlib reads them (SPEC.md §10): StableHLO's compatibility suite
//! (artifacts written by every release from 0.9.0 to 1.20.0), the
//! artifacts and StableHLO bytecode (v0, v1, v5, v6) `jax.export` and
//! jaxlib write for three models, and a hand-written fixture holding every
//! StableHLO attribute kind we print (`tests/fixtures/stablehlo_attrs.mlir`,
//! written by jaxlib at v1 and v6), each decoded by the command line's
//! reading (`rmlir_dialects` registered) and printed, against jaxlib
//! 0.10.2's print of the same file (`tools/jax-oracle/print_bytecode.py`,
//! run here).
//!
//! jaxlib is found through `RMLIR_JAXLIB_PYTHON` (a Python with the pinned
//! jax and jaxlib; `.ci/run` makes one).

use rmlir_reader::{BytecodeReader, ReadOptions};
use rmlir_tests::corpus_dir;
use rmlir_writer::{print_module, PrintOptions};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

fn python() -> String {
    std::env::var("RMLIR_JAXLIB_PYTHON").unwrap_or_else(|_| {
        panic!(
            "RMLIR_JAXLIB_PYTHON is not set: it names a Python with jax==0.10.2 and jaxlib==0.10.2 \
             (python3 -m venv .venv-clients && .venv-clients/bin/pip install jax==0.10.2 jaxlib==0.10.2; \
             .ci/run does this)"
        )
    })
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn tmpdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("rmlir-vhlo-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// jaxlib's print of each file, by file name: `Ok(text)` or `Err(message)`.
fn jaxlib_prints(files: &[PathBuf], out: &Path) -> Vec<(PathBuf, Result<String, String>)> {
    let script = repo().join("tools/jax-oracle/print_bytecode.py");
    let status = Command::new(python())
        .arg(&script)
        .arg(out)
        .args(files)
        .status()
        .expect("runs jaxlib's Python");
    assert!(status.success(), "{} failed", script.display());
    files
        .iter()
        .map(|f| {
            let name = f.file_name().unwrap().to_string_lossy().into_owned();
            let text = std::fs::read_to_string(out.join(format!("{name}.txt")));
            let err = std::fs::read_to_string(out.join(format!("{name}.error")));
            let r = match (text, err) {
                (Ok(t), _) => Ok(t),
                (_, Ok(e)) => Err(e),
                _ => panic!("no jaxlib output for {name}"),
            };
            (f.clone(), r)
        })
        .collect()
}

/// The layouts and hooks the command line reads with.
fn options() -> ReadOptions {
    static DIALECTS: OnceLock<rmlir_format::dialect_hooks::DialectRegistry> = OnceLock::new();
    let dialects = DIALECTS.get_or_init(|| {
        let mut r = rmlir_format::dialect_hooks::DialectRegistry::default_ref().clone();
        rmlir_dialects::register_all(&mut r);
        r
    });
    ReadOptions {
        dialects: Some(dialects),
        out_of_tree: Some(rmlir_dialects::out_of_tree_layouts),
        ..Default::default()
    }
}

/// Our print, as `rmlir-bc decode` makes it.
fn decode(path: &Path) -> Result<String, String> {
    let data = std::fs::read(path).unwrap();
    let mut r = BytecodeReader::open_with_options(&data, &options()).map_err(|e| e.to_string())?;
    r.materialize_all().map_err(|e| e.to_string())?;
    Ok(print_module(&r.into_module(), PrintOptions::default()))
}

/// Our print of `file` is jaxlib's (whose text has no final newline; ours
/// ends as mlir-opt's does).
fn assert_prints_as_jaxlib(file: &Path, jaxlib: &str) {
    let ours = decode(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    assert!(
        ours.strip_suffix('\n') == Some(jaxlib),
        "{}: {}",
        file.display(),
        rmlir_tests::first_diff(jaxlib, &ours)
    );
}

fn compat_dir() -> PathBuf {
    corpus_dir().join("../third-party/stablehlo/compat-artifacts")
}

#[test]
fn compat_suite_prints_as_jaxlib_and_newer_releases_read() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(compat_dir())
        .unwrap_or_else(|e| panic!("{} is required: {e}", compat_dir().display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".mlir.bc"))
        .collect();
    files.sort();
    let out = tmpdir("compat");
    let mut same = 0;
    let mut beyond = Vec::new();
    for (file, oracle) in jaxlib_prints(&files, &out) {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        if name == "invalid_vhlo_future.mlir.bc" {
            // An op of a newer VHLO than we know: refused, naming it.
            let e = decode(&file).expect_err("vhlo.constant_v99 is refused");
            assert!(
                e.contains("'vhlo.constant_v99'")
                    && e.contains("vhlo of 1.20.0")
                    && e.contains("know 145 ops of dialect 'vhlo' and not this one")
                    && e.contains("producer 'StableHLO_v2.0.0'"),
                "{e}"
            );
            assert!(oracle.is_err(), "jaxlib reads {name}");
            continue;
        }
        match oracle {
            Ok(text) => {
                assert_prints_as_jaxlib(&file, &text);
                same += 1;
            }
            // jaxlib 0.10.2 (StableHLO 1.17.0) cannot read what 1.18.0
            // and later wrote (vhlo.custom_call_v2); we read it.
            Err(_) => {
                decode(&file).unwrap_or_else(|e| panic!("{name}: {e}"));
                beyond.push(name);
            }
        }
    }
    eprintln!(
        "compatibility suite: {same} artifacts print as jaxlib prints them; read beyond jaxlib: {beyond:?}"
    );
    assert_eq!(same, 30);
    assert_eq!(beyond.len(), 3, "{beyond:?}");
}

#[test]
fn jax_export_artifacts_print_as_jaxlib() {
    let out = tmpdir("jax");
    let make = corpus_dir().join("../tools/real-clients/make_jax.py");
    let status = Command::new(python())
        .arg(&make)
        .arg(&out)
        .stdout(std::process::Stdio::null())
        .status()
        .expect("runs make_jax.py");
    assert!(status.success(), "{} failed", make.display());
    let mut files: Vec<PathBuf> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".mlirbc"))
        .collect();
    files.sort();
    // Per model: the portable artifact, and StableHLO bytecode at jaxlib's
    // default version and at v0, v1 and v5.
    assert_eq!(files.len(), 15, "{files:?}");
    for (file, oracle) in jaxlib_prints(&files, &out.join("oracle")) {
        let oracle = oracle.expect("jaxlib reads its own artifact");
        assert_prints_as_jaxlib(&file, &oracle);
        // make_jax.py's own oracle, written in the same run, agrees.
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let stem = name.trim_end_matches(".mlirbc");
        let stem = ["v0", "v1", "v5"]
            .iter()
            .fold(stem.to_string(), |s, v| s.replace(&format!(".{v}"), ""));
        let generic = out.join(format!("{stem}.generic.mlir"));
        let generic = std::fs::read_to_string(&generic)
            .unwrap_or_else(|e| panic!("{}: {e}", generic.display()));
        assert_eq!(generic, oracle, "{name}");
    }
}

#[test]
fn stablehlo_attribute_kinds_print_as_jaxlib() {
    let out = tmpdir("fixture");
    let fixture = repo().join("tests/fixtures/stablehlo_attrs.mlir");
    let status = Command::new(python())
        .arg(repo().join("tools/jax-oracle/to_bytecode.py"))
        .arg(&fixture)
        .arg(&out)
        .args(["1", "6"])
        .status()
        .expect("runs to_bytecode.py");
    assert!(status.success());
    let files = [
        out.join("stablehlo_attrs.v1.mlirbc"),
        out.join("stablehlo_attrs.v6.mlirbc"),
    ];
    for (file, oracle) in jaxlib_prints(&files, &out.join("oracle")) {
        let oracle = oracle.expect("jaxlib reads what it wrote");
        // The fixture holds every kind we print, at least once.
        for kind in [
            "#stablehlo.gather<",
            "#stablehlo.scatter<",
            "#stablehlo.channel_handle<",
            "#stablehlo.bounds<",
            "#stablehlo.output_operand_alias<",
            "#stablehlo.dot_algorithm<",
            "#stablehlo<fft_type",
            "#stablehlo<precision",
            "#stablehlo<rng_algorithm",
            "#stablehlo<rng_distribution",
            "#stablehlo<transpose",
            "#stablehlo<comparison_type",
            "#stablehlo<comparison_direction",
            "#stablehlo.result_accuracy_mode<",
            "#stablehlo.conv<",
            "#stablehlo.dot<",
            "!stablehlo.token",
            "!stablehlo.future<",
            "#chlo<comparison_direction",
            "#chlo<comparison_type",
            "#chlo<precision",
        ] {
            assert!(oracle.contains(kind), "the fixture lacks {kind}");
        }
        assert_prints_as_jaxlib(&file, &oracle);
    }
}
