//! Deep nesting never overflows the stack (Step 7): 100,000 nested regions
//! and 100,000 nested arrays, in text and in bytecode (built by hand below,
//! not with our writer), give a clean `Limit` error; nesting at the default
//! limits reads, prints and round-trips. Everything runs on spawned threads
//! with explicit stacks: 2 MiB (the default of test threads) with the
//! default [`Limits`], and 256 KiB with limits lowered to 32.

use rmlir_format::bytecode::varint::write_varint;
use rmlir_reader::{ErrorKind, Limits};

const DEEP: usize = 100_000;

fn on_stack<T: Send + 'static>(bytes: usize, f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(bytes)
        .spawn(f)
        .expect("spawn")
        .join()
        .expect("the thread panicked")
}

const SMALL: Limits = Limits {
    max_region_depth: 32,
    max_attr_type_depth: 32,
    ..Limits::DEFAULT
};

/// `n` nested regions of generic text.
fn text_regions(n: usize) -> String {
    let mut s = String::with_capacity(n * 32);
    for _ in 0..n {
        s.push_str("\"t.r\"() ({\n");
    }
    s.push_str("\"t.leaf\"() : () -> ()\n");
    for _ in 0..n {
        s.push_str("}) : () -> ()\n");
    }
    s
}

/// An op whose attribute is `n` nested arrays.
fn text_arrays(n: usize) -> String {
    format!(
        "\"t.a\"() {{x = {}1{}}} : () -> ()\n",
        "[".repeat(n),
        "]".repeat(n)
    )
}

fn expect_limit(r: rmlir_reader::Result<rmlir_format::Module>, what: &str) {
    match r {
        Ok(_) => panic!("{what}: read without error"),
        Err(e) => {
            assert_eq!(e.kind(), ErrorKind::Limit, "{what}: {e}");
            assert!(e.message().contains("deeper than the limit"), "{what}: {e}");
        }
    }
}

#[test]
fn text_100k_regions_and_arrays_are_limit_errors() {
    for (stack, limits) in [(2 << 20, Limits::default()), (256 << 10, SMALL)] {
        on_stack(stack, move || {
            let src = text_regions(DEEP);
            expect_limit(
                rmlir_reader::parse_module_with_limits(src.as_bytes(), "deep.mlir", limits),
                "text regions",
            );
            let src = text_arrays(DEEP);
            expect_limit(
                rmlir_reader::parse_module_with_limits(src.as_bytes(), "deep.mlir", limits),
                "text arrays",
            );
        });
    }
}

/// Text at exactly the default depths reads, prints, writes bytecode and
/// reads back the same, all on a 2 MiB stack; one level more is refused.
#[test]
fn text_at_the_default_limits_round_trips() {
    on_stack(2 << 20, || {
        let d = Limits::default();
        // The module body is region 1; the leaf op is inside region n+1.
        let src = text_regions(d.max_region_depth - 1);
        let m = rmlir_reader::parse_module(src.as_bytes(), "deep.mlir").expect("at the limit");
        let printed = rmlir_writer::print_module(&m, Default::default());
        let bc = rmlir_writer::write_bytecode(&m, &Default::default()).expect("writes");
        let back = rmlir_reader::read_bytecode(&bc).expect("reads back");
        assert_eq!(
            printed,
            rmlir_writer::print_module(&back, Default::default())
        );
        let src = text_regions(d.max_region_depth);
        expect_limit(
            rmlir_reader::parse_module(src.as_bytes(), "deep.mlir"),
            "one region too deep",
        );

        // 255 arrays and the integer: 256 levels.
        let src = text_arrays(d.max_attr_type_depth - 1);
        let m = rmlir_reader::parse_module(src.as_bytes(), "deep.mlir").expect("at the limit");
        let _ = rmlir_writer::print_module(&m, Default::default());
        // Bytecode spends more levels on the same attribute: the op's
        // dictionary entry, and the integer's type entry below the integer.
        let src = text_arrays(d.max_attr_type_depth - 3);
        let m = rmlir_reader::parse_module(src.as_bytes(), "deep.mlir").expect("parses");
        let printed = rmlir_writer::print_module(&m, Default::default());
        let bc = rmlir_writer::write_bytecode(&m, &Default::default()).expect("writes");
        let back = rmlir_reader::read_bytecode(&bc).expect("reads back");
        assert_eq!(
            printed,
            rmlir_writer::print_module(&back, Default::default())
        );
        let src = text_arrays(d.max_attr_type_depth + 1);
        expect_limit(
            rmlir_reader::parse_module(src.as_bytes(), "deep.mlir"),
            "one array too deep",
        );
    });
}

