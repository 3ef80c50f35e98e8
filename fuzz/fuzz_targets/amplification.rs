//! Amplification (SPEC.md §5.1): whatever a small input makes us do stays
//! within a fixed factor of its size, or is refused with an error.
//!
//! The input is a zstd frame, bytecode or text (detected as the command
//! line detects them). A frame decompresses only within the limit; what
//! reads prints with and without aliases within the limit or is refused
//! (and the refusal's estimate is over it), a print that passes is never
//! longer than the estimate says (a limit one byte short refuses it), the
//! bytecode written is within the limit too, and the heap's peak stays
//! within a fixed factor of the bytes read. Time is bounded by libFuzzer's
//! `-timeout`: the work a hostile input would need (2^40 copies of an
//! attribute) is far beyond it.
#![no_main]
use libfuzzer_sys::fuzz_target;
use rmlir_tests::counting_alloc::{peak_growth, start, Counting};
use rmlir_writer::{try_print_module, PrintOptions};

#[global_allocator]
static ALLOC: Counting = Counting;

/// Output allowed per input byte, and a floor for tiny inputs.
const PER_BYTE: u64 = 256;
const FLOOR: u64 = 64 << 10;
/// Heap allowed per byte read (and per byte of output), and a floor.
const HEAP_PER_BYTE: usize = 64;
const HEAP_FLOOR: usize = 16 << 20;

fuzz_target!(|data: &[u8]| {
    let limit = FLOOR + PER_BYTE * data.len() as u64;
    let before = start();
    let decompressed;
    let bytes: &[u8] = if rmlir_reader::zstd_input::is_zstd(data) {
        match rmlir_reader::zstd_input::decompress(data, limit, &mut |_, _| {}) {
            Ok(v) => {
                assert!(v.len() as u64 <= limit, "decompressed past the limit");
                decompressed = v;
                &decompressed
            }
            Err(_) => return,
        }
    } else {
        data
    };
    let read = if rmlir_reader::is_bytecode(bytes) {
        rmlir_reader::read_bytecode(bytes)
    } else {
        rmlir_reader::parse_module(bytes, "fuzz.mlir")
    };
    let mut largest_output = 0usize;
    if let Ok(m) = read {
        for local_scope in [false, true] {
            let opts = PrintOptions {
                local_scope,
                max_output_bytes: Some(limit),
                ..Default::default()
            };
            match try_print_module(&m, opts) {
                Ok(text) => {
                    assert!(text.len() as u64 <= limit, "printed past the limit");
                    largest_output = largest_output.max(text.len());
                    if !text.is_empty() {
                        let short = PrintOptions {
                            max_output_bytes: Some(text.len() as u64 - 1),
                            ..opts
                        };
                        assert!(
                            try_print_module(&m, short).is_err(),
                            "the estimate is below the print's {} bytes",
                            text.len()
                        );
                    }
                }
                Err(e) => assert!(e.estimate > limit, "refused within the limit: {e}"),
            }
        }
        if let Ok(bc) = rmlir_writer::write_bytecode(&m, &Default::default()) {
            assert!(
                bc.len() as u64 <= limit,
                "wrote {} bytes of bytecode",
                bc.len()
            );
            largest_output = largest_output.max(bc.len());
        }
    }
    let peak = peak_growth(before);
    let allowed = HEAP_FLOOR + HEAP_PER_BYTE * (bytes.len() + largest_output);
    assert!(
        peak <= allowed,
        "peak heap growth {peak} bytes for {} bytes read (allowed {allowed})",
        bytes.len()
    );
});
