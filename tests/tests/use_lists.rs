//! Use-list orders against mlir-opt 22 on a hand-written fixture
//! (`tests/fixtures/use_lists.mlir`): uses in nested regions, forward
//! references in graph regions and across blocks, block arguments with
//! the index-pair form, and 50 results whose entries outgrow LLVM's
//! smallest DenseMap. At versions 3–6 our bytes from the text must equal
//! mlir-opt's `--emit-bytecode` of the same text; our reader must keep
//! the orders of mlir-opt's file so that writing it again gives the same
//! bytes; below v3 no order is written.

use rmlir_tests::oracle;
use rmlir_writer::{write_bytecode, WriteOptions};
use std::path::Path;

#[test]
fn use_list_orders_match_mlir_opt_at_every_version() {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/use_lists.mlir");
    let text = std::fs::read(&fixture).unwrap();
    let m = rmlir_reader::parse_module(&text, fixture.to_str().unwrap()).expect("fixture parses");
    // Not vacuous: the text parser found values whose order needs a record
    // (each of the fixture's five functions contributes some).
    assert!(
        m.use_list_orders.len() >= 54,
        "only {} use-list orders recorded",
        m.use_list_orders.len()
    );
    let dir = std::env::temp_dir().join(format!("rmlir-uselists-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for v in 0..=6u64 {
        let bc = dir.join(format!("v{v}.mlirbc"));
        oracle::emit_bytecode(&fixture, v, &bc)
            .unwrap_or_else(|e| panic!("mlir-opt --emit-bytecode v{v}: {e}"));
        let expected = std::fs::read(&bc).unwrap();
        let opts = WriteOptions {
            version: v,
            ..Default::default()
        };
        let ours = write_bytecode(&m, &opts).unwrap_or_else(|e| panic!("v{v}: {e}"));
        assert!(ours == expected, "v{v}: our bytes differ from mlir-opt's");

        let back = rmlir_reader::read_bytecode(&expected).unwrap_or_else(|e| panic!("v{v}: {e}"));
        if v < 3 {
            assert!(back.use_list_orders.is_empty(), "v{v} carries no orders");
        } else {
            assert_eq!(
                back.use_list_orders.len(),
                m.use_list_orders.len(),
                "v{v}: orders read back"
            );
        }
        let again = write_bytecode(&back, &opts).unwrap();
        assert!(again == expected, "v{v}: read + write changes the bytes");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `%v` used by `t.outer` and by `t.inner` in its region: one value whose
/// use-list order needs a record.
const REGION_HOLDER: &[u8] = br#""builtin.module"() ({
  %v = "t.def"() : () -> i32
  "t.outer"(%v) ({
    "t.inner"(%v) : (i32) -> ()
  }) : (i32) -> ()
}) : () -> ()
"#;

/// Hand-derived: in [`REGION_HOLDER`], `%v` is used by `t.outer`
/// (pre-order id 3) and by `t.inner` inside it (id 4). Reference order is
/// inner, outer; the text parser creates `t.outer` after its region, so
/// memory order is outer, inner: the inner use (reference position 0) sits
/// at position 1.
#[test]
fn outer_use_of_a_region_holder_comes_first() {
    let m = rmlir_reader::parse_module(REGION_HOLDER, "x.mlir").unwrap();
    let orders: Vec<&Vec<u32>> = m.use_list_orders.values().collect();
    assert_eq!(orders, vec![&vec![1, 0]]);
}

/// Hand-derived: uses in pre-order, no forward reference: the reference
/// order, nothing recorded.
#[test]
fn straight_line_uses_need_no_record() {
    let src = br#""builtin.module"() ({
  %v = "t.def"() : () -> i32
  "t.a"(%v, %v) : (i32, i32) -> ()
  "t.b"(%v) : (i32) -> ()
}) : () -> ()
"#;
    let m = rmlir_reader::parse_module(src, "x.mlir").unwrap();
    assert!(m.use_list_orders.is_empty());
}

