//! Writing outputs atomically: a temporary file beside the target, renamed
//! over it only once completely written, so a failed run never leaves a
//! partial file or clobbers its input (SPEC.md §8). `--fsync` also flushes
//! the file to disk before the rename.

use std::io::{IsTerminal, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

/// `--fsync`: set once by `main` before any output is written.
static FSYNC: AtomicBool = AtomicBool::new(false);

pub fn set_fsync(on: bool) {
    FSYNC.store(on, Ordering::Relaxed);
}

pub fn write_output(output: Option<&Path>, data: &[u8]) -> Result<(), String> {
    write_output_with(output, |w| w.write_all(data))
}

/// Like [`write_output`], for output produced piece by piece: `produce`
/// writes it to the file (or standard output) as it goes, so it never has
/// to be held whole in memory. Standard output is buffered here; files get
/// `produce`'s own (large) writes.
pub fn write_output_with(
    output: Option<&Path>,
    produce: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<(), String> {
    let Some(path) = output.filter(|p| *p != Path::new("-")) else {
        let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
        return match produce(&mut out).and_then(|_| out.flush()) {
            // The reader went away (`rmlir-bc decode big.mlirbc | head`):
            // what it wanted it got, as with SIGPIPE in C tools.
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
            r => r.map_err(|e| format!("error: cannot write standard output: {e}")),
        };
    };
    // Only a regular file (or a path that does not exist yet) is replaced
    // by rename. Renaming over `/dev/null`, a FIFO or a socket would put a
    // regular file in its place (as root, `-o /dev/null` broke the
    // machine's /dev/null this way), so those are written in place.
    let existing = std::fs::metadata(path).ok();
    match &existing {
        Some(meta) if !meta.is_file() && !meta.is_dir() => {
            let mut f = std::fs::OpenOptions::new()
                .write(true)
                .open(path)
                .map_err(|e| format!("error: cannot write '{}': {e}", path.display()))?;
            return produce(&mut f)
                .and_then(|_| f.flush())
                .map_err(|e| format!("error: cannot write '{}': {e}", path.display()));
        }
        _ => {}
    }
    // A symbolic link keeps pointing where it did: the file it names is
    // the one replaced, from a temporary file in that file's directory.
    let resolved;
    let path = match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => match std::fs::canonicalize(path) {
            Ok(p) => {
                resolved = p;
                resolved.as_path()
            }
            Err(_) => path,
        },
        _ => path,
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
        produce(&mut f)?;
        // The rename alone makes the output atomic for other processes;
        // durability across a crash of the machine is asked for by --fsync.
        if FSYNC.load(Ordering::Relaxed) {
            f.sync_all()?;
        }
        // An existing file keeps its permissions.
        if let Some(old) = &existing {
            std::fs::set_permissions(&tmp, old.permissions())?;
        }
        std::fs::rename(&tmp, path)
    })();
    if let Err(e) = result {
        let _ = std::fs::remove_file(&tmp);
        return Err(format!("error: cannot write '{}': {e}", path.display()));
    }
    Ok(())
}

/// Bytecode is not for terminals: ask for a file or a pipe instead.
pub fn refuse_binary_to_terminal(output: Option<&Path>) -> Result<(), String> {
    let to_stdout = output.is_none_or(|p| p == Path::new("-"));
    if to_stdout && std::io::stdout().is_terminal() {
        return Err("error: refusing to write bytecode to a terminal; use -o FILE or redirect standard output".into());
    }
    Ok(())
}
