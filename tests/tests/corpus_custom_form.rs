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
//! The same is measured of mlir-opt's own custom print of each case
//! (`pretty.mlir`, assertion `pretty`), against its generic print of that
//! file.
//!
//! `RMLIR_CUSTOM_FORM_REPORT=FILE` (`RMLIR_PRETTY_FORM_REPORT` for the
//! second) writes one line per case: id, outcome, the op dialects of its
//! manifest row and the first difference or error.

use rmlir_reader::{parse_module, ErrorKind};
use rmlir_tests::{case_dirs, first_diff, floor, known_failures, op_dialects};
use rmlir_writer::{print_module, PrintOptions};
use std::collections::{BTreeMap, BTreeSet};

/// Cases equal on 2026-11-27 (SPEC.md §11.2, "Measured"): the floor the
/// count may not fall below.
const AT_LEAST_EQUAL: usize = 5633;

/// The same floor for mlir-opt's own custom prints (`pretty.mlir`).
const AT_LEAST_EQUAL_PRETTY: usize = 5697;

/// One measure: `source` of every case parsed and printed generic against
/// `expected` (the first of those files the case has), the differences
/// checked against the `assertion` rows of the known-failures file; the
/// report goes to the file `report_var` names. Returns the equal count.
fn measure(source: &str, expected: &[&str], assertion: &str, report_var: &str) -> usize {
    let dialects = op_dialects();
    let known = known_failures("custom-form.tsv");
    let known_ids: BTreeSet<&str> = known
        .iter()
        .filter(|(a, _)| a == assertion)
        .map(|(_, id)| id.as_str())
        .collect();
    let mut report = String::new();
    let (mut equal, mut refused, mut total) = (0usize, 0usize, 0usize);
    let mut per_dialect: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut unlisted = Vec::new();
    let mut now_pass = Vec::new();
    for case in case_dirs("cases") {
        let Ok(input) = std::fs::read(case.join(source)) else {
            continue;
        };
        let Some(expected) = expected
            .iter()
            .find_map(|f| std::fs::read_to_string(case.join(f)).ok())
        else {
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
        let (outcome, detail) = match parse_module(&input, source) {
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
    if let Ok(path) = std::env::var(report_var) {
        std::fs::write(path, &report).unwrap();
    }
    eprintln!(
        "{source} in custom form: {equal}/{total} equal, {refused} refused, {} different",
        total - equal - refused
    );
    for (d, (p, t)) in &per_dialect {
        eprintln!("  {d}: {p}/{t}");
    }
    assert!(
        total > floor("custom-form cases", 5800),
        "the corpus has only {total} cases outside the test dialect"
    );
    assert!(
        unlisted.is_empty(),
        "{} cases differ from mlir-opt and are not `{assertion}` rows of tests/known-failures/custom-form.tsv:\n{}",
        unlisted.len(),
        unlisted.join("\n")
    );
    assert!(
        now_pass.is_empty(),
        "listed `{assertion}` cases now equal (remove them from custom-form.tsv): {now_pass:?}"
    );
    equal
}

#[test]
fn corpus_inputs_in_custom_form_print_as_mlir_opt_generic() {
    let equal = measure(
        "input.mlir",
        &["generic.mlir"],
        "custom",
        "RMLIR_CUSTOM_FORM_REPORT",
    );
    let at_least = floor("custom-form equal", AT_LEAST_EQUAL);
    assert!(
        equal >= at_least,
        "{equal} cases equal, fewer than the {at_least} measured before"
    );
}

/// mlir-opt's own custom print of each case (`pretty.mlir`), read as
/// `pretty.mlir`: its generic print is mlir-opt's generic print of that
/// file (`pretty.generic.mlir` where mlir-opt's re-parse moves locations,
/// else `generic.mlir`).
#[test]
fn mlir_opt_custom_prints_read_back_as_mlir_opt_reads_them() {
    let equal = measure(
        "pretty.mlir",
        &["pretty.generic.mlir", "generic.mlir"],
        "pretty",
        "RMLIR_PRETTY_FORM_REPORT",
    );
    let at_least = floor("custom-form pretty equal", AT_LEAST_EQUAL_PRETTY);
    assert!(
        equal >= at_least,
        "{equal} cases equal, fewer than the {at_least} measured before"
    );
}
