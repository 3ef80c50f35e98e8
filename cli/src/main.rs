//! `rmlir-bc`: MLIR generic text and bytecode without LLVM.

mod info;
mod input;
mod output;

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "rmlir-bc",
    version,
    about = "MLIR generic text and bytecode without LLVM"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print a module (generic text or bytecode, told apart by the bytecode
    /// magic) in MLIR's generic form, as
    /// `mlir-opt --mlir-print-op-generic --mlir-print-debuginfo` does.
    ///
    /// Example: rmlir-bc decode model.mlirbc -o model.mlir
    Decode {
        /// Input file, or `-` for standard input.
        input: PathBuf,
        /// Output file (written atomically); standard output when absent or `-`.
        #[arg(short, long)]
        output: Option<PathBuf>,
        /// Print without aliases (`--mlir-print-local-scope`).
        #[arg(long)]
        local_scope: bool,
    },
    /// Write a module (generic text or bytecode) as MLIR bytecode, byte for
    /// byte as `mlir-opt --emit-bytecode` writes it. A version that cannot
    /// hold the IR (e.g. properties below v5) is an error, never a silent
    /// drop.
    ///
    /// Example: rmlir-bc encode model.mlir -o model.mlirbc --emit-version 5
    Encode {
        /// Input file, or `-` for standard input.
        input: PathBuf,
        /// Output file (written atomically); standard output when absent or `-`.
        #[arg(short, long)]
        output: Option<PathBuf>,
        /// Bytecode version to write (0–6).
        #[arg(long, default_value_t = 6)]
        emit_version: u64,
        /// Producer string stored in the header.
        #[arg(long, default_value = "MLIR22.1.8")]
        producer: String,
    },
    /// Describe a bytecode file: version, producer, sections, dialects,
    /// table sizes, resources and top-level symbols. Reads lazily: no
    /// function body is decoded.
    ///
    /// Example: rmlir-bc info model.mlirbc --json
    Info {
        /// Input bytecode file, or `-` for standard input.
        input: PathBuf,
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("{msg}");
            ExitCode::from(1)
        }
    }
}

/// Reads text or bytecode, told apart by the bytecode magic.
fn load(inp: &input::Input) -> Result<rmlir_format::Module, String> {
    let data = inp.data();
    if rmlir_reader::is_bytecode(data) {
        rmlir_reader::read_bytecode_shared(&inp.bytes).map_err(|e| format!("{}: {e}", inp.name))
    } else {
        rmlir_reader::parse_module(data, &inp.name).map_err(|e| e.to_string())
    }
}

fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        Command::Decode {
            input,
            output,
            local_scope,
        } => {
            let inp = input::read_input(&input)?;
            let module = load(&inp)?;
            let text =
                rmlir_writer::print_module(&module, rmlir_writer::PrintOptions { local_scope });
            output::write_output(output.as_deref(), text.as_bytes())
        }
        Command::Encode {
            input,
            output,
            emit_version,
            producer,
        } => {
            let inp = input::read_input(&input)?;
            let module = load(&inp)?;
            let opts = rmlir_writer::WriteOptions {
                version: emit_version,
                producer,
            };
            let bytes = rmlir_writer::write_bytecode(&module, &opts)
                .map_err(|e| format!("{}: {e}", inp.name))?;
            output::write_output(output.as_deref(), &bytes)
        }
        Command::Info { input, json } => {
            let inp = input::read_input(&input)?;
            if !rmlir_reader::is_bytecode(inp.data()) {
                return Err(format!(
                    "{}: error: not an MLIR bytecode file (no 'ML\\xEFR' magic)",
                    inp.name
                ));
            }
            let i = info::collect(&inp)?;
            let text = if json {
                serde_json::to_string_pretty(&i).expect("serializable") + "\n"
            } else {
                info::render_text(&i)
            };
            output::write_output(None, text.as_bytes())
        }
    }
}
