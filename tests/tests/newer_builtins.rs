//! The builtin encodings MLIR added after release 22 (SPEC.md §6.6.6):
//! affine maps (attribute code 23), integer sets (24), strided layouts
//! (25) and the small float types (type codes 21–32), which IREE 3.13's
//! MLIR (`MLIR24.0.0git`) writes at every bytecode version.
//!
//! * Against IREE (`tools/iree-oracle/bytecode.py`, run here): IREE writes
//!   `tests/fixtures/newer_builtins.mlir` at versions 0, 1, 5 and 6; we
//!   decode each as IREE prints it, and encode IREE's print with
//!   `BuiltinEncodings::Mlir24` and IREE's producer to IREE's bytes.
//! * By hand (SPEC.md §6.6.6): the bytes of one map of each kind, a set
//!   and a layout; MLIR 22's encodings stay the default; malformed entries
//!   are errors at their offset.
//!
//! IREE is found through `RMLIR_IREE_PYTHON` (a Python with
//! iree-base-compiler==3.13.0; `.ci/run` makes one).

use rmlir_reader::{parse_module, read_bytecode};
use rmlir_writer::{print_module, write_bytecode, BuiltinEncodings, WriteOptions};
use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn python() -> String {
    std::env::var("RMLIR_IREE_PYTHON").unwrap_or_else(|_| {
        panic!(
            "RMLIR_IREE_PYTHON is not set: it names a Python with iree-base-compiler==3.13.0 \
             (python3 -m venv .venv-clients && .venv-clients/bin/pip install \
             iree-base-compiler==3.13.0; .ci/run does this)"
        )
    })
}

fn newer(version: u64, producer: &str) -> WriteOptions {
    WriteOptions {
        version,
        producer: producer.to_string(),
        builtin_encodings: BuiltinEncodings::Mlir24,
        ..Default::default()
    }
}

#[test]
fn iree_writes_and_reads_the_fixture_as_we_do() {
    let out = std::env::temp_dir().join(format!("rmlir-newer-builtins-{}", std::process::id()));
    let fixture = repo().join("tests/fixtures/newer_builtins.mlir");
    let versions = [0u64, 1, 5, 6];
    let list = versions.map(|v| v.to_string()).join(",");
    let status = Command::new(python())
        .arg(repo().join("tools/iree-oracle/bytecode.py"))
        .arg(&out)
        .arg(&list)
        .arg(&fixture)
        .status()
        .expect("runs IREE's Python");
    assert!(status.success(), "tools/iree-oracle/bytecode.py failed");
    let mut decoded = 0;
    let mut encoded = 0;
    for v in versions {
        let base = format!("newer_builtins.mlir.v{v}");
        let theirs = std::fs::read(out.join(format!("{base}.mlirbc"))).expect("IREE's bytecode");
        let printed =
            std::fs::read_to_string(out.join(format!("{base}.txt"))).expect("IREE's print");
        // IREE writes the new codes; this is what the test is about.
        assert!(
            theirs.windows(2).any(|w| w == [0x2f, 0x13]),
            "v{v}: IREE wrote no binary affine map"
        );
        let m = read_bytecode(&theirs).unwrap_or_else(|e| panic!("v{v}: {e}"));
        // IREE's print has no final newline.
        assert_eq!(
            print_module(&m, Default::default()),
            format!("{printed}\n"),
            "v{v}: decoded unlike IREE's print"
        );
        decoded += 1;
        let m = parse_module(printed.as_bytes(), "iree.mlir").unwrap();
        let ours = write_bytecode(&m, &newer(v, "MLIR24.0.0git")).unwrap();
        assert!(ours == theirs, "v{v}: encoded unlike IREE's bytes");
        encoded += 1;
    }
    println!(
        "IREE fixture: decoded as IREE prints {decoded}/{n}, encoded as IREE writes {encoded}/{n}",
        n = versions.len()
    );
    let _ = std::fs::remove_dir_all(&out);
}

/// The bytecode of `text` written with `builtins` (v6, MLIR 22's
/// producer), to search entries in.
fn written(text: &str, builtins: BuiltinEncodings) -> Vec<u8> {
    let m = parse_module(text.as_bytes(), "t.mlir").unwrap();
    let opts = WriteOptions {
        builtin_encodings: builtins,
        ..Default::default()
    };
    write_bytecode(&m, &opts).unwrap()
}

