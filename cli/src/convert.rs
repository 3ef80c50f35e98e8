//! `rmlir-bc convert`: bytecode at one version (or written by one MLIR
//! release) to bytecode at another.
//!
//! The same core as `encode` (read everything, write with the bytecode
//! writer), with the semantics of a format conversion: nothing the target
//! cannot hold is dropped, that is an error (SPEC.md §6.10, §7.2).
//!
//! Producer string: `--producer` if given; else, with `--target`, the
//! target release's (`MLIR22.1.8`); else the input's, as long as its
//! properties were decoded with the layouts we write (MLIR 22's). A file
//! read with an older release's layouts (its producer says `MLIR19…`, or
//! `--layouts`) comes out in MLIR 22's layouts, so it gets MLIR 22's
//! producer: keeping `MLIR19…` would make every reader decode MLIR 22
//! payloads with MLIR 19's layouts. Text input gets MLIR 22's producer.

use crate::compress::Compression;
use crate::encode::{self, DEFAULT_PRODUCER};
use crate::load::{Layouts, Loaded};
use crate::progress::Progress;
use crate::{input, load, output};
use rmlir_format::op_registry::OpRegistry;
use std::path::Path;

/// What `--target` names: the release whose layouts and producer string
/// the output gets. Only the release we write (MLIR 22) can be a target.
pub fn parse_target(s: &str) -> Result<String, String> {
    let writes = OpRegistry::default_ref();
    match OpRegistry::for_release(s) {
        Some(r) if std::ptr::eq(r, writes) => Ok(r.release().to_string()),
        Some(r) => Err(format!(
            "cannot target MLIR {}: the writer writes MLIR {}'s op layouts only (known releases for reading: {})",
            r.release(),
            writes.release(),
            OpRegistry::known_releases().join(", ")
        )),
        None => Err(format!(
            "unknown target '{s}': the writer targets mlir-{} (MLIR {}); known releases for reading: {}",
            writes.release().split('.').next().unwrap_or(""),
            writes.release(),
            OpRegistry::known_releases().join(", ")
        )),
    }
}

#[allow(clippy::too_many_arguments)]
pub fn convert(
    inp_name: &str,
    loaded: &Loaded,
    version: u64,
    target: Option<&str>,
    producer: Option<String>,
    compression: Compression,
    writes: encode::Writes,
    progress: &mut Progress,
) -> Result<encode::Encoded, String> {
    let release = OpRegistry::default_ref().release();
    let producer = producer.unwrap_or_else(|| match (&loaded.header, target) {
        (Some(h), None) if h.layouts_release == release => h.producer.clone(),
        _ => DEFAULT_PRODUCER.to_string(),
    });
    encode::write(
        inp_name,
        loaded,
        version,
        producer,
        compression,
        writes,
        progress,
    )
}

#[allow(clippy::too_many_arguments)]
pub fn run(
    input: &Path,
    output: &Path,
    version: Option<u64>,
    target: Option<String>,
    producer: Option<String>,
    compression: Compression,
    writes: encode::Writes,
    layouts: Layouts,
    progress: &mut Progress,
) -> Result<(), String> {
    let target = target.as_deref().map(parse_target).transpose()?;
    let version = version.unwrap_or(rmlir_format::bytecode::VERSION_CURRENT);
    output::refuse_binary_to_terminal(Some(output))?;
    let inp = input::read_input(input, progress)?;
    let loaded = load::load(&inp, layouts, progress)?;
    // Large blobs keep the map alive (they share it) and go from it to the
    // output file (SPEC.md §6.10); the rest of the input is not needed.
    let name = inp.name.clone();
    drop(inp);
    let encoded = convert(
        &name,
        &loaded,
        version,
        target.as_deref(),
        producer,
        compression,
        writes,
        progress,
    )?;
    progress.finish();
    let r = output::write_output_with(Some(output), |w| encoded.write_to(w));
    crate::exit_without_freeing(encoded);
    crate::exit_without_freeing(loaded);
    r
}
