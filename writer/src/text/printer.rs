//! The text printer (SPEC.md §4): byte-identical to
//! `mlir-opt --allow-unregistered-dialect --mlir-print-op-generic
//! --mlir-print-debuginfo` (and, in local-scope mode, with
//! `--mlir-print-local-scope`); with `PrintOptions::custom`, the custom
//! form mlir-opt prints without `--mlir-print-op-generic`, where we have
//! the op's printer (`custom`, SPEC.md §11.4).

mod custom;

pub use custom::unported_custom_ops;

use super::aliases::{Alias, Aliases, Sym};
use super::names::Names;
pub use super::print_size::OutputTooLarge;
use num_bigint::{BigInt, Sign};
use rmlir_format::fasthash::FastMap as HashMap;
use rmlir_format::float::{self, FloatKind};
use rmlir_format::*;
use std::fmt::Write;
use std::io;

/// Printer options.
#[derive(Clone, Copy, Debug, Default)]
pub struct PrintOptions {
    /// Print every attribute, type and location inline, without aliases
    /// (`--mlir-print-local-scope`).
    pub local_scope: bool,
    /// Print the top-level ops, and walk them for aliases, in parallel
    /// even when the module is small (tests use it to cover the parallel
    /// paths on small cases; large modules take them anyway, see
    /// `PAR_MIN_OPS`).
    pub force_parallel: bool,
    /// Refuse to print a module whose text would take more than this many
    /// bytes, before printing anything (SPEC.md §5.1): shared attributes
    /// and types can make a small input print without end.
    /// [`print_module_to`] then fails with an [`io::ErrorKind::InvalidData`]
    /// error holding an [`OutputTooLarge`]; [`try_print_module`] returns it.
    /// `None` (the default) checks nothing.
    pub max_output_bytes: Option<u64>,
    /// The tool whose print is matched (SPEC.md §7.4): which dialects it
    /// registers and the alias names its dialects give. `None` is mlir-opt
    /// 22.
    pub host: Option<&'static rmlir_dialects::hosts::Host>,
    /// Print the ops of the dialects the host registers in their custom
    /// form, as mlir-opt does without `--mlir-print-op-generic` (SPEC.md
    /// §11.4); ops whose printer we lack stay generic.
    pub custom: bool,
}

/// Top-level ops printed by one task of the parallel printer.
const PAR_CHUNK: usize = 32;
/// Alias definitions per parallel task: each is one short line.
const PAR_ALIAS_CHUNK: usize = 4096;
/// Below this many top-level ops the printer stays on one thread.
pub const PAR_MIN_OPS: usize = 256;
/// Chunks per thread printed ahead of the output (`Printer::in_parallel`).
const IN_FLIGHT_PER_THREAD: usize = 4;

/// Prints a module in the generic form. `opts.max_output_bytes` is not
/// checked here (nothing could report it): see [`try_print_module`].
pub fn print_module(m: &Module, opts: PrintOptions) -> String {
    let opts = PrintOptions {
        max_output_bytes: None,
        ..opts
    };
    print_impl(m, opts, None).0
}

/// Prints a module in the generic form, or says why not: its text would
/// exceed `opts.max_output_bytes` (SPEC.md §5.1).
pub fn try_print_module(m: &Module, opts: PrintOptions) -> Result<String, OutputTooLarge> {
    match print_impl(m, opts, None) {
        (text, Ok(())) => Ok(text),
        (_, Err(e)) => Err(*e
            .into_inner()
            .and_then(|e| e.downcast::<OutputTooLarge>().ok())
            .expect("a print to a string fails only on its size limit")),
    }
}

/// Prints a module in the generic form to `w`, in pieces of about a
/// megabyte, never holding the whole text: the same bytes as
/// [`print_module`], with a peak memory independent of the output's size.
pub fn print_module_to(m: &Module, opts: PrintOptions, w: &mut dyn io::Write) -> io::Result<()> {
    let (rest, result) = print_impl(m, opts, Some(w));
    debug_assert!(rest.is_empty() || result.is_err());
    result
}

/// How much text the printer gathers before handing it to its sink.
const FLUSH_BYTES: usize = 1 << 20;

fn print_impl<'a>(
    m: &'a Module,
    opts: PrintOptions,
    sink: Option<&'a mut dyn io::Write>,
) -> (String, io::Result<()>) {
    let Some(top) = m.top else {
        return (String::new(), Ok(()));
    };
    let hows = if opts.custom {
        custom::Hows::compute(m, opts.host.unwrap_or(&rmlir_dialects::hosts::MLIR_OPT_22))
    } else {
        custom::Hows::default()
    };
    // Value names, predecessors and aliases are independent walks of the
    // module. The alias walk splits itself across the pool; names and
    // predecessors are computed while its runs are merged.
    // So are the scan for attributes numbered in print order and the
    // quoting of op names, which read the module only.
    // The names are the longest of these: the rest is offered to the
    // thread that merges the alias runs, for when it is done.
    let walks_beside = || {
        let names = || {
            if opts.custom {
                let host = opts.host.unwrap_or(&rmlir_dialects::hosts::MLIR_OPT_22);
                Names::compute_custom(
                    m,
                    top,
                    &|m, op, out| hows.result_names(host, m, op, out),
                    &|m, op, r| custom::block_arg_names(host, m, op, r),
                )
            } else {
                Names::compute(m, top)
            }
        };
        let rest = || {
            let quoted_op_names: Vec<String> = (0..m.op_names.len())
                .map(|i| {
                    let mut q = String::new();
                    escaped_string(m.op_names.get(OpNameId(i as u32)), &mut q);
                    q
                })
                .collect();
            (compute_preds(m), has_print_order_state(m), quoted_op_names)
        };
        let (names, (preds, print_order_state, quoted_op_names)) = rayon::join(names, rest);
        (names, preds, print_order_state, quoted_op_names)
    };
    // The print's size is checked against the limit (SPEC.md §5.1.1): with
    // aliases, the alias walk has estimated it; in local scope, which has
    // no alias walk, its own walk runs beside the others.
    let check = |aliases: &Aliases| {
        opts.max_output_bytes.map_or(Ok(0), |limit| {
            super::print_size::check(m, top, aliases, limit)
        })
    };
    let (aliases, (names, preds, print_order_state, quoted_op_names), size) = if opts.local_scope {
        let none = Aliases::none();
        let (size, beside) = rayon::join(|| check(&none), walks_beside);
        (none, beside, size)
    } else {
        let host = opts.host.unwrap_or(&rmlir_dialects::hosts::MLIR_OPT_22);
        let skip =
            |op: OpId, part: super::aliases::Part<'_>| custom::skips(m, host, &hows, op, part);
        let skip: Option<&super::aliases::SkipAttr<'_>> =
            if opts.custom { Some(&skip) } else { None };
        let (aliases, beside) =
            Aliases::compute_beside(m, top, host, (opts.force_parallel, skip), walks_beside);
        let size = check(&aliases);
        (aliases, beside, size)
    };
    if let Err(e) = size {
        return (
            String::new(),
            Err(io::Error::new(io::ErrorKind::InvalidData, e)),
        );
    }
    let shared = Shared {
        m,
        names: &names,
        aliases: &aliases,
        preds: &preds,
        quoted_op_names: &quoted_op_names,
        custom: opts.custom,
        host: opts.host.unwrap_or(&rmlir_dialects::hosts::MLIR_OPT_22),
        hows: &hows,
    };
    // The top block's ops are printed in parallel only where nothing is
    // numbered in print order (SPEC.md §4.5).
    let parallel_block = m
        .op(top)
        .regions()
        .first()
        .and_then(|&r| m.region(r).blocks.first().copied())
        .filter(|&b| {
            let n = m.block(b).ops.len();
            (opts.force_parallel || n >= PAR_MIN_OPS) && n > 1 && !print_order_state
        });
    let alias_chunk = match parallel_block {
        Some(_) if opts.force_parallel => Some(1),
        Some(_) if aliases.list.len() >= PAR_MIN_OPS => Some(PAR_ALIAS_CHUNK),
        _ => None,
    };
    let mut p = Printer {
        out: String::with_capacity(if sink.is_some() {
            FLUSH_BYTES + (FLUSH_BYTES >> 2)
        } else {
            1 << 16
        }),
        parallel_block,
        alias_chunk,
        sink,
        // mlir-opt's printer starts with `builtin` as the default dialect:
        // a top-level `builtin.module` prints as `module`.
        default_dialects: vec!["builtin"],
        ..Printer::new_nested(shared, 0)
    };
    if opts.local_scope {
        // mlir-opt prints a local-scope module as a plain operation: no
        // aliases and no `{-# ... #-}` file metadata (resources are lost).
        p.print_op(top);
        p.out.push('\n');
        return p.finish();
    }
    p.print_aliases(false);
    p.print_op(top);
    p.out.push('\n');
    p.print_aliases(true);
    p.print_resources();
    // mlir-opt ends its output with one more newline after the module.
    p.out.push('\n');
    p.finish()
}

