//! The printed size of a module, bounded before any text is made
//! (SPEC.md §5.1).
//!
//! Attributes, types and locations are interned, so an input can share one
//! many times: `#a0 = [#a1, #a1]`, `#a1 = [#a2, #a2]`, … is 41 short lines
//! of text (or 350 bytes of bytecode) whose print holds 2^40 copies of the
//! innermost string. mlir-opt prints until it is killed. We compute, once
//! per attribute and type (memoized over the DAG, so in time linear in
//! the module), an upper estimate of how many bytes its print takes, with
//! the aliases the printer will use counted as their names, and refuse
//! before printing when the module's total exceeds the caller's limit.
//!
//! The estimate of each node's own text is a little above what the
//! printer makes (a float takes at most 32 bytes, an escaped string byte
//! 3, a dense element byte 8), so it never reports less than the print;
//! the sharing is what a limit must catch, and there the estimate is exact
//! up to those per-node constants.

use super::aliases::{Aliases, Sym};
use rmlir_format::*;
use std::fmt;

/// The print would exceed the limit: which attribute or type grows most,
/// where it is used, and the figures.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutputTooLarge {
    /// The estimated size of the whole print, in bytes.
    pub estimate: u64,
    /// The limit it was checked against.
    pub limit: u64,
    /// Where the attribute or type with the largest print is used, and
    /// its kind: "attribute 'a' (an array attribute)", "a result type",
    /// "the location (a location)".
    pub largest: String,
    /// The estimated size of that attribute's or type's print.
    pub largest_bytes: u64,
    /// How many nodes (attributes and types) its print expands to, counting
    /// every shared one each time it is printed.
    pub largest_nodes: u64,
    /// The op whose print uses it, by name.
    pub used_by: Option<String>,
}

impl fmt::Display for OutputTooLarge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the printed module would take about {} bytes, over the limit of {} bytes: ",
            self.estimate, self.limit
        )?;
        write!(f, "{}", self.largest)?;
        if let Some(op) = &self.used_by {
            write!(f, " of '{op}'")?;
        }
        write!(
            f,
            " expands to about {} bytes ({} nested attributes and types, shared in the input but repeated in the text)",
            self.largest_bytes, self.largest_nodes
        )
    }
}

impl std::error::Error for OutputTooLarge {}

/// What is unknown in a memo slot.
const UNKNOWN: u64 = u64::MAX;

/// Per-symbol estimates of the print's bytes. Leaves (locations of a file
/// and line, scalar types) are not kept: their size costs less to compute
/// again than a memo slot's cache miss, and a module has one location per
/// op.
struct Memo {
    attrs: Vec<u64>,
    types: Vec<u64>,
}

/// Values memoized per symbol by [`fold`].
trait SymMemo {
    fn get(&self, s: Sym) -> Option<u64>;
    fn set(&mut self, s: Sym, v: u64);
}

impl SymMemo for Memo {
    fn get(&self, s: Sym) -> Option<u64> {
        let v = match s {
            Sym::Attr(a) => self.attrs[a.0 as usize],
            Sym::Type(t) => self.types[t.0 as usize],
        };
        (v != UNKNOWN).then_some(v)
    }

    fn set(&mut self, s: Sym, v: u64) {
        match s {
            Sym::Attr(a) => self.attrs[a.0 as usize] = v,
            Sym::Type(t) => self.types[t.0 as usize] = v,
        }
    }
}

impl SymMemo for rmlir_format::fasthash::FastMap<Sym, u64> {
    fn get(&self, s: Sym) -> Option<u64> {
        self.get(&s).copied()
    }

    fn set(&mut self, s: Sym, v: u64) {
        self.insert(s, v);
    }
}

/// A value of every symbol under `root`, in post-order over the DAG,
/// without recursion (memoized, so linear in the DAG however shared it
/// is): `own(s, children)` gives `s`'s own part and lists its children;
/// its value is that plus, per child, `per_child` and the child's value.
/// A child's value is `known(child)` where that gives one (a leaf, an
/// alias), else its own fold. Saturating.
fn fold(
    root: Sym,
    memo: &mut impl SymMemo,
    stack: &mut Vec<Sym>,
    children: &mut Vec<Sym>,
    known: impl Fn(Sym) -> Option<u64>,
    own: impl Fn(Sym, &mut Vec<Sym>) -> u64,
    per_child: u64,
) -> u64 {
    if let Some(v) = memo.get(root) {
        return v;
    }
    stack.clear();
    stack.push(root);
    while let Some(&s) = stack.last() {
        if memo.get(s).is_some() {
            stack.pop();
            continue;
        }
        children.clear();
        let mut value = own(s, children);
        let waiting = stack.len();
        for &c in children.iter() {
            let v = match known(c).or_else(|| memo.get(c)) {
                Some(v) => v,
                None => {
                    stack.push(c);
                    0
                }
            };
            value = value.saturating_add(v).saturating_add(per_child);
        }
        // Children still to fold go first; `s` is folded again once they
        // are known (a DAG: no cycle can keep it waiting).
        if stack.len() == waiting {
            memo.set(s, value);
            stack.pop();
        }
    }
    memo.get(root).unwrap_or(0)
}

