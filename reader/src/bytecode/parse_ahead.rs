//! The attribute table parsed on several threads ahead of the bodies
//! (SPEC.md §6.6.1). A full read decodes the table in table order before
//! the bodies; reading an entry and hashing the result needs nothing from
//! the context, so helper threads parse and hash runs of the table while
//! this thread interns the runs in order (prefetching a batch's index
//! slots first, §2.1) and parses runs itself when the next one is not
//! ready.
//!
//! The first pass takes the plain file locations: a builtin
//! `FileLineColLoc` or `FileLineColRange` whose file is a builtin
//! `StringAttr` entry without a type (a module has about one per op). The
//! second takes what can be built from what the first decoded and the
//! types: name, call-site and fused locations, strings and numbers. It
//! lists the entries it leaves, and the one-thread passes that follow
//! (`predecode_locations`, `predecode_all`) decode those with the ordinary
//! decoder and its errors. Anything unusual, and any entry that does not
//! parse, is left to them.

use super::attr_type_section::{Entries, Entry, NOT_DECODED};
use super::binary_reader::Reader;
use super::builtin_attrs::{float_bits, integer_value};
use super::BytecodeReader;
use rmlir_format::bytecode::builtin_codes::attr as code;
use rmlir_format::bytecode::varint::read_varint;
use rmlir_format::{AttrData, AttrId, Context, FileName, HashedAttr, TypeData, TypeId};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Entries per run (a multiple of the table's checkpoint interval).
pub(super) const RUN: usize = 4096;

/// Below this many attribute entries the table is parsed on one thread.
pub(super) const PARALLEL_MIN_ENTRIES: usize = 4 * RUN;

/// Locations interned together: their index slots are prefetched first.
const BATCH: usize = 16;

/// Parsed locations of one run: (entry index, hashed attribute).
type Parsed = Vec<(u32, HashedAttr)>;

impl BytecodeReader<'_> {
    /// Decodes the plain file locations of the attribute table, then what
    /// the second pass takes, with `threads` threads parsing runs of `run`
    /// entries (a multiple of 16), if the table has `min_entries` or more
    /// (see the module's documentation).
    pub(super) fn parse_table_ahead(&mut self, threads: usize, run: usize, min_entries: usize) {
        let n = self.table.attrs.len();
        let Some(builtin) = self
            .dialects
            .dialects
            .iter()
            .position(|d| d.name == b"builtin")
        else {
            return;
        };
        // A location and its file name nest two entries deep.
        if threads < 2 || n < min_entries || self.limits.max_attr_type_depth < 2 {
            return;
        }
        assert!(
            run > 0 && run.is_multiple_of(16),
            "runs start at checkpoints"
        );
        let parser = Parser {
            attrs: &self.table.attrs,
            strings: &self.strings,
            builtin,
            run,
        };
        let ctx = &mut self.module.ctx;
        let mut table = Decoded {
            cache: &mut self.table.attr_cache,
            location_bits: &mut self.table.location_bits,
            plain: vec![0; n.div_ceil(64)],
            count: 0,
        };
        in_order(threads, n.div_ceil(run), &|k| parser.run(k), |run| {
            table.intern(ctx, run)
        });
        self.stats.entries_decoded += table.count;
        self.stats.parsed_ahead += table.count;
        let plain = table.plain;
        if self.limits.max_attr_type_depth >= 3 {
            let types = self.decoded_types();
            self.predecode_second_pass(threads, run, builtin, &plain, &types);
        }
    }

    /// Every type entry decoded (an entry that does not decode is left
    /// for its use to report), with its data, by entry: what the second
    /// pass's helpers need to know of the types.
    fn decoded_types(&mut self) -> Vec<Option<(TypeId, TypeData)>> {
        let r = Reader::new(&[], 0, "AttrType");
        (0..self.table.types.len())
            .map(|i| {
                let t = self.type_at(i as u64, &r, 0).ok()?;
                Some((t, self.module.ctx.ty(t).clone()))
            })
            .collect()
    }

    /// The second pass (SPEC.md §6.6.1): name and call-site locations
    /// whose children are locations decoded already, fused locations
    /// without metadata all of whose members are plain file locations
    /// (`plain`, by entry), and strings, integers and floats (of the
    /// decoded `types`, by entry), parsed and hashed on `threads` threads
    /// and interned here in table order. The helpers read the
    /// decoded-entry cache as the first pass left it; what this thread
    /// interns is written to it when they are done. The entries it leaves
    /// undecoded are listed, in order, for the one-thread passes
    /// (`AttrTypeTable::left_ahead`).
    fn predecode_second_pass(
        &mut self,
        threads: usize,
        run: usize,
        builtin: usize,
        plain: &[u64],
        types: &[Option<(TypeId, TypeData)>],
    ) {
        let n = self.table.attrs.len();
        let parser = SecondPass {
            first: Parser {
                attrs: &self.table.attrs,
                strings: &self.strings,
                builtin,
                run,
            },
            cache: &self.table.attr_cache,
            locations: &self.table.location_bits,
            plain,
            types,
            max_count: self.limits.max_count,
        };
        let ctx = &mut self.module.ctx;
        let mut decoded: Vec<(u32, AttrId, bool)> = Vec::new();
        let mut left: Vec<(u32, Entry<'_>)> = Vec::new();
        let mut batch: Vec<(u32, Built)> = Vec::with_capacity(BATCH);
        in_order(threads, n.div_ceil(run), &|k| parser.run(k), |run| {
            left.extend(run.left);
            let mut run = run.taken.into_iter().peekable();
            while run.peek().is_some() {
                batch.extend(run.by_ref().take(BATCH));
                for (_, b) in &batch {
                    if let Built::New(a, _) = b {
                        ctx.prefetch(a);
                    }
                }
                decoded.extend(batch.drain(..).map(|(idx, b)| match b {
                    Built::Same(id) => (idx, id, true),
                    Built::New(a, location) => (idx, ctx.intern_hashed(a), location),
                }));
            }
        });
        self.stats.entries_decoded += decoded.len();
        self.stats.parsed_ahead += decoded.len();
        for (idx, id, location) in decoded {
            self.table.attr_cache[idx as usize] = id.0 + 1;
            if location {
                self.table.location_bits[idx as usize / 64] |= 1 << (idx % 64);
            }
        }
        self.table.left_ahead = Some(left);
    }
}

/// Runs `parse(k)` for `k` in `0..runs` on `threads` threads, this one
/// included, and hands the results to `consume` on this thread in order
/// of `k`. This thread parses a run itself when the next one is not
/// ready.
fn in_order<T: Send>(
    threads: usize,
    runs: usize,
    parse: &(dyn Fn(usize) -> T + Sync),
    mut consume: impl FnMut(T),
) {
    let parsed: Vec<Mutex<Option<T>>> = (0..runs).map(|_| Mutex::new(None)).collect();
    let next = AtomicUsize::new(0);
    let claim = || Some(next.fetch_add(1, Ordering::Relaxed)).filter(|&k| k < runs);
    std::thread::scope(|s| {
        let helpers: Vec<_> = (1..threads)
            .map(|_| {
                s.spawn(|| {
                    while let Some(k) = claim() {
                        let run = parse(k);
                        *parsed[k].lock().expect("no thread panics holding it") = Some(run);
                    }
                })
            })
            .collect();
        for k in 0..runs {
            let run = loop {
                if let Some(run) = parsed[k].lock().expect("no panics").take() {
                    break run;
                }
                match claim() {
                    Some(c) if c == k => break parse(c),
                    Some(c) => *parsed[c].lock().expect("no panics") = Some(parse(c)),
                    // Run k is being parsed by a helper; were they all
                    // gone without it (a panic, re-raised when the
                    // scope ends), it is parsed here.
                    None if helpers.iter().all(|h| h.is_finished()) => {
                        match parsed[k].lock().expect("no panics").take() {
                            Some(run) => break run,
                            None => break parse(k),
                        }
                    }
                    None => std::thread::yield_now(),
                }
            };
            consume(run);
        }
        // Joined, not left to the scope (which waits for the closures
        // only, while the threads may still be exiting).
        for h in helpers {
            if let Err(panic) = h.join() {
                std::panic::resume_unwind(panic);
            }
        }
    });
}

/// Where the interned locations are recorded: the table's cache of
/// decoded entries and its location bits.
struct Decoded<'t> {
    cache: &'t mut [u32],
    location_bits: &'t mut [u64],
    /// The entries parsed as plain file locations, whatever decoded them.
    plain: Vec<u64>,
    count: usize,
}

