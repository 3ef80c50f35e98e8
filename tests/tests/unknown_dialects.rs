//! Files whose dialects we do not know, read as `info` and `verify` read
//! them (SPEC.md §8.6): every real-client module, every StableHLO
//! compatibility artifact and the seeds IREE wrote (`fuzz/seeds/bytecode`),
//! each once per dialect but builtin with that dialect renamed to a name
//! we know nothing of (its last letter changed in the string section).
//! The listing and the full read succeed with `ReadOptions::skip_unknown`,
//! the structural check finds nothing, and what the renamed dialect held
//! is reported as not decoded: its ops (when it has registered ones at v5+)
//! and its custom entries (when it has any).

use rmlir_reader::{BytecodeReader, ReadOptions};
use rmlir_tests::corpus_dir;
use std::path::{Path, PathBuf};

fn files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = rmlir_tests::case_dirs("real-client/cases")
        .into_iter()
        .map(|c| c.join("v6.mlirbc"))
        .collect();
    let compat = corpus_dir().join("../third-party/stablehlo/compat-artifacts");
    let seeds = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/seeds/bytecode");
    for dir in [compat, seeds] {
        let mut more: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.unwrap().path())
            .filter(|p| {
                let n = p.file_name().unwrap().to_string_lossy();
                n.ends_with(".mlir.bc") || n.ends_with(".mlirbc")
            })
            .collect();
        more.sort();
        files.extend(more);
    }
    files
}

#[test]
fn renamed_dialects_are_read_past_and_reported() {
    let skipping = ReadOptions {
        skip_unknown: true,
        ..Default::default()
    };
    let (mut tried, mut reported) = (0, 0);
    for f in files() {
        let data = std::fs::read(&f).unwrap();
        // The files this reader reads at all (a compatibility artifact
        // from a future release is refused by design).
        let Ok(r) = BytecodeReader::open(&data) else {
            continue;
        };
        let dialects: Vec<Vec<u8>> = r.dialects().map(|(n, _)| n.to_vec()).collect();
        drop(r);
        // A short name may be a string other entries share (the string
        // table holds each string once: dialect `x` and attribute name `x`).
        for name in dialects
            .iter()
            .filter(|n| n.as_slice() != b"builtin" && n.len() >= 3)
        {
            let mut key = name.clone();
            key.push(0);
            let at: Vec<usize> = data
                .windows(key.len())
                .enumerate()
                .filter(|(_, w)| *w == key.as_slice())
                .map(|(i, _)| i)
                .collect();
            let [at] = at[..] else { continue };
            let mut renamed = data.clone();
            let last = at + name.len() - 1;
            renamed[last] = if renamed[last] == b'z' { b'y' } else { b'z' };
            let mut new_name = name.clone();
            *new_name.last_mut().unwrap() = renamed[last];
            let what = format!(
                "{} with '{}' renamed",
                f.display(),
                String::from_utf8_lossy(name)
            );
            tried += 1;

            let owner: rmlir_format::SharedBytes = std::sync::Arc::new(renamed.clone());
            let (r, _) = BytecodeReader::open_listing(&owner, &skipping, &mut |_, _| {})
                .unwrap_or_else(|e| panic!("{what}: info: {e}"));
            let prefix = [new_name.as_slice(), b"."].concat();
            let ops_listed = r
                .ops_without_layouts()
                .iter()
                .any(|o| o.starts_with(&prefix));
            let entries_listed = r.entries_without_encodings().contains_key(&new_name);
            let m = rmlir_reader::read_bytecode_with_options(&renamed, &skipping)
                .unwrap_or_else(|e| panic!("{what}: verify: {e}"));
            let registry = rmlir_format::op_registry::OpRegistry::default_ref();
            let (_, findings) = rmlir_format::verify::verify(&m, registry, &mut |_, _, _| {});
            assert!(findings.is_empty(), "{what}: {findings:?}");
            // Whatever the dialect held that needs decoding is reported.
            let original = rmlir_reader::read_bytecode_with_options(&data, &skipping).unwrap();
            let has_registered_ops = r.version() >= 5
                && r.op_names()
                    .any(|(n, reg)| reg == Some(true) && n.starts_with(&prefix));
            assert_eq!(ops_listed, has_registered_ops, "{what}: ops reported");
            if ops_listed || entries_listed {
                reported += 1;
            }
            assert_eq!(original.ops.len(), m.ops.len(), "{what}: ops read");
        }
    }
    println!(
        "{tried} files with one dialect renamed read past, {reported} with something reported"
    );
    // 35 on 2026-11-26, 33 with something reported: the other two are the
    // real-client modules mlir-opt 22 wrote, where stablehlo's ops are
    // unregistered and its attributes text, so nothing needs its layouts.
    assert!(
        tried >= rmlir_tests::floor("unknown_dialects: files", 35),
        "only {tried} renamed files"
    );
}
