//! The attribute/type tables (SPEC.md §6.6): an offset section that gives
//! each entry's dialect, size and encoding kind, and the entries themselves,
//! decoded on first reference and cached.

use super::binary_reader::Reader;
use super::sections::Section;
use super::BytecodeReader;
use crate::error::{Error, ErrorKind, Position, Result};

use rmlir_format::bytecode::builtin_codes::attr as code;
use rmlir_format::*;

#[derive(Clone, Copy)]
pub struct Entry<'a> {
    pub dialect: usize,
    pub data: &'a [u8],
    pub offset: usize,
    pub custom: bool,
}

/// Entries between two checkpoints of [`Entries`].
const CHECKPOINT_EVERY: usize = 16;

/// The entries of one kind (attributes or types), compactly: a large file
/// has millions, and `info` must open it in a few megabytes (SPEC.md §6.6).
/// Entries are contiguous in the section and the offset section lists
/// their sizes in order, so only every 16th entry's start is kept (with
/// where its size is in the offset section); an entry's span is found by
/// adding up to 15 sizes from the checkpoint before it, read again from
/// the offset section (one byte each, mostly). Its dialect comes from the
/// group it was listed in.
#[derive(Clone)]
pub struct Entries<'a> {
    data: &'a [u8],
    base: usize,
    /// The offset section's bytes: the size varints are read from it again.
    sizes: &'a [u8],
    /// `(position of the size in sizes, offset in data)` of entries
    /// `0, 16, 32, …`.
    checkpoints: Checkpoints,
    len: usize,
    end: usize,
    /// `(index of the group's first entry, dialect, position of its first
    /// size in sizes)`, by index.
    groups: Vec<(usize, usize, usize)>,
}

/// Checkpoint pairs, as 32-bit numbers when the sections are under
/// 4 GiB (always, but for a file holding a huge elements attribute):
/// half the memory of a large file's table.
#[derive(Clone)]
enum Checkpoints {
    Small(Vec<[u32; 2]>),
    Large(Vec<[usize; 2]>),
}

impl Checkpoints {
    fn new(capacity: usize, max_value: usize) -> Self {
        if u32::try_from(max_value).is_ok() {
            Checkpoints::Small(Vec::with_capacity(capacity))
        } else {
            Checkpoints::Large(Vec::with_capacity(capacity))
        }
    }

    fn push(&mut self, pos: usize, offset: usize) {
        match self {
            Checkpoints::Small(v) => v.push([pos as u32, offset as u32]),
            Checkpoints::Large(v) => v.push([pos, offset]),
        }
    }

    fn get(&self, i: usize) -> (usize, usize) {
        match self {
            Checkpoints::Small(v) => (v[i][0] as usize, v[i][1] as usize),
            Checkpoints::Large(v) => (v[i][0], v[i][1]),
        }
    }
}

