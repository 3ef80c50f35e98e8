//! `rmlir-bc encode` and `rmlir-bc convert`: write bytecode (optionally in
//! a zstd frame) from text or bytecode.

use crate::compress::{self, Compression};
use crate::load::Loaded;
use crate::progress::Progress;
use crate::{input, load, output};
use std::path::Path;

/// The producer string mlir-opt 22 writes.
pub const DEFAULT_PRODUCER: &str = "MLIR22.1.8";

/// Bytecode ready to be written: as the writer left it (large blobs are
/// still references into the input, streamed to the output without a
/// copy), or a finished zstd frame.
pub enum Encoded {
    Plain(rmlir_writer::Bytecode),
    Zstd(Vec<u8>),
}

impl Encoded {
    pub fn write_to(&self, w: &mut dyn std::io::Write) -> std::io::Result<()> {
        match self {
            Encoded::Plain(b) => b.write_to(w),
            Encoded::Zstd(v) => w.write_all(v),
        }
    }
}

/// `upstream_only`: write only upstream MLIR's dialects as registered ops
/// with their encodings (`--upstream-only`).
pub fn write(
    inp_name: &str,
    loaded: &Loaded,
    version: u64,
    producer: String,
    compression: Compression,
    upstream_only: bool,
    progress: &mut Progress,
) -> Result<Encoded, String> {
    progress.phase("writing bytecode");
    let opts = rmlir_writer::WriteOptions {
        version,
        producer,
        dialect_versions: Vec::new(),
    };
    let (layouts, dialects) = if upstream_only {
        (
            rmlir_format::op_registry::OpRegistry::default_ref(),
            crate::dialects::upstream_registry(),
        )
    } else {
        (
            rmlir_dialects::layouts_for_writing(&loaded.module),
            crate::dialects::registry(),
        )
    };
    let encoded = rmlir_writer::encode_bytecode(&loaded.module, &opts, layouts, dialects)
        .map_err(|e| format!("{inp_name}: {e}"))?;
    match compression {
        Compression::None => Ok(Encoded::Plain(encoded)),
        Compression::Zstd => compress::compress(&encoded.into_vec(), progress).map(Encoded::Zstd),
    }
}

#[allow(clippy::too_many_arguments)]
pub fn run(
    input: &Path,
    output: Option<&Path>,
    version: u64,
    producer: String,
    compression: Compression,
    upstream_only: bool,
    layouts: load::Layouts,
    progress: &mut Progress,
) -> Result<(), String> {
    output::refuse_binary_to_terminal(output)?;
    let inp = input::read_input(input, progress)?;
    let loaded = load::load(&inp, layouts, progress)?;
    // The module holds what it needs of the input (blobs share it), so the
    // rest of a mapped input (all of a text one) stops counting towards
    // the peak memory of writing.
    let name = inp.name.clone();
    drop(inp);
    let encoded = write(
        &name,
        &loaded,
        version,
        producer,
        compression,
        upstream_only,
        progress,
    )?;
    progress.finish();
    let r = output::write_output_with(output, |w| encoded.write_to(w));
    crate::exit_without_freeing(encoded);
    crate::exit_without_freeing(loaded);
    r
}