impl Decoded<'_> {
    /// Interns a run's locations in order, a batch's slots prefetched
    /// before any of it is interned. An entry decoded meanwhile (by the
    /// top-level op's read) keeps its id.
    fn intern(&mut self, ctx: &mut Context, run: Parsed) {
        let mut run = run.into_iter().peekable();
        let mut batch: Vec<(u32, HashedAttr)> = Vec::with_capacity(BATCH);
        while run.peek().is_some() {
            batch.extend(run.by_ref().take(BATCH));
            for (_, a) in &batch {
                ctx.prefetch(a);
            }
            for (idx, a) in batch.drain(..) {
                let idx = idx as usize;
                self.plain[idx / 64] |= 1 << (idx % 64);
                if self.cache[idx] != NOT_DECODED {
                    continue;
                }
                self.cache[idx] = ctx.intern_hashed(a).0 + 1;
                self.location_bits[idx / 64] |= 1 << (idx % 64);
                self.count += 1;
            }
        }
    }
}

/// What the parsing threads read: the table and the string section.
struct Parser<'t, 'a> {
    attrs: &'t Entries<'a>,
    strings: &'t [&'a [u8]],
    /// The builtin dialect's index.
    builtin: usize,
    /// Entries per run.
    run: usize,
}

impl Parser<'_, '_> {
    /// The plain file locations of run `k`, parsed and hashed.
    fn run(&self, k: usize) -> Parsed {
        let mut out = Vec::new();
        // The few file names of a run, by their entry: one allocation each.
        let mut files: Vec<(u64, FileName)> = Vec::new();
        for (idx, entry) in self.attrs.iter_from(k * self.run).take(self.run) {
            if !entry.custom || entry.dialect != self.builtin {
                continue;
            }
            if let Some(a) = self.location(entry.data, &mut files) {
                out.push((idx as u32, Context::hash_detached(a)));
            }
        }
        out
    }