impl<'a> Entries<'a> {
    fn new(data: &'a [u8], base: usize, sizes: &'a [u8], capacity: usize) -> Self {
        Entries {
            data,
            base,
            sizes,
            checkpoints: Checkpoints::new(
                capacity.div_ceil(CHECKPOINT_EVERY),
                sizes.len().max(data.len()),
            ),
            len: 0,
            end: 0,
            groups: Vec::new(),
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    /// Records the next entry, whose size varint is at `pos` in `sizes`
    /// and whose data starts at `offset`.
    fn push(&mut self, pos: usize, offset: usize) {
        if self.len.is_multiple_of(CHECKPOINT_EVERY) {
            self.checkpoints.push(pos, offset);
        }
        self.len += 1;
    }

    /// Records `n` entries at once, none past the next checkpoint: their
    /// sizes are one-byte varints from `pos` on, and the first entry's
    /// data starts at `offset`.
    fn push_run(&mut self, pos: usize, offset: usize, n: usize) {
        let into_interval = self.len % CHECKPOINT_EVERY;
        debug_assert!(n <= CHECKPOINT_EVERY - into_interval);
        if into_interval == 0 {
            self.checkpoints.push(pos, offset);
        }
        self.len += n;
    }

    /// Records the entries from the next one on, sixteen at a time, while
    /// the next one is at a checkpoint, at least sixteen of the `left` are
    /// left and their sizes at `pos` in `sizes` are one-byte varints adding
    /// up to at most `room`; the first's data starts at `offset`. Returns
    /// how many it recorded and the total of their sizes.
    fn push_whole_runs(
        &mut self,
        pos: usize,
        offset: usize,
        left: u64,
        room: usize,
    ) -> (u64, usize) {
        if !self.len.is_multiple_of(CHECKPOINT_EVERY) {
            return (0, 0);
        }
        let (mut taken, mut total) = (0, 0);
        let runs = usize::try_from(left / CHECKPOINT_EVERY as u64).unwrap_or(usize::MAX);
        let words = self
            .sizes
            .get(pos..)
            .unwrap_or_default()
            .chunks_exact(16)
            .take(runs);
        for word in words {
            let Some(run) = whole_run_total(word) else {
                break;
            };
            if run > room - total {
                break;
            }
            self.checkpoints.push(pos + taken, offset + total);
            taken += CHECKPOINT_EVERY;
            total += run;
        }
        self.len += taken;
        (taken as u64, total)
    }

    pub fn get(&self, i: usize) -> Option<Entry<'a>> {
        if i >= self.len {
            return None;
        }
        let first = i - i % CHECKPOINT_EVERY;
        let mut c = self.cursor_at(first);
        // Within a group, the sizes from the checkpoint to entry `i` are
        // adjacent bytes; when each is a one-byte varint they are added
        // up at once (a lazy reader's lookups are scattered: `info` makes
        // one per listed symbol). Otherwise they are walked.
        let same_group = self
            .groups
            .get(c.group + 1)
            .is_none_or(|&(next_group, _, _)| next_group > i);
        let skipped = i - first;
        let added = same_group
            .then(|| leading_one_byte_sizes(self.sizes, c.pos, skipped))
            .filter(|&(k, _)| k == skipped);
        if let Some((k, total)) = added {
            c.pos += k;
            c.offset += total;
            c.next = i;
        } else {
            for _ in first..i {
                c.step(self.data, self.base, self.sizes, &self.groups);
            }
        }
        Some(c.step(self.data, self.base, self.sizes, &self.groups))
    }

    /// How many entries of each group whose dialect `wanted` marks are
    /// custom, as `(dialect, count)`: only those groups' sizes are read.
    fn custom_in_groups(&self, wanted: &[bool]) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for (g, &(first, dialect, pos)) in self.groups.iter().enumerate() {
            if !wanted.get(dialect).copied().unwrap_or(false) {
                continue;
            }
            let end = self.groups.get(g + 1).map_or(self.len, |n| n.0);
            let (mut at, mut custom) = (pos, 0);
            for _ in first..end {
                let (v, n) = rmlir_format::bytecode::varint::read_varint(&self.sizes[at..])
                    .expect("sizes were validated when the table was read");
                at += n;
                custom += (v & 1) as usize;
            }
            out.push((dialect, custom));
        }
        out
    }

    /// A cursor at entry `first`, a checkpoint below the table's length.
    fn cursor_at(&self, first: usize) -> Cursor {
        let (pos, offset) = self.checkpoints.get(first / CHECKPOINT_EVERY);
        Cursor {
            next: first,
            pos,
            offset,
            group: self.groups.partition_point(|&(f, _, _)| f <= first) - 1,
        }
    }
}

/// A position in the entries: the next entry's index, where its size is
/// in the offset section, where its data starts, and its group.
struct Cursor {
    next: usize,
    pos: usize,
    offset: usize,
    group: usize,
}

impl Cursor {
    /// The next entry; the caller knows there is one. A group's first
    /// entry has its size after the group's header.
    fn step<'a>(
        &mut self,
        data: &'a [u8],
        base: usize,
        sizes: &[u8],
        groups: &[(usize, usize, usize)],
    ) -> Entry<'a> {
        if let Some(&(_, _, pos)) = groups.get(self.group + 1).filter(|g| g.0 == self.next) {
            self.group += 1;
            self.pos = pos;
        }
        let (v, n) = rmlir_format::bytecode::varint::read_varint(&sizes[self.pos..])
            .expect("sizes were validated when the table was read");
        self.pos += n;
        let size = (v >> 1) as usize;
        let entry = Entry {
            dialect: groups[self.group].1,
            data: &data[self.offset..self.offset + size],
            offset: base + self.offset,
            custom: v & 1 != 0,
        };
        self.offset += size;
        self.next += 1;
        entry
    }
}

/// The entries of an [`Entries`] in order, each size read once (`get`
/// walks up to 15 sizes from a checkpoint). Owns what it reads, so the
/// reader it came from can be borrowed mutably meanwhile.
pub struct EntryIter<'a> {
    data: &'a [u8],
    base: usize,
    sizes: &'a [u8],
    groups: Vec<(usize, usize, usize)>,
    len: usize,
    cursor: Cursor,
}

impl<'a> Entries<'a> {
    /// The entries from `start` on (a multiple of 16, the checkpoint
    /// interval, or the end), in order.
    pub fn iter_from(&self, start: usize) -> EntryIter<'a> {
        debug_assert!(start.is_multiple_of(CHECKPOINT_EVERY) || start >= self.len);
        if start == 0 || start >= self.len {
            let mut it = self.iter();
            it.cursor.next = start.max(it.cursor.next);
            return it;
        }
        EntryIter {
            data: self.data,
            base: self.base,
            sizes: self.sizes,
            cursor: self.cursor_at(start),
            groups: self.groups.clone(),
            len: self.len,
        }
    }

    pub fn iter(&self) -> EntryIter<'a> {
        EntryIter {
            data: self.data,
            base: self.base,
            sizes: self.sizes,
            cursor: Cursor {
                next: 0,
                pos: self.groups.first().map_or(0, |g| g.2),
                offset: 0,
                group: 0,
            },
            groups: self.groups.clone(),
            len: self.len,
        }
    }
}

