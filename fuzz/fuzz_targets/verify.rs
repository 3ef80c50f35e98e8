//! `rmlir-bc info` and `verify` on any input (SPEC.md §8.3, §8.6): open
//! and list as `info` does, reading past unknown dialects, then read
//! everything the same way and run the structural check. `Ok` or a clean
//! error from the reader, and the check never panics, whatever the
//! module the reader accepted.
#![no_main]
use libfuzzer_sys::fuzz_target;
use rmlir_reader::{BytecodeReader, ReadOptions};

fuzz_target!(|data: &[u8]| {
    let opts = ReadOptions {
        skip_unknown: true,
        ..Default::default()
    };
    let owner: rmlir_format::SharedBytes = std::sync::Arc::new(data.to_vec());
    if let Ok((r, listed)) = BytecodeReader::open_listing(&owner, &opts, &mut |_, _| {}) {
        let _ = (listed.len(), r.ops_without_layouts().len());
        let _ = (
            r.entries_without_encodings().len(),
            r.undecoded().is_empty(),
        );
    }
    let Ok(m) = rmlir_reader::read_bytecode_with_options(data, &opts) else {
        return;
    };
    let registry = rmlir_format::op_registry::OpRegistry::default_ref();
    let (summary, _findings) = rmlir_format::verify::verify(&m, registry, &mut |_, _, _| {});
    assert!(
        summary.ops <= m.ops.len(),
        "the check walked more ops than exist"
    );
});
