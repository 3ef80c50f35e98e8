//! Hostile bytecode never panics: for a fixed sample of corpus files (every
//! 25th case, plus the real-client modules), every truncation and a fixed,
//! seeded set of byte mutations must give `Ok` or a clean error, and every
//! error must name a section and a byte offset. The full sweep over every
//! case: `RMLIR_MUTATION_STRIDE=1 cargo test --release -p rmlir-tests --test
//! bytecode_mutations -- --nocapture`.

use rmlir_tests::case_dirs;
use std::panic::{catch_unwind, AssertUnwindSafe};

fn check(data: &[u8], what: &str, failures: &mut Vec<String>) {
    let r = catch_unwind(AssertUnwindSafe(|| {
        rmlir_reader::read_bytecode(data)
            .map(|m| rmlir_writer::print_module(&m, Default::default()).len())
    }));
    match r {
        Err(_) => failures.push(format!("{what}: panicked")),
        Ok(Err(e)) => {
            let msg = e.to_string();
            if !msg.contains("section, at byte offset 0x") {
                failures.push(format!("{what}: error without a position: {msg}"));
            }
        }
        Ok(Ok(_)) => {}
    }
}

#[test]
fn truncations_and_mutations_never_panic() {
    let stride: usize = std::env::var("RMLIR_MUTATION_STRIDE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(25);
    let mut files: Vec<_> = case_dirs("cases")
        .into_iter()
        .step_by(stride)
        .map(|c| c.join("v6.mlirbc"))
        .collect();
    files.extend(
        case_dirs("real-client/cases")
            .into_iter()
            .map(|c| c.join("v6.mlirbc")),
    );
    // Silence the default panic message; panics are collected as failures.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let mut failures = Vec::new();
    let mut tried = 0usize;
    let mut state = 0x9E3779B97F4A7C15u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for f in &files {
        let data = std::fs::read(f).unwrap();
        let name = f
            .parent()
            .unwrap()
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        // Every truncation (for big files, every one of the first 4 KiB and
        // then 256 evenly spaced ones).
        let cuts: Vec<usize> = if data.len() <= 4096 {
            (0..data.len()).collect()
        } else {
            (0..4096)
                .chain((0..256).map(|i| 4096 + i * (data.len() - 4096) / 256))
                .collect()
        };
        for cut in cuts {
            tried += 1;
            check(
                &data[..cut],
                &format!("{name} truncated to {cut}"),
                &mut failures,
            );
        }
        for k in 0..200 {
            let mut m = data.clone();
            let flips = 1 + (next() % 4) as usize;
            for _ in 0..flips {
                let i = (next() % m.len() as u64) as usize;
                m[i] = match k % 3 {
                    0 => next() as u8,
                    1 => m[i] ^ (1 << (next() % 8)),
                    _ => [0x00, 0xff, 0x01, 0x80][(next() % 4) as usize],
                };
            }
            tried += 1;
            check(&m, &format!("{name} mutation #{k}"), &mut failures);
        }
    }
    std::panic::set_hook(hook);
    println!(
        "bytecode mutation sweep: {tried} inputs from {} files, {} failures",
        files.len(),
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{}",
        failures
            .iter()
            .take(30)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
