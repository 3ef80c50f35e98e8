//! Every error path of the text parser, each with a small bad input and
//! the diagnostic it must produce (`file:line:col: error: message`).

use rmlir_reader::{parse_module, ErrorKind};

/// Parses `src` and returns the full rendered diagnostic.
fn diag(src: &str) -> (String, ErrorKind) {
    match parse_module(src.as_bytes(), "bad.mlir") {
        Ok(_) => panic!("expected an error for:\n{src}"),
        Err(e) => (e.to_string(), e.kind()),
    }
}

fn check(src: &str, line_col: &str, message: &str) {
    if std::env::var("LIST_ALL").is_ok() {
        match parse_module(src.as_bytes(), "bad.mlir") {
            Ok(_) => println!("NOERR {src:?}"),
            Err(e) => {
                let d = e.to_string();
                let first = d.lines().next().unwrap().to_string();
                if first != format!("bad.mlir:{line_col}: error: {message}") {
                    println!("MISMATCH {src:?}\n   got {first}\n  want {line_col} {message}");
                }
            }
        }
        return;
    }
    let (d, _) = diag(src);
    let first = d.lines().next().unwrap();
    assert_eq!(
        first,
        format!("bad.mlir:{line_col}: error: {message}"),
        "input:\n{src}\nfull diagnostic:\n{d}"
    );
}

#[test]
fn diagnostic_shows_source_line_and_caret() {
    let (d, kind) = diag("\"a.b\"() : () -> ()\n\"c.d\"(%x) : (i32) -> ()\n");
    assert_eq!(kind, ErrorKind::Semantic);
    let lines: Vec<&str> = d.lines().collect();
    assert_eq!(
        lines[0],
        "bad.mlir:2:7: error: use of undeclared SSA value name '%x'"
    );
    assert_eq!(lines[1], "\"c.d\"(%x) : (i32) -> ()");
    assert_eq!(lines[2], "      ^");
}

#[test]
fn custom_syntax_outside_the_data_is_refused_with_advice() {
    // An op of no dialect we have data for: its custom form is not
    // guessed, and the error says what is accepted instead.
    let (d, kind) = diag("func.func @f() {\n  %0 = foo.bar 1, 2 : i32\n  return\n}\n");
    assert_eq!(kind, ErrorKind::Unsupported);
    assert!(
        d.starts_with("bad.mlir:2:8: error: custom syntax of operation 'foo.bar' is not known"),
        "{d}"
    );
    assert!(d.contains("generic form"), "{d}");
    // An op whose parser is hand-written C++ we have not ported.
    let (d, kind) = diag(
        "func.func @f(%m: memref<2x3xf32>) {\n  %0 = memref.transpose %m (i, j) -> (j, i) : memref<2x3xf32> to memref<3x2xf32>\n  return\n}\n",
    );
    assert_eq!(kind, ErrorKind::Unsupported, "{d}");
    assert!(
        d.starts_with("bad.mlir:2:8: error: custom syntax of operation 'memref.transpose' is not known (its parser is hand-written C++)"),
        "{d}"
    );
}

#[test]
fn custom_syntax_errors() {
    check(
        "func.func @f(%a: i32) {\n  %0 = arith.addi %a, : i32\n}\n",
        "2:23",
        "expected an SSA value (%name)",
    );
    check(
        "func.func @f(%a: i32) {\n  %0 = arith.cmpi bad, %a, %a : i32\n}\n",
        "2:19",
        "expected one of [eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge] for predicate, got: bad",
    );
    check(
        "func.func @f(%a: i32) {\n  %0, %1 = arith.addi %a, %a : i32\n}\n",
        "2:3",
        "operation defines 1 results but was provided 2 to bind",
    );
}

