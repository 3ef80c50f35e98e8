//! The printer's output limit (SPEC.md §5.1): a module whose attributes,
//! types or locations are shared many times is refused before anything is
//! printed, and every corpus module's estimate bounds its real print.

use rmlir_reader::{parse_module, read_bytecode};
use rmlir_tests::case_dirs;
use rmlir_writer::{print_module, try_print_module, write_bytecode, PrintOptions, WriteOptions};

/// `depth` aliases, each the pair of the next, over `leaf`: 2^depth copies
/// of `leaf` in the print. `def(i, next)` spells alias `i` over alias `next`.
fn dag(def: impl Fn(usize) -> String, leaf: &str, body: &str) -> String {
    let mut s = String::new();
    s.push_str(leaf);
    s.push('\n');
    for i in (0..40).rev() {
        s.push_str(&def(i));
        s.push('\n');
    }
    s.push_str(body);
    s
}

fn attr_dag() -> String {
    dag(
        |i| format!("#a{i} = [#a{n}, #a{n}]", n = i + 1),
        "#a40 = \"x\"",
        "\"builtin.module\"() ({\n  \"test.op\"() {a = #a0} : () -> ()\n}) : () -> ()\n",
    )
}

fn type_dag() -> String {
    dag(
        |i| format!("!t{i} = tuple<!t{n}, !t{n}>", n = i + 1),
        "!t40 = i32",
        "\"builtin.module\"() ({\n  \"test.op\"() : () -> !t0\n}) : () -> ()\n",
    )
}

fn loc_dag() -> String {
    dag(
        |i| format!("#l{i} = loc(callsite(#l{n} at #l{n}))", n = i + 1),
        "#l40 = loc(\"f.py\":1:2)",
        "\"builtin.module\"() ({\n  \"test.op\"() : () -> () loc(#l0)\n}) : () -> ()\n",
    )
}

fn limited(local_scope: bool, limit: u64) -> PrintOptions {
    PrintOptions {
        local_scope,
        max_output_bytes: Some(limit),
        ..Default::default()
    }
}

/// Each DAG is refused from its text and from its bytecode, naming the
/// part of the op that grows; the estimate is the 2^40-fold expansion, not
/// a guess. Locations print as aliases (`#loc2 = loc(callsite(#loc1 at
/// #loc1))`), so their DAG is refused only in local scope, and prints in
/// a few kilobytes otherwise.
#[test]
fn shared_attributes_types_and_locations_are_refused() {
    let cases = [
        (
            attr_dag(),
            "attribute 'a' (an array attribute) of 'test.op'",
            true,
        ),
        (type_dag(), "a result's type (a type) of 'test.op'", true),
        (loc_dag(), "the location (a location) of 'test.op'", false),
    ];
    for (text, what, with_aliases) in cases {
        let m = parse_module(text.as_bytes(), "dag.mlir").expect("the DAG parses");
        let bytes = write_bytecode(&m, &WriteOptions::default()).expect("the DAG encodes");
        assert!(bytes.len() < 400, "{} bytes of bytecode", bytes.len());
        let from_bytecode = read_bytecode(&bytes).expect("the DAG reads back");
        for m in [&m, &from_bytecode] {
            if !with_aliases {
                let text = try_print_module(m, limited(false, 1 << 30)).expect("aliases");
                assert!(text.len() < 4096, "{text}");
            }
            for local_scope in [!with_aliases, true] {
                let e = try_print_module(m, limited(local_scope, 1 << 30)).unwrap_err();
                let msg = e.to_string();
                assert!(msg.contains(what), "{msg}");
                assert!(e.estimate > 1 << 40, "{msg}");
                assert!(e.largest_nodes >= (1 << 41) - 1, "{msg}");
                assert_eq!(e.limit, 1 << 30);
            }
        }
    }
}

