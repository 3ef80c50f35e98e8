//! Dialect versioning (SPEC.md §9).
//!
//! * Upstream's versioning files (`../shared/corpus/upstream-bytecode/
//!   versioning/*.mlirbc`, written by older builds of MLIR's test dialect):
//!   each decodes and upgrades to what mlir-opt 22 prints for it, or is
//!   rejected with mlir-opt 22's error; each readable one re-encodes to
//!   mlir-opt 22's own bytes (mlir-opt run in the test).
//! * The example dialect `vdemo` (`examples/versioned_dialect.rs`): a 1.0
//!   file (renamed attribute, old type encoding) upgrades on read and
//!   re-encodes as 2.0 byte for byte like a file written at 2.0; a file
//!   newer than the dialect knows is rejected.

#[path = "../../examples/versioned_dialect.rs"]
mod versioned_dialect;

use rmlir_format::dialect_hooks::DialectRegistry;
use rmlir_format::op_registry::OpRegistry;
use rmlir_reader::BytecodeReader;
use rmlir_tests::{corpus_dir, oracle};
use rmlir_writer::{print_module, write_bytecode, write_bytecode_with, WriteOptions};
use std::sync::Arc;

#[test]
fn upstream_versioning_files_upgrade_like_mlir_opt() {
    let dir = corpus_dir().join("upstream-bytecode");
    let table = std::fs::read_to_string(dir.join("expectations.tsv")).expect("expectations.tsv");
    let mut files: Vec<String> = table
        .lines()
        .skip(1)
        .map(|l| l.split('\t').next().unwrap().to_string())
        .filter(|f| f.starts_with("versioning/"))
        .collect();
    files.dedup();
    let mut passed = 0;
    let mut problems = Vec::new();
    for file in &files {
        let path = dir.join(file);
        let data = std::fs::read(&path).unwrap();
        let stem = file
            .trim_start_matches("versioning/")
            .trim_end_matches(".mlirbc");
        let generic = dir.join(format!("versioning/mlir-opt22/{stem}.generic.mlir"));
        let ours = rmlir_reader::read_bytecode(&data);
        match std::fs::read_to_string(&generic) {
            Ok(expected) => {
                let m = match ours {
                    Ok(m) => m,
                    Err(e) => {
                        problems.push(format!("{file}: mlir-opt reads it, we fail: {e}"));
                        continue;
                    }
                };
                let printed = print_module(&m, Default::default());
                if printed != expected {
                    problems.push(format!("{file}: decoded differently:\n{printed}"));
                    continue;
                }
                // Re-encoding: mlir-opt writes the upgraded IR at the
                // current dialect version; so do we.
                let tmp = std::env::temp_dir().join(format!(
                    "rmlir-versioning-{}-{stem}.mlirbc",
                    std::process::id()
                ));
                oracle::run(&[
                    "--emit-bytecode",
                    path.to_str().unwrap(),
                    "-o",
                    tmp.to_str().unwrap(),
                ])
                .expect("mlir-opt re-encodes it");
                let theirs = std::fs::read(&tmp).unwrap();
                let _ = std::fs::remove_file(&tmp);
                let ours = write_bytecode(&m, &WriteOptions::default()).unwrap();
                if ours != theirs {
                    problems.push(format!("{file}: re-encoded bytes differ from mlir-opt's"));
                    continue;
                }
                // Older bytecode versions: mlir-opt's bytes, or a refusal
                // where the version cannot hold a non-attribute property
                // (mlir-opt drops it silently).
                for v in [0u64, 4] {
                    let opts = WriteOptions {
                        version: v,
                        ..Default::default()
                    };
                    oracle::emit_bytecode(&path, v, &tmp).expect("mlir-opt writes old versions");
                    let theirs = std::fs::read(&tmp).unwrap();
                    let _ = std::fs::remove_file(&tmp);
                    match write_bytecode(&m, &opts) {
                        Ok(ours) if ours == theirs => {}
                        Ok(_) => {
                            problems.push(format!("{file}: v{v} bytes differ from mlir-opt's"))
                        }
                        Err(e) if e.to_string().contains("it would be lost") => {}
                        Err(e) => problems.push(format!("{file}: v{v}: {e}")),
                    }
                }
                passed += 1;
            }
            Err(_) => {
                // mlir-opt 22 rejects it: the first error line it printed.
                let says = table
                    .lines()
                    .find(|l| l.starts_with(file.as_str()))
                    .and_then(|l| l.split('\t').nth(7))
                    .unwrap()
                    .to_string();
                match ours {
                    Ok(_) => {
                        problems.push(format!("{file}: mlir-opt rejects it ({says}); we read it"))
                    }
                    Err(e) if e.to_string().contains(&says) => passed += 1,
                    Err(e) => problems.push(format!(
                        "{file}: rejected, but not with mlir-opt's '{says}': {e}"
                    )),
                }
            }
        }
    }
    println!(
        "upstream versioning files handled like mlir-opt 22: {passed}/{}",
        files.len()
    );
    assert!(files.len() >= 9, "the versioning files are missing");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

fn hooks() -> &'static DialectRegistry {
    static R: std::sync::OnceLock<DialectRegistry> = std::sync::OnceLock::new();
    R.get_or_init(|| {
        let mut r = rmlir_dialects::upstream().clone();
        r.register(Arc::new(versioned_dialect::VDemo));
        r
    })
}

