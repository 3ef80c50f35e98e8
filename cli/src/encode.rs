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

/// What `encode` and `convert` write besides the version and producer.
#[derive(Clone, Copy, Debug)]
pub struct Writes {
    /// Only upstream MLIR's dialects as registered ops with their
    /// encodings (`--upstream-only`).
    pub upstream_only: bool,
    /// `--builtin-encodings`.
    pub builtins: BuiltinEncodings,
}

/// `--builtin-encodings`: the builtin encodings of which MLIR to write
/// (SPEC.md §6.6.6).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum BuiltinEncodings {
    /// MLIR 22's, which mlir-opt 22 reads: affine maps, integer sets,
    /// strided layouts and the small float types as text.
    #[default]
    #[value(name = "mlir-22")]
    Mlir22,
    /// Also the binary encodings MLIR added after 22, as `MLIR24.0.0git`
    /// (IREE 3.13) writes them; mlir-opt 22 cannot read them.
    #[value(name = "mlir-24")]
    Mlir24,
}

impl From<BuiltinEncodings> for rmlir_writer::BuiltinEncodings {
    fn from(b: BuiltinEncodings) -> Self {
        match b {
            BuiltinEncodings::Mlir22 => rmlir_writer::BuiltinEncodings::Mlir22,
            BuiltinEncodings::Mlir24 => rmlir_writer::BuiltinEncodings::Mlir24,
        }
    }
}

pub fn write(
    inp_name: &str,
    loaded: &Loaded,
    version: u64,
    producer: String,
    compression: Compression,
    writes: Writes,
    progress: &mut Progress,
) -> Result<Encoded, String> {
    progress.phase("writing bytecode");
    let opts = rmlir_writer::WriteOptions {
        version,
        producer,
        dialect_versions: Vec::new(),
        builtin_encodings: writes.builtins.into(),
    };
    let (layouts, dialects) = if writes.upstream_only {
        (
            rmlir_format::op_registry::OpRegistry::default_ref(),
            crate::dialects::upstream_registry(),
        )
    } else {
        (
            crate::dialects::layouts_for_writing(&loaded.module),
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
    writes: Writes,
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
        writes,
        progress,
    )?;
    progress.finish();
    let r = output::write_output_with(output, |w| encoded.write_to(w));
    crate::exit_without_freeing(encoded);
    crate::exit_without_freeing(loaded);
    r
}
