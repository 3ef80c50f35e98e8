//! Parsing one large file of text, generic or custom, on two threads
//! (SPEC.md §3.5).
//!
//! [`crate::text::split_plan::find`] guesses, from line starts, where the body of the
//! file's top-level op can be cut between two of its ops. This thread
//! parses the file as always, with its context swapped for a fork of the
//! context as it was at the top-level op; a second thread parses the ops
//! from the cut to the end of the body, and then the alias definitions
//! after the op, into a fragment whose context is another fork. When this
//! thread reaches the cut, it takes the fragment: the two forks are
//! absorbed in file order (so every id is the one a one-thread parse
//! gives), the fragment's ops are appended to the body's block, the alias
//! tables and the deferred location uses are merged, and this thread goes
//! on from the end of the body, skipping the definitions the other thread
//! parsed.
//!
//! The second thread's result is only taken where it cannot differ from
//! a one-thread parse: its ops define no value at the body's top level
//! and use none they do not define, use no block label there and no
//! `distinct` attribute anywhere; every location alias they use is
//! defined after the op; and this thread, at the cut, has no value name
//! in scope (nothing the second thread's ops could clash with). Otherwise
//! this thread parses the rest itself. Any error makes the caller parse
//! the whole file again on one thread, which reports it as always.

use super::*;
use crate::text::split_plan::SplitPlan;
use rmlir_format::{Context, ForkItems, Fragment};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};

/// Below this many bytes a text file is parsed on one thread: a split
/// costs a thread, two forks and a merge.
pub const PARALLEL_TEXT_MIN_BYTES: usize = 4 << 20;

/// The region depth of the top-level op's body (the file's implicit
/// top-level block is depth 1).
pub(super) const BODY_DEPTH: usize = 2;

/// A split in progress, from the top-level op to the end of its parse.
pub(super) struct SplitRun<'a> {
    plan: SplitPlan,
    /// The context the forks were made from; taken back at the merge.
    base: Option<Arc<Context>>,
    part: Arc<Handoff<Part<'a>>>,
}

/// The second thread's result, handed to this one: one value, so a mutex
/// and a condition variable, without a channel's machinery (and its
/// thread-local state on this thread).
pub(super) struct Handoff<T> {
    slot: Mutex<Option<Option<T>>>,
    ready: Condvar,
}

impl<T> Handoff<T> {
    pub(super) fn new() -> Self {
        Handoff {
            slot: Mutex::new(None),
            ready: Condvar::new(),
        }
    }

    pub(super) fn put(&self, v: Option<T>) {
        *self.slot.lock().unwrap_or_else(|e| e.into_inner()) = Some(v);
        self.ready.notify_one();
    }

    /// Waits for the value put (`None` when the second thread gave up).
    pub(super) fn take(&self) -> Option<T> {
        let mut slot = self.slot.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if let Some(v) = slot.take() {
                return v;
            }
            slot = self.ready.wait(slot).unwrap_or_else(|e| e.into_inner());
        }
    }
}

/// What the second thread parsed.
pub(super) struct Part<'a> {
    module: Module,
    items: ForkItems,
    /// The fragment's block standing for the body's block.
    block: BlockId,
    attr_aliases: AliasTable<'a>,
    type_aliases: HashMap<&'a [u8], TypeId>,
    forward_uses: HashSet<(OpId, u32)>,
}

/// How a parse went, for tests and statistics.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SplitReport {
    /// A plan was found and the second thread was started.
    pub started: bool,
    /// The second thread's ops and definitions were taken.
    pub merged: bool,
    /// The split parse failed and the file was parsed again on one thread.
    pub reparsed: bool,
}

/// Parses `src` on two threads where [`crate::text::split_plan::find`] finds a split
/// (whatever the file's size), else on one; an error, or a split that did
/// not hold where it could not be declined, makes it parse again on one
/// thread. The module is the one a one-thread parse makes, ids included.
pub fn parse_module_split<'a>(
    src: &'a [u8],
    file_name: &'a str,
    limits: Limits,
    release: Option<&'a (dyn Fn(std::ops::Range<usize>) + Sync)>,
) -> (Result<Module>, SplitReport) {
    parse_module_split_in(src, file_name, limits, release, None)
}

