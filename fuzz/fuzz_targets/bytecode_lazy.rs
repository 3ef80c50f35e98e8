//! Lazy reading: open, then materialize the pending regions one by one
//! (the order `BytecodeReader::pending` gives, newest last), as `info` and
//! lazy clients do. `Ok` or a clean error, never a panic.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(mut r) = rmlir_reader::BytecodeReader::open(data) else {
        return;
    };
    let _ = (r.version(), r.num_strings(), r.num_attrs_types());
    let _ = r.dialects().count() + r.op_names().count() + r.sections().len();
    // Materialize from the most recently discovered pending op backwards,
    // a different order from `materialize_all`.
    while let Some(op) = r.pending().last() {
        if r.materialize(op).is_err() {
            return;
        }
    }
    let m = r.into_module();
    let _ = rmlir_writer::print_module(&m, Default::default());
});
