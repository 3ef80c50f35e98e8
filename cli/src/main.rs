//! `rmlir-bc`: MLIR generic text and bytecode without LLVM (SPEC.md §8).
//!
//! Exit status: 0 success (for `verify`: valid), 1 error or invalid input
//! (a diagnostic on standard error), 2 usage error (clap's).

mod allocator;
mod compress;
mod convert;
mod decode;
mod dialects;
mod encode;
mod info;
mod input;
mod load;
mod output;
mod progress;
mod upgrade;
mod verify;

use clap::{Parser, Subcommand};
use compress::Compression;
use progress::Progress;
use std::path::PathBuf;
use std::process::ExitCode;

const EXIT_STATUS: &str = "\
Input format is detected by content: MLIR bytecode (magic 'ML\\xEFR'),
a zstd frame around either (magic 28 B5 2F FD), or generic text. '-' reads
standard input / writes standard output.

Exit status: 0 success (verify: valid), 1 error or invalid input (diagnostic
on standard error), 2 usage error.";

#[derive(Parser)]
#[command(
    name = "rmlir-bc",
    version,
    about = "MLIR generic text and bytecode without LLVM",
    after_help = EXIT_STATUS
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Op layouts for decoding bytecode properties: `auto` (from the
    /// producer string: MLIR19.x → mlir-19, MLIR23 → mlir-23 (jaxlib's),
    /// MLIR24 → mlir-24 (IREE's), another MLIR release → the nearest of
    /// those, anything else → mlir-22), or a release (`mlir-19`,
    /// `mlir-22`, `mlir-23`, `mlir-24`) for files whose producer is not an
    /// MLIR release. A file read with 23's or 24's layouts is read and
    /// printed as jaxlib or IREE reads and prints it (a text file too, with
    /// the release given: `decode --custom --layouts mlir-23
    /// model.stablehlo.mlir` prints StableHLO as jaxlib does); 19's are
    /// carried over to MLIR 22's terms; `encode` and `convert` carry
    /// everything over to their --target's (SPEC.md §7.4).
    #[arg(long, global = true, default_value = "auto", value_parser = load::parse_layouts)]
    layouts: load::Layouts,
    /// Op layouts of a dialect of one's own (repeatable): a JSON file made
    /// from its ODS by `tools/ods-json/gen_layouts_json.py` (README,
    /// "Bring your own dialect"; SPEC.md §7.3). Its ops are read and
    /// written registered, their properties in these layouts; an op of
    /// the same name as one we ship is replaced.
    #[arg(long, global = true, value_name = "FILE")]
    op_layouts: Vec<PathBuf>,
    /// Bytecode encodings of a dialect of one's own (repeatable): a JSON
    /// file made from the dialect's `.td` files by
    /// `tools/dialect-encodings/from_td.py` (README, "Bring your own
    /// dialect"; SPEC.md §9.5). Its attributes and types are then read
    /// and written in their custom encodings, and printed by their
    /// declarative assembly formats.
    #[arg(long, global = true, value_name = "FILE")]
    dialect_encodings: Vec<PathBuf>,
    /// Flush each output file to disk (fsync) before renaming it into
    /// place. Without it (as mlir-opt writes), an output still appears
    /// whole or not at all, and a failed run leaves no partial file; with
    /// it, the new file also survives a power loss right after the run.
    #[arg(long, global = true)]
    fsync: bool,
    /// The most a zstd-compressed input may decompress to, in bytes. A
    /// frame declaring more is refused before anything is allocated, and
    /// bytecode is checked as it is decompressed (SPEC.md §5.1).
    #[arg(long, global = true, default_value_t = compress::DEFAULT_MAX_DECOMPRESSED)]
    max_decompressed_bytes: u64,
}

