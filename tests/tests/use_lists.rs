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
        files > 5000 && with_orders > 50,
        "{files} files, {with_orders} with orders"
    );
}