/// [`parse_module_split`] with the first thread's share of the work
/// given (tests move the cut with it).
pub fn parse_module_split_at<'a>(
    src: &'a [u8],
    file_name: &'a str,
    limits: Limits,
    release: Option<&'a (dyn Fn(std::ops::Range<usize>) + Sync)>,
    first_share: f64,
) -> (Result<Module>, SplitReport) {
    parse_module_split_in(src, file_name, limits, release, Some(first_share))
}

fn parse_module_split_in<'a>(
    src: &'a [u8],
    file_name: &'a str,
    limits: Limits,
    release: Option<&'a (dyn Fn(std::ops::Range<usize>) + Sync)>,
    first_share: Option<f64>,
) -> (Result<Module>, SplitReport) {
    let (mut r, report) = parse_split(
        src,
        file_name,
        limits,
        (None, &rmlir_dialects::hosts::MLIR_OPT_22),
        release,
        first_share,
    );
    if let Ok(m) = &mut r {
        m.settle_use_list_orders();
    }
    (r, report)
}

/// [`parse_module_split_at`], the use-list orders left pending
/// ([`Module::text_forward_uses`]); `first_share` `None` for the share
/// [`share_for`] gives the file's form.
///
/// The plan is looked for, and the custom form's syntax tables loaded,
/// on the second core while this thread parses the definitions before
/// the top-level op: on the 50 MB module in the custom form that is
/// 52,000 location definitions, ~20 ms, beside ~5 ms of the plan's
/// searches (the last `}` is ~25 MB from the end: its pages fault in
/// there) and ~9 ms of reading the upstream formats' JSON, which the
/// first custom op would otherwise wait for.
pub(super) fn parse_split<'a>(
    src: &'a [u8],
    file_name: &'a str,
    limits: Limits,
    (dialects, host): (Option<&'a DialectRegistry>, &'static Host),
    release: Option<&'a (dyn Fn(std::ops::Range<usize>) + Sync)>,
    first_share: Option<f64>,
) -> (Result<Module>, SplitReport) {
    let mut report = SplitReport::default();
    if let Some(op_start) = crate::text::split_plan::first_op_line(src) {
        let share = first_share.unwrap_or_else(|| share_for(src[op_start]));
        let custom = src[op_start] != b'"';
        let plan = Arc::new(Handoff::new());
        let r = std::thread::scope(|s| {
            let to_parser = Arc::clone(&plan);
            let planner = std::thread::Builder::new().spawn_scoped(s, move || {
                let found = std::panic::catch_unwind(|| {
                    crate::text::split_plan::find_after(src, op_start, share)
                });
                to_parser.put(found.ok().flatten());
                if custom {
                    warm_custom_syntax(dialects);
                }
            });
            if planner.is_err() {
                plan.put(crate::text::split_plan::find_after(src, op_start, share));
            }
            let mut p = Parser::new(src, file_name, limits);
            p.dialects = dialects;
            p.set_host(host);
            p.release = release.map(|f| Release::new(f, 0));
            p.split_plan = Some(plan);
            p.split_at = op_start;
            let r = p.parse_top_level();
            report.started = p.split_started;
            report.merged = p.split_merged;
            r.map(|()| p.m)
        });
        if r.is_ok() {
            return (r, report);
        }
        report.reparsed = true;
        report.merged = false;
    }
    let mut p = Parser::new(src, file_name, limits);
    p.dialects = dialects;
    p.set_host(host);
    // A parse again releases again: what was released faults back in.
    p.release = release.map(|f| Release::new(f, 0));
    let r = p.parse_top_level().map(|()| p.m);
    (r, report)
}

/// Loads what a custom-form parse looks op names up in: upstream's
/// formats, and those of the dialects registered with the parser that
/// bring their own.
fn warm_custom_syntax(dialects: Option<&DialectRegistry>) {
    let _ = rmlir_format::op_format::catalog::Catalog::upstream();
    if let Some(dialects) = dialects {
        for name in dialects.names() {
            if let Some(d) = dialects.get(name.as_bytes()) {
                let _ = d.op_syntax();
            }
        }
    }
}

