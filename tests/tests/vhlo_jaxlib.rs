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
//! Written back as the command line writes them (`rmlir_dialects`'
//! hooks and layouts), bytecode to bytecode and jaxlib's text to bytecode,
//! each against what jaxlib writes from the same input at the same version
//! (`tools/jax-oracle/to_bytecode.py`), and read back by jaxlib.
//!
//! The custom form jaxlib prints (`print_custom.py`, and `jax.export`'s
//! `mlir_module()` of the three models) reads back, and our custom-form
//! print of it (`decode --custom` in jaxlib's terms, SPEC.md §11.4) is
//! jaxlib's text byte for byte.
//!
//! jaxlib is found through `RMLIR_JAXLIB_PYTHON` (a Python with the pinned
//! jax and jaxlib; `.ci/run` makes one).

use rmlir_format::dialect_hooks::DialectRegistry;
use rmlir_format::Module;
use rmlir_reader::{BytecodeReader, ReadOptions};
use rmlir_tests::corpus_dir;
use rmlir_writer::{print_module, PrintOptions, WriteOptions};
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

/// The hooks the command line reads and writes with.
fn dialects() -> &'static DialectRegistry {
    static DIALECTS: OnceLock<DialectRegistry> = OnceLock::new();
    DIALECTS.get_or_init(|| {
        let mut r = rmlir_dialects::upstream().clone();
        rmlir_dialects::register_all(&mut r);
        r
    })
}

/// The layouts and hooks the command line reads with.
fn options() -> ReadOptions {
    ReadOptions {
        dialects: Some(dialects()),
        out_of_tree: Some(rmlir_dialects::out_of_tree_layouts),
        ..Default::default()
    }
}

/// A bytecode file read whole, as `rmlir-bc` reads it.
fn read(path: &Path) -> Result<Module, String> {
    let data = std::fs::read(path).unwrap();
    let mut r = BytecodeReader::open_with_options(&data, &options()).map_err(|e| e.to_string())?;
    r.materialize_all().map_err(|e| e.to_string())?;
    Ok(r.into_module())
}

/// A text file parsed as `rmlir-bc` parses it (this crate's dialects read
/// into bodies their hooks write).
fn parse(path: &Path) -> Module {
    parse_as(path, &path.to_string_lossy())
}

/// [`parse`] with `name` the file's name in the locations the parser
/// makes: `-` is what jaxlib's `Module.parse` of a string names it.
fn parse_as(path: &Path, name: &str) -> Module {
    let data = std::fs::read(path).unwrap();
    rmlir_reader::parse_module_releasing_deferred_with(
        &data,
        name,
        rmlir_reader::Limits::default(),
        Some(dialects()),
        &|_| {},
    )
    .unwrap_or_else(|e| panic!("{e}"))
}

/// Our print, as `rmlir-bc decode` makes it.
fn decode(path: &Path) -> Result<String, String> {
    read(path).map(|m| print_module(&m, PrintOptions::default()))
}

/// Our custom-form print, as `rmlir-bc decode --custom` makes it in
/// jaxlib's terms (SPEC.md §11.4): with debug info, as jaxlib's
/// `get_asm(enable_debug_info=True)` and `jax.export`'s `mlir_module()`.
fn print_custom(m: &Module) -> String {
    print_module(
        m,
        PrintOptions {
            custom: true,
            host: Some(&rmlir_dialects::hosts::JAXLIB_0_10),
            ..Default::default()
        },
    )
}

/// Whether our custom print of `text` (jaxlib's custom print, parsed) is
/// `text` byte for byte (jaxlib's print has no final newline); the
/// first difference where not.
fn custom_print_differs(text: &Path) -> Option<String> {
    let theirs = std::fs::read_to_string(text).unwrap();
    let ours = print_custom(&parse_as(text, "-"));
    (ours.strip_suffix('\n') != Some(theirs.as_str()))
        .then(|| rmlir_tests::first_diff(&theirs, &ours))
}

/// The producer jaxlib 0.10.2's `write_bytecode` writes.
const JAXLIB_PRODUCER: &str = "MLIR23.0.0git";