/// Checks the module's estimated print against `limit`. The estimate is
/// the alias walk's (`Aliases::print_bytes`, made as the aliases were
/// chosen, at no extra walk), or this module's own walk in local scope.
/// Over the limit, this module's walk finds what to name in the error.
pub(crate) fn check(
    m: &Module,
    top: OpId,
    aliases: &Aliases,
    limit: u64,
) -> Result<u64, OutputTooLarge> {
    let resources = resources_bytes(m);
    match aliases.print_bytes.map(|b| b.saturating_add(resources)) {
        Some(bytes) if bytes <= limit => Ok(bytes),
        Some(bytes) => match estimate(m, top, aliases, 0) {
            Err(mut e) => {
                e.estimate = e.estimate.max(bytes);
                e.limit = limit;
                Err(e)
            }
            // An op prints at least 32 bytes, over a limit of 0.
            Ok(_) => Err(OutputTooLarge {
                estimate: bytes,
                limit,
                largest: "the module".to_string(),
                largest_bytes: bytes,
                largest_nodes: 0,
                used_by: None,
            }),
        },
        None => estimate(m, top, aliases, limit),
    }
}

/// Estimates the module's print and checks it against `limit`.
fn estimate(m: &Module, top: OpId, aliases: &Aliases, limit: u64) -> Result<u64, OutputTooLarge> {
    let mut est = Estimator {
        m,
        aliases,
        memo: Memo {
            attrs: vec![UNKNOWN; m.ctx.num_attrs()],
            types: vec![UNKNOWN; m.ctx.num_types()],
        },
        stack: Vec::new(),
        children: Vec::new(),
        largest: None,
    };
    // The file metadata after the module: resources, once each.
    let mut total: u64 = resources_bytes(m);
    // Alias definitions: `#name = body` once each.
    for (sym, alias) in &aliases.list {
        let body = est.size(*sym);
        total = total.saturating_add(body + aliases.name(alias).len() as u64 + 16);
    }
    // The ops, walked from the top with their nesting depth (indentation).
    let mut ops = vec![(top, 0u64)];
    while let Some((op, depth)) = ops.pop() {
        let cost = est.op(op, depth);
        total = total.saturating_add(cost);
        for &r in m.op(op).regions().iter().rev() {
            for &b in m.region(r).blocks.iter().rev() {
                for &child in m.block(b).ops.iter().rev() {
                    ops.push((child, depth + 1));
                }
            }
        }
    }
    if total > limit {
        return Err(est.error(total, limit));
    }
    Ok(total)
}

/// Where an op prints an attribute or type, for the error.
#[derive(Clone, Copy)]
enum Role<'m> {
    Attribute(&'m [u8]),
    Properties,
    OperandType,
    ResultType,
    Location,
    BlockArgumentType,
    BlockArgumentLocation,
}

struct Estimator<'m> {
    m: &'m Module,
    aliases: &'m Aliases,
    memo: Memo,
    stack: Vec<Sym>,
    children: Vec<Sym>,
    /// The largest symbol met as an op's part: (bytes, sym, op, role).
    largest: Option<(u64, Sym, OpId, Role<'m>)>,
}

