//! Parser for MLIR's generic textual form (SPEC.md §3): operations in the
//! generic syntax, builtin attributes, types and locations, aliases and the
//! `{-# ... #-}` file metadata. Ops in their custom (pretty) form are
//! read by `custom_op` from the ops' format data (SPEC.md §11.2).

use super::alias_table::AliasTable;
use super::lexer::{self, Tok, Token};
use crate::affine_parser;
use crate::error::{Error, ErrorKind, Position, Result};
use crate::limits::Limits;
use num_bigint::{BigInt, Sign};
use num_traits::{One, Zero};
use rmlir_dialects::hosts::Host;
use rmlir_format::dialect_hooks::DialectRegistry;
use rmlir_format::fasthash::{FastMap as HashMap, FastSet as HashSet};
use rmlir_format::float::{self, FloatKind};
use rmlir_format::op_registry::OpRegistry;
use rmlir_format::*;
use std::borrow::Cow;

mod attr_parser;
mod custom_op;
mod dense_parser;
mod split_parse;
mod type_parser;

pub use split_parse::{
    parse_module_split, parse_module_split_at, SplitReport, PARALLEL_TEXT_MIN_BYTES,
};

/// The limits of the text parser are the reader's [`Limits`] (the old
/// name, kept for callers).
pub type TextLimits = Limits;

/// Parses a whole file of generic MLIR text. `file_name` is used in
/// diagnostics and in the locations the parser makes up (MLIR names the
/// implicit top-level module `loc("<file>":0:0)`).
pub fn parse_module(src: &[u8], file_name: &str) -> Result<Module> {
    parse_module_with_limits(src, file_name, Limits::default())
}

/// Parses one attribute (as printed in bytecode's textual fallback
/// entries) into `m`'s context; the whole input must be consumed.
pub fn parse_attr_into(m: &mut Module, src: &[u8], limits: Limits) -> Result<AttrId> {
    parse_attr_in(m, src, limits, &rmlir_dialects::hosts::MLIR_OPT_22)
}

/// [`parse_attr_into`] as `host` parses it: the bodies of the dialects it
/// registers are parsed (SPEC.md §7.4).
pub fn parse_attr_in(
    m: &mut Module,
    src: &[u8],
    limits: Limits,
    host: &'static Host,
) -> Result<AttrId> {
    parse_entry_into(m, src, limits, host, None, "Attribute", |p| {
        p.parse_attr(None)
    })
}

/// Parses one type into `m`'s context; the whole input must be consumed.
pub fn parse_type_into(m: &mut Module, src: &[u8], limits: Limits) -> Result<TypeId> {
    parse_type_in(m, src, limits, &rmlir_dialects::hosts::MLIR_OPT_22)
}

/// [`parse_type_into`] as `host` parses it.
pub fn parse_type_in(
    m: &mut Module,
    src: &[u8],
    limits: Limits,
    host: &'static Host,
) -> Result<TypeId> {
    parse_entry_into(m, src, limits, host, None, "Type", |p| p.parse_type())
}

/// Parses one entry (`what`) of `src` into `m`'s context by `f`, as `host`
/// parses it, with the bodies of `dialects`' dialects read as theirs.
fn parse_entry_into<'s, T>(
    m: &mut Module,
    src: &'s [u8],
    limits: Limits,
    host: &'static Host,
    dialects: Option<&'s DialectRegistry>,
    what: &str,
    f: impl FnOnce(&mut Parser<'s>) -> Result<T>,
) -> Result<T> {
    let mut p = Parser::new(src, "<bytecode entry>", limits);
    p.host = host;
    p.dialects = dialects;
    p.m = std::mem::take(m);
    // The shared constants must be ids of the adopted context.
    p.unit_attr = p.m.ctx.intern_attr(AttrData::Unit);
    p.empty_dict = p.m.ctx.intern_attr(AttrData::Dictionary(Vec::new()));
    let r = f(&mut p).and_then(|v| {
        if p.is(Tok::Eof) {
            Ok(v)
        } else {
            let rest = String::from_utf8_lossy(&src[p.tok.start..]).into_owned();
            p.err_at(
                p.tok.start,
                format!("trailing characters found after {what} assembly format: {rest}"),
            )
        }
    });
    *m = std::mem::take(&mut p.m);
    r
}

/// [`parse_module`] with explicit [`Limits`].
/// A file of [`PARALLEL_TEXT_MIN_BYTES`] or more is parsed on two threads
/// where its layout allows (SPEC.md §3.5); the module is the same.
pub fn parse_module_with_limits(src: &[u8], file_name: &str, limits: Limits) -> Result<Module> {
    if split_pays(src) {
        return parse_module_split(src, file_name, limits, None).0;
    }
    let mut p = Parser::new(src, file_name, limits);
    p.parse_top_level()?;
    p.m.settle_use_list_orders();
    Ok(p.m)
}

/// Whether [`parse_module_split`] is worth trying on `src`.
fn split_pays(src: &[u8]) -> bool {
    src.len() >= PARALLEL_TEXT_MIN_BYTES
        && std::thread::available_parallelism().is_ok_and(|n| n.get() >= 2)
}

/// [`parse_module_with_limits`] that calls `release(range)` as it moves
/// on: the parser is done with most of `src[range]` and rarely reads it
/// again (the names of a large function's values, an error's line). The
/// bytes must stay readable: the command line passes a file mapping, whose
/// released pages drop out of memory and fault back in if read (SPEC.md
/// §3.4). With a split parse (§3.5) both threads release theirs, so the
/// ranges do not come in order, and the first thread releases the second
/// one's again when it takes its part.
pub fn parse_module_releasing(
    src: &[u8],
    file_name: &str,
    limits: Limits,
    release: &(dyn Fn(std::ops::Range<usize>) + Sync),
) -> Result<Module> {
    let mut m = parse_module_releasing_deferred(src, file_name, limits, release)?;
    m.settle_use_list_orders();
    Ok(m)
}

/// [`parse_module_releasing`] that leaves the use-list orders to be
/// derived when they are needed ([`Module::text_forward_uses`], SPEC.md
/// §2.8): printing never needs them, and the bytecode writer derives them
/// beside its numbering (§6.10.7). They are a walk of the whole module
/// after the parse.
pub fn parse_module_releasing_deferred(
    src: &[u8],
    file_name: &str,
    limits: Limits,
    release: &(dyn Fn(std::ops::Range<usize>) + Sync),
) -> Result<Module> {
    parse_module_releasing_deferred_with(src, file_name, limits, None, release)
}

/// [`parse_module_releasing_deferred`] that reads the attributes and
/// types of the dialects `dialects` has hooks for as it reads a
/// registered dialect's, where a hook asks for it
/// ([`rmlir_format::dialect_hooks::BytecodeDialect::parses_bodies`]): their
/// bodies are split into text and nested references (and builtin values,
/// where the hook says one stands), so that their hooks can write them as
/// bytecode (SPEC.md §10.4). Without hooks such bodies stay opaque text,
/// as mlir-opt keeps a dialect it does not know.
pub fn parse_module_releasing_deferred_with(
    src: &[u8],
    file_name: &str,
    limits: Limits,
    dialects: Option<&'static DialectRegistry>,
    release: &(dyn Fn(std::ops::Range<usize>) + Sync),
) -> Result<Module> {
    parse_module_in_release(
        src,
        file_name,
        limits,
        dialects,
        &rmlir_dialects::hosts::MLIR_OPT_22,
        release,
    )
}