/// Our bytecode of `m`, as `rmlir-bc encode`/`convert` write it.
fn write(m: &Module, version: u64, producer: &str) -> Vec<u8> {
    let opts = WriteOptions {
        version,
        producer: producer.to_string(),
        ..Default::default()
    };
    rmlir_writer::write_bytecode_with(m, &opts, rmlir_dialects::write_layouts(), dialects())
        .unwrap_or_else(|e| panic!("{e}"))
}

/// A text file read as `rmlir-bc encode --target mlir-23` reads it: in
/// jaxlib 0.10's terms (its MLIR 23 release), its locations in file `-`.
fn parse_for_jaxlib(path: &Path) -> Module {
    let data = std::fs::read(path).unwrap();
    rmlir_reader::parse_module_in_release(
        &data,
        "-",
        rmlir_reader::Limits::default(),
        Some(dialects()),
        &rmlir_dialects::hosts::JAXLIB_0_10,
        &|_| {},
    )
    .unwrap_or_else(|e| panic!("{e}"))
}

/// Our bytecode of `m` as `rmlir-bc encode --target mlir-23` writes it:
/// jaxlib's producer, MLIR 23's op layouts, builtin encodings and use-list
/// record order.
fn write_for_jaxlib(m: &Module, version: u64) -> Vec<u8> {
    let opts = WriteOptions {
        version,
        producer: JAXLIB_PRODUCER.to_string(),
        builtin_encodings: rmlir_writer::BuiltinEncodings::Mlir23,
        use_list_records: rmlir_writer::UseListRecordOrder::Ascending,
        mlir_major: 23,
        ..Default::default()
    };
    let release = rmlir_format::op_registry::OpRegistry::for_release("mlir-23")
        .expect("MLIR 23's layouts are embedded");
    rmlir_writer::write_bytecode_with(
        m,
        &opts,
        rmlir_dialects::write_layouts_for(release),
        dialects(),
    )
    .unwrap_or_else(|e| panic!("{e}"))
}

/// What jaxlib writes for each file at each version
/// (`to_bytecode.py`), by (file, version): the bytes, or jaxlib's error.
fn jaxlib_writes(
    files: &[PathBuf],
    versions: &[u64],
    out: &Path,
) -> Vec<(PathBuf, u64, Result<Vec<u8>, String>)> {
    let script = repo().join("tools/jax-oracle/to_bytecode.py");
    let list: Vec<String> = versions.iter().map(|v| v.to_string()).collect();
    let status = Command::new(python())
        .arg(&script)
        .arg(out)
        .arg(list.join(","))
        .args(files)
        .status()
        .expect("runs jaxlib's Python");
    assert!(status.success(), "{} failed", script.display());
    let mut r = Vec::new();
    for f in files {
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        for &v in versions {
            let bytes = std::fs::read(out.join(format!("{name}.v{v}.mlirbc")));
            let err = std::fs::read_to_string(out.join(format!("{name}.error")));
            let got = match (bytes, err) {
                (Ok(b), _) => Ok(b),
                (_, Ok(e)) => Err(e),
                _ => panic!("no jaxlib output for {name} at v{v}"),
            };
            r.push((f.clone(), v, got));
        }
    }
    r
}

