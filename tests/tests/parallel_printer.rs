//! The parallel printer (SPEC.md §4.5) hands finished chunks to its output
//! in order while the pool prints later ones. These tests hold its two
//! outputs (a string, a writer) to the sequential print, including when
//! the caller is itself a task of a one-thread pool: there the waiting
//! thread must run the chunks it queued, or the print never ends.

use rmlir_writer::PrintOptions;

/// A module of `n` functions whose bodies use their own and shared
/// locations, so chunks print aliases defined elsewhere.
fn module_text(n: usize) -> String {
    let mut s = String::new();
    for i in 0..n {
        s.push_str(&format!(
            "\"acme.fn\"() ({{\n^bb0(%a: i32):\n  %0 = \"acme.op\"(%a) {{k = {i} : i64}} : (i32) -> i32 loc(\"f.mlir\":{i}:1)\n  \"acme.ret\"(%0) : (i32) -> () loc(\"shared.mlir\":1:1)\n}}) {{sym_name = \"f{i}\"}} : () -> () loc(\"f.mlir\":{i}:{})\n",
            i % 7
        ));
    }
    s
}

fn parallel() -> PrintOptions {
    PrintOptions {
        force_parallel: true,
        ..Default::default()
    }
}

#[test]
fn chunks_reach_a_writer_in_order() {
    let text = module_text(300);
    let m = rmlir_reader::parse_module(text.as_bytes(), "<parallel>").unwrap();
    let sequential = rmlir_writer::print_module(&m, PrintOptions::default());
    assert!(sequential.matches("\"acme.fn\"").count() == 300);
    assert_eq!(rmlir_writer::print_module(&m, parallel()), sequential);
    let mut out = Vec::new();
    rmlir_writer::print_module_to(&m, parallel(), &mut out).unwrap();
    assert_eq!(String::from_utf8(out).unwrap(), sequential);
}

#[test]
fn printing_inside_a_one_thread_pool_finishes() {
    let text = module_text(300);
    let m = rmlir_reader::parse_module(text.as_bytes(), "<parallel>").unwrap();
    let sequential = rmlir_writer::print_module(&m, PrintOptions::default());
    // The print runs on its own thread so that a hang fails the test
    // instead of stalling the suite.
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let printed = pool.install(|| {
            let mut out = Vec::new();
            rmlir_writer::print_module_to(&m, parallel(), &mut out).unwrap();
            (rmlir_writer::print_module(&m, parallel()), out)
        });
        let _ = tx.send(printed);
    });
    let (as_string, to_writer) = rx
        .recv_timeout(std::time::Duration::from_secs(120))
        .expect("printing inside a one-thread pool did not finish in 120 s");
    assert_eq!(as_string, sequential);
    assert_eq!(String::from_utf8(to_writer).unwrap(), sequential);
}

#[test]
fn a_failing_writer_reports_its_error() {
    struct Fails(usize);
    impl std::io::Write for Fails {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            if self.0 == 0 {
                return Err(std::io::Error::other("disk full"));
            }
            self.0 -= 1;
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let text = module_text(300);
    let m = rmlir_reader::parse_module(text.as_bytes(), "<parallel>").unwrap();
    let e = rmlir_writer::print_module_to(&m, parallel(), &mut Fails(2)).unwrap_err();
    assert_eq!(e.to_string(), "disk full");
}
