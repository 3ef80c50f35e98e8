//! End-to-end tests of the `rmlir-bc` binary: every subcommand on corpus
//! files, bad input, exit codes, and atomic output.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_rmlir-bc"))
}

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus")
}

fn run(args: &[&str]) -> Output {
    bin().args(args).output().expect("runs rmlir-bc")
}

fn tmpdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("rmlir-cli-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn decode_text_and_bytecode_match_mlir_opt_outputs() {
    let case = corpus().join("cases/Analysis__DataFlow__test-liveness-analysis__c001");
    let expected = std::fs::read(case.join("generic.mlir")).unwrap();
    for input in ["generic.mlir", "v6.mlirbc"] {
        let out = run(&["decode", case.join(input).to_str().unwrap()]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(out.stdout, expected, "decode {input}");
    }
    let local = std::fs::read(case.join("local.mlir")).unwrap();
    let out = run(&[
        "decode",
        "--local-scope",
        case.join("generic.mlir").to_str().unwrap(),
    ]);
    assert_eq!(out.stdout, local);
}

#[test]
fn decode_reads_standard_input() {
    let case = corpus().join("cases/Analysis__DataFlow__test-liveness-analysis__c001");
    let expected = std::fs::read(case.join("generic.mlir")).unwrap();
    let data = std::fs::read(case.join("v6.mlirbc")).unwrap();
    let mut child = bin()
        .args(["decode", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child.stdin.take().unwrap().write_all(&data).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    assert_eq!(out.stdout, expected);
}

#[test]
fn decode_writes_output_atomically() {
    let dir = tmpdir("atomic");
    let case = corpus().join("cases/Analysis__DataFlow__test-liveness-analysis__c001");
    let target = dir.join("out.mlir");
    std::fs::write(&target, b"previous contents").unwrap();
    // A failing run leaves the existing output untouched and no temp file.
    let bad = dir.join("bad.mlirbc");
    std::fs::write(&bad, b"ML\xEFR\x0d").unwrap();
    let out = run(&[
        "decode",
        bad.to_str().unwrap(),
        "-o",
        target.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(std::fs::read(&target).unwrap(), b"previous contents");
    // A successful run replaces it completely.
    let out = run(&[
        "decode",
        case.join("v6.mlirbc").to_str().unwrap(),
        "-o",
        target.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    assert_eq!(
        std::fs::read(&target).unwrap(),
        std::fs::read(case.join("generic.mlir")).unwrap()
    );
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().contains(".tmp-"))
        .collect();
    assert!(leftovers.is_empty(), "temporary files left: {leftovers:?}");
    // An output directory that does not exist is a clean error.
    let out = run(&[
        "decode",
        case.join("v6.mlirbc").to_str().unwrap(),
        "-o",
        dir.join("no/such/dir/x.mlir").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot write"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_inputs_give_diagnostics_and_exit_1() {
    let dir = tmpdir("bad");
    let text = dir.join("bad.mlir");
    std::fs::write(&text, "\"a.b\"(%x) : (i32) -> ()\n").unwrap();
    let out = run(&["decode", text.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(":1:7: error: use of undeclared SSA value name '%x'"),
        "{err}"
    );
    assert!(out.stdout.is_empty());

    let bc = corpus().join("upstream-bytecode/invalid/invalid-string_section-large_string.mlirbc");
    let out = run(&["decode", bc.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("string size exceeds the available data size")
            && err.contains("String section, at byte offset"),
        "{err}"
    );

    let out = run(&["decode", dir.join("missing.mlir").to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read"));

    let out = run(&["info", text.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not an MLIR bytecode file"));

    let out = run(&["no-such-command"]);
    assert_eq!(out.status.code(), Some(2), "clap usage errors exit with 2");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn info_reports_tables_and_symbols_without_decoding_bodies() {
    let case = corpus().join("real-client/cases/stablehlo-transformer-args/v6.mlirbc");
    let out = run(&["info", "--json", case.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("valid JSON");
    assert_eq!(v["version"], 6);
    assert_eq!(v["producer"], "MLIR22.1.8");
    assert_eq!(
        v["region_bodies_decoded"], 1,
        "only the module body is decoded"
    );
    let syms: Vec<&str> = v["top_level"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["symbol"].as_str())
        .collect();
    assert!(syms.contains(&"main"), "{syms:?}");
    assert!(v["sections"].as_array().unwrap().len() >= 8);
    let out = run(&["info", case.to_str().unwrap()]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with("bytecode version 6 (producer \"MLIR22.1.8\")"),
        "{text}"
    );
    assert!(text.contains("top-level operations"));
}

#[test]
fn help_lists_examples() {
    let out = run(&["decode", "--help"]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("Example: rmlir-bc decode"));
}

#[test]
fn encode_writes_mlir_opt_bytes_and_refuses_lossy_versions() {
    let dir = tmpdir("encode");
    let case = corpus().join("cases/Analysis__DataFlow__test-liveness-analysis__c001");
    let expected = std::fs::read(case.join("v6.mlirbc")).unwrap();
    let out_path = dir.join("out.mlirbc");
    let out = run(&[
        "encode",
        case.join("generic.mlir").to_str().unwrap(),
        "-o",
        out_path.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        std::fs::read(&out_path).unwrap(),
        expected,
        "bytes equal mlir-opt's --emit-bytecode"
    );
    // Bytecode in, bytecode out, and decode gives the text back.
    let out = run(&["encode", out_path.to_str().unwrap()]);
    assert!(out.status.success());
    assert_eq!(out.stdout, expected);
    // Unregistered-op properties cannot be written below v5: an error, not a drop.
    let props = dir.join("props.mlir");
    std::fs::write(&props, "\"foo.op\"() <{a = 1 : i32}> : () -> ()\n").unwrap();
    let out = run(&[
        "encode",
        props.to_str().unwrap(),
        "--emit-version",
        "4",
        "-o",
        dir.join("p.mlirbc").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(!dir.join("p.mlirbc").exists(), "no output on failure");
    assert!(!String::from_utf8_lossy(&out.stderr).is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}