/// `ours` is `jaxlib`'s bytes, or the first byte where it is not.
fn assert_same_bytes(what: &str, ours: &[u8], jaxlib: &[u8]) {
    if ours != jaxlib {
        let at = ours
            .iter()
            .zip(jaxlib)
            .position(|(a, b)| a != b)
            .unwrap_or(ours.len().min(jaxlib.len()));
        panic!(
            "{what}: our {} bytes differ from jaxlib's {} at byte {at}",
            ours.len(),
            jaxlib.len()
        );
    }
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
fn jax_exports_print_convert_and_encode_as_jaxlib() {
    let out = tmpdir("jax");
    let files = bytecode_made_by(
        &corpus_dir().join("../tools/real-clients/make_jax.py"),
        &out,
    );
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
    // `convert` at the file's version, keeping its producer: the file
    // itself, byte for byte (jaxlib's `write_bytecode` or, for the
    // portable artifacts, `serialize_portable_artifact` wrote it).
    for file in &files {
        let (version, producer) = header(file);
        let ours = write(&read(file).unwrap(), version, &producer);
        assert_same_bytes(
            &format!("convert {}", file.display()),
            &ours,
            &std::fs::read(file).unwrap(),
        );
    }
    // `encode` of jaxlib's generic text: what jaxlib writes for the same
    // text, at each version the files were written at.
    let encoded = assert_encodes_as_jaxlib(&out, &["convnet", "loops", "mlp"], &[0, 1, 5, 6]);
    assert_eq!(encoded, 15);
    // The custom form `exp.mlir_module()` gives (`<model>.stablehlo.mlir`):
    // parsed, it prints as jaxlib prints its own parse of that text, and
    // `encode` writes what jaxlib writes for it, at each version.
    let texts: Vec<PathBuf> = ["convnet", "loops", "mlp"]
        .iter()
        .map(|m| out.join(format!("{m}.stablehlo.mlir")))
        .collect();
    for text in &texts {
        let oracle = text.with_extension("generic.mlir");
        let oracle = std::fs::read_to_string(&oracle)
            .unwrap_or_else(|e| panic!("{}: {e}", oracle.display()));
        let ours = print_module(&parse_as(text, "-"), PrintOptions::default());
        assert!(
            ours.strip_suffix('\n') == Some(oracle.as_str()),
            "{}: {}",
            text.display(),
            rmlir_tests::first_diff(&oracle, &ours)
        );
    }
    // And printed in the custom form, it is that text.
    let differ: Vec<String> = texts
        .iter()
        .filter_map(|t| custom_print_differs(t).map(|d| format!("{}: {d}", t.display())))
        .collect();
    eprintln!(
        "custom form: {}/{} models print as jaxlib",
        texts.len() - differ.len(),
        texts.len()
    );
    assert!(differ.is_empty(), "{}", differ.join("\n"));
    let mut custom_encoded = 0;
    for (text, version, theirs) in jaxlib_writes(&texts, &[0, 1, 5, 6], &out.join("from-custom")) {
        let theirs = theirs.unwrap_or_else(|e| panic!("{}: {e}", text.display()));
        let ours = write(&parse_as(&text, "-"), version, JAXLIB_PRODUCER);
        assert_same_bytes(
            &format!("encode {} at v{version}", text.display()),
            &ours,
            &theirs,
        );
        custom_encoded += 1;
    }
    assert_eq!(custom_encoded, 12);
}

/// StableHLO's custom form as jaxlib prints it (`print_custom.py`): the
/// compatibility suite's sources, which use every stablehlo op, and our
/// fixtures of chlo ops and of stablehlo's hand-written forms. Each
/// print, parsed, prints generic as jaxlib's parse of it does and in the
/// custom form as that print itself; `encode` of it (`--target mlir-23`)
/// writes jaxlib's bytes for it, and jaxlib's bytes decode to its print.
#[test]
fn stablehlo_custom_form_reads_as_jaxlib() {
    if rmlir_tests::skip_on_sample(
        "stablehlo_custom_form_reads_as_jaxlib",
        "the compatibility suite's `.mlir` sources (5 MB; the sample holds its `.mlir.bc` files)",
    ) {
        return;
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(compat_dir())
        .unwrap_or_else(|e| panic!("{} is required: {e}", compat_dir().display()))
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let n = p.file_name().unwrap().to_string_lossy();
            (n.starts_with("stablehlo_legalize_to_vhlo")
                || n.starts_with("vhlo_to_version_downgrade."))
                && n.ends_with(".mlir")
        })
        .collect();
    files.sort();
    assert_eq!(files.len(), 39, "{files:?}");
    // Our own fixtures, in the forms one writes by hand: each as written
    // is read as jaxlib reads it, and jaxlib's print of it below.
    let fixtures: Vec<PathBuf> = ["chlo.mlir", "forms.mlir", "shapes.mlir"]
        .iter()
        .map(|f| repo().join("tests/fixtures/stablehlo").join(f))
        .collect();
    for (file, oracle) in jaxlib_prints(&fixtures, &tmpdir("custom-fixtures")) {
        let oracle = oracle.unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let ours = print_module(&parse_as(&file, "-"), PrintOptions::default());
        assert!(
            ours.strip_suffix('\n') == Some(oracle.as_str()),
            "{}: {}",
            file.display(),
            rmlir_tests::first_diff(&oracle, &ours)
        );
    }
    files.extend(fixtures);
    let out = tmpdir("custom");
    let script = repo().join("tools/jax-oracle/print_custom.py");
    let status = Command::new(python())
        .arg(&script)
        .arg(&out)
        .args(&files)
        .status()
        .expect("runs jaxlib's Python");
    assert!(status.success(), "{} failed", script.display());
    let mut pretty = Vec::new();
    let mut ops = std::collections::BTreeSet::new();
    for f in &files {
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        let text = out.join(format!("{name}.pretty.mlir"));
        let oracle = std::fs::read_to_string(out.join(format!("{name}.pretty.generic.txt")))
            .unwrap_or_else(|e| panic!("jaxlib printed no {name}: {e}"));
        let m = parse_as(&text, "-");
        let ours = print_module(&m, PrintOptions::default());
        assert!(
            ours.strip_suffix('\n') == Some(oracle.as_str()),
            "{}: {}",
            text.display(),
            rmlir_tests::first_diff(&oracle, &ours)
        );
        // The ops jaxlib printed in their custom form.
        for line in std::fs::read_to_string(&text).unwrap().lines() {
            let word = line.split_whitespace().find(|w| {
                (w.starts_with("stablehlo.") || w.starts_with("chlo.")) && !w.contains('"')
            });
            if let Some(w) = word {
                ops.insert(
                    w.trim_end_matches(|c: char| !c.is_alphanumeric() && c != '_')
                        .to_string(),
                );
            }
        }
        pretty.push(text);
    }
    eprintln!("{} files; {} ops in custom form", pretty.len(), ops.len());
    assert!(ops.len() >= 100, "{ops:?}");
    // Each print, parsed, prints in the custom form as jaxlib printed it.
    let differ: Vec<String> = pretty
        .iter()
        .filter_map(|t| custom_print_differs(t).map(|d| format!("{}: {d}", t.display())))
        .collect();
    eprintln!(
        "custom form: {}/{} files print as jaxlib",
        pretty.len() - differ.len(),
        pretty.len()
    );
    assert!(differ.is_empty(), "{}", differ.join("\n"));
    let mut encoded = 0;
    for (text, version, theirs) in jaxlib_writes(&pretty, &[6], &out.join("bytecode")) {
        let theirs = theirs.unwrap_or_else(|e| panic!("{}: {e}", text.display()));
        let ours = write_for_jaxlib(&parse_for_jaxlib(&text), version);
        assert_same_bytes(&format!("encode {}", text.display()), &ours, &theirs);
        // And jaxlib's bytes decode to jaxlib's print.
        let name = text.file_name().unwrap().to_string_lossy().into_owned();
        let stem = name.strip_suffix(".mlir").unwrap();
        let oracle = text.with_file_name(format!("{stem}.generic.txt"));
        let oracle = std::fs::read_to_string(&oracle).unwrap();
        assert_prints_as_jaxlib(
            &out.join("bytecode").join(format!("{name}.v6.mlirbc")),
            &oracle,
        );
        encoded += 1;
    }
    assert_eq!(encoded, 42);
}

