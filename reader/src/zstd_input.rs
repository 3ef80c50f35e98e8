//! zstd-wrapped input (`.mlirbc.zst`, SPEC.md §8.2), decompressed with the
//! bounds of SPEC.md §5.1. Enabled by the `zstd` feature.
//!
//! A zstd frame of a kilobyte can hold gigabytes. [`decompress`] works as a
//! stream and refuses as soon as the output is known to be wrong or too
//! large, so a hostile frame costs at most one piece of output beyond what
//! shows it hostile.

use crate::bytecode::check_prefix;
use std::fmt;
use std::io::Read;

/// The zstd frame magic, `28 B5 2F FD` (0xFD2FB528 little-endian).
pub const ZSTD_MAGIC: [u8; 4] = [0x28, 0xB5, 0x2F, 0xFD];

/// Output is produced and checked in pieces of this size.
const PIECE: usize = 1 << 20;

/// Whether `data` starts with a zstd frame.
pub fn is_zstd(data: &[u8]) -> bool {
    data.starts_with(&ZSTD_MAGIC)
}

/// Why [`decompress`] refused.
#[derive(Debug)]
pub enum DecompressError {
    /// The frame header declares more content than the limit; nothing was
    /// decompressed.
    DeclaredTooLarge {
        /// The content size the frame header declares, in bytes.
        declared: u64,
        /// The limit on decompressed bytes.
        limit: u64,
    },
    /// The bytecode's sections, as far as they were decompressed, declare
    /// more bytes than the limit.
    SectionsTooLarge {
        /// The bytes the header and sections declare so far.
        needed: u64,
        /// The limit on decompressed bytes.
        limit: u64,
    },
    /// The output grew past the limit.
    TooLarge {
        /// The limit on decompressed bytes.
        limit: u64,
    },
    /// The decompressed bytes start like bytecode, and their header or
    /// section framing is malformed: found after `after` bytes.
    Bytecode {
        /// The reader's error on the decompressed bytes.
        error: crate::Error,
        /// How many bytes had been decompressed when it was found.
        after: u64,
    },
    /// The zstd data itself is malformed.
    Zstd(std::io::Error),
}

impl fmt::Display for DecompressError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let raise = "the limit for decompressed input (--max-decompressed-bytes raises it)";
        match self {
            DecompressError::DeclaredTooLarge { declared, limit } => write!(
                f,
                "error: the zstd frame declares {declared} bytes of content, over {limit} bytes, {raise}"
            ),
            DecompressError::SectionsTooLarge { needed, limit } => write!(
                f,
                "error: the bytecode's sections declare at least {needed} bytes, over {limit} bytes, {raise}"
            ),
            DecompressError::TooLarge { limit } => write!(
                f,
                "error: the zstd data decompresses to more than {limit} bytes, {raise}"
            ),
            DecompressError::Bytecode { error, after } => write!(
                f,
                "{error}; found in the zstd data's first {after} decompressed bytes"
            ),
            DecompressError::Zstd(e) => write!(f, "error: cannot decompress the zstd data: {e}"),
        }
    }
}

impl std::error::Error for DecompressError {}

/// Decompresses every frame of `data` (zstd concatenates frames) as a
/// stream, refusing:
/// - a frame that declares more than `limit` bytes of content, before
///   anything is allocated;
/// - bytecode whose header or section framing is malformed
///   ([`check_prefix`], run on each piece as it arrives: a frame of the
///   magic and 30 GB of zeros is refused after its first megabyte);
/// - bytecode whose sections declare more than `limit` bytes, as soon as
///   the declaration arrives;
/// - output that grows past `limit`.
///
/// `progress` is called after each piece with the bytes so far and the
/// size expected (declared, or guessed).
pub fn decompress(
    data: &[u8],
    limit: u64,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Vec<u8>, DecompressError> {
    let declared = zstd::zstd_safe::get_frame_content_size(data).ok().flatten();
    if let Some(declared) = declared.filter(|&n| n > limit) {
        return Err(DecompressError::DeclaredTooLarge { declared, limit });
    }
    // Room for what the frame declares, else a guess; never beyond the
    // limit, and reserved only once the first piece has passed its checks.
    let expected = declared
        .unwrap_or((data.len() as u64).saturating_mul(4))
        .min(limit)
        .min(1 << 32);
    let mut out: Vec<u8> = Vec::new();
    let mut dec = zstd::stream::Decoder::new(data).map_err(DecompressError::Zstd)?;
    let mut piece = vec![0u8; PIECE];
    loop {
        let n = dec.read(&mut piece).map_err(DecompressError::Zstd)?;
        if n == 0 {
            break;
        }
        if out.len() as u64 + n as u64 > limit {
            return Err(DecompressError::TooLarge { limit });
        }
        let first = out.is_empty();
        out.extend_from_slice(&piece[..n]);
        if crate::is_bytecode(&out) {
            match check_prefix(&out) {
                Ok(needed) if needed > limit => {
                    return Err(DecompressError::SectionsTooLarge { needed, limit })
                }
                Ok(_) => {}
                Err(error) => {
                    return Err(DecompressError::Bytecode {
                        error,
                        after: out.len() as u64,
                    })
                }
            }
        }
        if first {
            out.reserve_exact((expected as usize).saturating_sub(out.len()));
        }
        progress(out.len() as u64, expected);
    }
    Ok(out)
}