/// The first thread's share of the ops and definitions: it also merges,
/// and the definitions after the op (the second thread's) parse faster
/// per byte than ops. Measured on the 50 MB module (A/B medians): on
/// 2026-11-24 (f6400d5, 9 runs) 0.40 660 ms, 0.42 647, 0.45 621, 0.47 630,
/// 0.50 652, 0.53 669; on 2026-11-25 (87473c7), after the parser's ops got
/// faster (8934129), the first thread waited 65–167 ms for the second at 0.45, and `encode`
/// took 863.6 ms at 0.45, 805.9 at 0.50, 815.7 at 0.53 (15 runs; text →
/// text 934.3 at 0.45, 848.0 at 0.50). With 494e920 the second thread's
/// pending location uses moved from a hash map to the alias table's
/// vector, and it finished 50–80 ms before the first at 0.50: 0.46 714.8
/// ms, 0.47 692.1, 0.48 692.5, 0.49 722.2, 0.50 714.0 (15 runs). On
/// 2026-11-27 (70b7262), by each thread's CPU time (both threads' start
/// to the cut, three runs each): the custom form's first thread reached
/// the cut 70 ms after the second was done at 0.48 (the 52,000 location
/// definitions before its op were not counted in the first thread's
/// share, split_plan.rs), 27 ms with them counted; the generic form's
/// threads are even at 0.48 (either way: nothing precedes its op), and the
/// first thread waits 10 ms at 0.47.
pub(super) const FIRST_SHARE: f64 = 0.48;

/// [`FIRST_SHARE`] for a file in the custom form. On 2026-11-27
/// (651213a), by each thread's CPU time from the second thread's start
/// (`encode` of the 50 MB module in mlir-opt's custom print, 3–4 runs
/// each), the first thread reached the cut after the second was done by
/// 29–55 ms at 0.48, 13–28 at 0.47, 6–12 at 0.46; at 0.45 it came
/// 15–20 ms before. Its custom ops cost it more per byte than the
/// second thread's share, which holds the location definitions.
pub(super) const FIRST_SHARE_CUSTOM: f64 = 0.46;

/// The first thread's share where the first operation's line starts with
/// `first`: [`FIRST_SHARE_CUSTOM`] where the op is in the custom form (a
/// bare name, not a quoted one).
fn share_for(first: u8) -> f64 {
    if first == b'"' {
        FIRST_SHARE
    } else {
        FIRST_SHARE_CUSTOM
    }
}

/// A stack for the second thread as deep as the limits let the parser
/// recurse: the default limits fit in 2 MiB (`tests/deep_nesting.rs`).
fn helper_stack(limits: &Limits) -> usize {
    let levels = limits
        .max_region_depth
        .saturating_add(limits.max_attr_type_depth);
    levels.saturating_mul(16 << 10).clamp(8 << 20, 1 << 30)
}

/// What the second thread starts from: this thread's tables as they are
/// at the top-level op.
struct Seed<'a> {
    src: &'a [u8],
    file: &'a str,
    limits: Limits,
    dialects: Option<&'a DialectRegistry>,
    host: &'static Host,
    plan: SplitPlan,
    ctx: Context,
    attr_aliases: AliasTable<'a>,
    type_aliases: HashMap<&'a [u8], TypeId>,
    file_names: HashMap<&'a [u8], FileName>,
    release: Option<&'a (dyn Fn(std::ops::Range<usize>) + Sync)>,
    /// The default dialect the top-level op gives its body when it is in
    /// its custom form (`builtin` for `module`), as this thread's parse of
    /// it sets it; `None` for the generic form, which sets none.
    default_dialect: Option<&'static str>,
}