    /// A builtin `FileLineColLoc` or `FileLineColRange` entry whose file
    /// is a plain string entry; `None` for anything else.
    fn location(&self, data: &[u8], files: &mut Vec<(u64, FileName)>) -> Option<AttrData> {
        let mut r = Bytes(data);
        let c = r.varint()?;
        if c != code::FILE_LINE_COL_LOC && c != code::FILE_LINE_COL_RANGE {
            return None;
        }
        let file_idx = r.varint()?;
        let file = match files.iter().find(|(i, _)| *i == file_idx) {
            Some((_, f)) => f.clone(),
            None => {
                let f = FileName::from(self.string_entry(file_idx)?);
                files.push((file_idx, f.clone()));
                f
            }
        };
        let a = if c == code::FILE_LINE_COL_LOC {
            let line = r.u32()?;
            let col = r.u32()?;
            AttrData::FileLineCol { file, line, col }
        } else {
            let n = r.varint()?;
            if n > 4 {
                return None;
            }
            let mut v = [0u32; 4];
            for slot in v.iter_mut().take(n as usize) {
                *slot = r.u32()?;
            }
            super::builtin_attrs::file_line_col_range(file, n as usize, v)
        };
        r.0.is_empty().then_some(a)
    }

    /// The bytes of attribute entry `idx` when it is a builtin
    /// `StringAttr` without a type.
    fn string_entry(&self, idx: u64) -> Option<&[u8]> {
        let entry = self.attrs.get(usize::try_from(idx).ok()?)?;
        if !entry.custom || entry.dialect != self.builtin {
            return None;
        }
        let mut r = Bytes(entry.data);
        if r.varint()? != code::STRING {
            return None;
        }
        let s = self.strings.get(usize::try_from(r.varint()?).ok()?)?;
        r.0.is_empty().then_some(*s)
    }
}

/// An attribute of the second pass, parsed and hashed by a helper.
enum Built {
    /// A fused location of one distinct member is that member.
    Same(AttrId),
    /// A new attribute, and whether it is a location.
    New(HashedAttr, bool),
}

/// One run of the second pass: the attributes taken, and the entries
/// left undecoded.
#[derive(Default)]
struct SecondRun<'a> {
    taken: Vec<(u32, Built)>,
    left: Vec<(u32, Entry<'a>)>,
}

/// What the second pass's parsing threads read: the first pass's parser,
/// the decoded-entry cache and the location bits as that pass left them,
/// which entries it parsed, and the decoded types.
struct SecondPass<'t, 'a> {
    first: Parser<'t, 'a>,
    cache: &'t [u32],
    locations: &'t [u64],
    plain: &'t [u64],
    types: &'t [Option<(TypeId, TypeData)>],
    /// The limit on counts read from an entry (`Limits::max_count`).
    max_count: usize,
}

