//! `rmlir-bc convert`: bytecode at one version (or written by one MLIR
//! release) to bytecode at another.
//!
//! The same core as `encode` (read everything, write with the bytecode
//! writer), with the semantics of a format conversion: nothing the target
//! cannot hold is dropped, that is an error (SPEC.md §6.10, §7.2).
//!
//! Producer string: `--producer` if given; else, with `--target`, the
//! target release's (`MLIR22.1.8`, `MLIR24.0.0git`); else the input's, as
//! long as its properties were decoded with the layouts we write (the
//! target's, MLIR 22's by default). A file read with another release's
//! layouts (its producer says `MLIR19…`, or `--layouts`) comes out in the
//! target's layouts, so it gets the target's producer: keeping `MLIR19…`
//! would make every reader decode MLIR 22 payloads with MLIR 19's
//! layouts. Text input gets the target's producer.

use crate::compress::Compression;
use crate::encode;
use crate::load::{Layouts, Loaded};
use crate::progress::Progress;
use crate::{input, load, output};
use std::path::Path;

#[allow(clippy::too_many_arguments)]
pub fn convert(
    inp_name: &str,
    loaded: &Loaded,
    version: u64,
    target_given: bool,
    producer: Option<String>,
    compression: Compression,
    writes: encode::Writes,
    progress: &mut Progress,
) -> Result<encode::Encoded, String> {
    let release = writes.target.ops().release();
    let producer = producer.unwrap_or_else(|| match &loaded.header {
        Some(h) if !target_given && h.layouts_release == release => h.producer.clone(),
        _ => writes.target.producer(),
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
    target_given: bool,
    producer: Option<String>,
    compression: Compression,
    writes: encode::Writes,
    layouts: Layouts,
    progress: &mut Progress,
) -> Result<(), String> {
    let layouts = Layouts {
        terms: Some(writes.target.0),
        ..layouts
    };
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
        target_given,
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