impl<'a> Iterator for EntryIter<'a> {
    type Item = (usize, Entry<'a>);

    fn next(&mut self) -> Option<Self::Item> {
        let k = self.cursor.next;
        if k >= self.len {
            return None;
        }
        let entry = self
            .cursor
            .step(self.data, self.base, self.sizes, &self.groups);
        Some((k, entry))
    }
}

/// How many of the (at most 16) size varints at `pos` in `bytes`, up to
/// `n`, are one-byte varints (low bit set) before the first longer one,
/// and the total of their sizes (each byte's top six bits; the next bit
/// is the custom flag). Sixteen bytes are checked and added as two 64-bit
/// words: the first byte without its low bit ends the run.
fn leading_one_byte_sizes(bytes: &[u8], pos: usize, n: usize) -> (usize, usize) {
    debug_assert!(n <= 16);
    let Some(word) = bytes.get(pos..pos + 16) else {
        // The section's last few bytes, one at a time.
        let run = bytes.get(pos..).unwrap_or_default();
        let k = run.iter().take(n).take_while(|&&b| b & 1 == 1).count();
        return (k, run[..k].iter().map(|&b| usize::from(b >> 2)).sum());
    };
    let (lo, hi) = two_words(word);
    // Bit 8i + 0 of `longer` is set when byte i is not a one-byte varint.
    let longer = (!lo & ONES) as u128 | (((!hi & ONES) as u128) << 64);
    let k = ((longer.trailing_zeros() / 8) as usize).min(n);
    let sizes = |x: u64, kept: usize| ((x & FIRST_BYTES[kept]) >> 2) & SIX_BITS;
    (
        k,
        bytes_total(sizes(lo, k.min(8)) + sizes(hi, k.saturating_sub(8))),
    )
}

/// The total of sixteen one-byte sizes, or `None` when a byte of `word`
/// is not a one-byte varint.
fn whole_run_total(word: &[u8]) -> Option<usize> {
    let (lo, hi) = two_words(word);
    (lo & hi & ONES == ONES).then(|| bytes_total(((lo >> 2) & SIX_BITS) + ((hi >> 2) & SIX_BITS)))
}

/// The sixteen bytes of `word` as two little-endian words.
fn two_words(word: &[u8]) -> (u64, u64) {
    let (lo, hi) = word.split_at(8);
    let word = |b: &[u8]| u64::from_le_bytes(b.try_into().expect("sixteen bytes"));
    (word(lo), word(hi))
}

/// The low bit of each byte of a word: a one-byte varint has it set.
const ONES: u64 = u64::from_le_bytes([1; 8]);

/// `FIRST_BYTES[j]`: the low `j` bytes of a word set.
const FIRST_BYTES: [u64; 9] = {
    let mut masks = [u64::MAX; 9];
    let mut j = 0;
    while j < 8 {
        masks[j] = (1u64 << (8 * j)) - 1;
        j += 1;
    }
    masks
};

const SIX_BITS: u64 = u64::from_le_bytes([0x3f; 8]);

/// The total of the eight bytes of `x`, each at most 126: pairs of bytes
/// are added into four 16-bit lanes (at most 252 each), then the lanes
/// into the top one by a multiplication (at most 1008, no carry out of a
/// lane).
fn bytes_total(x: u64) -> usize {
    const EVEN: u64 = u64::from_le_bytes([0xff, 0, 0xff, 0, 0xff, 0, 0xff, 0]);
    let lanes = (x & EVEN) + ((x >> 8) & EVEN);
    (lanes.wrapping_mul(0x0001_0001_0001_0001) >> 48) as usize
}

/// Cache slots hold `id + 1`, so that 0 means "not decoded yet" and the
/// caches are zeroed allocations: the pages of a large file's caches that
/// a lazy reader never writes are never touched (`info` on a 200 MB module
/// decodes a few percent of its attributes). Ids stay below `u32::MAX`
/// (the context asserts so).
pub(super) const NOT_DECODED: u32 = 0;

#[derive(Clone)]
pub struct AttrTypeTable<'a> {
    pub attrs: Entries<'a>,
    pub types: Entries<'a>,
    pub(super) attr_cache: Vec<u32>,
    /// One bit per attribute entry: decoded, and a location. An op's
    /// location reference is checked to be a location; with the bit the
    /// check reads this small array instead of the attribute, a cache miss
    /// per op in a large module (SPEC.md §6.6.1).
    pub(super) location_bits: Vec<u64>,
    /// The attribute entries the passes that parse ahead on several
    /// threads left undecoded, in table order (SPEC.md §6.6.1): the
    /// one-thread passes after them walk these instead of the table.
    pub(super) left_ahead: Option<Vec<(u32, Entry<'a>)>>,
    type_cache: Vec<u32>,
    depth: usize,
}

impl AttrTypeTable<'_> {
    /// For the dialects `wanted` marks, how many custom attribute and type
    /// entries each has, from the offset section alone (the groups of
    /// other dialects are not read).
    pub(super) fn custom_entries_of(&self, wanted: &[bool]) -> Vec<(usize, usize, usize)> {
        let mut out: Vec<(usize, usize, usize)> = Vec::new();
        for (is_type, entries) in [(false, &self.attrs), (true, &self.types)] {
            for (dialect, n) in entries.custom_in_groups(wanted) {
                let i = match out.iter().position(|e| e.0 == dialect) {
                    Some(i) => i,
                    None => {
                        out.push((dialect, 0, 0));
                        out.len() - 1
                    }
                };
                if is_type {
                    out[i].2 += n;
                } else {
                    out[i].1 += n;
                }
            }
        }
        out
    }

