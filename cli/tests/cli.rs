//! End-to-end tests of the `rmlir-bc` binary: every subcommand on corpus
//! files, bad input, exit codes, and atomic output.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_rmlir-bc"))
}

fn corpus() -> PathBuf {
    rmlir_tests::corpus_dir()
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
    // --fsync flushes before the rename; the bytes are the same.
    let synced = dir.join("synced.mlir");
    let out = run(&[
        "decode",
        "--fsync",
        case.join("v6.mlirbc").to_str().unwrap(),
        "-o",
        synced.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    assert_eq!(
        std::fs::read(&synced).unwrap(),
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

/// Only regular files are replaced by rename: a FIFO (like `/dev/null` or
/// any device) is written in place and stays what it was, a symbolic link
/// keeps pointing at the file it names, and a replaced file keeps its mode.
#[test]
fn output_to_fifo_symlink_and_existing_mode() {
    use std::os::unix::fs::{FileTypeExt, PermissionsExt};
    let dir = tmpdir("special-outputs");
    let case = corpus().join("cases/Analysis__DataFlow__test-liveness-analysis__c001");
    let input = case.join("v6.mlirbc");
    let expected = std::fs::read(case.join("generic.mlir")).unwrap();

    let fifo = dir.join("pipe");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success(), "mkfifo failed");
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read(fifo).unwrap())
    };
    let out = run(&[
        "decode",
        input.to_str().unwrap(),
        "-o",
        fifo.to_str().unwrap(),
    ]);
    ok(&out);
    // Checked before joining: a replaced FIFO never gets a writer.
    let kind = std::fs::symlink_metadata(&fifo).unwrap().file_type();
    assert!(kind.is_fifo(), "the FIFO was replaced by a {kind:?}");
    assert_eq!(reader.join().unwrap(), expected);

    let real = dir.join("real.mlir");
    std::fs::write(&real, b"old").unwrap();
    std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o640)).unwrap();
    let link = dir.join("link.mlir");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let out = run(&[
        "decode",
        input.to_str().unwrap(),
        "-o",
        link.to_str().unwrap(),
    ]);
    ok(&out);
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(std::fs::read(&real).unwrap(), expected);
    let mode = std::fs::metadata(&real).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o640);
    assert!(temp_leftovers(&dir).is_empty());
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
        v["region_bodies_decoded"], 0,
        "the module body is scanned, not decoded"
    );
    assert_eq!(v["nested_bodies_decoded"], 0);
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
fn help_lists_examples_for_every_subcommand() {
    for sub in ["decode", "encode", "convert", "upgrade", "verify", "info"] {
        let out = run(&[sub, "--help"]);
        assert!(out.status.success(), "{sub} --help");
        let help = String::from_utf8_lossy(&out.stdout);
        assert!(
            help.contains("Examples:") && help.contains(&format!("rmlir-bc {sub} ")),
            "{sub} --help has no examples:\n{help}"
        );
    }
    let out = run(&["--help"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("Exit status: 0 success"));
    assert!(String::from_utf8_lossy(&run(&["--help"]).stdout).contains("upgrade"));
    // Usage errors exit with 2: a missing required argument, a bad value.
    assert_eq!(run(&["convert", "x.mlirbc"]).status.code(), Some(2));
    assert_eq!(
        run(&["encode", "x.mlir", "--compress", "gzip"])
            .status
            .code(),
        Some(2)
    );
    assert_eq!(run(&["verify"]).status.code(), Some(2));
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

const LIVENESS: &str = "cases/Analysis__DataFlow__test-liveness-analysis__c001";

fn ok(out: &Output) -> &Output {
    assert!(
        out.status.success(),
        "exit {:?}: {}",
        out.status.code(),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Runs with `stdin` piped in.
fn run_stdin(args: &[&str], stdin: &[u8]) -> Output {
    use std::io::Write;
    let mut child = bin()
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    child.wait_with_output().unwrap()
}

fn temp_leftovers(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".tmp-"))
        .collect()
}

#[test]
fn convert_changes_versions_and_keeps_the_producer() {
    let dir = tmpdir("convert");
    let case = corpus().join(LIVENESS);
    let v6 = case.join("v6.mlirbc");
    // A producer of our own, so keeping it is visible.
    let acme = dir.join("acme.mlirbc");
    ok(&run(&[
        "encode",
        v6.to_str().unwrap(),
        "--producer",
        "acme-7",
        "-o",
        acme.to_str().unwrap(),
    ]));
    let generic = std::fs::read(case.join("generic.mlir")).unwrap();
    for version in 0..=6u32 {
        let out_path = dir.join(format!("v{version}.mlirbc"));
        ok(&run(&[
            "convert",
            acme.to_str().unwrap(),
            "-o",
            out_path.to_str().unwrap(),
            "--emit-version",
            &version.to_string(),
        ]));
        let info = ok(&run(&["info", "--json", out_path.to_str().unwrap()]))
            .stdout
            .clone();
        let v: serde_json::Value = serde_json::from_slice(&info).unwrap();
        assert_eq!(v["version"], version);
        assert_eq!(
            v["producer"], "acme-7",
            "convert keeps the input's producer"
        );
        ok(&run(&["verify", "-q", out_path.to_str().unwrap()]));
        // This module has no properties, so every version reads back the same.
        let text = ok(&run(&["decode", out_path.to_str().unwrap()]))
            .stdout
            .clone();
        assert_eq!(text, generic, "decode of v{version}");
    }
    // Back to v6 with mlir-opt's producer: mlir-opt's bytes again.
    let out = ok(&run(&[
        "convert",
        dir.join("v2.mlirbc").to_str().unwrap(),
        "-o",
        "-",
        "--emit-version",
        "6",
        "--producer",
        "MLIR22.1.8",
    ]))
    .stdout
    .clone();
    assert_eq!(out, std::fs::read(&v6).unwrap());
    // Text input is accepted (and gets mlir-opt's producer).
    let out = ok(&run_stdin(
        &["convert", "-", "-o", "-", "--emit-version", "6"],
        &generic,
    ))
    .stdout
    .clone();
    assert_eq!(out, std::fs::read(&v6).unwrap());
    // A version that cannot hold the IR: an error, and no output file.
    let props = dir.join("props.mlir");
    std::fs::write(&props, "\"foo.op\"() <{a = 1 : i32}> : () -> ()\n").unwrap();
    let target = dir.join("props.mlirbc");
    let out = run(&[
        "convert",
        props.to_str().unwrap(),
        "-o",
        target.to_str().unwrap(),
        "--emit-version",
        "4",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(!target.exists());
    assert!(temp_leftovers(&dir).is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn zstd_frames_are_written_and_read_by_every_command() {
    let dir = tmpdir("zstd");
    let case = corpus().join("real-client/cases/stablehlo-transformer-args");
    let v6 = std::fs::read(case.join("v6.mlirbc")).unwrap();
    let zst = dir.join("m.mlirbc.zst");
    ok(&run(&[
        "encode",
        case.join("v6.mlirbc").to_str().unwrap(),
        "--compress",
        "zstd",
        "-o",
        zst.to_str().unwrap(),
    ]));
    let packed = std::fs::read(&zst).unwrap();
    assert_eq!(&packed[..4], &[0x28, 0xB5, 0x2F, 0xFD], "zstd magic");
    assert!(packed.len() < v6.len(), "{} >= {}", packed.len(), v6.len());
    assert_eq!(
        zstd::decode_all(&packed[..]).unwrap(),
        v6,
        "a plain zstd frame around mlir-opt's bytes"
    );
    // decode, verify, info and convert read it directly, from files and stdin.
    let generic = std::fs::read(case.join("generic.mlir")).unwrap();
    assert_eq!(ok(&run(&["decode", zst.to_str().unwrap()])).stdout, generic);
    assert_eq!(ok(&run_stdin(&["decode", "-"], &packed)).stdout, generic);
    let out = ok(&run(&["verify", zst.to_str().unwrap()])).stdout.clone();
    assert!(
        String::from_utf8_lossy(&out).contains("valid: bytecode v6"),
        "{}",
        String::from_utf8_lossy(&out)
    );
    let via_stdin = ok(&run_stdin(&["info", "-"], &packed)).stdout.clone();
    assert!(String::from_utf8_lossy(&via_stdin).contains("zstd-compressed"));
    let info = ok(&run(&["info", "--json", zst.to_str().unwrap()]))
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&info).unwrap();
    assert_eq!(v["file_bytes"], v6.len());
    assert_eq!(v["zstd_compressed_bytes"], packed.len());
    let plain = ok(&run(&[
        "convert",
        zst.to_str().unwrap(),
        "-o",
        "-",
        "--emit-version",
        "6",
    ]))
    .stdout
    .clone();
    assert_eq!(plain, v6);
    // Text can be compressed too; convert can compress.
    // mlir-opt's bytes from its text: stablehlo written as mlir-opt 22,
    // which does not know it, writes it.
    let text_zst = zstd::encode_all(&generic[..], 3).unwrap();
    let out = ok(&run_stdin(
        &[
            "convert",
            "-",
            "-o",
            "-",
            "--emit-version",
            "6",
            "--compress",
            "zstd",
            "--upstream-only",
        ],
        &text_zst,
    ))
    .stdout
    .clone();
    assert_eq!(zstd::decode_all(&out[..]).unwrap(), v6);
    // By default stablehlo is written as jaxlib writes it: registered ops,
    // custom attribute encodings (smaller), the same module read back.
    let as_jaxlib = ok(&run_stdin(
        &["convert", "-", "-o", "-", "--emit-version", "6"],
        &generic,
    ))
    .stdout
    .clone();
    assert!(
        as_jaxlib.len() < v6.len(),
        "{} >= {}",
        as_jaxlib.len(),
        v6.len()
    );
    assert_eq!(ok(&run_stdin(&["decode", "-"], &as_jaxlib)).stdout, generic);
    // A damaged frame is an error with a diagnostic, not a panic.
    let mut bad = packed.clone();
    bad.truncate(packed.len() / 2);
    let bad_path = dir.join("bad.mlirbc.zst");
    std::fs::write(&bad_path, &bad).unwrap();
    for sub in ["decode", "verify", "info"] {
        let out = run(&[sub, bad_path.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(1), "{sub}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("cannot decompress"),
            "{}",
            stderr(&out)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn verify_accepts_corpus_files_and_reports_structural_errors() {
    let dir = tmpdir("verify");
    // Valid: bytecode (every lazily loaded body materialized) and text.
    let rc = corpus().join("real-client/cases/stablehlo-transformer-args");
    let out = ok(&run(&["verify", rc.join("v6.mlirbc").to_str().unwrap()]))
        .stdout
        .clone();
    let line = String::from_utf8_lossy(&out).into_owned();
    assert!(line.contains(": valid: bytecode v6"), "{line}");
    assert!(!line.contains(" 0 lazily loaded bodies"), "{line}");
    for case in [
        LIVENESS,
        "cases/Conversion__ArmSMEToSCF__arm-sme-to-scf__c000",
    ] {
        for f in ["v6.mlirbc", "generic.mlir"] {
            let p = corpus().join(case).join(f);
            ok(&run(&["verify", "--quiet", p.to_str().unwrap()]));
        }
    }
    let quiet = ok(&run(&[
        "verify",
        "-q",
        corpus().join(LIVENESS).join("v6.mlirbc").to_str().unwrap(),
    ]))
    .stdout
    .clone();
    assert!(quiet.is_empty());

    // Invalid structure the parsers accept, as text and as bytecode.
    let cases = [
        (
            "succ",
            "\"func.func\"() <{function_type = () -> (), sym_name = \"f\"}> ({\n  \"cf.br\"()[^bb1] : () -> ()\n  \"foo.after\"() : () -> ()\n^bb1:\n  \"func.return\"() : () -> ()\n}) : () -> ()\n",
            "succ.mlir:2:3: error: 'cf.br' op operation with block successors must terminate its parent block",
        ),
        (
            "entry",
            "\"foo.op\"() ({\n^bb0:\n  \"foo.br\"()[^bb0] : () -> ()\n}) : () -> ()\n",
            "entry.mlir:3:3: error: 'foo.br' op successor #0 is the entry block of its region, which may not have predecessors",
        ),
        (
            "iso",
            "%0 = \"foo.def\"() : () -> i32\n\"func.func\"() <{function_type = () -> (), sym_name = \"f\"}> ({\n  \"foo.use\"(%0) : (i32) -> ()\n  \"func.return\"() : () -> ()\n}) : () -> ()\n",
            "iso.mlir:3:3: error: 'foo.use' op operand #0 uses a value defined above 'func.func', which is isolated from above",
        ),
    ];
    for (name, text, diag) in cases {
        let p = dir.join(format!("{name}.mlir"));
        std::fs::write(&p, text).unwrap();
        // Run from the directory so locations read `NAME.mlir:L:C`.
        let out = bin()
            .current_dir(&dir)
            .args(["verify", &format!("{name}.mlir")])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{name}");
        let err = stderr(&out);
        assert!(err.contains(diag), "{name}: {err}");
        assert!(err.contains("invalid: 1 error"), "{err}");
        assert!(out.stdout.is_empty());
        // The same IR as bytecode is invalid too (read error or diagnostic).
        let bc = dir.join(format!("{name}.mlirbc"));
        let enc = run(&["encode", p.to_str().unwrap(), "-o", bc.to_str().unwrap()]);
        if enc.status.success() {
            let out = run(&["verify", bc.to_str().unwrap()]);
            assert_eq!(
                out.status.code(),
                Some(1),
                "{name}.mlirbc: {}",
                stderr(&out)
            );
        }
    }

    // Garbage text and truncated bytecode: exit 1 with a diagnostic, never a crash.
    let garbage = dir.join("garbage.mlir");
    std::fs::write(&garbage, "this is not MLIR }{ %% \u{1}\n").unwrap();
    let out = run(&["verify", garbage.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("error:"), "{}", stderr(&out));
    let v6 = std::fs::read(rc.join("v6.mlirbc")).unwrap();
    let cuts = [5, 12, 40, v6.len() / 3, v6.len() / 2, v6.len() - 1];
    for cut in cuts {
        for args in [
            &["verify", "-"][..],
            &["info", "-"],
            &["decode", "-"],
            &["convert", "-", "-o", "-", "--emit-version", "6"],
        ] {
            let out = run_stdin(args, &v6[..cut]);
            assert_eq!(
                out.status.code(),
                Some(1),
                "{args:?} cut at {cut}: {}",
                stderr(&out)
            );
            assert!(stderr(&out).starts_with("<stdin>: "), "{}", stderr(&out));
            assert!(out.stdout.is_empty(), "{args:?} printed output");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn failed_runs_never_clobber_outputs_or_leave_temp_files() {
    let dir = tmpdir("interrupted");
    let case = corpus().join(LIVENESS);
    let v6 = case.join("v6.mlirbc");
    let full = std::fs::read(&v6).unwrap();
    let truncated = dir.join("truncated.mlirbc");
    std::fs::write(&truncated, &full[..full.len() / 2]).unwrap();
    let garbage = dir.join("garbage.mlir");
    std::fs::write(&garbage, "}{\n").unwrap();
    let target = dir.join("existing.out");
    std::fs::write(&target, b"keep me").unwrap();
    let t = target.to_str().unwrap();
    // An input error after the output exists: the output is unchanged.
    for args in [
        vec!["decode", truncated.to_str().unwrap(), "-o", t],
        vec!["encode", truncated.to_str().unwrap(), "-o", t],
        vec![
            "encode",
            garbage.to_str().unwrap(),
            "-o",
            t,
            "--compress",
            "zstd",
        ],
        vec![
            "convert",
            truncated.to_str().unwrap(),
            "-o",
            t,
            "--emit-version",
            "5",
        ],
        vec![
            "convert",
            garbage.to_str().unwrap(),
            "-o",
            t,
            "--emit-version",
            "6",
        ],
        vec![
            "convert",
            v6.to_str().unwrap(),
            "-o",
            t,
            "--emit-version",
            "7",
        ],
    ] {
        let out = run(&args);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", stderr(&out));
        assert!(!stderr(&out).is_empty());
        assert_eq!(std::fs::read(&target).unwrap(), b"keep me", "{args:?}");
    }
    // Output paths that cannot be written: a missing directory, a directory.
    let missing = dir.join("no/such/dir/out.mlirbc");
    let out = run(&[
        "convert",
        v6.to_str().unwrap(),
        "-o",
        missing.to_str().unwrap(),
        "--emit-version",
        "6",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("cannot write"), "{}", stderr(&out));
    // A parent that is a file (ENOTDIR; fails even for root, unlike a
    // read-only directory).
    let under_file = target.join("out.mlirbc");
    let out = run(&[
        "encode",
        v6.to_str().unwrap(),
        "-o",
        under_file.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("cannot write"), "{}", stderr(&out));
    assert_eq!(std::fs::read(&target).unwrap(), b"keep me");
    let sub = dir.join("a-directory");
    std::fs::create_dir_all(&sub).unwrap();
    let out = run(&["encode", v6.to_str().unwrap(), "-o", sub.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(sub.is_dir());
    // A read-only directory (only meaningful when not running as root).
    let ro = dir.join("read-only");
    std::fs::create_dir_all(&ro).unwrap();
    std::fs::write(ro.join("old.mlirbc"), b"old").unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o555)).unwrap();
    let probe = std::fs::File::create(ro.join("probe"));
    if probe.is_err() {
        let out = run(&[
            "encode",
            v6.to_str().unwrap(),
            "-o",
            ro.join("old.mlirbc").to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(1));
        assert_eq!(std::fs::read(ro.join("old.mlirbc")).unwrap(), b"old");
        assert!(temp_leftovers(&ro).is_empty());
    }
    std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o755)).unwrap();
    assert!(
        temp_leftovers(&dir).is_empty(),
        "{:?}",
        temp_leftovers(&dir)
    );
    assert!(temp_leftovers(&sub).is_empty());
    // And success replaces the file whole.
    ok(&run(&["encode", v6.to_str().unwrap(), "-o", t]));
    assert_eq!(std::fs::read(&target).unwrap(), full);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn info_on_a_100_mb_file_decodes_no_function_body() {
    let dir = tmpdir("info-large");
    let bc = rmlir_tests::large::build_lazy_bytecode(&dir);
    let size = std::fs::metadata(&bc).unwrap().len();
    assert!(size > 95_000_000, "file is {size} bytes");
    let out = ok(&run(&["info", "--json", bc.to_str().unwrap()]))
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(
        v["region_bodies_decoded"], 0,
        "the module body is scanned, and no function body decoded"
    );
    assert_eq!(
        v["nested_bodies_decoded"], 0,
        "the counter of function bodies decoded stays 0"
    );
    assert!(
        v["region_bodies_pending"].as_u64().unwrap() > 1000,
        "{}",
        v["region_bodies_pending"]
    );
    let top = v["top_level"].as_array().unwrap();
    let funcs = top.iter().filter(|t| t["op"] == "func.func").count();
    assert!(funcs > 1000, "{funcs} functions listed");
    let weights = v["resources"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["key"] == "weights")
        .expect("weights resource listed");
    assert_eq!(weights["bytes"], rmlir_tests::large::BLOB_BYTES);
    assert!(weights["alignment"].as_u64().unwrap() >= 1);
    println!(
        "info on a {size} byte file: {} top-level ops, region bodies decoded: {}, pending: {}",
        top.len(),
        v["region_bodies_decoded"],
        v["region_bodies_pending"]
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[path = "../../examples/versioned_dialect.rs"]
mod versioned_dialect;

/// `upgrade`: a file of the example dialect `vdemo` at version 1.0 (made
/// here with the library, which can write older dialect versions) becomes
/// the 2.0 file `encode` makes from the 2.0 text; upstream's versioning
/// files upgrade like mlir-opt's; text input and newer files are refused.
#[test]
fn upgrade_migrates_old_dialect_versions() {
    let dir = tmpdir("upgrade");
    let v1_text = "\"builtin.module\"() ({\n  %0 = \"vdemo.grid\"() {dimensions = 3 : i64} : () -> !vdemo.vec<4 x f32>\n}) : () -> ()\n";
    // Parsed under the name `encode` will see for the 2.0 text, so that
    // the locations agree.
    let v2_text = dir.join("v2.mlir");
    let m = rmlir_reader::parse_module(v1_text.as_bytes(), v2_text.to_str().unwrap()).unwrap();
    let mut hooks = rmlir_dialects::upstream().clone();
    hooks.register(std::sync::Arc::new(versioned_dialect::VDemo));
    let opts = rmlir_writer::WriteOptions {
        dialect_versions: vec![("vdemo".into(), "1.0".into())],
        ..Default::default()
    };
    let v1 = rmlir_writer::write_bytecode_with(
        &m,
        &opts,
        rmlir_format::op_registry::OpRegistry::default_ref(),
        &hooks,
    )
    .unwrap();
    let old = dir.join("old.mlirbc");
    std::fs::write(&old, &v1).unwrap();
    let new = dir.join("new.mlirbc");
    let out = run(&[
        "upgrade",
        old.to_str().unwrap(),
        "-o",
        new.to_str().unwrap(),
    ]);
    ok(&out);
    assert!(stderr(&out).contains("dialect 'vdemo' upgraded to version 2.0"));
    std::fs::write(&v2_text, v1_text.replace("dimensions", "dims")).unwrap();
    let direct = dir.join("direct.mlirbc");
    ok(&run(&[
        "encode",
        v2_text.to_str().unwrap(),
        "-o",
        direct.to_str().unwrap(),
    ]));
    assert!(std::fs::read(&new).unwrap() == std::fs::read(&direct).unwrap());
    let printed = ok(&run(&["decode", new.to_str().unwrap()])).stdout.clone();
    assert!(String::from_utf8_lossy(&printed).contains("{dims = 3 : i64}"));

    // An upstream test-dialect file from version 1.12.
    let f = corpus().join("upstream-bytecode/versioning/versioned-op-with-prop-1.12.mlirbc");
    let up = dir.join("up.mlirbc");
    ok(&run(&[
        "upgrade",
        f.to_str().unwrap(),
        "-o",
        up.to_str().unwrap(),
    ]));
    let printed = ok(&run(&["decode", up.to_str().unwrap()])).stdout.clone();
    assert!(String::from_utf8_lossy(&printed)
        .contains("\"test.versionedA\"() <{dims = 123 : i64, modifier = false}>"));

    // A newer file than the test dialect knows, and text input.
    let f = corpus().join("upstream-bytecode/versioning/versioned-op-2.2.mlirbc");
    let out = run(&[
        "upgrade",
        f.to_str().unwrap(),
        "-o",
        dir.join("x").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("current test dialect version is 2.0, can't parse version: 2.2"));
    assert!(!dir.join("x").exists());
    let out = run(&[
        "upgrade",
        v2_text.to_str().unwrap(),
        "-o",
        dir.join("y").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("not a bytecode file"));
}

/// `convert --target mlir-22` and `--layouts` on bytecode written by
/// mlir-opt 19 (`mlir-19-tools`; SPEC.md §7.2).
#[test]
fn convert_targets_mlir_22_from_mlir_19_bytecode() {
    let opt19 = std::env::var("RMLIR_MLIR_OPT_19")
        .unwrap_or_else(|_| "/usr/lib/llvm-19/bin/mlir-opt".into());
    assert!(
        Path::new(&opt19).exists(),
        "mlir-opt 19 not found at {opt19} (apt-get install mlir-19-tools, or set RMLIR_MLIR_OPT_19)"
    );
    let opt22 =
        std::env::var("RMLIR_MLIR_OPT").unwrap_or_else(|_| "/usr/lib/llvm-22/bin/mlir-opt".into());
    let dir = tmpdir("xrel");
    let src = dir.join("f.mlir");
    std::fs::write(
        &src,
        "func.func @f(%a: i64) -> i32 {\n  %t = arith.trunci %a : i64 to i32\n  return %t : i32\n}\n",
    )
    .unwrap();
    let f19 = dir.join("f19.mlirbc");
    let out = Command::new(&opt19)
        .args(["--emit-bytecode", "-o"])
        .arg(&f19)
        .arg(&src)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let p = |x: &Path| x.to_str().unwrap().to_string();

    let info = String::from_utf8(ok(&run(&["info", &p(&f19)])).stdout.clone()).unwrap();
    assert!(
        info.contains("op layouts: MLIR 19.1.7 (named by the producer)"),
        "{info}"
    );
    let decoded = ok(&run(&["decode", &p(&f19)])).stdout.clone();

    let f22 = dir.join("f22.mlirbc");
    ok(&run(&[
        "convert",
        &p(&f19),
        "-o",
        &p(&f22),
        "--target",
        "mlir-22",
    ]));
    let v: serde_json::Value =
        serde_json::from_slice(&ok(&run(&["info", "--json", &p(&f22)])).stdout).unwrap();
    assert_eq!(v["producer"], "MLIR22.1.8");
    assert_eq!(v["version"], 6);
    assert_eq!(v["layouts"], "22.1.8");
    // mlir-opt 22 reads it, and prints what we print for the MLIR 19 file.
    let out = Command::new(&opt22)
        .args(["--mlir-print-op-generic", "--mlir-print-debuginfo"])
        .arg(&f22)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(out.stdout, decoded);
    // ... which it cannot do with mlir-opt 19's file.
    let out = Command::new(&opt22).arg(&f19).output().unwrap();
    assert!(!out.status.success());

    // We write for MLIR 22, 23 and 24 only: a usage error.
    let nope = dir.join("nope.mlirbc");
    let out = run(&["convert", &p(&f19), "-o", &p(&nope), "--target", "mlir-19"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("cannot target MLIR 19.1.7: we write for mlir-22 (mlir-opt 22), mlir-23 (jaxlib 0.10.2), mlir-24 (IREE 3.13) only"),
        "{}",
        stderr(&out)
    );
    assert!(!nope.exists());
    let out = run(&["decode", "--layouts", "mlir-20", &p(&f19)]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("known: auto, mlir-19, mlir-22"),
        "{}",
        stderr(&out)
    );
    // Forcing MLIR 22's layouts on it: the payload does not fit, and the
    // error says which layouts were used and which would fit.
    let out = run(&["decode", "--layouts", "mlir-22", &p(&f19)]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains(
            "the layouts of MLIR 19.1.7 decode it: read the file with `--layouts mlir-19`"
        ),
        "{}",
        stderr(&out)
    );

    // A producer that is not an MLIR release: --layouts mlir-19 reads it.
    let mut bytes = std::fs::read(&f19).unwrap();
    let at = bytes.windows(10).position(|w| w == b"MLIR19.1.7").unwrap();
    bytes[at..at + 10].copy_from_slice(b"acme-tool1");
    let foreign = dir.join("foreign.mlirbc");
    std::fs::write(&foreign, &bytes).unwrap();
    assert_eq!(run(&["decode", &p(&foreign)]).status.code(), Some(1));
    let out = ok(&run(&["decode", "--layouts", "mlir-19", &p(&foreign)]))
        .stdout
        .clone();
    assert_eq!(out, decoded);
    let f22b = dir.join("f22b.mlirbc");
    ok(&run(&[
        "convert",
        "--layouts",
        "mlir-19",
        &p(&foreign),
        "-o",
        &p(&f22b),
        "--target",
        "mlir-22",
    ]));
    assert_eq!(std::fs::read(&f22b).unwrap(), std::fs::read(&f22).unwrap());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Bring your own dialect (README): layouts made from a dialect's ODS by
/// `tools/ods-json/gen_layouts_json.py` (needs `llvm-tblgen-22` and
/// MLIR 22's `.td` files, which CI installs), loaded with `--op-layouts`.
/// `toy.scale` (`tests/fixtures/byo/ToyOps.td`) is then written registered
/// with its properties (a required and an optional attribute, operand
/// segments) and read back; without the layouts the file is refused with
/// an error naming the op and the dialect.
#[test]
fn own_dialect_layouts_from_ods_are_loaded_at_run_time() {
    let dir = tmpdir("byo");
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let layouts = dir.join("toy.json");
    let gen = Command::new("python3")
        .arg(repo.join("tools/ods-json/gen_layouts_json.py"))
        .arg(repo.join("tests/fixtures/byo/ToyOps.td"))
        .args(["--mlir-release", "toy", "--out"])
        .arg(&layouts)
        .output()
        .expect("runs python3");
    ok(&gen);
    let op = r#"%1 = "toy.scale"(%0, %0, %0) <{factor = 3 : i64, label = "hi", operandSegmentSizes = array<i32: 2, 1>}> : (f32, f32, f32) -> f32"#;
    let text = format!(
        "\"builtin.module\"() ({{\n  %0 = \"x.src\"() : () -> f32\n  {op}\n}}) : () -> ()\n"
    );
    let input = dir.join("toy.mlir");
    std::fs::write(&input, &text).unwrap();
    let bc = dir.join("toy.mlirbc");
    let l = layouts.to_str().unwrap();
    ok(&run(&[
        "encode",
        "--op-layouts",
        l,
        input.to_str().unwrap(),
        "-o",
        bc.to_str().unwrap(),
    ]));
    let out = run(&["decode", "--op-layouts", l, bc.to_str().unwrap()]);
    ok(&out);
    let printed = String::from_utf8(out.stdout).unwrap();
    assert!(printed.contains(op), "{printed}");
    // Written registered, with a properties payload: not readable without
    // the layouts.
    let out = run(&["decode", bc.to_str().unwrap()]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("registered operation 'toy.scale'")
            && err.contains("no op layouts we have know dialect 'toy'"),
        "{err}"
    );
    // A file that is not a layout file is named in the error.
    let out = run(&[
        "decode",
        "--op-layouts",
        input.to_str().unwrap(),
        bc.to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("toy.mlir: error: not an op layout file"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Bring your own dialect, with properties and custom encodings: op
/// layouts from `ToyOps.td` and the attribute and type encodings that
/// `ToyBytecode.td` declares (printed by the assembly formats of
/// `ToyAttrs.td`), made by the two generators and loaded at run time.
/// The file is written with `toy`'s custom entries, not text, and reads
/// back to the input. The entries' bytes are derived by hand (SPEC.md
/// §6.1, §6.6.5): this input's string section lists `builtin`, `x`,
/// `toy`, `module`, `src`, `tag`, the file name, `note`, `k`, `hi`, so
/// `#toy.pair<3, "hi">` is kind 0 (varint 0x01), 3 (0x07) and string 9
/// (0x13), and `#toy.kv<key = "k", delta = -2, …>` starts with kind 1
/// (0x03), string 8 (0x11) and -2 zigzagged to 3 (0x07).
#[test]
fn own_dialect_encodings_from_td_are_loaded_at_run_time() {
    let dir = tmpdir("byo-enc");
    let p = |x: &Path| x.to_str().unwrap().to_string();
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let fixtures = repo.join("tests/fixtures/byo");
    let (layouts, encodings) = (dir.join("toy.json"), dir.join("toy-encodings.json"));
    ok(&Command::new("python3")
        .arg(repo.join("tools/ods-json/gen_layouts_json.py"))
        .arg(fixtures.join("ToyOps.td"))
        .args(["--mlir-release", "toy", "--quiet", "--out"])
        .arg(&layouts)
        .output()
        .expect("runs python3"));
    ok(&Command::new("python3")
        .arg(repo.join("tools/dialect-encodings/from_td.py"))
        .arg(fixtures.join("ToyBytecode.td"))
        .arg(fixtures.join("ToyAttrs.td"))
        .args(["--dialect", "toy", "--out"])
        .arg(&encodings)
        .output()
        .expect("runs python3"));
    // The copies the fuzz target `declared_dialect` embeds are current.
    for (made, kept) in [
        (&layouts, "toy-layouts.json"),
        (&encodings, "toy-encodings.json"),
    ] {
        assert_eq!(
            std::fs::read(made).unwrap(),
            std::fs::read(fixtures.join(kept)).unwrap(),
            "tests/fixtures/byo/{kept} is stale: regenerate it (README, \"Bring your own dialect\")"
        );
    }
    let text = concat!(
        "\"builtin.module\"() ({\n",
        "  %0 = \"x.src\"() : () -> !toy.box<f32>\n",
        "  \"toy.tag\"(%0) <{pair = #toy.pair<3, \"hi\">}> {note = #toy.kv<key = \"k\", delta = -2, value = 5 : i32>} : (!toy.box<f32>) -> ()\n",
        "}) : () -> ()\n"
    );
    let input = dir.join("toy.mlir");
    std::fs::write(&input, text).unwrap();
    let bc = dir.join("toy.mlirbc");
    let (l, e) = (p(&layouts), p(&encodings));
    let with = |args: &[&str]| {
        let mut all = vec!["--op-layouts", &l, "--dialect-encodings", &e];
        all.extend_from_slice(args);
        run(&all)
    };
    ok(&with(&["encode", &p(&input), "-o", &p(&bc)]));
    let bytes = std::fs::read(&bc).unwrap();
    let has = |s: &[u8]| bytes.windows(s.len()).any(|w| w == s);
    assert!(
        !has(b"pair<") && !has(b"kv<") && !has(b"box<"),
        "written as text"
    );
    assert!(has(&[0x01, 0x07, 0x13]) && has(&[0x03, 0x11, 0x07]));
    // Printed with each op's location (the input's file, line and
    // column), which the input leaves implicit.
    let strip_locs = |out: Vec<u8>| -> String {
        let s = String::from_utf8(out).unwrap();
        s.lines()
            .map(|l| l.split(" loc(\"").next().unwrap().to_string() + "\n")
            .collect()
    };
    let out = ok(&with(&["decode", "--local-scope", &p(&bc)]))
        .stdout
        .clone();
    assert_eq!(strip_locs(out), text);
    // A hand-written spelling is read as the value it stands for.
    let loose = text.replace(r#"#toy.pair<3, "hi">"#, r#"#toy.pair< 3 ,"hi" >"#);
    std::fs::write(&input, &loose).unwrap();
    let bc2 = dir.join("loose.mlirbc");
    ok(&with(&["encode", &p(&input), "-o", &p(&bc2)]));
    let out = ok(&with(&["decode", "--local-scope", &p(&bc2)]))
        .stdout
        .clone();
    assert_eq!(strip_locs(out), text);
    // Without the encodings, the error names the flag; info reports what
    // it did not decode.
    let out = run(&["--op-layouts", &l, "decode", &p(&bc)]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("--dialect-encodings FILE"),
        "{}",
        stderr(&out)
    );
    let out = ok(&run(&["--op-layouts", &l, "info", &p(&bc)]))
        .stdout
        .clone();
    let info = String::from_utf8(out).unwrap();
    assert!(
        info.contains("custom entries of dialect toy: 2 attributes, 1 types"),
        "{info}"
    );
    // A file that is not an encodings file is named in the error.
    let out = run(&["--dialect-encodings", &l, "decode", &p(&bc)]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("toy.json: error: not a dialect encodings file"),
        "{}",
        stderr(&out)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every op of our MLIR 22 layout data, not only the corpus's (SPEC.md
/// §7.5): `tools/op-sweep/sweep.py` builds a module per op with each
/// property set, encodes it at v6 and v4, and has mlir-opt 22 read it
/// back; the print must equal mlir-opt's own print of the text. CI runs
/// every 10th op; `python3 tools/op-sweep/sweep.py --rmlir
/// target/release/rmlir-bc` runs all of them. A failure not listed in
/// `tests/known-failures/op-sweep.tsv` fails the test.
#[test]
fn every_tenth_op_of_the_layout_data_round_trips_through_mlir_opt() {
    // The sweep takes each property's value from the first case of the
    // whole corpus that shows one: a sample gives other values.
    if rmlir_tests::skip_on_sample(
        "every_tenth_op_of_the_layout_data_round_trips_through_mlir_opt",
        "property values harvested from every case of the full corpus",
    ) {
        return;
    }
    let tried = every_tenth_op(&[], "op-sweep.tsv", "mlir-opt accepts: ");
    assert!(tried >= 250, "only {tried} ops had an input");
}

/// Runs `tools/op-sweep/sweep.py` on every 10th op with `args`, failing on
/// a failure `tests/known-failures/<known>` does not list; the number of
/// ops with an input, which the report gives after `tried`.
fn every_tenth_op(args: &[&str], known: &str, tried: &str) -> usize {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let out = Command::new("python3")
        .arg(repo.join("tools/op-sweep/sweep.py"))
        .args(["--rmlir", env!("CARGO_BIN_EXE_rmlir-bc"), "--every", "10"])
        .args(args)
        .arg("--known")
        .arg(repo.join("tests/known-failures").join(known))
        .arg("--corpus")
        .arg(corpus())
        .output()
        .expect("runs python3");
    let report = String::from_utf8_lossy(&out.stdout).into_owned();
    println!("{report}");
    assert!(out.status.success(), "{report}\n{}", stderr(&out));
    report
        .lines()
        .find_map(|l| l.split(tried).nth(1))
        .and_then(|n| n.trim().parse().ok())
        .expect("the sweep's report")
}

/// Every op of our MLIR 19 layout data as MLIR 19 writes it (SPEC.md
/// §7.5): `sweep.py --release 19` builds a module per op, has MLIR 19's
/// own writer (`unverified19`, its verifier off) write it at v6 and v4,
/// and reads each file with `decode`; the print must equal mlir-opt 22's
/// print of MLIR 19's text (or, for an op MLIR 22 no longer has, mlir-opt
/// 22's reading of the file). CI runs every 10th op; the full sweep is
/// `python3 tools/op-sweep/sweep.py --release 19 --unverified19 BIN
/// --rmlir target/release/rmlir-bc`. A failure not listed in
/// `tests/known-failures/op-sweep-19.tsv` fails the test.
#[test]
fn every_tenth_op_of_mlir_19_layout_data_reads_as_mlir_opt_22_prints_it() {
    if rmlir_tests::skip_on_sample(
        "every_tenth_op_of_mlir_19_layout_data_reads_as_mlir_opt_22_prints_it",
        "property values harvested from every case of the full corpus",
    ) {
        return;
    }
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    // tools/test.sh and .ci/run build it (tools/test-deps.sh); a bare
    // `cargo test` builds it here.
    let unverified = match std::env::var("RMLIR_UNVERIFIED19") {
        Ok(p) => p,
        Err(_) => {
            let out = Command::new("bash")
                .arg(repo.join("tools/op-sweep/build_unverified19.sh"))
                .arg(Path::new(env!("CARGO_TARGET_TMPDIR")).join("op-sweep"))
                .output()
                .expect("runs bash");
            assert!(
                out.status.success(),
                "tools/op-sweep/build_unverified19.sh failed (it needs g++ and apt-get; \
                 or set RMLIR_UNVERIFIED19): {}",
                stderr(&out)
            );
            String::from_utf8_lossy(&out.stdout).trim().to_string()
        }
    };
    let tried = every_tenth_op(
        &["--release", "19", "--unverified19", &unverified],
        "op-sweep-19.tsv",
        "MLIR 19 and 22 accept: ",
    );
    assert!(tried >= 175, "only {tried} ops had an input");
}

/// `--target mlir-24` writes as IREE 3.13 writes: its producer, and the
/// builtin encodings it adds (an affine map as attribute code 23, not
/// text), while the default writes neither; `--builtin-encodings`
/// overrides the target's. An unknown target names those we write for.
#[test]
fn encode_for_iree_takes_its_producer_and_builtin_encodings() {
    let dir = tmpdir("target24");
    let input = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/newer_builtins.mlir");
    let input = input.to_str().unwrap();
    let (f22, f24, mixed) = (
        dir.join("22.mlirbc"),
        dir.join("24.mlirbc"),
        dir.join("m.mlirbc"),
    );
    ok(&run(&["encode", input, "-o", f22.to_str().unwrap()]));
    ok(&run(&[
        "encode",
        input,
        "-o",
        f24.to_str().unwrap(),
        "--target",
        "mlir-24",
    ]));
    let (b22, b24) = (std::fs::read(&f22).unwrap(), std::fs::read(&f24).unwrap());
    let has = |b: &[u8], s: &[u8]| b.windows(s.len()).any(|w| w == s);
    assert!(has(&b22, b"MLIR22.1.8\0") && has(&b24, b"MLIR24.0.0git\0"));
    // MLIR 22 spells affine maps out as text; MLIR 24 does not.
    assert!(has(&b22, b"affine_map<(d0, d1, d2) -> (d2, d0, d1)>"));
    assert!(!has(&b24, b"affine_map<"));
    // The same IR either way.
    let d22 = ok(&run(&["decode", f22.to_str().unwrap()])).stdout.clone();
    let d24 = ok(&run(&["decode", f24.to_str().unwrap()])).stdout.clone();
    assert_eq!(d22, d24);
    ok(&run(&[
        "encode",
        input,
        "-o",
        mixed.to_str().unwrap(),
        "--target",
        "mlir-24",
        "--builtin-encodings",
        "mlir-22",
    ]));
    let bm = std::fs::read(&mixed).unwrap();
    assert!(has(&bm, b"MLIR24.0.0git\0") && has(&bm, b"affine_map<"));
    let out = run(&["encode", input, "--target", "mlir-30"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("unknown target 'mlir-30': we write for mlir-22 (mlir-opt 22), mlir-23 (jaxlib 0.10.2), mlir-24 (IREE 3.13)"),
        "{}",
        stderr(&out)
    );
}

/// A dialect we have neither layouts nor encodings for, and an op we do
/// not know of a dialect we know (SPEC.md §8.6), both made from our own
/// bytecode by renaming (`stablehlo` → `stablehlz`, `transpose` →
/// `transposz`): `info` and `verify` report everything else and exit 0,
/// listing what they could not decode; `decode` refuses, naming the way
/// out.
#[test]
fn info_and_verify_read_past_an_unknown_dialect() {
    let dir = tmpdir("unknown-dialect");
    let text = dir.join("m.mlir");
    std::fs::write(
        &text,
        r#""builtin.module"() ({
  "func.func"() <{function_type = (tensor<4xf32>) -> tensor<4xf32>, sym_name = "f"}> ({
  ^bb0(%a: tensor<4xf32>):
    %0 = "stablehlo.add"(%a, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %1 = "stablehlo.transpose"(%0) <{permutation = array<i64: 0>}> : (tensor<4xf32>) -> tensor<4xf32>
    "func.return"(%1) : (tensor<4xf32>) -> ()
  }) : () -> ()
  "stablehlo.custom_call"() <{call_target_name = "g", called_computations = [], api_version = 1 : i32, backend_config = "", has_side_effect = false, operand_layouts = [], result_layouts = []}> {t = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>} : () -> ()
}) : () -> ()
"#,
    )
    .unwrap();
    let known = dir.join("known.mlirbc");
    ok(&run(&[
        "encode",
        text.to_str().unwrap(),
        "-o",
        known.to_str().unwrap(),
    ]));
    let bytes = std::fs::read(&known).unwrap();
    let at = bytes
        .windows(10)
        .position(|w| w == b"stablehlo\0")
        .expect("the dialect name is in the string section");
    assert_eq!(bytes.windows(9).filter(|w| *w == b"stablehlo").count(), 1);
    let mut renamed = bytes.clone();
    renamed[at + 8] = b'z';
    let unknown = dir.join("unknown.mlirbc");
    std::fs::write(&unknown, &renamed).unwrap();
    let f = unknown.to_str().unwrap();

    let out = ok(&run(&["info", f])).stdout.clone();
    let out = String::from_utf8(out).unwrap();
    for line in [
        "not decoded (no layouts or encodings we have know them; the rest of the file is well-formed as far as info reads it):",
        // `add` has no properties, but without its layout we cannot tell.
        "  operations whose properties layout we do not have (3):",
        "    stablehlz.custom_call (1 at the top level)",
        "    stablehlz.add (0 at the top level)",
        "    stablehlz.transpose (0 at the top level)",
        "  custom entries of dialect stablehlz: 1 attributes, 0 types",
        "  func.func @f",
        "  stablehlz.custom_call (symbol not known: its properties were not decoded)",
    ] {
        assert!(out.lines().any(|l| l == line), "no line {line:?} in:\n{out}");
    }
    let json = ok(&run(&["info", "--json", f])).stdout.clone();
    let v: serde_json::Value = serde_json::from_slice(&json).unwrap();
    assert_eq!(
        v["not_decoded"]["ops_without_layouts"][0]["op"],
        "stablehlz.custom_call"
    );
    assert_eq!(
        v["not_decoded"]["dialects_without_encodings"][0]["attributes"],
        1
    );
    // An op we do not know of a dialect we know (`transpose` renamed):
    // listed the same way.
    let at = bytes
        .windows(10)
        .position(|w| w == b"transpose\0")
        .expect("the op name is in the string section");
    let mut op_renamed = bytes.clone();
    op_renamed[at + 8] = b'z';
    let unknown_op = dir.join("unknown-op.mlirbc");
    std::fs::write(&unknown_op, &op_renamed).unwrap();
    let out = ok(&run(&["info", unknown_op.to_str().unwrap()]))
        .stdout
        .clone();
    let out = String::from_utf8(out).unwrap();
    for line in [
        "  operations whose properties layout we do not have (1):",
        "    stablehlo.transposz (0 at the top level)",
    ] {
        assert!(
            out.lines().any(|l| l == line),
            "no line {line:?} in:\n{out}"
        );
    }
    let out = ok(&run(&["verify", unknown_op.to_str().unwrap()]))
        .stdout
        .clone();
    assert!(String::from_utf8(out).unwrap().contains(
        "not checked: the properties of 1 operations (stablehlo.transposz: no op layouts we have)"
    ));
    // The known file: nothing left out.
    let out =
        String::from_utf8(ok(&run(&["info", known.to_str().unwrap()])).stdout.clone()).unwrap();
    assert!(
        out.lines().any(|l| l == "decoded: everything info reads"),
        "{out}"
    );

    let out = ok(&run(&["verify", f])).stdout.clone();
    let out = String::from_utf8(out).unwrap();
    assert!(out.contains(": valid: bytecode v6"), "{out}");
    assert!(
        out.contains("not checked: the properties of 2 operations (stablehlz.custom_call, stablehlz.transpose: no op layouts we have)"),
        "{out}"
    );
    // `decode` meets the attribute first.
    let out = run(&["decode", f]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("dialect 'stablehlz' does not implement the bytecode interface")
            && stderr(&out).contains("`info` and `verify` read the rest of the file"),
        "{}",
        stderr(&out)
    );
}

/// `decode --custom` prints the README's example as mlir-opt 22 prints it
/// by default (its custom form, with debug info), and the generic form
/// stays the default.
#[test]
fn decode_custom_prints_like_mlir_opt_default() {
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/hello.mlir");
    let example = example.to_str().unwrap();
    let opt =
        std::env::var("RMLIR_MLIR_OPT").unwrap_or_else(|_| "/usr/lib/llvm-22/bin/mlir-opt".into());
    let want = Command::new(&opt)
        .args([
            "--allow-unregistered-dialect",
            "--mlir-print-debuginfo",
            example,
        ])
        .output()
        .unwrap_or_else(|e| panic!("mlir-opt 22 at {opt} (RMLIR_MLIR_OPT): {e}"));
    assert!(want.status.success(), "{}", stderr(&want));
    let ours = ok(&run(&["decode", "--custom", example])).stdout.clone();
    assert_eq!(
        String::from_utf8_lossy(&ours),
        String::from_utf8_lossy(&want.stdout)
    );
    assert!(String::from_utf8_lossy(&ours).contains("%c42_i32 = arith.constant 42 : i32"));
    let generic = ok(&run(&["decode", example])).stdout.clone();
    assert!(String::from_utf8_lossy(&generic).contains("\"arith.constant\"()"));
}

/// A text file read with `--layouts mlir-23` is read and printed in
/// jaxlib's terms: `decode --custom` prints the StableHLO fixture as
/// jaxlib 0.10.2 prints it (`shapes.jaxlib.mlir`: its
/// `get_asm(enable_debug_info=True)` of `shapes.mlir` parsed from a
/// string, by `tools/jax-oracle/print_custom.py`, 2026-11-27, whose
/// locations name the file `-`), read here from standard input, which
/// mlir-opt and we name `<stdin>`. Without the flag the file is mlir-opt
/// 22's, which registers no StableHLO: its ops print generic.
#[test]
fn decode_custom_of_stablehlo_text_in_jaxlib_terms_prints_as_jaxlib() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/stablehlo");
    let input = std::fs::read(dir.join("shapes.mlir")).unwrap();
    let want = std::fs::read_to_string(dir.join("shapes.jaxlib.mlir"))
        .unwrap()
        .replace("loc(\"-\":", "loc(\"<stdin>\":");
    let ours = ok(&run_stdin(
        &["decode", "--custom", "--layouts", "mlir-23", "-"],
        &input,
    ))
    .stdout
    .clone();
    let ours = String::from_utf8_lossy(&ours);
    assert_eq!(ours.strip_suffix('\n'), Some(want.as_str()));
    let plain = ok(&run_stdin(&["decode", "--custom", "-"], &input))
        .stdout
        .clone();
    let plain = String::from_utf8_lossy(&plain);
    assert!(
        plain.contains("\"stablehlo.constant\"()") && !plain.contains("= stablehlo.constant"),
        "{plain}"
    );
}

/// `--no-generic-fallback` refuses, before writing anything, a module
/// holding an op whose custom form mlir-opt prints and we do not
/// (`memref.prefetch`'s printer is not ported), naming it; a module whose
/// ops are all ported prints as with `--custom` alone.
#[test]
fn decode_no_generic_fallback_refuses_unported_ops() {
    let dir = std::env::temp_dir().join(format!("rmlir-no-fallback-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("prefetch.mlir");
    std::fs::write(
        &input,
        "\"func.func\"() <{function_type = (memref<4xf32>) -> (), sym_name = \"f\"}> ({\n^bb0(%arg0: memref<4xf32>):\n  \"memref.prefetch\"(%arg0) <{isDataCache = true, isWrite = false, localityHint = 3 : i32}> : (memref<4xf32>) -> ()\n  \"func.return\"() : () -> ()\n}) : () -> ()\n",
    )
    .unwrap();
    let out = dir.join("out.mlir");
    let input_s = input.to_str().unwrap();
    let refused = run(&[
        "decode",
        "--custom",
        "--no-generic-fallback",
        input_s,
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(!refused.status.success());
    let err = stderr(&refused);
    assert!(
        err.contains("1 op has a custom form") && err.contains("`memref.prefetch` (1)"),
        "{err}"
    );
    assert!(!out.exists(), "nothing is written when refused");
    // Without the flag the op prints generic, the rest custom.
    let fallback = ok(&run(&["decode", "--custom", input_s])).stdout.clone();
    let text = String::from_utf8_lossy(&fallback);
    assert!(
        text.contains("\"memref.prefetch\"(%arg0)") && text.contains("func.func @f(%arg0"),
        "{text}"
    );
    // The example's ops are all ported: the flag changes nothing.
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/hello.mlir");
    let example = example.to_str().unwrap();
    let strict = ok(&run(&[
        "decode",
        "--custom",
        "--no-generic-fallback",
        example,
    ]))
    .stdout
    .clone();
    let plain = ok(&run(&["decode", "--custom", example])).stdout.clone();
    assert_eq!(strict, plain);
    std::fs::remove_dir_all(&dir).ok();
}