/// The next message of `rx`. On a pool thread (a caller that is itself a
/// rayon task) it runs pending pool work while it waits: the chunks it
/// spawned may sit in its own queue, and a pool of one thread would
/// otherwise wait on itself.
fn recv_helping<M>(rx: &std::sync::mpsc::Receiver<M>) -> M {
    loop {
        match rx.try_recv() {
            Ok(m) => return m,
            Err(std::sync::mpsc::TryRecvError::Empty) => {}
            Err(std::sync::mpsc::TryRecvError::Disconnected) => {
                unreachable!("the waiting side holds a sender")
            }
        }
        match rayon::yield_now() {
            Some(rayon::Yield::Executed) => {}
            // Not on a pool thread, or nothing left to run here: every
            // chunk not yet received is running elsewhere.
            Some(rayon::Yield::Idle) | None => {
                return rx.recv().expect("the waiting side holds a sender");
            }
        }
    }
}

/// Predecessor blocks of every block, one entry per successor use.
fn compute_preds(m: &Module) -> HashMap<BlockId, Vec<BlockId>> {
    let mut preds: HashMap<BlockId, Vec<BlockId>> = HashMap::default();
    for o in &m.ops {
        if o.successors().is_empty() {
            continue;
        }
        let Some(parent) = o.parent else { continue };
        for &s in o.successors() {
            preds.entry(s).or_default().push(parent);
        }
    }
    preds
}

/// Whether printing numbers something in the order it is printed: the ids
/// of `distinct[N]` attributes and the list of resource keys for the
/// `{-# dialect_resources #-}` block are assigned as the printer meets
/// them, so a module with either is printed on one thread.
fn has_print_order_state(m: &Module) -> bool {
    (0..m.ctx.num_attrs()).any(|i| {
        matches!(
            m.ctx.attr(AttrId(i as u32)),
            AttrData::Distinct { .. } | AttrData::DenseResource { .. }
        )
    })
}

/// What every printer of one module reads, computed once up front.
#[derive(Clone, Copy)]
struct Shared<'m> {
    m: &'m Module,
    names: &'m Names,
    aliases: &'m Aliases,
    preds: &'m HashMap<BlockId, Vec<BlockId>>,
    /// Every op name of the module, quoted once: a module has few names
    /// and an op per line.
    quoted_op_names: &'m [String],
    /// Print in the custom form (`PrintOptions::custom`).
    custom: bool,
    /// The tool whose print is matched.
    host: &'static rmlir_dialects::hosts::Host,
    /// How each op prints in the custom form, as far as computed
    /// (`custom::Hows`).
    hows: &'m custom::Hows,
}

/// The contexts in which MLIR elides an attribute's type.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Elide {
    Never,
    May,
    /// Never print the type (`printAttributeWithoutType`).
    All,
}

struct Printer<'m, 's> {
    shared: Shared<'m>,
    out: String,
    indent: usize,
    distinct_ids: HashMap<u32, u64>,
    resource_keys: Vec<Bytes>,
    /// The block whose ops are printed in parallel, if any.
    parallel_block: Option<BlockId>,
    /// Alias definitions per parallel task, if they are printed in parallel.
    alias_chunk: Option<usize>,
    /// Where finished text goes when printing to a writer.
    sink: Option<&'s mut dyn io::Write>,
    /// The first error of the sink; later text is dropped.
    sink_error: Option<io::Error>,
    /// Print the next attribute or type without its alias and without the
    /// `#dialect.ident` short form: it is followed by identifier characters
    /// that would read back as part of it (SPEC.md §2.4). Taken (cleared)
    /// by the first attribute or type printed, so nested ones never see it.
    unglued_next: bool,
    /// The file names of locations printed so far, quoted (a module's
    /// locations name a few files, and a large module has about one
    /// location per op).
    file_names: Vec<(FileName, String)>,
    /// The default dialects of the regions being printed, innermost last
    /// (the custom form leaves an op's dialect prefix out where it is
    /// the default one, SPEC.md §11.4).
    default_dialects: Vec<&'static str>,
}

impl<'m, 's> Printer<'m, 's> {
    /// A printer of its own text at `indent`, over `shared`.
    fn new_nested(shared: Shared<'m>, indent: usize) -> Self {
        Printer {
            shared,
            out: String::new(),
            indent,
            distinct_ids: HashMap::default(),
            resource_keys: Vec::new(),
            parallel_block: None,
            alias_chunk: None,
            sink: None,
            sink_error: None,
            unglued_next: false,
            file_names: Vec::new(),
            // Set by the printers of ops (`print_impl`, `in_parallel`); a
            // printer of attributes alone, or a probe, needs none.
            default_dialects: Vec::new(),
        }
    }
}

impl Printer<'_, '_> {
    /// Hands the text gathered so far to the sink, if there is one and
    /// enough has gathered. Called only between operations, never while a
    /// nested buffer (`body_string`) is swapped in.
    fn maybe_flush(&mut self) {
        if self.out.len() >= FLUSH_BYTES {
            self.flush();
        }
    }

    fn flush(&mut self) {
        let Some(sink) = self.sink.as_mut() else {
            return;
        };
        if self.sink_error.is_none() {
            if let Err(e) = sink.write_all(self.out.as_bytes()) {
                self.sink_error = Some(e);
            }
        }
        self.out.clear();
    }