fn bit(bits: &[u64], idx: usize) -> bool {
    bits.get(idx / 64)
        .is_some_and(|w| w & (1 << (idx % 64)) != 0)
}

impl<'a> SecondPass<'_, 'a> {
    /// The attributes of run `k` this pass takes, parsed and hashed, and
    /// the entries it leaves undecoded.
    fn run(&self, k: usize) -> SecondRun<'a> {
        let first = &self.first;
        let mut out = SecondRun::default();
        for (idx, entry) in first.attrs.iter_from(k * first.run).take(first.run) {
            if self.cache[idx] != NOT_DECODED {
                continue;
            }
            let built = (entry.custom && entry.dialect == first.builtin)
                .then(|| self.attr(entry.data))
                .flatten();
            match built {
                Some(b) => out.taken.push((idx as u32, b)),
                None => out.left.push((idx as u32, entry)),
            }
        }
        out
    }

    /// A name or call-site location whose children are decoded
    /// locations, a fused location without metadata whose members are
    /// plain file locations, or a string, integer or float attribute of a
    /// decoded type; `None` for anything else and for anything the
    /// ordinary decoder would refuse. Each is built as that decoder builds
    /// it: the fused location as `Context::fused_loc` (members in order,
    /// repeated ones dropped, a single one standing for the whole), the
    /// numbers by the decoder's own functions.
    fn attr(&self, data: &[u8]) -> Option<Built> {
        let mut r = Bytes(data);
        let (a, location) = match r.varint()? {
            code::NAME_LOC => {
                let name = self.first.string_entry(r.varint()?)?;
                let child = self.decoded(r.varint()?, self.locations)?;
                let name = name.into();
                (AttrData::NameLoc { name, child }, true)
            }
            code::CALL_SITE_LOC => {
                let callee = self.decoded(r.varint()?, self.locations)?;
                let caller = self.decoded(r.varint()?, self.locations)?;
                (AttrData::CallSiteLoc { callee, caller }, true)
            }
            code::FUSED_LOC => {
                let n = r.varint()?;
                // Each member takes a byte at least.
                if n == 0 || n > r.0.len() as u64 {
                    return None;
                }
                let mut members: Vec<AttrId> = Vec::with_capacity(n as usize);
                for _ in 0..n {
                    let m = self.decoded(r.varint()?, self.plain)?;
                    if !members.contains(&m) {
                        members.push(m);
                    }
                }
                if members.len() == 1 {
                    return r.0.is_empty().then_some(Built::Same(members[0]));
                }
                let locations = members;
                (
                    AttrData::FusedLoc {
                        locations,
                        metadata: None,
                    },
                    true,
                )
            }
            code::STRING => {
                let value = (*self.first.strings.get(usize::try_from(r.varint()?).ok()?)?).into();
                (AttrData::String { value, ty: None }, false)
            }
            code::STRING_WITH_TYPE => {
                let value = (*self.first.strings.get(usize::try_from(r.varint()?).ok()?)?).into();
                let (t, data) = self.ty(r.varint()?)?;
                let ty = (!matches!(data, TypeData::None)).then_some(*t);
                (AttrData::String { value, ty }, false)
            }
            c @ (code::INTEGER | code::FLOAT) => {
                let (ty, data) = self.ty(r.varint()?)?;
                let ty = *ty;
                let mut numbers = Reader::new(r.0, 0, "AttrType").limited(self.max_count);
                let a = if c == code::INTEGER {
                    let value = integer_value(&mut numbers, data, 0).ok()?;
                    AttrData::Integer { ty, value }
                } else {
                    let bits = float_bits(&mut numbers, data, 0).ok()?;
                    AttrData::Float { ty, bits }
                };
                numbers.is_empty().then_some(())?;
                r.0 = &[];
                (a, false)
            }
            _ => return None,
        };
        r.0.is_empty()
            .then(|| Built::New(Context::hash_detached(a), location))
    }

    /// The id of entry `idx` when `bits` has it and it is decoded.
    fn decoded(&self, idx: u64, bits: &[u64]) -> Option<AttrId> {
        let idx = usize::try_from(idx).ok()?;
        let cached = *self.cache.get(idx)?;
        (cached != NOT_DECODED && bit(bits, idx)).then(|| AttrId(cached - 1))
    }

    /// Type entry `idx`, when it decoded.
    fn ty(&self, idx: u64) -> Option<&(TypeId, TypeData)> {
        self.types.get(usize::try_from(idx).ok()?)?.as_ref()
    }
}

