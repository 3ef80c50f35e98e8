//! Differential property tests of the text printer and parser against
//! mlir-opt 22 on random modules (see `rmlir_tests::arbitrary_ir`).
//!
//! * `random_modules_print_like_mlir_opt`: canonical random IR is printed
//!   with our printer and fed to `mlir-opt --allow-unregistered-dialect
//!   --mlir-print-op-generic --mlir-print-debuginfo`; mlir-opt's output must
//!   be byte-identical to ours, our own parse + print of the text must be a
//!   fixpoint, and our local-scope print (`PrintOptions { local_scope: true
//!   }`) must equal what `mlir-opt --mlir-print-local-scope` prints.
//! * `random_noncanonical_modules_read_like_mlir_opt`: random IR that also
//!   contains forms MLIR folds when reading text (`GenConfig::canonical =
//!   false`) is printed; our parse + print of that text (with aliases and in
//!   local scope) must equal mlir-opt's output for it.
//! * `random_modules_read_back_from_mlir_opts_custom_print`: mlir-opt's
//!   custom (default) print of canonical random IR, with debug info, read
//!   by our parser, must print generic exactly as mlir-opt's own reading of
//!   that print does (SPEC.md §11.2; measured 2026-11-27: 20,000/20,000).
//!   Its seeds start at `RMLIR_ARBITRARY_SEED` xor `0xC0570000`.
//!
//! Many modules go to one mlir-opt process (`--split-input-file`), and the
//! batches run on several threads.
//!
//! Environment:
//! * `RMLIR_ARBITRARY_CASES` — number of random modules of each test
//!   (default 1000, together about 7 s);
//! * `RMLIR_ARBITRARY_SEED` — seed of the first module (the others follow
//!   it; the non-canonical test starts at this seed xor `0xC0FFEE`); a
//!   failure report names the seed of each failing module, so
//!   `RMLIR_ARBITRARY_SEED=<seed> RMLIR_ARBITRARY_CASES=1 cargo test -p
//!   rmlir-tests --test text_arbitrary -- random_modules` reproduces one
//!   (for the non-canonical test, pass the reported seed xor `0xC0FFEE`);
//! * `RMLIR_ARBITRARY_DUMP` — a folder to write each failing module to
//!   (`<seed>.mlir`, and mlir-opt's output or errors as `<seed>.opt.mlir`);
//! * `RMLIR_MLIR_OPT` — the mlir-opt binary (default
//!   `/usr/lib/llvm-22/bin/mlir-opt`). The test fails when it is missing.
//!
//! For the first test the generator only produces IR in the canonical form
//! MLIR itself holds after parsing text, because mlir-opt canonicalises on
//! parsing. The canonicalisations it respects (all observed with mlir-opt
//! 22):
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
//! * A `file:line:col` location never has an empty file name: mlir-opt reads
//!   `loc("":1:2)` as `loc("-":1:2)` (see `GEN_EMPTY_FILE_POINT_LOC`).
//! * Resource blobs are never empty (see `GEN_EMPTY_BLOB`).
//! * Float values are those that survive their own text: MLIR reads a
//!   decimal literal through a `double`, so `f80`/`f128` values that need
//!   more precision (or range) than `f64` change when read back; NaN and
//!   infinity print as hex bit patterns and are kept (x87 unnormals are
//!   re-encoded). The generator replaces each value by the fixpoint of
//!   print → parse (counted per kind in the test output).
//! * Dense elements are a splat when all elements are bitwise equal or
//!   there is one element; a sparse index list never has two or more
//!   identical indices that are all equal (that is a splat, which reads back
//!   as a single index). A dense string literal printed alone (a splat, or
//!   the element of a rank-0 tensor) never starts with `0x` (see
//!   `GEN_HEX_LIKE_DENSE_STRING`).
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
//!   memref element types are those MLIR accepts; a tensor encoding is not
//!   `strided<..>`, `array<..>` or `distinct[..]<..>` (mlir-opt cannot read
//!   those there); op names have no NUL byte.
//! * Nothing inside the `<{...}>` properties of an op is a location or
//!   reused from elsewhere in the module, and fused-location metadata holds
//!   no affine map, integer set, distinct attribute or big tuple: mlir-opt
//!   does not visit the properties of unregistered ops when it collects
//!   aliases, so an alias used there that is also used only in locations is
//!   printed after the module ("deferred") and mlir-opt cannot read its own
//!   output (`<{a = #loc1}> ... loc(#loc1)` with `#loc1` defined at the end:
//!   "undefined symbol alias id 'loc1'"). We print the same text.
//! * Opaque dialect data never ends in `-` (it would eat the closing `>` as
//!   an arrow) and is either `ident`, `ident<...>` or starts with a non-letter.
//! * Ops are of unregistered dialects; successors appear only on the last
//!   op of a block and target non-entry blocks of the same region; every
//!   block of a multi-block region has an op; uses are dominated.

