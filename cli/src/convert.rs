//! `rmlir-bc convert`: bytecode at one version to bytecode at another.
//!
//! The same core as `encode` (read everything, write with the bytecode
//! writer), with the semantics of a format conversion: the target version
//! must be given, and a bytecode input's producer string is kept unless
//! `--producer` replaces it (text input gets mlir-opt's). Nothing the
//! target version cannot hold is dropped: that is an error (SPEC.md §6.10).

use crate::compress::Compression;
use crate::encode::{self, DEFAULT_PRODUCER};
use crate::input::Input;
use crate::load::Loaded;
use crate::progress::Progress;
use crate::{input, load, output};
use std::path::Path;

pub fn convert(
    inp: &Input,
    loaded: &Loaded,
    version: u64,
    producer: Option<String>,
    compression: Compression,
    progress: &mut Progress,
) -> Result<Vec<u8>, String> {
    let producer = producer.unwrap_or_else(|| match &loaded.header {
        Some(h) => h.producer.clone(),
        None => DEFAULT_PRODUCER.to_string(),
    });
    encode::write(inp, loaded, version, producer, compression, progress)
}

pub fn run(
    input: &Path,
    output: &Path,
    version: u64,
    producer: Option<String>,
    compression: Compression,
    progress: &mut Progress,
) -> Result<(), String> {
    output::refuse_binary_to_terminal(Some(output))?;
    let inp = input::read_input(input, progress)?;
    let loaded = load::load(&inp, progress)?;
    let bytes = convert(&inp, &loaded, version, producer, compression, progress)?;
    progress.finish();
    crate::exit_without_freeing(loaded);
    let r = output::write_output(Some(output), &bytes);
    crate::exit_without_freeing(bytes);
    r
}
