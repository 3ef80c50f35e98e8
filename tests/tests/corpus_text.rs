//! Assertions 1–2 of the corpus README over every case (and the
//! real-client modules): parsing mlir-opt's generic and local-scope output
//! and printing it again gives mlir-opt's text byte for byte.

use rmlir_reader::parse_module;
use rmlir_tests::{case_dirs, first_diff};
use rmlir_writer::{print_module, PrintOptions};
use std::path::Path;

struct Tally {
    name: &'static str,
    pass: usize,
    total: usize,
    failures: Vec<String>,
}

impl Tally {
    fn new(name: &'static str) -> Self {
        Tally {
            name,
            pass: 0,
            total: 0,
            failures: Vec::new(),
        }
    }
    fn check(&mut self, case: &Path, input: &str, local_scope: bool, expected: &str) {
        self.total += 1;
        let id = case.file_name().unwrap().to_string_lossy().into_owned();
        match parse_module(input.as_bytes(), "input.mlir") {
            Err(e) => self.failures.push(format!("{id}: parse error: {e}")),
            Ok(m) => {
                let out = print_module(&m, PrintOptions { local_scope });
                if out == expected {
                    self.pass += 1;
                } else {
                    self.failures
                        .push(format!("{id}: {}", first_diff(expected, &out)));
                }
            }
        }
    }
    fn report(&self) -> bool {
        println!("{}: {}/{} passed", self.name, self.pass, self.total);
        for f in self.failures.iter().take(40) {
            println!("  FAIL {f}");
        }
        self.failures.is_empty()
    }
}

fn read(p: &Path) -> Option<String> {
    std::fs::read(p)
        .ok()
        .map(|b| String::from_utf8_lossy(&b).into_owned())
}

fn run(sub: &str) -> Vec<Tally> {
    let mut generic = Tally::new("generic -> generic");
    let mut local = Tally::new("local -> generic (with aliases)");
    let mut to_local = Tally::new("generic -> local-scope");
    for case in case_dirs(sub) {
        let Some(g) = read(&case.join("generic.mlir")) else {
            continue;
        };
        let g_expected = read(&case.join("generic.reparsed.mlir")).unwrap_or_else(|| g.clone());
        generic.check(&case, &g, false, &g_expected);
        if let Some(l) = read(&case.join("local.mlir")) {
            let l_expected = read(&case.join("local.reparsed.mlir")).unwrap_or_else(|| g.clone());
            local.check(&case, &l, false, &l_expected);
            to_local.check(&case, &g, true, &l);
        }
    }
    vec![generic, local, to_local]
}

#[test]
fn corpus_cases_text_round_trip() {
    let tallies = run("cases");
    let ok: Vec<bool> = tallies.iter().map(|t| t.report()).collect();
    assert!(
        ok.iter().all(|&b| b),
        "some corpus cases differ (see output above)"
    );
}

#[test]
fn real_client_text_round_trip() {
    let tallies = run("real-client/cases");
    let ok: Vec<bool> = tallies.iter().map(|t| t.report()).collect();
    assert!(
        ok.iter().all(|&b| b),
        "real-client modules differ (see output above)"
    );
}
