//! Differential property test of the text printer and parser against
//! mlir-opt 22: random modules (see `rmlir_tests::arbitrary_ir`) are printed
//! with our printer, fed to
//! `mlir-opt --allow-unregistered-dialect --mlir-print-op-generic
//! --mlir-print-debuginfo`, and mlir-opt's output must be byte-identical to
//! ours. Our own parse + print of the text must be a fixpoint as well.
//!
//! Environment:
//! * `RMLIR_ARBITRARY_CASES` — number of random modules (default 200);
//! * `RMLIR_ARBITRARY_SEED` — seed of the first module (the others follow
//!   it); a failure report names the seed of each failing module, so
//!   `RMLIR_ARBITRARY_SEED=<seed> RMLIR_ARBITRARY_CASES=1` reproduces one;
//! * `RMLIR_MLIR_OPT` — the mlir-opt binary (default
//!   `/usr/lib/llvm-22/bin/mlir-opt`). The test fails when it is missing.
//!
//! The generator only produces IR in the canonical form MLIR itself holds
//! after parsing text, because mlir-opt canonicalises on parsing. The
//! canonicalisations it respects (all observed with mlir-opt 22):
//!
//! * Fused locations are folded as `FusedLoc::get` does: members that are
//!   fused locations with the same metadata are flattened into the list,
//!   unknown members and duplicates are dropped, no members gives `unknown`
//!   (or `fused<md>[unknown]` with metadata), a single member without
//!   metadata gives that member. (`loc(fused[])` → `loc(unknown)`,
//!   `loc(fused["a":1:2, unknown])` → `loc("a":1:2)`.)
//! * `FileLineColRange` locations are generated only with a column and with
//!   an end different from the start (the other forms expose printer bugs,
//!   see `GEN_RANGE_WITHOUT_COLUMN` and `GEN_POINT_RANGE`).
//! * Float values are those that survive their own text: MLIR reads a
//!   decimal literal through a `double`, so `f80`/`f128` values that need
//!   more precision (or range) than `f64` change when read back; NaN and
//!   infinity print as hex bit patterns and are kept (x87 unnormals are
//!   re-encoded). The generator replaces each value by the fixpoint of
//!   print → parse (counted per kind in the test output).
//! * Dense elements are a splat when all elements are bitwise equal or
//!   there is one element; a lone dense string literal never starts with
//!   `0x` (it would be hex data); a sparse index list never has two or more
//!   identical indices that are all equal (that is a splat, which reads back
//!   as a single index).
//! * Affine maps and integer sets are the fixpoint of print → parse: MLIR's
//!   parser rebuilds expressions through the simplifying constructors and
//!   left-associates sums, so e.g. `d0 + (d1 + d2)` becomes `(d0 + d1) + d2`.
//!   An identity affine-map memref layout is absent; an integer memory
//!   space 0 (of any integer type) is absent.
//! * Integers are normalised to their type (signed reading unless the type
//!   is unsigned, signless `i1` is 0/1).
//! * Memory spaces are integers, strings or dictionaries (mlir-opt rejects
//!   other builtin attributes there); `array<..>` elements have a width of 1
//!   or a multiple of 8 bits; vector dimensions are positive; tensor and
//!   memref element types are those MLIR accepts.
//! * Ops are of unregistered dialects; successors appear only on the last
//!   op of a block and target non-entry blocks of the same region; every
//!   block of a multi-block region has an op; uses are dominated.

#[path = "../src/arbitrary_ir.rs"]
#[allow(dead_code)]
mod arbitrary_ir;

use arbitrary_ir::{module_for_seed, GenConfig, GenStats};
use rmlir_format::float::FloatKind;
use rmlir_reader::parse_module;
use rmlir_tests::first_diff;
use rmlir_writer::{print_module, PrintOptions};
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Instant;

const DEFAULT_CASES: usize = 200;
const DEFAULT_SEED: u64 = 0x5EED_0000;
/// Modules per mlir-opt process.
const BATCH: usize = 64;
const IN_MARKER: &str = "// ----- rmlir-arbitrary-case";
const OUT_MARKER: &str = "// ===== rmlir-arbitrary-case";

