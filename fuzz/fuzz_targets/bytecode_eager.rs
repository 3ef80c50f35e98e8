//! `read_bytecode` on arbitrary bytes: `Ok` or a clean error, never a panic.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(m) = rmlir_reader::read_bytecode(data) {
        let _ = rmlir_writer::print_module(&m, Default::default());
    }
});