/// [`parse_module_releasing_deferred_with`] for text in the terms of a
/// tool other than mlir-opt 22 (e.g. IREE's generic print, in MLIR 24's,
/// SPEC.md §7.4): a registered op starts from the default properties of
/// `host`'s release (SPEC.md §7.1, §7.2), and the bodies of the dialects
/// `host` registers are parsed, not kept opaque.
pub fn parse_module_in_release(
    src: &[u8],
    file_name: &str,
    limits: Limits,
    dialects: Option<&'static DialectRegistry>,
    host: &'static Host,
    release: &(dyn Fn(std::ops::Range<usize>) + Sync),
) -> Result<Module> {
    if split_pays(src) {
        return split_parse::parse_split(
            src,
            file_name,
            limits,
            (dialects, host),
            Some(release),
            None,
        )
        .0;
    }
    let mut p = Parser::new(src, file_name, limits);
    p.dialects = dialects;
    p.set_host(host);
    p.release = Some(Release::new(release, 0));
    p.parse_top_level()?;
    Ok(p.m)
}

/// Where a releasing parse is: what it hands back next starts at `done`.
struct Release<'a> {
    f: &'a (dyn Fn(std::ops::Range<usize>) + Sync),
    done: usize,
}

impl<'a> Release<'a> {
    fn new(f: &'a (dyn Fn(std::ops::Range<usize>) + Sync), from: usize) -> Self {
        Release { f, done: from }
    }

    /// Releases what is before `upto` and was not released yet.
    fn upto(&mut self, upto: usize) {
        if upto > self.done {
            (self.f)(self.done..upto);
            self.done = upto;
        }
    }
}

/// How far behind the current token [`parse_module_releasing`] keeps the
/// source, and how often it releases.
const RELEASE_LAG: usize = 256 << 10;
const RELEASE_EVERY: usize = 1 << 20;

/// A location as `loc(…)` gives it: known, or an alias defined further
/// on (`#name`, at `at`).
#[derive(Clone, Copy)]
enum LocSpec<'a> {
    Known(AttrId),
    Alias { name: &'a [u8], at: usize },
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum LocTarget {
    Op(OpId),
    Arg(ValueId),
}

/// A use `loc(#name)` before `#name` is defined (MLIR allows it for
/// location aliases, which are printed after the module). It is resolved
/// when the alias is defined; uses still waiting at the end are errors,
/// reported in order of use.
struct DeferredLoc {
    target: LocTarget,
    /// Where `#name` is, and its length (which counts the `#`, so is never
    /// 0); 0 once resolved. 24 bytes a use: there is one per op in a file
    /// mlir-opt printed.
    at: usize,
    len: u32,
    /// The previous deferred use of the same name, or `NO_USE`.
    prev: u32,
}

impl DeferredLoc {
    fn done(&self) -> bool {
        self.len == 0
    }

    fn set_done(&mut self) {
        self.len = 0;
    }
}

const NO_USE: u32 = u32::MAX;

struct NameEntry {
    /// Placeholders of forward references by result number; `None` where
    /// none was made. Empty once defined.
    values: Vec<Option<ValueId>>,
    /// Once defined, its values: `count` consecutive values from `first`
    /// (an op's results and a block argument are), held without a vector
    /// of their own.
    defined: Option<(u32, u32)>,
    /// Offset of the first forward reference, for the error message.
    first_use: usize,
    /// The region nesting (`scope_defs`' depth) of the first forward
    /// reference: a definition nested deeper is not visible there.
    use_scope: u32,
}

struct BlockScope<'a> {
    blocks: HashMap<&'a [u8], (BlockId, bool, usize)>,
}

/// A parsed dense/sparse literal element with its sign.
#[derive(Clone)]
enum LitElem {
    Int { neg: bool, tok: Token },
    Float { neg: bool, tok: Token },
    Bool(bool),
    Str(Vec<u8>),
    Complex(Box<LitElem>, Box<LitElem>),
}

struct TensorLiteral {
    shape: Vec<i64>,
    elems: Vec<(LitElem, usize)>,
    /// A lone `"0x…"` string: its text, decoded as hex only for numeric
    /// element types (MLIR keeps it a string for string elements).
    hex: Option<(Vec<u8>, usize)>,
}

struct Parser<'a> {
    src: &'a [u8],
    file: &'a str,
    tok: Token,
    /// Where the token before `tok` ended (the trivia between them,
    /// comments included, lies from here to `tok.start`).
    prev_end: usize,
    m: Module,
    limits: Limits,
    /// Current attribute/type nesting.
    depth: usize,
    /// Current region nesting.
    region_depth: usize,
    /// Names are slices of the source: no allocation per definition or use.
    attr_aliases: AliasTable<'a>,
    type_aliases: HashMap<&'a [u8], TypeId>,
    deferred_locs: Vec<DeferredLoc>,
    /// The last deferred use of each name not yet defined.
    pending_locs: AliasTable<'a>,
    file_names: HashMap<&'a [u8], FileName>,
    /// This input's own name, for the locations the parser makes.
    own_file: FileName,
    names: HashMap<&'a [u8], NameEntry>,
    scope_defs: Vec<Vec<&'a [u8]>>,
    replacements: HashMap<ValueId, ValueId>,
    /// Operand slots that named their value before its definition: MLIR
    /// orders their uses differently (SPEC.md §2.8).
    forward_uses: HashSet<(OpId, u32)>,
    registry: &'static OpRegistry,
    /// The tool whose context the text is read in (which dialects it
    /// registers); mlir-opt 22 unless given.
    host: &'static Host,
    /// Dialect hooks that read their dialects' bodies (SPEC.md §10.4):
    /// those dialects' attributes and types are split into text and
    /// nested references as a registered dialect's are, not kept opaque.
    dialects: Option<&'a DialectRegistry>,
    /// Each op name's default properties, parsed on first use.
    default_props: HashMap<OpNameId, Option<AttrId>>,
    block_scopes: Vec<BlockScope<'a>>,
    distinct: HashMap<u64, (u32, AttrId)>,
    unit_attr: AttrId,
    empty_dict: AttrId,
    unknown_loc: AttrId,
    lines: LineCounter,
    /// See [`parse_module_releasing`].
    release: Option<Release<'a>>,
    next_release: usize,
    /// A split parse (SPEC.md §3.5): the plan until the top-level op is
    /// reached, then the split running.
    split_plan: Option<std::sync::Arc<split_parse::Handoff<crate::text::split_plan::SplitPlan>>>,
    split: Option<Box<split_parse::SplitRun<'a>>>,
    /// The offset at which the split needs this thread's attention next
    /// (the top-level op, then the cut); `usize::MAX` when none.
    split_at: usize,
    split_started: bool,
    split_merged: bool,
    /// Parsing the second thread's part of a split parse: `distinct`
    /// attributes, whose numbers are the file's, are refused.
    fragment: bool,
    /// An op's signature types and operand values, kept between ops so
    /// that an op does not allocate them (an op parses its regions before
    /// its signature, so one set serves every nesting level).
    sig_scratch: SignatureScratch,
    /// The result names and operand uses of the ops being parsed, each
    /// op's above those of the ops it is nested in: an op pushes its own
    /// and truncates them when it is built, so no op allocates a list.
    value_refs: Vec<(&'a [u8], u32, usize)>,
    /// The entries of the dictionaries being parsed, each nested one's
    /// above its parent's, as `value_refs`: a dictionary's vector is
    /// allocated once, at its exact size (BENCHMARKS.md, 2026-11-25).
    dict_entries: Vec<(Bytes, AttrId, usize)>,
    /// The default dialects of the custom ops whose regions are being
    /// parsed, innermost last (`return` in `func.func` is `func.return`).
    default_dialects: Vec<&'static str>,
    /// The types custom ops name by their text (`i1`), parsed once.
    custom_types: HashMap<String, TypeId>,
    /// The attributes custom ops spell as text (`#arith.fastmath<fast>`,
    /// `3 : i32`), by that text: each is parsed once per parse
    /// (`custom_op::parse_attr_text`).
    custom_attrs: HashMap<Box<str>, AttrId>,
    /// The lists of the declarative format's ops, for reuse.
    parts_pool: Vec<custom_op::Parts<'a>>,
    /// Where a custom op's location comes from when no `loc(…)` follows
    /// it, if its parser says otherwise than its name (SPEC.md §11.2).
    custom_loc: Option<custom_op::CustomLoc>,
}