/// Hand-derived: in a graph region `%f` is used by `t.a` (operands 0, 1)
/// before its definition and by `t.b` after it. Memory order: `t.b`, then
/// the forward uses oldest first (`t.a`#0, `t.a`#1). Reference order by
/// descending (pre-order id, operand): `t.b`, `t.a`#1, `t.a`#0 — so
/// positions are [0, 2, 1].
#[test]
fn forward_references_move_oldest_first() {
    let src = br#""builtin.module"() ({
  "t.graph"() ({
    "t.a"(%f, %f) : (i32, i32) -> ()
    %f = "t.def"() : () -> i32
    "t.b"(%f) : (i32) -> ()
  }) : () -> ()
}) : () -> ()
"#;
    let m = rmlir_reader::parse_module(src, "x.mlir").unwrap();
    let orders: Vec<&Vec<u32>> = m.use_list_orders.values().collect();
    assert_eq!(orders, vec![&vec![0, 2, 1]]);
}

/// A file whose order is not a permutation of the value's uses is an
/// error naming the defect, as in mlir-opt.
#[test]
fn invalid_orders_are_rejected() {
    let m = rmlir_reader::parse_module(REGION_HOLDER, "x.mlir").unwrap();
    let bc = write_bytecode(&m, &WriteOptions::default()).unwrap();
    // The full-form entry `[1, 0]` is written as the bytes
    // vflag(2, 0) = 0x09, 0x03, 0x01 (PrefixVarInt); make it `[1, 1]`.
    let at = bc
        .windows(3)
        .position(|w| w == [0x09, 0x03, 0x01])
        .expect("the entry is in the file");
    let mut bad = bc.clone();
    bad[at + 2] = 0x03;
    let err = rmlir_reader::read_bytecode(&bad).unwrap_err().to_string();
    assert!(
        err.contains("parsed use-list orders were invalid and could not be applied"),
        "{err}"
    );
}

/// A parse that leaves its orders pending (`parse_module_releasing_deferred`,
/// what the command line uses) writes the bytes a settled parse writes, on
/// the fixture (at every version with orders) and on every corpus text
/// file; its pending orders are the settled ones.
#[test]
fn deferred_orders_write_the_same_bytes() {
    let parse = |text: &[u8]| {
        let settled = rmlir_reader::parse_module(text, "in.mlir");
        let deferred = rmlir_reader::parse_module_releasing_deferred(
            text,
            "in.mlir",
            rmlir_reader::Limits::default(),
            &|_| {},
        );
        (settled, deferred)
    };
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/use_lists.mlir");
    let text = std::fs::read(&fixture).unwrap();
    let (settled, deferred) = parse(&text);
    let (settled, deferred) = (settled.unwrap(), deferred.unwrap());
    assert!(deferred.use_list_orders.is_empty());
    assert_eq!(
        deferred.text_use_list_orders().as_ref(),
        Some(&settled.use_list_orders)
    );
    for version in 3..=6 {
        let opts = WriteOptions {
            version,
            ..Default::default()
        };
        assert_eq!(
            write_bytecode(&settled, &opts).unwrap(),
            write_bytecode(&deferred, &opts).unwrap(),
            "v{version}"
        );
    }
    let (mut files, mut with_orders) = (0, 0);
    for case in rmlir_tests::case_dirs("cases") {
        let Ok(text) = std::fs::read(case.join("generic.mlir")) else {
            continue;
        };
        let (Ok(settled), Ok(deferred)) = parse(&text) else {
            continue;
        };
        files += 1;
        with_orders += usize::from(!settled.use_list_orders.is_empty());
        let opts = WriteOptions::default();
        assert_eq!(
            write_bytecode(&settled, &opts).map_err(|e| e.to_string()),
            write_bytecode(&deferred, &opts).map_err(|e| e.to_string()),
            "{}",
            case.display()
        );
    }
    // Large enough for the writer to derive the orders beside its
    // numbering (SPEC.md §6.10.7): forward references in 3,000 regions.
    let mut big = String::from("\"builtin.module\"() ({\n");
    for _ in 0..3000 {
        big.push_str(
            "  \"t.g\"() ({\n    %0 = \"t.use\"(%1, %1) : (i32, i32) -> i32\n    \
             %1 = \"t.def\"() : () -> i32\n    \"t.use2\"(%1, %0) : (i32, i32) -> ()\n  \
             }) : () -> ()\n",
        );
    }
    big.push_str("}) : () -> ()\n");
    let (settled, deferred) = parse(big.as_bytes());
    let (settled, deferred) = (settled.unwrap(), deferred.unwrap());
    assert!(settled.ops.len() >= 4096 && !settled.use_list_orders.is_empty());
    assert_eq!(
        write_bytecode(&settled, &WriteOptions::default()).unwrap(),
        write_bytecode(&deferred, &WriteOptions::default()).unwrap()
    );
    println!("{files} corpus files written alike, {with_orders} with use-list orders");
    assert!(
        files > rmlir_tests::floor("use_lists: files", 5000)
            && with_orders > rmlir_tests::floor("use_lists: files with orders", 50),
        "{files} files, {with_orders} with orders"
    );
}