#[test]
fn operation_errors() {
    // mlir-opt 22 refuses an empty name, at the name (found by fuzzing
    // the custom-form parser: we took `""()` as an op).
    check(
        "\"builtin.module\"() ({\n  \"\"() : () -> ()\n}) : () -> ()\n",
        "2:3",
        "empty operation name is invalid",
    );
    // Elements of a wide integer type expand text a million times (found
    // while auditing for the fuzzers: 4 KiB of text took 4 GB).
    check(
        "\"t.a\"() {x = dense<[1, 2]> : tensor<2xi16777215>} : () -> ()",
        "1:30",
        "dense literal of 2 elements of 2097152 bytes each is larger than the limit for this input (1052416 bytes)",
    );
    // A forward reference to a result number no definition in the input
    // could reach (found by fuzzing: it allocated 4e9 slots).
    check(
        "\"t.a\"(%x#4000000000) : (i32) -> ()\n%x = \"t.b\"() : () -> i32\n",
        "1:7",
        "result number 4000000000 of '%x' is larger than any operation in this input can define",
    );
    check(
        "\"a\"(%0) : () -> ()",
        "1:11",
        "expected 1 operand type but had 0",
    );
    check(
        "%0:2 = \"a\"() : () -> i32",
        "1:1",
        "operation defines 1 results but was provided 2 to bind",
    );
    check(
        "%0 = \"a\"() : () -> i32\n%0 = \"b\"() : () -> i32",
        "2:1",
        "redefinition of SSA value '%0'",
    );
    check(
        "\"a\"() : i32",
        "1:9",
        "expected a function type for the operation's signature",
    );
    check(
        "\"a\"()",
        "1:6",
        "expected ':' followed by the operation's type, but reached the end of the input",
    );
    check(
        "\"a\" : () -> ()",
        "1:5",
        "expected '(' to start the operand list",
    );
    check(
        "%0 = \"a\"() : () -> i32\n\"b\"(%0#3) : (i32) -> ()",
        "2:5",
        "reference to invalid result number 3 of '%0', which has 1 results",
    );
    check(
        "%0 = \"a\"() : () -> i32\n\"b\"(%0) : (f32) -> ()",
        "2:5",
        "use of value '%0' expects different type than prior uses",
    );
    check(
        "\"b\"(%7) : (i32) -> ()\n%7 = \"a\"() : () -> f32",
        "2:1",
        "definition of SSA value '%7' has a different type than prior uses",
    );
    check(
        "%x:0 = \"a\"() : () -> ()",
        "1:4",
        "expected a positive result count",
    );
    check(
        "\"a\"() <{x = 1} : () -> ()",
        "1:16",
        "expected '>' to close the properties",
    );
    check(
        "\"a\\q\"() : () -> ()",
        "1:3",
        "invalid escape sequence in string literal",
    );
    check(
        "\"a\"() : () -> () loc(#nope)",
        "1:22",
        "undefined location alias '#nope'",
    );
    check(
        "#a = 1\n\"a\"() : () -> () loc(#a)",
        "2:22",
        "expected location, but '#a' is not a location",
    );
    check(
        "$",
        "1:1",
        "unexpected character; expected an operation name string",
    );
}

#[test]
fn region_and_block_errors() {
    check(
        "\"a\"() ({\n  \"b\"()[^bb9] : () -> ()\n}) : () -> ()",
        "2:9",
        "reference to an undefined block '^bb9'",
    );
    check(
        "\"a\"() ({\n^bb0:\n  \"b\"() : () -> ()\n^bb0:\n  \"c\"() : () -> ()\n}) : () -> ()",
        "4:1",
        "redefinition of block '^bb0'",
    );
    check(
        "\"a\"() ({\n^bb0(%x i32):\n}) : () -> ()",
        "2:9",
        "expected ':' and the argument's type",
    );
    check(
        "\"a\"() ({\n  \"b\"() : () -> ()\n",
        "3:1",
        "expected '}' to end the region, but reached the end of the input",
    );
    check(
        "\"a\"()[^bb0] : () -> ()",
        "1:7",
        "reference to an undefined block '^bb0'",
    );
}

