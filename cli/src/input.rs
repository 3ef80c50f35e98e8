//! Reading inputs: files are memory-mapped (so bytecode resource blobs are
//! borrowed, never copied), standard input is buffered. A zstd frame
//! (magic `28 B5 2F FD`) is decompressed to memory first, whatever the
//! file is called; that copy is the price of compression (SPEC.md §8.2).

use crate::compress;
use crate::progress::Progress;
use rmlir_format::SharedBytes;
use std::io::Read;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// `--max-decompressed-bytes`: the most a zstd input may decompress to.
static MAX_DECOMPRESSED: AtomicU64 = AtomicU64::new(compress::DEFAULT_MAX_DECOMPRESSED);

/// Sets the most a zstd input may decompress to (SPEC.md §5.1).
pub fn set_max_decompressed(bytes: u64) {
    MAX_DECOMPRESSED.store(bytes, Ordering::Relaxed);
}

pub struct Input {
    /// The bytecode or text (decompressed when the file was zstd).
    pub bytes: SharedBytes,
    /// The file mapping `bytes` is, when it is one (not for standard
    /// input, a zstd frame or an empty file).
    mapped: Option<Arc<memmap2::Mmap>>,
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

    /// A callback for [`rmlir_reader::parse_module_releasing`]: drops the
    /// pages of a mapped input in the range it is given from this
    /// process's memory (they stay in the page cache and fault back in if
    /// read again). Text is read once, front to back (by each thread of a
    /// split parse), so a 50 MB file need not stay resident while the
    /// module it describes grows (SPEC.md §3). Pages partly outside the
    /// range are kept.
    pub fn releaser(&self) -> impl Fn(std::ops::Range<usize>) + Sync + '_ {
        move |range: std::ops::Range<usize>| self.release_range(range.start, range.end)
    }

    fn release_range(&self, start: usize, end: usize) {
        let Some(map) = self.mapped.as_deref() else {
            return;
        };
        const PAGE: usize = 4096;
        let start = start.div_ceil(PAGE) * PAGE;
        let end = end.min(map.len()) / PAGE * PAGE;
        if start >= end {
            return;
        }
        // SAFETY: `DontNeed` on a read-only shared file mapping only
        // drops pages; reading them again faults in the file's bytes, so
        // every slice of the map stays valid.
        #[cfg(unix)]
        let _ = unsafe {
            map.unchecked_advise_range(memmap2::UncheckedAdvice::DontNeed, start, end - start)
        };
    }
}

impl Input {
    /// A callback for [`rmlir_reader::BytecodeReader::scan_top_level`]:
    /// drops the pages of a mapped input in the byte range it is given
    /// from this process's memory, as [`Input::releaser`] does. Pages
    /// partly outside the range are kept.
    pub fn range_releaser(&self) -> impl FnMut(usize, usize) + '_ {
        move |start: usize, end: usize| self.release_range(start, end)
    }
}

pub fn read_input(input: &Path, progress: &mut Progress) -> Result<Input, String> {
    let (raw, mapped, name): (SharedBytes, _, String) = if input == Path::new("-") {
        let mut buf = Vec::new();
        std::io::stdin()
            .read_to_end(&mut buf)
            .map_err(|e| format!("error: cannot read standard input: {e}"))?;
        (Arc::new(buf), None, "<stdin>".to_string())
    } else {
        match map_file(input)? {
            Some(map) => (map.clone(), Some(map), input.display().to_string()),
            None => (Arc::new(Vec::new()), None, input.display().to_string()),
        }
    };
    let data: &[u8] = (*raw).as_ref();
    if compress::is_zstd(data) {
        let plain = compress::decompress(
            data,
            &name,
            MAX_DECOMPRESSED.load(Ordering::Relaxed),
            progress,
        )?;
        return Ok(Input {
            compressed_bytes: Some(data.len()),
            bytes: Arc::new(plain),
            mapped: None,
            name,
        });
    }
    Ok(Input {
        bytes: raw,
        mapped,
        name,
        compressed_bytes: None,
    })
}

/// The file's mapping, or `None` for an empty file.
fn map_file(input: &Path) -> Result<Option<Arc<memmap2::Mmap>>, String> {
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
        return Ok(None);
    }
    // SAFETY: the map is read-only; a file truncated under us by another
    // process is outside what this tool can defend against, as for every
    // mmap-based reader.
    let map = unsafe { memmap2::Mmap::map(&file) }
        .map_err(|e| format!("error: cannot map '{}': {e}", input.display()))?;
    Ok(Some(Arc::new(map)))
}
