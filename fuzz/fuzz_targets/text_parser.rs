//! The text parser on arbitrary bytes: `Ok` or a clean error, never a panic.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(m) = rmlir_reader::parse_module(data, "fuzz.mlir") {
        // Whatever parses must print.
        let _ = rmlir_writer::print_module(&m, Default::default());
    }
});