use rmlir_tests::arbitrary_ir;

use arbitrary_ir::{module_for_seed, GenConfig, GenStats};
use rmlir_format::float::FloatKind;
use rmlir_reader::parse_module;
use rmlir_tests::first_diff;
use rmlir_writer::{print_module, PrintOptions};
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Instant;

const DEFAULT_CASES: usize = 1000;
const DEFAULT_SEED: u64 = 0x5EED_0000;
/// Xored into the seeds of the non-canonical test.
const NONCANONICAL_SEED_XOR: u64 = 0xC0FFEE;
/// Xored into the seeds of the custom-form test.
const CUSTOM_SEED_XOR: u64 = 0xC057_0000;
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
    let hint = "`bash tools/test.sh` (run from the workspace root) installs it (mlir-22-tools) \
                and runs the tests, or set RMLIR_MLIR_OPT to an mlir-opt 22 binary";
    match Command::new(&path).arg("--version").output() {
        Ok(o) if o.status.success() => path,
        Ok(o) => panic!(
            "this test needs mlir-opt 22, but `{path} --version` failed ({}): {hint}",
            o.status
        ),
        Err(e) => panic!("this test needs mlir-opt 22, but `{path}` cannot be run ({e}): {hint}"),
    }
}

/// Runs mlir-opt on `input` (standard input), printing aliases or in
/// local scope; returns (success, stdout, stderr).
fn run_opt(opt: &str, input: &str, split: bool, local_scope: bool) -> (bool, String, String) {
    let mut flags = vec!["--mlir-print-op-generic"];
    if local_scope {
        flags.push("--mlir-print-local-scope");
    }
    run_opt_with(opt, input, split, &flags)
}

/// [`run_opt`] printing as `flags` say (with debug info, unregistered
/// dialects allowed).
fn run_opt_with(opt: &str, input: &str, split: bool, flags: &[&str]) -> (bool, String, String) {
    let mut cmd = Command::new(opt);
    cmd.args(["--allow-unregistered-dialect", "--mlir-print-debuginfo"]);
    cmd.args(flags);
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
    /// Our print with aliases: the text given to mlir-opt.
    text: String,
    /// Our print of the module in local scope.
    local: String,
    ops: usize,
}

struct Failure {
    seed: u64,
    what: String,
    text: String,
    /// mlir-opt's output, or its diagnostics.
    opt: String,
}

