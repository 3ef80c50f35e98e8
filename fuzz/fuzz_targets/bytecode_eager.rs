//! `read_bytecode` on arbitrary bytes: `Ok` or a clean error, never a panic.
//! The command line's full read (`reserve_for_full_read`, which decodes
//! locations ahead of their uses) must print and fail exactly alike, and
//! so must a full read on two threads (file locations parsed in parallel,
//! bodies read into forked fragments; SPEC.md §6.6.1, §6.7.6).
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
    let parts = rmlir_reader::BytecodeReader::open(data)
        .and_then(|mut r| {
            r.reserve_for_full_read_on(2);
            r.materialize_all_in_parts(2)?;
            Ok(rmlir_writer::print_module(&r.into_module(), Default::default()))
        })
        .map_err(|e| e.to_string());
    // The nesting limit counts entries decoded by one chain of uses, and an
    // entry decoded (and cached) earlier is not decoded again: decoding
    // locations (or, in parts, every entry) ahead shortens chains, so it
    // may read what the plain order refused at that limit.
    let depth_limited = matches!(&plain, Err(e) if e.contains("nesting deeper than the limit"));
    for (read, what) in [(full, "a full read"), (parts, "a full read in two parts")] {
        if !(depth_limited && read.is_ok()) {
            assert_eq!(plain, read, "{what} differs from read_bytecode");
        }
    }
});
