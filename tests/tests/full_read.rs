//! `BytecodeReader::reserve_for_full_read`, which the command line calls
//! before materializing everything, decodes the attribute table's plain
//! locations ahead of their uses in batches (SPEC.md §6.6.1). For every
//! bytecode file of the corpus, a read that does so prints and writes
//! exactly what a read that does not prints and writes, and fails where and
//! how it fails.

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

fn outputs(data: &[u8], full: bool) -> Result<Outputs, String> {
    let mut r = BytecodeReader::open(data).map_err(|e| e.to_string())?;
    if full {
        r.reserve_for_full_read();
    }
    r.materialize_all().map_err(|e| e.to_string())?;
    let m = r.into_module();
    let written = rmlir_writer::write_bytecode(&m, &Default::default()).map_err(|e| e.to_string());
    Ok((rmlir_writer::print_module(&m, Default::default()), written))
}

#[test]
fn locations_decoded_ahead_print_the_same() {
    let (mut same, mut failed_alike) = (0, 0);
    for path in bytecode_files() {
        let data = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let plain = outputs(&data, false);
        let ahead = outputs(&data, true);
        assert_eq!(plain, ahead, "{}", path.display());
        match plain {
            Ok(_) => same += 1,
            Err(_) => failed_alike += 1,
        }
    }
    println!(
        "full read with locations decoded ahead: {same} printed and written alike, {failed_alike} failed alike"
    );
    assert!(same > 6000, "only {same} files read");
}