#[derive(Subcommand)]
enum Command {
    /// Print a module (text in the generic or custom form, or bytecode) in MLIR's generic form, as
    /// `mlir-opt --mlir-print-op-generic --mlir-print-debuginfo` does.
    #[command(after_help = "\
Examples:
  rmlir-bc decode model.mlirbc -o model.mlir
  rmlir-bc decode model.mlirbc.zst            # zstd input is detected
  cat model.mlirbc | rmlir-bc decode - --local-scope | less")]
    Decode {
        /// Input file, or `-` for standard input.
        input: PathBuf,
        /// Output file (written atomically); standard output when absent or `-`.
        #[arg(short, long)]
        output: Option<PathBuf>,
        /// Print without aliases (`--mlir-print-local-scope`).
        #[arg(long)]
        local_scope: bool,
        /// Print ops in their custom form, as mlir-opt prints by default,
        /// where we have their printer; the others print in the generic
        /// form, which reads back as the same IR (SPEC.md §11.4).
        #[arg(long)]
        custom: bool,
        /// With `--custom`: refuse, before printing, a module holding an op
        /// whose custom form mlir-opt prints but we do not (it would print
        /// in the generic form); the error names those ops.
        #[arg(long, requires = "custom")]
        no_generic_fallback: bool,
        /// Refuse, before printing, a module whose text would exceed this
        /// many bytes (shared attributes and types can make a small file
        /// print without end). Default: 256 MiB plus 256 bytes per input
        /// byte (SPEC.md §5.1).
        #[arg(long)]
        max_output_bytes: Option<u64>,
    },
    /// Write a module (text in the generic or custom form, or bytecode) as MLIR bytecode, byte for
    /// byte as `mlir-opt --emit-bytecode` writes it (and StableHLO's
    /// dialects as jaxlib writes them). A version that cannot
    /// hold the IR (e.g. properties below v5) is an error, never a silent
    /// drop.
    #[command(after_help = "\
Examples:
  rmlir-bc encode model.mlir -o model.mlirbc
  rmlir-bc encode model.mlir -o model.mlirbc --emit-version 5
  rmlir-bc encode model.mlir -o model.mlirbc.zst --compress zstd
  rmlir-bc encode iree.generic.mlir -o iree.mlirbc --target mlir-24")]
    Encode {
        /// Input file, or `-` for standard input.
        input: PathBuf,
        /// Output file (written atomically); standard output when absent or `-`.
        #[arg(short, long)]
        output: Option<PathBuf>,
        /// Bytecode version to write (0–6).
        #[arg(long, default_value_t = 6)]
        emit_version: u64,
        /// Producer string stored in the header (default: the target's,
        /// `MLIR22.1.8`).
        #[arg(long)]
        producer: Option<String>,
        /// Wrap the bytecode in a zstd frame (default level).
        #[arg(long, value_enum, default_value_t = Compression::None)]
        compress: Compression,
        /// Write only upstream MLIR's dialects as registered ops with their
        /// encodings, as mlir-opt 22 (which knows no others) writes: ops and
        /// attributes of vhlo, stablehlo and chlo are then written
        /// unregistered and as text. By default they are written as jaxlib
        /// writes them (SPEC.md §10.3); an op name a bytecode input (v5+)
        /// marks unregistered stays unregistered either way.
        #[arg(long)]
        upstream_only: bool,
        /// The MLIR release to write for (SPEC.md §7.2): `mlir-22` (what
        /// mlir-opt 22 reads), `mlir-23` (jaxlib 0.10's) or `mlir-24`
        /// (IREE 3.13's). Text is read in its terms; ops are written in its
        /// op layouts, with its builtin encodings and producer string.
        #[arg(long, default_value = "mlir-22", value_parser = encode::Target::parse)]
        target: encode::Target,
        /// The builtin encodings of which MLIR to write (SPEC.md §6.6.6):
        /// mlir-22 (what mlir-opt 22 reads), mlir-23, which writes the
        /// small float types in binary as jaxlib 0.10's MLIR does, or
        /// mlir-24, which also writes affine maps, integer sets and strided
        /// layouts in binary, as IREE 3.13's MLIR does. Default: the
        /// target's.
        #[arg(long, value_enum)]
        builtin_encodings: Option<encode::BuiltinEncodings>,
    },
    /// Convert bytecode to another bytecode version, or bytecode written by
    /// an older MLIR release (MLIR 19) to what MLIR 22 reads (text input is
    /// accepted too). Keeps the input's producer string unless --producer
    /// or --target is given (or the input was read with an older release's
    /// layouts); IR the target cannot hold is an error, never dropped.
    #[command(after_help = "\
Examples:
  rmlir-bc convert new.mlirbc -o old.mlirbc --emit-version 3
  rmlir-bc convert mlir19.mlirbc -o mlir22.mlirbc --target mlir-22
  rmlir-bc convert tool.mlirbc -o mlir22.mlirbc --target mlir-22 --layouts mlir-19
  rmlir-bc convert iree.mlirbc -o iree.v4.mlirbc --emit-version 4 --target mlir-24
  rmlir-bc convert model.mlirbc -o model.mlirbc.zst --emit-version 6 --compress zstd
  rmlir-bc convert model.mlirbc.zst -o - --emit-version 6 > model.mlirbc")]
    Convert {
        /// Input file, or `-` for standard input.
        input: PathBuf,
        /// Output file (written atomically), or `-` for standard output.
        #[arg(short, long)]
        output: PathBuf,
        /// Bytecode version to write (0–6; default 6 with --target).
        #[arg(long, required_unless_present = "target")]
        emit_version: Option<u64>,
        /// The MLIR release to write for (SPEC.md §7.2): `mlir-22` (what
        /// mlir-opt 22 reads), `mlir-23` (jaxlib 0.10's) or `mlir-24`
        /// (IREE 3.13's). The input is carried over to its terms and
        /// written in its op layouts, with its builtin encodings and
        /// producer string. Default: mlir-22, keeping the input's producer
        /// where its layouts were MLIR 22's.
        #[arg(long, value_parser = encode::Target::parse)]
        target: Option<encode::Target>,
        /// Producer string for the header (default: the input's, or the
        /// target's).
        #[arg(long)]
        producer: Option<String>,
        /// Wrap the bytecode in a zstd frame (default level).
        #[arg(long, value_enum, default_value_t = Compression::None)]
        compress: Compression,
        /// Write only upstream MLIR's dialects as registered ops with their
        /// encodings, as mlir-opt 22 (which knows no others) writes: ops and
        /// attributes of vhlo, stablehlo and chlo are then written
        /// unregistered and as text. By default they are written as jaxlib
        /// writes them (SPEC.md §10.3); an op name a bytecode input (v5+)
        /// marks unregistered stays unregistered either way.
        #[arg(long)]
        upstream_only: bool,
        /// The builtin encodings of which MLIR to write (SPEC.md §6.6.6):
        /// mlir-22 (what mlir-opt 22 reads), mlir-23, which writes the
        /// small float types in binary as jaxlib 0.10's MLIR does, or
        /// mlir-24, which also writes affine maps, integer sets and strided
        /// layouts in binary, as IREE 3.13's MLIR does. Default: the
        /// target's.
        #[arg(long, value_enum)]
        builtin_encodings: Option<encode::BuiltinEncodings>,
    },
    /// Upgrade a bytecode file written with older dialect versions: each
    /// versioned dialect's hook upgrades the IR on read, and the output is
    /// written with every dialect's current version. A file newer than a
    /// dialect knows is an error.
    #[command(after_help = "\
Examples:
  rmlir-bc upgrade old.mlirbc -o new.mlirbc
  rmlir-bc upgrade old.mlirbc -o new.mlirbc --emit-version 5")]
    Upgrade {
        /// Input bytecode file, or `-` for standard input.
        input: PathBuf,
        /// Output file (written atomically), or `-` for standard output.
        #[arg(short, long)]
        output: PathBuf,
        /// Bytecode version to write (0–6).
        #[arg(long, default_value_t = 6)]
        emit_version: u64,
    },
    /// Read a module completely (materializing every lazily loaded region)
    /// and check its structure: operands name defined values visible at
    /// the use, successors name non-entry blocks of the same region, parent
    /// links and ownership agree. Exit 0 when valid, 1 when not.
    #[command(after_help = "\
Examples:
  rmlir-bc verify model.mlirbc && echo ok
  rmlir-bc verify --quiet model.mlirbc.zst
  curl -s https://example.invalid/m.mlirbc | rmlir-bc verify -")]
    Verify {
        /// Input file, or `-` for standard input.
        input: PathBuf,
        /// Print nothing when valid.
        #[arg(short, long)]
        quiet: bool,
    },
    /// Describe a bytecode file: version, producer, sections, dialects,
    /// table sizes, resources and top-level symbols. Reads lazily: no
    /// function body is decoded.
    #[command(after_help = "\
Examples:
  rmlir-bc info model.mlirbc
  rmlir-bc info model.mlirbc.zst --json | jq .top_level")]
    Info {
        /// Input bytecode file, or `-` for standard input.
        input: PathBuf,
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
    },
}