/// Runs `script OUT` with jaxlib's Python; the bytecode files it wrote
/// there, sorted.
fn bytecode_made_by(script: &Path, out: &Path) -> Vec<PathBuf> {
    let status = Command::new(python())
        .arg(script)
        .arg(out)
        .stdout(std::process::Stdio::null())
        .status()
        .expect("runs jaxlib's Python");
    assert!(status.success(), "{} failed", script.display());
    let mut files: Vec<PathBuf> = std::fs::read_dir(out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".mlirbc"))
        .collect();
    files.sort();
    files
}

/// A bytecode file's version and producer.
fn header(file: &Path) -> (u64, String) {
    let data = std::fs::read(file).unwrap();
    assert!(
        data.starts_with(b"ML\xEFR") && data[4] & 1 == 1,
        "{}",
        file.display()
    );
    let producer = data[5..].split(|&b| b == 0).next().unwrap();
    (
        u64::from(data[4] >> 1),
        String::from_utf8(producer.to_vec()).unwrap(),
    )
}

/// The compatibility suite written back: each artifact at its own version
/// is itself; `convert` of each artifact jaxlib reads gives jaxlib's bytes; `encode` of jaxlib's print of it gives
/// bytes jaxlib reads back to that print, and jaxlib's own bytes for that
/// text where jaxlib can parse it and writes it faithfully.
#[test]
fn compat_suite_converts_and_encodes_as_jaxlib() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(compat_dir())
        .unwrap_or_else(|e| panic!("{} is required: {e}", compat_dir().display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".mlir.bc"))
        .collect();
    files.sort();
    // Each artifact (but the refused one) written back at its own version
    // with its own producer is the artifact, byte for byte: what every
    // StableHLO release from 0.9.0 to 1.20.0 wrote, bytecode v0 to v6.
    let mut identical = 0;
    for file in &files {
        let Ok(m) = read(file) else { continue };
        let (version, producer) = header(file);
        let ours = write(&m, version, &producer);
        assert_same_bytes(
            &format!("convert {}", file.display()),
            &ours,
            &std::fs::read(file).unwrap(),
        );
        identical += 1;
    }
    assert_eq!(identical, 33);
    let out = tmpdir("compat-write");
    let print_dir = out.join("print");
    let readable: Vec<(PathBuf, String)> = jaxlib_prints(&files, &print_dir)
        .into_iter()
        .filter_map(|(f, r)| r.ok().map(|t| (f, t)))
        .collect();
    assert_eq!(readable.len(), 30);
    let bcs: Vec<PathBuf> = readable.iter().map(|(f, _)| f.clone()).collect();
    let mut converted = 0;
    for (file, version, theirs) in jaxlib_writes(&bcs, &[6], &out.join("from-bc")) {
        let theirs = theirs.unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let ours = write(&read(&file).unwrap(), version, JAXLIB_PRODUCER);
        assert_same_bytes(&format!("convert {}", file.display()), &ours, &theirs);
        converted += 1;
    }
    let texts: Vec<PathBuf> = readable
        .iter()
        .map(|(f, _)| {
            let name = f.file_name().unwrap().to_string_lossy().into_owned();
            print_dir.join(format!("{name}.txt"))
        })
        .collect();
    let ours_dir = out.join("ours");
    std::fs::create_dir_all(&ours_dir).unwrap();
    let (mut same, mut unparsed) = (0, 0);
    let mut lossy = Vec::new();
    let mut ours_files = Vec::new();
    for (text, version, theirs) in jaxlib_writes(&texts, &[6], &out.join("from-text")) {
        let ours = write(&parse(&text), version, JAXLIB_PRODUCER);
        let name = text.file_name().unwrap().to_string_lossy().into_owned();
        let path = ours_dir.join(format!("{name}.mlirbc"));
        std::fs::write(&path, &ours).unwrap();
        ours_files.push((path, text.clone()));
        match theirs {
            // jaxlib 0.10.2 cannot parse its own print of 15 of these
            // (`!vhlo.tuple_v1<>` of no types).
            Err(_) => unparsed += 1,
            // jaxlib parses `#vhlo.float_v1<1.000000e-03 : !vhlo.f32_v1>`
            // into a double and writes its 64 bits where the type says
            // 32; it reads that back as another number (checked below).
            // We write the f32, as jaxlib does from bytecode.
            Ok(theirs)
                if std::fs::read_to_string(&text)
                    .unwrap()
                    .contains("#vhlo.float_v1<") =>
            {
                assert_ne!(ours, theirs, "{name}");
                let jax = out
                    .join("from-text")
                    .join(format!("{name}.v{version}.mlirbc"));
                lossy.push((jax, text.clone()));
            }
            Ok(theirs) => {
                assert_same_bytes(&format!("encode {name}"), &ours, &theirs);
                same += 1;
            }
        }
    }
    // jaxlib reads every file we wrote back to the text we wrote it from.
    let paths: Vec<PathBuf> = ours_files.iter().map(|(p, _)| p.clone()).collect();
    for ((path, text), (_, back)) in ours_files
        .iter()
        .zip(jaxlib_prints(&paths, &out.join("back")))
    {
        let back = back.unwrap_or_else(|e| panic!("jaxlib cannot read {}: {e}", path.display()));
        assert!(
            back == std::fs::read_to_string(text).unwrap(),
            "jaxlib reads {} as another module",
            path.display()
        );
    }
    // jaxlib's own bytes for the texts with float_v1 do not read back to
    // them: the difference is jaxlib's loss, not ours.
    let jax: Vec<PathBuf> = lossy.iter().map(|(j, _)| j.clone()).collect();
    for ((_, text), (file, back)) in lossy.iter().zip(jaxlib_prints(&jax, &out.join("jax-back"))) {
        let back = back.unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        assert!(
            back != std::fs::read_to_string(text).unwrap(),
            "{}",
            file.display()
        );
    }
    eprintln!(
        "compatibility suite written: {identical}/33 artifacts written back at their own version are themselves; convert {converted}/30 as jaxlib; encode of jaxlib's print: \
         {same} as jaxlib, {} where jaxlib's own bytes lose float_v1 values, {unparsed} jaxlib cannot parse; \
         jaxlib reads all {} of ours back to the same text",
        lossy.len(),
        ours_files.len()
    );
    assert_eq!(converted, 30);
    assert_eq!((same, lossy.len(), unparsed), (1, 14, 15));
}