#[test]
fn type_errors() {
    check(
        "\"a\"() : () -> i99999999",
        "1:15",
        "invalid integer width (at most 16777215)",
    );
    check("\"a\"() : () -> foo", "1:15", "unknown type 'foo'");
    check(
        "\"a\"() : () -> tensor<4xq32>",
        "1:24",
        "unknown type 'q32'",
    );
    check(
        "\"a\"() : () -> tensor<4yf32>",
        "1:23",
        "expected 'x' in dimension list",
    );
    check(
        "\"a\"() : () -> vector<0xf32>",
        "1:22",
        "vector types must have positive constant sizes",
    );
    check(
        "\"a\"() : () -> vector<[4x8xf32>",
        "1:22",
        "expected a scalable dimension like '[4]'",
    );
    check(
        "\"a\"() : () -> !nope",
        "1:15",
        "undefined symbol alias id 'nope'",
    );
    check(
        "\"a\"() : () -> !foo<\"x\"",
        "1:19",
        "unbalanced '<' character in pretty dialect name",
    );
    check(
        "\"a\"() : () -> (i32) -> i32 -> i32",
        "1:21",
        "expected an operation name string",
    );
    check(
        "\"a\"() : () -> memref<4xf32, 1, 2>",
        "1:32",
        "multiple memory spaces specified in memref type",
    );
    check(
        "\"a\"() : () -> tensor<99999999999999999999xf32>",
        "1:22",
        "dimension is too large",
    );
}

#[test]
fn attribute_errors() {
    let op = |a: &str| format!("\"a\"() {{x = {a}}} : () -> ()");
    // Positions and messages as mlir-opt 22 reports them (checked by hand):
    // the symbol data after the dialect namespace.
    check(
        &op("#-llvm.thing<#x>"),
        "1:19",
        "invalid dialect namespace '\"-llvm\"'",
    );
    check(
        "\"a\"() : () -> !-x.y",
        "1:19",
        "invalid dialect namespace '\"-x\"'",
    );
    check(
        &op("300 : i8"),
        "1:12",
        "integer constant out of range for attribute",
    );
    check(
        &op("-1 : ui8"),
        "1:13",
        "negative integer literal not valid for unsigned integer type",
    );
    check(
        &op("1.5 : i32"),
        "1:12",
        "floating point value not valid for specified type",
    );
    check(&op("1 : f32"), "1:12", "unexpected decimal integer literal for a floating point value (add a trailing dot to make the literal a float)");
    check(
        &op("-0x3F80 : f16"),
        "1:13",
        "hexadecimal float literal should not have a leading minus",
    );
    check(
        &op("0x1FFFF : f16"),
        "1:12",
        "hexadecimal float constant out of range for type",
    );
    check(
        &op("1 : tensor<2xi32>"),
        "1:12",
        "integer literal not valid for specified type",
    );
    check(
        &op("#undefined"),
        "1:12",
        "undefined symbol alias id 'undefined'",
    );
    check(
        "\"a\"() {x = 1, x = 2} : () -> ()",
        "1:15",
        "duplicate key 'x' in dictionary attribute",
    );
    check(
        "\"a\"() {\"\" = 1} : () -> ()",
        "1:8",
        "expected valid attribute name",
    );
    check(
        &op("dense<[1, 2, 3]> : tensor<2xi32>"),
        "1:19",
        "inferred shape of elements literal ([3]) does not match type ([2])",
    );
    check(
        &op("dense<[[1], [2, 3]]> : tensor<2x1xi32>"),
        "1:18",
        "tensor literal is invalid; ranks are not consistent between elements",
    );
    check(
        &op("dense<\"0x0102\"> : tensor<3xi32>"),
        "1:18",
        "elements hex data size is invalid for provided type: 2 bytes for 3 elements of 4 bytes",
    );
    check(
        &op("dense<1> : i32"),
        "1:23",
        "elements literal must be a shaped type",
    );
    check(
        &op("dense<1> : tensor<?xi32>"),
        "1:23",
        "elements literal type must have static shape",
    );
    check(
        &op("dense<[1.5]> : tensor<1xi32>"),
        "1:19",
        "expected integer elements, but parsed floating-point",
    );
    check(&op("dense<[1]> : tensor<1xf32>"), "1:19", "unexpected decimal integer literal for a floating point value (add a trailing dot to make the literal a float)");
    check(
        &op("dense<[1e999.0]> : tensor<1xf32>"),
        "1:20",
        "expected ',' or ']'",
    );
    check(
        &op("array<tensor<2xi32>: 1>"),
        "1:18",
        "expected integer or float type for a dense array",
    );
    check(
        &op("affine_map<(d0) -> (d1)>"),
        "1:32",
        "use of undeclared identifier 'd1'",
    );
    check(&op("strided<[1, x]>"), "1:24", "expected an integer or '?'");
    check(
        &op("distinct[0]<1>, y = distinct[0]<2>"),
        "1:32",
        "referenced attribute does not match previous definition of distinct[0]",
    );
    check(
        &op("loc(\"f\":1:2 to)"),
        "1:26",
        "expected an integer in location",
    );
    check(
        &op("loc(callsite(\"a\" \"b\"))"),
        "1:29",
        "expected 'at' in callsite location",
    );
    check(&op("loc(bogus)"), "1:16", "expected location instance");
    check(
        "#a = 1\n#a = 2\n",
        "2:1",
        "redefinition of attribute alias id 'a'",
    );
    check(
        "!a = i32\n!a = i64\n",
        "2:1",
        "redefinition of type alias id 'a'",
    );
    check(
        "#a.b = 1\n",
        "1:1",
        "expected an alias name without a '.' (a dotted name is a dialect symbol)",
    );
}

