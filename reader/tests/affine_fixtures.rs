//! Affine maps and integer sets checked against mlir-opt (LLVM 22).
//!
//! The fixtures under `tests/fixtures/affine/` hold inputs and the text
//! mlir-opt prints for them (regenerate with `regen.sh` there).  Every input
//! body is parsed with our parser and printed with our printer; the result
//! must be exactly mlir-opt's.  Printing is then repeated on our own output
//! and compared with what mlir-opt does with its own output, so that the
//! (rare) places where mlir-opt's printing is not a fixpoint are reproduced
//! too.  Inputs mlir-opt rejects must be rejected.  Finally every affine map
//! and set in the shared corpus must reproduce itself.

use std::path::{Path, PathBuf};

use rmlir_reader::affine_parser::{parse_affine_map, parse_integer_set};

const MAP_PREFIX: &str = "\"test.op\"() {a = affine_map<";
const SET_PREFIX: &str = "\"test.op\"() {a = affine_set<";
const SUFFIX: &str = ">} : () -> ()";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Map,
    Set,
}

fn fixture_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/affine")
}

fn read_fixture(name: &str) -> String {
    let path = fixture_dir().join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
}

/// Splits a `"test.op"() {a = affine_map<BODY>} : () -> ()` line.
fn split_entry(line: &str) -> (Kind, &str) {
    let line = line.trim();
    let (kind, rest) = if let Some(rest) = line.strip_prefix(MAP_PREFIX) {
        (Kind::Map, rest)
    } else if let Some(rest) = line.strip_prefix(SET_PREFIX) {
        (Kind::Set, rest)
    } else {
        panic!("malformed fixture line: {line}");
    };
    let body = rest
        .strip_suffix(SUFFIX)
        .unwrap_or_else(|| panic!("malformed fixture line: {line}"));
    (kind, body)
}

fn is_entry(line: &str) -> bool {
    line.trim_start().starts_with("\"test.op\"")
}

/// All entries of a file, in order.
fn entries(text: &str) -> Vec<(Kind, &str)> {
    text.lines()
        .filter(|l| is_entry(l))
        .map(split_entry)
        .collect()
}

/// The chunks of a `--split-input-file` style file, each with its entry (if
/// any).
fn chunk_entries(text: &str) -> Vec<Option<(Kind, &str)>> {
    let mut chunks = vec![None];
    for line in text.lines() {
        if line.trim() == "// -----" {
            chunks.push(None);
        } else if is_entry(line) {
            let last = chunks.last_mut().expect("non-empty");
            assert!(last.is_none(), "two entries in one chunk: {line}");
            *last = Some(split_entry(line));
        }
    }
    chunks
}

/// Parses a whole body and prints it back; trailing text is an error.
fn reprint(kind: Kind, body: &str) -> Result<String, String> {
    let (text, consumed) = match kind {
        Kind::Map => parse_affine_map(body).map(|(m, n)| (m.to_string(), n)),
        Kind::Set => parse_integer_set(body).map(|(s, n)| (s.to_string(), n)),
    }
    .map_err(|e| e.to_string())?;
    if consumed != body.len() {
        return Err(format!("unparsed trailing text {:?}", &body[consumed..]));
    }
    Ok(text)
}

fn check_valid_fixture(name: &str) {
    let input = read_fixture(&format!("{name}.mlir"));
    let expected = read_fixture(&format!("{name}.expected.mlir"));
    let reparsed = read_fixture(&format!("{name}.reparsed.mlir"));
    let inputs = entries(&input);
    let outputs = entries(&expected);
    let second = chunk_entries(&reparsed);
    assert_eq!(inputs.len(), outputs.len(), "{name}: entry count mismatch");
    assert_eq!(inputs.len(), second.len(), "{name}: reparsed chunk count");
    assert!(!inputs.is_empty());

    let mut failures = Vec::new();
    let mut non_fixpoints = 0;
    for (i, ((kind, body), (out_kind, want))) in inputs.iter().zip(&outputs).enumerate() {
        assert_eq!(kind, out_kind, "{name} entry {i}");
        let got = match reprint(*kind, body) {
            Ok(got) => got,
            Err(e) => {
                failures.push(format!("#{i} {body}\n    error: {e}"));
                continue;
            }
        };
        if got != *want {
            failures.push(format!(
                "#{i} {body}\n    mlir-opt: {want}\n    ours:     {got}"
            ));
            continue;
        }
        // Second round on the printed text.
        let again = reprint(*kind, &got);
        match (&second[i], again) {
            (None, Err(_)) => non_fixpoints += 1,
            (None, Ok(text)) => failures.push(format!(
                "#{i} {want}\n    mlir-opt cannot re-parse its output, we print {text}"
            )),
            (Some((_, want2)), Ok(text)) => {
                if text != *want2 {
                    failures.push(format!(
                        "#{i} re-printing {want}\n    mlir-opt: {want2}\n    ours:     {text}"
                    ));
                } else if text != got {
                    non_fixpoints += 1;
                }
            }
            (Some((_, want2)), Err(e)) => failures.push(format!(
                "#{i} re-parsing {want} failed ({e}); mlir-opt prints {want2}"
            )),
        }
    }
    println!(
        "{name}: {} entries, {non_fixpoints} where mlir-opt's printing is not a fixpoint",
        inputs.len()
    );
    assert!(
        failures.is_empty(),
        "{name}: {} of {} entries differ from mlir-opt:\n{}",
        failures.len(),
        inputs.len(),
        failures.join("\n")
    );
}