impl<'a> Parser<'a> {
    /// Parses the top-level op at [`SplitPlan::op_start`] with the second
    /// thread running beside it.
    pub(super) fn parse_split_op(&mut self) -> Result<OpId> {
        self.split_at = usize::MAX;
        let Some(plan) = self.split_plan.take().expect("called with a plan").take() else {
            return self.parse_operation();
        };
        let default_dialect = self.custom_default_dialect();
        self.m.ctx.build_index();
        let base = Arc::new(std::mem::take(&mut self.m.ctx));
        self.m.ctx = Context::fork(&base);
        let seed = Seed {
            src: self.src,
            file: self.file,
            limits: self.limits,
            dialects: self.dialects,
            host: self.host,
            plan,
            ctx: Context::fork(&base),
            attr_aliases: self.attr_aliases.clone(),
            type_aliases: self.type_aliases.clone(),
            file_names: self.file_names.clone(),
            release: self.release.as_ref().map(|r| r.f),
            default_dialect,
        };
        let handoff = Arc::new(Handoff::new());
        let to_this_thread = Arc::clone(&handoff);
        let cancel = AtomicBool::new(false);
        let stack = helper_stack(&self.limits);
        let r = std::thread::scope(|s| {
            let cancel = &cancel;
            let spawned =
                std::thread::Builder::new()
                    .stack_size(stack)
                    .spawn_scoped(s, move || {
                        // A panic hands over nothing (this thread parses on)
                        // and is raised again when the thread is joined.
                        let part = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                            seed.run(cancel)
                        }));
                        match part {
                            Ok(part) => to_this_thread.put(part),
                            Err(panic) => {
                                to_this_thread.put(None);
                                std::panic::resume_unwind(panic);
                            }
                        }
                    });
            let Ok(helper) = spawned else {
                // No thread (the seed's fork went with the closure): this
                // one parses everything, in the context itself.
                drop(std::mem::take(&mut self.m.ctx));
                self.m.ctx = Arc::try_unwrap(base).expect("no fork of the base is left");
                return self.parse_operation();
            };
            self.split_started = true;
            self.split = Some(Box::new(SplitRun {
                plan,
                base: Some(base),
                part: handoff,
            }));
            self.split_at = plan.split;
            let r = self.parse_operation();
            // Merged, the second thread is done; else its work is not used.
            cancel.store(true, Ordering::Relaxed);
            // Joined, not left to the scope: the scope waits for the
            // closure only, and the thread would still be exiting (its
            // thread-locals' teardown racing whatever runs next).
            if let Err(panic) = helper.join() {
                std::panic::resume_unwind(panic);
            }
            r
        });
        self.split_at = usize::MAX;
        let op = r?;
        let Some(run) = self.split.take() else {
            return Ok(op);
        };
        if let Some(base) = run.base {
            // Never merged: this thread parsed the body in its fork, whose
            // items become the context's as they are.
            drop(run.part);
            let own = std::mem::take(&mut self.m.ctx).detach();
            self.m.ctx = Arc::try_unwrap(base).expect("the second thread's fork was dropped");
            let map = self.m.ctx.absorb(own);
            assert!(map.is_identity(), "a fork absorbed first keeps its ids");
        } else {
            self.split_merged = true;
            // The definitions after the op were the second thread's.
            if self.tok.start != lexer::skip_trivia(self.src, run.plan.trailer_start) {
                return self.err("the split parse's end of the top-level op was not where planned");
            }
            self.reset_to(self.src.len());
        }
        Ok(op)
    }

    /// At the cut, in the body's block: takes the second thread's part if
    /// it parsed and this thread has no value name in scope, and goes on
    /// from the end of the body; else goes on parsing the ops itself.
    /// Not inlined: it runs once, and its contexts and tables in the frame
    /// of `parse_block_body`, which recurses once per region level, took
    /// stack from every level (tests/text_errors.rs nests to the limit on a
    /// test thread's 2 MiB).
    #[inline(never)]
    pub(super) fn merge_split(&mut self, block: BlockId) -> Result<()> {
        self.split_at = usize::MAX;
        let run = self.split.as_mut().expect("a split is running");
        let plan = run.plan;
        let part = run.part.take();
        let Some(part) = part.filter(|_| self.names.is_empty()) else {
            return Ok(());
        };
        // Both threads are done with the text up to the end of the body
        // and with the definitions after it. The second thread's range is
        // released again: pages it released come back mapped when the
        // kernel maps a fault's neighbours, and this is measured to keep
        // ~8 MiB fewer resident on the 50 MB benchmark module.
        if let Some(release) = self.release.as_mut() {
            release.upto(self.src.len());
        }
        let run = self.split.as_mut().expect("a split is running");
        let base = run.base.take().expect("merged once");
        let own = std::mem::take(&mut self.m.ctx).detach();
        self.m.ctx = Arc::try_unwrap(base).expect("the second thread's fork was detached");
        let own = self.m.ctx.absorb(own);
        assert!(own.is_identity(), "a fork absorbed first keeps its ids");
        // The second thread is done while this one absorbs its items: the
        // pages they are moved into are faulted in meanwhile on the idle
        // core, not one by one here, and no faster than the second fork's
        // pages are given back, so that both are not resident at once
        // (SPEC.md §3.5).
        let (attrs, types) = part.items.counts();
        self.m.ctx.reserve(attrs, types);
        let moved = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        crate::prefault::populate_following(self.m.ctx.attr_spare_room(), Arc::clone(&moved));
        let ids = self.m.ctx.absorb_reporting(part.items, Some(&moved));
        drop(moved);
        let mut attr_aliases = part.attr_aliases;
        attr_aliases.map_values(|a| ids.attr(AttrId(a)).0);
        self.attr_aliases = attr_aliases;
        self.type_aliases = part
            .type_aliases
            .into_iter()
            .map(|(name, t)| (name, ids.ty(t)))
            .collect();
        let op_base = u32::try_from(self.m.ops.len()).expect("ids are 32-bit");
        self.forward_uses.extend(
            part.forward_uses
                .into_iter()
                .map(|(op, i)| (OpId(op.0 + op_base), i)),
        );
        let mut module = part.module;
        let resources = std::mem::take(&mut module.resources);
        self.m.resources.dialect.extend(resources.dialect);
        self.m.resources.external.extend(resources.external);
        self.m.append_fragments(vec![Fragment {
            module,
            ids,
            roots: Vec::new(),
            block_roots: vec![(part.block, block)],
        }]);
        self.resolve_locs_defined_after();
        self.reset_to(plan.body_end);
        Ok(())
    }

    /// Sets the locations this thread's ops took from aliases not yet
    /// defined, now that the second thread's definitions are in the table,
    /// as each definition would have when parsed here: by the chain of
    /// uses of its name, without reading the names again from the source
    /// (released by now). Uses still unresolved are reported at the end,
    /// as always.
    fn resolve_locs_defined_after(&mut self) {
        let mut found = Vec::new();
        self.pending_locs
            .for_each_common(&self.attr_aliases, |last, attr| {
                found.push((last, AttrId(attr)))
            });
        for (last, attr) in found {
            if self.m.ctx.attr(attr).is_location() {
                self.resolve_uses(last, attr);
            }
        }
        // No alias is defined after this (the definitions were the second
        // thread's), so the chains of uses by name are done with: only the
        // uses left unresolved are kept, for the errors at the end.
        self.deferred_locs.retain(|d| !d.done());
        self.deferred_locs.shrink_to_fit();
        self.pending_locs = AliasTable::default();
    }
}

