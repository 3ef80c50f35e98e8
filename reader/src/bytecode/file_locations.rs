//! The attribute table's file locations parsed on several threads
//! (SPEC.md §6.6.1). A module has about one `FileLineColLoc` per op, and a
//! full read decodes them ahead of the bodies in table order; reading the
//! entry, its file name and its numbers and hashing the result is two
//! thirds of that, and needs nothing from the context. So helper threads
//! parse and hash runs of the table while this thread interns the runs
//! in order (prefetching a batch's index slots first, §2.1) and parses
//! runs itself when the next one is not ready.
//!
//! Only the plain case is taken here: a builtin `FileLineColLoc` or
//! `FileLineColRange` whose file is a builtin `StringAttr` entry without a
//! type. Anything else, and any entry that does not parse, is left to the
//! one-thread pass that follows (`predecode_locations`), which decodes it
//! with the ordinary decoder and its errors.

use super::attr_type_section::{Entries, NOT_DECODED};
use super::BytecodeReader;
use rmlir_format::bytecode::builtin_codes::attr as code;
use rmlir_format::bytecode::varint::read_varint;
use rmlir_format::{AttrData, Context, FileName, HashedAttr};
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
    /// Decodes the plain file locations of the attribute table with
    /// `threads` threads parsing runs of `run` entries (a multiple of 16),
    /// if the table has `min_entries` or more (see the module's
    /// documentation).
    pub(super) fn predecode_file_locations(
        &mut self,
        threads: usize,
        run: usize,
        min_entries: usize,
    ) {
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
        let runs = n.div_ceil(run);
        let parsed: Vec<Mutex<Option<Parsed>>> = (0..runs).map(|_| Mutex::new(None)).collect();
        let next = AtomicUsize::new(0);
        let claim = || Some(next.fetch_add(1, Ordering::Relaxed)).filter(|&k| k < runs);
        let ctx = &mut self.module.ctx;
        let mut table = Decoded {
            cache: &mut self.table.attr_cache,
            location_bits: &mut self.table.location_bits,
            count: 0,
        };
        std::thread::scope(|s| {
            let helpers: Vec<_> = (1..threads)
                .map(|_| {
                    s.spawn(|| {
                        while let Some(k) = claim() {
                            let run = parser.run(k);
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
                        Some(c) if c == k => break parser.run(c),
                        Some(c) => *parsed[c].lock().expect("no panics") = Some(parser.run(c)),
                        // Run k is being parsed by a helper; were they all
                        // gone without it (a panic, re-raised when the
                        // scope ends), it is parsed here.
                        None if helpers.iter().all(|h| h.is_finished()) => {
                            match parsed[k].lock().expect("no panics").take() {
                                Some(run) => break run,
                                None => break parser.run(k),
                            }
                        }
                        None => std::thread::yield_now(),
                    }
                };
                table.intern(ctx, run);
            }
            // Joined, not left to the scope (which waits for the closures
            // only, while the threads may still be exiting).
            for h in helpers {
                if let Err(panic) = h.join() {
                    std::panic::resume_unwind(panic);
                }
            }
        });
        self.stats.entries_decoded += table.count;
    }
}

/// Where the interned locations are recorded: the table's cache of
/// decoded entries and its location bits.
struct Decoded<'t> {
    cache: &'t mut [u32],
    location_bits: &'t mut [u64],
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