const V1_TEXT: &str = r#""builtin.module"() ({
  %0 = "vdemo.grid"() {dimensions = 3 : i64} : () -> !vdemo.vec<4 x f32>
  "vdemo.use"(%0) : (!vdemo.vec<4 x f32>) -> ()
}) : () -> ()
"#;

fn write(m: &rmlir_format::Module, vdemo: Option<&str>) -> Vec<u8> {
    let opts = WriteOptions {
        dialect_versions: vdemo
            .map(|v| vec![("vdemo".to_string(), v.to_string())])
            .unwrap_or_default(),
        ..Default::default()
    };
    write_bytecode_with(m, &opts, OpRegistry::default_ref(), hooks()).unwrap()
}

fn read(data: &[u8]) -> rmlir_reader::Result<rmlir_format::Module> {
    let mut r = BytecodeReader::open_with_dialects(data, OpRegistry::default_ref(), hooks(), None)?;
    r.materialize_all()?;
    Ok(r.into_module())
}

#[test]
fn example_dialect_upgrades_version_1_files() {
    let old = rmlir_reader::parse_module(V1_TEXT.as_bytes(), "v1.mlir").unwrap();
    let v1 = write(&old, Some("1.0"));
    // The file says vdemo 1.0 (VarInts 1, 0 → bytes 0x03 0x01).
    let r =
        BytecodeReader::open_with_dialects(&v1, OpRegistry::default_ref(), hooks(), None).unwrap();
    let declared: Vec<_> = r.dialects().filter(|(n, _)| *n == b"vdemo").collect();
    assert_eq!(declared, vec![(&b"vdemo"[..], Some(&[0x03u8, 0x01][..]))]);
    drop(r);

    // Read with the hook: `dimensions` is renamed, the type decodes from
    // its 1.0 layout.
    let upgraded = read(&v1).unwrap();
    let text = print_module(&upgraded, Default::default());
    assert!(text.contains("\"vdemo.grid\"() {dims = 3 : i64} : () -> !vdemo.vec<4 x f32>"));
    assert!(!text.contains("dimensions"));

    // Written again at the current version it equals a 2.0 file made from
    // the 2.0 shape directly.
    let v2_text = V1_TEXT.replace("dimensions", "dims");
    let new = rmlir_reader::parse_module(v2_text.as_bytes(), "v1.mlir").unwrap();
    let v2 = write(&new, None);
    assert!(
        write(&upgraded, None) == v2,
        "upgrade + write differs from a 2.0 file"
    );
    assert!(v1 != v2, "the two versions must differ on the wire");
    // And a 2.0 file reads back unchanged.
    assert_eq!(
        print_module(&read(&v2).unwrap(), Default::default()),
        print_module(&new, Default::default())
    );
}

#[test]
fn example_dialect_rejects_newer_files() {
    // Only an op of the dialect (no custom type), so that a reader
    // without the hook can read it too.
    let text =
        "\"builtin.module\"() ({\n  \"vdemo.grid\"() {dims = 3 : i64} : () -> ()\n}) : () -> ()\n";
    let m = rmlir_reader::parse_module(text.as_bytes(), "x").unwrap();
    let mut bc = write(&m, None);
    // Patch the version payload 2.0 (VarInts 2, 0: 0x05 0x01) to 3.0.
    let at = {
        let r = BytecodeReader::open_with_dialects(&bc, OpRegistry::default_ref(), hooks(), None)
            .unwrap();
        let (_, payload) = r.dialects().find(|(n, _)| *n == b"vdemo").unwrap();
        let payload = payload.expect("vdemo writes a version");
        assert_eq!(payload, [0x05, 0x01]);
        payload.as_ptr() as usize - bc.as_ptr() as usize
    };
    bc[at] = 0x07;
    let err = read(&bc).unwrap_err().to_string();
    assert!(
        err.contains("vdemo version 3.0 is newer than 2.0, the newest this reader knows"),
        "{err}"
    );
    // Without the hook the version is kept as bytes and written back.
    let plain = rmlir_reader::read_bytecode(&bc).unwrap();
    assert_eq!(
        plain.dialect_versions,
        vec![(b"vdemo"[..].into(), vec![0x07, 0x01])]
    );
    assert!(write_bytecode(&plain, &WriteOptions::default()).unwrap() == bc);
}

#[test]
fn requested_versions_are_checked() {
    let m = rmlir_reader::parse_module(V1_TEXT.as_bytes(), "x").unwrap();
    let opts = WriteOptions {
        dialect_versions: vec![("vdemo".into(), "7.0".into())],
        ..Default::default()
    };
    let e = write_bytecode_with(&m, &opts, OpRegistry::default_ref(), hooks()).unwrap_err();
    assert!(
        e.to_string()
            .contains("vdemo knows versions 1.x and 2.0, not 7.0"),
        "{e}"
    );
    let opts = WriteOptions {
        dialect_versions: vec![("nosuch".into(), "1.0".into())],
        ..Default::default()
    };
    let e = write_bytecode(&m, &opts).unwrap_err();
    assert!(
        e.to_string().contains("no bytecode hooks are registered"),
        "{e}"
    );
}