impl<'a> Seed<'a> {
    /// The second thread: the ops from the cut to the end of the body,
    /// then the definitions after the op. `None` where the part could
    /// differ from a one-thread parse, or does not parse.
    fn run(self, cancel: &AtomicBool) -> Option<Part<'a>> {
        let plan = self.plan;
        let mut p = Parser::new_with_context(self.src, self.file, self.limits, self.ctx);
        p.dialects = self.dialects;
        p.set_host(self.host);
        p.attr_aliases = self.attr_aliases;
        p.type_aliases = self.type_aliases;
        p.file_names = self.file_names;
        p.fragment = true;
        p.release = self.release.map(|f| Release::new(f, plan.split));
        p.region_depth = BODY_DEPTH;
        if let Some(d) = self.default_dialect {
            p.default_dialects.push(d);
        }
        p.reset_to(plan.split);
        let block = p.m.new_block();
        p.block_scopes.push(BlockScope {
            blocks: HashMap::default(),
        });
        while p.tok.start < plan.body_end {
            if cancel.load(Ordering::Relaxed) || !(p.is(Tok::String) || p.is(Tok::BareIdent)) {
                return None;
            }
            let op = p.parse_operation().ok()?;
            p.m.push_op(block, op);
        }
        let clean = p.tok.start == plan.body_end
            && p.is(Tok::RBrace)
            && p.names.is_empty()
            && p.block_scopes.iter().all(|s| s.blocks.is_empty());
        if !clean {
            return None;
        }
        p.apply_replacements();
        p.reset_to(plan.trailer_start);
        loop {
            if cancel.load(Ordering::Relaxed) {
                return None;
            }
            let r = match p.tok.kind {
                Tok::Eof => break,
                Tok::HashId if p.peek_is_alias_def() => p.parse_attr_alias_def(),
                Tok::BangId if p.peek_is_alias_def() => p.parse_type_alias_def(),
                Tok::FileMetadataBegin => p.parse_file_metadata(),
                _ => return None,
            };
            r.ok()?;
        }
        if p.deferred_locs.iter().any(|d| !d.done()) {
            return None;
        }
        let items = std::mem::take(&mut p.m.ctx).detach();
        Some(Part {
            module: std::mem::take(&mut p.m),
            items,
            block,
            attr_aliases: std::mem::take(&mut p.attr_aliases),
            type_aliases: std::mem::take(&mut p.type_aliases),
            forward_uses: std::mem::take(&mut p.forward_uses),
        })
    }
}
