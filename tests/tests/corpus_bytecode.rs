//! Assertion 3 of the corpus README over every case: reading `v6.mlirbc`
//! (written by mlir-opt 22) and printing it gives `generic.mlir` (or
//! `v6.read-back.mlir` where mlir-opt itself differs) byte for byte.
//! Known failures are listed with their reason in
//! `tests/known-failures/bytecode.tsv`; any other difference fails, and so
//! does a listed case that passes.

use rmlir_tests::{case_dirs, corpus_dir, first_diff, known_failures, listed_case_applies};
use std::collections::{BTreeMap, BTreeSet};

fn manifest_tags() -> BTreeMap<String, String> {
    let m = std::fs::read_to_string(corpus_dir().join("manifest.tsv")).expect("manifest.tsv");
    m.lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f[0].to_string(), f[3].to_string())
        })
        .collect()
}

fn decode_case(case: &std::path::Path) -> Result<(), String> {
    let bc = std::fs::read(case.join("v6.mlirbc")).map_err(|e| e.to_string())?;
    let expected = std::fs::read(case.join("v6.read-back.mlir"))
        .or_else(|_| std::fs::read(case.join("generic.mlir")))
        .map_err(|e| e.to_string())?;
    let m = rmlir_reader::read_bytecode(&bc).map_err(|e| format!("read error: {e}"))?;
    let out = rmlir_writer::print_module(&m, Default::default());
    if out.as_bytes() == expected {
        Ok(())
    } else {
        Err(first_diff(&String::from_utf8_lossy(&expected), &out))
    }
}

#[test]
fn corpus_v6_bytecode_decodes_to_mlir_opt_text() {
    let known = known_failures("bytecode.tsv");
    let tags = manifest_tags();
    let mut total = 0;
    let mut failed = BTreeSet::new();
    let mut unexpected = Vec::new();
    let mut by_tag: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for case in case_dirs("cases") {
        let id = case.file_name().unwrap().to_string_lossy().into_owned();
        total += 1;
        let r = decode_case(&case);
        let t = tags.get(&id).map(String::as_str).unwrap_or("");
        for tag in [
            "ops:unregistered-only",
            "ops:module-only",
            "ops:registered",
            "bc:dialect-custom-encoding",
        ] {
            if t.split(',').any(|x| x == tag) {
                let e = by_tag.entry(tag).or_default();
                e.1 += 1;
                if r.is_ok() {
                    e.0 += 1;
                }
            }
        }
        if let Err(why) = r {
            if !known.contains(&("bytecode".to_string(), id.clone())) {
                unexpected.push(format!("{id}: {why}"));
            }
            failed.insert(id);
        }
    }
    println!(
        "v6.mlirbc -> generic text: {}/{total} passed",
        total - failed.len()
    );
    for (tag, (p, n)) in &by_tag {
        println!("  {tag}: {p}/{n}");
    }
    for u in unexpected.iter().take(40) {
        println!("UNEXPECTED FAILURE {u}");
    }
    assert!(
        unexpected.is_empty(),
        "{} cases differ (see above)",
        unexpected.len()
    );
    for (_, id) in &known {
        assert!(
            failed.contains(id) || !listed_case_applies(id),
            "{id} is listed in bytecode.tsv but now passes: remove it"
        );
    }
}

#[test]
fn real_client_bytecode_decodes_to_mlir_opt_text() {
    for case in case_dirs("real-client/cases") {
        if let Err(why) = decode_case(&case) {
            panic!("{}: {why}", case.display());
        }
    }
}