impl<'m> Estimator<'m> {
    /// One op's own line(s): its name, values, parts and block headers;
    /// the ops of its regions are counted on their own.
    fn op(&mut self, op: OpId, depth: u64) -> u64 {
        let m = self.m;
        let o = m.op(op);
        let mut c = op_frame_bytes(m, op, depth);
        for &v in m.operands(op) {
            let t = self.used(Sym::Type(m.value(v).ty), op, Role::OperandType);
            c = c.saturating_add(24 + t);
        }
        for v in o.results() {
            let t = self.used(Sym::Type(m.value(v).ty), op, Role::ResultType);
            c = c.saturating_add(24 + t);
        }
        if let Some(p) = o.properties {
            c = c.saturating_add(16 + self.used(Sym::Attr(p), op, Role::Properties));
        }
        // The discardable dictionary prints as its entries.
        if let AttrData::Dictionary(d) = m.ctx.attr(o.attributes) {
            for (name, a) in d {
                let v = self.used(Sym::Attr(*a), op, Role::Attribute(name));
                c = c
                    .saturating_add(v)
                    .saturating_add(3 * name.len() as u64 + 6);
            }
        }
        c = c.saturating_add(self.used(Sym::Attr(o.loc), op, Role::Location));
        for &r in o.regions() {
            for &b in &m.region(r).blocks {
                for &a in &m.block(b).args {
                    let v = m.value(a);
                    let t = self.used(Sym::Type(v.ty), op, Role::BlockArgumentType);
                    c = c.saturating_add(24 + t);
                    if let Some(l) = v.loc {
                        let l = self.used(Sym::Attr(l), op, Role::BlockArgumentLocation);
                        c = c.saturating_add(l);
                    }
                }
            }
        }
        c
    }

    /// The size of `s` where an op prints it, remembering the largest.
    fn used(&mut self, s: Sym, op: OpId, role: Role<'m>) -> u64 {
        let bytes = self.reference(s);
        if self.largest.is_none_or(|l| bytes > l.0) {
            self.largest = Some((bytes, s, op, role));
        }
        bytes
    }

    /// What printing a reference to `s` takes: its alias, or its print.
    fn reference(&mut self, s: Sym) -> u64 {
        match self.aliases.get(s) {
            Some(a) => self.aliases.name(a).len() as u64 + 12,
            None => self.size(s),
        }
    }

    /// The estimated print of `s` itself (an alias definition's body),
    /// its children referenced as the printer refers to them.
    fn size(&mut self, root: Sym) -> u64 {
        let Estimator {
            m,
            aliases,
            memo,
            stack,
            children,
            ..
        } = self;
        if let Some(v) = leaf_size(m, root) {
            return v;
        }
        let known = |c| match aliases.get(c) {
            Some(a) => Some(aliases.name(a).len() as u64 + 12),
            None => leaf_size(m, c),
        };
        fold(
            root,
            memo,
            stack,
            children,
            known,
            |s, ch| own_size(m, s, ch),
            2,
        )
    }

    /// How many attributes and types the print of `root` holds, counting a
    /// shared one each time it is printed (for the error; saturating).
    fn nodes(&self, root: Sym) -> u64 {
        let known = |c| self.aliases.get(c).map(|_| 1);
        let own = |s, ch: &mut Vec<Sym>| {
            own_size(self.m, s, ch);
            1
        };
        let mut memo = InlineMemo::default();
        fold(
            root,
            &mut memo,
            &mut Vec::new(),
            &mut Vec::new(),
            known,
            own,
            0,
        )
    }

    fn error(&self, estimate: u64, limit: u64) -> OutputTooLarge {
        let m = self.m;
        let Some((bytes, s, op, role)) = self.largest else {
            return OutputTooLarge {
                estimate,
                limit,
                largest: "the module".to_string(),
                largest_bytes: estimate,
                largest_nodes: 0,
                used_by: None,
            };
        };
        let kind = match s {
            Sym::Attr(a) => m.ctx.attr(a).kind_phrase(),
            Sym::Type(_) => "a type",
        };
        let largest = match role {
            Role::Attribute(name) => {
                format!("attribute '{}' ({kind})", String::from_utf8_lossy(name))
            }
            Role::Properties => format!("the properties ({kind})"),
            Role::OperandType => format!("an operand's type ({kind})"),
            Role::ResultType => format!("a result's type ({kind})"),
            Role::Location => format!("the location ({kind})"),
            Role::BlockArgumentType => format!("a block argument's type ({kind})"),
            Role::BlockArgumentLocation => format!("a block argument's location ({kind})"),
        };
        OutputTooLarge {
            estimate,
            limit,
            largest,
            largest_bytes: bytes,
            largest_nodes: if self.aliases.get(s).is_some() {
                1
            } else {
                self.nodes(s)
            },
            used_by: Some(String::from_utf8_lossy(m.op_name(op)).into_owned()),
        }
    }
}

/// The `{-# dialect_resources: … #-}` metadata after the module: every
/// resource printed once (the printer prints builtin blobs only where
/// referenced), a blob in hex.
fn resources_bytes(m: &Module) -> u64 {
    let mut c: u64 = 64;
    for g in m.resources.dialect.iter().chain(&m.resources.external) {
        c = c.saturating_add(text(g.name.len()) + 16);
        for (key, value) in &g.entries {
            let v = match value {
                ResourceValue::Bool(_) => 5,
                ResourceValue::String(s) => text(s.len()),
                ResourceValue::Blob { data, .. } => 2 * (data.len() as u64) + 16,
            };
            c = c.saturating_add(text(key.len()) + 16).saturating_add(v);
        }
    }
    c
}