/// A cursor over an entry's bytes for the parsers, which give up (rather
/// than report) on anything unexpected.
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn varint(&mut self) -> Option<u64> {
        let (v, n) = read_varint(self.0)?;
        self.0 = &self.0[n..];
        Some(v)
    }

    fn u32(&mut self) -> Option<u32> {
        u32::try_from(self.varint()?).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::{code, Built, Parser, SecondPass};
    use crate::bytecode::attr_type_section::AttrTypeTable;
    use crate::bytecode::binary_reader::Reader;
    use crate::bytecode::sections::Section;
    use num_bigint::BigInt;
    use rmlir_format::bytecode::varint::{write_signed_varint, write_varint};
    use rmlir_format::bytecode::SectionId;
    use rmlir_format::float::FloatKind;
    use rmlir_format::{AttrData, AttrId, Context, Signedness, TypeData, TypeId};

    /// An entry of varints; a value `signed(v)` is written as a signed
    /// varint.
    fn entry(values: &[u64]) -> Vec<u8> {
        let mut e = Vec::new();
        for &v in values {
            match v.checked_sub(SIGNED) {
                Some(s) => write_signed_varint(&mut e, s as u32 as i32 as i64),
                None => write_varint(&mut e, v),
            }
        }
        e
    }

    const SIGNED: u64 = 1 << 40;

    fn signed(v: u32) -> u64 {
        SIGNED + u64::from(v)
    }

    /// Each rule of the second pass, on a table of one builtin group:
    /// what it takes (and builds as the ordinary decoder would) and what
    /// it leaves to the one-thread passes.
    #[test]
    fn second_pass_takes_and_leaves() {
        let (name, call, fused) = (code::NAME_LOC, code::CALL_SITE_LOC, code::FUSED_LOC);
        let (int, float, string) = (code::INTEGER, code::FLOAT, code::STRING_WITH_TYPE);
        let entries: Vec<Vec<u8>> = vec![
            // 0: a string entry; 1-3: plain file locations, 1 and 2 equal;
            // 4: a decoded location that is not plain; 5: not decoded.
            entry(&[code::STRING, 0]),
            entry(&[code::FILE_LINE_COL_LOC, 0, 1, 2]),
            entry(&[code::FILE_LINE_COL_LOC, 0, 1, 2]),
            entry(&[code::FILE_LINE_COL_LOC, 0, 3, 4]),
            entry(&[name, 0, 1]),
            entry(&[code::UNKNOWN_LOC]),
            // 6 and on: the entries the pass is asked about.
            entry(&[fused, 2, 1, 3]),
            entry(&[fused, 2, 1, 2]),
            entry(&[fused, 2, 1, 4]),
            entry(&[fused, 0]),
            entry(&[fused, 2, 1, 3, 0]),
            entry(&[call, 4, 1]),
            entry(&[call, 5, 1]),
            entry(&[code::FUSED_LOC_WITH_METADATA, 2, 1, 3, 0]),
            entry(&[name, 0, 4]),
            entry(&[name, 1, 1]),
            entry(&[fused, 1000, 1, 3]),
            entry(&[name, 0, 5]),
            // 18 and on: strings and numbers, of type entries 0 (i32),
            // 1 (f32), 2 (none) and 3 (not decoded).
            entry(&[code::STRING, 1]),
            entry(&[code::STRING, 2]),
            entry(&[string, 1, 2]),
            entry(&[string, 1, 0]),
            entry(&[int, 0, signed(0xffff_fffb)]),
            entry(&[int, 1, signed(5)]),
            entry(&[int, 3, signed(5)]),
            entry(&[int, 0, signed(5), 0]),
            entry(&[float, 1, signed(0x3fc0_0000)]),
            entry(&[float, 0, signed(0x3fc0_0000)]),
        ];
        let mut offsets = Vec::new();
        write_varint(&mut offsets, entries.len() as u64);
        write_varint(&mut offsets, 0);
        write_varint(&mut offsets, 0);
        write_varint(&mut offsets, entries.len() as u64);
        for e in &entries {
            write_varint(&mut offsets, ((e.len() as u64) << 1) | 1);
        }
        let data = entries.concat();
        let section = Section {
            id: SectionId::AttrType,
            data: &data,
            offset: 0,
            alignment: 1,
        };
        let table = AttrTypeTable::read(Reader::new(&offsets, 0, "AttrTypeOffset"), section, 1)
            .expect("a valid table");
        let strings: Vec<&[u8]> = vec![b"f.mlir", b"other"];
        let mut cache = vec![0u32; entries.len()];
        for (idx, id) in [(1, 10), (2, 10), (3, 11), (4, 12)] {
            cache[idx] = id + 1;
        }
        let i32_type = TypeData::Integer {
            width: 32,
            signedness: Signedness::Signless,
        };
        let types = [
            Some((TypeId(7), i32_type)),
            Some((TypeId(8), TypeData::Float(FloatKind::F32))),
            Some((TypeId(9), TypeData::None)),
            None,
        ];
        let parser = SecondPass {
            first: Parser {
                attrs: &table.attrs,
                strings: &strings,
                builtin: 0,
                run: 32,
            },
            cache: &cache,
            locations: &[0b1_1110],
            plain: &[0b0_1110],
            types: &types,
            max_count: usize::MAX,
        };
        let mut ctx = Context::default();
        let mut built = |idx: usize| {
            let e = table.attrs.get(idx).expect("in the table");
            parser.attr(e.data).map(|b| match b {
                Built::Same(id) => Err(id),
                Built::New(a, location) => {
                    let id = ctx.intern_hashed(a);
                    Ok((ctx.attr(id).clone(), location))
                }
            })
        };
        let fused_of = |ids: &[u32]| AttrData::FusedLoc {
            locations: ids.iter().map(|&i| AttrId(i)).collect(),
            metadata: None,
        };
        assert_eq!(built(6), Some(Ok((fused_of(&[10, 11]), true))));
        assert_eq!(built(7), Some(Err(AttrId(10))), "equal members are one");
        assert_eq!(built(8), None, "a member that is not a plain file location");
        assert_eq!(built(9), None, "no members");
        assert_eq!(built(10), None, "trailing bytes");
        let call_site = AttrData::CallSiteLoc {
            callee: AttrId(12),
            caller: AttrId(10),
        };
        assert_eq!(built(11), Some(Ok((call_site, true))));
        assert_eq!(built(12), None, "a child not decoded");
        assert_eq!(built(13), None, "metadata");
        let name_loc = AttrData::NameLoc {
            name: b"f.mlir"[..].into(),
            child: AttrId(12),
        };
        assert_eq!(built(14), Some(Ok((name_loc, true))));
        assert_eq!(built(15), None, "a name that is not a string entry");
        assert_eq!(built(16), None, "more members than bytes");
        assert_eq!(built(17), None, "a child not decoded");
        let string = |value: &[u8], ty: Option<u32>| {
            let (value, ty) = (value.into(), ty.map(TypeId));
            Some(Ok((AttrData::String { value, ty }, false)))
        };
        assert_eq!(built(18), string(b"other", None));
        assert_eq!(built(19), None, "a string index out of range");
        assert_eq!(built(20), string(b"other", None), "typed `none`");
        assert_eq!(built(21), string(b"other", Some(7)));
        let value = BigInt::from(-5);
        let int = AttrData::Integer {
            ty: TypeId(7),
            value,
        };
        assert_eq!(built(22), Some(Ok((int, false))));
        assert_eq!(built(23), None, "an integer of a float type");
        assert_eq!(built(24), None, "a type not decoded");
        assert_eq!(built(25), None, "trailing bytes");
        let bits = 0x3fc0_0000u128.into();
        let float = AttrData::Float {
            ty: TypeId(8),
            bits,
        };
        assert_eq!(built(26), Some(Ok((float, false))));
        assert_eq!(built(27), None, "a float of an integer type");
        // A run takes the entries not decoded yet that it can build.
        let run = parser.run(0);
        let taken: Vec<u32> = run.taken.iter().map(|&(i, _)| i).collect();
        assert_eq!(taken, [0, 6, 7, 11, 14, 18, 20, 21, 22, 26]);
        // It leaves the other entries not decoded yet, in order.
        let left: Vec<u32> = run.left.iter().map(|&(i, _)| i).collect();
        let rest = [5, 8, 9, 10, 12, 13, 15, 16, 17, 19, 23, 24, 25, 27];
        assert_eq!(left, rest);
    }
}
