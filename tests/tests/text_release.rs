//! `parse_module_releasing` (SPEC.md §3): the parser hands back source
//! it has moved past, resolves location aliases used before their
//! definition as they are defined, and keeps alias names in per-prefix
//! vectors where it can. None of that may change what a module means.

use rmlir_format::AttrData;
use rmlir_reader::{parse_module, parse_module_releasing, Limits};
use rmlir_writer::{print_module, PrintOptions};

/// A module of `n` ops, each located by an alias defined after the
/// module (as mlir-opt prints them), plus names that must not be taken
/// for each other: `loc7` and `loc007`, and a number far past the others.
fn module_text(n: usize) -> String {
    let mut s = String::from("\"builtin.module\"() ({\n");
    for i in 0..n {
        s.push_str(&format!(
            "  \"t.op\"() {{n = {i} : i64}} : () -> () loc(#loc{i})\n"
        ));
    }
    s.push_str("  \"t.op\"() {n = -1 : i64} : () -> () loc(#loc007)\n");
    s.push_str("  \"t.op\"() {n = -2 : i64} : () -> () loc(#loc900000000)\n");
    s.push_str("}) : () -> () loc(#loc)\n");
    s.push_str("#loc = loc(\"top.mlir\":1:1)\n");
    for i in 0..n {
        s.push_str(&format!(
            "#loc{i} = loc(\"f.mlir\":{}:{})\n",
            i + 10,
            i % 7 + 1
        ));
    }
    s.push_str("#loc007 = loc(\"seven.mlir\":7:7)\n");
    s.push_str("#loc900000000 = loc(\"far.mlir\":9:9)\n");
    s
}

#[test]
fn releasing_parse_reads_the_same_module() {
    // Large enough for several releases (every 4 MiB, 1 MiB behind).
    let src = module_text(120_000);
    assert!(src.len() > 9 << 20, "{} bytes", src.len());
    let plain = parse_module(src.as_bytes(), "m.mlir").unwrap();
    let ranges = std::sync::Mutex::new(Vec::new());
    let released = parse_module_releasing(src.as_bytes(), "m.mlir", Limits::default(), &|r| {
        ranges.lock().unwrap().push(r)
    })
    .unwrap();
    let ranges = ranges.into_inner().unwrap();
    assert!(ranges.len() >= 2, "{ranges:?}");
    // Non-empty and inside the source; together they reach past the
    // middle (a split parse releases everything once both halves are in).
    assert!(
        ranges.iter().all(|r| r.start < r.end && r.end <= src.len()),
        "{ranges:?}"
    );
    assert!(
        ranges.iter().map(|r| r.end).max().unwrap() > src.len() / 2,
        "{ranges:?}"
    );
    let opts = PrintOptions::default();
    let text = print_module(&released, opts);
    assert_eq!(text, print_module(&plain, opts));

    // Every op got its own alias's location: op `n = i` is at line i + 10.
    let m = &released;
    let body = m.op(m.top.unwrap()).regions()[0];
    let block = m.region(body).blocks[0];
    let ops = &m.block(block).ops;
    assert_eq!(ops.len(), 120_002);
    let loc = |k: usize| m.ctx.attr(m.op(ops[k]).loc).clone();
    for k in [0, 1, 7, 9, 10, 99_999, 119_999] {
        match loc(k) {
            AttrData::FileLineCol { file, line, col } => {
                assert_eq!(
                    (&*file, line, col),
                    (&b"f.mlir"[..], k as u32 + 10, k as u32 % 7 + 1)
                );
            }
            other => panic!("op {k}: {other:?}"),
        }
    }
    for (k, want) in [(120_000, &b"seven.mlir"[..]), (120_001, b"far.mlir")] {
        match loc(k) {
            AttrData::FileLineCol { file, .. } => assert_eq!(&*file, want),
            other => panic!("op {k}: {other:?}"),
        }
    }
}

/// Uses still waiting at the end are reported in source order, whichever
/// of the two reasons applies to each.
#[test]
fn first_unresolved_use_is_reported() {
    let err = |src: &str| {
        parse_module(src.as_bytes(), "bad.mlir")
            .unwrap_err()
            .to_string()
            .lines()
            .next()
            .unwrap()
            .to_string()
    };
    assert_eq!(
        err("\"a\"() : () -> () loc(#l1)\n\"b\"() : () -> () loc(#l2)\n#l2 = 1\n"),
        "bad.mlir:1:22: error: undefined location alias '#l1'"
    );
    assert_eq!(
        err("\"a\"() : () -> () loc(#l2)\n\"b\"() : () -> () loc(#l1)\n#l2 = 1\n"),
        "bad.mlir:1:22: error: expected location, but '#l2' is not a location"
    );
    // A use resolved by its definition is not an error; the later,
    // undefined one is.
    assert_eq!(
        err("\"a\"() : () -> () loc(#l5)\n\"b\"() : () -> () loc(#l6)\n#l5 = loc(unknown)\n"),
        "bad.mlir:2:22: error: undefined location alias '#l6'"
    );
}
