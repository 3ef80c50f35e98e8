//! Reading the lazily loaded bodies of a module on several threads
//! (SPEC.md §6.7.6). The bodies of isolated ops are independent byte
//! ranges; what they share is the module's arenas and its uniquing
//! context. Each thread reads its share of the bodies into a module of its
//! own (a fragment) whose context is a fork of the module's: attributes the
//! module already has are found there, new ones are interned in the fork.
//! The forks' items are then moved into the module's context and the
//! fragments appended to its arenas, in the order of the bodies, so the
//! result does not depend on which thread finished first.

use super::ir_section::LazyRegions;
use super::{BytecodeReader, Undecoded};
use crate::error::Result;
use rmlir_format::{AttrData, Context, Fragment, Module, OpId, RegionId, TypeData};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Below this many bytes of bodies in all, the bodies are read on one
/// thread: forking and merging cost about a millisecond.
pub const PARALLEL_BODIES_MIN_BYTES: usize = 1 << 20;

/// One thread's share: pending ops with their still-encoded regions.
type Share<'a> = Vec<(OpId, LazyRegions<'a>)>;

impl<'a> BytecodeReader<'a> {
    /// Decodes every pending region, recursively, as
    /// [`BytecodeReader::materialize_all`], on
    /// [`BytecodeReader::parallel_parts`] threads.
    pub fn materialize_all_parallel(&mut self) -> Result<()> {
        let parts = self.parallel_parts();
        self.materialize_all_in_parts(parts)
    }

    /// On how many threads [`BytecodeReader::materialize_all_parallel`]
    /// reads the pending bodies: as many as the machine has when they add
    /// up to a megabyte or more, else one.
    pub fn parallel_parts(&self) -> usize {
        // What a read skips is counted on the reader that skips it: one.
        if self.skip_unknown {
            return 1;
        }
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let bytes: usize = self.lazy.values().map(|l| l.data.remaining()).sum();
        if bytes < PARALLEL_BODIES_MIN_BYTES {
            1
        } else {
            threads
        }
    }

    /// [`BytecodeReader::materialize_all`] with the pending bodies split
    /// into `parts` runs of about equal size, each read on a thread of
    /// its own, whatever their size (tests force small files through the
    /// parallel path with it). The module is the same as a one-thread
    /// read's but for the order of ids in its arenas and context.
    ///
    /// The parallel read is not tried where a dialect hook would upgrade
    /// the IR after each body (the upgrade sees the whole module). A body
    /// that fails to read makes the reader start again on one thread from
    /// where it was, so an error is reported exactly as a one-thread read
    /// reports it, whatever the number of parts.
    pub fn materialize_all_in_parts(&mut self, parts: usize) -> Result<()> {
        if parts >= 2 && !self.upgrades_possible() {
            // A module's top-level op is itself isolated: its body, with
            // the functions' bodies pending inside, is read first.
            while self.lazy.len() == 1 {
                let op = *self.lazy.keys().next().expect("one is pending");
                self.materialize(op)?;
            }
            if self.lazy.len() >= 2 {
                self.read_in_parts(parts);
            }
        }
        self.materialize_all()
    }

    /// Whether `run_upgrades` may change the IR: a dialect with a hook
    /// declared a version.
    fn upgrades_possible(&self) -> bool {
        self.dialects
            .dialects
            .iter()
            .any(|d| d.version.is_some() && self.hook(d.name).is_some())
    }