    fn finish(mut self) -> (String, io::Result<()>) {
        self.flush();
        let result = match self.sink_error.take() {
            Some(e) => Err(e),
            None => Ok(()),
        };
        (std::mem::take(&mut self.out), result)
    }

    fn pad(&mut self) {
        for _ in 0..self.indent {
            self.out.push(' ');
        }
    }

    /// The alias definitions (`#loc3 = loc(...)`) deferred to the end of
    /// the output or not. They are printed on all threads where the top
    /// block's ops are (nothing numbered in print order, SPEC.md §4.5): a
    /// module has about one location alias per op.
    fn print_aliases(&mut self, deferred: bool) {
        let list = &self.shared.aliases.list;
        let one = |p: &mut Printer, (sym, alias): &(Sym, Alias)| {
            if alias.deferred != deferred {
                return;
            }
            let aliases = p.shared.aliases;
            match *sym {
                Sym::Attr(a) => {
                    aliases.write(alias, false, &mut p.out);
                    p.out.push_str(" = ");
                    p.attr_impl(a, Elide::Never);
                }
                Sym::Type(t) => {
                    aliases.write(alias, true, &mut p.out);
                    p.out.push_str(" = ");
                    p.type_impl(t);
                }
            }
            p.out.push('\n');
        };
        if let Some(chunk) = self.alias_chunk {
            self.in_parallel(list, chunk, one);
        } else {
            for item in list {
                one(self, item);
                self.maybe_flush();
            }
        }
    }

    // ----- operations -----

    fn print_op(&mut self, op: OpId) {
        let m = self.shared.m;
        let o = m.op(op);
        self.pad();
        if o.num_results > 0 {
            self.shared.names.write_results(m, op, &mut self.out);
            self.out.push_str(" = ");
        }
        self.op_body(op);
        self.out.push(' ');
        self.location(o.loc, true);
    }