#[test]
fn file_metadata_errors() {
    // Alignment 2^31 would pad the written blob to 2 GiB (found by the
    // text_roundtrip fuzzer; mlir-opt 22 aborts on it).
    check(
        "{-#\n  dialect_resources: {\n    builtin: {\n      b: \"0x0000008000\"\n    }\n  }\n#-}\n",
        "4:10",
        "resource blob alignment 2147483648 is larger than the limit 65536 (Limits::max_blob_alignment)",
    );
    check(
        "{-# bogus: {} #-}",
        "1:5",
        "unknown file metadata key 'bogus'",
    );
    check(
        "{-# dialect_resources: { builtin: { k: \"0x0G\" } } #-}",
        "1:40",
        "malformed hex string in resource blob",
    );
    check(
        "{-# dialect_resources: { builtin: { k: \"0x0100\" } } #-}",
        "1:40",
        "resource blob is missing its 4-byte alignment prefix",
    );
    check(
        "{-# dialect_resources: { builtin: { k: \"0x03000000\" } } #-}",
        "1:40",
        "resource blob alignment 3 is not a power of two",
    );
}

/// A reference to a location, affine map, integer set or distinct attribute
/// glued to the identifier before it in the split body of a registered
/// dialect (SPEC.md §2.4). Our message (mlir-opt's llvm parser reports its
/// own); positions counted by hand: the `#`.
#[test]
fn glued_references_in_dialect_bodies() {
    let glued = "expected whitespace or punctuation between an identifier and this location, affine map, integer set or distinct attribute in a dialect body";
    check(
        "#l = loc(\"x.mlir\":3:4)\n\"a\"() {x = #llvm.loop_annotation<k = x#l>} : () -> ()",
        "2:39",
        glued,
    );
    check(
        "#m = affine_map<(d0) -> (d0)>\n\"a\"() {x = #gpu.object<y#m>} : () -> ()",
        "2:25",
        glued,
    );
    // Other glued values print the same aliased or not, and are read; so
    // is a glued location with a space, or in an unregistered dialect's
    // opaque body.
    for ok in [
        "!t = i32\n\"a\"() {x = #llvm.loop_annotation<k = x!t>} : () -> ()",
        "#d = dense<1> : tensor<2xi32>\n\"a\"() {x = #llvm.loop_annotation<k = x#d>} : () -> ()",
        "#f = #llvm.di_file<\"a\" in \"b\">\n\"a\"() {x = #llvm.di_lexical_block<scope = #f#f>} : () -> ()",
        "#l = loc(\"x.mlir\":3:4)\n\"a\"() {x = #llvm.loop_annotation<k = x #l>} : () -> ()",
        "#l = loc(\"x.mlir\":3:4)\n\"a\"() {x = #acme.thing<k = x#l>} : () -> ()",
    ] {
        parse_module(ok.as_bytes(), "ok.mlir").unwrap_or_else(|e| panic!("{ok}: {e}"));
    }
}

