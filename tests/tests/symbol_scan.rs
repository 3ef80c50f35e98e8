//! `BytecodeReader::scan_top_level` (SPEC.md §6.7.5) lists what
//! materializing the module body lists: for every bytecode file of the
//! corpus whose top op materializes, the scan gives the same op names,
//! the same symbol names and the same bodies left lazy, and it decodes no
//! region body itself. `open_listing` (the skim before the attribute table
//! is read) gives what opening and then scanning gives, for every file.

use rmlir_format::AttrData;
use rmlir_reader::BytecodeReader;
use std::path::PathBuf;

type Listing = Vec<(Vec<u8>, Option<Vec<u8>>, bool)>;

/// The listing the way `info` made it before the scan existed: from the
/// materialized module.
fn materialized_listing(data: &[u8]) -> Option<Listing> {
    let mut r = BytecodeReader::open(data).ok()?;
    let top = r.module().top?;
    r.materialize(top).ok()?;
    let m = r.module();
    let mut out = Vec::new();
    let Some(&region) = m.op(top).regions().first() else {
        return Some(out);
    };
    for &b in &m.region(region).blocks {
        for &op in &m.block(b).ops {
            let o = m.op(op);
            let symbol = [o.properties, Some(o.attributes)]
                .into_iter()
                .flatten()
                .find_map(|d| match m.ctx.attr(d) {
                    AttrData::Dictionary(e) => e
                        .iter()
                        .find(|(k, _)| &**k == b"sym_name")
                        .and_then(|(_, v)| match m.ctx.attr(*v) {
                            AttrData::String { value, .. } => Some(value.to_vec()),
                            _ => None,
                        }),
                    _ => None,
                });
            out.push((m.op_name(op).to_vec(), symbol, r.is_pending(op)));
        }
    }
    Some(out)
}

fn scanned_listing(data: &[u8]) -> Result<Listing, String> {
    let mut r = BytecodeReader::open(data).map_err(|e| e.to_string())?;
    let top = r.module().top;
    let listed = r
        .scan_top_level(&mut |_, _| {})
        .map_err(|e| e.to_string())?;
    assert_eq!(
        r.stats().lazy_bodies_decoded,
        0,
        "the scan decoded a region body"
    );
    if let Some(top) = top {
        if r.version() >= 2 {
            assert!(r.is_pending(top), "the scan materialized the module body");
        }
    }
    Ok(listing(listed))
}

fn listing(listed: Vec<rmlir_reader::TopLevelOp<'_>>) -> Listing {
    listed
        .into_iter()
        .map(|t| {
            (
                t.name.to_vec(),
                t.symbol.map(|s| s.into_owned()),
                t.lazy_body,
            )
        })
        .collect()
}

/// The listing `info` makes: [`BytecodeReader::open_listing`], which skims
/// the body before the attribute table is read (SPEC.md §6.7.5).
fn opened_listing(data: &[u8]) -> Result<Listing, String> {
    let owner: rmlir_format::SharedBytes = std::sync::Arc::new(data.to_vec());
    let (r, listed) = BytecodeReader::open_listing(&owner, &Default::default(), &mut |_, _| {})
        .map_err(|e| e.to_string())?;
    assert_eq!(r.stats().lazy_bodies_decoded, 0);
    Ok(listing(listed))
}

fn bytecode_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in rmlir_tests::case_dirs("cases")
        .into_iter()
        .chain(rmlir_tests::case_dirs("real-client/cases"))
    {
        files.push(dir.join("v6.mlirbc"));
    }
    for sub in ["upstream-bytecode/invalid", "upstream-bytecode/versioning"] {
        files.extend(rmlir_tests::mlirbc_files(
            &rmlir_tests::corpus_dir().join(sub),
        ));
    }
    files
}

#[test]
fn scan_lists_what_materializing_lists() {
    let (mut compared, mut symbols, mut not_materialized, mut scan_also_failed) = (0, 0, 0, 0);
    for path in bytecode_files() {
        let data = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        // Opening and listing in one gives what opening, then scanning,
        // gives: the same listing, or the same error.
        assert_eq!(
            opened_listing(&data),
            scanned_listing(&data),
            "{}: open_listing against open + scan_top_level",
            path.display()
        );
        let Some(want) = materialized_listing(&data) else {
            // The scan checks less than decoding does; it may list such a
            // file or fail, but it must not panic.
            not_materialized += 1;
            scan_also_failed += usize::from(scanned_listing(&data).is_err());
            continue;
        };
        let got = scanned_listing(&data)
            .unwrap_or_else(|e| panic!("{}: the scan failed: {e}", path.display()));
        assert_eq!(got, want, "{}", path.display());
        compared += 1;
        symbols += want.iter().filter(|t| t.1.is_some()).count();
    }
    println!(
        "scan = materialized listing: {compared}/{compared} files ({symbols} symbols); {not_materialized} files whose module body does not decode ({scan_also_failed} of them fail the scan too)"
    );
    assert!(
        compared > rmlir_tests::floor("symbol_scan: files", 6000),
        "{compared} files compared"
    );
    assert!(
        symbols > rmlir_tests::floor("symbol_scan: symbols", 5000),
        "{symbols} symbols compared"
    );
}