#[test]
fn handwritten_maps_and_sets_match_mlir_opt() {
    check_valid_fixture("valid_handwritten");
}

#[test]
fn corpus_input_maps_and_sets_match_mlir_opt() {
    check_valid_fixture("valid_corpus_inputs");
}

#[test]
fn random_maps_and_sets_match_mlir_opt() {
    check_valid_fixture("valid_random");
}

#[test]
fn inputs_rejected_by_mlir_opt_are_rejected() {
    let text = read_fixture("invalid.mlir");
    let chunks = chunk_entries(&text);
    assert!(chunks.len() > 100);
    let mut accepted = Vec::new();
    for (kind, body) in chunks.iter().map(|c| c.expect("every chunk has an entry")) {
        if let Ok(printed) = reprint(kind, body) {
            accepted.push(format!("{body}  =>  {printed}"));
        }
    }
    assert!(
        accepted.is_empty(),
        "accepted invalid inputs:\n{}",
        accepted.join("\n")
    );
}

/// Every `affine_map<...>` and `affine_set<...>` in the corpus's generic
/// output (printed by mlir-opt) must parse and print back to itself, with
/// the parser stopping right at the closing `>`.
#[test]
fn corpus_affine_attributes_reproduce_themselves() {
    // The corpus as `rmlir_tests::corpus_dir` chooses it (this crate
    // cannot depend on that one): `$RMLIR_CORPUS`, else `../shared/corpus`,
    // else the bundled sample; under CI only the full corpus.
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root");
    let full = workspace.join("../shared/corpus");
    let corpus = match std::env::var_os("RMLIR_CORPUS") {
        Some(p) => PathBuf::from(p),
        None if full.is_dir() => full,
        None => workspace.join("tests/corpus-sample/corpus"),
    };
    let ci = std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0");
    assert!(
        !(ci && corpus.join("selection.tsv").is_file()),
        "CI needs the full corpus, not the sample at {}",
        corpus.display()
    );
    let cases = corpus.join("cases");
    let dir = std::fs::read_dir(&cases)
        .unwrap_or_else(|e| panic!("corpus folder {} is required: {e}", cases.display()));
    let mut paths: Vec<PathBuf> = dir
        .filter_map(|e| e.ok())
        .map(|e| e.path().join("generic.mlir"))
        .filter(|p| p.is_file())
        .collect();
    paths.sort();

    let mut total = 0;
    let mut unique = std::collections::HashSet::new();
    let mut failures = Vec::new();
    for path in &paths {
        let text = std::fs::read_to_string(path)
            .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
        for (keyword, kind) in [("affine_map<", Kind::Map), ("affine_set<", Kind::Set)] {
            let mut from = 0;
            while let Some(pos) = text[from..].find(keyword) {
                let start = from + pos + keyword.len();
                from = start;
                total += 1;
                let rest = &text[start..];
                let parsed = match kind {
                    Kind::Map => parse_affine_map(rest).map(|(m, n)| (m.to_string(), n)),
                    Kind::Set => parse_integer_set(rest).map(|(s, n)| (s.to_string(), n)),
                };
                match parsed {
                    Ok((printed, n)) => {
                        let original = &rest[..n];
                        unique.insert(original.to_string());
                        if !rest[n..].starts_with('>') {
                            failures.push(format!(
                                "{}: parser stopped before {:?}",
                                path.display(),
                                &rest[n..rest.len().min(n + 20)]
                            ));
                        } else if printed != original {
                            failures.push(format!(
                                "{}:\n    corpus: {original}\n    ours:   {printed}",
                                path.display()
                            ));
                        }
                    }
                    Err(e) => {
                        let end = rest.char_indices().nth(100).map_or(rest.len(), |(i, _)| i);
                        failures.push(format!("{}: {e} in {:?}", path.display(), &rest[..end]));
                    }
                }
            }
        }
    }
    println!(
        "corpus: {} files, {total} affine attributes ({} distinct)",
        paths.len(),
        unique.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {total} corpus affine attributes do not reproduce:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