    /// An op after its results and before its location: its custom form
    /// where it has one (and the custom form is printed), else generic
    /// (`printCustomOrGenericOp`).
    fn op_body(&mut self, op: OpId) {
        let m = self.shared.m;
        let o = m.op(op);
        if self.shared.custom && self.custom_op(op) {
            return;
        }
        self.out
            .push_str(&self.shared.quoted_op_names[o.name.index()]);
        self.out.push('(');
        for (i, &v) in m.operands(op).iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.value(v);
        }
        self.out.push(')');
        if !o.successors().is_empty() {
            self.out.push('[');
            for (i, &b) in o.successors().iter().enumerate() {
                if i > 0 {
                    self.out.push_str(", ");
                }
                self.block_name(b);
            }
            self.out.push(']');
        }
        if let Some(p) = o.properties {
            self.out.push_str(" <");
            self.attr(p, Elide::Never);
            self.out.push('>');
        }
        if !o.regions().is_empty() {
            self.out.push_str(" (");
            if self.shared.custom {
                // The regions of an op printed generic name their ops in
                // full: our reader, like MLIR's, sets no default dialect
                // for a generic op's regions.
                self.default_dialects.push("");
            }
            for (i, &r) in o.regions().iter().enumerate() {
                if i > 0 {
                    self.out.push_str(", ");
                }
                self.region(r);
            }
            if self.shared.custom {
                self.default_dialects.pop();
            }
            self.out.push(')');
        }
        if let AttrData::Dictionary(d) = m.ctx.attr(o.attributes) {
            if !d.is_empty() {
                self.out.push_str(" {");
                self.dict_entries(d);
                self.out.push('}');
            }
        }
        self.out.push_str(" : (");
        for (i, &v) in m.operands(op).iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.ty(m.value(v).ty);
        }
        self.out.push_str(") -> ");
        // One result is the common case: no vector for it (none makes
        // no allocation either).
        if o.num_results == 1 {
            self.result_types(&[m.value(ValueId(o.first_result)).ty]);
        } else {
            let results: Vec<TypeId> = o.results().map(|v| m.value(v).ty).collect();
            self.result_types(&results);
        }
    }

    fn result_types(&mut self, results: &[TypeId]) {
        if results.len() == 1
            && !matches!(self.shared.m.ctx.ty(results[0]), TypeData::Function { .. })
        {
            self.ty(results[0]);
        } else {
            self.out.push('(');
            for (i, &t) in results.iter().enumerate() {
                if i > 0 {
                    self.out.push_str(", ");
                }
                self.ty(t);
            }
            self.out.push(')');
        }
    }

    fn value(&mut self, v: ValueId) {
        self.shared
            .names
            .write_value(self.shared.m, v, &mut self.out);
    }

    fn block_name(&mut self, b: BlockId) {
        self.out.push_str("^bb");
        super::names::push_uint(&mut self.out, self.shared.names.blocks[b.index()] as u64);
    }

    fn region(&mut self, r: RegionId) {
        let m = self.shared.m;
        self.out.push_str("{\n");
        let blocks = &m.region(r).blocks;
        if let Some(&entry) = blocks.first() {
            let eb = m.block(entry);
            let header = eb.ops.is_empty() || !eb.args.is_empty();
            self.block(entry, header);
            for &b in &blocks[1..] {
                self.block(b, true);
            }
        }
        self.pad();
        self.out.push('}');
    }

    fn block(&mut self, b: BlockId, header: bool) {
        self.block_with(b, header, false)
    }

    /// A block, its header printed where `header`; its last op left out
    /// where `skip_terminator` and it is a terminator (the custom form's
    /// implicit terminators).
    fn block_with(&mut self, b: BlockId, header: bool, skip_terminator: bool) {
        let m = self.shared.m;
        let blk = m.block(b);
        if header {
            self.pad();
            self.block_name(b);
            if !blk.args.is_empty() {
                self.out.push('(');
                for (i, &a) in blk.args.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.value(a);
                    self.out.push_str(": ");
                    let v = m.value(a);
                    self.ty(v.ty);
                    if let Some(l) = v.loc {
                        self.out.push(' ');
                        self.location(l, false);
                    }
                }
                self.out.push(')');
            }
            self.out.push(':');
            let is_entry = self.shared.names.blocks[b.index()] == 0;
            match self.shared.preds.get(&b).map(|p| p.as_slice()) {
                None | Some([]) => {
                    if !is_entry {
                        self.out.push_str("  // no predecessors");
                    }
                }
                Some([one]) => {
                    self.out.push_str("  // pred: ");
                    self.block_name(*one);
                }
                Some(many) => {
                    let mut ps = many.to_vec();
                    ps.sort_by_key(|p| self.shared.names.blocks[p.index()]);
                    let _ = write!(self.out, "  // {} preds: ", ps.len());
                    for (i, p) in ps.iter().enumerate() {
                        if i > 0 {
                            self.out.push_str(", ");
                        }
                        self.block_name(*p);
                    }
                }
            }
            self.out.push('\n');
        }
        self.indent += 2;
        let mut ops: &[OpId] = &blk.ops;
        if skip_terminator {
            if let Some((&last, rest)) = ops.split_last() {
                let registry = self.shared.host.ops();
                if registry
                    .get(m.op_names.get(m.op(last).name))
                    .is_some_and(|i| i.terminator)
                {
                    ops = rest;
                }
            }
        }
        if self.parallel_block == Some(b) {
            self.ops_in_parallel(ops);
        } else {
            for &op in ops {
                self.print_op(op);
                self.out.push('\n');
                self.maybe_flush();
            }
        }
        self.indent -= 2;
    }

    /// Prints `ops` (a top-level block's) on all threads.
    fn ops_in_parallel(&mut self, ops: &[OpId]) {
        self.in_parallel(ops, PAR_CHUNK, |p, &op| {
            p.print_op(op);
            p.out.push('\n');
        });
    }

    /// Prints every item of `items` with `one`, on all threads: each task
    /// prints a chunk into its own buffer with a fresh printer over the
    /// same names and aliases. This thread hands the finished buffers to
    /// the output in order while the pool prints the next ones, so writing
    /// overlaps printing and no window of tasks waits for its slowest one
    /// (SPEC.md §4.5). At most `IN_FLIGHT_PER_THREAD` chunks per thread are
    /// printed but not yet written, which bounds the text in memory.
    fn in_parallel<T: Sync>(
        &mut self,
        items: &[T],
        chunk: usize,
        one: impl Fn(&mut Printer, &T) + Sync,
    ) {
        let shared = self.shared;
        let indent = self.indent;
        let default_dialects = self.default_dialects.clone();
        let chunks: Vec<&[T]> = items.chunks(chunk).collect();
        // Buffers written out go back to `spare` for later chunks: fresh
        // ones would fault in new pages for every chunk of a large module.
        let spare: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());
        let print_chunk = |chunk: &[T]| {
            let out = spare
                .lock()
                .ok()
                .and_then(|mut v| v.pop())
                .unwrap_or_default();
            let mut p = Printer {
                out,
                default_dialects: default_dialects.clone(),
                ..Printer::new_nested(shared, indent)
            };
            for item in chunk {
                one(&mut p, item);
            }
            p.out
        };
        let in_flight = IN_FLIGHT_PER_THREAD * rayon::current_num_threads().max(1);
        let (tx, rx) = std::sync::mpsc::channel();
        rayon::in_place_scope(|s| {
            let spawn = |k: usize| {
                let tx = tx.clone();
                let chunk = chunks[k];
                let print_chunk = &print_chunk;
                s.spawn(move |_| {
                    // A panic is sent on, so that this thread, waiting for
                    // the chunk in order, resumes it instead of waiting forever.
                    let text = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        print_chunk(chunk)
                    }));
                    let _ = tx.send((k, text));
                });
            };
            let mut spawned = in_flight.min(chunks.len());
            (0..spawned).for_each(spawn);
            let mut ready: Vec<Option<String>> = vec![None; chunks.len()];
            for next in 0..chunks.len() {
                while ready[next].is_none() {
                    let (k, text) = recv_helping(&rx);
                    match text {
                        Ok(t) => ready[k] = Some(t),
                        Err(panic) => std::panic::resume_unwind(panic),
                    }
                }
                let text = ready[next].take().expect("received");
                if spawned < chunks.len() {
                    spawn(spawned);
                    spawned += 1;
                }
                let mut text = self.push_finished(text);
                text.clear();
                if let Ok(mut v) = spare.lock() {
                    v.push(text);
                }
            }
        });
    }

    /// Appends text printed by a parallel task: straight to the sink when
    /// there is one (no copy into `out`), else to `out`. Gives the buffer back.
    fn push_finished(&mut self, text: String) -> String {
        if self.sink.is_none() {
            self.out.push_str(&text);
            return text;
        }
        if !self.out.is_empty() {
            self.flush();
        }
        if let (Some(sink), None) = (self.sink.as_mut(), &self.sink_error) {
            if let Err(e) = sink.write_all(text.as_bytes()) {
                self.sink_error = Some(e);
            }
        }
        text
    }

    // ----- locations -----

    /// `loc(...)` after an op (`allow_alias`) or a block argument (never aliased at the top).
    fn location(&mut self, l: AttrId, allow_alias: bool) {
        self.out.push_str("loc(");
        if !(allow_alias && self.try_alias(Sym::Attr(l))) {
            self.loc_impl(l);
        }
        self.out.push(')');
    }

    fn loc_inner(&mut self, l: AttrId) {
        if !self.try_alias(Sym::Attr(l)) {
            self.loc_impl(l);
        }
    }

    fn loc_impl(&mut self, l: AttrId) {
        let m = self.shared.m;
        match m.ctx.attr(l) {
            AttrData::UnknownLoc => self.out.push_str("unknown"),
            AttrData::FileLineCol { file, line, col } => {
                // MLIR names a point location with an empty file "-".
                self.file_name(file, true);
                self.out.push(':');
                super::names::push_uint(&mut self.out, *line as u64);
                self.out.push(':');
                super::names::push_uint(&mut self.out, *col as u64);
            }
            AttrData::FileLineColRange(r) => {
                let FileLineColRange {
                    file,
                    start_line,
                    start_col,
                    end_line,
                    end_col,
                } = &**r;
                // MLIR 22 prints a range without a column as column 0, and
                // a range whose end is its start as a plain point.
                self.file_name(file, false);
                let col = start_col.unwrap_or(0);
                let _ = write!(self.out, ":{start_line}:{col}");
                if let (Some(el), Some(ec)) = (end_line, end_col) {
                    if (*el, *ec) != (*start_line, col) {
                        if el == start_line {
                            let _ = write!(self.out, " to :{ec}");
                        } else {
                            let _ = write!(self.out, " to {el}:{ec}");
                        }
                    }
                }
            }
            AttrData::NameLoc { name, child } => {
                quoted(name, &mut self.out);
                if !matches!(m.ctx.attr(*child), AttrData::UnknownLoc) {
                    self.out.push('(');
                    self.loc_inner(*child);
                    self.out.push(')');
                }
            }
            AttrData::CallSiteLoc { callee, caller } => {
                self.out.push_str("callsite(");
                self.loc_inner(*callee);
                self.out.push_str(" at ");
                self.loc_inner(*caller);
                self.out.push(')');
            }
            AttrData::FusedLoc {
                locations,
                metadata,
            } => {
                self.out.push_str("fused");
                if let Some(md) = metadata {
                    self.out.push('<');
                    self.attr(*md, Elide::Never);
                    self.out.push('>');
                }
                self.out.push('[');
                for (i, &x) in locations.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.loc_inner(x);
                }
                self.out.push(']');
            }
            _ => self.out.push_str("<<NOT A LOCATION>>"),
        }
    }

    /// A location's file name, quoted; an empty one as `"-"` when
    /// `dash_if_empty` (a point location). Quoted once per printer and
    /// file: the few files of a module are named by every location.
    fn file_name(&mut self, file: &FileName, dash_if_empty: bool) {
        let empty_dash = dash_if_empty && file.is_empty();
        let known = self
            .file_names
            .iter()
            .find(|(f, _)| !empty_dash && (std::sync::Arc::ptr_eq(f, file) || f == file));
        if let Some((_, q)) = known {
            self.out.push_str(q);
            return;
        }
        let mut q = String::new();
        quoted(if empty_dash { b"-" } else { file }, &mut q);
        self.out.push_str(&q);
        if !empty_dash && self.file_names.len() < 8 {
            self.file_names.push((file.clone(), q));
        }
    }

    fn try_alias(&mut self, sym: Sym) -> bool {
        let aliases = self.shared.aliases;
        match aliases.get(sym) {
            Some(a) => {
                aliases.write(a, matches!(sym, Sym::Type(_)), &mut self.out);
                true
            }
            None => false,
        }
    }

    // ----- attributes -----

    fn dict_entries(&mut self, d: &[(Bytes, AttrId)]) {
        for (i, (name, v)) in d.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            keyword_or_string(name, &mut self.out);
            if matches!(self.shared.m.ctx.attr(*v), AttrData::Unit) {
                continue;
            }
            self.out.push_str(" = ");
            self.attr(*v, Elide::Never);
        }
    }

    fn attr(&mut self, a: AttrId, elide: Elide) {
        if !self.unglued_next && self.try_alias(Sym::Attr(a)) {
            return;
        }
        self.attr_impl(a, elide);
    }

    fn attr_impl(&mut self, a: AttrId, elide: Elide) {
        let unglued = std::mem::take(&mut self.unglued_next);
        let m = self.shared.m;
        let data = m.ctx.attr(a);
        let mut typed: Option<TypeId> = None;
        match data {
            AttrData::Unit => self.out.push_str("unit"),
            AttrData::Integer { ty, value } => {
                let tdata = m.ctx.ty(*ty);
                if matches!(
                    tdata,
                    TypeData::Integer {
                        width: 1,
                        signedness: Signedness::Signless
                    }
                ) {
                    self.out.push_str(if value.sign() == Sign::NoSign {
                        "false"
                    } else {
                        "true"
                    });
                    return;
                }
                push_bigint(value, &mut self.out);
                if !(elide == Elide::May
                    && matches!(
                        tdata,
                        TypeData::Integer {
                            width: 64,
                            signedness: Signedness::Signless
                        }
                    ))
                {
                    typed = Some(*ty);
                }
            }
            AttrData::Float { ty, bits } => {
                let kind = float_kind(m, *ty);
                let s = float::format_mlir_float(kind, bits.get());
                let hex = s.starts_with("0x");
                self.out.push_str(&s);
                if !(elide == Elide::May && kind == FloatKind::F64 && !hex) {
                    typed = Some(*ty);
                }
            }
            AttrData::String { value, ty } => {
                quoted(value, &mut self.out);
                typed = *ty;
            }
            AttrData::Type(t) => self.ty(*t),
            AttrData::Array(elems) => {
                self.out.push('[');
                for (i, &e) in elems.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.attr(e, Elide::May);
                }
                self.out.push(']');
            }
            AttrData::Dictionary(d) => {
                self.out.push('{');
                self.dict_entries(d);
                self.out.push('}');
            }
            AttrData::DenseArray { elem, data } => {
                self.out.push_str("array<");
                self.ty(*elem);
                if !data.is_empty() {
                    self.out.push_str(": ");
                    self.dense_array_elems(*elem, data);
                }
                self.out.push('>');
                return;
            }
            AttrData::DenseIntOrFp { ty, splat, data } => {
                self.out.push_str("dense<");
                self.dense_int_or_fp(*ty, *splat, data, true);
                self.out.push('>');
                typed = Some(*ty);
            }
            AttrData::DenseString { ty, splat, strings } => {
                self.out.push_str("dense<");
                let shape = m.ctx.ty(*ty).shape().unwrap_or(&[]).to_vec();
                nested_elements(&shape, *splat, &mut self.out, |i, out| {
                    quoted(&strings[i], out)
                });
                self.out.push('>');
                typed = Some(*ty);
            }
            AttrData::DenseResource { ty, key } => {
                self.out.push_str("dense_resource<");
                // Printed as a keyword when it is one, as a string otherwise.
                keyword_or_string(key, &mut self.out);
                self.out.push('>');
                if !self.resource_keys.contains(key) {
                    self.resource_keys.push(key.clone());
                }
                typed = Some(*ty);
            }
            AttrData::Sparse {
                ty,
                indices,
                values,
            } => {
                self.out.push_str("sparse<");
                if let AttrData::DenseIntOrFp {
                    ty: it,
                    splat,
                    data,
                } = m.ctx.attr(*indices)
                {
                    let n = m
                        .ctx
                        .ty(*it)
                        .shape()
                        .map_or(0, |s| s.iter().product::<i64>());
                    if n != 0 {
                        self.dense_int_or_fp(*it, *splat, data, false);
                        self.out.push_str(", ");
                        match m.ctx.attr(*values) {
                            AttrData::DenseIntOrFp {
                                ty: vt,
                                splat,
                                data,
                            } => self.dense_int_or_fp(*vt, *splat, data, true),
                            AttrData::DenseString {
                                ty: vt,
                                splat,
                                strings,
                            } => {
                                let shape = m.ctx.ty(*vt).shape().unwrap_or(&[]).to_vec();
                                nested_elements(&shape, *splat, &mut self.out, |i, out| {
                                    quoted(&strings[i], out)
                                });
                            }
                            _ => {}
                        }
                    }
                }
                self.out.push('>');
                typed = Some(*ty);
            }
            AttrData::SymbolRef { root, nested } => {
                symbol_ref(root, &mut self.out);
                for n in nested {
                    self.out.push_str("::");
                    symbol_ref(n, &mut self.out);
                }
            }
            AttrData::AffineMap(map) => {
                let _ = write!(self.out, "affine_map<{map}>");
                return;
            }
            AttrData::IntegerSet(set) => {
                let _ = write!(self.out, "affine_set<{set}>");
                return;
            }
            AttrData::Strided { offset, strides } => {
                self.out.push_str("strided<[");
                for (i, &s) in strides.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    dyn_int(s, &mut self.out);
                }
                self.out.push(']');
                if *offset != 0 {
                    self.out.push_str(", offset: ");
                    dyn_int(*offset, &mut self.out);
                }
                self.out.push('>');
            }
            AttrData::Distinct { id, referenced } => {
                let next = self.distinct_ids.len() as u64;
                let n = *self.distinct_ids.entry(*id).or_insert(next);
                let _ = write!(self.out, "distinct[{n}]<");
                if !matches!(m.ctx.attr(*referenced), AttrData::Unit) {
                    self.attr(*referenced, Elide::Never);
                }
                self.out.push('>');
                return;
            }
            AttrData::Opaque(o) => {
                dialect_symbol(
                    '#',
                    &o.dialect,
                    &String::from_utf8_lossy(&o.data),
                    unglued,
                    &mut self.out,
                );
                typed = o.ty;
            }
            AttrData::Dialect { body, ty } => {
                let s = self.body_string(body);
                dialect_symbol('#', &body.dialect, &s, unglued, &mut self.out);
                typed = *ty;
            }
            d if d.is_location() => {
                self.out.push_str("loc(");
                self.loc_impl(a);
                self.out.push(')');
            }
            _ => {}
        }
        if let Some(t) = typed {
            if elide != Elide::All && !matches!(m.ctx.ty(t), TypeData::None) {
                self.out.push_str(" : ");
                self.ty(t);
            }
        }
    }

    fn body_string(&mut self, body: &DialectBody) -> String {
        let saved = std::mem::take(&mut self.out);
        for (i, p) in body.pieces.iter().enumerate() {
            let start = self.out.len();
            self.body_piece(p);
            // Only bodies mlir-opt rejects glue identifier characters to a
            // nested value (`#x<ext>$y`); printing `#x.ext$y` would read back
            // as one attribute, so such a value is printed in full.
            let glued = matches!(body.pieces.get(i + 1), Some(BodyPiece::Text(t))
                if t.bytes().next().is_some_and(continues_identifier));
            if glued
                && !matches!(p, BodyPiece::Text(_))
                && self.out.bytes().last().is_some_and(continues_identifier)
            {
                self.out.truncate(start);
                self.unglued_next = true;
                self.body_piece(p);
                self.unglued_next = false;
            }
        }
        std::mem::replace(&mut self.out, saved)
    }

    fn body_piece(&mut self, p: &BodyPiece) {
        match p {
            BodyPiece::Text(t) => self.out.push_str(t),
            BodyPiece::Attr(a) => self.attr(*a, Elide::Never),
            BodyPiece::Type(t) => self.ty(*t),
            BodyPiece::Stripped(a) => self.stripped_attr(*a),
        }
    }

    /// A nested attribute the dialect prints without `#dialect.mnemonic`,
    /// unless it has an alias (SPEC.md §2.4).
    fn stripped_attr(&mut self, a: AttrId) {
        if !self.unglued_next && self.try_alias(Sym::Attr(a)) {
            return;
        }
        let m = self.shared.m;
        match m.ctx.attr(a) {
            AttrData::Dialect { .. } if self.unglued_next => self.attr_impl(a, Elide::Never),
            AttrData::Dialect { body, .. } => {
                let s = self.body_string(body);
                let rest = s.trim_start_matches(|c: char| {
                    c.is_ascii_alphanumeric() || c == '_' || c == '.'
                });
                if rest.is_empty() {
                    // A bare mnemonic stripped would be no text at all (it
                    // occurs only in bodies mlir-opt rejects): the whole
                    // attribute reads back as the same stripped piece.
                    self.attr_impl(a, Elide::Never);
                } else {
                    self.out.push_str(rest);
                }
            }
            _ => self.attr_impl(a, Elide::Never),
        }
    }

    fn dense_array_elems(&mut self, elem: TypeId, data: &[u8]) {
        let m = self.shared.m;
        let tdata = m.ctx.ty(elem);
        let Some(layout) = rmlir_format::dense::element_layout(&m.ctx, elem) else {
            return;
        };
        for (i, chunk) in data.chunks(layout.bytes).enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            scalar_element(tdata, chunk, &mut self.out);
        }
    }

    fn dense_int_or_fp(&mut self, ty: TypeId, splat: bool, data: &[u8], allow_hex: bool) {
        let m = self.shared.m;
        let shape = m.ctx.ty(ty).shape().unwrap_or(&[]).to_vec();
        let n: i64 = shape.iter().product();
        if allow_hex && !splat && n > 100 {
            self.out.push_str("\"0x");
            let elem = m.ctx.ty(ty).element_type().expect("shaped");
            if matches!(m.ctx.ty(elem), TypeData::Integer { width: 1, .. }) {
                // i1 elements are stored bit-packed, LSB first.
                let mut packed = vec![0u8; data.len().div_ceil(8)];
                for (i, &b) in data.iter().enumerate() {
                    packed[i / 8] |= (b & 1) << (i % 8);
                }
                hex_upper(&packed, &mut self.out);
            } else {
                hex_upper(data, &mut self.out);
            }
            self.out.push('"');
            return;
        }
        let elem = m.ctx.ty(ty).element_type().expect("shaped");
        let Some(layout) = rmlir_format::dense::element_layout(&m.ctx, elem) else {
            return;
        };
        let edata = m.ctx.ty(elem).clone();
        let size = layout.bytes;
        nested_elements(&shape, splat, &mut self.out, |i, out| {
            let chunk = &data[i * size..(i + 1) * size];
            match &edata {
                TypeData::Complex(inner) => {
                    let idata = m.ctx.ty(*inner);
                    out.push('(');
                    scalar_element(idata, &chunk[..size / 2], out);
                    out.push(',');
                    scalar_element(idata, &chunk[size / 2..], out);
                    out.push(')');
                }
                other => scalar_element(other, chunk, out),
            }
        });
    }

    // ----- types -----

    fn ty(&mut self, t: TypeId) {
        if !self.unglued_next && self.try_alias(Sym::Type(t)) {
            return;
        }
        self.type_impl(t);
    }

    fn type_impl(&mut self, t: TypeId) {
        let unglued = std::mem::take(&mut self.unglued_next);
        let m = self.shared.m;
        match m.ctx.ty(t) {
            TypeData::Integer { width, signedness } => {
                match signedness {
                    Signedness::Signed => self.out.push('s'),
                    Signedness::Unsigned => self.out.push('u'),
                    Signedness::Signless => {}
                }
                self.out.push('i');
                super::names::push_uint(&mut self.out, u64::from(*width));
            }
            TypeData::Index => self.out.push_str("index"),
            TypeData::Float(k) => self.out.push_str(k.keyword()),
            TypeData::None => self.out.push_str("none"),
            TypeData::Complex(e) => {
                self.out.push_str("complex<");
                self.ty(*e);
                self.out.push('>');
            }
            TypeData::Tuple(elems) => {
                self.out.push_str("tuple<");
                for (i, &e) in elems.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.ty(e);
                }
                self.out.push('>');
            }
            TypeData::Function { inputs, results } => {
                self.out.push('(');
                for (i, &e) in inputs.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.ty(e);
                }
                self.out.push_str(") -> ");
                self.result_types(results);
            }
            TypeData::Vector {
                shape,
                scalable,
                elem,
            } => {
                self.out.push_str("vector<");
                for (i, &d) in shape.iter().enumerate() {
                    let sc = scalable.get(i).copied().unwrap_or(false);
                    if sc {
                        self.out.push('[');
                        push_int(d, &mut self.out);
                        self.out.push_str("]x");
                    } else {
                        push_int(d, &mut self.out);
                        self.out.push('x');
                    }
                }
                self.ty(*elem);
                self.out.push('>');
            }
            TypeData::RankedTensor {
                shape,
                elem,
                encoding,
            } => {
                self.out.push_str("tensor<");
                dims(shape, &mut self.out);
                self.ty(*elem);
                if let Some(e) = encoding {
                    self.out.push_str(", ");
                    self.attr(*e, Elide::Never);
                }
                self.out.push('>');
            }
            TypeData::UnrankedTensor { elem } => {
                self.out.push_str("tensor<*x");
                self.ty(*elem);
                self.out.push('>');
            }
            TypeData::MemRef {
                shape,
                elem,
                layout,
                memory_space,
            } => {
                self.out.push_str("memref<");
                dims(shape, &mut self.out);
                self.ty(*elem);
                if let Some(l) = layout {
                    self.out.push_str(", ");
                    self.attr(*l, Elide::May);
                }
                if let Some(s) = memory_space {
                    self.out.push_str(", ");
                    self.attr(*s, Elide::May);
                }
                self.out.push('>');
            }
            TypeData::UnrankedMemRef { elem, memory_space } => {
                self.out.push_str("memref<*x");
                self.ty(*elem);
                if let Some(s) = memory_space {
                    self.out.push_str(", ");
                    self.attr(*s, Elide::May);
                }
                self.out.push('>');
            }
            TypeData::Opaque { dialect, data } => {
                dialect_symbol(
                    '!',
                    dialect,
                    &String::from_utf8_lossy(data),
                    unglued,
                    &mut self.out,
                );
            }
            TypeData::Dialect(body) => {
                let s = self.body_string(body);
                dialect_symbol('!', &body.dialect, &s, unglued, &mut self.out);
            }
        }
    }

    // ----- file metadata -----

    fn print_resources(&mut self) {
        let m = self.shared.m;
        let mut sections: Vec<(&str, Vec<ResourceGroupRef>)> = Vec::new();
        // Builtin blobs: only those referenced, in order of first reference.
        let mut dialect_groups = Vec::new();
        let mut builtin_entries = Vec::new();
        for key in &self.resource_keys {
            for g in m
                .resources
                .dialect
                .iter()
                .filter(|g| &*g.name == b"builtin")
            {
                if let Some((k, v)) = g.entries.iter().find(|(k, _)| k == key) {
                    builtin_entries.push((k.clone(), v));
                    break;
                }
            }
        }
        if !builtin_entries.is_empty() {
            dialect_groups.push((b"builtin".to_vec(), builtin_entries));
        }
        for g in m
            .resources
            .dialect
            .iter()
            .filter(|g| &*g.name != b"builtin")
        {
            if !g.entries.is_empty() {
                dialect_groups.push((
                    g.name.to_vec(),
                    g.entries.iter().map(|(k, v)| (k.clone(), v)).collect(),
                ));
            }
        }
        sections.push(("dialect", dialect_groups));
        let external = m
            .resources
            .external
            .iter()
            .filter(|g| !g.entries.is_empty())
            .map(|g| {
                (
                    g.name.to_vec(),
                    g.entries.iter().map(|(k, v)| (k.clone(), v)).collect(),
                )
            })
            .collect();
        sections.push(("external", external));
        if sections.iter().all(|s| s.1.is_empty()) {
            return;
        }
        self.out.push_str("\n{-#\n");
        let mut first_section = true;
        for (kind, groups) in sections {
            if groups.is_empty() {
                continue;
            }
            if !first_section {
                self.out.push_str(",\n");
            }
            first_section = false;
            let _ = writeln!(self.out, "  {kind}_resources: {{");
            for (gi, (name, entries)) in groups.iter().enumerate() {
                if gi > 0 {
                    self.out.push_str(",\n");
                }
                self.out.push_str("    ");
                self.out.push_str(&String::from_utf8_lossy(name));
                self.out.push_str(": {\n");
                for (ei, (k, v)) in entries.iter().enumerate() {
                    if ei > 0 {
                        self.out.push_str(",\n");
                    }
                    self.out.push_str("      ");
                    self.out.push_str(&String::from_utf8_lossy(k));
                    self.out.push_str(": ");
                    match v {
                        ResourceValue::Bool(b) => {
                            self.out.push_str(if *b { "true" } else { "false" })
                        }
                        ResourceValue::String(s) => quoted(s, &mut self.out),
                        ResourceValue::Blob { alignment, data } => {
                            // An empty blob prints with alignment 0, as mlir-opt does.
                            let alignment = if data.is_empty() { 0 } else { *alignment };
                            self.out.push_str("\"0x");
                            hex_upper(&alignment.to_le_bytes(), &mut self.out);
                            for chunk in data.chunks(FLUSH_BYTES / 2) {
                                hex_upper(chunk, &mut self.out);
                                self.maybe_flush();
                            }
                            self.out.push('"');
                        }
                    }
                }
                self.out.push_str("\n    }");
            }
            self.out.push_str("\n  }");
        }
        self.out.push_str("\n#-}\n");
    }
}

