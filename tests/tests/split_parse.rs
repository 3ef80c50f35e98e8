//! The split text parse (SPEC.md §3.5): a large file's top-level op body
//! cut between two threads, the second also parsing the alias definitions
//! after the op. Large files take it by themselves; here every corpus text
//! file (generic, local scope, and mlir-opt's custom print) is forced
//! through it at two cuts, and must give what the one-thread
//! parse gives: the same print, the same bytecode, the same arena and
//! context sizes (ids are assigned in the same order), or the same error.
//! Hand-written modules check each condition under which the second
//! thread's part is not taken.

use rmlir_format::Module;
use rmlir_reader::{parse_module_split_at, parse_module_with_limits, Limits, SplitReport};
use rmlir_writer::{print_module, write_bytecode};

/// What a module gives: its print, its bytecode (or the writer's error),
/// and the sizes of its arenas and context.
fn outputs(m: &Module) -> (String, Result<Vec<u8>, String>, [usize; 6]) {
    let sizes = [
        m.ops.len(),
        m.blocks.len(),
        m.regions.len(),
        m.values.len(),
        m.ctx.num_attrs(),
        m.ctx.num_types(),
    ];
    let written = write_bytecode(m, &Default::default()).map_err(|e| e.to_string());
    (print_module(m, Default::default()), written, sizes)
}

fn one_thread(src: &[u8]) -> Result<Module, String> {
    // Below the size at which the parse splits by itself.
    assert!(src.len() < rmlir_reader::PARALLEL_TEXT_MIN_BYTES);
    parse_module_with_limits(src, "in.mlir", Limits::default()).map_err(|e| e.to_string())
}

/// Parses `src` split at `share` and asserts it is the one-thread parse.
fn check(src: &[u8], share: f64, what: &str) -> SplitReport {
    let (split, report) = parse_module_split_at(src, "in.mlir", Limits::default(), None, share);
    let split = split.map_err(|e| e.to_string());
    match (one_thread(src), split) {
        (Ok(a), Ok(b)) => assert!(
            outputs(&a) == outputs(&b),
            "{what} (share {share}): {report:?}"
        ),
        (Err(a), Err(b)) => assert_eq!(a, b, "{what} (share {share})"),
        (a, b) => panic!(
            "{what} (share {share}): one thread {:?}, split {:?}",
            a.err(),
            b.err()
        ),
    }
    report
}

#[test]
fn corpus_text_parses_alike_split() {
    let (mut files, mut started, mut merged, mut reparsed) = (0, 0, 0, 0);
    for case in rmlir_tests::case_dirs("cases")
        .into_iter()
        .chain(rmlir_tests::case_dirs("real-client/cases"))
    {
        for name in ["generic.mlir", "local.mlir", "pretty.mlir"] {
            let Ok(src) = std::fs::read(case.join(name)) else {
                continue;
            };
            files += 1;
            for share in [0.3, 0.7] {
                let what = format!("{}/{name}", case.display());
                let r = check(&src, share, &what);
                started += usize::from(r.started);
                merged += usize::from(r.merged);
                reparsed += usize::from(r.reparsed);
            }
        }
    }
    println!(
        "{files} files, 2 cuts each: split started {started}, merged {merged}, parsed again {reparsed}; all alike"
    );
    assert!(
        files > rmlir_tests::floor("split_parse: files", 12000),
        "only {files} files"
    );
    // Most small files have one op in the body, so no cut is found (3,057
    // of 24,604 parses merged when this was written).
    assert!(
        merged > rmlir_tests::floor("split_parse: merged", 2500),
        "only {merged} parses took the second thread's part"
    );
}

/// A module as mlir-opt prints one: `n` functions whose ops use values
/// defined later in the same body, block arguments, and locations by
/// aliases defined after the module (some used in both halves), with
/// `extra_top` inserted before the functions and `extra_tail` as the
/// last function's body.
fn module(n: usize, extra_top: &str, extra_tail: &str) -> String {
    let mut s = String::from("#map = affine_map<(d0) -> (d0)>\n\"builtin.module\"() ({\n");
    s.push_str(extra_top);
    for i in 0..n {
        s.push_str(&format!(
            "  \"func.func\"() <{{function_type = (i32) -> i32, sym_name = \"f{i}\"}}> ({{\n\
             \x20 ^bb0(%arg0: i32 loc(#loc{i})):\n\
             \x20   %0 = \"t.add\"(%arg0, %1) : (i32, i32) -> i32 loc(#loc{j})\n\
             \x20   %1 = \"t.c\"() {{value = {i} : i32, m = #map}} : () -> i32 loc(\"x.mlir\":{i}:3)\n\
             \x20   \"func.return\"(%0) : (i32) -> () loc(#loc)\n\
             \x20 }}) : () -> () loc(#loc{i})\n",
            j = (i * 7) % n
        ));
    }
    s.push_str(extra_tail);
    s.push_str("}) : () -> () loc(#loc)\n#loc = loc(\"top.mlir\":1:1)\n");
    for i in 0..n {
        s.push_str(&format!(
            "#loc{i} = loc(fused[\"a.py\":{i}:1, \"b.py\":{}:2])\n",
            i % 5
        ));
    }
    s
}

#[test]
fn printed_layout_is_merged_alike() {
    let src = module(400, "", "");
    for share in [0.2, 0.5, 0.8] {
        let r = check(src.as_bytes(), share, "module(400)");
        assert!(r.merged && !r.reparsed, "share {share}: {r:?}");
    }
}

#[test]
fn second_part_is_declined_where_it_could_differ() {
    let tail_fn = |body: &str| {
        format!(
            "  \"func.func\"() <{{function_type = () -> (), sym_name = \"last\"}}> ({{\n{body}\
             \x20   \"func.return\"() : () -> ()\n  }}) : () -> ()\n"
        )
    };
    let cases = [
        // A value defined at the body's top level, used in the second part.
        (
            "  %top = \"t.c\"() : () -> i32\n".to_string(),
            tail_fn("    \"t.use\"(%top) : (i32) -> ()\n"),
        ),
        // A `distinct` attribute in the second part.
        (
            String::new(),
            tail_fn("    \"t.d\"() {d = distinct[0]<42 : i32>} : () -> ()\n"),
        ),
        // The second part redefines a name the first defined: an error
        // for the one-thread parse too.
        (
            "  %x = \"t.c\"() : () -> i32\n".to_string(),
            tail_fn("    %x = \"t.c\"() : () -> i32\n"),
        ),
        // The second part has an error.
        (
            String::new(),
            tail_fn("    \"t.use\"(%nowhere) : (i32) -> ()\n"),
        ),
        // An op with results at the body's top level in the second part.
        (
            String::new(),
            "  %late = \"t.c\"() : () -> i32\n".to_string(),
        ),
    ];
    for (k, (top, tail)) in cases.iter().enumerate() {
        let src = module(300, top, tail);
        // A cut late enough to leave the tail to the second thread.
        let r = check(src.as_bytes(), 0.6, &format!("case {k}"));
        assert!(r.started && !r.merged, "case {k}: {r:?}");
    }
}

#[test]
fn definitions_that_are_not_locations_fail_alike() {
    // `#loc3` is used as a location but defined as an integer.
    let src =
        module(50, "", "").replace("#loc3 = loc(fused", "#loc3 = 7 : i32\n#unused = loc(fused");
    let r = check(src.as_bytes(), 0.5, "non-location alias");
    assert!(r.started, "{r:?}");
    assert!(one_thread(src.as_bytes()).is_err());
}
