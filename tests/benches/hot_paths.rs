//! Criterion micro-benchmarks of the hot paths (BENCHMARKS.md):
//! varints, the string table, the attribute table, op decoding, the text
//! parser, the generic printer and the bytecode writer.
//!
//! `cargo bench -p rmlir-tests --bench hot_paths` runs them; `cargo test`
//! never does (`test = false`), `cargo clippy --all-targets` builds them.
//! The modules are generated here, deterministically, so the benchmarks
//! need nothing outside the repository.

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use rmlir_format::bytecode::varint::{read_varint, write_varint};
use rmlir_reader::{parse_module, read_bytecode, BytecodeReader};
use rmlir_writer::{print_module, write_bytecode, PrintOptions, WriteOptions};
use std::fmt::Write;

/// A tiny deterministic PRNG (xorshift64*), so inputs never change.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Generic text of a module with `funcs` functions of `ops` ops each:
/// registered func ops with properties, unregistered ops with attribute
/// dictionaries (strings, integers, floats, arrays), nested regions and
/// file/line/col locations. `unique` makes every string attribute
/// distinct (a large string table and attribute table).
fn gen_module(funcs: usize, ops: usize, unique: bool, seed: u64) -> String {
    let mut r = Rng(seed | 1);
    let mut s = String::from("\"builtin.module\"() ({\n");
    let mut k = 0u64;
    for f in 0..funcs {
        writeln!(
            s,
            "  \"func.func\"() <{{function_type = (i32, f32) -> i32, sym_name = \"fn{f}\"}}> ({{\n  ^bb0(%arg0: i32, %arg1: f32):"
        )
        .unwrap();
        let mut last = "%arg0".to_string();
        for i in 0..ops {
            k += 1;
            let tag = if unique { k } else { r.below(64) };
            let loc = format!(
                "loc(\"model/layer{}.py\":{}:{})",
                r.below(8),
                r.below(4000) + 1,
                r.below(100) + 1
            );
            match r.below(4) {
                0 => writeln!(
                    s,
                    "    %{i} = \"acme.mix\"({last}, %arg1) {{name = \"v{tag}\", scale = {}.5 : f32, dims = [{}, {}]}} : (i32, f32) -> i32 {loc}",
                    r.below(1000),
                    r.below(64),
                    r.below(64)
                ),
                1 => writeln!(
                    s,
                    "    %{i} = \"acme.const\"() {{value = {} : i32, tag = \"c{tag}\"}} : () -> i32 {loc}",
                    r.below(1 << 20)
                ),
                2 => writeln!(
                    s,
                    "    %{i} = \"acme.loop\"({last}) ({{\n    ^bb0(%x{i}: i32):\n      \"acme.yield\"(%x{i}) : (i32) -> () {loc}\n    }}) {{label = \"l{tag}\"}} : (i32) -> i32 {loc}"
                ),
                _ => writeln!(
                    s,
                    "    %{i} = \"acme.add\"({last}, {last}) : (i32, i32) -> i32 {loc}"
                ),
            }
            .unwrap();
            last = format!("%{i}");
        }
        writeln!(
            s,
            "    \"func.return\"({last}) : (i32) -> () loc(\"f.py\":{f}:1)\n  }}) : () -> () loc(\"f.py\":{f}:0)"
        )
        .unwrap();
    }
    s.push_str("}) : () -> () loc(unknown)\n");
    s
}

fn varints(c: &mut Criterion) {
    let mut r = Rng(7);
    // Mostly small values, as in real bytecode (indices, counts), some large.
    let values: Vec<u64> = (0..100_000)
        .map(|_| match r.below(10) {
            0..=6 => r.below(128),
            7 | 8 => r.below(1 << 21),
            _ => r.next(),
        })
        .collect();
    let mut encoded = Vec::new();
    for &v in &values {
        write_varint(&mut encoded, v);
    }
    let mut g = c.benchmark_group("varint");
    g.throughput(Throughput::Elements(values.len() as u64));
    g.bench_function("write_100k", |b| {
        let mut out = Vec::with_capacity(encoded.len());
        b.iter(|| {
            out.clear();
            for &v in &values {
                write_varint(&mut out, v);
            }
            black_box(out.len())
        })
    });
    g.bench_function("read_100k", |b| {
        b.iter(|| {
            let mut data = &encoded[..];
            let mut sum = 0u64;
            while let Some((v, n)) = read_varint(data) {
                sum = sum.wrapping_add(v);
                data = &data[n..];
            }
            black_box(sum)
        })
    });
    g.finish();
}