    /// The address ranges of the decoded-entry caches, for
    /// [`crate::prefault::populate_now`]. Addresses only.
    pub(super) fn cache_ranges(&self) -> [std::ops::Range<usize>; 3] {
        fn range<T>(v: &[T]) -> std::ops::Range<usize> {
            let start = v.as_ptr() as usize;
            start..start + std::mem::size_of_val(v)
        }
        [
            range(&self.attr_cache),
            range(&self.location_bits),
            range(&self.type_cache),
        ]
    }

    fn mark_location(&mut self, idx: usize) {
        if let Some(w) = self.location_bits.get_mut(idx / 64) {
            *w |= 1 << (idx % 64);
        }
    }

    /// Whether entry `idx` is known to be a decoded location.
    pub(super) fn known_location(&self, idx: u64) -> bool {
        let Ok(idx) = usize::try_from(idx) else {
            return false;
        };
        self.location_bits
            .get(idx / 64)
            .is_some_and(|w| w & (1 << (idx % 64)) != 0)
    }
}

impl<'a> AttrTypeTable<'a> {
    /// Reads the offset section `r` of the entries in `data`, whose groups
    /// name dialects below `num_dialects`.
    pub fn read(mut r: Reader<'a>, data: Section<'a>, num_dialects: usize) -> Result<Self> {
        let at = r.offset();
        let num_attrs = r.read_varint()?;
        let num_types = r.read_varint()?;
        // Every entry takes at least one byte (its size) in this section.
        r.check_count(
            num_attrs.saturating_add(num_types),
            1,
            "attribute and type",
            at,
        )?;
        let mut offset = 0usize;
        let mut read_group =
            |r: &mut Reader<'a>, total: u64, out: &mut Entries<'a>| -> Result<()> {
                while (out.len() as u64) < total {
                    let at = r.offset();
                    let d = r.read_varint()?;
                    if d as usize >= num_dialects {
                        return r.err_at(at, format!("invalid dialect index: {d}"));
                    }
                    let at = r.offset();
                    let count = r.read_varint()?;
                    if count > total - out.len() as u64 {
                        return r.err_at(
                            at,
                            format!("attribute/type group of {count} entries overruns the table"),
                        );
                    }
                    if count > 0 {
                        out.groups.push((out.len(), d as usize, r.position()));
                    }
                    let mut left = count;
                    while left > 0 {
                        // Most sizes are one-byte varints (low bit set):
                        // whole checkpoints' worth of them are added up
                        // sixteen at a time (`info` on an op-heavy file
                        // scans millions), else the one-byte sizes before
                        // the next checkpoint or the first longer size.
                        let room = data.data.len() - offset;
                        let (taken, sum) = out.push_whole_runs(r.position(), offset, left, room);
                        if taken > 0 {
                            r.skip(taken)?;
                            offset += sum;
                            out.end = offset;
                            left -= taken;
                            continue;
                        }
                        let pos = r.position();
                        let to_checkpoint = CHECKPOINT_EVERY - out.len() % CHECKPOINT_EVERY;
                        let n = to_checkpoint.min(usize::try_from(left).unwrap_or(usize::MAX));
                        let (k, sum) = leading_one_byte_sizes(r.all_bytes(), pos, n);
                        if k > 0 && sum <= room {
                            out.push_run(pos, offset, k);
                            r.skip(k as u64)?;
                            offset += sum;
                            out.end = offset;
                            left -= k as u64;
                            if k == n {
                                continue;
                            }
                        }
                        left -= 1;
                        let at = r.offset();
                        let pos = r.position();
                        let (size, _custom) = match r.all_bytes().get(pos) {
                            Some(&b) if b & 1 == 1 => {
                                r.skip(1)?;
                                (u64::from(b >> 2), false)
                            }
                            _ => r.read_varint_flag()?,
                        };
                        if size > (data.data.len() - offset) as u64 {
                            return r.err_at(
                                at,
                                "Attribute or Type entry offset points past the end of section",
                            );
                        }
                        out.push(pos, offset);
                        offset += size as usize;
                        out.end = offset;
                    }
                }
                Ok(())
            };
        let sizes = r.all_bytes();
        let mut attrs = Entries::new(data.data, data.offset, sizes, num_attrs as usize);
        let mut types = Entries::new(data.data, data.offset, sizes, num_types as usize);
        read_group(&mut r, num_attrs, &mut attrs)?;
        // The type entries follow the attribute entries.
        types.end = attrs.end;
        read_group(&mut r, num_types, &mut types)?;
        if !r.is_empty() {
            return r.err("unexpected trailing data in the Attribute/Type offset section");
        }
        // Bytes after the last entry are ignored, as upstream ignores them
        // (its own test files have some).
        Ok(AttrTypeTable {
            attr_cache: vec![NOT_DECODED; attrs.len()],
            location_bits: vec![0; attrs.len().div_ceil(64)],
            left_ahead: None,
            type_cache: vec![NOT_DECODED; types.len()],
            attrs,
            types,
            depth: 0,
        })
    }
}

