//! Issue 30's measure over the corpus: every case's `generic.mlir` printed
//! in the custom form (`PrintOptions::custom`, SPEC.md §11.4) against
//! mlir-opt 22's default print of the case (`pretty.mlir`), the test
//! dialect aside.
//!
//! Two things are checked of every case:
//! - **reads back**: our custom print, parsed by our reader and printed
//!   generic, is `generic.mlir` again, byte for byte: whatever is not yet
//!   printed as mlir-opt prints it (an op we print generic) must still be
//!   the same IR. The test fails on any case where it is not.
//! - **equal**: our custom print is `pretty.mlir`, byte for byte. The count
//!   may not fall below the figure last measured (`AT_LEAST_EQUAL`).
//!
//! mlir-opt 22 reads our custom print back too, of every 25th case
//! (`RMLIR_CUSTOM_PRINT_OPT_EVERY=N`: every Nth) and of every case whose
//! print our reader refuses (an op whose custom syntax it does not know). Where mlir-opt's re-parse of its own print gives
//! block arguments locations of their own (`pretty.generic.mlir`), only
//! a print equal to `pretty.mlir` can read back to it, so only such a
//! print is checked.
//!
//! `RMLIR_CUSTOM_PRINT_REPORT=FILE` writes one line per case: id, outcome
//! (`equal` or `different`), the op dialects of its manifest row and the
//! first difference.

use rmlir_reader::{parse_module, ErrorKind};
use rmlir_tests::{case_dirs, first_diff, floor, known_failures, op_dialects, oracle};
use rmlir_writer::{print_module, PrintOptions};
use std::collections::{BTreeMap, BTreeSet};

/// Cases equal on 2026-11-27 (SPEC.md §11.4, "Measured").
const AT_LEAST_EQUAL: usize = 5680;