/// An argument of a region's entry block that an op's custom syntax names
/// before the region (a function's `%arg0: i32`).
struct EntryArg<'a> {
    name: &'a [u8],
    /// Where the name is: the argument's location unless `loc` is given.
    at: usize,
    ty: TypeId,
    loc: Option<AttrId>,
}

#[derive(Default)]
struct SignatureScratch {
    inputs: Vec<TypeId>,
    results: Vec<TypeId>,
    operands: Vec<ValueId>,
}

impl<'a> Parser<'a> {
    /// Reads the text in `host`'s terms: its release's op knowledge and
    /// its registered dialects.
    fn set_host(&mut self, host: &'static Host) {
        self.host = host;
        self.registry = host.ops();
    }

    fn new(src: &'a [u8], file: &'a str, limits: Limits) -> Self {
        Self::new_with_context(src, file, limits, Context::new())
    }

    fn new_with_context(src: &'a [u8], file: &'a str, limits: Limits, ctx: Context) -> Self {
        let mut m = Module::with_context(ctx);
        let unit_attr = m.ctx.intern_attr(AttrData::Unit);
        let empty_dict = m.ctx.intern_attr(AttrData::Dictionary(Vec::new()));
        let unknown_loc = m.ctx.intern_attr(AttrData::UnknownLoc);
        let start = lexer::skip_trivia(src, 0);
        Parser {
            src,
            file,
            tok: lexer::lex(src, start),
            prev_end: 0,
            m,
            limits,
            depth: 0,
            // The (implicit or explicit) module body is region 1, as in
            // bytecode, so text never holds more nesting than bytecode reads.
            region_depth: 1,
            attr_aliases: AliasTable::default(),
            type_aliases: HashMap::default(),
            deferred_locs: Vec::new(),
            pending_locs: AliasTable::default(),
            file_names: HashMap::default(),
            own_file: file.as_bytes().into(),
            names: HashMap::default(),
            scope_defs: vec![Vec::new()],
            replacements: HashMap::default(),
            forward_uses: HashSet::default(),
            registry: OpRegistry::default_ref(),
            host: &rmlir_dialects::hosts::MLIR_OPT_22,
            dialects: None,
            default_props: HashMap::default(),
            block_scopes: Vec::new(),
            distinct: HashMap::default(),
            unit_attr,
            empty_dict,
            unknown_loc,
            lines: LineCounter::default(),
            release: None,
            next_release: RELEASE_EVERY,
            split_plan: None,
            split: None,
            split_at: usize::MAX,
            split_started: false,
            split_merged: false,
            fragment: false,
            sig_scratch: SignatureScratch::default(),
            value_refs: Vec::new(),
            dict_entries: Vec::new(),
            // The implicit top-level op is a `builtin.module`.
            default_dialects: vec!["builtin"],
            custom_types: HashMap::default(),
            custom_attrs: HashMap::default(),
            parts_pool: Vec::new(),
            custom_loc: None,
        }
    }

    // ----- diagnostics -----

    /// 1-based line and byte column of `offset`, as MLIR reports source
    /// locations (SPEC.md §3, "Reading big text").
    fn line_col(&self, offset: usize) -> (usize, usize) {
        self.lines.line_col(self.src, offset)
    }

    fn position(&self, offset: usize) -> Position {
        let offset = offset.min(self.src.len());
        let before = &self.src[..offset];
        let line_start = before
            .iter()
            .rposition(|&c| c == b'\n')
            .map_or(0, |i| i + 1);
        let line = before.iter().filter(|&&c| c == b'\n').count() + 1;
        let line_end = self.src[offset..]
            .iter()
            .position(|&c| c == b'\n')
            .map_or(self.src.len(), |i| offset + i);
        let line_text = String::from_utf8_lossy(&self.src[line_start..line_end]).into_owned();
        let col = String::from_utf8_lossy(&self.src[line_start..offset])
            .chars()
            .count()
            + 1;
        Position::Text {
            file: self.file.to_string(),
            line,
            col,
            line_text,
        }
    }

    #[cold]
    fn err_at<T>(&self, offset: usize, msg: impl Into<String>) -> Result<T> {
        Err(Error::new(ErrorKind::Syntax, msg, self.position(offset)))
    }

    #[cold]
    fn sem_err_at<T>(&self, offset: usize, msg: impl Into<String>) -> Result<T> {
        Err(Error::new(ErrorKind::Semantic, msg, self.position(offset)))
    }

    #[cold]
    fn err<T>(&self, msg: impl Into<String>) -> Result<T> {
        let msg = msg.into();
        if self.tok.kind == Tok::Eof {
            return self.err_at(
                self.tok.start,
                format!("{msg}, but reached the end of the input"),
            );
        }
        if self.tok.kind == Tok::Error {
            return self.err_at(self.tok.start, format!("unexpected character; {msg}"));
        }
        self.err_at(self.tok.start, msg)
    }

    // ----- token handling -----