/// The writer recurses over regions; it refuses more than its limit
/// instead of overflowing, and writes its limit on a 2 MiB stack.
#[test]
fn writer_depth_is_bounded() {
    let lim = rmlir_writer::bytecode::MAX_REGION_DEPTH;
    let big = Limits {
        max_region_depth: lim + 10,
        ..Limits::default()
    };
    // Parse on a big stack (the parser's own depth is not under test here).
    let (ok, too_deep) = on_stack(256 << 20, move || {
        let ok = rmlir_reader::parse_module_with_limits(
            text_regions(lim - 1).as_bytes(),
            "deep.mlir",
            big,
        )
        .expect("parses");
        let too_deep =
            rmlir_reader::parse_module_with_limits(text_regions(lim).as_bytes(), "deep.mlir", big)
                .expect("parses");
        (ok, too_deep)
    });
    let bc = on_stack(2 << 20, move || {
        let e = rmlir_writer::write_bytecode(&too_deep, &Default::default())
            .expect_err("deeper than the writer's limit");
        assert!(
            e.message().contains("deeper than the writer's limit"),
            "{e}"
        );
        rmlir_writer::write_bytecode(&ok, &Default::default()).expect("at the writer's limit")
    });
    // Our reader refuses it by default and reads it with a raised limit.
    let bc2 = bc.clone();
    on_stack(2 << 20, move || {
        expect_limit(rmlir_reader::read_bytecode(&bc2), "writer-depth file");
    });
    on_stack(256 << 20, move || {
        rmlir_reader::read_bytecode_with_limits(&bc, big).expect("reads with a raised limit");
    });
}

// ---------------------------------------------------------------------------
// A minimal bytecode builder (SPEC.md §6): header, string, dialect,
// attribute/type and IR sections, written by hand so that the test does not
// depend on our writer.

fn v(out: &mut Vec<u8>, x: u64) {
    write_varint(out, x);
}

fn section(out: &mut Vec<u8>, id: u8, data: &[u8]) {
    out.push(id);
    v(out, data.len() as u64);
    out.extend_from_slice(data);
}

/// Strings: 0 "t", 1 "r", 2 "builtin", 3 "x". Dialects: 0 "t", 1
/// "builtin". Op name 0: "t.r". `attrs` are custom builtin attribute
/// entries (the bytes of each); `ir` is the IR section.
fn file(version: u64, attrs: &[Vec<u8>], ir: &[u8]) -> Vec<u8> {
    let mut out = b"ML\xEFR".to_vec();
    v(&mut out, version);
    out.extend_from_slice(b"test\0");
    let strings: [&[u8]; 4] = [b"t", b"r", b"builtin", b"x"];
    let mut s = Vec::new();
    v(&mut s, strings.len() as u64);
    for x in strings.iter().rev() {
        v(&mut s, x.len() as u64 + 1);
    }
    for x in strings {
        s.extend_from_slice(x);
        s.push(0);
    }
    section(&mut out, 0, &s);
    let mut d = Vec::new();
    v(&mut d, 2);
    for name in [0u64, 2] {
        // v1+: vflag(name, hasVersion = 0).
        v(&mut d, if version >= 1 { name << 1 } else { name });
    }
    if version >= 4 {
        v(&mut d, 1);
    }
    v(&mut d, 0); // dialect "t"
    v(&mut d, 1); // one op name
    v(&mut d, if version >= 5 { 1 << 1 } else { 1 }); // "r"
    section(&mut out, 1, &d);
    let mut data = Vec::new();
    let mut offsets = Vec::new();
    v(&mut offsets, attrs.len() as u64);
    v(&mut offsets, 0);
    v(&mut offsets, 1); // dialect "builtin"
    v(&mut offsets, attrs.len() as u64);
    for a in attrs {
        v(&mut offsets, ((a.len() as u64) << 1) | 1); // vflag(size, custom)
        data.extend_from_slice(a);
    }
    section(&mut out, 2, &data);
    section(&mut out, 3, &offsets);
    section(&mut out, 4, ir);
    if version >= 5 {
        section(&mut out, 8, &[1]); // an empty properties table
    }
    out
}

