//! The zstd wrapper (SPEC.md §8.2): `.mlirbc.zst` is a plain zstd frame
//! around the bytecode (or text). Every command recognises the zstd magic
//! and decompresses to memory before reading, which costs the zero-copy
//! resource blobs of a memory-mapped input.

use crate::progress::Progress;
use std::io::Write;

/// The level `--compress zstd` uses: zstd's default.
pub const LEVEL: i32 = zstd::DEFAULT_COMPRESSION_LEVEL;

/// Work in pieces of this size so the progress bar can move.
const CHUNK: usize = 1 << 20;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Compression {
    /// Plain bytecode.
    None,
    /// A zstd frame around the bytecode (`.mlirbc.zst`).
    Zstd,
}

pub fn is_zstd(data: &[u8]) -> bool {
    rmlir_reader::zstd_input::is_zstd(data)
}

/// Wraps `data` in one zstd frame at the default level.
pub fn compress(data: &[u8], progress: &mut Progress) -> Result<Vec<u8>, String> {
    let err = |e: std::io::Error| format!("error: zstd compression failed: {e}");
    let mut enc =
        zstd::stream::Encoder::new(Vec::with_capacity(data.len() / 3 + 64), LEVEL).map_err(err)?;
    // The frame records the size, so readers can allocate once.
    enc.set_pledged_src_size(Some(data.len() as u64))
        .map_err(err)?;
    enc.include_contentsize(true).map_err(err)?;
    for (i, chunk) in data.chunks(CHUNK).enumerate() {
        enc.write_all(chunk).map_err(err)?;
        progress.bytes(
            "compressing",
            (i * CHUNK + chunk.len()) as u64,
            data.len() as u64,
        );
    }
    enc.finish().map_err(err)
}

/// The default of `--max-decompressed-bytes`: 16 GiB, over any model file
/// we know of. A frame whose content is larger is refused, and a frame
/// that declares such a size is refused before anything is allocated.
pub const DEFAULT_MAX_DECOMPRESSED: u64 = 16 << 30;

/// Decompresses every frame of `data` with the bounds of
/// [`rmlir_reader::zstd_input::decompress`] (SPEC.md §5.1, §8.2).
pub fn decompress(
    data: &[u8],
    name: &str,
    max_bytes: u64,
    progress: &mut Progress,
) -> Result<Vec<u8>, String> {
    rmlir_reader::zstd_input::decompress(data, max_bytes, &mut |done, expected| {
        progress.bytes("decompressing", done, expected)
    })
    .map_err(|e| format!("{name}: {e}"))
}