fn env_num(name: &str) -> Option<u64> {
    let v = std::env::var(name).ok()?;
    let v = v.trim();
    let parsed = match v.strip_prefix("0x") {
        Some(h) => u64::from_str_radix(h, 16),
        None => v.parse(),
    };
    Some(parsed.unwrap_or_else(|_| panic!("{name}={v} is not a number")))
}

fn mlir_opt() -> String {
    let path = std::env::var("RMLIR_MLIR_OPT")
        .unwrap_or_else(|_| "/usr/lib/llvm-22/bin/mlir-opt".to_string());
    let hint = "install it with `bash ../shared/tools/install-mlir-oracle.sh` (run from the \
                workspace root), or set RMLIR_MLIR_OPT to an mlir-opt 22 binary";
    match Command::new(&path).arg("--version").output() {
        Ok(o) if o.status.success() => path,
        Ok(o) => panic!(
            "this test needs mlir-opt 22, but `{path} --version` failed ({}): {hint}",
            o.status
        ),
        Err(e) => panic!("this test needs mlir-opt 22, but `{path}` cannot be run ({e}): {hint}"),
    }
}

/// Runs mlir-opt on `input` (standard input); returns (success, stdout, stderr).
fn run_opt(opt: &str, input: &str, split: bool) -> (bool, String, String) {
    let mut cmd = Command::new(opt);
    cmd.args([
        "--allow-unregistered-dialect",
        "--mlir-print-op-generic",
        "--mlir-print-debuginfo",
    ]);
    if split {
        cmd.arg(format!("--split-input-file={IN_MARKER}"));
        cmd.arg(format!("--output-split-marker={OUT_MARKER}"));
    }
    cmd.arg("-")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {opt}: {e}"));
    let mut stdin = child.stdin.take().expect("piped stdin");
    let input = input.to_owned();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let out = child
        .wait_with_output()
        .unwrap_or_else(|e| panic!("{opt} failed: {e}"));
    let _ = writer.join();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

struct Case {
    seed: u64,
    text: String,
    ops: usize,
}

struct Failure {
    seed: u64,
    what: String,
    text: String,
}

/// mlir-opt's output for each case, in order (`Err(stderr)` when it
/// rejected the case).
fn opt_outputs(opt: &str, batch: &[Case]) -> Vec<Result<String, String>> {
    let mut input = String::new();
    for (i, c) in batch.iter().enumerate() {
        if i > 0 {
            input.push_str(IN_MARKER);
            input.push('\n');
        }
        input.push_str(&c.text);
    }
    let (ok, stdout, _) = run_opt(opt, &input, true);
    let pieces: Vec<&str> = stdout.split(&format!("{OUT_MARKER}\n")).collect();
    if ok && pieces.len() == batch.len() {
        return pieces.into_iter().map(|p| Ok(p.to_string())).collect();
    }
    // Some case was rejected (or the output did not split as expected):
    // run the cases one by one to know which, with their diagnostics.
    batch
        .iter()
        .map(|c| {
            let (ok, out, err) = run_opt(opt, &c.text, false);
            if ok {
                Ok(out)
            } else {
                Err(err)
            }
        })
        .collect()
}

fn check_case(c: &Case, opt_out: Result<String, String>) -> Option<Failure> {
    let fail = |what: String| {
        Some(Failure {
            seed: c.seed,
            what,
            text: c.text.clone(),
        })
    };
    // Our parse + print.
    let ours_rt = match parse_module(c.text.as_bytes(), "input.mlir") {
        Ok(m) => Ok(print_module(&m, PrintOptions { local_scope: false })),
        Err(e) => Err(e.to_string()),
    };
    match (&opt_out, &ours_rt) {
        (Err(stderr), _) => fail(format!(
            "mlir-opt rejects our text:\n{}",
            stderr.lines().take(12).collect::<Vec<_>>().join("\n")
        )),
        (Ok(o), _) if *o != c.text => {
            let triage = match &ours_rt {
                Ok(rt) if rt == o => "our parse+print agrees with mlir-opt: the generator made \
                                      non-canonical IR, or we print something both parsers \
                                      read differently"
                    .to_string(),
                Ok(rt) => format!(
                    "our parse+print differs from mlir-opt too; ours vs mlir-opt: {}",
                    first_diff(o, rt)
                ),
                Err(e) => format!("our parser rejects our own text: {e}"),
            };
            fail(format!(
                "mlir-opt's output differs from ours (expected = mlir-opt, actual = ours): {}\n  triage: {triage}",
                first_diff(o, &c.text)
            ))
        }
        (_, Err(e)) => fail(format!("our parser rejects our own text: {e}")),
        (_, Ok(rt)) if *rt != c.text => fail(format!(
            "our parse+print is not a fixpoint (expected = printed, actual = reprinted): {}",
            first_diff(&c.text, rt)
        )),
        _ => None,
    }
}

#[test]
fn random_modules_print_like_mlir_opt() {
    let opt = mlir_opt();
    let n = env_num("RMLIR_ARBITRARY_CASES").map_or(DEFAULT_CASES, |v| v as usize);
    let base = env_num("RMLIR_ARBITRARY_SEED").unwrap_or(DEFAULT_SEED);
    let cfg = GenConfig::default();
    let start = Instant::now();

    let mut stats = GenStats::default();
    let mut cases = Vec::with_capacity(n);
    for i in 0..n {
        let seed = base.wrapping_add(i as u64);
        let (m, s) = module_for_seed(seed, cfg);
        let text = print_module(&m, PrintOptions { local_scope: false });
        cases.push(Case {
            seed,
            text,
            ops: s.ops,
        });
        stats.merge(&s);
    }

    let threads = std::thread::available_parallelism()
        .map_or(2, |p| p.get())
        .clamp(1, 8);
    let batches: Vec<&[Case]> = cases.chunks(BATCH).collect();
    let mut failures: Vec<Failure> = Vec::new();
    std::thread::scope(|s| {
        let per_thread = batches.len().div_ceil(threads).max(1);
        let handles: Vec<_> = batches
            .chunks(per_thread)
            .map(|group| {
                let opt = &opt;
                s.spawn(move || {
                    let mut f = Vec::new();
                    for batch in group {
                        let outs = opt_outputs(opt, batch);
                        for (c, o) in batch.iter().zip(outs) {
                            f.extend(check_case(c, o));
                        }
                    }
                    f
                })
            })
            .collect();
        for h in handles {
            failures.extend(h.join().expect("worker thread"));
        }
    });
    failures.sort_by_key(|f| f.seed);

    let total_ops: usize = cases.iter().map(|c| c.ops).sum();
    let total_bytes: usize = cases.iter().map(|c| c.text.len()).sum();
    println!(
        "{n} random modules (seeds {base:#x}..{:#x}), {total_ops} ops, {} KiB of text, \
         {} blocks, {} regions, {} locations, checked in {:.1} s",
        base.wrapping_add(n as u64),
        total_bytes / 1024,
        stats.blocks,
        stats.regions,
        stats.locs,
        start.elapsed().as_secs_f64()
    );
    let kinds: Vec<String> = FloatKind::ALL
        .iter()
        .enumerate()
        .filter(|(i, _)| stats.floats[*i] > 0)
        .map(|(i, k)| format!("{k} {}/{}", stats.floats_canonicalised[i], stats.floats[i]))
        .collect();
    println!(
        "float values replaced by their text round trip (kind changed/generated): {}",
        kinds.join(", ")
    );
    println!(
        "unstable floats: {}; affine maps/sets canonicalised: {}/{}; fused locations folded: {}/{}",
        stats.floats_unstable,
        stats.affine_canonicalised,
        stats.affine_total,
        stats.fused_folded,
        stats.fused_total
    );

    if failures.is_empty() {
        return;
    }
    for (i, f) in failures.iter().enumerate().take(10) {
        eprintln!("\n=== seed {:#x}: {}", f.seed, f.what);
        if i == 0 {
            eprintln!(
                "--- our text (seed {:#x}) ---\n{}--- end ---",
                f.seed, f.text
            );
        }
    }
    panic!(
        "{} of {n} random modules failed (first seed {:#x}); reproduce one with \
         RMLIR_ARBITRARY_SEED=<seed> RMLIR_ARBITRARY_CASES=1",
        failures.len(),
        failures[0].seed
    );
}
