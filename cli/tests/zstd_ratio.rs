//! What the zstd wrapper (`--compress zstd`, SPEC.md §8.2) gains on real
//! bytecode: every `v6.mlirbc` of the corpus (and of the real-client
//! cases) compressed on its own at zstd's default level, as the CLI does.
//! Prints the totals; `tools/zstd-ratio.sh` measures a large generated
//! module the same way.

use std::path::PathBuf;

fn corpus() -> PathBuf {
    rmlir_tests::corpus_dir()
}

#[test]
fn zstd_ratio_over_the_corpus_v6_files() {
    let mut files = Vec::new();
    for sub in ["cases", "real-client/cases"] {
        for e in std::fs::read_dir(corpus().join(sub)).unwrap() {
            let p = e.unwrap().path().join("v6.mlirbc");
            if p.is_file() {
                files.push(p);
            }
        }
    }
    files.sort();
    assert!(
        files.len() > rmlir_tests::floor("zstd_ratio: files", 5000),
        "{} files",
        files.len()
    );
    let (mut raw, mut packed, mut larger) = (0usize, 0usize, 0usize);
    for f in &files {
        let data = std::fs::read(f).unwrap();
        let z = zstd::encode_all(&data[..], zstd::DEFAULT_COMPRESSION_LEVEL).unwrap();
        assert_eq!(zstd::decode_all(&z[..]).unwrap(), data);
        raw += data.len();
        packed += z.len();
        larger += usize::from(z.len() >= data.len());
    }
    println!(
        "zstd level {} over {} corpus v6.mlirbc files: {raw} bytes -> {packed} bytes ({:.1}% of raw, ratio {:.2}); {larger} files do not shrink (small files: the frame header costs more than it saves)",
        zstd::DEFAULT_COMPRESSION_LEVEL,
        files.len(),
        100.0 * packed as f64 / raw as f64,
        raw as f64 / packed as f64
    );
    assert!(packed < raw);
}