fn attr(parts: &[u64]) -> Vec<u8> {
    let mut a = Vec::new();
    for &p in parts {
        v(&mut a, p);
    }
    a
}

const UNKNOWN_LOC: u64 = 15;
const MASK_REGIONS: u8 = 0x10;
const MASK_ATTRS: u8 = 0x01;

/// `n` nested ops "t.r" with one region each, inline (isolated or not; v1
/// has no lazy sections).
fn bytecode_inline_regions(n: usize, isolated: bool) -> Vec<u8> {
    let attrs = [attr(&[UNKNOWN_LOC])];
    let mut ir = Vec::with_capacity(n * 8);
    v(&mut ir, 1 << 1); // top block: one op, no args
    for _ in 0..n {
        v(&mut ir, 0); // "t.r"
        ir.push(MASK_REGIONS);
        v(&mut ir, 0); // loc
        v(&mut ir, (1 << 1) | u64::from(isolated)); // one region
        v(&mut ir, 1); // one block
        v(&mut ir, 0); // no values
        v(&mut ir, 1 << 1); // one op, no args
    }
    v(&mut ir, 0);
    ir.push(0);
    v(&mut ir, 0);
    file(1, &attrs, &ir)
}

/// `n` nested isolated ops at v2, each op's region a nested IR section
/// (read lazily).
fn bytecode_lazy_regions(n: usize) -> Vec<u8> {
    let attrs = [attr(&[UNKNOWN_LOC])];
    // Sizes from the inside out: body(k) = region header + op(k+1).
    let leaf = [1u8, 0, 1]; // varints 0 (name), mask 0, loc 0 — mask is a raw byte
    let mut sizes = vec![0usize; n + 1];
    let region_header = |inner_op: usize| {
        let mut h = Vec::new();
        v(&mut h, 1);
        v(&mut h, 0);
        v(&mut h, 1 << 1);
        h.len() + inner_op
    };
    // op size for level k (k = n is the leaf).
    sizes[n] = leaf.len();
    for k in (0..n).rev() {
        let body = region_header(sizes[k + 1]);
        let mut h = Vec::new();
        v(&mut h, 0);
        h.push(MASK_REGIONS);
        v(&mut h, 0);
        v(&mut h, (1 << 1) | 1);
        h.push(4);
        v(&mut h, body as u64);
        sizes[k] = h.len() + body;
    }
    let mut ir = Vec::with_capacity(sizes[0] + 2);
    v(&mut ir, 1 << 1);
    for k in 0..n {
        v(&mut ir, 0);
        ir.push(MASK_REGIONS);
        v(&mut ir, 0);
        v(&mut ir, (1 << 1) | 1);
        ir.push(4);
        v(&mut ir, region_header(sizes[k + 1]) as u64);
        v(&mut ir, 1);
        v(&mut ir, 0);
        v(&mut ir, 1 << 1);
    }
    ir.extend_from_slice(&leaf);
    file(2, &attrs, &ir)
}