#[test]
fn stablehlo_attribute_kinds_print_and_write_as_jaxlib() {
    let out = tmpdir("fixture");
    let fixture = repo().join("tests/fixtures/stablehlo_attrs.mlir");
    let written = jaxlib_writes(std::slice::from_ref(&fixture), &[1, 6], &out);
    let files: Vec<PathBuf> = written
        .iter()
        .map(|(_, v, r)| {
            r.as_ref().expect("jaxlib writes the fixture");
            out.join(format!("stablehlo_attrs.mlir.v{v}.mlirbc"))
        })
        .collect();
    for (file, oracle) in jaxlib_prints(&files, &out.join("oracle")) {
        let oracle = oracle.expect("jaxlib reads what it wrote");
        // Written back from what we read: jaxlib's bytes.
        let version = header(&file).0;
        let theirs = std::fs::read(&file).unwrap();
        let ours = write(&read(&file).unwrap(), version, JAXLIB_PRODUCER);
        assert_same_bytes(&format!("convert {}", file.display()), &ours, &theirs);
        // And from jaxlib's generic print of it: what jaxlib writes for
        // that text.
        let text = out.join(format!("generic.v{version}.mlir"));
        std::fs::write(&text, &oracle).unwrap();
        let from_text = jaxlib_writes(std::slice::from_ref(&text), &[version], &out.join("text"));
        let theirs = from_text[0].2.as_ref().expect("jaxlib parses its print");
        let ours = write(&parse(&text), version, JAXLIB_PRODUCER);
        assert_same_bytes(&format!("encode {}", text.display()), &ours, theirs);
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

/// Exports shaped like what people ship (`tools/jax-oracle/export_models.py`:
/// attention in bf16, sorts and linalg custom calls with Shardy sharding
/// rules, FFTs and random numbers over mixed element types, a
/// shape-polymorphic export, a function sharded over a mesh with Shardy's
/// mesh and shardings), each as a portable artifact and as StableHLO
/// bytecode at v6 and v1: our print is jaxlib's, `convert` at the file's
/// version and producer is the file, and `encode` of jaxlib's generic text
/// is jaxlib's bytes for that text; in the custom form, the StableHLO
/// bytecode prints as jaxlib prints it.
#[test]
fn exported_models_print_convert_and_encode_as_jaxlib() {
    let out = tmpdir("models");
    let files = bytecode_made_by(&repo().join("tools/jax-oracle/export_models.py"), &out);
    assert_eq!(files.len(), 15, "{files:?}");
    let (mut with_sdy, mut sharded) = (0, 0);
    for (file, oracle) in jaxlib_prints(&files, &out.join("oracle")) {
        let oracle = oracle.unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        with_sdy += usize::from(oracle.contains("#sdy.op_sharding_rule<"));
        sharded += usize::from(
            oracle.contains("\"sdy.mesh\"") && oracle.contains("#sdy.sharding<@mesh, [{\"x\"}"),
        );
        assert_prints_as_jaxlib(&file, &oracle);
        let (version, producer) = header(&file);
        let ours = write(&read(&file).unwrap(), version, &producer);
        assert_same_bytes(
            &format!("convert {}", file.display()),
            &ours,
            &std::fs::read(&file).unwrap(),
        );
    }
    // The linalg custom calls carry Shardy rules, and the sharded function
    // a mesh and shardings, in all three forms.
    assert_eq!((with_sdy, sharded), (3, 3));
    let models = ["attention", "sorts", "fftrng", "sharded", "poly"];
    assert_eq!(assert_encodes_as_jaxlib(&out, &models, &[1, 6]), 15);
    // `decode --custom` of each model's StableHLO bytecode is jaxlib's
    // custom print of it (`print_custom.py`), but for the sharded model:
    // jaxlib prints its sdy ops in their custom form, which we print
    // generic.
    let bytecode: Vec<PathBuf> = models
        .iter()
        .map(|m| out.join(format!("{m}.stablehlo.mlirbc")))
        .collect();
    let script = repo().join("tools/jax-oracle/print_custom.py");
    let status = Command::new(python())
        .arg(&script)
        .arg(out.join("custom"))
        .args(&bytecode)
        .status()
        .expect("runs jaxlib's Python");
    assert!(status.success(), "{} failed", script.display());
    let mut differ = Vec::new();
    for file in &bytecode {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let theirs = out.join("custom").join(format!("{name}.pretty.mlir"));
        let theirs = std::fs::read_to_string(&theirs)
            .unwrap_or_else(|e| panic!("{}: {e}", theirs.display()));
        let ours = print_custom(&read(file).unwrap());
        if ours.strip_suffix('\n') != Some(theirs.as_str()) {
            differ.push(name);
        }
    }
    eprintln!(
        "custom form: {}/{} models' bytecode prints as jaxlib",
        bytecode.len() - differ.len(),
        bytecode.len()
    );
    assert_eq!(differ, ["sharded.stablehlo.mlirbc"]);
}

/// `encode` of jaxlib's generic text of each model (`<model>.stablehlo`
/// at `versions` and `<model>.vhlo` at v6, in `out`) is jaxlib's bytes for
/// that text; the number of files compared.
fn assert_encodes_as_jaxlib(out: &Path, models: &[&str], versions: &[u64]) -> usize {
    let mut encoded = 0;
    for (kind, versions) in [("stablehlo", versions), ("vhlo", &[6][..])] {
        let texts: Vec<PathBuf> = models
            .iter()
            .map(|m| out.join(format!("{m}.{kind}.generic.mlir")))
            .collect();
        for (text, version, theirs) in jaxlib_writes(&texts, versions, &out.join("from-text")) {
            let theirs = theirs.unwrap_or_else(|e| panic!("{}: {e}", text.display()));
            let ours = write(&parse(&text), version, JAXLIB_PRODUCER);
            assert_same_bytes(
                &format!("encode {} at v{version}", text.display()),
                &ours,
                &theirs,
            );
            encoded += 1;
        }
    }
    encoded
}

/// A `stablehlo.constant` whose result type is not its value's (as a
/// quantized constant's is) has no custom form here: it prints generic,
/// in jaxlib's terms, and the print reads back as the same IR; its
/// well-typed neighbour prints `stablehlo.constant dense<…> : …`.
#[test]
fn stablehlo_constant_of_another_type_prints_generic() {
    let dir = tmpdir("constant-types");
    let text = dir.join("constants.mlir");
    std::fs::write(
        &text,
        "\"func.func\"() <{function_type = () -> (tensor<2xi32>, tensor<2xi64>), sym_name = \"f\"}> ({\n\
         \x20 %0 = \"stablehlo.constant\"() <{value = dense<1> : tensor<2xi32>}> : () -> tensor<2xi32>\n\
         \x20 %1 = \"stablehlo.constant\"() <{value = dense<1> : tensor<2xi32>}> : () -> tensor<2xi64>\n\
         \x20 \"func.return\"(%0, %1) : (tensor<2xi32>, tensor<2xi64>) -> ()\n\
         }) : () -> ()\n",
    )
    .unwrap();
    let m = parse_for_jaxlib(&text);
    let ours = print_custom(&m);
    assert!(
        ours.contains("= stablehlo.constant dense<1> : tensor<2xi32>"),
        "{ours}"
    );
    assert!(
        ours.contains(
            "= \"stablehlo.constant\"() <{value = dense<1> : tensor<2xi32>}> : () -> tensor<2xi64>"
        ),
        "{ours}"
    );
    let back = dir.join("back.mlir");
    std::fs::write(&back, &ours).unwrap();
    let generic = |m: &Module| print_module(m, PrintOptions::default());
    assert_eq!(generic(&parse_for_jaxlib(&back)), generic(&m));
}
