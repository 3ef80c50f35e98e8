//! Every file of upstream's `test/Bytecode/invalid` is rejected, with an
//! error that names the same defect as mlir-opt 22's message (taken from
//! `../shared/corpus/upstream-bytecode/expectations.tsv`), plus the section
//! and byte offset. Our wording may add detail; the defect's key phrase
//! (mlir-opt's message without C++ namespaces and without what follows
//! "but got:") must appear.

use rmlir_tests::corpus_dir;

#[test]
fn upstream_invalid_files_are_rejected_with_the_same_defect() {
    let dir = corpus_dir().join("upstream-bytecode");
    let tsv = std::fs::read_to_string(dir.join("expectations.tsv")).expect("expectations.tsv");
    let mut checked = 0;
    let mut failures = Vec::new();
    for line in tsv.lines().skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        if !f[0].starts_with("invalid/") || f[4] != "error" {
            continue;
        }
        let data = std::fs::read(dir.join(f[0])).unwrap();
        checked += 1;
        let key = f[7].replace("mlir::", "");
        let key = key.split(" but got:").next().unwrap().trim_end_matches(',');
        match rmlir_reader::read_bytecode(&data) {
            Ok(_) => failures.push(format!("{}: accepted, but mlir-opt says: {}", f[0], f[7])),
            Err(e) => {
                let msg = e.to_string();
                if !msg.contains(key) {
                    failures.push(format!(
                        "{}:\n  mlir-opt: {}\n  ours:     {msg}",
                        f[0], f[7]
                    ));
                }
                assert!(
                    msg.contains("section, at byte offset 0x"),
                    "{}: no position in {msg}",
                    f[0]
                );
            }
        }
    }
    println!(
        "upstream invalid bytecode files rejected with the same defect: {}/{checked}",
        checked - failures.len()
    );
    assert_eq!(
        checked, 24,
        "expected the 24 invalid files of upstream's test suite"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