/// Opening bytecode reads the header, the string table, the dialect and
/// property tables and the top-level op (function bodies stay lazy): with
/// every string distinct, the string table dominates.
fn string_table(c: &mut Criterion) {
    let text = gen_module(50, 400, true, 11);
    let m = parse_module(text.as_bytes(), "strings.mlir").unwrap();
    let bc = write_bytecode(&m, &WriteOptions::default()).unwrap();
    let mut g = c.benchmark_group("string_table");
    g.throughput(Throughput::Bytes(bc.len() as u64));
    g.bench_function("open_lazy_20k_strings", |b| {
        b.iter(|| {
            let r = BytecodeReader::open(black_box(&bc)).unwrap();
            black_box(r.version())
        })
    });
    g.finish();
}

/// Decoding a module whose ops each carry distinct attributes: every
/// attribute table entry is decoded once (compare with op_decoding's
/// module, where attributes repeat).
fn attribute_table(c: &mut Criterion) {
    let mut g = c.benchmark_group("attribute_table");
    for unique in [false, true] {
        let text = gen_module(50, 400, unique, 13);
        let m = parse_module(text.as_bytes(), "attrs.mlir").unwrap();
        let bc = write_bytecode(&m, &WriteOptions::default()).unwrap();
        let id = if unique { "distinct" } else { "repeated" };
        g.throughput(Throughput::Bytes(bc.len() as u64));
        g.bench_with_input(BenchmarkId::new("read_20k_ops", id), &bc, |b, bc| {
            b.iter(|| black_box(read_bytecode(black_box(bc)).unwrap().ops.len()))
        });
    }
    g.finish();
}

fn op_decoding(c: &mut Criterion) {
    let text = gen_module(200, 500, false, 17);
    let m = parse_module(text.as_bytes(), "ops.mlir").unwrap();
    let bc = write_bytecode(&m, &WriteOptions::default()).unwrap();
    let mut g = c.benchmark_group("op_decoding");
    g.sample_size(20);
    g.throughput(Throughput::Elements(200 * 501));
    g.bench_function("read_bytecode_100k_ops", |b| {
        b.iter(|| black_box(read_bytecode(black_box(&bc)).unwrap().ops.len()))
    });
    g.finish();
}

fn text_and_writers(c: &mut Criterion) {
    let text = gen_module(200, 500, false, 19);
    let m = parse_module(text.as_bytes(), "ops.mlir").unwrap();
    let mut g = c.benchmark_group("text");
    g.sample_size(20);
    g.throughput(Throughput::Bytes(text.len() as u64));
    g.bench_function("parse_generic_100k_ops", |b| {
        b.iter(|| black_box(parse_module(black_box(text.as_bytes()), "ops.mlir").unwrap()))
    });
    g.bench_function("print_generic_100k_ops", |b| {
        b.iter(|| black_box(print_module(black_box(&m), PrintOptions::default()).len()))
    });
    g.finish();
    let mut g = c.benchmark_group("bytecode_writer");
    g.sample_size(20);
    g.throughput(Throughput::Elements(200 * 501));
    g.bench_function("write_bytecode_100k_ops", |b| {
        b.iter(|| black_box(write_bytecode(black_box(&m), &WriteOptions::default()).unwrap()))
    });
    g.finish();
}

criterion_group!(
    benches,
    varints,
    string_table,
    attribute_table,
    op_decoding,
    text_and_writers
);
criterion_main!(benches);