/// An op's print besides its location, operands, results, attributes
/// and block arguments: its name, indentation at `depth` regions deep,
/// successors, and the headers of its regions and blocks.
pub(crate) fn op_frame_bytes(m: &Module, op: OpId, depth: u64) -> u64 {
    let o = m.op(op);
    let indent = 2 * depth;
    let mut c: u64 = indent + 32 + 4 * m.op_names.get(o.name).len() as u64;
    c = c.saturating_add(16 * o.successors().len() as u64);
    for &r in o.regions() {
        c = c.saturating_add(indent + 8);
        let blocks = m.region(r).blocks.len() as u64;
        c = c.saturating_add(blocks.saturating_mul(indent + 16));
    }
    c
}

/// Inline sizes already estimated by [`inline_size`].
pub(crate) type InlineMemo = rmlir_format::fasthash::FastMap<Sym, u64>;

/// The estimated print of `root` with no alias at all: never less than
/// its print with aliases (an alias is never longer than the print it
/// stands for, in these estimates). For what the alias walk does not
/// visit.
pub(crate) fn inline_size(m: &Module, root: Sym, memo: &mut InlineMemo) -> u64 {
    if let Some(v) = leaf_size(m, root) {
        return v;
    }
    let known = |c| leaf_size(m, c);
    let own = |s, ch: &mut Vec<Sym>| own_size(m, s, ch);
    fold(root, memo, &mut Vec::new(), &mut Vec::new(), known, own, 2)
}

/// The size of a symbol that has no children, or `None`.
fn leaf_size(m: &Module, s: Sym) -> Option<u64> {
    match s {
        Sym::Attr(a) => match m.ctx.attr(a) {
            AttrData::UnknownLoc => Some(16),
            AttrData::FileLineCol { file, .. } => Some(text(file.len()) + 32),
            AttrData::FileLineColRange(r) => Some(text(r.file.len()) + 64),
            AttrData::Unit => Some(4),
            _ => None,
        },
        Sym::Type(t) => match m.ctx.ty(t) {
            TypeData::Integer { .. } => Some(12),
            TypeData::Index | TypeData::None => Some(6),
            TypeData::Float(_) => Some(24),
            _ => None,
        },
    }
}

/// Escaped string bytes print as at most 3 bytes each (`\0A`).
fn text(len: usize) -> u64 {
    3 * len as u64 + 2
}

/// The bytes `s` prints besides its children, which are pushed on
/// `children` in any order.
pub(crate) fn own_size(m: &Module, s: Sym, children: &mut Vec<Sym>) -> u64 {
    match s {
        Sym::Attr(a) => own_attr_size(m, m.ctx.attr(a), children),
        Sym::Type(t) => own_type_size(m.ctx.ty(t), children),
    }
}

fn body_size(body: &DialectBody, children: &mut Vec<Sym>) -> u64 {
    let mut c = body.dialect.len() as u64 + 4;
    for p in &body.pieces {
        match p {
            BodyPiece::Text(t) => c += text(t.len()),
            BodyPiece::Attr(x) | BodyPiece::Stripped(x) => children.push(Sym::Attr(*x)),
            BodyPiece::Type(t) => children.push(Sym::Type(*t)),
        }
    }
    c
}