/// The attribute entries not decoded by the passes ahead, in table order:
/// the list those passes `left`, or `all` the table's. Entries decoded
/// since are not left out: the caller skips them.
fn undecoded_attrs<'l, 'a: 'l>(
    left: Option<&'l [(u32, Entry<'a>)]>,
    all: EntryIter<'a>,
) -> Box<dyn Iterator<Item = (usize, Entry<'a>)> + 'l> {
    match left {
        Some(left) => Box::new(left.iter().map(|&(i, e)| (i as usize, e))),
        None => Box::new(all),
    }
}

impl<'a> BytecodeReader<'a> {
    /// The attribute with table index `idx`, read at `r`'s position for errors.
    pub(super) fn attr_ref(&mut self, r: &mut Reader<'a>) -> Result<AttrId> {
        let at = r.offset();
        let idx = r.read_varint()?;
        self.attr_at(idx, r, at)
    }

    pub(super) fn type_ref(&mut self, r: &mut Reader<'a>) -> Result<TypeId> {
        let at = r.offset();
        let idx = r.read_varint()?;
        self.type_at(idx, r, at)
    }

    pub(super) fn attr_at(&mut self, idx: u64, r: &Reader<'a>, at: usize) -> Result<AttrId> {
        let Some(&cached) = self.table.attr_cache.get(idx as usize) else {
            return r.err_at(at, format!("invalid Attribute index: {idx}"));
        };
        if cached != NOT_DECODED {
            return Ok(AttrId(cached - 1));
        }
        let entry = self.table.attrs.get(idx as usize).expect("index checked");
        self.decode_attr_at(idx as usize, entry, r, at)
    }

    /// Decodes attribute entry `idx` (not decoded yet), whose bytes are
    /// `entry`, and caches it.
    fn decode_attr_at(
        &mut self,
        idx: usize,
        entry: Entry<'a>,
        r: &Reader<'a>,
        at: usize,
    ) -> Result<AttrId> {
        self.enter_entry(r, at)?;
        let res = self.decode_attr_entry(entry);
        self.table.depth -= 1;
        let a = res?;
        self.table.attr_cache[idx] = a.0 + 1;
        if self.module.ctx.attr(a).is_location() {
            self.table.mark_location(idx);
        }
        Ok(a)
    }

    /// Decodes the file-line-column, name and call-site locations of the
    /// attribute table ahead of their uses, in table order, for a caller
    /// that reads everything (SPEC.md §6.6.1). Each batch is hashed,
    /// prefetching the context's index slots, before any of it is interned:
    /// one location per op made interning a chain of cache misses. An entry
    /// that does not decode is left for its use to report, with the
    /// position it has there.
    pub(super) fn predecode_locations(&mut self) {
        const BATCH: usize = 16;
        let mut batch: Vec<(usize, HashedAttr)> = Vec::with_capacity(BATCH);
        let left = self.table.left_ahead.take();
        for (idx, entry) in undecoded_attrs(left.as_deref(), self.table.attrs.iter()) {
            if self.table.attr_cache[idx] != NOT_DECODED {
                continue;
            }
            let Some(mut r) = self.builtin_reader(&entry) else {
                continue;
            };
            let at = r.offset();
            let c = match r.read_varint() {
                Ok(
                    c @ (code::FILE_LINE_COL_LOC
                    | code::FILE_LINE_COL_RANGE
                    | code::NAME_LOC
                    | code::CALL_SITE_LOC),
                ) => c,
                _ => continue,
            };
            if self.enter_entry(&r, at).is_err() {
                continue;
            }
            let data = self.plain_location(c, &mut r);
            self.table.depth -= 1;
            let data = match data {
                Ok(data) if r.is_empty() => data,
                _ => continue,
            };
            batch.push((idx, self.module.ctx.hash_attr(data)));
            if batch.len() == BATCH {
                self.intern_batch(&mut batch);
            }
        }
        self.intern_batch(&mut batch);
        self.table.left_ahead = left;
    }

    /// Decodes every type and attribute entry not decoded yet, in table
    /// order, for a reader about to read all bodies on several threads
    /// (SPEC.md §6.7.6): their forks of the context then find nearly every
    /// attribute there instead of each interning its own copy. An entry
    /// that does not decode is left for its use to report.
    pub(super) fn predecode_all(&mut self) {
        let r = Reader::new(&[], 0, "AttrType");
        for i in 0..self.table.types.len() {
            let _ = self.type_at(i as u64, &r, 0);
        }
        // In table order with the iterator (a lookup by index walks up to
        // 15 sizes from its checkpoint), or the passes ahead's list.
        let left = self.table.left_ahead.take();
        for (i, entry) in undecoded_attrs(left.as_deref(), self.table.attrs.iter()) {
            if self.table.attr_cache[i] == NOT_DECODED {
                let _ = self.decode_attr_at(i, entry, &r, 0);
            }
        }
    }

    /// Forgets the decoded entries whose ids are not below `attrs` and
    /// `types`: they were interned in a context that was dropped.
    pub(super) fn forget_decoded_from(&mut self, attrs: usize, types: usize) {
        let forget = |cache: &mut Vec<u32>, limit: usize| {
            for c in cache.iter_mut().filter(|c| **c as usize > limit) {
                *c = NOT_DECODED;
            }
        };
        forget(&mut self.table.attr_cache, attrs);
        forget(&mut self.table.type_cache, types);
        self.file_names.retain(|a, _| (a.0 as usize) < attrs);
    }

    fn intern_batch(&mut self, batch: &mut Vec<(usize, HashedAttr)>) {
        for (idx, a) in batch.drain(..) {
            self.table.attr_cache[idx] = self.module.ctx.intern_hashed(a).0 + 1;
            self.table.mark_location(idx);
        }
    }

    pub(super) fn type_at(&mut self, idx: u64, r: &Reader<'a>, at: usize) -> Result<TypeId> {
        let Some(&cached) = self.table.type_cache.get(idx as usize) else {
            return r.err_at(at, format!("invalid Type index: {idx}"));
        };
        if cached != NOT_DECODED {
            return Ok(TypeId(cached - 1));
        }
        let entry = self.table.types.get(idx as usize).expect("index checked");
        self.enter_entry(r, at)?;
        let res = self.decode_type_entry(entry);
        self.table.depth -= 1;
        let t = res?;
        self.table.type_cache[idx as usize] = t.0 + 1;
        Ok(t)
    }

    /// The limits for an entry in textual form: the attribute/type depth
    /// left below the entries being decoded.
    fn text_limits(&self) -> crate::Limits {
        crate::Limits {
            max_attr_type_depth: self
                .limits
                .max_attr_type_depth
                .saturating_sub(self.table.depth),
            ..self.limits
        }
    }

    fn enter_entry(&mut self, r: &Reader<'a>, at: usize) -> Result<()> {
        let max = self.limits.max_attr_type_depth;
        if self.table.depth >= max {
            return Err(r.error_at(
                at,
                ErrorKind::Limit,
                format!("attribute/type nesting deeper than the limit of {max}"),
            ));
        }
        self.table.depth += 1;
        self.stats.entries_decoded += 1;
        Ok(())
    }

    /// A reader over one entry's bytes, its counts limited as configured.
    fn entry_reader(&self, entry: &Entry<'a>) -> Reader<'a> {
        Reader::new(entry.data, entry.offset, "AttrType").limited(self.limits.max_count)
    }

    /// Reads an entry of the attribute table with the builtin dialect's
    /// encoding, without decoding or caching it; `None` when the entry is
    /// not builtin or not in the binary encoding.
    pub(super) fn builtin_entry(&self, idx: u64) -> Option<Reader<'a>> {
        let entry = self.table.attrs.get(usize::try_from(idx).ok()?)?;
        self.builtin_reader(&entry)
    }

    /// `builtin_entry` of an entry in hand.
    fn builtin_reader(&self, entry: &Entry<'a>) -> Option<Reader<'a>> {
        if !entry.custom || self.dialect_name(entry) != b"builtin" {
            return None;
        }
        Some(self.entry_reader(entry))
    }

    fn dialect_name(&self, entry: &Entry<'a>) -> &'a [u8] {
        self.dialects.dialects[entry.dialect].name
    }

    fn decode_attr_entry(&mut self, entry: Entry<'a>) -> Result<AttrId> {
        let mut r = self.entry_reader(&entry);
        if !entry.custom {
            let text = r.read_cstr()?;
            if !r.is_empty() {
                return r.err("unexpected trailing bytes after Attribute entry");
            }
            let limits = self.text_limits();
            return crate::text::parse_attr_in(&mut self.module, text, limits, self.host)
                .map_err(|e| wrap_text_error(e, "Attribute", entry.offset));
        }
        let a = match self.dialect_name(&entry) {
            b"builtin" => self.read_builtin_attr(&mut r)?,
            other => match self.hook(other) {
                Some(h) => match h.declared_encodings_in(self.host.mlir_major) {
                    Some(spec) => {
                        super::dialect_encodings::read_declared_attr(self, h.as_ref(), spec, &mut r)?
                    }
                    None => self.hook_attr(other, &mut r, entry.offset)?,
                },
                None if self.skip_unknown => {
                    *self.undecoded.attrs.entry(other.to_vec()).or_default() += 1;
                    return Ok(self.module.ctx.intern_attr(AttrData::Opaque(Box::new(
                        rmlir_format::OpaqueAttr {
                            dialect: String::from_utf8_lossy(other).as_ref().into(),
                            data: format!("<custom entry at {:#x} not decoded>", entry.offset)
                                .into_bytes()
                                .into(),
                            ty: None,
                        },
                    ))));
                }
                None => {
                    return r.err(format!(
                    "dialect '{}' does not implement the bytecode interface: we have no custom attribute encodings for it (encodings a dialect declares in its .td are loaded with --dialect-encodings FILE: README, \"Bring your own dialect\"; `info` and `verify` read the rest of the file)",
                    String::from_utf8_lossy(other)
                ))
                }
            },
        };
        if !r.is_empty() {
            return r.err("unexpected trailing bytes after Attribute entry");
        }
        Ok(a)
    }

    fn decode_type_entry(&mut self, entry: Entry<'a>) -> Result<TypeId> {
        let mut r = self.entry_reader(&entry);
        if !entry.custom {
            let text = r.read_cstr()?;
            if !r.is_empty() {
                return r.err("unexpected trailing bytes after Type entry");
            }
            let limits = self.text_limits();
            return crate::text::parse_type_in(&mut self.module, text, limits, self.host)
                .map_err(|e| wrap_text_error(e, "Type", entry.offset));
        }
        let t = match self.dialect_name(&entry) {
            b"builtin" => self.read_builtin_type(&mut r)?,
            other => match self.hook(other) {
                Some(h) => match h.declared_encodings_in(self.host.mlir_major) {
                    Some(spec) => {
                        super::dialect_encodings::read_declared_type(self, h.as_ref(), spec, &mut r)?
                    }
                    None => self.hook_type(other, &mut r, entry.offset)?,
                },
                None if self.skip_unknown => {
                    *self.undecoded.types.entry(other.to_vec()).or_default() += 1;
                    return Ok(self.module.ctx.intern_type(TypeData::Opaque {
                        dialect: String::from_utf8_lossy(other).as_ref().into(),
                        data: format!("<custom entry at {:#x} not decoded>", entry.offset)
                            .into_bytes()
                            .into(),
                    }));
                }
                None => {
                    return r.err(format!(
                        "dialect '{}' does not implement the bytecode interface: we have no custom type encodings for it (encodings a dialect declares in its .td are loaded with --dialect-encodings FILE: README, \"Bring your own dialect\"; `info` and `verify` read the rest of the file)",
                        String::from_utf8_lossy(other)
                    ))
                }
            },
        };
        if !r.is_empty() {
            return r.err("unexpected trailing bytes after Type entry");
        }
        Ok(t)
    }
}

impl<'a> BytecodeReader<'a> {
    /// A custom attribute entry read by its dialect's hook (SPEC.md §9).
    fn hook_attr(&mut self, dialect: &[u8], r: &mut Reader<'a>, at: usize) -> Result<AttrId> {
        self.hook_entry(dialect, r, at, "attribute", |h, hr| h.read_attribute(hr))
    }

    fn hook_type(&mut self, dialect: &[u8], r: &mut Reader<'a>, at: usize) -> Result<TypeId> {
        self.hook_entry(dialect, r, at, "type", |h, hr| h.read_type(hr))
    }

    fn hook_entry<T>(
        &mut self,
        dialect: &[u8],
        r: &mut Reader<'a>,
        at: usize,
        what: &str,
        read: impl FnOnce(
            &dyn rmlir_format::dialect_hooks::BytecodeDialect,
            &mut super::dialect_hooks::HookReader<'_, 'a>,
        ) -> rmlir_format::dialect_hooks::HookResult<Option<T>>,
    ) -> Result<T> {
        let hook = self.hook(dialect).expect("checked by the caller");
        let mut hr = super::dialect_hooks::HookReader {
            br: self,
            r,
            error: None,
        };
        match read(hook.as_ref(), &mut hr) {
            Ok(Some(v)) => Ok(v),
            Ok(None) => Err(hr.r.error_at(
                at,
                ErrorKind::Semantic,
                format!(
                    "dialect '{}' does not recognise this custom {what} encoding",
                    String::from_utf8_lossy(dialect)
                ),
            )),
            Err(e) => Err(hr.into_error(e, at)),
        }
    }
}

/// A text-fallback entry that failed to parse: report it at the entry.
fn wrap_text_error(e: Error, what: &str, offset: usize) -> Error {
    let detail = match e.position() {
        Position::Text { col, .. } => format!("{} (column {col} of the entry text)", e.message()),
        _ => e.message().to_string(),
    };
    Error::new(
        e.kind(),
        format!("invalid textual {what} entry: {detail}"),
        Position::Bytecode {
            section: "AttrType",
            offset: offset as u64,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::AttrTypeTable;
    use super::{leading_one_byte_sizes, whole_run_total};
    use crate::bytecode::binary_reader::Reader;
    use crate::bytecode::sections::Section;
    use rmlir_format::bytecode::varint::write_varint;
    use rmlir_format::bytecode::SectionId;

    /// `iter` gives what `get` gives for every entry, and `iter_from` a
    /// checkpoint what `iter` gives from there, across checkpoints,
    /// runs of one-byte sizes, multi-byte sizes and groups of different
    /// dialects (a group may start anywhere between checkpoints).
    #[test]
    fn iteration_agrees_with_lookup() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut rand = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..50 {
            let n_attrs = (rand() % 200) as usize;
            let mut offsets = Vec::new();
            write_varint(&mut offsets, n_attrs as u64);
            write_varint(&mut offsets, 0);
            let mut total = 0u64;
            let mut left = n_attrs;
            while left > 0 {
                let count = 1 + (rand() as usize % left.min(40));
                write_varint(&mut offsets, rand() % 3);
                write_varint(&mut offsets, count as u64);
                for _ in 0..count {
                    let size = if rand() % 4 == 0 {
                        rand() % 500
                    } else {
                        rand() % 60
                    };
                    write_varint(&mut offsets, (size << 1) | (rand() & 1));
                    total += size;
                }
                left -= count;
            }
            let data: Vec<u8> = (0..total).map(|i| i as u8).collect();
            let section = Section {
                id: SectionId::AttrType,
                data: &data,
                offset: 1000,
                alignment: 1,
            };
            let r = Reader::new(&offsets, 10, "AttrTypeOffset");
            let table = AttrTypeTable::read(r, section, 3).expect("a valid table");
            let mut seen = 0;
            for (i, e) in table.attrs.iter() {
                let g = table.attrs.get(i).expect("in range");
                assert_eq!(
                    (e.dialect, e.data, e.offset, e.custom),
                    (g.dialect, g.data, g.offset, g.custom),
                    "entry {i}"
                );
                assert_eq!(i, seen);
                seen += 1;
            }
            assert_eq!(seen, n_attrs);
            // Iteration from every checkpoint (and from the end) agrees.
            for start in (0..=n_attrs + 16).step_by(16) {
                let from: Vec<_> = table
                    .attrs
                    .iter_from(start)
                    .map(|(i, e)| (i, e.data))
                    .collect();
                let rest: Vec<_> = table
                    .attrs
                    .iter()
                    .skip(start)
                    .map(|(i, e)| (i, e.data))
                    .collect();
                assert_eq!(from, rest, "from entry {start}");
            }
        }
    }

    /// The one-byte sizes before the first longer one, as counted and
    /// added one byte at a time: in a 16-byte word, and in the last few
    /// bytes of a section, for every limit.
    #[test]
    fn one_byte_sizes_are_added_like_one_at_a_time() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut rand = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let by_bytes = |run: &[u8], n: usize| {
            let mut total = 0;
            for (k, &b) in run.iter().take(n).enumerate() {
                if b & 1 == 0 {
                    return (k, total);
                }
                total += usize::from(b >> 2);
            }
            (n.min(run.len()), total)
        };
        for _ in 0..20_000 {
            let len = 1 + (rand() % 24) as usize;
            let mut bytes: Vec<u8> = (0..len).map(|_| rand() as u8 | 1).collect();
            // None, one or two longer sizes (low bit clear) anywhere.
            for _ in 0..rand() % 3 {
                let at = (rand() % len as u64) as usize;
                bytes[at] &= !1;
            }
            let pos = (rand() % len as u64) as usize;
            for n in 0..=16 {
                assert_eq!(
                    leading_one_byte_sizes(&bytes, pos, n),
                    by_bytes(&bytes[pos..], n),
                    "{bytes:?} from {pos}, at most {n}"
                );
            }
            if let Some(word) = bytes.get(pos..pos + 16) {
                let (k, total) = by_bytes(word, 16);
                assert_eq!(
                    whole_run_total(word),
                    (k == 16).then_some(total),
                    "{word:?}"
                );
            }
        }
        assert_eq!(leading_one_byte_sizes(&[0xff; 16], 0, 16), (16, 63 * 16));
        assert_eq!(leading_one_byte_sizes(&[0xff; 16], 0, 5), (5, 63 * 5));
        assert_eq!(leading_one_byte_sizes(&[1; 15], 0, 16), (15, 0));
    }
}
