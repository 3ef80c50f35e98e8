//! A dialect loaded at run time from its declared encodings (SPEC.md §9.5):
//! the `toy` dialect of `tests/fixtures/byo/` (its encodings and op
//! layouts as `from_td.py` and `gen_layouts_json.py` make them). Input
//! starting with `{` is an encodings file: `DeclaredDialect::from_json`
//! loads it or refuses it cleanly. Any other input is bytecode, read with
//! `toy` registered: what reads prints, is written back with the same
//! dialect and layouts (or refused cleanly), and reads back to the same
//! print.
#![no_main]
use libfuzzer_sys::fuzz_target;
use rmlir_dialects::declared::DeclaredDialect;
use rmlir_format::dialect_hooks::DialectRegistry;
use rmlir_format::op_registry::OpRegistry;
use std::sync::{Arc, OnceLock};

const ENCODINGS: &str = include_str!("../../tests/fixtures/byo/toy-encodings.json");
const LAYOUTS: &str = include_str!("../../tests/fixtures/byo/toy-layouts.json");

fn dialects() -> &'static DialectRegistry {
    static R: OnceLock<DialectRegistry> = OnceLock::new();
    R.get_or_init(|| {
        let mut r = rmlir_dialects::upstream().clone();
        r.register(Arc::new(
            DeclaredDialect::from_json(ENCODINGS).expect("the fixture loads"),
        ));
        r
    })
}

fn read_layouts() -> &'static OpRegistry {
    static R: OnceLock<OpRegistry> = OnceLock::new();
    R.get_or_init(|| {
        let mut r = OpRegistry::new();
        r.load_json(LAYOUTS).expect("the fixture loads");
        r
    })
}

fn write_layouts() -> &'static OpRegistry {
    static R: OnceLock<OpRegistry> = OnceLock::new();
    R.get_or_init(|| {
        let mut r = OpRegistry::default_ref().clone();
        for op in read_layouts().ops() {
            r.insert(op.clone());
        }
        r
    })
}

fuzz_target!(|data: &[u8]| {
    if data.first() == Some(&b'{') {
        if let Ok(text) = std::str::from_utf8(data) {
            let _ = DeclaredDialect::from_json(text);
        }
        return;
    }
    let opts = rmlir_reader::ReadOptions {
        dialects: Some(dialects()),
        out_of_tree: Some(read_layouts),
        ..Default::default()
    };
    let Ok(m) = rmlir_reader::read_bytecode_with_options(data, &opts) else {
        return;
    };
    let first = rmlir_writer::print_module(&m, Default::default());
    let Ok(bc) =
        rmlir_writer::write_bytecode_with(&m, &Default::default(), write_layouts(), dialects())
    else {
        return;
    };
    let back = rmlir_reader::read_bytecode_with_options(&bc, &opts)
        .unwrap_or_else(|e| panic!("our own bytecode does not read back: {e}\n{first}"));
    let second = rmlir_writer::print_module(&back, Default::default());
    if first != second && !rmlir_tests::known_round_trip_divergence(&m, &first) {
        assert_eq!(first, second, "bytecode round trip changed the module");
    }
});
