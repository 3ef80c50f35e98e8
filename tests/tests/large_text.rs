//! The 64 MiB resource-blob module of `../shared/corpus/large` (generated
//! by `gen_large.py --resource-blob-mib 64 --seed 4`): parsing and printing
//! it gives the text mlir-opt 22 prints, checked against the sha256 of
//! mlir-opt's output recorded in `large/timings.tsv`.

use rmlir_tests::corpus_dir;
use sha2::{Digest, Sha256};
use std::process::Command;

fn recorded(name: &str, step: &str, column: usize) -> String {
    let t =
        std::fs::read_to_string(corpus_dir().join("large/timings.tsv")).expect("large/timings.tsv");
    t.lines()
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .find(|f| f[0] == name && f[1] == step)
        .unwrap_or_else(|| panic!("no {name}/{step} row in timings.tsv"))[column]
        .to_string()
}

fn generate(args: &[&str]) -> Vec<u8> {
    let script = corpus_dir().join("../tools/gen_large.py");
    let out = Command::new("python3")
        .arg(&script)
        .args(args)
        .arg("-o")
        .arg("-")
        .output()
        .expect("python3 is needed to run gen_large.py");
    assert!(
        out.status.success(),
        "gen_large.py failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

fn hex(d: &[u8]) -> String {
    d.iter().map(|b| format!("{b:02x}")).collect()
}

#[test]
fn blob_64mib_module_prints_like_mlir_opt() {
    let input = generate(&["--resource-blob-mib", "64", "--seed", "4"]);
    let recipe = std::fs::read_to_string(corpus_dir().join("large/recipes.tsv")).unwrap();
    let want_input = recipe
        .lines()
        .find(|l| l.starts_with("blob-64mib\t"))
        .unwrap()
        .split('\t')
        .nth(3)
        .unwrap()
        .to_string();
    assert_eq!(
        hex(&Sha256::digest(&input)),
        want_input,
        "generator output changed"
    );
    let m = rmlir_reader::parse_module(&input, "blob.mlir").expect("parses");
    let out = rmlir_writer::print_module(&m, Default::default());
    assert_eq!(
        hex(&Sha256::digest(out.as_bytes())),
        recorded("blob-64mib", "text-to-generic", 7)
    );
}
