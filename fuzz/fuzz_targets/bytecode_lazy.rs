//! Lazy reading: open, list the top-level ops as `info` does (the scan),
//! then materialize the pending regions one by one (the order
//! `BytecodeReader::pending` gives, newest last), as lazy clients do.
//! Also read past unknown dialects as `info` and `verify` do. `Ok` or a
//! clean error, never a panic; a scan that succeeds on a file
//! whose module body then decodes lists the same ops; opening and listing
//! in one (`open_listing`, which skims the body before the attribute
//! table is read) gives what opening, then scanning, gives.
#![no_main]
use libfuzzer_sys::fuzz_target;
use rmlir_reader::{BytecodeReader, TopLevelOp};

type Listing = Vec<(Vec<u8>, Option<Vec<u8>>, bool)>;

fn listing(l: Vec<TopLevelOp<'_>>) -> Listing {
    l.into_iter()
        .map(|t| {
            (
                t.name.to_vec(),
                t.symbol.map(|s| s.into_owned()),
                t.lazy_body,
            )
        })
        .collect()
}

fuzz_target!(|data: &[u8]| {
    let owner: rmlir_format::SharedBytes = std::sync::Arc::new(data.to_vec());
    let opened = BytecodeReader::open_listing(&owner, &Default::default(), &mut |_, _| {})
        .map(|(_, l)| listing(l))
        .map_err(|e| e.to_string());
    let scanned = BytecodeReader::open(data)
        .and_then(|mut r| r.scan_top_level(&mut |_, _| {}).map(listing))
        .map_err(|e| e.to_string());
    assert_eq!(opened, scanned, "open_listing and open + scan differ");
    // As `info` and `verify` read past what no layout or encoding we have
    // decodes (SPEC.md §8.6): `Ok` or a clean error too.
    let skipping = rmlir_reader::ReadOptions {
        skip_unknown: true,
        ..Default::default()
    };
    if let Ok((r, _)) = BytecodeReader::open_listing(&owner, &skipping, &mut |_, _| {}) {
        let _ = (
            r.ops_without_layouts().len(),
            r.entries_without_encodings().len(),
        );
    }
    let _ = rmlir_reader::read_bytecode_with_options(data, &skipping);
    let Ok(mut r) = BytecodeReader::open(data) else {
        return;
    };
    let _ = (r.version(), r.num_strings(), r.num_attrs_types());
    let _ = r.dialects().count() + r.op_names().count() + r.sections().len();
    let listed: Option<Vec<Vec<u8>>> = r
        .scan_top_level(&mut |_, _| {})
        .ok()
        .map(|l| l.into_iter().map(|t| t.name.to_vec()).collect());
    assert_eq!(r.stats().lazy_bodies_decoded, 0, "the scan decoded a body");
    if let (Some(listed), Some(top)) = (&listed, r.module().top) {
        if r.is_pending(top) && r.materialize(top).is_ok() {
            let m = r.module();
            let names: Vec<Vec<u8>> = m
                .op(top)
                .regions()
                .first()
                .map(|&region| {
                    m.region(region)
                        .blocks
                        .iter()
                        .flat_map(|&b| &m.block(b).ops)
                        .map(|&op| m.op_name(op).to_vec())
                        .collect()
                })
                .unwrap_or_default();
            assert_eq!(&names, listed, "the scan listed other ops");
        }
    }
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
