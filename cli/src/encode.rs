//! `rmlir-bc encode` and `rmlir-bc convert`: write bytecode (optionally in
//! a zstd frame) from text or bytecode.

use crate::compress::{self, Compression};
use crate::load::Loaded;
use crate::progress::Progress;
use crate::{input, load, output};
use rmlir_dialects::hosts::{self, Host};
use rmlir_format::op_registry::OpRegistry;
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
    /// The release written for (`--target`).
    pub target: Target,
    /// Only upstream MLIR's dialects as registered ops with their
    /// encodings (`--upstream-only`).
    pub upstream_only: bool,
    /// `--builtin-encodings`; `None` is the target's.
    pub builtins: Option<BuiltinEncodings>,
}

/// `--target`: the MLIR release a file is written for, and the tool whose
/// context we read and write like (SPEC.md §7.4): the module is held in
/// its terms (§7.2), its ops are written in its release's upstream op
/// layouts with its builtin encodings (§6.6.6), and the header names its
/// release as the producer. The releases we write for are those whose
/// tools check our bytes: MLIR 22 (mlir-opt 22), 23 (jaxlib 0.10.2) and
/// 24 (IREE 3.13).
#[derive(Clone, Copy, Debug)]
pub struct Target(pub &'static Host);

impl Default for Target {
    fn default() -> Self {
        Target(&hosts::MLIR_OPT_22)
    }
}

impl Target {
    /// Parses `mlir-24`, `24`, `24.0.0git`, …
    pub fn parse(s: &str) -> Result<Target, String> {
        let writable = hosts::ALL
            .iter()
            .map(|h| format!("mlir-{} ({})", h.mlir_major, h.tool))
            .collect::<Vec<_>>()
            .join(", ");
        let known = OpRegistry::known_releases().join(", ");
        match OpRegistry::for_release(s) {
            Some(r) => {
                match r.release_major().and_then(Host::for_release) {
                    Some(h) => Ok(Target(h)),
                    None => Err(format!(
                        "cannot target MLIR {}: we write for {writable} only, the releases whose own tools check what we write (known releases for reading: {known})",
                        r.release()
                    )),
                }
            }
            None => Err(format!(
                "unknown target '{s}': we write for {writable}; known releases for reading: {known}"
            )),
        }
    }

    /// The release's upstream op layouts.
    pub fn ops(self) -> &'static OpRegistry {
        self.0.ops()
    }

    /// The producer string the release's own tools write (`MLIR24.0.0git`).
    pub fn producer(self) -> String {
        format!("MLIR{}", self.ops().release())
    }

    /// The order of use-list records the release's tools write (SPEC.md
    /// §6.10.6): ascending from MLIR 23 on, as jaxlib 0.10.2 and IREE
    /// 3.13 write them (checked on 2026-11-26).
    pub fn use_list_records(self) -> rmlir_writer::UseListRecordOrder {
        if self.0.mlir_major >= 23 {
            rmlir_writer::UseListRecordOrder::Ascending
        } else {
            rmlir_writer::UseListRecordOrder::HashOrder
        }
    }

    /// The builtin encodings the release's tools write: binary small
    /// float types from MLIR 23 on, binary affine maps from 24 on
    /// (jaxlib 0.10.2's MLIR 23 writes affine maps as text; checked with
    /// its `write_bytecode` on 2026-11-26 and 2026-11-27).
    pub fn builtins(self) -> BuiltinEncodings {
        match self.0.mlir_major {
            24.. => BuiltinEncodings::Mlir24,
            23 => BuiltinEncodings::Mlir23,
            _ => BuiltinEncodings::Mlir22,
        }
    }
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
    /// Also the small float types in binary, as `MLIR23.0.0git` (jaxlib
    /// 0.10.2) writes them; mlir-opt 22 cannot read them.
    #[value(name = "mlir-23")]
    Mlir23,
    /// Also the binary encodings MLIR added after 22, as `MLIR24.0.0git`
    /// (IREE 3.13) writes them; mlir-opt 22 cannot read them.
    #[value(name = "mlir-24")]
    Mlir24,
}

impl From<BuiltinEncodings> for rmlir_writer::BuiltinEncodings {
    fn from(b: BuiltinEncodings) -> Self {
        match b {
            BuiltinEncodings::Mlir22 => rmlir_writer::BuiltinEncodings::Mlir22,
            BuiltinEncodings::Mlir23 => rmlir_writer::BuiltinEncodings::Mlir23,
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
        builtin_encodings: writes.builtins.unwrap_or(writes.target.builtins()).into(),
        use_list_records: writes.target.use_list_records(),
        mlir_major: writes.target.0.mlir_major,
    };
    let (layouts, dialects) = if writes.upstream_only {
        (writes.target.ops(), crate::dialects::upstream_registry())
    } else {
        (
            crate::dialects::layouts_for_writing(&loaded.module, writes.target.ops()),
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
    producer: Option<String>,
    compression: Compression,
    writes: Writes,
    layouts: load::Layouts,
    progress: &mut Progress,
) -> Result<(), String> {
    output::refuse_binary_to_terminal(output)?;
    let inp = input::read_input(input, progress)?;
    let layouts = load::Layouts {
        terms: Some(writes.target.0),
        ..layouts
    };
    let loaded = load::load(&inp, layouts, progress)?;
    let producer = producer.unwrap_or_else(|| writes.target.producer());
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