/// A resource group to print: its name and its entries.
type ResourceGroupRef<'a> = (Vec<u8>, Vec<(Bytes, &'a ResourceValue)>);

fn float_kind(m: &Module, ty: TypeId) -> FloatKind {
    match m.ctx.ty(ty) {
        TypeData::Float(k) => *k,
        _ => FloatKind::F64,
    }
}

/// One integer or float element from its little-endian storage bytes.
fn scalar_element(tdata: &TypeData, chunk: &[u8], out: &mut String) {
    match tdata {
        TypeData::Float(k) => {
            let mut b = [0u8; 16];
            b[..chunk.len()].copy_from_slice(chunk);
            out.push_str(&float::format_mlir_float(*k, u128::from_le_bytes(b)));
        }
        TypeData::Integer { width: 1, .. } => out.push_str(if chunk.iter().any(|&c| c != 0) {
            "true"
        } else {
            "false"
        }),
        TypeData::Integer { width, signedness } => {
            int_element(chunk, *width, *signedness == Signedness::Unsigned, out)
        }
        TypeData::Index => int_element(chunk, 64, false, out),
        _ => {}
    }
}

fn int_element(chunk: &[u8], width: u32, unsigned: bool, out: &mut String) {
    if !small_int_element(chunk, width, unsigned, out) {
        big_int_element(chunk, width, unsigned, out);
    }
}

