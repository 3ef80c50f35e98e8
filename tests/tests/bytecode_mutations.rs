//! Hostile bytecode never panics and never allocates without bound: for
//! the corpus's bytecode files (every case's `v6.mlirbc` at the stride
//! `RMLIR_MUTATION_STRIDE`, default 1 = every case; the real-client modules;
//! upstream's own `.mlirbc` tests), every truncation (for files over 4 KiB:
//! the first 4,096 and 256 evenly spaced ones) and a fixed, seeded set of
//! 200 byte mutations per file must give `Ok` or a clean error, eagerly
//! (`read_bytecode`), lazily (`BytecodeReader::open` and `materialize`
//! one op at a time), as `info` reads (`scan_top_level` and
//! `open_listing`, SPEC.md §6.7.5) and as `info` and `verify` read past
//! unknown dialects (`ReadOptions::skip_unknown`, SPEC.md §8.6); every
//! error must name a section and a byte offset.
//!
//! A counting global allocator measures the peak heap growth while one
//! input is read and printed; it must stay below
//! `PEAK_BASE + PEAK_PER_BYTE × input size`.
//!
//! `RMLIR_MUTATION_COUNT=N` changes the mutations per file (e.g. 2000 for a
//! longer sweep):
//! `RMLIR_MUTATION_COUNT=2000 cargo test --release -p rmlir-tests --test
//! bytecode_mutations -- --nocapture`.

use rmlir_tests::{case_dirs, corpus_dir};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;

#[global_allocator]
static ALLOC: rmlir_tests::counting_alloc::Counting = rmlir_tests::counting_alloc::Counting;

/// Allowed peak heap growth while reading one input.
const PEAK_BASE: usize = 8 << 20;
const PEAK_PER_BYTE: usize = 16;

fn read_both(data: &[u8]) -> Vec<rmlir_reader::Result<usize>> {
    let eager = rmlir_reader::read_bytecode(data)
        .map(|m| rmlir_writer::print_module(&m, Default::default()).len());
    let lazy = rmlir_reader::BytecodeReader::open(data).and_then(|mut r| {
        while let Some(op) = r.pending().last() {
            r.materialize(op)?;
        }
        Ok(r.module().ops.len())
    });
    let scanned = rmlir_reader::BytecodeReader::open(data)
        .and_then(|mut r| Ok(r.scan_top_level(&mut |_, _| {})?.len()));
    let owner: rmlir_format::SharedBytes = std::sync::Arc::new(data.to_vec());
    let listed =
        rmlir_reader::BytecodeReader::open_listing(&owner, &Default::default(), &mut |_, _| {})
            .map(|(_, l)| l.len());
    // As `info` and `verify` read (SPEC.md §8.6): past what no layout or
    // encoding we have decodes.
    let skipping = rmlir_reader::ReadOptions {
        skip_unknown: true,
        ..Default::default()
    };
    let info = rmlir_reader::BytecodeReader::open_listing(&owner, &skipping, &mut |_, _| {}).map(
        |(r, l)| l.len() + r.ops_without_layouts().len() + r.entries_without_encodings().len(),
    );
    let verify = rmlir_reader::read_bytecode_with_options(data, &skipping).map(|m| m.ops.len());
    vec![eager, lazy, scanned, listed, info, verify]
}

struct Sweep {
    failures: Vec<String>,
    tried: usize,
    worst_peak: (usize, usize, String),
}

