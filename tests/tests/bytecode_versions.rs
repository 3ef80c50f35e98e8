//! Bytecode versions 0–5 (and 6): mlir-opt 22 writes a corpus case at each
//! version; our decoding of that file must print exactly what mlir-opt's own
//! decoding prints (so lossy older versions are judged by mlir-opt's reading
//! of the same bytes).
//!
//! CI uses a fixed sample: every 40th case in sorted order (154 cases).
//! The full sweep: `RMLIR_VERSION_STRIDE=1 cargo test --release -p
//! rmlir-tests --test bytecode_versions -- --nocapture`. Cases listed in
//! `known-failures/bytecode.tsv` are excused at every version.

use rmlir_tests::{case_dirs, first_diff, known_failures, oracle};
use std::path::Path;

#[test]
fn mlir_opt_written_versions_decode_like_mlir_opt_reads_them() {
    let stride: usize = std::env::var("RMLIR_VERSION_STRIDE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(40);
    let known = known_failures("bytecode.tsv");
    let tmp = std::env::temp_dir().join(format!("rmlir-versions-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let mut failures = Vec::new();
    let mut counts = [(0usize, 0usize); 7];
    for case in case_dirs("cases").into_iter().step_by(stride) {
        let id = case.file_name().unwrap().to_string_lossy().into_owned();
        if known.contains(&("bytecode".to_string(), id.clone())) {
            continue;
        }
        let input = case.join("generic.mlir");
        for v in 0..=6u32 {
            let Ok((reference, ours)) = both_readings(&input, v, &tmp) else {
                continue;
            };
            counts[v as usize].1 += 1;
            match ours.and_then(|ours| same_print(&reference, &ours)) {
                Ok(()) => counts[v as usize].0 += 1,
                Err(e) => failures.push(format!("{id} v{v}: {e}")),
            }
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
    for (v, (p, n)) in counts.iter().enumerate() {
        println!("bytecode v{v} written by mlir-opt, decoded like mlir-opt reads it: {p}/{n}");
    }
    assert!(counts.iter().all(|c| c.1 > 0), "mlir-opt wrote no files");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `gpu.spmm_buffer_size`'s `resultSegmentSizes`, which MLIR 22's list of
/// the op's attribute names leaves out, is inherent all the same: in a file
/// of version 0–4 it sits in the attribute dictionary and is read back into
/// the properties, as mlir-opt 22 prints it (found by the full sweep of the
/// test above; hand-written fixture).
#[test]
fn result_segment_sizes_read_back_into_properties() {
    let input = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/result_segments.mlir");
    let tmp = std::env::temp_dir().join(format!("rmlir-result-segments-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    for v in 0..=6u32 {
        let (reference, ours) = both_readings(&input, v, &tmp).expect("mlir-opt writes and reads");
        assert!(
            String::from_utf8_lossy(&reference).contains("resultSegmentSizes = array<i32: 1, 1>}>"),
            "mlir-opt keeps the sizes in the properties at v{v}"
        );
        let checked = ours.and_then(|ours| same_print(&reference, &ours));
        assert!(checked.is_ok(), "v{v}: {}", checked.unwrap_err());
    }
    let _ = std::fs::remove_dir_all(&tmp);
}

/// mlir-opt writes `input` as bytecode of version `v` (in `tmp`); returns
/// mlir-opt's generic print of that file and ours (or our read's error).
/// `Err` when mlir-opt cannot write or read it.
fn both_readings(
    input: &Path,
    v: u32,
    tmp: &Path,
) -> Result<(Vec<u8>, Result<String, String>), String> {
    let bc = tmp.join(format!("v{v}.mlirbc"));
    oracle::emit_bytecode(input, u64::from(v), &bc)?;
    let reference = oracle::run(&[
        "--mlir-print-op-generic",
        "--mlir-print-debuginfo",
        bc.to_str().unwrap(),
    ])?;
    let data = std::fs::read(&bc).unwrap();
    let ours = rmlir_reader::read_bytecode(&data)
        .map(|m| rmlir_writer::print_module(&m, Default::default()))
        .map_err(|e| e.to_string());
    Ok((reference, ours))
}

/// `Err` with the first differing line unless `ours` is `reference`.
fn same_print(reference: &[u8], ours: &str) -> Result<(), String> {
    if ours.as_bytes() == reference {
        Ok(())
    } else {
        Err(first_diff(&String::from_utf8_lossy(reference), ours))
    }
}