/// Modules whose use-list records tell the releases apart, each a value
/// (or values) with an order set by hand: `(name, text, op defining the
/// values, orders)`.
/// - `pairs`: a 3-cycle in the index-pair form: eight uses, those at
///   reference positions 0, 3 and 4 in memory at 4, 0 and 3 (three moved,
///   fewer than half), written as pairs (4, 0), (0, 3), (3, 4). MLIR 22
///   reads `(a, b)` as "position `a` := `b`", the inverse (equal only for
///   swaps), and writes (3, 0), (4, 3), (0, 4) back; MLIR 23 on reads it as
///   written.
/// - `full`: cycles in the full form, kept by every release.
/// - `ranges`: five results with a swap each: MLIR 22 writes the records in
///   its hash map's order (0, 2, 4, 1, 3), MLIR 23 on by ascending index.
/// - `forward_full`, `forward_pairs`: uses before the definition in a
///   graph region (the reader's prior order differs from reference order).
fn use_list_cases() -> Vec<(&'static str, String, &'static str, Vec<Vec<u32>>)> {
    let line = |n: usize, body: &dyn Fn(usize) -> String| (0..n).map(body).collect::<String>();
    let straight = format!(
        "\"builtin.module\"() ({{\n  %v = \"t.def\"() : () -> i32\n{}}}) : () -> ()\n",
        line(8, &|_| "  \"t.use\"(%v) : (i32) -> ()\n".into())
    );
    let ranges = format!(
        "\"builtin.module\"() ({{\n  %r:5 = \"t.def\"() : () -> (i32, i32, i32, i32, i32)\n{}}}) : () -> ()\n",
        line(10, &|i| format!("  \"t.use\"(%r#{}) : (i32) -> ()\n", i / 2))
    );
    let graph = |before: usize, after: usize| {
        format!(
            "\"builtin.module\"() ({{\n  \"t.graph\"() ({{\n    \"t.a\"(%f, %f) : (i32, i32) -> ()\n{}    %f = \"t.def\"() : () -> i32\n{}  }}) : () -> ()\n}}) : () -> ()\n",
            line(before, &|i| format!("    \"t.p{i}\"(%f) : (i32) -> ()\n")),
            line(after, &|i| format!("    \"t.q{i}\"(%f) : (i32) -> ()\n")),
        )
    };
    vec![
        (
            "pairs",
            straight.clone(),
            "t.def",
            vec![vec![4, 1, 2, 0, 3, 5, 6, 7]],
        ),
        (
            "full",
            straight,
            "t.def",
            vec![vec![1, 2, 0, 4, 5, 3, 7, 6]],
        ),
        ("ranges", ranges, "t.def", vec![vec![1, 0]; 5]),
        (
            "forward_full",
            graph(1, 2),
            "t.def",
            vec![vec![1, 2, 0, 4, 3]],
        ),
        (
            "forward_pairs",
            graph(0, 6),
            "t.def",
            vec![vec![4, 1, 2, 0, 3, 5, 6, 7]],
        ),
    ]
}

/// Writes each of [`use_list_cases`] with our writer (MLIR 22's terms) into
/// `dir`, checking the records that tell releases apart are there.
fn write_use_list_cases(dir: &Path) -> Vec<std::path::PathBuf> {
    std::fs::create_dir_all(dir).unwrap();
    let mut files = Vec::new();
    for (name, text, def, orders) in use_list_cases() {
        let mut m = rmlir_reader::parse_module(text.as_bytes(), "x.mlir").unwrap();
        let def = (0..m.ops.len() as u32)
            .map(rmlir_format::OpId)
            .find(|&o| m.op_name(o) == def.as_bytes())
            .expect("the defining op");
        let values: Vec<_> = m.op(def).results().collect();
        assert_eq!(values.len(), orders.len(), "{name}");
        for (v, o) in values.into_iter().zip(orders) {
            m.use_list_orders.insert(v, o);
        }
        let bytes = write_bytecode(&m, &WriteOptions::default()).unwrap();
        if name == "pairs" {
            // vflag(6, pairs), then (4, 0), (0, 3), (3, 4), as PrefixVarInts.
            let pairs = [0x1b, 0x09, 0x01, 0x01, 0x07, 0x07, 0x09];
            assert!(
                bytes.windows(7).any(|w| w == pairs),
                "{name}: written as pairs"
            );
        }
        let path = dir.join(format!("{name}.mlirbc"));
        std::fs::write(&path, bytes).unwrap();
        files.push(path);
    }
    files
}