impl Sweep {
    fn check(&mut self, data: &[u8], what: impl Fn() -> String) {
        self.tried += 1;
        let before = rmlir_tests::counting_alloc::start();
        let r = catch_unwind(AssertUnwindSafe(|| read_both(data)));
        let peak = rmlir_tests::counting_alloc::peak_growth(before);
        if peak > self.worst_peak.0 {
            self.worst_peak = (peak, data.len(), what());
        }
        if peak > PEAK_BASE + PEAK_PER_BYTE * data.len() {
            self.failures.push(format!(
                "{}: peak heap growth {peak} bytes for {} input bytes",
                what(),
                data.len()
            ));
        }
        match r {
            Err(_) => self.failures.push(format!("{}: panicked", what())),
            Ok(results) => {
                for e in results.into_iter().filter_map(|r| r.err()) {
                    let msg = e.to_string();
                    if !msg.contains("section, at byte offset 0x") {
                        self.failures
                            .push(format!("{}: error without a position: {msg}", what()));
                    }
                }
            }
        }
    }
}

fn files() -> Vec<PathBuf> {
    let stride: usize = std::env::var("RMLIR_MUTATION_STRIDE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let mut files: Vec<_> = case_dirs("cases")
        .into_iter()
        .step_by(stride.max(1))
        .map(|c| c.join("v6.mlirbc"))
        .collect();
    files.extend(
        case_dirs("real-client/cases")
            .into_iter()
            .map(|c| c.join("v6.mlirbc")),
    );
    let mut upstream = Vec::new();
    let mut dirs = vec![corpus_dir().join("upstream-bytecode")];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap().map(|e| e.unwrap().path()) {
            if e.is_dir() {
                dirs.push(e);
            } else if e.extension().is_some_and(|x| x == "mlirbc") {
                upstream.push(e);
            }
        }
    }
    upstream.sort();
    files.extend(upstream);
    files.retain(|f| f.is_file());
    files
}

#[test]
fn truncations_and_mutations_never_panic() {
    let mutations: usize = std::env::var("RMLIR_MUTATION_COUNT")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(200);
    let files = files();
    // Silence the default panic message; panics are collected as failures.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let mut sweep = Sweep {
        failures: Vec::new(),
        tried: 0,
        worst_peak: (0, 0, String::new()),
    };
    let mut state = 0x9E3779B97F4A7C15u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    // Warm up: lazily built registries and tables are not the input's.
    for f in files.iter().take(20) {
        let _ = read_both(&std::fs::read(f).unwrap());
    }
    let mut bytes = 0usize;
    for f in &files {
        let data = std::fs::read(f).unwrap();
        bytes += data.len();
        let name = f
            .strip_prefix(corpus_dir())
            .unwrap_or(f)
            .display()
            .to_string();
        let cuts: Vec<usize> = if data.len() <= 4096 {
            (0..data.len()).collect()
        } else {
            (0..4096)
                .chain((0..256).map(|i| 4096 + i * (data.len() - 4096) / 256))
                .collect()
        };
        for cut in cuts {
            sweep.check(&data[..cut], || format!("{name} truncated to {cut}"));
        }
        if data.is_empty() {
            continue;
        }
        for k in 0..mutations {
            let mut m = data.clone();
            let flips = 1 + (next() % 4) as usize;
            for _ in 0..flips {
                let i = (next() % m.len() as u64) as usize;
                m[i] = match k % 4 {
                    0 => next() as u8,
                    1 => m[i] ^ (1 << (next() % 8)),
                    2 => [0x00, 0xff, 0x01, 0x80][(next() % 4) as usize],
                    // A large varint: 0x00 starts a 9-byte varint, 0xfe a
                    // 7-byte one.
                    _ => [0x00, 0xfe, 0x80, 0xff][(next() % 4) as usize],
                };
            }
            sweep.check(&m, || format!("{name} mutation #{k}"));
        }
    }
    std::panic::set_hook(hook);
    println!(
        "bytecode mutation sweep: {} inputs from {} files ({bytes} bytes), {} failures; \
         worst peak heap growth {} bytes for a {}-byte input ({})",
        sweep.tried,
        files.len(),
        sweep.failures.len(),
        sweep.worst_peak.0,
        sweep.worst_peak.1,
        sweep.worst_peak.2
    );
    assert!(
        sweep.failures.is_empty(),
        "{}",
        sweep
            .failures
            .iter()
            .take(30)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