fn module_with(attr: &str) -> String {
    format!("\"builtin.module\"() ({{\n  \"x.op\"() {{a = {attr}}} : () -> ()\n}}) : () -> ()\n")
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

/// Hand-derived entries (SPEC.md §6.6.6). VarInts below 128 are one byte,
/// `(v << 1) | 1`; signed ones zigzag first. The code comes first: 23 is
/// 0x2f, 24 is 0x31, 25 is 0x33.
#[test]
fn entries_are_written_as_derived_by_hand() {
    let cases: &[(&str, &[u8])] = &[
        // identity: header (2 << 2) | 0 = 8.
        ("affine_map<(d0, d1) -> (d0, d1)>", &[0x2f, 0x11]),
        // permutation: header (2 << 2) | 1 = 9, positions 1, 0.
        (
            "affine_map<(d0, d1) -> (d1, d0)>",
            &[0x2f, 0x13, 0x03, 0x01],
        ),
        // projected permutation: header (3 << 2) | 2 = 14, 2 results: 2, 0.
        (
            "affine_map<(d0, d1, d2) -> (d2, d0)>",
            &[0x2f, 0x1d, 0x05, 0x05, 0x01],
        ),
        // general: header (1 << 2) | 3 = 7, 1 symbol, 1 result:
        // add(dim 0, mul(symbol 0, constant 2)) in prefix order.
        (
            "affine_map<(d0)[s0] -> (d0 + s0 * 2)>",
            &[
                0x2f, 0x0f, 0x03, 0x03, 0x07, 0x01, 0x01, 0x09, 0x03, 0x01, 0x05, 0x09,
            ],
        ),
        // set: 1 dim, 0 symbols, 1 constraint (dim 0), flag 0 (>= 0).
        (
            "affine_set<(d0) : (d0 >= 0)>",
            &[0x31, 0x03, 0x01, 0x03, 0x01, 0x01, 0x00],
        ),
        // strided: offset 8 (zigzag 16), 2 strides: 4 (8), 1 (2).
        (
            "strided<[4, 1], offset: 8>",
            &[0x33, 0x21, 0x05, 0x11, 0x05],
        ),
    ];
    for (attr, entry) in cases {
        let text = module_with(attr);
        let bc = written(&text, BuiltinEncodings::Mlir24);
        assert!(
            contains(&bc, entry),
            "{attr}: entry {entry:02x?} not written"
        );
        let back = print_module(&read_bytecode(&bc).unwrap(), Default::default());
        assert!(back.contains(attr), "{attr}: read back as\n{back}");
        // MLIR 22's encodings keep them as text.
        let bc22 = written(&text, BuiltinEncodings::Mlir22);
        assert!(!contains(&bc22, entry), "{attr}: binary by default");
        assert!(
            contains(&bc22, attr.as_bytes()),
            "{attr}: not textual by default"
        );
    }
    // The small float types: `f8E4M3FN` is type code 24, a bare VarInt.
    let bc = written(&module_with("f8E4M3FN"), BuiltinEncodings::Mlir24);
    assert!(!contains(&bc, b"f8E4M3FN"), "f8E4M3FN written as text");
    let bc22 = written(&module_with("f8E4M3FN"), BuiltinEncodings::Mlir22);
    assert!(contains(&bc22, b"f8E4M3FN"), "f8E4M3FN binary by default");
}

/// An entry's bytes replaced in a file written with `Mlir24`, then read.
fn read_patched(attr: &str, entry: &[u8], patched: &[u8]) -> String {
    assert_eq!(entry.len(), patched.len(), "same length keeps the offsets");
    let mut bc = written(&module_with(attr), BuiltinEncodings::Mlir24);
    let at = bc
        .windows(entry.len())
        .position(|w| w == entry)
        .expect("the entry");
    bc[at..at + entry.len()].copy_from_slice(patched);
    match read_bytecode(&bc) {
        Ok(m) => panic!(
            "read a malformed entry:\n{}",
            print_module(&m, Default::default())
        ),
        Err(e) => e.to_string(),
    }
}

#[test]
fn malformed_entries_are_errors() {
    let perm = [0x2f, 0x13, 0x03, 0x01];
    // Position 5 of a 2-dimensional map.
    let e = read_patched(
        "affine_map<(d0, d1) -> (d1, d0)>",
        &perm,
        &[0x2f, 0x13, 0x0b, 0x01],
    );
    assert!(
        e.contains("refers to d5 but the map has 2 dimensions"),
        "{e}"
    );
    // Expression kind 9 does not exist.
    let general = [
        0x2f, 0x0f, 0x03, 0x03, 0x07, 0x01, 0x01, 0x09, 0x03, 0x01, 0x05, 0x09,
    ];
    let mut bad = general;
    bad[4] = 0x13;
    let e = read_patched("affine_map<(d0)[s0] -> (d0 + s0 * 2)>", &general, &bad);
    assert!(e.contains("unknown affine expression kind: 9"), "{e}");
    // An equality flag of 2.
    let set = [0x31, 0x03, 0x01, 0x03, 0x01, 0x01, 0x00];
    let mut bad = set;
    bad[6] = 0x02;
    let e = read_patched("affine_set<(d0) : (d0 >= 0)>", &set, &bad);
    assert!(e.contains("invalid equality flag 2"), "{e}");
    // Every error names the attribute section and an offset.
    assert!(e.contains("byte offset"), "{e}");
}
