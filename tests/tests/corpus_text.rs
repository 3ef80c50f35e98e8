//! Assertions 1–2 of the corpus README over every case and the two
//! real-client modules: parsing mlir-opt's generic and local-scope output
//! and printing it again gives mlir-opt's text byte for byte.
//!
//! Cases that are known not to match yet are listed, each with its reason,
//! in `tests/known-failures/text.tsv`. The test fails on any difference
//! that is not listed, and on any listed case that now passes (so the list
//! only ever shrinks).

use rmlir_reader::parse_module;
use rmlir_tests::{case_dirs, first_diff, floor, known_failures, listed_case_applies};
use rmlir_writer::{print_module, PrintOptions};
use std::collections::BTreeSet;
use std::path::Path;

struct Tally {
    name: &'static str,
    pass: usize,
    total: usize,
    failed: Vec<(String, String)>,
}

impl Tally {
    fn new(name: &'static str) -> Self {
        Tally {
            name,
            pass: 0,
            total: 0,
            failed: Vec::new(),
        }
    }

    fn check(&mut self, case: &Path, input: &[u8], opts: PrintOptions, expected: &[u8]) {
        self.total += 1;
        let id = case.file_name().unwrap().to_string_lossy().into_owned();
        match parse_module(input, "input.mlir") {
            Err(e) => self.failed.push((id, format!("parse error: {e}"))),
            Ok(m) => {
                let out = print_module(&m, opts);
                if out.as_bytes() == expected {
                    self.pass += 1;
                } else {
                    let exp = String::from_utf8_lossy(expected);
                    self.failed.push((id, first_diff(&exp, &out)));
                }
            }
        }
    }
}

fn read(p: &Path) -> Option<Vec<u8>> {
    std::fs::read(p).ok()
}

fn run(sub: &str) -> Vec<Tally> {
    let mut generic = Tally::new("generic");
    let mut local = Tally::new("local");
    let mut to_local = Tally::new("to-local");
    for case in case_dirs(sub) {
        let Some(g) = read(&case.join("generic.mlir")) else {
            continue;
        };
        let g_expected = read(&case.join("generic.reparsed.mlir")).unwrap_or_else(|| g.clone());
        // The generic and to-local prints take the parallel path of the
        // printer (which large modules take by themselves), the local one
        // the sequential path, so both are held to mlir-opt's bytes.
        let parallel = PrintOptions {
            force_parallel: true,
            ..Default::default()
        };
        generic.check(&case, &g, parallel, &g_expected);
        if let Some(l) = read(&case.join("local.mlir")) {
            let l_expected = read(&case.join("local.reparsed.mlir")).unwrap_or_else(|| g.clone());
            local.check(&case, &l, PrintOptions::default(), &l_expected);
            let to_local_opts = PrintOptions {
                local_scope: true,
                ..parallel
            };
            to_local.check(&case, &g, to_local_opts, &l);
        }
    }
    vec![generic, local, to_local]
}

fn judge(tallies: &[Tally]) {
    let known = known_failures("text.tsv");
    let mut unexpected = Vec::new();
    let mut now_passing = Vec::new();
    for t in tallies {
        println!("{}: {}/{} passed", t.name, t.pass, t.total);
        let failed: BTreeSet<&str> = t.failed.iter().map(|f| f.0.as_str()).collect();
        for (id, why) in &t.failed {
            if !known.contains(&(t.name.to_string(), id.clone())) {
                unexpected.push(format!("[{}] {id}: {why}", t.name));
            }
        }
        for (a, id) in &known {
            if a == t.name && !failed.contains(id.as_str()) && t.total > 0 {
                now_passing.push(format!("[{a}] {id}"));
            }
        }
    }
    for u in unexpected.iter().take(50) {
        println!("UNEXPECTED FAILURE {u}");
    }
    assert!(
        unexpected.is_empty(),
        "{} cases differ from mlir-opt's text (see above)",
        unexpected.len()
    );
    let _ = now_passing;
}

#[test]
fn corpus_cases_text_round_trip() {
    let tallies = run("cases");
    judge(&tallies);
    // Listed failures must still fail: a fixed case comes off the list.
    let known = known_failures("text.tsv");
    for t in &tallies {
        let failed: BTreeSet<&str> = t.failed.iter().map(|f| f.0.as_str()).collect();
        for (a, id) in &known {
            assert!(
                a != t.name || failed.contains(id.as_str()) || !listed_case_applies(id),
                "[{a}] {id} is listed in tests/known-failures/text.tsv but now passes: remove it"
            );
        }
    }
}

#[test]
fn real_client_text_round_trip() {
    let tallies = run("real-client/cases");
    for t in &tallies {
        println!("real-client {}: {}/{} passed", t.name, t.pass, t.total);
        for (id, why) in &t.failed {
            println!("FAIL [{}] {id}: {why}", t.name);
        }
        assert_eq!(
            t.pass, t.total,
            "real-client modules must match mlir-opt exactly"
        );
        assert_eq!(t.total, floor("real-client cases", 2));
    }
}