    /// Reads every pending body on `parts` threads: this one reads the
    /// first run of bodies straight into the module, the others each read
    /// theirs into a fragment appended after it. When any body fails to
    /// read, the reader is put back as it was before (bodies pending, the
    /// module and the caches as they were) and the caller's one-thread
    /// read meets the error, reported exactly as it always is.
    fn read_in_parts(&mut self, parts: usize) {
        self.predecode_all();
        // What a body read interns most often, interned before the
        // context is shared, so that no fork makes its own copy.
        self.module.ctx.intern_attr(AttrData::UnknownLoc);
        self.module.ctx.intern_type(TypeData::None);
        self.dict_or_empty(None);
        let pending = std::mem::take(&mut self.lazy);
        let restore = (pending.clone(), self.module.mark(), self.stats);
        let mut shares = split_evenly(pending.into_iter().collect(), parts, |(_, l)| {
            l.data.remaining()
        });
        let others = shares.split_off(1);
        let mine = shares.pop().unwrap_or_default();
        self.module.ctx.build_index();
        let base_counts = (self.module.ctx.num_attrs(), self.module.ctx.num_types());
        let base = Arc::new(std::mem::take(&mut self.module.ctx));
        self.module.ctx = Context::fork(&base);
        let forks: Vec<BytecodeReader<'a>> = others.iter().map(|_| self.fork(&base)).collect();
        let (mine, others) = std::thread::scope(|s| {
            let handles: Vec<_> = forks
                .into_iter()
                .zip(others)
                .map(|(fork, share)| s.spawn(move || read_share(fork, share)))
                .collect();
            let mine = self.read_own_share(mine);
            let others: Vec<Result<Part<'a>>> = handles
                .into_iter()
                .map(|h| {
                    h.join()
                        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
                })
                .collect();
            (mine, others)
        });
        let Ok(others) = mine.and(others.into_iter().collect::<Result<Vec<Part<'a>>>>()) else {
            // The other forks are dropped; this reader's goes with the IR
            // it read.
            drop(std::mem::take(&mut self.module.ctx));
            self.module.ctx = Arc::try_unwrap(base).expect("every fork was dropped");
            let (pending, mark, stats) = restore;
            self.module.rewind(mark);
            self.lazy = pending;
            self.stats = stats;
            self.forget_decoded_from(base_counts.0, base_counts.1);
            return;
        };
        let mut fragments = Vec::with_capacity(others.len());
        for mut part in others {
            self.stats.entries_decoded += part.reader.stats.entries_decoded;
            self.stats.lazy_bodies_decoded += part.reader.stats.lazy_bodies_decoded;
            let items = std::mem::take(&mut part.reader.module.ctx).detach();
            fragments.push((std::mem::take(&mut part.reader.module), part.roots, items));
        }
        // Every other fork is detached by now: the context is whole again
        // once this reader's fork is, and that one is absorbed first.
        let own = std::mem::take(&mut self.module.ctx).detach();
        self.module.ctx = Arc::try_unwrap(base).expect("every fork was detached");
        let own = self.module.ctx.absorb(own);
        // Nothing was absorbed before it: the fork's items are all new
        // here and keep their ids, so the IR this reader read and its
        // caches need no remapping.
        assert!(own.is_identity(), "a fork absorbed first keeps its ids");
        let fragments: Vec<_> = fragments
            .into_iter()
            .map(|(module, roots, items)| Fragment {
                ids: self.module.ctx.absorb(items),
                module,
                roots,
                block_roots: Vec::new(),
            })
            .collect();
        self.module.append_fragments(fragments);
    }

    /// Reads this reader's run of bodies, and the bodies nested in them.
    fn read_own_share(&mut self, share: Share<'a>) -> Result<()> {
        for (op, lazy) in share {
            self.stats.lazy_bodies_decoded += 1;
            self.read_lazy_regions(op, lazy)?;
            self.materialize_all()?;
        }
        Ok(())
    }

