//! Cross-release bytecode (SPEC.md §7.2): files written by mlir-opt 19,
//! read by us and re-targeted to MLIR 22.
//!
//! For each corpus case, mlir-opt 19 (`mlir-19-tools`) writes bytecode
//! from `generic.mlir` (`--emit-bytecode`). Cases mlir-opt 19 rejects
//! (syntax or ops newer than 19) are counted and skipped. Then:
//!
//! * `decode`: we read mlir-opt 19's file (layouts chosen from its producer
//!   string, `MLIR19.1.7`) and print it; that must be what mlir-opt 22
//!   prints for `generic.mlir` (`generic.reparsed.mlir` where mlir-opt 22
//!   does not print its own output back identically, else `generic.mlir`);
//! * `convert`: we write it again as MLIR 22 bytecode (what
//!   `rmlir-bc convert OLD -o NEW --target mlir-22` does); mlir-opt 22 must
//!   read that and print the same text (`v6.read-back.mlir` where mlir-opt
//!   22 prints its own bytecode of the case differently).
//!
//! Also counted (not asserted): how many of mlir-opt 19's files mlir-opt 22
//! itself rejects — the files only we can read.
//!
//! Cost: three processes per case. CI runs a fixed sample, every 20th
//! case in sorted order (`RMLIR_CROSS_RELEASE_STRIDE=N` changes it);
//! `RMLIR_CROSS_RELEASE_FULL=1` runs every case. Differences listed in
//! `tests/known-failures/cross-release.tsv` are excused; any other fails
//! the test, and so does a listed case that passes (among those run).
//! `RMLIR_CROSS_RELEASE_TSV=1` prints a row for each failure;
//! `RMLIR_CROSS_RELEASE_CASES=FILE` runs only the case ids listed in FILE
//! (one a line; e.g. to recheck the known failures).

use rmlir_tests::{case_dirs, first_diff, known_failures};
use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn mlir_opt_19() -> PathBuf {
    let p = std::env::var("RMLIR_MLIR_OPT_19")
        .unwrap_or_else(|_| "/usr/lib/llvm-19/bin/mlir-opt".into());
    let p = PathBuf::from(p);
    assert!(
        p.exists(),
        "mlir-opt 19 not found at {} (apt-get install mlir-19-tools, or set RMLIR_MLIR_OPT_19)",
        p.display()
    );
    p
}