    fn spelling(&self) -> &'a [u8] {
        &self.src[self.tok.start..self.tok.end]
    }

    fn bump(&mut self) {
        self.prev_end = self.tok.end;
        let next = lexer::skip_trivia(self.src, self.tok.end);
        self.tok = lexer::lex(self.src, next);
        if self.tok.start >= self.next_release {
            self.next_release = self.tok.start + RELEASE_EVERY;
            if let Some(release) = self.release.as_mut() {
                release.upto(self.tok.start - RELEASE_LAG);
            }
        }
    }

    /// Re-lexes from an arbitrary offset (used after char-level scanning).
    fn reset_to(&mut self, offset: usize) {
        self.prev_end = offset;
        let next = lexer::skip_trivia(self.src, offset);
        self.tok = lexer::lex(self.src, next);
    }

    fn is(&self, k: Tok) -> bool {
        self.tok.kind == k
    }

    fn is_kw(&self, kw: &str) -> bool {
        self.tok.kind == Tok::BareIdent && self.spelling() == kw.as_bytes()
    }

    fn eat(&mut self, k: Tok) -> bool {
        if self.tok.kind == k {
            self.bump();
            true
        } else {
            false
        }
    }

    fn expect(&mut self, k: Tok, what: &str) -> Result<Token> {
        if self.tok.kind == k {
            let t = self.tok;
            self.bump();
            Ok(t)
        } else {
            self.err(format!("expected {what}"))
        }
    }

    fn expect_kw(&mut self, kw: &str) -> Result<()> {
        if self.is_kw(kw) {
            self.bump();
            Ok(())
        } else {
            self.err(format!("expected '{kw}'"))
        }
    }

    /// A comma-separated list between `open` and `close`.
    fn comma_list(
        &mut self,
        open: Tok,
        close: Tok,
        what: &str,
        mut f: impl FnMut(&mut Self) -> Result<()>,
    ) -> Result<()> {
        self.expect(open, what)?;
        if self.eat(close) {
            return Ok(());
        }
        loop {
            f(self)?;
            if self.eat(Tok::Comma) {
                continue;
            }
            // Static, not formatted: the message is needed only when the
            // list does not close, and lists close for nearly every op.
            let what = match close {
                Tok::RParen => "',' or ')'",
                Tok::RSquare => "',' or ']'",
                Tok::RBrace => "',' or '}'",
                Tok::Greater => "',' or '>'",
                _ => "',' or closing delimiter",
            };
            self.expect(close, what)?;
            return Ok(());
        }
    }

    /// One level deeper into attributes/types.
    fn enter(&mut self) -> Result<()> {
        self.depth += 1;
        if self.depth > self.limits.max_attr_type_depth {
            return Err(Error::new(
                ErrorKind::Limit,
                format!(
                    "attribute/type nesting deeper than the limit of {}",
                    self.limits.max_attr_type_depth
                ),
                self.position(self.tok.start),
            ));
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    /// One region deeper.
    fn enter_region(&mut self) -> Result<()> {
        self.region_depth += 1;
        if self.region_depth > self.limits.max_region_depth {
            return Err(Error::new(
                ErrorKind::Limit,
                format!(
                    "region nesting deeper than the limit of {}",
                    self.limits.max_region_depth
                ),
                self.position(self.tok.start),
            ));
        }
        Ok(())
    }

    fn leave_region(&mut self) {
        self.region_depth -= 1;
    }

    fn string_value(&self, tok: Token) -> Result<Vec<u8>> {
        let body = &self.src[tok.start + 1..tok.end - 1];
        lexer::unescape(body).map_err(|i| {
            Error::new(
                ErrorKind::Syntax,
                "invalid escape sequence in string literal",
                self.position(tok.start + 1 + i),
            )
        })
    }

    /// A location's file name from string token `t`: shared by every
    /// location naming the same file (found by the source bytes when the
    /// literal has no escapes).
    fn file_name_of(&mut self, t: Token) -> Result<FileName> {
        let raw = match self.string_bytes(t)? {
            Cow::Borrowed(raw) => raw,
            Cow::Owned(unescaped) => return Ok(unescaped.into()),
        };
        if let Some(f) = self.file_names.get(raw) {
            return Ok(f.clone());
        }
        let f: FileName = raw.into();
        self.file_names.insert(raw, f.clone());
        Ok(f)
    }

    fn parse_string(&mut self, what: &str) -> Result<Vec<u8>> {
        let t = self.expect(Tok::String, what)?;
        self.string_value(t)
    }

    /// String token `t`'s bytes, borrowed from the source when the literal
    /// has no escapes (op names and file names hardly ever do).
    fn string_bytes(&self, t: Token) -> Result<Cow<'a, [u8]>> {
        let body: &'a [u8] = &self.src[t.start + 1..t.end - 1];
        if body.contains(&b'\\') {
            Ok(self.string_value(t)?.into())
        } else {
            Ok(body.into())
        }
    }

    fn parse_string_bytes(&mut self, what: &str) -> Result<Cow<'a, [u8]>> {
        let t = self.expect(Tok::String, what)?;
        self.string_bytes(t)
    }

    fn loc_at(&mut self, offset: usize) -> AttrId {
        let (line, col) = self.line_col(offset);
        self.m.ctx.intern_attr(AttrData::FileLineCol {
            file: self.own_file.clone(),
            line: line as u32,
            col: col as u32,
        })
    }

    // ----- top level -----

    fn parse_top_level(&mut self) -> Result<()> {
        let top_region = self.m.new_region();
        let top_block = self.m.new_block();
        self.m.push_block(top_region, top_block);
        self.block_scopes.push(BlockScope {
            blocks: HashMap::default(),
        });
        loop {
            match self.tok.kind {
                Tok::Eof => break,
                Tok::HashId if self.peek_is_alias_def() => self.parse_attr_alias_def()?,
                Tok::BangId if self.peek_is_alias_def() => self.parse_type_alias_def()?,
                Tok::FileMetadataBegin => self.parse_file_metadata()?,
                _ => {
                    let op = if self.tok.start == self.split_at {
                        self.parse_split_op()?
                    } else {
                        self.parse_operation()?
                    };
                    self.m.push_op(top_block, op);
                }
            }
        }
        let scope = self.block_scopes.pop().expect("pushed above");
        self.check_blocks_defined(&scope)?;
        self.resolve_deferred_locs()?;
        self.finish_values()?;
        let loc = self.m.ctx.intern_attr(AttrData::FileLineCol {
            file: self.own_file.clone(),
            line: 0,
            col: 0,
        });
        self.m.set_top_level(top_region, top_block, loc);
        // The orders are derived by the entry points (or, deferred, by
        // whoever needs them: SPEC.md §2.8).
        self.m.text_forward_uses = Some(Box::new(std::mem::take(&mut self.forward_uses)));
        Ok(())
    }

    /// `#name =` / `!name =` at the top level starts an alias definition.
    fn peek_is_alias_def(&self) -> bool {
        let p = lexer::skip_trivia(self.src, self.tok.end);
        self.src.get(p) == Some(&b'=')
    }

    fn alias_name_checked(&self) -> Result<&'a [u8]> {
        let name = &self.spelling()[1..];
        if name.contains(&b'.') {
            return self
                .err("expected an alias name without a '.' (a dotted name is a dialect symbol)");
        }
        Ok(name)
    }

    fn parse_attr_alias_def(&mut self) -> Result<()> {
        let at = self.tok.start;
        let name = self.alias_name_checked()?;
        self.bump();
        self.expect(Tok::Equal, "'='")?;
        if self.attr_aliases.get(name).is_some() {
            return self.sem_err_at(
                at,
                format!("redefinition of attribute alias id '{}'", lossy(name)),
            );
        }
        let attr = self.parse_attr(None)?;
        self.attr_aliases.insert(name, attr.0);
        if !self.pending_locs.is_empty() && self.m.ctx.attr(attr).is_location() {
            if let Some(last) = self.pending_locs.remove(name) {
                self.resolve_uses(last, attr);
            }
        }
        Ok(())
    }

    /// Locates by `attr` the waiting uses of one alias: the chain of
    /// deferred uses ending at `last`.
    fn resolve_uses(&mut self, last: u32, attr: AttrId) {
        let mut i = last;
        while i != NO_USE {
            let d = &mut self.deferred_locs[i as usize];
            d.set_done();
            let (target, prev) = (d.target, d.prev);
            self.set_loc(target, attr);
            i = prev;
        }
    }

    fn set_loc(&mut self, target: LocTarget, loc: AttrId) {
        match target {
            LocTarget::Op(op) => self.m.ops[op.index()].loc = loc,
            LocTarget::Arg(v) => self.m.values[v.index()].loc = Some(loc),
        }
    }

    fn parse_type_alias_def(&mut self) -> Result<()> {
        let at = self.tok.start;
        let name = self.alias_name_checked()?;
        self.bump();
        self.expect(Tok::Equal, "'='")?;
        if self.type_aliases.contains_key(&name) {
            return self.sem_err_at(
                at,
                format!("redefinition of type alias id '{}'", lossy(name)),
            );
        }
        let ty = self.parse_type()?;
        self.type_aliases.insert(name, ty);
        Ok(())
    }

    /// Reports the first use (in source order) whose alias was never
    /// defined or is not a location; the others were resolved as their
    /// aliases were defined.
    fn resolve_deferred_locs(&mut self) -> Result<()> {
        let src = self.src;
        for d in std::mem::take(&mut self.deferred_locs) {
            if d.done() {
                continue;
            }
            let (target, at) = (d.target, d.at);
            let name = &src[at + 1..at + d.len as usize];
            let Some(attr) = self.attr_aliases.get(name).map(AttrId) else {
                return self.sem_err_at(at, format!("undefined location alias '#{}'", lossy(name)));
            };
            if !self.m.ctx.attr(attr).is_location() {
                return self.sem_err_at(
                    at,
                    format!(
                        "expected location, but '#{}' is not a location",
                        lossy(name)
                    ),
                );
            }
            self.set_loc(target, attr);
        }
        Ok(())
    }

    fn finish_values(&mut self) -> Result<()> {
        if let Some((name, e)) = self
            .names
            .iter()
            .filter(|(_, e)| e.defined.is_none())
            .min_by_key(|(_, e)| e.first_use)
        {
            return self.sem_err_at(
                e.first_use,
                format!("use of undeclared SSA value name '%{}'", lossy(name)),
            );
        }
        self.apply_replacements();
        Ok(())
    }

    /// Points each use of a forward-referenced value's placeholder at the
    /// value, remembering the use for the use-list order (SPEC.md §2.8).
    fn apply_replacements(&mut self) {
        if !self.replacements.is_empty() {
            let reps = std::mem::take(&mut self.replacements);
            for op in 0..self.m.ops.len() as u32 {
                for (i, v) in self.m.operands_mut(OpId(op)).iter_mut().enumerate() {
                    if let Some(&r) = reps.get(v) {
                        *v = r;
                        self.forward_uses.insert((OpId(op), i as u32));
                    }
                }
            }
        }
    }

    // ----- file metadata -----

    fn parse_file_metadata(&mut self) -> Result<()> {
        self.bump();
        if self.eat(Tok::FileMetadataEnd) {
            return Ok(());
        }
        loop {
            let key_at = self.tok.start;
            let key = self.expect(Tok::BareIdent, "a file metadata key")?;
            let key = &self.src[key.start..key.end];
            self.expect(Tok::Colon, "':'")?;
            let external = match key {
                b"dialect_resources" => false,
                b"external_resources" => true,
                _ => {
                    return self.err_at(
                        key_at,
                        format!("unknown file metadata key '{}'", lossy(key)),
                    )
                }
            };
            let mut groups = Vec::new();
            self.comma_list(Tok::LBrace, Tok::RBrace, "'{'", |p| {
                let name = p.parse_keyword_or_string("a resource group name")?;
                p.expect(Tok::Colon, "':'")?;
                let mut entries = Vec::new();
                p.comma_list(Tok::LBrace, Tok::RBrace, "'{'", |p| {
                    let key = p.parse_keyword_or_string("a resource key")?;
                    p.expect(Tok::Colon, "':'")?;
                    let value = p.parse_resource_value()?;
                    entries.push((key.into_boxed_slice(), value));
                    Ok(())
                })?;
                groups.push(ResourceGroup {
                    name: name.into_boxed_slice(),
                    entries,
                });
                Ok(())
            })?;
            if external {
                self.m.resources.external.extend(groups);
            } else {
                self.m.resources.dialect.extend(groups);
            }
            if self.eat(Tok::Comma) {
                continue;
            }
            self.expect(Tok::FileMetadataEnd, "'#-}'")?;
            return Ok(());
        }
    }

    fn parse_keyword_or_string(&mut self, what: &str) -> Result<Vec<u8>> {
        match self.tok.kind {
            Tok::BareIdent => {
                let s = self.spelling().to_vec();
                self.bump();
                Ok(s)
            }
            Tok::String => self.parse_string(what),
            _ => self.err(format!("expected {what}")),
        }
    }

    fn parse_resource_value(&mut self) -> Result<ResourceValue> {
        if self.is_kw("true") || self.is_kw("false") {
            let v = self.is_kw("true");
            self.bump();
            return Ok(ResourceValue::Bool(v));
        }
        let at = self.tok.start;
        let s = self.parse_string("a resource value (string, hex blob or bool)")?;
        if s.starts_with(b"0x") {
            let Some(bytes) = decode_hex(&s[2..]) else {
                return self.err_at(at, "malformed hex string in resource blob");
            };
            if bytes.len() < 4 {
                return self.err_at(at, "resource blob is missing its 4-byte alignment prefix");
            }
            let alignment = u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
            // mlir-opt prints an empty blob with alignment 0.
            if !(alignment.is_power_of_two() || (alignment == 0 && bytes.len() == 4)) {
                return self.err_at(
                    at,
                    format!("resource blob alignment {alignment} is not a power of two"),
                );
            }
            if alignment > self.limits.max_blob_alignment {
                return Err(Error::new(
                    ErrorKind::Limit,
                    format!(
                        "resource blob alignment {alignment} is larger than the limit {} (Limits::max_blob_alignment)",
                        self.limits.max_blob_alignment
                    ),
                    self.position(at),
                ));
            }
            return Ok(ResourceValue::Blob {
                alignment,
                data: bytes[4..].to_vec().into(),
            });
        }
        Ok(ResourceValue::String(s.into_boxed_slice()))
    }

    // ----- operations -----

    fn parse_operation(&mut self) -> Result<OpId> {
        let op_start = self.tok.start;
        // Result list.
        let results_start = self.value_refs.len();
        if self.is(Tok::PercentId) {
            loop {
                let t = self.expect(Tok::PercentId, "an SSA result name")?;
                let name = &self.src[t.start + 1..t.end];
                let mut count = 1u32;
                if self.eat(Tok::Colon) {
                    let c = self.expect(Tok::Integer, "a result count")?;
                    count = match parse_decimal_u64(&self.src[c.start..c.end]) {
                        Some(n) if n >= 1 && n <= u32::MAX as u64 => n as u32,
                        _ => return self.err_at(c.start, "expected a positive result count"),
                    };
                }
                self.value_refs.push((name, count, t.start));
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
            self.expect(Tok::Equal, "'=' after the result list")?;
        }
        let name_at = self.tok.start;
        if self.is(Tok::BareIdent) {
            return self.parse_custom_operation(op_start, results_start);
        }
        let name = self.parse_string_bytes("an operation name string")?;
        if name.is_empty() {
            // MLIR's `parseGenericOperation` refuses it too.
            return self.err_at(name_at, "empty operation name is invalid");
        }
        let name_id = self.m.op_names.intern(&name);

        // Operands.
        let operands_start = self.value_refs.len();
        self.comma_list(
            Tok::LParen,
            Tok::RParen,
            "'(' to start the operand list",
            |p| {
                let operand = p.parse_value_use()?;
                p.value_refs.push(operand);
                Ok(())
            },
        )?;
        let operands_end = self.value_refs.len();
        let num_operands = operands_end - operands_start;

        // Successors.
        let mut successors = Vec::new();
        if self.is(Tok::LSquare) {
            self.comma_list(Tok::LSquare, Tok::RSquare, "'['", |p| {
                let b = p.parse_block_ref()?;
                successors.push(b);
                Ok(())
            })?;
        }

        // Properties.
        let mut properties = None;
        if self.is(Tok::Less) {
            self.bump();
            properties = Some(self.parse_attr(None)?);
            self.expect(Tok::Greater, "'>' to close the properties")?;
        }

        // Regions.
        let mut regions = Vec::new();
        if self.is(Tok::LParen) {
            self.comma_list(Tok::LParen, Tok::RParen, "'('", |p| {
                let r = p.parse_region()?;
                regions.push(r);
                Ok(())
            })?;
        }

        // Attribute dictionary.
        let attributes = if self.is(Tok::LBrace) {
            self.parse_dictionary()?
        } else {
            self.empty_dict
        };

        // Type signature.
        self.expect(Tok::Colon, "':' followed by the operation's type")?;
        let ty_at = self.tok.start;
        let mut sig = std::mem::take(&mut self.sig_scratch);
        self.parse_op_signature(&mut sig.inputs, &mut sig.results)?;
        let (inputs, result_types) = (&sig.inputs, &sig.results);
        if inputs.len() != num_operands {
            return self.sem_err_at(
                ty_at,
                format!(
                    "expected {} operand type{} but had {}",
                    num_operands,
                    if num_operands == 1 { "" } else { "s" },
                    inputs.len()
                ),
            );
        }
        let results = &self.value_refs[results_start..operands_start];
        let total: u64 = results.iter().map(|r| r.1 as u64).sum();
        if !results.is_empty() && total != result_types.len() as u64 {
            return self.sem_err_at(
                op_start,
                format!(
                    "operation defines {} results but was provided {} to bind",
                    result_types.len(),
                    total
                ),
            );
        }
        sig.operands.clear();
        for i in 0..num_operands {
            let (name, idx, at) = self.value_refs[operands_start + i];
            let v = self.resolve_value_use(name, idx, at, sig.inputs[i])?;
            sig.operands.push(v);
        }

        // A registered op's inherent attributes in the dictionary are its
        // properties, as mlir-opt sets them (`Operation::setAttrs`); with
        // `<{…}>` as well, whose entries win where both name one (MLIR sets
        // the properties from it afterwards).
        let (properties, attributes) = match properties {
            _ if attributes == self.empty_dict => (properties, attributes),
            None => self.inherent_attrs_as_properties(name_id, attributes),
            Some(given) => match self.inherent_attrs_as_properties(name_id, attributes) {
                (Some(moved), rest) => {
                    let (AttrData::Dictionary(given_entries), AttrData::Dictionary(moved)) =
                        (self.m.ctx.attr(given), self.m.ctx.attr(moved))
                    else {
                        return self.sem_err_at(op_start, "properties must be a dictionary");
                    };
                    let mut entries = given_entries.clone();
                    for (k, v) in moved.clone() {
                        if !entries.iter().any(|(g, _)| *g == k) {
                            entries.push((k, v));
                        }
                    }
                    entries.sort_by(|a, b| a.0.cmp(&b.0));
                    let merged = self.m.ctx.intern_attr(AttrData::Dictionary(entries));
                    (Some(merged), rest)
                }
                (None, rest) => (Some(given), rest),
            },
        };
        let properties = self.with_default_properties(name_id, properties, op_start)?;
        let loc_placeholder = self.unknown_loc;
        let op = self.m.new_op(
            name_id,
            &sig.operands,
            result_types,
            successors,
            properties,
            attributes,
            regions,
            loc_placeholder,
        );
        self.sig_scratch = sig;
        // Bind results.
        let mut next = 0u32;
        let first = self.m.op(op).first_result;
        for i in results_start..operands_start {
            let (name, count, at) = self.value_refs[i];
            self.define_values(name, first + next, count, at)?;
            next += count;
        }
        self.value_refs.truncate(results_start);
        self.parse_op_loc(op, name_at)?;
        Ok(op)
    }

    /// An op's trailing `loc(…)`, or else its name's position.
    fn parse_op_loc(&mut self, op: OpId, name_at: usize) -> Result<()> {
        if self.is_kw("loc") {
            self.parse_trailing_loc(LocTarget::Op(op))
        } else {
            let l = self.loc_at(name_at);
            self.m.ops[op.index()].loc = l;
            Ok(())
        }
    }

    /// A registered op starts from its default properties (SPEC.md §7.1);
    /// the entries written in the input override them one by one.
    fn with_default_properties(
        &mut self,
        name: OpNameId,
        given: Option<AttrId>,
        at: usize,
    ) -> Result<Option<AttrId>> {
        let defaults = match self.default_props.get(&name) {
            Some(&d) => d,
            None => {
                let info = self.registry.get(self.m.op_names.get(name));
                let d = match info.and_then(|i| i.default_properties.as_deref()) {
                    Some(text) => {
                        let mut m = std::mem::take(&mut self.m);
                        let r = parse_attr_into(&mut m, text.as_bytes(), self.limits);
                        self.m = m;
                        match r {
                            Ok(a) => Some(a),
                            Err(e) => {
                                return self.err_at(
                                    at,
                                    format!(
                                        "the op registry's default properties of '{}' do not parse: {e}",
                                        lossy(self.m.op_names.get(name))
                                    ),
                                )
                            }
                        }
                    }
                    None => None,
                };
                self.default_props.insert(name, d);
                d
            }
        };
        Ok(match defaults {
            Some(d) => Some(rmlir_format::op_registry::merge_default_properties(
                &mut self.m.ctx,
                d,
                given,
            )),
            None => given,
        })
    }

    fn parse_trailing_loc(&mut self, target: LocTarget) -> Result<()> {
        let spec = self.parse_loc_spec()?;
        self.bind_loc(spec, target);
        Ok(())
    }

    /// `loc(…)`: a location, or a location alias not defined yet, to be
    /// bound to what it is given for with [`Parser::bind_loc`] (a custom
    /// op's parser gives one location to several ops and arguments).
    fn parse_loc_spec(&mut self) -> Result<LocSpec<'a>> {
        self.expect_kw("loc")?;
        self.expect(Tok::LParen, "'(' in inline location")?;
        let loc = if self.is(Tok::HashId) && !self.spelling().contains(&b'.') {
            let at = self.tok.start;
            let name = &self.spelling()[1..];
            self.bump();
            match self.attr_aliases.get(name).map(AttrId) {
                Some(a) => {
                    if !self.m.ctx.attr(a).is_location() {
                        return self.sem_err_at(
                            at,
                            format!(
                                "expected location, but '#{}' is not a location",
                                lossy(name)
                            ),
                        );
                    }
                    LocSpec::Known(a)
                }
                None => LocSpec::Alias { name, at },
            }
        } else {
            LocSpec::Known(self.parse_location_instance()?)
        };
        self.expect(Tok::RParen, "')' in inline location")?;
        Ok(loc)
    }

    /// Gives the block argument `to` the location of the value `v`, as
    /// MLIR's `Value::getLoc` reads it: its defining op's, or its own as an
    /// argument; a location still waiting for its alias is waited for
    /// again. False when `v` is a forward reference not yet defined.
    fn copy_value_loc(&mut self, v: ValueId, to: ValueId) -> bool {
        let (loc, target) = match self.m.value(v).def {
            ValueDef::Result { op, .. } => (self.m.op(op).loc, LocTarget::Op(op)),
            ValueDef::BlockArg { .. } => (
                self.m.value(v).loc.unwrap_or(self.unknown_loc),
                LocTarget::Arg(v),
            ),
            ValueDef::Placeholder => return false,
        };
        if loc == self.unknown_loc {
            let waiting = self
                .deferred_locs
                .iter()
                .rev()
                .find(|d| !d.done() && d.target == target)
                .map(|d| (d.at, d.len as usize));
            if let Some((at, len)) = waiting {
                let src: &'a [u8] = self.src;
                let name = &src[at + 1..at + len];
                self.bind_loc(LocSpec::Alias { name, at }, LocTarget::Arg(to));
                return true;
            }
        }
        self.set_loc(LocTarget::Arg(to), loc);
        true
    }

    /// Gives `target` the location `spec` (once its alias is defined).
    fn bind_loc(&mut self, spec: LocSpec<'a>, target: LocTarget) {
        match spec {
            LocSpec::Known(loc) => self.set_loc(target, loc),
            LocSpec::Alias { name, at } => {
                let i = u32::try_from(self.deferred_locs.len())
                    .expect("fewer than 2^32 operations and arguments");
                let prev = self.pending_locs.insert(name, i).unwrap_or(NO_USE);
                self.deferred_locs.push(DeferredLoc {
                    target,
                    at,
                    len: (name.len() + 1) as u32,
                    prev,
                });
            }
        }
    }

    fn parse_value_use(&mut self) -> Result<(&'a [u8], u32, usize)> {
        let t = self.expect(Tok::PercentId, "an SSA value (%name)")?;
        let name = &self.src[t.start + 1..t.end];
        let mut idx = 0u32;
        // `%x#3`: the lexer stops a %-identifier at '#'.
        if self.src.get(t.end) == Some(&b'#') {
            let mut p = t.end + 1;
            let s = p;
            while p < self.src.len() && self.src[p].is_ascii_digit() {
                p += 1;
            }
            idx = match parse_decimal_u64(&self.src[s..p]) {
                Some(n) if n <= u32::MAX as u64 => n as u32,
                _ => return self.err_at(t.end, "expected a result number after '#'"),
            };
            self.reset_to(p);
        }
        Ok((name, idx, t.start))
    }

    fn resolve_value_use(
        &mut self,
        name: &'a [u8],
        idx: u32,
        at: usize,
        ty: TypeId,
    ) -> Result<ValueId> {
        if let Some(e) = self.names.get(name) {
            let found = match e.defined {
                Some((first, count)) => (idx < count).then_some(ValueId(first + idx)),
                None => e.values.get(idx as usize).copied().flatten(),
            };
            if let Some(v) = found {
                let vty = self.m.value(v).ty;
                if vty != ty {
                    return self.sem_err_at(
                        at,
                        format!(
                            "use of value '%{}' expects different type than prior uses",
                            lossy(name)
                        ),
                    );
                }
                return Ok(v);
            }
            if let Some((_, count)) = e.defined {
                return self.sem_err_at(
                    at,
                    format!(
                        "reference to invalid result number {idx} of '%{}', which has {count} results",
                        lossy(name),
                    ),
                );
            }
        }
        // Forward reference: a placeholder resolved when the name is defined.
        // Defining result N takes more than N bytes (a type per result), so a
        // larger number can never resolve; refusing it here keeps `values`
        // from growing to N entries (mlir-opt 22 runs out of memory on it).
        if idx as usize >= self.src.len() {
            return Err(Error::new(
                ErrorKind::Limit,
                format!(
                    "result number {idx} of '%{}' is larger than any operation in this input can define",
                    lossy(name)
                ),
                self.position(at),
            ));
        }
        let v = self.m.new_value(ty, ValueDef::Placeholder, None);
        let use_scope = self.scope_defs.len() as u32;
        let e = self.names.entry(name).or_insert(NameEntry {
            values: Vec::new(),
            defined: None,
            first_use: at,
            use_scope,
        });
        if e.values.len() <= idx as usize {
            e.values.resize(idx as usize + 1, None);
        }
        e.values[idx as usize] = Some(v);
        Ok(v)
    }

    /// Defines `%name` as the `count` values from `first` on.
    fn define_values(&mut self, name: &'a [u8], first: u32, count: u32, at: usize) -> Result<()> {
        if let Some(e) = self.names.get(&name) {
            if e.defined.is_some() {
                return self
                    .sem_err_at(at, format!("redefinition of SSA value '%{}'", lossy(name)));
            }
            // A custom op resolves its operands before it parses its
            // regions: an operand named like an argument of one of them
            // would otherwise become that argument, which its op cannot
            // see (mlir-opt 22: "operation's operand is unlinked").
            if !e.values.is_empty() && self.scope_defs.len() as u32 > e.use_scope {
                return self.sem_err_at(
                    e.first_use,
                    format!(
                        "operation's operand is unlinked: '%{}' is defined only in a region nested below this use",
                        lossy(name)
                    ),
                );
            }
            for (i, slot) in e.values.iter().enumerate() {
                let Some(ph) = slot else { continue };
                let Some(real) = (i < count as usize).then(|| ValueId(first + i as u32)) else {
                    return self.sem_err_at(
                        e.first_use,
                        format!(
                            "reference to invalid result number {i} of '%{}'",
                            lossy(name)
                        ),
                    );
                };
                if self.m.value(*ph).ty != self.m.value(real).ty {
                    return self.sem_err_at(
                        at,
                        format!(
                            "definition of SSA value '%{}' has a different type than prior uses",
                            lossy(name)
                        ),
                    );
                }
                self.replacements.insert(*ph, real);
            }
        }
        self.names.insert(
            name,
            NameEntry {
                values: Vec::new(),
                defined: Some((first, count)),
                first_use: at,
                use_scope: 0,
            },
        );
        if let Some(s) = self.scope_defs.last_mut() {
            s.push(name);
        }
        Ok(())
    }

    // ----- regions and blocks -----

    fn parse_block_ref(&mut self) -> Result<BlockId> {
        let t = self.expect(Tok::CaretId, "a block name (^name)")?;
        let name = &self.src[t.start + 1..t.end];
        let Some(scope) = self.block_scopes.last_mut() else {
            return self.err_at(t.start, "block reference outside of a region");
        };
        if let Some(&(b, _, _)) = scope.blocks.get(&name) {
            return Ok(b);
        }
        let b = self.m.new_block();
        let scope = self.block_scopes.last_mut().expect("checked above");
        scope.blocks.insert(name, (b, false, t.start));
        Ok(b)
    }

    fn parse_region(&mut self) -> Result<RegionId> {
        let region = self.m.new_region();
        self.parse_region_into(region, &[])?;
        Ok(region)
    }

    /// `{ blocks }` into `region`. With `args` (the entry block's
    /// arguments named in an op's custom syntax, SPEC.md §11.2), the
    /// entry block has them and no label.
    fn parse_region_into(&mut self, region: RegionId, args: &[EntryArg<'a>]) -> Result<()> {
        self.enter_region()?;
        self.expect(Tok::LBrace, "'{' to begin a region")?;
        self.block_scopes.push(BlockScope {
            blocks: HashMap::default(),
        });
        self.scope_defs.push(Vec::new());
        if !args.is_empty() || !self.is(Tok::RBrace) {
            // Entry block, possibly without a label.
            let entry = if !args.is_empty() {
                let entry = self.m.new_block();
                for a in args {
                    let loc = match a.loc {
                        Some(l) => l,
                        None => self.loc_at(a.at),
                    };
                    let v = self.m.add_block_arg(entry, a.ty, loc);
                    self.define_values(a.name, v.0, 1, a.at)?;
                }
                if self.is(Tok::CaretId) {
                    return self.err("invalid block name in region with named arguments");
                }
                entry
            } else if self.is(Tok::CaretId) {
                self.parse_block_label()?
            } else {
                self.m.new_block()
            };
            self.m.push_block(region, entry);
            self.parse_block_body(entry)?;
            while self.is(Tok::CaretId) {
                let b = self.parse_block_label()?;
                self.m.push_block(region, b);
                self.parse_block_body(b)?;
            }
        }
        self.expect(Tok::RBrace, "'}' to end the region")?;
        let scope = self.block_scopes.pop().expect("pushed above");
        self.check_blocks_defined(&scope)?;
        for name in self.scope_defs.pop().expect("pushed above") {
            self.names.remove(&name);
        }
        self.leave_region();
        Ok(())
    }

    fn check_blocks_defined(&self, scope: &BlockScope) -> Result<()> {
        if let Some((name, (_, _, at))) = scope
            .blocks
            .iter()
            .filter(|(_, (_, defined, _))| !defined)
            .min_by_key(|(_, (_, _, at))| *at)
        {
            return self.sem_err_at(
                *at,
                format!("reference to an undefined block '^{}'", lossy(name)),
            );
        }
        Ok(())
    }

    fn parse_block_label(&mut self) -> Result<BlockId> {
        let t = self.tok;
        let b = self.parse_block_ref()?;
        let name = &self.src[t.start + 1..t.end];
        let scope = self.block_scopes.last_mut().expect("inside a region");
        let entry = scope.blocks.get_mut(name).expect("just referenced");
        if entry.1 {
            return self.sem_err_at(t.start, format!("redefinition of block '^{}'", lossy(name)));
        }
        entry.1 = true;
        if self.is(Tok::LParen) {
            self.comma_list(Tok::LParen, Tok::RParen, "'('", |p| {
                let at = p.tok.start;
                let vt = p.expect(Tok::PercentId, "a block argument name")?;
                let vname = &p.src[vt.start + 1..vt.end];
                p.expect(Tok::Colon, "':' and the argument's type")?;
                let ty = p.parse_type()?;
                // The position is the location only without `loc(…)`: not
                // made (nor interned) for an argument that has one.
                let default_loc = if p.is_kw("loc") {
                    p.m.ctx.intern_attr(AttrData::UnknownLoc)
                } else {
                    p.loc_at(at)
                };
                let v = p.m.add_block_arg(b, ty, default_loc);
                p.define_values(vname, v.0, 1, at)?;
                if p.is_kw("loc") {
                    p.parse_trailing_loc(LocTarget::Arg(v))?;
                }
                Ok(())
            })?;
        }
        self.expect(Tok::Colon, "':' after the block label")?;
        Ok(b)
    }

    fn parse_block_body(&mut self, block: BlockId) -> Result<()> {
        while !self.is(Tok::CaretId) && !self.is(Tok::RBrace) {
            if self.tok.start == self.split_at
                && self.split.is_some()
                && self.region_depth == split_parse::BODY_DEPTH
            {
                self.merge_split(block)?;
                continue;
            }
            if self.is(Tok::Eof) {
                return self.err("expected '}' to end the region");
            }
            let op = self.parse_operation()?;
            self.m.push_op(block, op);
        }
        Ok(())
    }
}