    /// A reader of bodies for one thread: the tables as read so far, an
    /// empty module whose context is a fork of `base`, nothing pending.
    fn fork(&self, base: &Arc<Context>) -> BytecodeReader<'a> {
        BytecodeReader {
            version: self.version,
            sections: self.sections.clone(),
            producer: self.producer,
            strings: self.strings.clone(),
            dialects: self.dialects.clone(),
            table: self.table.clone(),
            resource_keys: self.resource_keys.clone(),
            properties: self.properties.clone(),
            registry: self.registry,
            host: self.host,
            skip_unknown: self.skip_unknown,
            undecoded: Undecoded::default(),
            layouts: self.layouts,
            layouts_choice: self.layouts_choice,
            out_of_tree: self.out_of_tree,
            hooks: self.hooks,
            versions: RefCell::new(self.versions.borrow().clone()),
            limits: self.limits,
            module: Module::with_context(Context::fork(base)),
            lazy: BTreeMap::new(),
            stats: Default::default(),
            // Op name ids are the module's; the fragment has its own.
            op_name_cache: self
                .op_name_cache
                .iter()
                .map(|c| super::OpNameCache { id: None, ..*c })
                .collect(),
            file_names: self.file_names.clone(),
            empty_dict: self.empty_dict,
        }
    }
}

/// What one thread read.
struct Part<'a> {
    reader: BytecodeReader<'a>,
    roots: Vec<(RegionId, RegionId)>,
}

/// Reads a share of the bodies, and the bodies nested in them, into the
/// fork's module: each body's regions are new regions of the fragment,
/// paired with the module's (empty) regions they stand for.
fn read_share<'a>(mut reader: BytecodeReader<'a>, share: Share<'a>) -> Result<Part<'a>> {
    let mut roots = Vec::new();
    for (op, lazy) in share {
        let regions = lazy
            .regions
            .iter()
            .map(|&target| {
                let r = reader.module.new_region();
                roots.push((r, target));
                r
            })
            .collect();
        reader.stats.lazy_bodies_decoded += 1;
        reader.read_lazy_regions(op, LazyRegions { regions, ..lazy })?;
        reader.materialize_all()?;
    }
    Ok(Part { reader, roots })
}

/// Splits `items` into at most `parts` runs, in order, none empty, of
/// about equal `weight`.
fn split_evenly<T>(items: Vec<T>, parts: usize, weight: impl Fn(&T) -> usize) -> Vec<Vec<T>> {
    let total: u128 = items.iter().map(|x| weight(x) as u128).sum();
    let parts = parts.clamp(1, items.len().max(1));
    let mut out: Vec<Vec<T>> = Vec::with_capacity(parts);
    let mut current = Vec::new();
    let mut done = 0u128;
    let n = items.len();
    for (i, item) in items.into_iter().enumerate() {
        done += weight(&item) as u128;
        current.push(item);
        let runs_after = parts - out.len() - 1;
        let cut_at = (out.len() + 1) as u128 * total / parts as u128;
        // Cut where the run reaches its share of the weight, or where
        // each run after it can still have an item.
        if runs_after > 0 && (done >= cut_at || n - i - 1 == runs_after) {
            out.push(std::mem::take(&mut current));
        }
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

#[cfg(test)]
mod tests {
    /// The split keeps order, loses nothing, makes no empty run, and
    /// balances sizes.
    #[test]
    fn splits_in_order_and_evenly() {
        let sizes =
            |runs: &[Vec<usize>]| runs.iter().map(|r| r.iter().sum()).collect::<Vec<usize>>();
        let split = |w: &[usize], parts: usize| super::split_evenly(w.to_vec(), parts, |&x| x);
        assert_eq!(split(&[5, 5, 5, 5], 2), vec![vec![5, 5], vec![5, 5]]);
        assert_eq!(sizes(&split(&[1, 1, 1, 1, 1, 1, 1, 1, 8], 2)), vec![8, 8]);
        assert_eq!(split(&[100, 1, 1], 3), vec![vec![100], vec![1], vec![1]]);
        assert_eq!(split(&[1, 1], 4), vec![vec![1], vec![1]]);
        assert_eq!(split(&[0, 0, 0], 2), vec![vec![0], vec![0, 0]]);
        assert_eq!(split(&[], 2), Vec::<Vec<usize>>::new());
    }
}