/// Runs an mlir-opt with `args` (and `--allow-unregistered-dialect`) in
/// `dir`, feeding `stdin`; stdout, or stderr on failure.
fn run(tool: &Path, dir: &Path, args: &[&str], stdin: Option<&[u8]>) -> Result<Vec<u8>, String> {
    let mut child = Command::new(tool)
        .current_dir(dir)
        .arg("--allow-unregistered-dialect")
        .args(args)
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {}: {e}", tool.display()))?;
    if let Some(data) = stdin {
        let mut pipe = child.stdin.take().expect("piped");
        // A tool that fails early closes the pipe: its stderr says why.
        let _ = pipe.write_all(data);
    }
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    if out.status.success() {
        Ok(out.stdout)
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

fn first_line(s: &str) -> String {
    let l = s.lines().next().unwrap_or("").trim();
    if l.len() > 400 {
        let mut end = 400;
        while !l.is_char_boundary(end) {
            end -= 1;
        }
        format!("{}…", &l[..end])
    } else {
        l.to_string()
    }
}

enum Outcome {
    /// mlir-opt 19 does not parse the case.
    Rejected19,
    Ran {
        /// mlir-opt 22 rejects mlir-opt 19's file.
        rejected22: bool,
        decode: Result<(), String>,
        convert: Result<(), String>,
    },
}

fn check_case(case: &Path, opt19: &Path, opt22: &Path) -> Outcome {
    let Ok(bc19) = run(opt19, case, &["--emit-bytecode", "generic.mlir"], None) else {
        return Outcome::Rejected19;
    };
    let read = |name: &str| std::fs::read_to_string(case.join(name)).ok();
    let expected = read("generic.reparsed.mlir")
        .or_else(|| read("generic.mlir"))
        .expect("generic.mlir");
    let expected_bc = read("v6.read-back.mlir").unwrap_or_else(|| expected.clone());
    // Files, not standard input: mlir-opt checks section alignment against
    // its buffer, which only a mapped file guarantees.
    let tmp = std::env::temp_dir().join(format!("rmlir-xrel-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let (f19, f22) = (tmp.join("19.mlirbc"), tmp.join("22.mlirbc"));
    std::fs::write(&f19, &bc19).unwrap();
    // mlir-opt reads a small file into a heap buffer whose address decides
    // whether a 64-aligned section passes its alignment check ("expected
    // section alignment 64 but bytecode buffer … is not aligned": it
    // rejects some runs of its own files too). Another file name moves the
    // buffer; the bytes stay the same.
    let print = |f: &Path| {
        let mut last = Err(String::new());
        for pad in 0..4 {
            let g = f.with_file_name(format!(
                "{}{}",
                "x".repeat(pad * 7),
                f.display().to_string().rsplit('/').next().unwrap()
            ));
            if pad > 0 {
                std::fs::copy(f, &g).unwrap();
            }
            last = run(
                opt22,
                case,
                &[
                    "--mlir-print-op-generic",
                    "--mlir-print-debuginfo",
                    g.to_str().unwrap(),
                ],
                None,
            );
            match &last {
                Err(e) if e.contains("is not aligned") => continue,
                _ => break,
            }
        }
        last
    };
    let rejected22 = print(&f19).is_err();

    let module = rmlir_reader::read_bytecode(&bc19).map_err(|e| format!("read error: {e}"));
    let decode = module.as_ref().map_err(Clone::clone).and_then(|m| {
        let out = rmlir_writer::print_module(m, Default::default());
        if out == expected {
            Ok(())
        } else {
            Err(first_diff(&expected, &out))
        }
    });
    let convert = module.and_then(|m| {
        let opts = rmlir_writer::WriteOptions {
            version: 6,
            producer: "MLIR22.1.8".into(),
            ..Default::default()
        };
        let bytes = rmlir_writer::write_bytecode(&m, &opts).map_err(|e| format!("write: {e}"))?;
        std::fs::write(&f22, &bytes).unwrap();
        let out = print(&f22)
            .map_err(|e| format!("mlir-opt 22 rejects the converted file: {}", first_line(&e)))?;
        let out = String::from_utf8_lossy(&out);
        if out == expected_bc {
            Ok(())
        } else {
            Err(first_diff(&expected_bc, &out))
        }
    });
    Outcome::Ran {
        rejected22,
        decode,
        convert,
    }
}

#[test]
fn mlir_19_bytecode_reads_as_mlir_22() {
    let opt19 = mlir_opt_19();
    let opt22 = rmlir_tests::oracle::mlir_opt();
    let full = std::env::var("RMLIR_CROSS_RELEASE_FULL").is_ok_and(|v| v == "1");
    let stride: usize = std::env::var("RMLIR_CROSS_RELEASE_STRIDE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20)
        .max(1);
    let tsv = std::env::var("RMLIR_CROSS_RELEASE_TSV").is_ok_and(|v| v == "1");
    let known = known_failures("cross-release.tsv");
    let mut cases = case_dirs("cases");
    let only = std::env::var("RMLIR_CROSS_RELEASE_CASES").ok();
    if let Some(file) = &only {
        let ids: BTreeSet<String> = std::fs::read_to_string(file)
            .unwrap_or_else(|e| panic!("{file}: {e}"))
            .lines()
            .map(|l| l.trim().to_string())
            .filter(|l| !l.is_empty())
            .collect();
        cases.retain(|c| ids.contains(c.file_name().unwrap().to_str().unwrap()));
    }
    let full = full || only.is_some();
    let mut ran = BTreeSet::new();
    let mut failed = BTreeSet::new();
    let (mut total, mut rejected19, mut rejected22) = (0, 0, 0);
    let (mut decode_ok, mut convert_ok, mut both_ok) = (0, 0, 0);
    let mut unexpected = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        if !full && i % stride != 0 {
            continue;
        }
        total += 1;
        let id = case.file_name().unwrap().to_string_lossy().into_owned();
        let Outcome::Ran {
            rejected22: r22,
            decode,
            convert,
        } = check_case(case, &opt19, &opt22)
        else {
            rejected19 += 1;
            continue;
        };
        ran.insert(id.clone());
        rejected22 += usize::from(r22);
        decode_ok += usize::from(decode.is_ok());
        convert_ok += usize::from(convert.is_ok());
        both_ok += usize::from(decode.is_ok() && convert.is_ok());
        for (assertion, r) in [("decode", decode), ("convert", convert)] {
            if let Err(why) = r {
                let key = (assertion.to_string(), id.clone());
                if tsv {
                    let flat: Vec<&str> = why.lines().map(str::trim).collect();
                    println!("TSV\t{assertion}\t{id}\t{}", flat.join(" | "));
                }
                if !known.contains(&key) {
                    unexpected.push(format!("{assertion} {id}: {why}"));
                }
                failed.insert(key);
            }
        }
    }
    let _ = std::fs::remove_dir_all(
        std::env::temp_dir().join(format!("rmlir-xrel-{}", std::process::id())),
    );
    let read = total - rejected19;
    println!(
        "cross-release ({}): {total} cases, mlir-opt 19 parses {read}",
        if let Some(f) = &only {
            format!("the cases listed in {f}")
        } else if full {
            "full sweep".to_string()
        } else {
            format!("every {stride}th case")
        }
    );
    println!("  decode (ours = mlir-opt 22's text): {decode_ok}/{read}");
    println!("  convert (mlir-opt 22 reads ours, same text): {convert_ok}/{read}");
    println!("  both: {both_ok}/{read}");
    println!("  mlir-opt 22 rejects mlir-opt 19's file: {rejected22}/{read}");
    for u in unexpected.iter().take(40) {
        println!("UNEXPECTED FAILURE {u}");
    }
    assert!(
        unexpected.is_empty(),
        "{} unlisted differences (see above)",
        unexpected.len()
    );
    let stale: Vec<String> = known
        .iter()
        .filter(|key| ran.contains(&key.1) && !failed.contains(*key))
        .map(|key| format!("{} {}", key.0, key.1))
        .collect();
    assert!(
        stale.is_empty(),
        "listed in cross-release.tsv but now pass (remove them):\n{}",
        stale.join("\n")
    );
}

/// mlir-opt 19's bytecode of `text` (generic or custom syntax).
fn emit_19(text: &str) -> Vec<u8> {
    emit_19_at(text, 6)
}

/// mlir-opt 19's bytecode of `text` at `version`.
fn emit_19_at(text: &str, version: u32) -> Vec<u8> {
    let dir = std::env::temp_dir();
    let mut child = Command::new(mlir_opt_19())
        .current_dir(&dir)
        .args(["--allow-unregistered-dialect", "--emit-bytecode", "-"])
        .arg(format!("--emit-bytecode-version={version}"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("mlir-opt 19 runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "mlir-opt 19: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

fn opt22(args: &[&str], stdin: &[u8]) -> Result<String, String> {
    run(
        &rmlir_tests::oracle::mlir_opt(),
        &std::env::temp_dir(),
        args,
        Some(stdin),
    )
    .map(|o| String::from_utf8_lossy(&o).into_owned())
}

fn print(m: &rmlir_format::Module) -> String {
    rmlir_writer::print_module(m, Default::default())
}

fn to_22(m: &rmlir_format::Module) -> Vec<u8> {
    rmlir_writer::write_bytecode(m, &rmlir_writer::WriteOptions::default()).unwrap()
}

/// The issue's example and the kinds of layout change: a field added
/// (`func.func no_inline`), properties gained by an op that had none
/// (`arith.trunci overflowFlags`, `scf.for unsignedCmp`: MLIR 22's
/// defaults apply), MLIR 19's enum property (`llvm.add`).
#[test]
fn layout_changes_are_carried_over() {
    let src = r#"
func.func @f(%a: i64, %b: index) -> i32 {
  %t = arith.trunci %a : i64 to i32
  scf.for %i = %b to %b step %b {
  }
  %p = llvm.add %a, %a overflow<nsw> : i64
  return %t : i32
}
"#;
    let bc = emit_19(src);
    // mlir-opt 22 cannot read it: its layouts do not fit 19's payloads.
    let err = opt22(&["-"], &bc).unwrap_err();
    assert!(err.contains("produced by: MLIR19.1.7"), "{err}");

    let r = rmlir_reader::BytecodeReader::open(&bc).unwrap();
    assert_eq!(
        r.layouts_release(),
        ("19.1.7", rmlir_reader::LayoutsChoice::Producer)
    );
    let m = rmlir_reader::read_bytecode(&bc).unwrap();
    let ours = print(&m);
    // What mlir-opt 22 prints for the same source.
    let want = opt22(
        &["--mlir-print-op-generic", "--mlir-print-debuginfo", "-"],
        src.as_bytes(),
    )
    .unwrap();
    assert_eq!(ours, want, "decode");
    assert!(
        ours.contains("overflowFlags = #arith.overflow<none>"),
        "{ours}"
    );
    assert!(ours.contains("overflowFlags = 1 : i32"), "{ours}");
    // Converted: mlir-opt 22 reads it and prints the same.
    let back = opt22(
        &["--mlir-print-op-generic", "--mlir-print-debuginfo", "-"],
        &to_22(&m),
    )
    .unwrap();
    assert_eq!(back, ours, "convert");
}

/// linalg's ODS contractions of MLIR 19 take MLIR 22's default
/// `indexing_maps` (which MLIR 19 computed), without the
/// `linalg.memoized_indexing_maps` cache its verifier wrote, while other
/// discardable attributes, on the same op and on others, stay.
#[test]
fn linalg_contractions_get_their_default_maps() {
    let src = r#"
module attributes {transform.with_named_sequence} {
  func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>, %c: tensor<4x2xf32>, %x: tensor<3x4x8xf32>, %y: tensor<3x8x2xf32>, %z: tensor<3x4x2xf32>) -> tensor<4x2xf32> attributes {llvm.emit_c_interface} {
    %0 = linalg.matmul {tag = "m"} ins(%a, %b : tensor<4x8xf32>, tensor<8x2xf32>) outs(%c : tensor<4x2xf32>) -> tensor<4x2xf32>
    %1 = linalg.batch_matmul ins(%x, %y : tensor<3x4x8xf32>, tensor<3x8x2xf32>) outs(%z : tensor<3x4x2xf32>) -> tensor<3x4x2xf32>
    return %0 : tensor<4x2xf32>
  }
}
"#;
    let bc = emit_19(src);
    let m = rmlir_reader::read_bytecode(&bc).unwrap();
    let ours = print(&m);
    let want = opt22(
        &["--mlir-print-op-generic", "--mlir-print-debuginfo", "-"],
        src.as_bytes(),
    )
    .unwrap();
    assert_eq!(ours, want, "decode");
    assert!(ours.contains("indexing_maps = ["), "{ours}");
    assert!(!ours.contains("memoized"), "{ours}");
    let back = opt22(
        &["--mlir-print-op-generic", "--mlir-print-debuginfo", "-"],
        &to_22(&m),
    )
    .unwrap();
    assert_eq!(back, ours, "convert");
}

/// What cannot be carried over is an error naming the op, the field, the
/// release that wrote it and the releases we know — never a silent drop.
#[test]
fn skew_that_cannot_be_bridged_is_an_error() {
    // transform.structured.pad's pack_paddings is gone in MLIR 22.
    let src = r#"
"transform.structured.pad"(%0) <{pack_paddings = [1, 0], padding_dimensions = [0]}> : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
"#;
    let src = format!("\"test.src\"() ({{\n^bb0(%0: !transform.any_op):\n{src}}}) : () -> ()\n");
    let bc = emit_19(&src);
    let e = rmlir_reader::read_bytecode(&bc).unwrap_err().to_string();
    for want in [
        "'transform.structured.pad'",
        "'MLIR19.1.7'",
        "'pack_paddings' does not exist in MLIR 22.1.8",
        "known releases: 19.1.7, 22.1.8",
    ] {
        assert!(e.contains(want), "{want} not in: {e}");
    }
}

/// MLIR 19's `llvm.call` has one operand group; MLIR 22's has op bundles
/// besides, with segment sizes MLIR 19 did not write. They follow from the
/// operand count (SPEC.md §7.2): our decoding prints what mlir-opt 22
/// parses from the same text, and mlir-opt 22 reads our conversion back to
/// it. At v4 too, where the properties are the op's attribute dictionary
/// (found by the MLIR 19 op sweep, tools/op-sweep/sweep.py --release 19:
/// the sizes were left out there, and mlir-opt 22 rejects the print).
#[test]
fn llvm_call_segment_sizes_are_derived() {
    let src = r#"
llvm.func @g(i32, i32) -> i32
llvm.func @h()
llvm.func @f(%a: i32, %b: i32) -> i32 {
  llvm.call @h() : () -> ()
  %0 = llvm.call @g(%a, %b) : (i32, i32) -> i32
  llvm.return %0 : i32
}
"#;
    let want = opt22(
        &["--mlir-print-op-generic", "--mlir-print-debuginfo", "-"],
        src.as_bytes(),
    )
    .unwrap();
    for version in [6, 4] {
        let m = rmlir_reader::read_bytecode(&emit_19_at(src, version)).unwrap();
        let ours = print(&m);
        assert_eq!(ours, want, "decode of v{version}");
        for sizes in [
            "operandSegmentSizes = array<i32: 0, 0>",
            "operandSegmentSizes = array<i32: 2, 0>",
        ] {
            assert!(ours.contains(sizes), "{sizes} not in v{version}: {ours}");
        }
        let back = opt22(
            &["--mlir-print-op-generic", "--mlir-print-debuginfo", "-"],
            &to_22(&m),
        )
        .unwrap();
        assert_eq!(back, ours, "convert of v{version}");
    }
}

/// A producer that names no MLIR release gets MLIR 22's layouts; an MLIR
/// 19 payload then does not fit, and the error says which layouts were
/// used and how to choose others. `ReadOptions::layouts` (the CLI's
/// `--layouts mlir-19`) reads it.
#[test]
fn layouts_override_for_foreign_producers() {
    let src = "func.func @f() { return }\n";
    let mut bc = emit_19(src);
    let at = bc
        .windows(10)
        .position(|w| w == b"MLIR19.1.7")
        .expect("producer");
    bc[at..at + 10].copy_from_slice(b"acme-tool1");
    let e = rmlir_reader::read_bytecode(&bc).unwrap_err().to_string();
    for want in [
        "op layouts of MLIR 22.1.8",
        "the producer string names no MLIR release",
        "producer 'acme-tool1'",
        "the layouts of MLIR 19.1.7 decode it: read the file with `--layouts mlir-19`",
    ] {
        assert!(e.contains(want), "{want} not in: {e}");
    }
    let opts = rmlir_reader::ReadOptions {
        layouts: rmlir_format::op_registry::OpRegistry::for_release("mlir-19"),
        ..Default::default()
    };
    let m = rmlir_reader::read_bytecode_with_options(&bc, &opts).unwrap();
    assert!(print(&m).contains("sym_name = \"f\""));
    let r = rmlir_reader::BytecodeReader::open_with_options(&bc, &opts).unwrap();
    assert_eq!(
        r.layouts_release(),
        ("19.1.7", rmlir_reader::LayoutsChoice::Given)
    );
}

/// A field MLIR 22 removed may go when it holds MLIR 19's default (19
/// writes `pack_paddings = []` into every `transform.structured.pad`).
#[test]
fn removed_fields_at_the_old_default_are_left_out() {
    let src = "\"test.src\"() ({\n^bb0(%0: !transform.any_op):\n\"transform.structured.pad\"(%0) <{padding_dimensions = [0]}> : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)\n}) : () -> ()\n";
    let bc = emit_19(src);
    let m = rmlir_reader::read_bytecode(&bc).unwrap();
    let ours = print(&m);
    assert!(!ours.contains("pack_paddings"), "{ours}");
    let want = opt22(
        &["--mlir-print-op-generic", "--mlir-print-debuginfo", "-"],
        src.as_bytes(),
    )
    .unwrap();
    assert_eq!(ours, want);
    let back = opt22(
        &["--mlir-print-op-generic", "--mlir-print-debuginfo", "-"],
        &to_22(&m),
    )
    .unwrap();
    assert_eq!(back, ours);
}
