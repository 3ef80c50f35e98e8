//! Facts of the quant dialect's encoding that the bytecode reader (which
//! prints a quantized type's storage) and the writer (which parses it)
//! both need.

/// `QuantizationFlags::Signed`.
pub const SIGNED: u64 = 1;

/// The storage bounds a quantized type has unless it states its own:
/// `llvm::minIntN`/`maxIntN`/`maxUIntN` of the storage width as `int64_t`,
/// which the quant dialect compares the bounds with. `(0, 0)` for width 0.
pub fn default_storage_bounds(signed: bool, width: u32) -> (i64, i64) {
    if width == 0 {
        return (0, 0);
    }
    let w = width.min(64);
    if signed {
        let max = if w == 64 {
            i64::MAX
        } else {
            (1i64 << (w - 1)) - 1
        };
        (-max - 1, max)
    } else {
        (0, (u64::MAX >> (64 - w)) as i64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_storage_bounds_match_llvm() {
        assert_eq!(default_storage_bounds(true, 8), (-128, 127));
        assert_eq!(default_storage_bounds(false, 8), (0, 255));
        assert_eq!(default_storage_bounds(true, 64), (i64::MIN, i64::MAX));
        assert_eq!(default_storage_bounds(false, 64), (0, -1));
        assert_eq!(default_storage_bounds(true, 0), (0, 0));
    }
}
