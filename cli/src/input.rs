//! Reading inputs: files are memory-mapped (so bytecode resource blobs are
//! borrowed, never copied), standard input is buffered.

use rmlir_format::SharedBytes;
use std::io::Read;
use std::path::Path;
use std::sync::Arc;

pub struct Input {
    pub bytes: SharedBytes,
    /// The name locations and diagnostics use: the path as given.
    pub name: String,
}

impl Input {
    pub fn data(&self) -> &[u8] {
        (*self.bytes).as_ref()
    }
}

pub fn read_input(input: &Path) -> Result<Input, String> {
    if input == Path::new("-") {
        let mut buf = Vec::new();
        std::io::stdin()
            .read_to_end(&mut buf)
            .map_err(|e| format!("error: cannot read standard input: {e}"))?;
        return Ok(Input {
            bytes: Arc::new(buf),
            name: "<stdin>".to_string(),
        });
    }
    let file = std::fs::File::open(input)
        .map_err(|e| format!("error: cannot read '{}': {e}", input.display()))?;
    let len = file.metadata().map(|m| m.len()).unwrap_or(0);
    let bytes: SharedBytes = if len == 0 {
        // Mapping an empty file fails on some systems; nothing to map anyway.
        Arc::new(Vec::<u8>::new())
    } else {
        // SAFETY: the map is read-only; a file truncated under us by
        // another process is outside what this tool can defend against,
        // as for every mmap-based reader.
        let map = unsafe { memmap2::Mmap::map(&file) }
            .map_err(|e| format!("error: cannot map '{}': {e}", input.display()))?;
        Arc::new(map)
    };
    Ok(Input {
        bytes,
        name: input.display().to_string(),
    })
}
