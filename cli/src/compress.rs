//! The zstd wrapper (SPEC.md §8.2): `.mlirbc.zst` is a plain zstd frame
//! around the bytecode (or text). Every command recognises the zstd magic
//! and decompresses to memory before reading, which costs the zero-copy
//! resource blobs of a memory-mapped input.

use crate::progress::Progress;
use std::io::{Read, Write};

/// The zstd frame magic, `28 B5 2F FD` (0xFD2FB528 little-endian).
pub const ZSTD_MAGIC: [u8; 4] = [0x28, 0xB5, 0x2F, 0xFD];

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
    data.starts_with(&ZSTD_MAGIC)
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

/// Decompresses every frame of `data` (zstd concatenates frames).
pub fn decompress(data: &[u8], name: &str, progress: &mut Progress) -> Result<Vec<u8>, String> {
    let err = |e: std::io::Error| format!("{name}: error: cannot decompress the zstd data: {e}");
    let capacity = zstd::zstd_safe::get_frame_content_size(data)
        .ok()
        .flatten()
        .map(|n| n.min(1 << 32) as usize)
        .unwrap_or(data.len() * 4);
    let mut out = Vec::with_capacity(capacity);
    let mut dec = zstd::stream::Decoder::new(data).map_err(err)?;
    let mut buf = vec![0u8; CHUNK];
    loop {
        let n = dec.read(&mut buf).map_err(err)?;
        if n == 0 {
            break;
        }
        out.extend_from_slice(&buf[..n]);
        progress.bytes("decompressing", out.len() as u64, capacity as u64);
    }
    Ok(out)
}
