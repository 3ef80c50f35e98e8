//! `rmlir-bc`: decode and (later) encode MLIR generic text and bytecode.

use clap::{Parser, Subcommand};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
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
    /// Example: rmlir-bc decode examples/hello.mlir -o out.mlir
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

fn read_input(input: &Path) -> Result<(Vec<u8>, String), String> {
    if input == Path::new("-") {
        let mut buf = Vec::new();
        std::io::stdin()
            .read_to_end(&mut buf)
            .map_err(|e| format!("error: cannot read standard input: {e}"))?;
        return Ok((buf, "<stdin>".to_string()));
    }
    let data = std::fs::read(input)
        .map_err(|e| format!("error: cannot read '{}': {e}", input.display()))?;
    // Locations made up by the parser name the file as given on the command
    // line, as mlir-opt does.
    Ok((data, input.display().to_string()))
}

/// Writes `data` to `output` atomically: a temporary file in the same
/// directory, renamed over the target only once completely written.
fn write_output(output: Option<&Path>, data: &[u8]) -> Result<(), String> {
    let Some(path) = output.filter(|p| *p != Path::new("-")) else {
        let mut out = std::io::stdout().lock();
        return out
            .write_all(data)
            .and_then(|_| out.flush())
            .map_err(|e| format!("error: cannot write standard output: {e}"));
    };
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let file_name = path
        .file_name()
        .ok_or_else(|| format!("error: '{}' is not a file path", path.display()))?;
    let tmp = dir.join(format!(
        ".{}.tmp-{}",
        file_name.to_string_lossy(),
        std::process::id()
    ));
    let result = (|| -> std::io::Result<()> {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(data)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if let Err(e) = result {
        let _ = std::fs::remove_file(&tmp);
        return Err(format!("error: cannot write '{}': {e}", path.display()));
    }
    Ok(())
}

fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        Command::Decode {
            input,
            output,
            local_scope,
        } => {
            let (data, name) = read_input(&input)?;
            let module = if rmlir_reader::is_bytecode(&data) {
                rmlir_reader::read_bytecode(&data).map_err(|e| format!("{name}: {e}"))?
            } else {
                rmlir_reader::parse_module(&data, &name).map_err(|e| e.to_string())?
            };
            let text =
                rmlir_writer::print_module(&module, rmlir_writer::PrintOptions { local_scope });
            write_output(output.as_deref(), text.as_bytes())
        }
    }
}