/// Our read and write of `file` in the terms of `host`, as `rmlir-bc
/// convert --target` does it.
fn rewrite_as(file: &Path, host: &'static rmlir_dialects::hosts::Host) -> Vec<u8> {
    let data = std::fs::read(file).unwrap();
    let opts = rmlir_reader::ReadOptions {
        host: Some(host),
        ..Default::default()
    };
    let mut r = rmlir_reader::BytecodeReader::open_with_options(&data, &opts).unwrap();
    r.materialize_all().unwrap();
    let m = r.into_module();
    // Both tools write use-list records in ascending order (MLIR 23 on).
    let use_list_records = if host.mlir_major >= 23 {
        rmlir_writer::UseListRecordOrder::Ascending
    } else {
        rmlir_writer::UseListRecordOrder::HashOrder
    };
    let opts = WriteOptions {
        producer: format!("MLIR{}", host.ops().release()),
        use_list_records,
        ..Default::default()
    };
    write_bytecode(&m, &opts).unwrap()
}

/// mlir-opt 22 reads and writes each case; ours must give its bytes.
#[test]
fn use_list_records_are_rewritten_as_mlir_opt_22_rewrites_them() {
    let dir = std::env::temp_dir().join(format!("rmlir-uselist-22-{}", std::process::id()));
    for file in write_use_list_cases(&dir) {
        let out = file.with_extension("opt22");
        oracle::emit_bytecode(&file, 6, &out).expect("mlir-opt reads and writes the file");
        let theirs = std::fs::read(&out).unwrap();
        let ours = rewrite_as(&file, &rmlir_dialects::hosts::MLIR_OPT_22);
        assert!(
            ours == theirs,
            "{}: differs from mlir-opt 22's",
            file.display()
        );
        if file.ends_with("pairs.mlirbc") {
            let back = [0x1b, 0x07, 0x01, 0x09, 0x07, 0x01, 0x09];
            assert!(
                theirs.windows(7).any(|w| w == back),
                "mlir-opt 22 inverts the 3-cycle"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// jaxlib 0.10.2 (MLIR 23) and IREE 3.13 (MLIR 24) read and write each
/// case (`tools/tool-oracle/rewrite.py`); ours, in their terms, must give
/// their bytes, producer string included. Needs `RMLIR_IREE_PYTHON` (a
/// Python with both, as `.ci/run` makes).
#[test]
fn use_list_records_are_rewritten_as_jaxlib_and_iree_rewrite_them() {
    let python = std::env::var("RMLIR_IREE_PYTHON").expect(
        "RMLIR_IREE_PYTHON is not set: it names a Python with jaxlib 0.10.2 and iree-base-compiler 3.13.0 (.ci/run makes .venv-clients)",
    );
    let dir = std::env::temp_dir().join(format!("rmlir-uselist-tools-{}", std::process::id()));
    let files = write_use_list_cases(&dir);
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tools/tool-oracle/rewrite.py");
    for (tool, host) in [
        ("jax", &rmlir_dialects::hosts::JAXLIB_0_10),
        ("iree", &rmlir_dialects::hosts::IREE_3_13),
    ] {
        let status = std::process::Command::new(&python)
            .arg(&script)
            .args([tool, "6"])
            .args(&files)
            .status()
            .expect("runs the tools' Python");
        assert!(status.success(), "rewrite.py {tool} failed");
        for file in &files {
            let out = format!("{}.{tool}.mlirbc", file.display());
            let theirs = std::fs::read(&out).unwrap_or_else(|e| panic!("{out}: {e}"));
            let ours = rewrite_as(file, host);
            assert!(
                ours == theirs,
                "{}: differs from {}'s",
                file.display(),
                host.tool
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