/// mlir-opt's output for each case, in order (`Err(stderr)` when it
/// rejected the case).
fn opt_outputs(opt: &str, batch: &[Case], local_scope: bool) -> Vec<OptOut> {
    let mut input = String::new();
    for (i, c) in batch.iter().enumerate() {
        if i > 0 {
            input.push_str(IN_MARKER);
            input.push('\n');
        }
        input.push_str(&c.text);
    }
    let (ok, stdout, _) = run_opt(opt, &input, true, local_scope);
    let pieces: Vec<&str> = stdout.split(&format!("{OUT_MARKER}\n")).collect();
    if ok && pieces.len() == batch.len() {
        return pieces.into_iter().map(|p| Ok(p.to_string())).collect();
    }
    // Some case was rejected (or the output did not split as expected):
    // run the cases one by one to know which, with their diagnostics.
    batch
        .iter()
        .map(|c| {
            let (ok, out, err) = run_opt(opt, &c.text, false, local_scope);
            if ok {
                Ok(out)
            } else {
                Err(err)
            }
        })
        .collect()
}

fn first_lines(s: &str, n: usize) -> String {
    s.lines().take(n).collect::<Vec<_>>().join("\n")
}

/// mlir-opt's output (`Err`: its diagnostics) for a case.
type OptOut = Result<String, String>;

/// A test's checks of one case, given mlir-opt's output with aliases and in
/// local scope: `None` when it passes, else what failed.
type CheckFn = fn(&Case, &OptOut, &OptOut) -> Option<String>;

/// The checks of the canonical test; `None` when the case passes.
fn check_canonical(c: &Case, opt_out: &OptOut, opt_local: &OptOut) -> Option<String> {
    let o = match opt_out {
        Ok(o) => o,
        Err(e) => {
            return Some(format!(
                "mlir-opt rejects our text:\n{}",
                first_lines(e, 12)
            ))
        }
    };
    let ours_rt = match parse_module(c.text.as_bytes(), "input.mlir") {
        Ok(m) => Ok(print_module(&m, PrintOptions::default())),
        Err(e) => Err(e.to_string()),
    };
    if *o != c.text {
        let triage = match &ours_rt {
            Ok(rt) if rt == o => "our parse+print agrees with mlir-opt: the generator made \
                                  non-canonical IR, or we print something both parsers read \
                                  differently"
                .to_string(),
            Ok(rt) => format!(
                "our parse+print differs from mlir-opt too; ours vs mlir-opt: {}",
                first_diff(o, rt)
            ),
            Err(e) => format!("our parser rejects our own text: {e}"),
        };
        return Some(format!(
            "mlir-opt's output differs from ours (expected = mlir-opt, actual = ours): {}\n  \
             triage: {triage}",
            first_diff(o, &c.text)
        ));
    }
    match ours_rt {
        Err(e) => return Some(format!("our parser rejects our own text: {e}")),
        Ok(rt) if rt != c.text => {
            return Some(format!(
                "our parse+print is not a fixpoint (expected = printed, actual = reprinted): {}",
                first_diff(&c.text, &rt)
            ))
        }
        Ok(_) => {}
    }
    match opt_local {
        Ok(o) if *o != c.local => Some(format!(
            "local scope: `mlir-opt --mlir-print-local-scope` differs from our local-scope \
             print (expected = mlir-opt, actual = ours): {}",
            first_diff(o, &c.local)
        )),
        Err(e) => Some(format!(
            "mlir-opt --mlir-print-local-scope rejects our text:\n{}",
            first_lines(e, 12)
        )),
        Ok(_) => None,
    }
}

/// The checks of the non-canonical test: our reading of the text agrees
/// with mlir-opt's.
fn check_noncanonical(c: &Case, opt_out: &OptOut, opt_local: &OptOut) -> Option<String> {
    let m = match parse_module(c.text.as_bytes(), "input.mlir") {
        Ok(m) => m,
        Err(e) => {
            return Some(format!(
                "our parser rejects the text{}: {e}",
                if opt_out.is_ok() {
                    " (mlir-opt reads it)"
                } else {
                    ""
                }
            ))
        }
    };
    for (local_scope, out) in [(false, opt_out), (true, opt_local)] {
        let what = if local_scope { " in local scope" } else { "" };
        match out {
            Err(e) => {
                return Some(format!(
                    "mlir-opt rejects the text{what} (our parser reads it):\n{}",
                    first_lines(e, 12)
                ))
            }
            Ok(o) => {
                let ours = print_module(
                    &m,
                    PrintOptions {
                        local_scope,
                        ..Default::default()
                    },
                );
                if ours != *o {
                    return Some(format!(
                        "our parse+print{what} differs from mlir-opt's (expected = mlir-opt, \
                         actual = ours): {}",
                        first_diff(o, &ours)
                    ));
                }
            }
        }
    }
    None
}