/// One op whose attribute dictionary holds `n` nested arrays; with `cycle`
/// the innermost array contains the outermost.
fn bytecode_arrays(n: usize, cycle: bool) -> Vec<u8> {
    const ARRAY: u64 = 0;
    const STRING: u64 = 2;
    const DICTIONARY: u64 = 1;
    let n64 = n as u64;
    let mut attrs: Vec<Vec<u8>> = (0..n64)
        .map(|i| match (i + 1 < n64, cycle) {
            (true, _) => attr(&[ARRAY, 1, i + 1]),
            (false, true) => attr(&[ARRAY, 1, 0]),
            (false, false) => attr(&[ARRAY, 0]),
        })
        .collect();
    attrs.push(attr(&[UNKNOWN_LOC])); // n
    attrs.push(attr(&[STRING, 3])); // n + 1: "x"
    attrs.push(attr(&[DICTIONARY, 1, n64 + 1, 0])); // n + 2: {x = #0}
    let mut ir = Vec::new();
    v(&mut ir, 1 << 1);
    v(&mut ir, 0);
    ir.push(MASK_ATTRS);
    v(&mut ir, n64);
    v(&mut ir, n64 + 2);
    file(1, &attrs, &ir)
}

fn bytecode_cases(n: usize) -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("inline regions", bytecode_inline_regions(n, false)),
        ("inline isolated regions", bytecode_inline_regions(n, true)),
        ("lazy regions", bytecode_lazy_regions(n)),
        ("arrays", bytecode_arrays(n, false)),
    ]
}

#[test]
fn bytecode_builder_makes_valid_files() {
    // Shallow versions of every case read and print as expected.
    for (what, bc) in bytecode_cases(3) {
        let m = rmlir_reader::read_bytecode(&bc).unwrap_or_else(|e| panic!("{what}: {e}"));
        let text = rmlir_writer::print_module(&m, Default::default());
        if what == "arrays" {
            assert!(text.contains("x = [[[]]]"), "{what}:\n{text}");
        } else {
            // Three nested ops and the leaf (also "t.r").
            assert_eq!(text.matches("\"t.r\"").count(), 4, "{what}:\n{text}");
        }
    }
}

#[test]
fn bytecode_100k_nesting_is_a_limit_error() {
    for (stack, limits) in [(2 << 20, Limits::default()), (256 << 10, SMALL)] {
        on_stack(stack, move || {
            let mut cases = bytecode_cases(DEEP);
            cases.push(("cyclic arrays", bytecode_arrays(3, true)));
            for (what, bc) in cases {
                expect_limit(rmlir_reader::read_bytecode_with_limits(&bc, limits), what);
                // Lazily: open, then materialize one op at a time.
                let r = rmlir_reader::BytecodeReader::open_with_limits(&bc, limits);
                let mut r = match r {
                    Ok(r) => r,
                    Err(e) => {
                        assert_eq!(e.kind(), ErrorKind::Limit, "{what} (lazy): {e}");
                        continue;
                    }
                };
                let mut result = Ok(());
                loop {
                    let Some(op) = r.pending().next() else { break };
                    result = r.materialize(op);
                    if result.is_err() {
                        break;
                    }
                }
                let e = result.expect_err(what);
                assert_eq!(e.kind(), ErrorKind::Limit, "{what} (lazy): {e}");
            }
        });
    }
}

/// At exactly the default depths, the hand-built files read.
#[test]
fn bytecode_at_the_default_limits_reads() {
    on_stack(2 << 20, || {
        let d = Limits::default();
        for (what, bc) in bytecode_cases(d.max_region_depth.min(d.max_attr_type_depth) - 1) {
            let m = rmlir_reader::read_bytecode(&bc).unwrap_or_else(|e| panic!("{what}: {e}"));
            let _ = rmlir_writer::print_module(&m, Default::default());
        }
    });
}