/// An integer element of at most 8 bytes in native arithmetic, as
/// [`big_int_element`] prints it: most dense integer constants are `i32` or
/// `i64`, and the big-integer path allocated several times per element.
/// False (nothing printed) for a wider element.
fn small_int_element(chunk: &[u8], width: u32, unsigned: bool, out: &mut String) -> bool {
    if chunk.len() > 8 {
        return false;
    }
    let mut b = [0u8; 8];
    b[..chunk.len()].copy_from_slice(chunk);
    let raw = u64::from_le_bytes(b);
    let width = width.min(chunk.len() as u32 * 8);
    if unsigned || width == 0 {
        super::names::push_uint(out, raw);
    } else {
        // The low `width` bits, their top bit copied into the bits above.
        let shift = 64 - width;
        push_int(((raw << shift) as i64) >> shift, out);
    }
    true
}

/// An integer element of any size: unsigned as its bytes read, otherwise
/// the low `width` bits in two's complement.
fn big_int_element(chunk: &[u8], width: u32, unsigned: bool, out: &mut String) {
    let v = if unsigned {
        BigInt::from_bytes_le(Sign::Plus, chunk)
    } else {
        sign_extend(chunk, width)
    };
    push_bigint(&v, out);
}

fn sign_extend(chunk: &[u8], width: u32) -> BigInt {
    let v = BigInt::from_bytes_le(Sign::Plus, chunk);
    let width = width.min(chunk.len() as u32 * 8);
    if width == 0 {
        return v;
    }
    let v: BigInt = v & ((BigInt::from(1) << width) - BigInt::from(1));
    if v.bit((width - 1) as u64) {
        v - (BigInt::from(1) << width)
    } else {
        v
    }
}

