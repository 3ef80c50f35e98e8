//! `BytecodeReader::reserve_for_full_read`, which the command line calls
//! before materializing everything, decodes the attribute table's plain
//! locations ahead of their uses in batches (SPEC.md §6.6.1). For every
//! bytecode file of the corpus, a read that does so prints and writes
//! exactly what a read that does not prints and writes, and fails where and
//! how it fails.
//!
//! `BytecodeReader::reserve_for_full_read_on` parses the table's file
//! locations on several threads (SPEC.md §6.6.1), and
//! `BytecodeReader::materialize_all_in_parts` reads the bodies on several
//! threads, each into a fragment with a fork of the context, merged after
//! (§6.7.6). Forced to split even the corpus's small files, they too must
//! print and write what a one-thread read does, and fail alike.

use rmlir_reader::BytecodeReader;
use std::path::PathBuf;

fn bytecode_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in rmlir_tests::case_dirs("cases")
        .into_iter()
        .chain(rmlir_tests::case_dirs("real-client/cases"))
    {
        files.extend(rmlir_tests::mlirbc_files(&dir));
    }
    for sub in ["upstream-bytecode/invalid", "upstream-bytecode/versioning"] {
        files.extend(rmlir_tests::mlirbc_files(
            &rmlir_tests::corpus_dir().join(sub),
        ));
    }
    files
}

/// The module printed, and written as bytecode again (or the writer's
/// error).
type Outputs = (String, Result<Vec<u8>, String>);

/// How the bodies are read.
#[derive(Clone, Copy, Debug)]
enum Read {
    /// `materialize_all`, nothing decoded ahead.
    Plain,
    /// `reserve_for_full_read`, then `materialize_all`.
    Full,
    /// `reserve_for_full_read_on` this many threads (the file locations
    /// parsed in runs of 16 entries), then the bodies split into this many
    /// runs.
    Parts(usize),
}

fn outputs(data: &[u8], read: Read) -> Result<Outputs, String> {
    let mut r = BytecodeReader::open(data).map_err(|e| e.to_string())?;
    match read {
        Read::Plain => r.materialize_all(),
        Read::Full => {
            r.reserve_for_full_read();
            r.materialize_all()
        }
        Read::Parts(n) => {
            r.reserve_for_full_read_on(n);
            r.materialize_all_in_parts(n)
        }
    }
    .map_err(|e| {
        // What was read before the error stays, the same either way.
        let m = r.module();
        let sizes = (m.ops.len(), m.blocks.len(), m.regions.len(), m.values.len());
        format!("{e} (ops, blocks, regions, values read: {sizes:?})")
    })?;
    let m = r.into_module();
    let written = rmlir_writer::write_bytecode(&m, &Default::default()).map_err(|e| e.to_string());
    Ok((rmlir_writer::print_module(&m, Default::default()), written))
}

/// Reads every corpus bytecode file plainly and in each of `reads`, and
/// asserts the outputs (or errors) are the same; `(printed alike, failed
/// alike, files for which `count` holds)`.
fn compare_reads(reads: &[Read], count: impl Fn(&[u8]) -> bool) -> (usize, usize, usize) {
    let (mut same, mut failed_alike, mut counted) = (0, 0, 0);
    for path in bytecode_files() {
        let data = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let plain = outputs(&data, Read::Plain);
        for &read in reads {
            assert_eq!(plain, outputs(&data, read), "{} ({read:?})", path.display());
        }
        counted += usize::from(count(&data));
        match plain {
            Ok(_) => same += 1,
            Err(_) => failed_alike += 1,
        }
    }
    (same, failed_alike, counted)
}

#[test]
fn locations_decoded_ahead_print_the_same() {
    let (same, failed_alike, _) = compare_reads(&[Read::Full], |_| false);
    println!(
        "full read with locations decoded ahead: {same} printed and written alike, {failed_alike} failed alike"
    );
    assert!(
        same > rmlir_tests::floor("full_read: files read ahead", 6000),
        "only {same} files read"
    );
}

