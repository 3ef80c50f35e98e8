//! Issue 29's measure over the corpus: every case's `input.mlir`, which
//! holds ops in their custom form, parsed and printed generic, against
//! mlir-opt 22's `generic.mlir` of the same file (SPEC.md §11.2).
//!
//! A case ends one of three ways:
//! - **equal**: our generic print is mlir-opt's, byte for byte;
//! - **refused**: the parser says the custom syntax of an op is not
//!   known (an `Unsupported` error naming the op and its position);
//! - **different**: anything else, a wrong parse or an error of another
//!   kind. These are listed one by one, with their reason, in
//!   `tests/known-failures/custom-form.tsv`; the test fails on any that is
//!   not listed, and on a listed case that now passes.
//!
//! The test also fails when fewer cases are equal than the figure last
//! measured (`AT_LEAST_EQUAL`), so the count only grows.
//!
//! `RMLIR_CUSTOM_FORM_REPORT=FILE` writes one line per case: id, outcome,
//! the op dialects of its manifest row and the first difference or error.

use rmlir_reader::{parse_module, ErrorKind};
use rmlir_tests::{case_dirs, corpus_dir, first_diff, known_failures};
use rmlir_writer::{print_module, PrintOptions};
use std::collections::{BTreeMap, BTreeSet};

/// Cases equal on 2026-11-26 (see the closing table of BENCHMARKS.md's
/// custom-form section): the floor the count may not fall below.
const AT_LEAST_EQUAL: usize = 2831;

/// The manifest's op dialects of each case.
fn op_dialects() -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(corpus_dir().join("manifest.tsv")).unwrap_or_default();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap_or("").split('\t').collect();
    let col = header.iter().position(|h| *h == "op_dialects");
    lines
        .filter_map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            Some((f.first()?.to_string(), f.get(col?)?.to_string()))
        })
        .collect()
}

#[test]
fn corpus_inputs_in_custom_form_print_as_mlir_opt_generic() {
    let dialects = op_dialects();
    let known = known_failures("custom-form.tsv");
    let known_ids: BTreeSet<&str> = known
        .iter()
        .filter(|(a, _)| a == "custom")
        .map(|(_, id)| id.as_str())
        .collect();
    let mut report = String::new();
    let (mut equal, mut refused, mut total) = (0usize, 0usize, 0usize);
    let mut per_dialect: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut unlisted = Vec::new();
    let mut now_pass = Vec::new();
    for case in case_dirs("cases") {
        let (Ok(input), Ok(expected)) = (
            std::fs::read(case.join("input.mlir")),
            std::fs::read_to_string(case.join("generic.mlir")),
        ) else {
            continue;
        };
        let id = case.file_name().unwrap().to_string_lossy().into_owned();
        let ds = dialects.get(&id).cloned().unwrap_or_else(|| "-".into());
        // The test dialect's ops are defined in C++ test sources, not in
        // the ODS data: set aside, as in the other corpus measures.
        if ds.split(',').any(|d| d == "test") {
            continue;
        }
        total += 1;
        let (outcome, detail) = match parse_module(&input, "input.mlir") {
            Err(e) if e.kind() == ErrorKind::Unsupported => ("refused", e.to_string()),
            Err(e) => ("different", format!("error: {e}")),
            Ok(m) => {
                let out = print_module(&m, PrintOptions::default());
                if out == expected {
                    ("equal", String::new())
                } else {
                    ("different", first_diff(&expected, &out))
                }
            }
        };
        for d in ds.split(',') {
            let e = per_dialect.entry(d.to_string()).or_default();
            e.1 += 1;
            if outcome == "equal" {
                e.0 += 1;
            }
        }
        match outcome {
            "equal" => {
                equal += 1;
                if known_ids.contains(id.as_str()) {
                    now_pass.push(id.clone());
                }
            }
            "refused" => refused += 1,
            _ => {
                if !known_ids.contains(id.as_str()) {
                    unlisted.push(format!("{id}: {detail}"));
                }
            }
        }
        let one_line: String = detail
            .chars()
            .take(300)
            .collect::<String>()
            .replace(['\n', '\t'], " ");
        report.push_str(&format!("{id}\t{outcome}\t{ds}\t{one_line}\n"));
    }
    if let Ok(path) = std::env::var("RMLIR_CUSTOM_FORM_REPORT") {
        std::fs::write(path, &report).unwrap();
    }
    eprintln!(
        "custom form: {equal}/{total} equal, {refused} refused, {} different",
        total - equal - refused
    );
    for (d, (p, t)) in &per_dialect {
        eprintln!("  {d}: {p}/{t}");
    }
    assert!(
        total > 5800,
        "the corpus has only {total} cases outside the test dialect"
    );
    assert!(
        unlisted.is_empty(),
        "{} cases differ from mlir-opt and are not in tests/known-failures/custom-form.tsv:\n{}",
        unlisted.len(),
        unlisted.join("\n")
    );
    assert!(
        now_pass.is_empty(),
        "listed cases now equal (remove them from custom-form.tsv): {now_pass:?}"
    );
    assert!(
        equal >= AT_LEAST_EQUAL,
        "{equal} cases equal, fewer than the {AT_LEAST_EQUAL} measured before"
    );
}
