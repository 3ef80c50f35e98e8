//! Shared helpers for rmlir-bc's corpus and differential tests.

use std::path::{Path, PathBuf};

/// The op dialects of each corpus case, from its manifest
/// (`op_dialects` column), by case id.
pub fn op_dialects() -> std::collections::BTreeMap<String, String> {
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

/// The corpus the tests read: `$RMLIR_CORPUS` if set, else
/// `../shared/corpus` beside the checkout if it exists, else the sample
/// bundled in `tests/corpus-sample/corpus` (SPEC.md §1.2). Under CI (`CI`
/// set) the full corpus is required: this panics rather than fall back to
/// the sample.
pub fn corpus_dir() -> PathBuf {
    static DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let dir = match std::env::var_os("RMLIR_CORPUS") {
            Some(p) => PathBuf::from(p),
            None => {
                let full = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus");
                if full.is_dir() {
                    full
                } else {
                    sample_dir().join("corpus")
                }
            }
        };
        if under_ci() && is_sample_at(&dir) {
            panic!(
                "CI needs the full corpus (../shared/corpus or $RMLIR_CORPUS), not the sample at {}",
                dir.display()
            );
        }
        dir
    })
    .clone()
}

/// The bundled sample: `corpus/`, `tools/` and `third-party/` laid out as
/// in `../shared` (made by `tools/corpus-sample/make_sample.py`).
pub fn sample_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus-sample")
}

/// Whether the tests run under CI (`CI` set to anything but `false` or `0`).
pub fn under_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0")
}

fn is_sample_at(dir: &Path) -> bool {
    dir.join("selection.tsv").is_file()
}

/// Whether the corpus read is a sample (it has `selection.tsv`, the list
/// of chosen cases) rather than the full corpus.
pub fn is_sample() -> bool {
    is_sample_at(&corpus_dir())
}

/// Whether a known-failure row naming corpus case `id` applies: always on
/// the full corpus; on the sample only when the case is in it, so that
/// every sample case not listed must pass and a listed one present must
/// still fail.
pub fn listed_case_applies(id: &str) -> bool {
    !is_sample() || corpus_dir().join("cases").join(id).is_dir()
}

/// A figure a test compares a count with: `full` on the full corpus, the
/// sample's own figure for `name` (`tests/corpus-sample/floors.tsv`,
/// measured on the sample and compared the same way) on the sample.
pub fn floor(name: &str, full: usize) -> usize {
    if !is_sample() {
        return full;
    }
    let path = sample_dir().join("floors.tsv");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .find(|f| f[0] == name)
        .and_then(|f| f.get(1)?.parse().ok())
        .unwrap_or_else(|| {
            panic!(
                "{}: no figure for `{name}` (the full corpus's is {full}): measure it on the sample",
                path.display()
            )
        })
}

/// On the sample, says that the test needs `what`, which the sample does
/// not hold, and returns true: the caller skips. Never true under CI,
/// where `corpus_dir` refuses the sample.
pub fn skip_on_sample(test: &str, what: &str) -> bool {
    if is_sample() {
        println!("skipping {test} on the bundled corpus sample: it needs {what}, which the sample does not hold (set RMLIR_CORPUS to the full corpus)");
        return true;
    }
    false
}

/// The case folders under `cases/`, sorted.
pub fn case_dirs(sub: &str) -> Vec<PathBuf> {
    let dir = corpus_dir().join(sub);
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("corpus folder {} is required: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    v.sort();
    v
}

/// The `.mlirbc` files directly in `dir`, sorted.
pub fn mlirbc_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("corpus folder {} is required: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "mlirbc"))
        .collect();
    v.sort();
    v
}

/// The first line where `a` and `b` differ, for failure messages.
pub fn first_diff(a: &str, b: &str) -> String {
    for (i, (x, y)) in a.lines().zip(b.lines()).enumerate() {
        if x != y {
            return format!(
                "line {}:\n  expected: {}\n  actual:   {}",
                i + 1,
                clip(x),
                clip(y)
            );
        }
    }
    let (na, nb) = (a.lines().count(), b.lines().count());
    if na != nb {
        return format!("line counts differ: expected {na}, actual {nb}");
    }
    "trailing newline differs".to_string()
}

fn clip(s: &str) -> String {
    if s.len() > 300 {
        let mut end = 300;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        format!("{}…", &s[..end])
    } else {
        s.to_string()
    }
}

/// `(assertion, case id)` pairs listed in `tests/known-failures/<file>`:
/// tab-separated `assertion  case-id  reason`, `#` comments.
pub fn known_failures(file: &str) -> std::collections::BTreeSet<(String, String)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("known-failures")
        .join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let mut f = l.split('\t');
            let a = f.next().unwrap_or("").to_string();
            let id = f.next().unwrap_or("").to_string();
            assert!(
                f.next().is_some_and(|r| !r.trim().is_empty()),
                "{}: every entry needs a reason: {l}",
                path.display()
            );
            (a, id)
        })
        .collect()
}
pub mod arbitrary_ir;
pub mod counting_alloc;
pub mod distinct_reach;
pub mod large;
pub mod oracle;