/// Whether a read in parts splits `data`'s bodies: two or more pending
/// once the bodies pending alone (a module's) are read.
fn splits(data: &[u8]) -> bool {
    let Ok(mut r) = BytecodeReader::open(data) else {
        return false;
    };
    while r.pending().count() == 1 {
        let op = r.pending().next().expect("one is pending");
        if r.materialize(op).is_err() {
            return false;
        }
    }
    r.pending().count() >= 2
}

#[test]
fn bodies_read_in_parts_print_the_same() {
    let (same, failed_alike, split) = compare_reads(&[Read::Parts(2), Read::Parts(3)], splits);
    println!(
        "bodies read in 2 and 3 parts: {same} printed and written alike, {failed_alike} failed alike, {split} of them split"
    );
    assert!(
        same > rmlir_tests::floor("full_read: files read in parts", 6000),
        "only {same} files read"
    );
    assert!(
        split > rmlir_tests::floor("full_read: files split", 500),
        "only {split} files had bodies to split"
    );
}

/// The second pass of entries parsed ahead (SPEC.md §6.6.1) on each kind
/// of location it takes or leaves: a module of our own, written as
/// bytecode, read with the passes forced on, prints and writes what a
/// plain read does. Counted by hand, the passes parse fifteen entries:
/// five plain file locations (`a.mlir:1:2`, `b.mlir:3:4`, `a.mlir:5:6`,
/// `c.mlir:7:8`, `a.mlir:9:10`; `m.mlir:1:1` and its file name were
/// decoded when the file was opened, with the top-level op), then `#l1`
/// (fused, plain members), `#l2` (a name), the name `"callee"` inside
/// `#l3`, `#l6` (a call site of two file locations), and six string
/// entries (`a.mlir`, `b.mlir`, `c.mlir`, `n`, `callee`, `meta`: the first
/// pass reads file names without decoding their entries). They leave
/// `#l3` (its callee is a name decoded in the same pass), `#l4` (metadata)
/// and `#l5` (a member that is a name).
#[test]
fn location_kinds_parsed_ahead_print_the_same() {
    let text = r#""builtin.module"() ({
  "test.a"() : () -> () loc(#l1)
  "test.b"() : () -> () loc(#l2)
  "test.c"() : () -> () loc(#l3)
  "test.d"() : () -> () loc(#l4)
  "test.e"() : () -> () loc(#l5)
  "test.f"() : () -> () loc(#l6)
}) : () -> () loc(#l0)
#l0 = loc("m.mlir":1:1)
#l1 = loc(fused["a.mlir":1:2, "b.mlir":3:4])
#l2 = loc("n"("a.mlir":5:6))
#l3 = loc(callsite("callee"("c.mlir":7:8) at "a.mlir":9:10))
#l4 = loc(fused<"meta">["a.mlir":1:2, "c.mlir":7:8])
#l5 = loc(fused["n"("a.mlir":5:6), "b.mlir":3:4])
#l6 = loc(callsite("a.mlir":1:2 at "b.mlir":3:4))
"#;
    let m = rmlir_reader::parse_module(text.as_bytes(), "kinds.mlir").expect("parses");
    let printed = rmlir_writer::print_module(&m, Default::default());
    let data = rmlir_writer::write_bytecode(&m, &Default::default()).expect("writes");
    let plain = outputs(&data, Read::Plain).expect("reads");
    assert_eq!(plain.0, printed, "the bytecode prints as the text does");
    for read in [Read::Parts(2), Read::Parts(3)] {
        assert_eq!(outputs(&data, read).expect("reads"), plain, "{read:?}");
    }
    let mut r = BytecodeReader::open(&data).expect("opens");
    r.reserve_for_full_read_on(2);
    assert_eq!(r.stats().parsed_ahead, 15);
}