/// Gives up `value` without running its destructor: the process is about
/// to exit and the kernel reclaims its memory at once, whereas freeing a
/// large module piece by piece took 10–15% of a run (malloc_consolidate,
/// unlink_chunk, free in the profiles of BENCHMARKS.md).
pub fn exit_without_freeing<T>(value: T) {
    std::mem::forget(value);
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let mut progress = Progress::for_stderr();
    let result = run(cli, &mut progress);
    progress.finish();
    match result {
        Ok(code) => code,
        Err(msg) => {
            eprintln!("{msg}");
            ExitCode::from(1)
        }
    }
}

fn run(cli: Cli, progress: &mut Progress) -> Result<ExitCode, String> {
    let layouts = cli.layouts;
    dialects::load_user_layouts(&cli.op_layouts)?;
    dialects::load_user_encodings(&cli.dialect_encodings)?;
    output::set_fsync(cli.fsync);
    input::set_max_decompressed(cli.max_decompressed_bytes);
    match cli.command {
        Command::Decode {
            input,
            output,
            local_scope,
            custom,
            no_generic_fallback,
            max_output_bytes,
        } => {
            allocator::tune();
            decode::run(
                &input,
                output.as_deref(),
                decode::Form {
                    local_scope,
                    custom,
                    no_generic_fallback,
                },
                max_output_bytes,
                layouts,
                progress,
            )?
        }
        Command::Encode {
            input,
            output,
            emit_version,
            producer,
            compress,
            upstream_only,
            target,
            builtin_encodings,
        } => {
            allocator::tune();
            encode::run(
                &input,
                output.as_deref(),
                emit_version,
                producer,
                compress,
                encode::Writes {
                    target,
                    upstream_only,
                    builtins: builtin_encodings,
                },
                layouts,
                progress,
            )?
        }
        Command::Convert {
            input,
            output,
            emit_version,
            target,
            producer,
            compress,
            upstream_only,
            builtin_encodings,
        } => convert::run(
            &input,
            &output,
            emit_version,
            target.is_some(),
            producer,
            compress,
            encode::Writes {
                target: target.unwrap_or_default(),
                upstream_only,
                builtins: builtin_encodings,
            },
            layouts,
            progress,
        )?,
        Command::Upgrade {
            input,
            output,
            emit_version,
        } => upgrade::run(&input, &output, emit_version, progress)?,
        Command::Verify { input, quiet } => return verify::run(&input, quiet, layouts, progress),
        Command::Info { input, json } => info::run(&input, json, layouts, progress)?,
    }
    Ok(ExitCode::SUCCESS)
}
