//! Running mlir-opt 22, the oracle. Tests that need it fail (never skip)
//! when it is missing, saying how to install it.

use std::path::{Path, PathBuf};
use std::process::Command;

pub fn mlir_opt() -> PathBuf {
    let p =
        std::env::var("RMLIR_MLIR_OPT").unwrap_or_else(|_| "/usr/lib/llvm-22/bin/mlir-opt".into());
    let p = PathBuf::from(p);
    assert!(
        p.exists(),
        "mlir-opt 22 not found at {} (`bash tools/test.sh` installs it (mlir-22-tools) and runs the tests, or set RMLIR_MLIR_OPT)",
        p.display()
    );
    p
}

/// Runs mlir-opt with `--allow-unregistered-dialect` and `args`; returns
/// stdout, or the error output on failure.
pub fn run(args: &[&str]) -> Result<Vec<u8>, String> {
    let out = Command::new(mlir_opt())
        .arg("--allow-unregistered-dialect")
        .args(args)
        .output()
        .map_err(|e| format!("cannot run mlir-opt: {e}"))?;
    if out.status.success() {
        Ok(out.stdout)
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

/// Writes `input` as bytecode `version` to `output` with mlir-opt's
/// `--emit-bytecode`; the error output on failure.
pub fn emit_bytecode(input: &Path, version: u64, output: &Path) -> Result<(), String> {
    run(&[
        "--emit-bytecode",
        &format!("--emit-bytecode-version={version}"),
        input.to_str().expect("a UTF-8 path"),
        "-o",
        output.to_str().expect("a UTF-8 path"),
    ])
    .map(drop)
}