fn lossy(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn parse_decimal_u64(s: &[u8]) -> Option<u64> {
    if s.is_empty() {
        return None;
    }
    let mut v: u64 = 0;
    for &c in s {
        if !c.is_ascii_digit() {
            return None;
        }
        v = v.checked_mul(10)?.checked_add((c - b'0') as u64)?;
    }
    Some(v)
}

fn decode_hex(s: &[u8]) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) || !s.iter().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    Some(
        s.chunks(2)
            .map(|c| (lexer::hex_val(c[0]) << 4) | lexer::hex_val(c[1]))
            .collect(),
    )
}

/// Line numbers of source offsets, by counting newlines from the last
/// offset asked about. Locations are asked for in nearly increasing order
/// as the parser goes, so the text is counted about once, and only up to
/// where the parser is: a table of every line start would read the whole
/// file at the first location (faulting back the pages the parser has
/// released) and take 8 bytes per line. An offset before the last one
/// (an op's own location, asked for after its regions) restarts from a
/// mark kept every 64 KiB.
#[derive(Default)]
struct LineCounter {
    /// `(offset, line, start of that line)` last asked about.
    cursor: std::cell::Cell<LinePoint>,
    /// Points at least `MARK_EVERY` bytes apart, in order.
    marks: std::cell::RefCell<Vec<LinePoint>>,
}