/// A limit above the estimate prints the same text as no limit; one byte
/// below the print's real length is always refused (the estimate is an
/// upper bound), over every corpus case, with and without aliases.
#[test]
fn corpus_estimates_bound_the_print() {
    let mut cases = 0usize;
    let mut worst_ratio = 0f64;
    let mut sum_est = 0u64;
    let mut sum_len = 0u64;
    for case in case_dirs("cases") {
        let Ok(text) = std::fs::read(case.join("generic.mlir")) else {
            continue;
        };
        let Ok(m) = parse_module(&text, "input.mlir") else {
            continue;
        };
        cases += 1;
        for local_scope in [false, true] {
            let plain = print_module(
                &m,
                PrintOptions {
                    local_scope,
                    ..Default::default()
                },
            );
            let len = plain.len() as u64;
            let est = match try_print_module(&m, limited(local_scope, 0)) {
                Err(e) => e.estimate,
                Ok(s) => {
                    assert!(s.is_empty(), "{}: limit 0 printed", case.display());
                    0
                }
            };
            assert!(
                est >= len,
                "{}: estimate {est} below the print's {len} bytes",
                case.display()
            );
            assert!(
                try_print_module(&m, limited(local_scope, len.saturating_sub(1))).is_err(),
                "{}",
                case.display()
            );
            if !local_scope {
                // The alias walk split into runs on threads (as for large
                // modules) estimates the same.
                let split = PrintOptions {
                    force_parallel: true,
                    ..limited(false, 0)
                };
                let split_est = try_print_module(&m, split).map_or_else(|e| e.estimate, |_| 0);
                assert_eq!(split_est, est, "{}: split walk", case.display());
            }
            let same = try_print_module(&m, limited(local_scope, est)).expect("within the limit");
            assert_eq!(same, plain, "{}", case.display());
            sum_est += est;
            sum_len += len;
            if len > 0 {
                worst_ratio = worst_ratio.max(est as f64 / len as f64);
            }
        }
    }
    assert!(
        cases > rmlir_tests::floor("print_limits: cases", 100),
        "only {cases} corpus cases parsed"
    );
    eprintln!(
        "print estimates over {cases} cases x 2 modes: {sum_est} estimated / {sum_len} printed bytes ({:.2}x), worst case {worst_ratio:.2}x",
        sum_est as f64 / sum_len as f64
    );
}

/// Splats and sparse literals of shapes with up to 2^63 elements hold one
/// element (or the few given) in the IR, in bytecode and in the print;
/// shapes whose element count overflows are errors, not wrapped counts.
#[test]
fn huge_shapes_stay_as_small_as_their_literals() {
    let module = |attr: &str| {
        format!(
            "\"builtin.module\"() ({{\n  \"test.op\"() {{a = {attr}}} : () -> ()\n}}) : () -> ()\n"
        )
    };
    for attr in [
        "dense<1.0> : tensor<9223372036854775807x1xf32>",
        "dense<true> : tensor<1000000000000xi1>",
        "dense<\"0x0000803F\"> : tensor<1000000000000xf32>",
        "dense<\"splat\"> : tensor<1000000000000x!test.t>",
        "sparse<[[0]], [1.0]> : tensor<1000000000000000xf32>",
    ] {
        let text = module(attr);
        let m = parse_module(text.as_bytes(), "t.mlir").unwrap_or_else(|e| panic!("{attr}: {e}"));
        let printed = try_print_module(&m, limited(false, 4096)).expect(attr);
        assert!(printed.len() < 1024, "{attr}: {printed}");
        let bc = write_bytecode(&m, &WriteOptions::default()).expect(attr);
        assert!(bc.len() < 1024, "{attr}: {} bytes", bc.len());
        let back = read_bytecode(&bc).expect(attr);
        assert_eq!(
            print_module(&back, PrintOptions::default()),
            printed,
            "{attr}"
        );
    }
    for attr in [
        "dense<1.0> : tensor<4611686018427387904x4611686018427387904xf32>",
        "dense<[1.0, 2.0]> : tensor<1000000000000xf32>",
    ] {
        assert!(
            parse_module(module(attr).as_bytes(), "t.mlir").is_err(),
            "{attr}"
        );
    }
}

/// Inputs the `amplification` fuzz target once failed on
/// (`tests/regressions/amplification/`): their print's estimate bounds
/// the print, with and without aliases.
#[test]
fn amplification_regressions_hold() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("regressions/amplification");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(!files.is_empty());
    for f in files {
        let data = std::fs::read(&f).unwrap();
        let m = if rmlir_reader::is_bytecode(&data) {
            read_bytecode(&data).unwrap()
        } else {
            parse_module(&data, "input.mlir").unwrap()
        };
        for local_scope in [false, true] {
            let len = print_module(
                &m,
                PrintOptions {
                    local_scope,
                    ..Default::default()
                },
            )
            .len() as u64;
            let e = try_print_module(&m, limited(local_scope, 0)).unwrap_err();
            assert!(e.estimate >= len, "{}: {} < {len}", f.display(), e.estimate);
        }
    }
}
