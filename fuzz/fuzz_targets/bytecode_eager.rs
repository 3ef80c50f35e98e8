//! `read_bytecode` on arbitrary bytes: `Ok` or a clean error, never a panic.
//! The command line's full read (`reserve_for_full_read`, which decodes
//! locations ahead of their uses) must print and fail exactly alike, and
//! so must a full read on two threads (file locations parsed in parallel,
//! bodies read into forked fragments; SPEC.md §6.6.1, §6.7.6). It reads
//! with the command line's dialects: VHLO's encodings too (SPEC.md §10).
//! What reads is written back as `convert` writes it (those dialects'
//! write hooks and layouts, SPEC.md §10.3): the writer accepts it or
//! refuses it cleanly, and what it writes reads back to the same print,
//! with MLIR 22's builtin encodings or the newer ones (SPEC.md §6.6.6),
//! each in the terms of one of the tools of `rmlir_dialects::hosts`.
#![no_main]
use libfuzzer_sys::fuzz_target;

/// What the command line reads with: the library's dialect hooks and
/// `rmlir-dialects`' (VHLO's encodings and op layouts).
fn options() -> rmlir_reader::ReadOptions {
    static DIALECTS: std::sync::OnceLock<rmlir_format::dialect_hooks::DialectRegistry> =
        std::sync::OnceLock::new();
    let dialects = DIALECTS.get_or_init(|| {
        let mut r = rmlir_dialects::upstream().clone();
        rmlir_dialects::register_all(&mut r);
        r
    });
    rmlir_reader::ReadOptions {
        dialects: Some(dialects),
        out_of_tree: Some(rmlir_dialects::out_of_tree_layouts),
        ..Default::default()
    }
}

fuzz_target!(|data: &[u8]| {
    // In the terms of mlir-opt 22, jaxlib (MLIR 23) or IREE (MLIR 24), by
    // the input's length, so that the newer releases' layouts and llvm
    // encodings are read and written too (SPEC.md §6.6.5, §7.4).
    let host = rmlir_dialects::hosts::ALL[data.len() % 3];
    let opts = rmlir_reader::ReadOptions {
        host: Some(host),
        ..options()
    };
    let plain = rmlir_reader::read_bytecode_with_options(data, &opts)
        .map(|m| rmlir_writer::print_module(&m, Default::default()))
        .map_err(|e| e.to_string());
    let full = rmlir_reader::BytecodeReader::open_with_options(data, &opts)
        .and_then(|mut r| {
            r.reserve_for_full_read();
            r.materialize_all()?;
            Ok(rmlir_writer::print_module(
                &r.into_module(),
                Default::default(),
            ))
        })
        .map_err(|e| e.to_string());
    let parts = rmlir_reader::BytecodeReader::open_with_options(data, &opts)
        .and_then(|mut r| {
            r.reserve_for_full_read_on(2);
            r.materialize_all_in_parts(2)?;
            Ok(rmlir_writer::print_module(
                &r.into_module(),
                Default::default(),
            ))
        })
        .map_err(|e| e.to_string());
    // The nesting limit counts entries decoded by one chain of uses, and an
    // entry decoded (and cached) earlier is not decoded again: decoding
    // locations (or, in parts, every entry) ahead shortens chains, so it
    // may read what the plain order refused at that limit.
    if let Ok(m) = rmlir_reader::read_bytecode_with_options(data, &opts) {
        let first = rmlir_writer::print_module(&m, Default::default());
        // MLIR 22's builtin encodings or the newer ones (SPEC.md §6.6.6),
        // by the input's length, so that both writers are exercised.
        let write = rmlir_writer::WriteOptions {
            builtin_encodings: if data.len() % 2 == 1 {
                rmlir_writer::BuiltinEncodings::Mlir24
            } else {
                rmlir_writer::BuiltinEncodings::Mlir22
            },
            use_list_records: if host.mlir_major >= 23 {
                rmlir_writer::UseListRecordOrder::Ascending
            } else {
                rmlir_writer::UseListRecordOrder::HashOrder
            },
            mlir_major: host.mlir_major,
            // The reader takes its layouts from the producer.
            producer: format!("MLIR{}", host.ops().release()),
            ..Default::default()
        };
        if let Ok(bc) = rmlir_writer::write_bytecode_with(
            &m,
            &write,
            rmlir_dialects::write_layouts_for(host.ops()),
            opts.dialects.expect("set above"),
        ) {
            let back = rmlir_reader::read_bytecode_with_options(&bc, &opts)
                .unwrap_or_else(|e| panic!("our own bytecode does not read back: {e}\n{first}"));
            let second = rmlir_writer::print_module(&back, Default::default());
            if first != second && !rmlir_tests::known_round_trip_divergence(&m, &first) {
                assert_eq!(first, second, "bytecode round trip changed the module");
            }
        }
    }
    let depth_limited = matches!(&plain, Err(e) if e.contains("nesting deeper than the limit"));
    for (read, what) in [(full, "a full read"), (parts, "a full read in two parts")] {
        if !(depth_limited && read.is_ok()) {
            assert_eq!(plain, read, "{what} differs from read_bytecode");
        }
    }
});