pub use distinct_reach::textual_entry_reaches_distinct;

/// Whether a line of a printed module has a dialect attribute
/// (`#dialect.name<...>`) together with a `distinct[` id: the known case
/// (tests/known-failures/writer.tsv, `roundtrip` rows) where a bytecode
/// round trip may split shared distinct attributes, because dialect
/// attributes holding them are written as textual entries and each entry
/// read back makes its own. Used by the fuzz targets and regression tests
/// to skip that divergence, and only that one.
pub fn dialect_attr_with_distinct(text: &str) -> bool {
    text.lines().any(|l| {
        l.contains("distinct[")
            && l.match_indices('#').any(|(i, _)| {
                let rest = &l.as_bytes()[i + 1..];
                let n = rest
                    .iter()
                    .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
                    .count();
                n > 0 && rest.get(n) == Some(&b'.')
            })
    })
}

/// Whether the structural check (`rmlir_format::verify`, what `rmlir-bc
/// verify` runs; SPEC.md §8.6) finds `m` invalid: IR that mlir-opt's
/// verifier refuses, whose print need not read back (a branch to a
/// labelled entry block prints that block without its label). Used by
/// the `custom_form` fuzz target to skip such modules, and only those.
pub fn structurally_invalid(m: &rmlir_format::Module) -> bool {
    let registry = rmlir_format::op_registry::OpRegistry::default_ref();
    let (_, findings) = rmlir_format::verify::verify(m, registry, &mut |_, _, _| {});
    !findings.is_empty()
}

/// Whether the module holds a dialect attribute or type whose body MLIR
/// prints in a form its own parser does not read back, which mlir-opt 22
/// prints the same way and refuses in turn (both checked by hand):
/// - a body ending in `-`: `#r.-` prints as `#r<->`, whose `->` the lexer
///   reads as an arrow ("expected '>' in tensor type" on `tensor<f32,
///   #r<->>`, at the same column as ours);
/// - a body in the pretty form whose first `<…>` group ends before the
///   body does: `#s<o<><>>` prints as `#s.o<><>` (MLIR's
///   `isDialectSymbolSimpleEnoughForPrettyForm` looks only at the first
///   and last characters), and the reader stops after `#s.o<>`.
///
/// Used by the `custom_form` fuzz target and its regression tests to skip
/// these divergences, and only these.
pub fn dialect_body_prints_unreadably(m: &rmlir_format::Module) -> bool {
    use rmlir_format::{AttrData, AttrId, BodyPiece, DialectBody, TypeData, TypeId};
    fn unreadable(body: &[u8]) -> bool {
        if body.ends_with(b"-") {
            return true;
        }
        if !body.first().is_some_and(u8::is_ascii_alphabetic) {
            return false;
        }
        let open = body
            .iter()
            .position(|c| !(c.is_ascii_alphanumeric() || *c == b'.' || *c == b'_'));
        match open {
            Some(i) if body[i] == b'<' && body.ends_with(b">") => !matches!(
                rmlir_format::symbol_body::scan_symbol_body(body, i),
                Ok(end) if end == body.len()
            ),
            _ => false,
        }
    }
    let text = |b: &DialectBody| -> Option<Vec<u8>> {
        let mut out = Vec::new();
        for p in &b.pieces {
            match p {
                BodyPiece::Text(t) => out.extend_from_slice(t.as_bytes()),
                _ => return None,
            }
        }
        Some(out)
    };
    (0..m.ctx.num_attrs()).any(|i| match m.ctx.attr(AttrId(i as u32)) {
        AttrData::Dialect { body, .. } => text(body).is_some_and(|t| unreadable(&t)),
        AttrData::Opaque(o) => unreadable(&o.data),
        _ => false,
    }) || (0..m.ctx.num_types()).any(|i| match m.ctx.ty(TypeId(i as u32)) {
        TypeData::Dialect(body) => text(body).is_some_and(|t| unreadable(&t)),
        TypeData::Opaque { data, .. } => unreadable(data),
        _ => false,
    })
}