/// Generates `n` modules from `base` (seeds `base`, `base + 1`, ...), runs
/// mlir-opt on them in batches on several threads, applies `check`, and
/// panics with a report when any case fails.
fn run(test: &str, cfg: GenConfig, base: u64, n: usize, check: CheckFn) {
    let opt = mlir_opt();
    let start = Instant::now();
    let mut stats = GenStats::default();
    let mut cases = Vec::with_capacity(n);
    for i in 0..n {
        let seed = base.wrapping_add(i as u64);
        let (m, s) = module_for_seed(seed, cfg);
        cases.push(Case {
            seed,
            text: print_module(&m, PrintOptions::default()),
            local: print_module(
                &m,
                PrintOptions {
                    local_scope: true,
                    ..Default::default()
                },
            ),
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
                        let outs = opt_outputs(opt, batch, false);
                        let locals = opt_outputs(opt, batch, true);
                        for ((c, o), l) in batch.iter().zip(outs).zip(locals) {
                            if let Some(what) = check(c, &o, &l) {
                                f.push(Failure {
                                    seed: c.seed,
                                    what,
                                    text: c.text.clone(),
                                    opt: match o {
                                        Ok(o) | Err(o) => o,
                                    },
                                });
                            }
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
        "{test}: {n} random modules (seeds {base:#x}..{:#x}), {total_ops} ops, {} KiB of text, \
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
        "{test}: float values replaced by their text round trip (changed/canonicalised, per \
         kind): {}",
        kinds.join(", ")
    );
    println!(
        "{test}: unstable floats: {}; affine maps/sets changed by their round trip: {}/{} \
         ({} unparseable, regenerated); fused locations folded: {}/{}",
        stats.floats_unstable,
        stats.affine_canonicalised,
        stats.affine_total,
        stats.affine_unparseable,
        stats.fused_folded,
        stats.fused_total
    );

    if failures.is_empty() {
        return;
    }
    if let Ok(dir) = std::env::var("RMLIR_ARBITRARY_DUMP") {
        std::fs::create_dir_all(&dir).expect("dump folder");
        for f in &failures {
            let base = std::path::Path::new(&dir).join(format!("{:#x}", f.seed));
            std::fs::write(base.with_extension("mlir"), &f.text).expect("dump");
            std::fs::write(base.with_extension("opt.mlir"), &f.opt).expect("dump");
        }
        eprintln!("failing cases written to {dir}/<seed>.mlir (mlir-opt: <seed>.opt.mlir)");
    }
    for (i, f) in failures.iter().enumerate().take(10) {
        eprintln!("\n=== {test}, seed {:#x}: {}", f.seed, f.what);
        if i == 0 {
            eprintln!(
                "--- our text (seed {:#x}) ---\n{}--- end ---",
                f.seed, f.text
            );
        }
    }
    panic!(
        "{test}: {} of {n} random modules failed (first seed {:#x}); reproduce one with \
         RMLIR_ARBITRARY_SEED=<seed> RMLIR_ARBITRARY_CASES=1",
        failures.len(),
        failures[0].seed
    );
}

#[test]
fn random_modules_print_like_mlir_opt() {
    let n = env_num("RMLIR_ARBITRARY_CASES").map_or(DEFAULT_CASES, |v| v as usize);
    let base = env_num("RMLIR_ARBITRARY_SEED").unwrap_or(DEFAULT_SEED);
    run("canonical", GenConfig::default(), base, n, check_canonical);
}

/// mlir-opt's output printed as `flags` say for each of `texts`, in
/// order (`Err(stderr)` for a text it rejects).
fn opt_outputs_with(opt: &str, texts: &[String], flags: &[&str]) -> Vec<OptOut> {
    let input = texts.join(&format!("{IN_MARKER}\n"));
    let (ok, stdout, _) = run_opt_with(opt, &input, true, flags);
    let pieces: Vec<&str> = stdout.split(&format!("{OUT_MARKER}\n")).collect();
    if ok && pieces.len() == texts.len() {
        return pieces.into_iter().map(|p| Ok(p.to_string())).collect();
    }
    texts
        .iter()
        .map(|t| {
            let (ok, out, err) = run_opt_with(opt, t, false, flags);
            if ok {
                Ok(out)
            } else {
                Err(err)
            }
        })
        .collect()
}

/// The custom form read back (SPEC.md §11.2): mlir-opt's custom print of
/// each random module (its default print, with debug info: `module {…}`,
/// aliases, locations by alias) parsed by us prints generic exactly as
/// mlir-opt's own reading of that print does.
#[test]
fn random_modules_read_back_from_mlir_opts_custom_print() {
    let opt = mlir_opt();
    let n = env_num("RMLIR_ARBITRARY_CASES").map_or(DEFAULT_CASES, |v| v as usize);
    let base = env_num("RMLIR_ARBITRARY_SEED").unwrap_or(DEFAULT_SEED) ^ CUSTOM_SEED_XOR;
    let texts: Vec<String> = (0..n)
        .map(|i| {
            let (m, _) = module_for_seed(base.wrapping_add(i as u64), GenConfig::default());
            print_module(&m, PrintOptions::default())
        })
        .collect();
    let (mut same, mut failures) = (0, Vec::new());
    for (b, batch) in texts.chunks(BATCH).enumerate() {
        let custom = opt_outputs_with(&opt, batch, &[]);
        let custom: Vec<String> = custom
            .into_iter()
            .enumerate()
            .map(|(i, c)| {
                let seed = base.wrapping_add((b * BATCH + i) as u64);
                c.unwrap_or_else(|e| panic!("seed {seed:#x}: mlir-opt rejects our text: {e}"))
            })
            .collect();
        let generic = opt_outputs_with(&opt, &custom, &["--mlir-print-op-generic"]);
        for (i, (c, g)) in custom.iter().zip(generic).enumerate() {
            let seed = base.wrapping_add((b * BATCH + i) as u64);
            let g = g.unwrap_or_else(|e| {
                panic!("seed {seed:#x}: mlir-opt cannot read its own custom print: {e}\n{c}")
            });
            match parse_module(c.as_bytes(), "<stdin>") {
                Ok(m) => {
                    let ours = print_module(&m, PrintOptions::default());
                    if ours == g {
                        same += 1;
                    } else {
                        failures.push(format!("seed {seed:#x}: {}", first_diff(&g, &ours)));
                    }
                }
                Err(e) => failures.push(format!("seed {seed:#x}: we cannot read it: {e}\n{c}")),
            }
        }
    }
    println!("custom form: {same}/{n} random modules read back from mlir-opt's custom print");
    assert!(
        failures.is_empty(),
        "{} of {n} failed; first:\n{}",
        failures.len(),
        failures[0]
    );
}

#[test]
fn random_noncanonical_modules_read_like_mlir_opt() {
    let n = env_num("RMLIR_ARBITRARY_CASES").map_or(DEFAULT_CASES, |v| v as usize);
    let base = env_num("RMLIR_ARBITRARY_SEED").unwrap_or(DEFAULT_SEED) ^ NONCANONICAL_SEED_XOR;
    let cfg = GenConfig {
        canonical: false,
        ..GenConfig::default()
    };
    run("non-canonical", cfg, base, n, check_noncanonical);
}
