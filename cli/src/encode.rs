//! `rmlir-bc encode` and `rmlir-bc convert`: write bytecode (optionally in
//! a zstd frame) from text or bytecode.

use crate::compress::{self, Compression};
use crate::input::Input;
use crate::load::Loaded;
use crate::progress::Progress;
use crate::{input, load, output};
use std::path::Path;

/// The producer string mlir-opt 22 writes.
pub const DEFAULT_PRODUCER: &str = "MLIR22.1.8";

pub fn write(
    inp: &Input,
    loaded: &Loaded,
    version: u64,
    producer: String,
    compression: Compression,
    progress: &mut Progress,
) -> Result<Vec<u8>, String> {
    progress.phase("writing bytecode");
    let opts = rmlir_writer::WriteOptions {
        version,
        producer,
        dialect_versions: Vec::new(),
    };
    let bytes = rmlir_writer::write_bytecode_with(
        &loaded.module,
        &opts,
        rmlir_format::op_registry::OpRegistry::default_ref(),
        crate::dialects::registry(),
    )
    .map_err(|e| format!("{}: {e}", inp.name))?;
    match compression {
        Compression::None => Ok(bytes),
        Compression::Zstd => compress::compress(&bytes, progress),
    }
}

pub fn run(
    input: &Path,
    output: Option<&Path>,
    version: u64,
    producer: String,
    compression: Compression,
    layouts: load::Layouts,
    progress: &mut Progress,
) -> Result<(), String> {
    output::refuse_binary_to_terminal(output)?;
    let inp = input::read_input(input, progress)?;
    let loaded = load::load(&inp, layouts, progress)?;
    let bytes = write(&inp, &loaded, version, producer, compression, progress)?;
    progress.finish();
    crate::exit_without_freeing(loaded);
    let r = output::write_output(output, &bytes);
    crate::exit_without_freeing(bytes);
    r
}