#[derive(Clone, Copy)]
struct LinePoint {
    offset: usize,
    line: usize,
    line_start: usize,
}

impl Default for LinePoint {
    fn default() -> Self {
        LinePoint {
            offset: 0,
            line: 1,
            line_start: 0,
        }
    }
}

const MARK_EVERY: usize = 64 << 10;

impl LineCounter {
    fn line_col(&self, src: &[u8], offset: usize) -> (usize, usize) {
        let offset = offset.min(src.len());
        let mut p = self.cursor.get();
        if offset < p.offset {
            let marks = self.marks.borrow();
            let i = marks.partition_point(|m| m.offset <= offset);
            p = i
                .checked_sub(1)
                .map_or_else(LinePoint::default, |i| marks[i]);
        }
        let mut marks = self.marks.borrow_mut();
        while p.offset < offset {
            let last_mark = marks.last().map_or(0, |m| m.offset);
            let step_end = offset.min(p.offset.max(last_mark) + MARK_EVERY);
            let chunk = &src[p.offset..step_end];
            if let Some(last) = chunk.iter().rposition(|&c| c == b'\n') {
                p.line += chunk.iter().filter(|&&c| c == b'\n').count();
                p.line_start = p.offset + last + 1;
            }
            p.offset = step_end;
            if p.offset >= last_mark + MARK_EVERY {
                marks.push(p);
            }
        }
        self.cursor.set(p);
        (p.line, offset - p.line_start + 1)
    }
}