/// Whether the module holds an affine map or integer set whose printed
/// text parses to a different one. MLIR's parser simplifies expressions as
/// it builds them, and one pass is not always a fixpoint:
/// `d0 * 16 - -(d0 + 1) + 15` prints as `d0 * 16 + d0 + 1 + 15`, which
/// parses to `d0 * 17 + 16`. Builtin affine maps and sets go into bytecode
/// as text, so a bytecode round trip parses them a second time; mlir-opt
/// 22 does the same (checked by hand on that map: its bytes equal ours and
/// read back as `d0 * 17 + 16`). Used by the `text_roundtrip` fuzz target
/// and the regression test to skip that divergence.
pub fn affine_text_not_fixpoint(m: &rmlir_format::Module) -> bool {
    use rmlir_format::AttrData;
    use rmlir_reader::affine_parser::{parse_affine_map, parse_integer_set};
    (0..m.ctx.num_attrs()).any(|i| match m.ctx.attr(rmlir_format::AttrId(i as u32)) {
        AttrData::AffineMap(map) => {
            parse_affine_map(&format!("{map}>")).is_ok_and(|(again, _)| again != *map)
        }
        AttrData::IntegerSet(set) => {
            parse_integer_set(&format!("{set}>")).is_ok_and(|(again, _)| again != **set)
        }
        _ => false,
    })
}

/// Whether a text → bytecode → text round trip of `m` (printed as
/// `printed`) may differ for one of the reasons mlir-opt 22 shares: shared
/// distinct attributes split by textual entries (seen in the text, or
/// reached through aliases and nesting in the IR), or an affine map or set
/// whose text is no fixpoint. The `text_roundtrip` fuzz target and the
/// regression test skip exactly these.
pub fn known_round_trip_divergence(m: &rmlir_format::Module, printed: &str) -> bool {
    dialect_attr_with_distinct(printed)
        || textual_entry_reaches_distinct(m)
        || affine_text_not_fixpoint(m)
        || empty_file_range_location(printed)
        || location_twins(printed)
}

/// A line-only range location (`loc("f":4)`) prints as `loc("f":4:0)`,
/// the text of the point location it reads back as: a module holding both
/// prints two aliases of one text, and its reprint one. mlir-opt 22 does
/// the same (checked on two ops at `loc("input.mlir":4)` and
/// `loc("input.mlir":4:0)`, printed twice). Only then do two location
/// aliases of a print share their text: locations are uniqued.
pub fn location_twins(printed: &str) -> bool {
    let mut seen = std::collections::HashSet::new();
    printed
        .lines()
        .filter(|l| l.starts_with("#loc"))
        .filter_map(|l| l.split_once(" = "))
        .any(|(_, body)| !seen.insert(body))
}

/// A range location with an empty file name (`loc("":6)`) prints as
/// `loc("":6:0)`, which reads back as a point location, printed
/// `loc("-":6:0)`: mlir-opt 22 does the same (checked on `"f"() : () ->
/// () loc("":6)`, printed twice). Only such a location prints `"":` (a
/// point location's empty name prints as `"-"`).
pub fn empty_file_range_location(printed: &str) -> bool {
    printed.contains("\"\":")
}

#[cfg(test)]
mod affine_fixpoint_tests {
    #[test]
    fn finds_a_map_whose_text_parses_to_another() {
        let parse = |s: &str| rmlir_reader::parse_module(s.as_bytes(), "t.mlir").unwrap();
        let settled = parse("\"f\"() {m = affine_map<(d0) -> (d0 * 17 + 16)>} : () -> ()");
        assert!(!super::affine_text_not_fixpoint(&settled));
        let unsettled =
            parse("\"f\"() {m = affine_map<(d0) -> (d0 * 16 - -(d0 + 1) + 15)>} : () -> ()");
        assert!(super::affine_text_not_fixpoint(&unsettled));
    }
}
