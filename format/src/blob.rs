//! Resource blob bytes that are either owned or borrowed from a shared
//! buffer such as a memory-mapped file (SPEC.md §2.7), so reading a large
//! bytecode file never copies its weights.

use std::fmt;
use std::ops::{Deref, Range};
use std::sync::Arc;

/// A shared, immutable byte buffer (a `Vec<u8>`, a memory map, ...).
pub type SharedBytes = Arc<dyn AsRef<[u8]> + Send + Sync>;

/// A resource blob's bytes: owned, or a range of a [`SharedBytes`] buffer
/// kept alive by a reference count.
#[derive(Clone)]
pub struct BlobData(Inner);

#[derive(Clone)]
enum Inner {
    Owned(Arc<[u8]>),
    Shared {
        owner: SharedBytes,
        range: Range<usize>,
    },
}

impl BlobData {
    /// A view of `range` inside `owner`, without copying.
    ///
    /// Panics if `range` is outside `owner` (a caller bug, not bad input).
    pub fn shared(owner: SharedBytes, range: Range<usize>) -> Self {
        assert!(range.end <= (*owner).as_ref().len() && range.start <= range.end);
        BlobData(Inner::Shared { owner, range })
    }

    /// Whether the bytes are borrowed from a shared buffer.
    pub fn is_shared(&self) -> bool {
        matches!(self.0, Inner::Shared { .. })
    }
}

impl Deref for BlobData {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match &self.0 {
            Inner::Owned(v) => v,
            Inner::Shared { owner, range } => &(**owner).as_ref()[range.clone()],
        }
    }
}

impl From<Vec<u8>> for BlobData {
    fn from(v: Vec<u8>) -> Self {
        BlobData(Inner::Owned(v.into()))
    }
}

impl From<&[u8]> for BlobData {
    fn from(v: &[u8]) -> Self {
        BlobData(Inner::Owned(v.into()))
    }
}

impl PartialEq for BlobData {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl Eq for BlobData {}

impl fmt::Debug for BlobData {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "BlobData({} bytes{})",
            self.len(),
            if self.is_shared() { ", shared" } else { "" }
        )
    }
}
