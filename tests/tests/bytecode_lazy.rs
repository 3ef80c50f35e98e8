//! Lazy reading, shown by counting: a ~100 MB bytecode file (a generated
//! module of ~1,000 functions plus a 90 MiB `dense_resource` blob, written
//! by mlir-opt 22) is opened; listing the top-level symbols decodes only
//! the module body, never a function body; materializing everything then
//! gives the text mlir-opt prints for the same file. (`rmlir-bc info` is
//! checked on the same file in cli/tests/cli.rs.)

use rmlir_format::AttrData;
use rmlir_tests::large::{build_lazy_bytecode, BLOB_BYTES};
use rmlir_tests::oracle;

#[test]
fn listing_symbols_does_not_decode_function_bodies() {
    let dir = std::env::temp_dir().join(format!("rmlir-lazy-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bc_path = build_lazy_bytecode(&dir);
    let file = std::fs::File::open(&bc_path).unwrap();
    // SAFETY: read-only map of a file this test owns.
    let map = unsafe { memmap2::Mmap::map(&file) }.unwrap();
    let owner: rmlir_format::SharedBytes = std::sync::Arc::new(map);
    let data: &[u8] = (*owner).as_ref();
    assert!(data.len() > 95_000_000, "file is {} bytes", data.len());

    let mut r = rmlir_reader::BytecodeReader::open_shared(&owner).expect("opens");
    // The 90 MiB blob is borrowed from the mapping, not copied.
    let blob = r
        .module()
        .resources
        .dialect
        .iter()
        .flat_map(|g| &g.entries)
        .find_map(|(k, v)| match v {
            rmlir_format::ResourceValue::Blob { data, .. } if &**k == b"weights" => {
                Some(data.clone())
            }
            _ => None,
        });
    let blob = blob.expect("weights blob");
    assert_eq!(blob.len(), BLOB_BYTES);
    assert!(blob.is_shared(), "the blob was copied out of the mapping");
    assert_eq!(
        r.stats().lazy_bodies_decoded,
        0,
        "open decoded a region body"
    );
    let top = r.module().top.expect("top op");
    assert!(
        r.is_pending(top),
        "the module body is an isolated region, left lazy"
    );
    r.materialize(top).unwrap();
    assert_eq!(r.stats().lazy_bodies_decoded, 1);

    // List top-level symbols: names from the ops' properties or attributes.
    let m = r.module();
    let body = m.region(m.op(top).regions()[0]).blocks[0];
    let mut symbols = Vec::new();
    let mut funcs = Vec::new();
    for &op in &m.block(body).ops {
        let o = m.op(op);
        for dict in [o.properties, Some(o.attributes)].into_iter().flatten() {
            if let AttrData::Dictionary(d) = m.ctx.attr(dict) {
                if let Some((_, v)) = d.iter().find(|(k, _)| &**k == b"sym_name") {
                    if let AttrData::String { value, .. } = m.ctx.attr(*v) {
                        symbols.push(String::from_utf8_lossy(value).into_owned());
                    }
                }
            }
        }
        if m.op_name(op) == b"func.func" {
            funcs.push(op);
        }
    }
    assert!(funcs.len() > 1000, "{} functions", funcs.len());
    assert!(symbols.len() >= funcs.len());
    assert!(
        funcs.iter().all(|&f| r.is_pending(f)),
        "a function body was decoded while listing symbols"
    );
    assert_eq!(
        r.stats().lazy_bodies_decoded,
        1,
        "listing symbols decoded region bodies"
    );
    println!(
        "lazy open of a {} byte file: {} top-level symbols listed, {} function bodies pending, region bodies decoded: {}",
        data.len(),
        symbols.len(),
        funcs.len(),
        r.stats().lazy_bodies_decoded
    );

    // Materializing one function decodes exactly that body.
    r.materialize(funcs[0]).unwrap();
    assert_eq!(r.stats().lazy_bodies_decoded, 2);
    assert!(r.is_pending(funcs[1]));

    r.materialize_all().unwrap();
    assert!(r.stats().lazy_bodies_decoded > funcs.len());
    let ours = rmlir_writer::print_module(&r.into_module(), Default::default());
    let reference = oracle::run(&[
        "--mlir-print-op-generic",
        "--mlir-print-debuginfo",
        bc_path.to_str().unwrap(),
    ])
    .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        ours.as_bytes() == reference,
        "materialized module differs from mlir-opt's print"
    );
}