#[test]
fn nesting_limit_is_an_error_not_a_stack_overflow() {
    let depth = 100_000;
    let src = format!(
        "\"a\"() {{x = {}1{}}} : () -> ()",
        "[".repeat(depth),
        "]".repeat(depth)
    );
    let (d, kind) = diag(&src);
    assert_eq!(kind, ErrorKind::Limit);
    assert!(
        d.contains("attribute/type nesting deeper than the limit of 256"),
        "{d}"
    );
    let mut regions = String::new();
    for _ in 0..depth {
        regions.push_str("\"r\"() ({\n");
    }
    let (d, kind) = diag(&regions);
    assert_eq!(kind, ErrorKind::Limit, "{d}");
}

#[test]
fn arbitrary_bytes_never_panic() {
    // A deterministic sweep of truncations and byte flips of a valid file.
    let base = std::fs::read("../examples/hello.mlir").expect("bundled example");
    for cut in 0..base.len() {
        let _ = parse_module(&base[..cut], "cut.mlir");
    }
    let mut state = 0x2545F4914F6CDD1Du64;
    for _ in 0..20_000 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let mut m = base.clone();
        let i = (state % m.len() as u64) as usize;
        m[i] = (state >> 32) as u8;
        let _ = parse_module(&m, "flip.mlir");
    }
}

/// StableHLO's custom syntax is known once its dialect is registered with
/// the parser (SPEC.md §11.3); its errors are jaxlib 0.10.2's, at the
/// positions jaxlib gives (checked 2026-11-27).
#[test]
fn stablehlo_custom_syntax_errors() {
    let parse = |src: &str| {
        rmlir_reader::parse_module_releasing_deferred_with(
            src.as_bytes(),
            "bad.mlir",
            rmlir_reader::Limits::default(),
            Some(rmlir_dialects::all()),
            &|_| {},
        )
    };
    let f = |body: &str| {
        format!(
            "func.func @f(%x: tensor<2x3xf32>, %z: tensor<f32>, %k: tensor<3x3x3x4xf32>) {{\n  {body}\n  return\n}}\n"
        )
    };
    let cases = [
        (
            "%0 = stablehlo.reduce(%x init: %z) applies stablehlo.subtract across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>",
            "bad.mlir:2:24: error: expected the inner-op to be a commutative binary-op from the stablehlo dialect",
        ),
        (
            "%0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, b, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x3xf32>, tensor<3x3x3x4xf32>) -> tensor<2x3xf32>",
            "bad.mlir:2:59: error: Unexpected dimension b, expecting f",
        ),
        (
            "%0 = stablehlo.reduce_precision %x, format = e5x10 : tensor<2x3xf32>",
            "bad.mlir:2:48: error: expected exponent mantissa in format e#m#, saw e5x10",
        ),
        (
            "%0 = stablehlo.select %z, %x : tensor<f32>",
            "bad.mlir:2:34: error: expected functional type or list of two types",
        ),
    ];
    for (body, want) in cases {
        let d = match parse(&f(body)) {
            Ok(_) => panic!("parsed: {body}"),
            Err(e) => e.to_string(),
        };
        assert!(d.starts_with(want), "{body}:\n{d}");
    }
    // Without the dialect's hook (mlir-opt 22's view), the op is unknown.
    let d = match parse_module(
        f("%0 = stablehlo.abs %z : tensor<f32>").as_bytes(),
        "bad.mlir",
    ) {
        Ok(_) => panic!("parsed without the hook"),
        Err(e) => e.to_string(),
    };
    assert!(
        d.contains("custom syntax of operation 'stablehlo.abs' is not known"),
        "{d}"
    );
}
