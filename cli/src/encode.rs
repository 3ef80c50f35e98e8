//! `rmlir-bc encode` and `rmlir-bc convert`: write bytecode (optionally in
//! a zstd frame) from text or bytecode.

use crate::compress::{self, Compression};
use crate::input::Input;
use crate::load::Loaded;
use crate::progress::Progress;

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
    let opts = rmlir_writer::WriteOptions { version, producer };
    let bytes = rmlir_writer::write_bytecode(&loaded.module, &opts)
        .map_err(|e| format!("{}: {e}", inp.name))?;
    match compression {
        Compression::None => Ok(bytes),
        Compression::Zstd => compress::compress(&bytes, progress),
    }
}
