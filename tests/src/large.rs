//! The ~100 MB bytecode file of the laziness tests: a generated module of
//! ~1,000 functions (`gen_large.py --target-mib 16 --seed 5`) plus a 90 MiB
//! `dense_resource` blob, written by mlir-opt 22. Shared by
//! `tests/tests/bytecode_lazy.rs` (the reader's counters) and the CLI's
//! `info` test, so both look at the same file.

use crate::{corpus_dir, oracle};
use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Size of the `weights` blob.
pub const BLOB_BYTES: usize = 90 << 20;

/// Writes `lazy.mlir` and `lazy.mlirbc` into `dir`; returns the bytecode's path.
pub fn build_lazy_bytecode(dir: &Path) -> PathBuf {
    let gen = Command::new("python3")
        .arg(corpus_dir().join("../tools/gen_large.py"))
        .args(["--target-mib", "16", "--seed", "5", "-o", "-"])
        .output()
        .expect("python3 runs gen_large.py");
    assert!(gen.status.success());
    let text = String::from_utf8(gen.stdout).unwrap();
    let (first, rest) = text.split_once('\n').unwrap();
    let mut s = String::with_capacity(text.len() + 2 * BLOB_BYTES + 200);
    s.push_str(first);
    s.push('\n');
    let _ = writeln!(s, "  \"rmlir.weights\"() {{w = dense_resource<weights> : tensor<{BLOB_BYTES}xi8>}} : () -> ()");
    s.push_str(rest);
    s.push_str("\n{-#\n  dialect_resources: {\n    builtin: {\n      weights: \"0x10000000");
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut hex = Vec::with_capacity(2 * BLOB_BYTES);
    for i in 0..BLOB_BYTES {
        let b = (i as u32).wrapping_mul(2654435761).to_le_bytes()[3];
        hex.push(HEX[(b >> 4) as usize]);
        hex.push(HEX[(b & 15) as usize]);
    }
    s.push_str(std::str::from_utf8(&hex).unwrap());
    s.push_str("\"\n    }\n  }\n#-}\n");
    let txt = dir.join("lazy.mlir");
    std::fs::write(&txt, s).unwrap();
    let bc = dir.join("lazy.mlirbc");
    oracle::run(&[
        "--emit-bytecode",
        txt.to_str().unwrap(),
        "-o",
        bc.to_str().unwrap(),
    ])
    .expect("mlir-opt writes bytecode");
    bc
}