/// Prints elements with MLIR's nested brackets for `shape`; a splat prints one element.
fn nested_elements(
    shape: &[i64],
    splat: bool,
    out: &mut String,
    mut elem: impl FnMut(usize, &mut String),
) {
    if splat {
        elem(0, out);
        return;
    }
    let n: i64 = shape.iter().product();
    if n <= 0 {
        return;
    }
    let rank = shape.len();
    let mut counter = vec![0i64; rank];
    let mut open = 0usize;
    for idx in 0..n as usize {
        if idx != 0 {
            out.push_str(", ");
        }
        while open < rank {
            out.push('[');
            open += 1;
        }
        elem(idx, out);
        if rank > 0 {
            counter[rank - 1] += 1;
            let mut i = rank - 1;
            while i > 0 {
                if counter[i] >= shape[i] {
                    counter[i] = 0;
                    counter[i - 1] += 1;
                    open -= 1;
                    out.push(']');
                }
                i -= 1;
            }
        }
    }
    while open > 0 {
        out.push(']');
        open -= 1;
    }
}

fn dims(shape: &[i64], out: &mut String) {
    for &d in shape {
        dyn_int(d, out);
        out.push('x');
    }
}

/// `v` in decimal: an integer attribute's value is printed for many ops,
/// and nearly always fits in 64 bits, where the big integer's own
/// formatting (a radix conversion) is not needed.
fn push_bigint(v: &BigInt, out: &mut String) {
    match i64::try_from(v) {
        Ok(n) => push_int(n, out),
        Err(_) => {
            let _ = write!(out, "{v}");
        }
    }
}

