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
    assert!(same > 6000, "only {same} files read");
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
    assert!(same > 6000, "only {same} files read");
    assert!(split > 500, "only {split} files had bodies to split");
}
