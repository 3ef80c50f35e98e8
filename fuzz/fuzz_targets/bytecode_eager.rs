//! `read_bytecode` on arbitrary bytes: `Ok` or a clean error, never a panic.
//! The command line's full read (`reserve_for_full_read`, which decodes
//! locations ahead of their uses) must print and fail exactly alike.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let plain = rmlir_reader::read_bytecode(data)
        .map(|m| rmlir_writer::print_module(&m, Default::default()))
        .map_err(|e| e.to_string());
    let full = rmlir_reader::BytecodeReader::open(data)
        .and_then(|mut r| {
            r.reserve_for_full_read();
            r.materialize_all()?;
            Ok(rmlir_writer::print_module(&r.into_module(), Default::default()))
        })
        .map_err(|e| e.to_string());
    // The nesting limit counts entries decoded by one chain of uses, and an
    // entry decoded (and cached) earlier is not decoded again: decoding
    // locations ahead shortens chains, so it may read what the plain order
    // refused at that limit.
    let depth_limited = matches!(&plain, Err(e) if e.contains("nesting deeper than the limit"));
    if !(depth_limited && full.is_ok()) {
        assert_eq!(plain, full, "a full read differs from read_bytecode");
    }
});
