//! Reading inputs: files are memory-mapped (so bytecode resource blobs are
//! borrowed, never copied), standard input is buffered. A zstd frame
//! (magic `28 B5 2F FD`) is decompressed to memory first, whatever the
//! file is called; that copy is the price of compression (SPEC.md §8.2).

use crate::compress;
use crate::progress::Progress;
use rmlir_format::SharedBytes;
use std::io::Read;
use std::path::Path;
use std::sync::Arc;

pub struct Input {
    /// The bytecode or text (decompressed when the file was zstd).
    pub bytes: SharedBytes,
    /// The name locations and diagnostics use: the path as given.
    pub name: String,
    /// Size on disk when the input was a zstd frame.
    pub compressed_bytes: Option<usize>,
}

impl Input {
    pub fn data(&self) -> &[u8] {
        (*self.bytes).as_ref()
    }

    pub fn is_bytecode(&self) -> bool {
        rmlir_reader::is_bytecode(self.data())
    }
}

pub fn read_input(input: &Path, progress: &mut Progress) -> Result<Input, String> {
    let (raw, name): (SharedBytes, String) = if input == Path::new("-") {
        let mut buf = Vec::new();
        std::io::stdin()
            .read_to_end(&mut buf)
            .map_err(|e| format!("error: cannot read standard input: {e}"))?;
        (Arc::new(buf), "<stdin>".to_string())
    } else {
        (map_file(input)?, input.display().to_string())
    };
    let data: &[u8] = (*raw).as_ref();
    if compress::is_zstd(data) {
        let plain = compress::decompress(data, &name, progress)?;
        return Ok(Input {
            compressed_bytes: Some(data.len()),
            bytes: Arc::new(plain),
            name,
        });
    }
    Ok(Input {
        bytes: raw,
        name,
        compressed_bytes: None,
    })
}

fn map_file(input: &Path) -> Result<SharedBytes, String> {
    let file = std::fs::File::open(input)
        .map_err(|e| format!("error: cannot read '{}': {e}", input.display()))?;
    let meta = file
        .metadata()
        .map_err(|e| format!("error: cannot read '{}': {e}", input.display()))?;
    if meta.is_dir() {
        return Err(format!(
            "error: cannot read '{}': it is a directory",
            input.display()
        ));
    }
    if meta.len() == 0 {
        // Mapping an empty file fails on some systems; nothing to map anyway.
        return Ok(Arc::new(Vec::<u8>::new()));
    }
    // SAFETY: the map is read-only; a file truncated under us by another
    // process is outside what this tool can defend against, as for every
    // mmap-based reader.
    let map = unsafe { memmap2::Mmap::map(&file) }
        .map_err(|e| format!("error: cannot map '{}': {e}", input.display()))?;
    Ok(Arc::new(map))
}