/// `v` in decimal, without `fmt` (shape dimensions are printed for every
/// tensor type of every op).
fn push_int(v: i64, out: &mut String) {
    if v < 0 {
        out.push('-');
    }
    super::names::push_uint(out, v.unsigned_abs());
}

fn dyn_int(v: i64, out: &mut String) {
    if v == DYNAMIC {
        out.push('?');
    } else {
        push_int(v, out);
    }
}

fn hex_upper(data: &[u8], out: &mut String) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut buf = [0u8; 512];
    for chunk in data.chunks(buf.len() / 2) {
        for (i, &b) in chunk.iter().enumerate() {
            buf[2 * i] = HEX[(b >> 4) as usize];
            buf[2 * i + 1] = HEX[(b & 15) as usize];
        }
        // Hex digits are ASCII: always valid UTF-8.
        out.push_str(std::str::from_utf8(&buf[..2 * chunk.len()]).expect("ASCII"));
    }
}

/// MLIR's quoted string form (SPEC.md §4.4).
pub fn escaped_string(s: &[u8], out: &mut String) {
    rmlir_format::escape::write_quoted(s, out);
}

fn quoted(s: &[u8], out: &mut String) {
    escaped_string(s, out);
}

fn is_bare_identifier(s: &[u8]) -> bool {
    match s.first() {
        Some(&c) if c.is_ascii_alphabetic() || c == b'_' => {}
        _ => return false,
    }
    s[1..]
        .iter()
        .all(|&c| c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c == b'.')
}

fn keyword_or_string(s: &[u8], out: &mut String) {
    if is_bare_identifier(s) {
        // SAFETY: a bare identifier is ASCII, every byte checked just above
        // (dictionary keys and symbol names are printed for most ops).
        out.push_str(unsafe { std::str::from_utf8_unchecked(s) });
    } else {
        escaped_string(s, out);
    }
}

fn symbol_ref(s: &[u8], out: &mut String) {
    if s.is_empty() {
        out.push_str("@<<INVALID EMPTY SYMBOL>>");
        return;
    }
    out.push('@');
    keyword_or_string(s, out);
}

/// A byte the lexer reads as part of a preceding `#…`/`!…` identifier.
fn continues_identifier(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'.' | b'-')
}

/// `#dialect.sym` when the symbol data is `ident(<...>)?`, else
/// `#dialect<data>`. `unglued` asks for the second form where the first would end in an identifier
/// character (SPEC.md §2.4).
fn dialect_symbol(prefix: char, dialect: &str, data: &str, unglued: bool, out: &mut String) {
    out.push(prefix);
    out.push_str(dialect);
    let b = data.as_bytes();
    let full = unglued && b.last().is_some_and(|&c| continues_identifier(c));
    let simple = !full
        && match b.first() {
            Some(c) if c.is_ascii_alphabetic() => {
                let rest_at = b
                    .iter()
                    .position(|&c| !(c.is_ascii_alphanumeric() || c == b'.' || c == b'_'));
                match rest_at {
                    None => true,
                    Some(i) => b[i] == b'<' && b.last() == Some(&b'>'),
                }
            }
            _ => false,
        };
    if simple {
        out.push('.');
        out.push_str(data);
    } else {
        out.push('<');
        out.push_str(data);
        out.push('>');
    }
}

#[cfg(test)]
mod tests {
    use num_bigint::BigInt;

    /// Integers print as the big integer formats them, on both sides of
    /// the 64-bit fast path.
    #[test]
    fn bigints_print_as_formatted() {
        let big = |s: &str| s.parse::<BigInt>().expect("a number");
        let values = [
            big("0"),
            big("-1"),
            big("7"),
            big("-9223372036854775808"),
            big("9223372036854775807"),
            big("9223372036854775808"),
            big("-9223372036854775809"),
            big("18446744073709551615"),
            big("-1180591620717411303424"),
            big("100000000000000000000000000000"),
        ];
        for v in values {
            let mut out = String::new();
            super::push_bigint(&v, &mut out);
            assert_eq!(out, v.to_string());
        }
        for v in [0, 1, -1, 42, -4096, i64::MIN, i64::MAX] {
            let mut out = String::new();
            super::push_int(v, &mut out);
            assert_eq!(out, v.to_string());
        }
    }

    /// Integer elements of up to 8 bytes print in native arithmetic as the
    /// big-integer path prints them: every size of 0-8 bytes, every width
    /// up to 64 (and widths wider than the element's bytes), signed and
    /// unsigned, on values with the sign bit set and clear, the all-ones
    /// and lone-bit patterns and pseudo-random bytes.
    #[test]
    fn small_int_elements_print_as_big_ones() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut checked = 0;
        for bytes in 0usize..=8 {
            let mut patterns: Vec<u64> = vec![0, u64::MAX, 1];
            patterns.extend((0..64).map(|b| 1u64 << b));
            patterns.extend((0..64).map(|b| (1u64 << b).wrapping_sub(1)));
            patterns.extend((0..200).map(|_| next()));
            for raw in patterns {
                let chunk = &raw.to_le_bytes()[..bytes];
                for width in 0..=70 {
                    for unsigned in [false, true] {
                        let (mut fast, mut big) = (String::new(), String::new());
                        assert!(super::small_int_element(chunk, width, unsigned, &mut fast));
                        super::big_int_element(chunk, width, unsigned, &mut big);
                        assert_eq!(fast, big, "{chunk:?} i{width} unsigned={unsigned}");
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 10_000);
        let mut out = String::new();
        assert!(!super::small_int_element(&[0; 16], 128, false, &mut out));
        assert!(out.is_empty());
    }
}