#[cfg(test)]
mod line_counter_tests {
    use super::LineCounter;

    /// From a table of every line start (what the parser used before).
    fn from_table(starts: &[usize], offset: usize) -> (usize, usize) {
        let line = starts.partition_point(|&s| s <= offset);
        (line, offset - starts[line - 1] + 1)
    }

    #[test]
    fn agrees_with_counting_from_the_start_in_any_order() {
        // Lines of varied length, some far longer than a mark interval.
        let mut src = Vec::new();
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..3000 {
            let len = if next() % 50 == 0 {
                200_000
            } else {
                (next() % 120) as usize
            };
            src.extend(std::iter::repeat_n(b'x', len));
            src.push(b'\n');
        }
        let starts: Vec<usize> = std::iter::once(0)
            .chain(
                src.iter()
                    .enumerate()
                    .filter(|(_, &c)| c == b'\n')
                    .map(|(i, _)| i + 1),
            )
            .collect();
        let counter = LineCounter::default();
        let mut offset = 0usize;
        for _ in 0..20_000 {
            // Mostly forward, sometimes back (an op's location after its
            // regions), sometimes far.
            offset = match next() % 10 {
                0 => offset.saturating_sub((next() % 300_000) as usize),
                1 => (next() % (src.len() as u64 + 1)) as usize,
                _ => (offset + (next() % 2_000) as usize).min(src.len()),
            };
            assert_eq!(
                counter.line_col(&src, offset),
                from_table(&starts, offset),
                "offset {offset}"
            );
        }
    }
}
