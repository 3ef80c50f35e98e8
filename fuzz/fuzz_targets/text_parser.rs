//! The text parser on arbitrary bytes: `Ok` or a clean error, never a
//! panic. The parse split between two threads (SPEC.md §3.5), forced at
//! a cut, gives what the one-thread parse gives: the same print and
//! bytecode, or the same error (the seeds are mlir-opt's generic output,
//! whose layout the split looks for).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let plain = rmlir_reader::parse_module(data, "fuzz.mlir");
    let outputs = |m: &rmlir_format::Module| {
        (
            rmlir_writer::print_module(m, Default::default()),
            rmlir_writer::write_bytecode(m, &Default::default()).map_err(|e| e.to_string()),
        )
    };
    // Whatever parses must print (and write or refuse cleanly).
    let plain = plain.map(|m| outputs(&m)).map_err(|e| e.to_string());
    let (split, _) = rmlir_reader::parse_module_split_at(
        data,
        "fuzz.mlir",
        rmlir_reader::Limits::default(),
        None,
        0.5,
    );
    let split = split.map(|m| outputs(&m)).map_err(|e| e.to_string());
    assert!(
        plain == split,
        "the split parse differs from the one-thread parse"
    );
});