#[test]
fn corpus_prints_in_custom_form_as_mlir_opt_and_reads_back() {
    let dialects = op_dialects();
    let custom = PrintOptions {
        custom: true,
        ..Default::default()
    };
    let mut report = String::new();
    let (mut equal, mut total) = (0usize, 0usize);
    let mut per_dialect: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut not_back = Vec::new();
    let mut opt_checked = 0usize;
    // `RMLIR_CUSTOM_PRINT_OPT_EVERY=1` has mlir-opt read back every case.
    let opt_every: usize = std::env::var("RMLIR_CUSTOM_PRINT_OPT_EVERY")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|&n| n > 0)
        .unwrap_or(25);
    let tmp = std::env::temp_dir().join(format!("rmlir-custom-print-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    for (k, case) in case_dirs("cases").into_iter().enumerate() {
        let (Ok(generic), Ok(pretty)) = (
            std::fs::read_to_string(case.join("generic.mlir")),
            std::fs::read_to_string(case.join("pretty.mlir")),
        ) else {
            continue;
        };
        let id = case.file_name().unwrap().to_string_lossy().into_owned();
        let ds = dialects.get(&id).cloned().unwrap_or_else(|| "-".into());
        if ds.split(',').any(|d| d == "test") {
            continue;
        }
        let Ok(m) = parse_module(generic.as_bytes(), "generic.mlir") else {
            continue;
        };
        total += 1;
        let ours = print_module(&m, custom);
        // Where parsing mlir-opt's own print gives locations of its own
        // (block arguments without one: `pretty.generic.mlir`), only a
        // print equal to it reads back to that, and is checked so.
        let want = match std::fs::read_to_string(case.join("pretty.generic.mlir")) {
            Ok(w) if ours == pretty => Some(w),
            Ok(_) => None,
            Err(_) => Some(generic.clone()),
        };
        // Read back by our reader (on the name mlir-opt's print has), or
        // by mlir-opt where ours refuses an op's custom syntax.
        let mut ask_opt = k % opt_every == 0;
        if let Some(want) = &want {
            match parse_module(ours.as_bytes(), "pretty.mlir") {
                Ok(back) => {
                    let again = print_module(&back, PrintOptions::default());
                    if &again != want {
                        not_back.push(format!("{id}: {}", first_diff(want, &again)));
                    }
                }
                Err(e) if e.kind() == ErrorKind::Unsupported => ask_opt = true,
                Err(e) => not_back.push(format!("{id}: our custom print does not parse: {e}")),
            }
        }
        if let (true, Some(want)) = (ask_opt, &want) {
            let path = tmp.join("pretty.mlir");
            std::fs::write(&path, &ours).unwrap();
            // Run in its folder, so that the locations it makes name the
            // file as mlir-opt's own print's do.
            let back = std::process::Command::new(oracle::mlir_opt())
                .current_dir(&tmp)
                .args([
                    "--allow-unregistered-dialect",
                    "--mlir-print-op-generic",
                    "--mlir-print-debuginfo",
                    "pretty.mlir",
                ])
                .output()
                .map_err(|e| e.to_string())
                .and_then(|o| {
                    if o.status.success() {
                        Ok(o.stdout)
                    } else {
                        Err(String::from_utf8_lossy(&o.stderr).into_owned())
                    }
                });
            match back {
                Ok(b) if String::from_utf8_lossy(&b) == *want => {}
                Ok(b) => not_back.push(format!(
                    "{id}: mlir-opt reads our custom print as other IR: {}",
                    first_diff(want, &String::from_utf8_lossy(&b))
                )),
                Err(e) => not_back.push(format!(
                    "{id}: mlir-opt does not read our custom print: {e}"
                )),
            }
            opt_checked += 1;
        }
        let (outcome, detail) = if ours == pretty {
            equal += 1;
            ("equal", String::new())
        } else {
            ("different", first_diff(&pretty, &ours))
        };
        for d in ds.split(',') {
            let e = per_dialect.entry(d.to_string()).or_default();
            e.1 += 1;
            if outcome == "equal" {
                e.0 += 1;
            }
        }
        let one_line: String = detail
            .chars()
            .take(300)
            .collect::<String>()
            .replace(['\n', '\t'], " ");
        report.push_str(&format!("{id}\t{outcome}\t{ds}\t{one_line}\n"));
    }
    let _ = std::fs::remove_dir_all(&tmp);
    if let Ok(path) = std::env::var("RMLIR_CUSTOM_PRINT_REPORT") {
        std::fs::write(path, &report).unwrap();
    }
    eprintln!("custom print of generic.mlir: {equal}/{total} equal to pretty.mlir; mlir-opt read back {opt_checked}");
    for (d, (p, t)) in &per_dialect {
        eprintln!("  {d}: {p}/{t}");
    }
    assert!(
        total > floor("custom-form cases", 5800),
        "the corpus has only {total} cases outside the test dialect"
    );
    let known: BTreeSet<String> = known_failures("custom-print.tsv")
        .into_iter()
        .filter(|(a, _)| a == "reads-back")
        .map(|(_, id)| id)
        .collect();
    let back_ids: BTreeSet<&str> = not_back
        .iter()
        .filter_map(|l| l.split(':').next())
        .collect();
    let now_back: Vec<&String> = known
        .iter()
        .filter(|id| {
            !back_ids.contains(id.as_str()) && case_dirs("cases").iter().any(|c| c.ends_with(id))
        })
        .collect();
    assert!(
        now_back.is_empty(),
        "listed in custom-print.tsv but now read back (remove them): {now_back:?}"
    );
    not_back.retain(|l| !known.contains(l.split(':').next().unwrap_or("")));
    assert!(
        not_back.is_empty(),
        "{} custom prints do not read back as the same IR and are not `reads-back` rows of tests/known-failures/custom-print.tsv:\n{}",
        not_back.len(),
        not_back.join("\n")
    );
    let at_least = floor("custom print equal", AT_LEAST_EQUAL);
    assert!(
        equal >= at_least,
        "{equal} cases equal, fewer than the {at_least} measured before"
    );
}