fn own_attr_size(m: &Module, d: &AttrData, children: &mut Vec<Sym>) -> u64 {
    let ty = |t: &Option<TypeId>, children: &mut Vec<Sym>| {
        if let Some(t) = t {
            children.push(Sym::Type(*t));
        }
    };
    match d {
        AttrData::Unit => 4,
        // The type of an integer, a float or a dense array's elements is
        // a scalar (counted here: the alias walk does not visit it).
        AttrData::Integer { value, .. } => 40 + 3 * value.bits().div_ceil(8),
        AttrData::Float { .. } => 72,
        AttrData::String { value, ty: t } => {
            ty(t, children);
            text(value.len()) + 4
        }
        AttrData::Type(t) => {
            children.push(Sym::Type(*t));
            0
        }
        AttrData::Array(elems) => {
            children.extend(elems.iter().map(|&e| Sym::Attr(e)));
            2
        }
        AttrData::Dictionary(entries) => {
            children.extend(entries.iter().map(|(_, v)| Sym::Attr(*v)));
            2 + entries.iter().map(|(n, _)| text(n.len()) + 4).sum::<u64>()
        }
        AttrData::DenseArray { data, .. } => 40 + 8 * data.len() as u64,
        AttrData::DenseIntOrFp { ty: t, data, .. } => {
            children.push(Sym::Type(*t));
            // Decimal elements take at most 8 bytes a stored byte
            // (`false, ` for an i1 byte; floats fewer), hex 2.
            16 + 8 * data.len() as u64
        }
        AttrData::DenseString { ty: t, strings, .. } => {
            children.push(Sym::Type(*t));
            16 + strings.iter().map(|s| text(s.len()) + 2).sum::<u64>()
        }
        AttrData::DenseResource { ty: t, key } => {
            children.push(Sym::Type(*t));
            24 + text(key.len())
        }
        AttrData::Sparse {
            ty: t,
            indices,
            values,
        } => {
            children.push(Sym::Type(*t));
            children.push(Sym::Attr(*indices));
            children.push(Sym::Attr(*values));
            16
        }
        AttrData::SymbolRef { root, nested } => {
            text(root.len()) + nested.iter().map(|n| text(n.len()) + 3).sum::<u64>()
        }
        AttrData::AffineMap(map) => 16 + map.to_string().len() as u64,
        AttrData::IntegerSet(set) => 16 + set.to_string().len() as u64,
        AttrData::Strided { strides, .. } => 40 + 22 * strides.len() as u64,
        AttrData::Distinct { referenced, .. } => {
            children.push(Sym::Attr(*referenced));
            32
        }
        AttrData::Opaque(o) => {
            ty(&o.ty, children);
            o.dialect.len() as u64 + text(o.data.len()) + 4
        }
        AttrData::Dialect { body, ty: t } => {
            ty(t, children);
            body_size(body, children)
        }
        AttrData::UnknownLoc => 16,
        AttrData::FileLineCol { file, .. } => text(file.len()) + 32,
        AttrData::FileLineColRange(r) => text(r.file.len()) + 64,
        AttrData::NameLoc { name, child } => {
            if !matches!(m.ctx.attr(*child), AttrData::UnknownLoc) {
                children.push(Sym::Attr(*child));
            }
            text(name.len()) + 12
        }
        AttrData::CallSiteLoc { callee, caller } => {
            children.push(Sym::Attr(*callee));
            children.push(Sym::Attr(*caller));
            24
        }
        AttrData::FusedLoc {
            locations,
            metadata,
        } => {
            if let Some(md) = metadata {
                children.push(Sym::Attr(*md));
            }
            children.extend(locations.iter().map(|&l| Sym::Attr(l)));
            16
        }
    }
}

fn own_type_size(d: &TypeData, children: &mut Vec<Sym>) -> u64 {
    let dims = |shape: &[i64]| 22 * shape.len() as u64;
    let attr = |a: &Option<AttrId>, children: &mut Vec<Sym>| {
        if let Some(a) = a {
            children.push(Sym::Attr(*a));
        }
    };
    match d {
        TypeData::Integer { .. } => 12,
        TypeData::Index | TypeData::None => 6,
        TypeData::Float(_) => 24,
        TypeData::Complex(e) | TypeData::UnrankedTensor { elem: e } => {
            children.push(Sym::Type(*e));
            12
        }
        TypeData::Tuple(elems) => {
            children.extend(elems.iter().map(|&e| Sym::Type(e)));
            8
        }
        TypeData::Function { inputs, results } => {
            children.extend(inputs.iter().chain(results).map(|&e| Sym::Type(e)));
            8
        }
        TypeData::Vector {
            shape,
            scalable,
            elem,
        } => {
            children.push(Sym::Type(*elem));
            10 + dims(shape) + 2 * scalable.len() as u64
        }
        TypeData::RankedTensor {
            shape,
            elem,
            encoding,
        } => {
            children.push(Sym::Type(*elem));
            attr(encoding, children);
            10 + dims(shape)
        }
        TypeData::MemRef {
            shape,
            elem,
            layout,
            memory_space,
        } => {
            children.push(Sym::Type(*elem));
            attr(layout, children);
            attr(memory_space, children);
            10 + dims(shape)
        }
        TypeData::UnrankedMemRef { elem, memory_space } => {
            children.push(Sym::Type(*elem));
            attr(memory_space, children);
            14
        }
        TypeData::Opaque { dialect, data } => dialect.len() as u64 + text(data.len()) + 4,
        TypeData::Dialect(body) => body_size(body, children),
    }
}
